"""The one interface every game implements.

A game is a deterministic state machine fed by two kinds of input: dice (a chance node: values
read off the tray) and decisions (a player node: a choice among enumerated options, or which dice
to throw again). At every moment `expects()` says exactly which input comes next; the table flow
only satisfies expectations, so one controller and one screen serve all five games.

Inputs are plain JSON records so that a game's whole history is a list that can be logged,
replayed after a power cut and written down as a test vector:

    {"type": "dice",   "player": 0, "values": [3, 3, 5]}        # the dice just thrown (not the held ones)
    {"type": "choose", "player": 0, "option": "FULL_HOUSE"}      # one of Decide.options, by key
    {"type": "reroll", "player": 0, "keep": [6, 6]}              # keep these held, throw the rest again

Dice values are always die faces 1..6 as read off the tray; a game with other face labels (the 9..A
of classic poker dice) maps them itself and says how to show them (`Throw.faces`).
"""
from __future__ import annotations

import unicodedata
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable, Mapping, Sequence

Input = dict[str, Any]


# --------------------------------------------------------------------------------------- errors
class RulesError(Exception):
    """Base of the errors the rules raise; the message is meant for players' eyes."""


class IllegalInput(RulesError):
    """The input does not fit what the game expects now. The state is unchanged."""


class OptionError(RulesError, ValueError):
    """An unknown option name or a bad option value (the message names it)."""


#: the most characters of an offending value a message quotes
SHOWN = 40


def shown(value: Any, limit: int = SHOWN) -> str:
    """`value` as a message quotes it (its repr), cut to `limit` characters: a log whose input held
    a megabyte of dice or a name of a megabyte made a message of a megabyte, one line of the
    terminal, of the system log, of the replay's JSON."""
    return cut(repr(value), limit)


