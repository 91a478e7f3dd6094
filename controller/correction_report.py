"""How often the players corrected the dice in the last games, for `dicetable check`.

Staff run `check` after a complaint ("the table keeps misreading"). The table logs every correction
(*dice corrected by hand: read 1 2 3 4 5, set 2 2 3 4 5 (die 1: 1 -> 2)*, controller/table.py),
each game's start (*new game: ...*) and its end (*journal archived as games/....jsonl*), and keeps
the ended game's journal, whose dice lines are its throws. Nothing else is written for this (a
journal line would change what a resume replays): the report is read from those, the corrections
of each game between its start and its archiving, its throws from its archived journal. Before,
`check` said nothing of them, and staff had to read the whole log by hand.
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from .correction import STAFF_AFTER, STAFF_SHARE
from .journal import Journal
from .kept_games import is_put_away
from .tablelog import LogError

NEW_GAME = "new game: "
CORRECTED = "dice corrected by hand: "
ARCHIVED = "journal archived as "
#: a game put away by *Still playing?* taken up again from the menu (table_app.take_up)
TAKEN_UP = re.compile(r"put-away game (.+) taken up\s*$")
#: how many of the last games the check reports
LAST_GAMES = 5
#: how much of the log the check reads: its last lines, some weeks of play at a busy café
#: (~100 lines a game). A number, not a time: journald stamps each line with the wall clock, and a
#: Pi (no clock battery) writes its lines in 1970, or at the time fake-hwclock saved before a month
#: closed, until the network sets its clock; "--since -30 days", counted back from the clock set,
#: left out the morning's game up to then (its start, its first corrections)
LOG_LINES = 100_000
#: what the check reads: the service's log as journald keeps it (messages alone), its last lines
JOURNALCTL = ("journalctl", "-u", "dicetable", "-o", "cat", "--no-pager", "-q", "-n", str(LOG_LINES))
_CHANGED = re.compile(r"die \d+: \d -> \d")


@dataclass
class GameCorrections:
    """One game of the log: what it was, the throws the players corrected (a die read changed),
    its throws (from its archived journal; None: not archived yet, or not readable)."""

    title: str
    corrected: int = 0
    throws: int | None = None
    ended: bool = False
    put_away: bool = False       # left by its players (*Still playing?*), not taken up since

    def too_many(self) -> bool:
        """The table's own rule for telling the staff (controller.correction.Tally)."""
        return self.corrected >= STAFF_AFTER and (self.throws is None or self.corrected >= STAFF_SHARE * self.throws)

    def words(self) -> str:
        of = f" of {self.throws}" if self.throws is not None else ""
        return f"{self.title}: {self.corrected}{of} throw{'s' if (self.throws or self.corrected) != 1 else ''}" + \
            (" (put away)" if self.put_away else "" if self.ended else " (still on the table)")


def games_in_log(lines: Iterable[str], journal_dir: Path | None = None) -> list[GameCorrections]:
    """The games the log's `lines` tell of, in order, with their corrections. A correction whose
    'no die read changed' (every die passed with OK) is not counted, as the table does not."""
    games: list[GameCorrections] = []
    current: GameCorrections | None = None
    put_away: dict[str, GameCorrections] = {}     # by the name its journal was put away under
    for line in lines:
        taken = TAKEN_UP.search(line)
        if NEW_GAME in line:
            if current is not None:
                games.append(current)
            current = GameCorrections(line.split(NEW_GAME, 1)[1].strip())
        elif CORRECTED in line:
            if current is None:
                current = GameCorrections("a game begun before the log")
            current.corrected += bool(_CHANGED.search(line))
        elif ARCHIVED in line and current is not None:
            path = Path(line.split(ARCHIVED, 1)[1].strip())
            current.ended = True
            current.throws = throws_in(path, journal_dir)
            if is_put_away(path.name):
                current.put_away = True
                put_away[path.name] = current
            games.append(current)
            current = None
        elif taken is not None and Path(taken.group(1)).name in put_away:
            # the game goes on: one game, its corrections before and after (it was listed twice,
            # the second half as "a game begun before the log")
            if current is not None:
                games.append(current)
            current = put_away.pop(Path(taken.group(1)).name)
            games = [g for g in games if g is not current]
            current.ended = current.put_away = False
            current.throws = None
    if current is not None:
        games.append(current)
    return games


def throws_in(path: Path, journal_dir: Path | None = None) -> int | None:
    """The throws (dice lines) of an archived journal; None where it cannot be read (removed by
    keep_games, or another user's)."""
    if not path.is_absolute() and journal_dir is not None:
        path = journal_dir / path
    try:
        log, _ = Journal.read(path)
    except (LogError, OSError):
        return None
    return sum(isinstance(i, dict) and i.get("type") == "dice" for i in log.inputs)


def read_service_log(run: Callable[..., subprocess.CompletedProcess] = subprocess.run) -> list[str] | str:
    """The table service's log lines, or why they cannot be read (in the staff's words)."""
    try:
        done = run(list(JOURNALCTL), capture_output=True, text=True, timeout=20)
    except FileNotFoundError:
        return "no journalctl here (the table's log is systemd's)"
    except (OSError, subprocess.SubprocessError) as exc:
        return f"journalctl failed ({exc})"
    said = (done.stderr or "").lower()
    if "insufficient permissions" in said or "not seeing messages" in said:
        return "this user may not read the table's log: run dicetable check with sudo, or from a login in the adm group"
    if done.returncode != 0:
        return f"journalctl failed ({(done.stderr or '').strip() or done.returncode})"
    return done.stdout.splitlines()


def corrections_said(lines: list[str] | str, journal_dir: Path | None = None,
                     last: int = LAST_GAMES) -> tuple[str, str]:
    """(level, text) of the check's corrections line: "ok" or "warning" (a game whose players
    corrected as often as the table tells the staff), from the service log's `lines` (a str:
    why they could not be read)."""
    if isinstance(lines, str):
        return "ok", f"not read: {lines}"
    games = games_in_log(lines, journal_dir)[-last:]
    if not games:
        return "ok", f"no game in the table's log yet (its last {LOG_LINES:,} lines)"
    said = "; ".join(g.words() for g in games)
    text = f"dice corrected by hand in the last {len(games)} game{'s' if len(games) > 1 else ''}: {said}"
    if any(g.too_many() for g in games):
        return "warning", (f"{text}. The players keep correcting the camera: clean its lens and check the light "
                           "over the tray (dicetable calibrate)")
    return "ok", text
