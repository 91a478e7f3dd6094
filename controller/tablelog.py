"""The table log: one game as data (game, players, options, then every input in order).

Resume is replay: a log rebuilds the exact state, so nothing else about a game needs saving.
The format is documented in docs/table-log.md.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

from .plain_file import write_whole
from .rules import GameState, IllegalInput, find_game
from .rules.base import Input, RulesError, cut, resolve_options, shown

FORMAT = "dicetable-log/1"
#: the most characters of the rules' reason a log error quotes (the rules cut the values they
#: quote; this is for any that does not)
REASON = 200


class LogError(Exception):
    """A log that cannot be read or replayed. `index` is the failing input's position, if any."""

    def __init__(self, message: str, index: int | None = None):
        super().__init__(message)
        self.index = index


class OtherVersion(LogError):
    """A whole log this version cannot take up: another format, or a game or an option it does
    not know (renamed or removed by an update). Not damage: staff are told to update, not to
    replace the card."""


class RefusedGame(LogError):
    """A log of a game this version knows but whose rules refuse it as set up: a player count
    the game does not take, an empty or repeated name, an option value out of bounds (a header
    edited by hand, most likely). Neither another version nor a damaged card: the message is the
    rules' own words ("Classic poker dice takes 2 to 8 players, not 9"), for the staff."""


@dataclass
class TableLog:
    game: str
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    inputs: list[Input] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "players": list(self.players),
                "options": dict(self.options), "inputs": list(self.inputs)}

    @classmethod
    def from_json(cls, data: Any, formats: tuple[str, ...] = (FORMAT,)) -> "TableLog":
        """`formats`: those taken (a journal's header has its own, see journal.JOURNAL_FORMAT)."""
        if not isinstance(data, dict):
            raise LogError("a table log is a JSON object with game, players, options and inputs")
        fmt = data.get("format", FORMAT)
        if fmt not in formats:
            raise OtherVersion(f"unknown log format {shown(fmt)} (this program reads "
                               f"{' or '.join(map(repr, formats))})")
        game, players = data.get("game"), data.get("players")
        options, inputs = data.get("options", {}), data.get("inputs", [])
        if not isinstance(game, str):
            raise LogError("the log has no 'game' name")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise LogError("'players' must be a list of names")
        if not isinstance(options, dict):
            raise LogError("'options' must be an object")
        if not isinstance(inputs, list):
            raise LogError("'inputs' must be a list")
        from .names import logged_names

        return cls(game, logged_names(players), dict(options), list(inputs))

    @classmethod
    def load(cls, path: str | Path) -> "TableLog":
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise LogError(f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise LogError(f"{path} is not a text file (a table log is UTF-8 JSON)") from None
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise LogError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
        except (ValueError, RecursionError) as exc:    # a number too long, arrays nested too deep
            raise LogError(f"{path} is not a table log: {exc}") from None

    def save(self, path: str | Path) -> None:
        """Write atomically: a power cut leaves the old log or the new one. The temp file is
        fsynced before the rename and the folder after it: without them a cut within the kernel's
        writeback (some 30 s) could leave the new name on an empty or half-written file (ext4's
        delayed allocation), the game's log lost though the rename had been done."""
        write_whole(path, json.dumps(self.to_json(), indent=1) + "\n")     # (beside as PATH.tmp)

    def start(self) -> GameState:
        """The game before its first input. A game or an option this version does not know is
        OtherVersion (an update renamed or removed it); anything else the rules refuse is
        RefusedGame: both were OtherVersion, and staff were told of another version for a
        journal whose header had 9 players or a name twice."""
        try:
            game = find_game(self.game)
        except RulesError as exc:
            raise OtherVersion(str(exc)) from None
        known = {spec.name for spec in game.OPTIONS}
        unknown = sorted(name for name in self.options if name not in known)
        if unknown:
            raise OtherVersion(f"unknown option {shown(unknown[0])} for game {self.game!r} "
                               f"(known: {', '.join(sorted(known))})")
        try:
            return game.new(self.players, self.options)
        except RulesError as exc:
            raise RefusedGame(cut(str(exc), REASON)) from None

    def with_every_option(self) -> "TableLog":
        """This log with the value of every house rule of its game in its options, the defaults
        filled in: what a new game's log or journal records. A log that kept only the rules that
        differ from the defaults was played, once resumed or replayed by a build whose default had
        changed, under the new default (moves refused, scores changed). Refused as start() refuses."""
        self.start()
        specs = find_game(self.game).OPTIONS
        every = resolve_options(specs, self.options, self.game)
        return replace(self, options=copy.deepcopy(every), inputs=list(self.inputs))   # (nothing shared)


def replay(log: TableLog, inputs: Iterable[Input] | None = None) -> GameState:
    """Apply every input of the log; an illegal one raises LogError with its index."""
    state = log.start()
    for index, data in enumerate(log.inputs if inputs is None else inputs):
        try:
            state = state.apply(data)
        except IllegalInput as exc:
            raise LogError(f"input {index} is illegal: {cut(str(exc), REASON)}", index) from None
    return state