def cut(text: str, limit: int = SHOWN) -> str:
    """`text` cut to `limit` characters, "..." saying it was."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


# --------------------------------------------------------------------------------- expectations
@dataclass(frozen=True)
class Throw:
    """The game waits for dice: `count` new dice thrown by `player` (None: the table itself).

    `held` are the dice that stay on the table from before (the camera must still see them,
    unchanged). The input carries only the `count` new values.
    """

    player: int | None
    count: int
    held: tuple[int, ...] = ()
    prompt: str = ""
    purpose: str = "throw"           # "throw" | "rethrow" | "white" | "reveal" | "imaginary" ...
    faces: tuple[str, ...] | None = None   # labels of faces 1..6 if not pips (classic: 9 10 J Q K A)
    secret: bool = False             # the values must not be shown to the other players
    drawn: bool = False              # no physical dice: the table draws the values itself (an
    #                                  imaginary player's cup the players chose to leave to it)
    kind: ClassVar[str] = "throw"


@dataclass(frozen=True)
class Option:
    """One enumerated choice of a decision. `points` previews what it would score."""

    key: str
    label: str
    points: int | None = None
    row: str | None = None           # sheet row this option writes to (for highlighting)
    group: str = ""                  # "score", "cross", "card", "bet", "abandon", ...
    # choosing it shows what was kept secret (objective cards' STOP turns every card over): it
    # stands for good, since what was shown cannot be hidden again (see Decide.reveals)
    reveals: bool = False
    # what choosing it does beyond its points, in the players' words, drawn beside the label:
    # Thirteen's "give up" (a box the dice miss, lost to the bottom bonus) and "+10 early" (a
    # figure closed before the third throw): a bare "Straights 0" or "3 of a kind 35" said neither
    note: str = ""
    # shorter forms of `label`, longest first, each keeping what tells it from the other options:
    # a menu too narrow for the label draws one ("S2 bank 1") rather than cut it ("School 2, ba...")
    short: tuple[str, ...] = ()


@dataclass(frozen=True)
class RerollSpec:
    """The player may instead keep a sub-multiset of `dice` and throw the others again."""

    dice: tuple[int, ...]
    min_rethrow: int = 1             # 0 means "keep all" is a legal reroll (it ends the throwing)
    max_rethrow: int = 5


@dataclass(frozen=True)
class Decide:
    """The game waits for `player` to choose one of `options` or (if `reroll`) dice to rethrow."""

    player: int
    options: tuple[Option, ...]
    prompt: str = ""
    reroll: RerollSpec | None = None
    secret: bool = False             # others must not see the choice (objective cards, abandon)
    kind: ClassVar[str] = "decide"

    def option(self, key: str) -> Option | None:
        for opt in self.options:
            if opt.key == key:
                return opt
        return None

    def reveals(self, data: Mapping[str, Any]) -> bool:
        """Whether the choice `data` made on this decision shows what was secret. A table must not
        take it back: the player would choose again knowing it (an objective-cards STOP taken
        back let the active player throw again knowing every other card)."""
        if not isinstance(data, Mapping) or data.get("type") != "choose":
            return False
        opt = self.option(data.get("option"))
        return opt is not None and opt.reveals


@dataclass(frozen=True)
class GameOver:
    kind: ClassVar[str] = "over"
    prompt: str = "Game over"


Expectation = Throw | Decide | GameOver


# ------------------------------------------------------------------------------- input records
def dice_input(player: int | None, values: Iterable[int]) -> Input:
    return {"type": "dice", "player": player, "values": [int(v) for v in values]}


def choose_input(player: int, option: str) -> Input:
    return {"type": "choose", "player": player, "option": option}


def reroll_input(player: int, keep: Iterable[int]) -> Input:
    return {"type": "reroll", "player": player, "keep": sorted(int(v) for v in keep)}


def check_input(expect: Expectation, data: Any) -> Input:
    """Validate an input record against the current expectation; return it normalised.

    Games call this first in `apply()` so that every game rejects malformed records the same
    way and with the same words. Raises IllegalInput saying why.
    """
    if not isinstance(data, Mapping):
        raise IllegalInput(f"an input must be a record like {{'type': 'dice', ...}}, not {shown(data)}")
    kind = data.get("type")
    if isinstance(expect, GameOver):
        raise IllegalInput("the game is over: no more input is accepted")
    if kind not in ("dice", "choose", "reroll"):
        raise IllegalInput(f"unknown input type {shown(kind)} (expected 'dice', 'choose' or 'reroll')")
    player = data.get("player", getattr(expect, "player", None))
    if player is not None and (not isinstance(player, int) or isinstance(player, bool)):
        # (a seat number as text, "1", would read "waiting for dice from player 1, not from player 1")
        raise IllegalInput(f"a player is a seat number (0 for the first player), not {shown(player)}")
    if isinstance(expect, Throw):
        if kind != "dice":
            raise IllegalInput(f"waiting for {expect.count} dice to be thrown, not a {shown(kind)}")
        if player != expect.player:
            raise IllegalInput(f"waiting for dice from player {expect.player}, not from player {player}")
        values = data.get("values")
        if not isinstance(values, (list, tuple)) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values
        ):
            raise IllegalInput(f"dice values must be a list of whole numbers, not {shown(values)}")
        bad = [v for v in values if not 1 <= v <= 6]
        if bad:
            raise IllegalInput(f"a die shows 1 to 6, not {bad[0]}")
        if len(values) != expect.count:
            raise IllegalInput(f"expected {expect.count} dice, got {len(values)}")
        return {"type": "dice", "player": player, "values": list(values)}
    # a decision
    if kind == "dice":
        raise IllegalInput(f"waiting for a decision by player {expect.player}, not for dice")
    if player != expect.player:
        raise IllegalInput(f"waiting for player {expect.player} to decide, not player {player}")
    if kind == "choose":
        key = data.get("option")
        if not isinstance(key, str) or expect.option(key) is None:
            legal = ", ".join(o.key for o in expect.options) or "none"
            raise IllegalInput(f"{shown(key)} is not a legal choice now (legal: {legal})")
        return {"type": "choose", "player": player, "option": key}
    spec = expect.reroll
    if spec is None:
        raise IllegalInput("re-throwing dice is not allowed now")
    keep = data.get("keep")
    if not isinstance(keep, (list, tuple)) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in keep
    ):
        raise IllegalInput(f"'keep' must be a list of die values, not {shown(keep)}")
    if not multiset_contains(spec.dice, keep):
        raise IllegalInput(f"cannot keep {shown(sorted(keep))}: the dice are {sorted(spec.dice)}")
    rethrow = len(spec.dice) - len(keep)
    if rethrow < spec.min_rethrow:
        dice = "die" if spec.min_rethrow == 1 else "dice"
        raise IllegalInput(f"throw at least {spec.min_rethrow} {dice} again (or choose another option)")
    if rethrow > spec.max_rethrow:
        raise IllegalInput(f"at most {spec.max_rethrow} dice may be thrown again")
    return {"type": "reroll", "player": player, "keep": sorted(keep)}


def multiset_contains(pool: Sequence[int], part: Sequence[int]) -> bool:
    need = Counter(part)
    have = Counter(pool)
    return all(have[v] >= n for v, n in need.items())


def multiset_minus(pool: Sequence[int], part: Sequence[int]) -> list[int]:
    """`pool` without the values of `part` (each removed once). Order of pool kept."""
    need = Counter(part)
    out = []
    for v in pool:
        if need[v] > 0:
            need[v] -= 1
        else:
            out.append(v)
    return out


# ------------------------------------------------------------------------------------- options
@dataclass(frozen=True)
class OptionSpec:
    """A named house rule with its default, as the specs list them."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None     # the legal values, if enumerated
    type: type | tuple[type, ...] | None = None  # inferred from the default if None
    minimum: int | None = None
    maximum: int | None = None
    shown: tuple[tuple[Any, str], ...] = ()      # (choice, words) where the spec's name is jargon
    # what a list or a table must hold, checked with the type: OptionError if it does not (a
    # face_mapping using a rank twice passed the config file and `dicetable check`, and was only
    # refused when players chose the game; one with a face "²" raised ValueError instead)
    validate: Callable[[Any], Any] | None = None

    def words(self, value: Any) -> str:
        """How a setup screen names `value`: its words if given, else the name, spaced."""
        return dict(self.shown).get(value, str(value).replace("_", " "))

    def check(self, value: Any) -> Any:
        if self.choices is not None:
            if value not in self.choices:
                raise OptionError(
                    f"option {self.name!r}: {shown(value)} is not one of {', '.join(map(repr, self.choices))}"
                )
            return value
        expected = self.type or type(self.default)
        if expected is int and isinstance(value, bool) or not isinstance(value, expected):
            kinds = expected if isinstance(expected, tuple) else (expected,)
            words = {"int": "a whole number", "bool": "true or false", "str": "a word", "float": "a number",
                     "dict": "a table of values", "list": "a list"}
            name = " or ".join(words.get(k.__name__, k.__name__) for k in kinds)
            raise OptionError(f"option {self.name!r}: {shown(value)} is not {name}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {self.name!r}: {value!r} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {self.name!r}: {value!r} is above the maximum {self.maximum}")
        if self.validate is not None:
            self.validate(value)
        return value


