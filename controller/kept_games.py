"""Games put away by *Still playing?*, offered on the setup menu to be taken up again.

A group that went to the bar for half an hour came back to find its game put away (nobody
answered *Still playing?*), "kept for the staff": the players could not take it up themselves,
and the staff could only at a terminal. Its journal is whole, so taking it up is a resume: the
journal moves back to `current.jsonl` and is replayed, under the house rules it started with
(the config's may have changed since: a game keeps its own, as after a power cut).

Which are offered: the newest `OFFERED` put away, while among the `RECENT` newest archived
games (counted by the archive's numbers, not by the clock, which a Pi may not know): a game
put away last week is kept for the staff, not offered to every group after it.
"""
from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from .rules import GAMES

log = logging.getLogger(__name__)

#: the label of a put-away journal in the archive (`000042-<date>-thirteen-put-away.jsonl`); a
#: game ended with ABANDON twice is `-abandoned`, and is not offered (its players ended it)
PUT_AWAY = "put-away"
#: how many put-away games the games page offers, the newest first
OFFERED = 3
#: a put-away game is offered while it is among this many newest archived games
RECENT = 20
#: a journal's first line, its header, is read up to this many bytes (a header is a few hundred)
HEADER_BYTES = 64 * 1024

_PUT_AWAY_NAME = re.compile(rf"-{PUT_AWAY}(-\d+)?\.jsonl$")


def is_put_away(name: str) -> bool:
    """Whether an archived journal's file `name` is a game put away by *Still playing?*."""
    return _PUT_AWAY_NAME.search(name) is not None


def put_away_label(game: str) -> str:
    """The archive label of `game`'s journal put away by *Still playing?*."""
    return f"{game}-{PUT_AWAY}"


@dataclass(frozen=True)
class KeptGame:
    """A put-away game on offer: its journal's name in the archive, and what its header says."""

    name: str
    game: str
    players: tuple[str, ...]
    moves: int = 0          # the moves it was left at: two put away by the same players differ by them
    # the house rules its journal's header says it was started with: those it is taken up under,
    # so those its HINT card on the menu must tell (not the config's, which may have changed)
    options: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def title(self) -> str:
        found = GAMES.get(self.game)
        return found.title if found is not None else self.game

    def row(self) -> str:
        """The games page's row for it."""
        return f"Take up {self.title}"


def read_header(path: Path) -> tuple[str, tuple[str, ...], dict[str, Any]]:
    """The game, players and house rules of the journal `path` (its first line only)."""
    with path.open("rb") as fh:
        header = json.loads(fh.readline(HEADER_BYTES))
    game, players, options = header["game"], header["players"], header.get("options", {})
    if not isinstance(game, str) or not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ValueError("no game or players in its header")
    if not isinstance(options, dict):
        raise ValueError("its house rules are not a table")
    return game, tuple(players), options


def read_kept(path: Path) -> KeptGame | None:
    """The put-away game whose journal is `path` (its header only), None if it cannot be read:
    such a journal stays for the staff, and the menu offers the others."""
    try:
        game, players, options = read_header(path)
        moves = count_moves(path)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("put-away game %s cannot be offered: %s", path, exc)
        return None
    return KeptGame(path.name, game, players, moves, options)


def count_moves(path: Path) -> int:
    """The moves a journal holds: its inputs (lines with a `type`), less those taken back (a
    line that does not read is not counted: the resume says what it makes of it)."""
    moves = 0
    with path.open("rb") as fh:
        fh.readline(HEADER_BYTES)
        for line in fh:
            try:
                data = json.loads(line)
            except ValueError:
                continue
            if isinstance(data, dict):
                moves += 1 if "type" in data else -1 if data.get("undo") is True else 0
    return max(0, moves)


#: archived journals that are no game a group played to its end (or ended): kept aside, or put away
_NOT_PLAYED = re.compile(rf"-(unreadable|damaged|{PUT_AWAY})(-\d+)?\.jsonl$")


def last_played(folder: Path, archived: Sequence[str]) -> tuple[str, tuple[str, ...], dict[str, Any]] | None:
    """The game, players and house rules of the newest journal archived in `folder`, if it is a
    game the players finished or ended (not one put away, nor one kept aside as damaged)."""
    if not archived or _NOT_PLAYED.search(archived[-1]):
        return None
    try:
        return read_header(folder / archived[-1])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("the last game played, %s, cannot be read: %s", archived[-1], exc)
        return None


def offered(folder: Path, archived: Sequence[str]) -> tuple[KeptGame, ...]:
    """The put-away games to offer, newest first, of the names `archived` in `folder` (oldest
    first, as `table_app.archived_journals` lists them)."""
    found: list[KeptGame] = []
    for name in reversed(archived[-RECENT:]):
        if len(found) == OFFERED:
            break
        if _PUT_AWAY_NAME.search(name):
            kept = read_kept(folder / name)
            if kept is not None:
                found.append(kept)
    return tuple(found)
