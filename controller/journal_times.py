"""How long a game's journal was left alone, read from the time the card keeps for it
(controller/table_app.py).

Out of `TableApp` (fix-appsplit). The journal's modification time is the time of the game's last
move: a game left overnight is asked *Still playing?* at the start, and the menu keeps the game
just played only when it was played a moment ago. A Raspberry Pi has no clock battery, so these
times are trusted only where both ends were on a clock the network set (`WallClock.synced`).
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

from .wallclock import WallClock

# (the staff's log filters read these lines as the app's: its name is kept)
log = logging.getLogger("controller.table_app")


def journal_age(wall: WallClock, written_at: int | None) -> float:
    """Seconds since the journal was last written at `written_at` (ns), counted only where both
    times are the real time: the clock set by the network now, and when it was written (a time
    written on a clock not set is 0, `journal_time`). 0 when not known, or in the future.

    A Pi without a clock battery writes its journal in 1970, or up to an hour early, until the
    network sets its clock: counted from such a time, a game whose players were at the table
    a moment before was asked *Still playing?* at once, and put away two minutes later
    (*Nobody played ... for 20454 days*), whenever the table restarted after the clock was set
    and before the next move. Without network the table never knows how long it was off: a
    game left is asked about `idle_minutes` after the start."""
    if not written_at or not wall.synced():
        return 0.0
    return max(0.0, wall.now() - written_at / 1e9)


def journal_time(wall: WallClock) -> int:
    """The time (ns) the journal gets as it is written: the wall clock's where the network set
    it, else 0, a time the table cannot vouch for (see `journal_age`)."""
    return int(wall.now() * 1e9) if wall.synced() else 0


def written_at(path: Path) -> int | None:
    """When the journal was last written (ns), None if unknown."""
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def keep_written_at(path: Path, written_at: int | None) -> None:
    """The journal written again on resume keeps the time of its last move: it is how long
    the game was left alone (`journal_age`), and a second cut took the first resume for a
    move (a game left overnight, asked *Still playing?* at once, was not asked after a
    flicker of the power). Not set: at worst the question comes idle_minutes later."""
    if written_at is None:
        return
    try:
        os.utime(path, ns=(written_at, written_at))
    except OSError as exc:
        log.debug("cannot keep the time of the journal %s: %s", path, exc)