#: `first_player`: who plays first, the `start_seat` or a seat the table draws when the game starts.
#: Offered by the games whose spec leaves the first player to chance or to the table (Thirteen,
#: School, Pok'n Roll: "random or configured"; Classic: "not specified"), not by Objective cards,
#: whose rule names the youngest. The engines never draw: the table does (controller.draws), puts
#: the seat drawn in `start_seat` and journals both in the game's header, so a replay or a resume
#: starts at the seat drawn and never draws again.
FIRST_SEAT, FIRST_DRAWN = "start_seat", "drawn"


def first_player_option() -> OptionSpec:
    """The `first_player` house rule, the same in every game that has it."""
    return OptionSpec("first_player", FIRST_SEAT,
                      "who plays first: the player at the start seat, or one the table draws at random "
                      "and names as the game starts (a restart does not draw again)",
                      choices=(FIRST_SEAT, FIRST_DRAWN),
                      shown=((FIRST_SEAT, "the start seat"), (FIRST_DRAWN, "drawn by the table")))


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any] | None, game: str) -> dict[str, Any]:
    """Defaults overlaid with `given`; unknown names and bad values raise OptionError."""
    by_name = {s.name: s for s in specs}
    out = {s.name: s.default for s in specs}
    for name, value in (given or {}).items():
        spec = by_name.get(name)
        if spec is None:
            raise OptionError(f"unknown option {shown(name)} for game {game!r} (known: {', '.join(sorted(by_name))})")
        out[name] = spec.check(value)
    return out


