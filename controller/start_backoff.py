"""A table that stops as it starts is started again more and more slowly, and says so.

systemd restarts the service two seconds after it stops (`RestartSec=2`), forever
(`StartLimitIntervalSec=0`: a table that gave up after five quick failures helps nobody). But a
table that cannot start at all (a library that no longer loads after an update, a screen that
is not there, a second table holding the games) was restarted every 2 s for ever: 1,800 starts
and tracebacks an hour in the journal, a Pi loading Python and its libraries non-stop, and a
black screen. systemd 252 (Raspberry Pi OS Bookworm) has no `RestartSteps=` to slow down by
itself, so the table counts its own starts: in a file of its runtime folder (`/run/dicetable`,
kept across restarts by `RuntimeDirectoryPreserve=restart`, emptied by a stop or a power-off),
it notes when it started and how many starts in a row came soon after the one before. The
first few go at systemd's pace (a passing failure costs 2 s); after that each start waits
longer, up to five minutes, saying so in the log and, if it can, on the screen. A table that
ends cleanly (stopped, restarted or updated by staff) clears the count.

Standard library only: this runs before the program's own imports, which are what may fail.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .plain_file import read_plain, write_whole

log = logging.getLogger("dicetable")

RECORD = "starts"               # the file, in the service's runtime folder
FAST_S = 60.0                   # a start this soon after the one before: the one before stopped early
FREE_STARTS = 3                 # that many in a row go at systemd's pace
WAITS_S = (10.0, 30.0, 60.0, 120.0, 300.0)   # then these waits, the last one for good


@dataclass(frozen=True)
class Starts:
    """What the record says: `streak` starts in a row came within FAST_S of the one before; the
    last one began at `at` (CLOCK_MONOTONIC: the same for every process until the Pi restarts,
    as is the runtime folder)."""

    streak: int
    at: float


def load(path: Path) -> Starts | None:
    """The record, or None: none yet, or one that cannot be read (counted as a first start)."""
    try:
        # (not read_text: a FIFO there hung every start before the table's first line)
        streak, at = read_plain(path, 64).decode("ascii").split()
        starts = Starts(int(streak), float(at))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return starts if starts.streak >= 0 and starts.at == starts.at else None    # (not nan)


def save(path: Path, starts: Starts) -> None:
    """Written whole (a new file, RECORD.part, moved over the old one); a folder that cannot be
    written only costs the back-off, never the start. Not synced, on purpose: a record a power
    cut loses is read as none, a first start, and this runs at every start of the table."""
    try:
        write_whole(path, f"{starts.streak} {starts.at!r}\n", tmp=path.with_name(path.name + ".part"),
                    sync=False, folder="no")
    except OSError as exc:
        log.warning("cannot note this start in %s (%s): a table that keeps stopping as it starts will be "
                    "restarted every 2 s", path, exc.strerror or exc)


def clear(path: Path) -> None:
    """The table ended cleanly: the next start is a first start."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def this_start(previous: Starts | None, now: float) -> Starts:
    """The streak of this start, begun at `now`."""
    fast = previous is not None and 0.0 <= now - previous.at < FAST_S
    return Starts(previous.streak + 1 if fast else 0, now)


def wait_before(streak: int) -> float:
    """Seconds to wait before a start that is the `streak`-th fast one in a row."""
    if streak < FREE_STARTS:
        return 0.0
    return WAITS_S[min(streak - FREE_STARTS, len(WAITS_S) - 1)]


def why(streak: int, seconds: float) -> str:
    """What the log says as the table starts to wait."""
    return (f"the table stopped {streak} times in a row within a minute of starting: waiting {seconds:.0f} s "
            f"before starting it again (then longer each time, {WAITS_S[-1] / 60:.0f} minutes at most; "
            "sudo systemctl restart dicetable starts it at once). The reason is in the lines above")


def screen_text(streak: int) -> str:
    """What the screen says while the table waits (the seconds left are counted below it)."""
    return (f"The table stopped {streak} times in a row as it started, so it now waits before each new try "
            f"({WAITS_S[-1] / 60:.0f} minutes at most). A game in progress is kept: it resumes once the table "
            "starts. Staff: the reason is in the log (docs/install.md, section 10); "
            "sudo systemctl restart dicetable tries again at once.")


def wait(seconds: float, *, clock: Callable[[], float], sleep: Callable[[float], None],
         tick: Callable[[float], None]) -> None:
    """Wait `seconds` by `clock`, calling `tick(seconds left)` at least once a second (the
    watchdog's ping, the screen's countdown)."""
    end = clock() + seconds
    while (left := end - clock()) > 0:
        tick(left)
        sleep(min(1.0, left))


def before_start(folder: Path, *, clock: Callable[[], float], sleep: Callable[[float], None],
                 tick: Callable[[float], None] = lambda left: None,
                 waiting: Callable[[int, float], None] = lambda streak, seconds: None) -> Starts:
    """Note this start in `folder`, after waiting as long as the starts before it call for.
    `waiting(streak, seconds)` is called once before a wait (to say it)."""
    path = folder / RECORD
    starts = this_start(load(path), clock())
    seconds = wait_before(starts.streak)
    if seconds > 0:
        log.error("%s", why(starts.streak, seconds))
        waiting(starts.streak, seconds)
        wait(seconds, clock=clock, sleep=sleep, tick=tick)
        starts = Starts(starts.streak, clock())
    save(path, starts)
    return starts