# ---------------------------------------------------------------------------------- score sheet
@dataclass(frozen=True)
class Cell:
    """One box of a sheet. `kind` tells the screen how to draw it, never the game."""

    text: str = ""
    value: int | None = None
    kind: str = "empty"    # empty | score | cross | award | preview | total | tick | info | hand
    highlight: bool = False  # e.g. the winner's total, the round winner's hand, the current cell
    # shorter forms of `text`, longest first: the game words them, a screen too narrow for the
    # text picks one ("captured by Eve" -> "to Eve"), never cuts the game's words itself first
    short: tuple[str, ...] = ()
    # what the cell holds that is earned, when it also shows points still pending (ticks written
    # beside the one a choice would add; a bonus earned beside one a joker would add): the sheet
    # of a game abandoned at that decision shows this alone. None: a preview holds nothing
    # earned, any other cell only what is earned.
    settled: Cell | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "kind": self.kind}
        if self.value is not None:
            out["value"] = self.value
        if self.highlight:
            out["highlight"] = True
        if self.short:
            out["short"] = list(self.short)
        if self.settled is not None:
            out["settled"] = self.settled.to_json()
        return out


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    cells: tuple[Cell, ...]
    kind: str = "normal"    # normal | subtotal | bonus | total | separator
    # shorter forms of `label`, longest first, as the game words them: a screen whose labels'
    # column is too narrow (320x240, three players and more) draws one ("Lo. bonus") rather than
    # cut the label to a start that names no row ("Bottom...", "Extra 5...")
    short: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "label": self.label, "kind": self.kind,
                               "cells": [c.to_json() for c in self.cells]}
        if self.short:
            out["short"] = list(self.short)
        return out


@dataclass(frozen=True)
class Table:
    title: str
    columns: tuple[str, ...]           # column headers, not counting the row-label column
    rows: tuple[Row, ...]
    active_column: int | None = None   # the column of the player to act, if any
    short: tuple[str, ...] = ()        # shorter forms of `title`, for a narrow sheet (longest first)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"title": self.title, "columns": list(self.columns),
                               "active_column": self.active_column, "rows": [r.to_json() for r in self.rows]}
        if self.short:
            out["short"] = list(self.short)
        return out


@dataclass(frozen=True)
class Sheet:
    """A plain-data score sheet that a screen can draw without knowing the game."""

    game: str
    title: str
    players: tuple[str, ...]
    tables: tuple[Table, ...]
    totals: tuple[int, ...]            # current total per player
    status: str = ""                   # one line: round/turn, who acts
    notes: tuple[str, ...] = ()        # e.g. "A captured B's Four of a kind"

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "players": list(self.players),
                "totals": list(self.totals), "status": self.status, "notes": list(self.notes),
                "tables": [t.to_json() for t in self.tables]}

    def to_text(self) -> str:
        """A fixed-width rendering for terminals and logs."""
        lines = [f"== {self.title} ==", self.status] if self.status else [f"== {self.title} =="]
        for table in self.tables:
            lines.append("")
            if table.title:
                lines.append(table.title)
            label_w = max([_cols(r.label) for r in table.rows] + [4])
            # (the widths of the cells as printed, marks and all: a "*" or a preview's "()" ran over)
            rows = [[(f"({c.text})" if c.kind == "preview" and c.text else c.text) + ("*" if c.highlight else "")
                     for c in row.cells] for row in table.rows]
            widths = [max([_cols(h)] + [_cols(texts[i]) if i < len(texts) else 0 for texts in rows] + [3])
                      for i, h in enumerate(table.columns)]
            lines.append(" " * label_w + " | " + " | ".join(_rjust(h, w) for h, w in zip(table.columns, widths)))
            lines.append("-" * (label_w + 3 + sum(w + 3 for w in widths)))
            for row, texts in zip(table.rows, rows):
                texts += [""] * (len(widths) - len(texts))
                lines.append(_rjust(row.label, label_w, left=True) + " | "
                             + " | ".join(_rjust(t, w) for t, w in zip(texts, widths)))
        for note in self.notes:
            lines.append(f"note: {note}")
        return "\n".join(lines)


# --------------------------------------------------------------------------------------- result
def _cols(s: str) -> int:
    """The terminal columns `s` takes: a wide letter (日, 한) two, a combining mark none (a
    sheet whose players were 日本 and 한국 had its columns out of line)."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in s)


def _rjust(s: str, width: int, left: bool = False) -> str:
    """`s` padded to `width` terminal columns, on its left (or, `left`, on its right)."""
    pad = " " * max(0, width - _cols(s))
    return s + pad if left else pad + s


@dataclass(frozen=True)
class Result:
    """The end of a game: ranking groups (ties share a group), best first."""

    players: tuple[str, ...]
    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]    # seat indices, best group first
    winners: tuple[int, ...]
    tie_break: str = ""                     # how a tie on points was broken, in words, if it was
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "scores": dict(zip(self.players, self.scores)),
            "ranking": [[self.players[i] for i in group] for group in self.ranking],
            "winners": [self.players[i] for i in self.winners],
            "tie_break": self.tie_break,
            "details": dict(self.details),
        }

    def to_text(self) -> str:
        lines = []
        place = 1
        for group in self.ranking:
            for i in group:
                lines.append(f"{place}. {self.players[i]}  {self.scores[i]}")
            place += len(group)
        names = ", ".join(self.players[i] for i in self.winners)
        lines.append(("Winners: " if len(self.winners) > 1 else "Winner: ") + names)
        if self.tie_break:
            lines.append(f"Tie-break: {self.tie_break}")
        return "\n".join(lines)


def rank_by_score(scores: Sequence[int], key=None) -> tuple[tuple[int, ...], ...]:
    """Group seats by descending `key(seat)` (default: score); equal keys share a group."""
    keyf = key or (lambda i: scores[i])
    order = sorted(range(len(scores)), key=lambda i: keyf(i), reverse=True)
    groups: list[list[int]] = []
    for i in order:
        if groups and keyf(groups[-1][0]) == keyf(i):
            groups[-1].append(i)
        else:
            groups.append([i])
    return tuple(tuple(g) for g in groups)


# ----------------------------------------------------------------------------------------- game
class GameState(ABC):
    """A game in progress. Immutable from the outside: `apply` returns a new state.

    Subclasses set the class attributes and implement the abstract methods. The contract:
    - `apply(data)` validates the whole input (use `check_input(self.expects(), data)`) before
      changing anything; on an illegal input it raises IllegalInput and `self` is untouched;
    - `snapshot()` returns a JSON-able picture of the whole state, so two states are equal when
      their snapshots are (used by the replay and "illegal input leaves state unchanged" tests).
    """

    name: ClassVar[str]                 # registry name, e.g. "thirteen"
    title: ClassVar[str]                # shown on screen, e.g. "Thirteen"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()
    max_inputs_per_player: ClassVar[int] = 10_000   # bound used by property tests
    # How the game is played, in a few sentences for players at a café table (the HINT button
    # shows them; the first is the game's line on the setup menu): the card under the default
    # house rules. `rules_card(options)` is the card under the house rules chosen.
    how_to_play: ClassVar[tuple[str, ...]] = ()

    players: tuple[str, ...]
    options: Mapping[str, Any]

    @classmethod
    def new(cls, players: Sequence[str], options: Mapping[str, Any] | None = None) -> "GameState":
        """A fresh game. Raises OptionError for a bad option or player count."""
        names = tuple(str(p).strip() for p in players)
        if not cls.min_players <= len(names) <= cls.max_players:
            raise OptionError(
                f"{cls.title} takes {cls.min_players} to {cls.max_players} players, not {len(names)}"
            )
        if any(not n for n in names):
            raise OptionError("a player name cannot be empty")
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise OptionError(f"player names must be different: {', '.join(cut(n) for n in twice)} twice")
        resolved = resolve_options(cls.OPTIONS, options, cls.name)
        return cls._create(names, resolved)

    @classmethod
    def rules_card(cls, options: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        """The how-to-play card under `options` (the defaults for any not given): what it says
        that a house rule changes, it says as that rule has it. Values are not checked."""
        chosen = {s.name: s.default for s in cls.OPTIONS}
        chosen.update(options or {})
        return cls._card(chosen)

    @classmethod
    def _card(cls, o: Mapping[str, Any]) -> tuple[str, ...]:
        """The card under the full set of options `o`; a game whose rules change it overrides this."""
        return cls.how_to_play

    @classmethod
    @abstractmethod
    def _create(cls, players: tuple[str, ...], options: dict[str, Any]) -> "GameState":
        """Build the initial state from validated players and options."""

    @abstractmethod
    def expects(self) -> Expectation:
        """Exactly what input comes next."""

    @abstractmethod
    def apply(self, data: Input) -> "GameState":
        """The state after `data`, or IllegalInput (self unchanged)."""

    @abstractmethod
    def sheet(self) -> Sheet:
        """The score sheet now, with previews of what the current dice would score."""

    def sheet_for(self, focus: str | None) -> Sheet:
        """The sheet while the menu's cursor is on the option keyed `focus` (None: on no option,
        or no menu). A preview must show what the option highlighted writes; a game whose
        options share a cell (School's "School 2" and "School 2, bank 1") overrides this so
        that the cell shows the option under the cursor rather than the best of them."""
        return self.sheet()

    @abstractmethod
    def result(self) -> Result:
        """Ranking, scores and tie-breaks. Valid at game over; before that, the standing so far."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """A JSON-able picture of the whole state."""

    # conveniences shared by all games ---------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return isinstance(self.expects(), GameOver)

    def player_name(self, seat: int | None) -> str:
        return "the table" if seat is None else self.players[seat]


GAMES: dict[str, type[GameState]] = {}


def register(cls: type[GameState]) -> type[GameState]:
    """Class decorator: make a game findable by its name."""
    if cls.name in GAMES:
        raise ValueError(f"game {cls.name!r} registered twice")
    GAMES[cls.name] = cls
    return cls


def find_game(name: str) -> type[GameState]:
    from . import load_all

    load_all()

    try:
        return GAMES[name]
    except KeyError:
        raise OptionError(f"unknown game {shown(name)} (known: {', '.join(sorted(GAMES))})") from None


def new_game(name: str, players: Sequence[str], options: Mapping[str, Any] | None = None) -> GameState:
    return find_game(name).new(players, options)
