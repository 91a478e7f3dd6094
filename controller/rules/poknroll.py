"""Pok'n Roll (Schmidt): private dice under cups + 5 shared white dice; abandon or go to the showdown.

Spec: /work/shared/rules/poknroll.md. A hand is: the private dice are rolled unseen into the cups
(no input), 3 white dice, decisions (abandon / continue), reveals of the abandoners' cups, 1 white
die, decisions, reveals, the last white die, then the showdown (every cup still in play is lifted,
plus the imaginary player's cup in a 3-player game). Private dice only become known to the engine
when a cup is lifted (a `reveal` Throw), so they are never shown before that.

The engine has no RNG: even with `imaginary_dice_source="engine_rng"` the imaginary cup is an input
(`Throw(player=None, purpose="imaginary")`); the controller generates the values itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Mapping, Sequence

from .base import (
    Cell, Decide, Expectation, GameOver, GameState, Input, Option, OptionError,
    OptionSpec, Result, Row, Sheet, Table, Throw, check_input, first_player_option,
    rank_by_score, register, shown,
)

# ------------------------------------------------------------------------------ combinations
COMBOS = ("PAIRE", "DOUBLE_PAIRE", "BRELAN", "FULL", "GRANDE_SUITE", "CARRE", "YAMS")  # rank 1..7
NONE = "NONE"
RANK = {NONE: 0, **{line: i + 1 for i, line in enumerate(COMBOS)}}
LINES = COMBOS + ("ABANDON_T1", "THIRD_TURN_WON")
LABELS = {"PAIRE": "Paire", "DOUBLE_PAIRE": "Double paire", "BRELAN": "Brelan", "FULL": "Full",
          "GRANDE_SUITE": "Grande Suite", "CARRE": "Carré", "YAMS": "Yam's", NONE: "nothing",
          "ABANDON_T1": "Abandon au 1er tour", "THIRD_TURN_WON": "3ème tour remporté"}
# the board's shorter labels (then with no value), for a labels' column too narrow for the label:
# at 320x240 "Double...", "Grande...", "Abando...", "3ème to..."
SHORT = {"DOUBLE_PAIRE": "D. paire", "GRANDE_SUITE": "G. suite", "ABANDON_T1": "Ab. T1",
         "THIRD_TURN_WON": "3e tour", "YAMS": "Yam's"}
DEFAULT_VALUES = {"PAIRE": 1, "DOUBLE_PAIRE": 2, "BRELAN": 3, "FULL": 4, "GRANDE_SUITE": 5,
                  "CARRE": 6, "YAMS": 10, "ABANDON_T1": 1}   # [ASSUMPTION] spec §4.2
IMAGINARY = "imaginary"
_DESC = (6, 5, 4, 3, 2, 1)
_RUNS = ((2, 3, 4, 5, 6), (1, 2, 3, 4, 5))        # high run first (value tie-break: 2-6 beats 1-5)
_ALL = frozenset(range(1, 7))


def _counts(pool: Iterable[int]) -> list[int]:
    c = [0] * 7
    for v in pool:
        c[v] += 1
    return c


def _kickers(c: list[int], used: Mapping[int, int], n: int) -> tuple[int, ...]:
    out: list[int] = []
    for f in _DESC:
        out += [f] * (c[f] - used.get(f, 0))
        if len(out) >= n:
            break
    return tuple(out[:n])


def _key(line: str, c: list[int], allowed: frozenset[int], kick: bool = True) -> tuple[int, ...] | None:
    """The poker-style key of the best way to make `line` from counts `c`, or None if impossible.

    `allowed`: a combination must use a die of one of these faces (must_use_private_die); the
    kickers of the value tie-break are the highest remaining dice, whoever they belong to.
    """
    if line in ("YAMS", "CARRE", "BRELAN", "PAIRE"):
        need = {"YAMS": 5, "CARRE": 4, "BRELAN": 3, "PAIRE": 2}[line]
        for f in _DESC:
            if c[f] >= need and f in allowed:
                extra = {"YAMS": 0, "CARRE": 1, "BRELAN": 2, "PAIRE": 3}[line]
                return (f,) + (_kickers(c, {f: need}, extra) if kick else ())
        return None
    if line == "GRANDE_SUITE":
        for run in _RUNS:
            if all(c[f] for f in run) and not allowed.isdisjoint(run):
                return (run[-1],)
        return None
    pair_min = 3 if line == "FULL" else 2
    for h in _DESC:                                  # first hit is the lexicographic maximum
        if c[h] < pair_min:
            continue
        for low in _DESC:
            if low == h or (line == "DOUBLE_PAIRE" and low > h) or c[low] < 2:
                continue
            if h in allowed or low in allowed:
                if line == "FULL":
                    return (h, low)
                return (h, low) + (_kickers(c, {h: 2, low: 2}, 1) if kick else ())
    return None


def qualifying_lines(pool: Sequence[int], required: Iterable[int] | None = None) -> tuple[str, ...]:
    """Every combination line the pool makes (any subset), best first.

    `required`: if given (must_use_private_die), the combination must contain one of these dice."""
    c = _counts(pool)
    allowed = _ALL if required is None else frozenset(required)
    return tuple(line for line in reversed(COMBOS) if _key(line, c, allowed, kick=False) is not None)


def best_combination(pool: Sequence[int], required: Iterable[int] | None = None) -> str:
    """The highest-ranked line the pool makes (§3), or "NONE". Face values never matter here."""
    c = _counts(pool)
    allowed = _ALL if required is None else frozenset(required)
    for line in reversed(COMBOS):
        if _key(line, c, allowed, kick=False) is not None:
            return line
    return NONE


def hand_strength(pool: Sequence[int], required: Iterable[int] | None = None,
                  value_tiebreak: bool = False) -> tuple[int, tuple[int, ...]]:
    """(rank, key) for comparing showdown hands; key is () unless the value tie-break is on."""
    line = best_combination(pool, required)
    if not value_tiebreak or line == NONE:
        return RANK[line], ()
    allowed = _ALL if required is None else frozenset(required)
    return RANK[line], _key(line, _counts(pool), allowed) or ()


@dataclass(frozen=True)
class ShowdownOutcome:
    lines: dict[Hashable, str]          # participant -> best line (NONE possible)
    winners: tuple[Hashable, ...]       # the best hands (may include IMAGINARY)
    ticks: dict[Hashable, str]          # real participant -> line ticked
    third_turn: Hashable | None         # who ticks "3ème tour remporté"


def resolve_showdown(white: Sequence[int], hands: Mapping[Hashable, Sequence[int]], *,
                     must_use_private_die: bool = False, value_tiebreak: bool = False) -> ShowdownOutcome:
    """§4.3: only the best hand scores; a tie scores the tied real players but nobody wins the turn;
    the imaginary player (key IMAGINARY) competes but never scores. Nobody scores with no combination."""
    strength, lines = {}, {}
    for who, private in hands.items():
        pool = list(private) + list(white)
        req = private if must_use_private_die else None
        lines[who] = best_combination(pool, req)
        strength[who] = hand_strength(pool, req, value_tiebreak)
    if not hands:
        return ShowdownOutcome({}, (), {}, None)
    top = max(strength.values())
    winners = tuple(w for w in hands if strength[w] == top)
    if top[0] == 0:
        return ShowdownOutcome(lines, winners, {}, None)
    ticks = {w: lines[w] for w in winners if w != IMAGINARY}
    third = winners[0] if len(winners) == 1 and winners[0] != IMAGINARY else None
    return ShowdownOutcome(lines, winners, ticks, third)


# ----------------------------------------------------------------------------------- options
def _check_line_values(value: Any) -> dict[str, dict[str, int]]:
    """Merge a (possibly partial) {"beginner": {...}, "expert": {...}} over the §4.2 defaults."""
    if set(value) - {"beginner", "expert"}:
        raise OptionError(f"option 'line_values': keys must be 'beginner' and/or 'expert', not {sorted(map(str, value))}")
    out = {}
    for mode in ("beginner", "expert"):
        table = value.get(mode, {})
        if not isinstance(table, dict):
            raise OptionError(f"option 'line_values': {shown(mode)} must map line names to points")
        unknown = set(table) - set(DEFAULT_VALUES)
        if unknown:
            raise OptionError(f"option 'line_values': unknown line {shown(sorted(map(str, unknown))[0])} "
                              f"(lines: {', '.join(DEFAULT_VALUES)}; 3ème tour remporté is worth the number of players)")
        for line, pts in table.items():
            if not isinstance(pts, int) or isinstance(pts, bool) or pts < 1:
                raise OptionError(f"option 'line_values': {mode}.{line} must be a positive whole number, "
                                  f"not {shown(pts)}")
        out[mode] = {**DEFAULT_VALUES, **table}
    return out


OPTIONS = (
    OptionSpec("mode", "beginner", "2 private dice (beginner) or 3 (expert)", choices=("beginner", "expert")),
    OptionSpec("line_values", {"beginner": dict(DEFAULT_VALUES), "expert": dict(DEFAULT_VALUES)},
               "points per box of each line, per board side (partial tables are merged over the defaults)",
               type=dict, validate=_check_line_values),
    OptionSpec("boxes_per_line", 6, "boxes on every line; filling one ends the game", minimum=1, maximum=30),
    OptionSpec("decision_order", "simultaneous", "abandon/continue: secret and simultaneous, or in turn",
               choices=("simultaneous", "sequential")),
    OptionSpec("reveal_on_abandon", "immediate", "an abandoner lifts the cup at once or at the end of the hand",
               choices=("immediate", "end_of_hand")),
    OptionSpec("must_use_private_die", False, "a combination must contain at least one private die", type=bool),
    OptionSpec("must_mark_best", True, "an abandoner must tick the best line (else chooses a qualifying one)",
               type=bool),
    OptionSpec("abandon_without_combination", "abandon_box_only",
               "abandoning with no combination: tick only Abandon au 1er tour, nothing, or refused",
               choices=("abandon_box_only", "nothing", "forbidden")),
    OptionSpec("showdown_value_tiebreak", False, "equal showdown ranks compared by face values (poker style)",
               type=bool),
    OptionSpec("imaginary_player_dice", 2, "dice of the imaginary player (3 players)", choices=(2, "same_as_mode")),
    OptionSpec("imaginary_counts_for_multiplier", False, "the imaginary player counts in the 3ème tour multiplier",
               type=bool),
    OptionSpec("imaginary_dice_source", "physical", "the imaginary player's cup: rolled on the table, or drawn by the table",
               choices=("physical", "engine_rng"), shown=(("physical", "a cup on the table"),
                                                          ("engine_rng", "drawn by the table"))),
    OptionSpec("end_timing", "end_of_hand", "once a line is full: finish the hand, or stop at once",
               choices=("end_of_hand", "immediate")),
    OptionSpec("end_trigger_lines", "any", "which full lines end the game", choices=("any", "combination_lines_only")),
    OptionSpec("start_seat", 0, "seat of the first player of hand 1", minimum=0),
    first_player_option(),
)


# -------------------------------------------------------------------------------------- card
def how_to_play_under(o: Mapping[str, Any]) -> tuple[str, ...]:
    """The HINT card under the options `o` (all of them given)."""
    dice = "Three" if o["mode"] == "expert" else "Two"
    imaginary = _imaginary_cup_words(o)
    # (read at the hand's end, "the white ones" read as all five: the abandon turn's count)
    when, out = ("at once", "") if o["reveal_on_abandon"] == "immediate" \
        else ("at the hand's end", " out when you abandoned")
    line = "the best line" if o["must_mark_best"] else "a line (you choose)"
    # (said of the lines, not of abandoning alone: the showdown's hands obey it too)
    own = " (each using one of your hidden dice)" if o["must_use_private_die"] else ""
    without = {"abandon_box_only": "", "nothing": " if you have a line",
               "forbidden": "; no line, no abandoning"}[o["abandon_without_combination"]]
    values = "equal lines compare face values" if o["showdown_value_tiebreak"] else "face values never count"
    end = "The game ends at once when" if o["end_timing"] == "immediate" else "The game ends in the hand where"
    full = "a combination line" if o["end_trigger_lines"] == "combination_lines_only" else "a line"
    third = LABELS["THIRD_TURN_WON"]
    drawn = ", its dice drawn by the table," if o["imaginary_dice_source"] == "engine_rng" else ""
    return (
        f"{dice} hidden dice each, five shared white dice: score poker lines.",
        "Each hand, shake your cup; white dice come 3, then 1, then 1; after the 3rd and 4th each player "
        + ("in turn" if o["decision_order"] == "sequential" else "secretly") + " stays in or abandons.",
        f"Abandoning scores {when} {line} of your dice and the white ones{out}; after the first three, "
        f"also {LABELS['ABANDON_T1']}{without}.",
        f"At the showdown the best hand alone scores its line, plus {third}; a tie scores just the lines "
        f"({values}). With 3 players an imaginary cup{imaginary}{drawn} plays but never scores.",
        f"Lines{own}, points a box: {_points_said(o)}.",
        f"{end} someone fills {full} ({o['boxes_per_line']} box{'es' if o['boxes_per_line'] != 1 else ''}): "
        f"most points wins, then most {third} ticks.",
    )


def _imaginary_cup_words(o: Mapping[str, Any]) -> str:
    """How many dice the imaginary cup holds, said where it is not the players' own count.

    Keyed on the option alone, the card said "of two dice" in a beginner game (the players' own
    count, nothing to tell) and nothing in an expert one under the default, where players with
    three dice each took the imaginary cup for a third hand like theirs: it holds two (spec §6.2,
    "une paire de dés")."""
    own = 3 if o["mode"] == "expert" else 2
    cup = own if o["imaginary_player_dice"] == "same_as_mode" else 2
    return "" if cup == own else f" of {'two' if cup == 2 else 'three'} dice"


def _values_of(o: Mapping[str, Any]) -> dict[str, int]:
    """The points a box of each line is worth under `o`: the line values of the board side
    played (a house rule: the seed never printed them, spec §4.2), merged over the defaults."""
    try:
        return _check_line_values(o["line_values"])[o["mode"]]
    except (OptionError, AttributeError, TypeError, KeyError):    # (the card is drawn unchecked)
        return DEFAULT_VALUES


def _points_said(o: Mapping[str, Any]) -> str:
    """What a box of each line is worth under `o`, as the score counts it: the combination lines
    lowest first, then Abandon au 1er tour and 3ème tour remporté (the number of players, the
    imaginary one counted at 3 players under imaginary_counts_for_multiplier; spec §4.5). The
    card named the lines only: a player could not learn from it what a Yam's or a won showdown
    was worth, nor that the café had changed the values."""
    values = _values_of(o)
    lines = ", ".join(f"{LABELS[line]}{' (five alike)' if line == 'YAMS' else ''} {values[line]}" for line in COMBOS)
    counted = " (and the imaginary one)" if o["imaginary_counts_for_multiplier"] else ""
    return (f"{lines}; {values['ABANDON_T1']} for {LABELS['ABANDON_T1']}; "
            f"as many as players{counted} for {LABELS['THIRD_TURN_WON']}")


# -------------------------------------------------------------------------------------- game
@register
class PoknRoll(GameState):
    """State of a game. Jobs in `queue` are cup readings still to take: (kind, seat, turn, white)."""

    name = "poknroll"
    title = "Pok'n Roll"
    min_players = 3
    max_players = 6
    how_to_play = how_to_play_under({spec.name: spec.default for spec in OPTIONS})

    @classmethod
    def _card(cls, o: Mapping[str, Any]) -> tuple[str, ...]:
        return how_to_play_under(o)

    OPTIONS = OPTIONS
    # A hand takes at most 4 inputs per player + 4; every hand but rare 3-player ones ticks a box
    # and a game holds at most 9 * (boxes - 1) * players + 1 boxes: far below this bound.
    max_inputs_per_player = 5000

    @classmethod
    def _create(cls, players: tuple[str, ...], options: dict[str, Any]) -> "PoknRoll":
        options["line_values"] = _check_line_values(options["line_values"])
        if options["start_seat"] >= len(players):
            raise OptionError(f"option 'start_seat': {options['start_seat']} is not a seat (0..{len(players) - 1})")
        s = object.__new__(cls)
        s.players, s.options = players, options
        s.boxes = tuple((0,) * len(LINES) for _ in players)
        s.hand, s.first = 0, options["start_seat"]
        s.notes, s.last_notes = (), ()
        s._new_hand(s.first)
        return s

    # -- helpers -----------------------------------------------------------------------------
    @property
    def n_private(self) -> int:
        return 3 if self.options["mode"] == "expert" else 2

    @property
    def n_imaginary(self) -> int:
        return 2 if self.options["imaginary_player_dice"] == 2 else self.n_private

    @property
    def has_imaginary(self) -> bool:
        return len(self.players) == 3

    @property
    def values(self) -> dict[str, int]:
        return self.options["line_values"][self.options["mode"]]

    def multiplier(self) -> int:
        extra = self.has_imaginary and self.options["imaginary_counts_for_multiplier"]
        return len(self.players) + (1 if extra else 0)

    def line_value(self, line: str) -> int:
        return self.multiplier() if line == "THIRD_TURN_WON" else self.values[line]

    def _order(self) -> list[int]:
        n = len(self.players)
        return [(self.first + i) % n for i in range(n)]

    def _required(self, private: Sequence[int]) -> Sequence[int] | None:
        return private if self.options["must_use_private_die"] else None

    def _copy(self) -> "PoknRoll":
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new

    def _new_hand(self, first: int) -> None:
        n = len(self.players)
        self.hand += 1
        self.first, self.turn, self.stage = first, 1, "white"
        self.white = ()
        self.inhand = (True,) * n
        self.abandoned = (0,) * n            # turn in which the player abandoned (0: not)
        self.decided: tuple[str | None, ...] = (None,) * n
        self.cups: tuple[tuple[int, ...] | None, ...] = (None,) * n
        self.imaginary: tuple[int, ...] | None = None
        self.queue: tuple = ()
        self.deferred: tuple = ()
        self.closing = False
        self.choice: tuple | None = None     # (seat, turn, lines) while an abandoner picks a line

    def _set(self, attr: str, seat: int, value: Any) -> None:
        seq = list(getattr(self, attr))
        seq[seat] = value
        setattr(self, attr, tuple(seq))

    def _tick(self, seat: int, line: str) -> None:
        # A line that ends the game never gets past its boxes (the game ends with the hand that
        # fills it); one that does not (`end_trigger_lines = combination_lines_only`) goes on
        # being ticked: each of its ticks still scores, as the spec's score formula counts them.
        i = LINES.index(line)
        row = list(self.boxes[seat])
        row[i] = row[i] + 1 if i not in self._trigger_lines() else min(row[i] + 1, self.options["boxes_per_line"])
        self._set("boxes", seat, tuple(row))

    def _note(self, text: str) -> None:
        self.notes = self.notes + (text,)

    def _trigger_lines(self) -> range:
        """Indexes in LINES of the lines whose filling ends the game."""
        return range(len(COMBOS)) if self.options["end_trigger_lines"] == "combination_lines_only" else range(len(LINES))

    def triggered(self) -> bool:
        full = self.options["boxes_per_line"]
        return any(row[i] >= full for row in self.boxes for i in self._trigger_lines())

    def _next_decider(self) -> int | None:
        for seat in self._order():
            if self.inhand[seat] and self.decided[seat] is None:
                return seat
        return None

    # -- expectations ------------------------------------------------------------------------
    def expects(self) -> Expectation:
        if self.stage == "over":
            return GameOver()
        if self.stage == "white":
            name = self.players[self.first]
            count = 3 if self.turn == 1 else 1
            prompt = (f"{name}: throw 3 white dice" if self.turn == 1
                      else f"{name}: throw white die {len(self.white) + 1} of 5")
            return Throw(self.first, count, held=self.white, prompt=prompt, purpose="white")
        if self.stage == "decide":
            seat = self._next_decider()
            # a lone player still in decides in the open: nobody else decides this turn to be kept
            # from reacting, and the choice shows at once (the cup lifted, or the next white die);
            # the table had him open a secret menu while the others looked away
            simultaneous = self.options["decision_order"] == "simultaneous" and sum(self.inhand) > 1
            # (the table cannot grey out ABANDON without a combination: it cannot see under the cup)
            label = "Abandon (needs a combination)" if self.options["abandon_without_combination"] == "forbidden" \
                else "Abandon"
            opts = (Option("ABANDON", label, None, "ABANDON_T1" if self.turn == 1 else None, "abandon"),
                    Option("CONTINUE", "Continue", None, None, "continue"))
            hint = ", secret" if simultaneous else ""
            return Decide(seat, opts, f"{self.players[seat]}: abandon or continue? (turn {self.turn}{hint})",
                          secret=simultaneous)
        if self.stage == "choose":
            seat, turn, lines = self.choice
            opts = tuple(Option(line, LABELS[line], self.values[line], line, "score") for line in lines)
            return Decide(seat, opts, f"{self.players[seat]}: choose the line to tick")
        kind, seat, _turn, _white = self.queue[0]
        if kind == "imaginary":
            drawn = self.options["imaginary_dice_source"] == "engine_rng"
            # (the terminal follows a drawn cup's prompt with ": drawn 3 4")
            prompt = f"Imaginary player's cup, left to the table ({self.n_imaginary} dice)" if drawn \
                else f"Imaginary player: lift the cup ({self.n_imaginary} dice)"
            return Throw(None, self.n_imaginary, held=self.white, prompt=prompt, purpose="imaginary", drawn=drawn)
        why = "abandons" if kind == "abandon" else "showdown"
        # The white dice stay on the tray beside the lifted cup, so the camera sees them too: they
        # are listed as held. Dice shown by an earlier reveal go back in their cup first.
        return Throw(seat, self.n_private, held=self.white,
                     prompt=f"{self.players[seat]}: lift your cup, dice into the tray ({why})", purpose="reveal")

    # -- transitions -------------------------------------------------------------------------
    def apply(self, data: Input) -> "PoknRoll":
        exp = self.expects()
        rec = check_input(exp, data)
        new = self._copy()
        if self.stage == "white":
            new.white = self.white + tuple(rec["values"])
            if new.turn == 3:
                new._close_hand()
            else:
                new.decided = (None,) * len(self.players)
                new.stage = "decide"
        elif self.stage == "decide":
            new._decide(exp.player, rec["option"])
        elif self.stage == "choose":
            seat, turn, _lines = self.choice
            new.choice = None
            new._score_abandon(seat, turn, rec["option"])
            new.queue = self.queue[1:]
            new.stage = "reveal"
            if not new._ends_at_hands_end_reveal(turn):
                new._drain()
        else:
            kind, seat, _turn, _white = self.queue[0]
            if kind == "imaginary":
                new.imaginary = tuple(rec["values"])
                new.queue = self.queue[1:]
            else:
                new._set("cups", seat, tuple(rec["values"]))
            new._drain()
        return new

    def _decide(self, seat: int, option: str) -> None:
        self._set("decided", seat, option)
        if self.options["decision_order"] == "sequential":
            batch = [seat] if option == "ABANDON" else []
        elif self._next_decider() is None:        # simultaneous: all locked in, now reveal together
            batch = [s for s in self._order() if self.inhand[s] and self.decided[s] == "ABANDON"]
            if batch:
                self._note(f"Turn {self.turn}: " + ", ".join(self.players[s] for s in batch)
                           + (" abandon" if len(batch) > 1 else " abandons"))
        else:
            return
        jobs = []
        for s in batch:
            self._set("inhand", s, False)
            self._set("abandoned", s, self.turn)
            jobs.append(("abandon", s, self.turn, self.white))
        if self.options["reveal_on_abandon"] == "end_of_hand":
            self.deferred = self.deferred + tuple(jobs)
            self.queue = ()
        else:
            self.queue = tuple(jobs)
        self.stage = "reveal"
        self._drain()

    def _drain(self) -> None:
        """Process queued cup readings that need no input; continue the hand when none is left."""
        while self.queue:
            kind, seat, turn, white = self.queue[0]
            if kind == "imaginary" or self.cups[seat] is None:
                return
            if kind == "abandon":
                pool = self.cups[seat] + white
                lines = qualifying_lines(pool, self._required(self.cups[seat]))
                if len(lines) > 1 and not self.options["must_mark_best"]:
                    self.choice, self.stage = (seat, turn, lines), "choose"
                    return
                self._score_abandon(seat, turn, lines[0] if lines else NONE)
            self.queue = self.queue[1:]
            if kind == "abandon" and self._ends_at_hands_end_reveal(turn):
                return
        if self.closing:
            self._finish_hand()
        else:
            self._after_decisions()

    def _score_abandon(self, seat: int, turn: int, line: str) -> None:
        name = self.players[seat]
        rule = self.options["abandon_without_combination"]
        if line == NONE and rule == "forbidden":
            # The table cannot grey out ABANDON: the cup hides what the player has until it is
            # lifted. So the abandon is refused when the cup is read, and the player continues.
            if not self.closing or len(self.white) == 5:
                # (read at the hand's end under reveal_on_abandon = end_of_hand: the player has
                # continued all along and plays the showdown with the cup just read)
                self._set("inhand", seat, True)
                self._set("abandoned", seat, 0)
                self._set("decided", seat, "CONTINUE")
                goes_on = "plays the showdown" if self.closing else "continues"
                self._note(f"{name} has no combination: abandon refused, {name} {goes_on}")
            else:
                self._note(f"{name} abandoned without a combination (forbidden), and the hand ended "
                           "without a showdown: scores nothing")
            return
        ticked = []
        if line != NONE:
            self._tick(seat, line)
            ticked.append(LABELS[line])
        if turn == 1 and (line != NONE or rule == "abandon_box_only"):
            self._tick(seat, "ABANDON_T1")
            ticked.append(LABELS["ABANDON_T1"])
        self._note(f"{name} abandons in turn {turn}: " + (" + ".join(ticked) or "nothing"))

    def _ends_at_hands_end_reveal(self, turn: int) -> bool:
        """`end_timing="immediate"` when an abandon read at the hand's end (`reveal_on_abandon =
        "end_of_hand"`) has just filled a line: end the game as it would have ended with the cup
        lifted at once (§7: the scoring is the same), so that the abandons of later turns and the
        showdown, played only because the line was not yet known full, score nothing. Under
        simultaneous decisions the rest of that turn's abandons score first, as they do at once.
        Without this the showdown was scored and `immediate` did nothing under this reveal rule."""
        if not (self.closing and self.options["end_timing"] == "immediate" and self.triggered()):
            return False
        head = self.queue[0] if self.queue else None
        same_round = head is not None and head[0] == "abandon" and head[2] == turn
        if same_round and self.options["decision_order"] == "simultaneous":
            return False
        self.queue, self.stage = (), "over"
        self._note("A line is full: the game ends at once")
        return True

    def _after_decisions(self) -> None:
        if self.options["end_timing"] == "immediate" and self.triggered():
            self.stage = "over"
            self._note("A line is full: the game ends at once")
            return
        if self._next_decider() is not None:
            self.stage = "decide"
        elif not any(self.inhand):
            self._close_hand()
        else:
            self.turn += 1
            self.stage = "white"

    def _close_hand(self) -> None:
        """Hand end: deferred abandon reveals, then every cup still in play (and the imaginary one)."""
        jobs = list(self.deferred)
        jobs += [("showdown", s, 3, self.white) for s in self._order() if self.inhand[s]]
        if self.has_imaginary and any(self.inhand):
            jobs.append(("imaginary", None, 3, self.white))
        self.queue, self.deferred, self.closing, self.stage = tuple(jobs), (), True, "reveal"
        self._drain()

    def _finish_hand(self) -> None:
        hands: dict[Hashable, Sequence[int]] = {s: self.cups[s] for s in self._order() if self.inhand[s]}
        if hands:
            if self.imaginary is not None:
                hands[IMAGINARY] = self.imaginary
            out = resolve_showdown(self.white, hands, must_use_private_die=self.options["must_use_private_die"],
                                   value_tiebreak=self.options["showdown_value_tiebreak"])
            for seat, line in out.ticks.items():
                self._tick(seat, line)
            if out.third_turn is not None:
                self._tick(out.third_turn, "THIRD_TURN_WON")
            shown = ", ".join(f"{'Imaginary' if w == IMAGINARY else self.players[w]} {LABELS[out.lines[w]]}"
                              for w in hands)
            if out.third_turn is not None:
                verdict = f"{self.players[out.third_turn]} wins turn 3"
            elif out.ticks:
                verdict = "tie: " + ", ".join(self.players[s] for s in out.ticks) + \
                    (" tick their lines" if len(out.ticks) > 1 else " ticks the line")
            elif out.winners == (IMAGINARY,):
                verdict = "the imaginary player is best: nobody scores"
            else:
                verdict = "nobody scores"
            self._note(f"Showdown: {shown} — {verdict}")
        if self.triggered():
            self.stage = "over"
            self._note("A line is full: game over")
            return
        self.last_notes, self.notes = self.notes, ()
        self._new_hand((self.first + 1) % len(self.players))

    # -- views -------------------------------------------------------------------------------
    def totals(self) -> tuple[int, ...]:
        vals = [self.line_value(line) for line in LINES]
        return tuple(sum(k * v for k, v in zip(row, vals)) for row in self.boxes)

    def _ticks_text(self, k: int, extra: int = 0) -> str:
        full = self.options["boxes_per_line"]
        if full > 10 or k + extra > full:     # (a line that does not end the game can go past its boxes)
            return f"{k + extra}/{full}"
        return "■" * k + "▣" * extra + "□" * (full - k - extra)

    def sheet(self) -> Sheet:
        exp = self.expects()
        actor = getattr(exp, "player", None)
        totals = self.totals()
        preview: dict[str, int] = {}
        if self.stage == "choose":
            seat, turn, lines = self.choice
            preview = {line: self.values[line] for line in lines}
            if turn == 1:
                preview["ABANDON_T1"] = self.values["ABANDON_T1"]
        rows = []
        for i, line in enumerate(LINES):
            v = self.line_value(line)
            label = f"{LABELS[line]} (×{v})" if line == "THIRD_TURN_WON" else f"{LABELS[line]} ({v})"
            cells = []
            for seat, row in enumerate(self.boxes):
                if seat == actor and line in preview:
                    cells.append(Cell(self._ticks_text(row[i], 1) + f" +{preview[line]}", preview[line], "preview",
                                      settled=Cell(self._ticks_text(row[i]), row[i] * v, "tick")))
                else:
                    cells.append(Cell(self._ticks_text(row[i]), row[i] * v, "tick"))
            forms = (label.replace(LABELS[line], SHORT[line], 1), SHORT[line]) if line in SHORT else ()
            rows.append(Row(line, label, tuple(cells), short=tuple(f for f in forms if f != label)))
        winners = set(self.result().winners) if self.stage == "over" else set()
        rows.append(Row("TOTAL", "Total", tuple(Cell(str(t), t, "total", i in winners) for i, t in enumerate(totals)),
                        "total"))
        board = Table("Board", self.players, tuple(rows), actor)
        sheet_tables = (board, self._hand_table(actor))
        return Sheet(self.name, self.title, self.players, sheet_tables, totals, self._status(exp),
                     self.notes or self.last_notes)

    def _hand_table(self, actor: int | None) -> Table:
        """The current hand: who is in, and the cups (only once lifted)."""
        simultaneous = self.options["decision_order"] == "simultaneous"
        state, cups, best = [], [], []
        for s in range(len(self.players)):
            if self.inhand[s]:
                locked = self.stage == "decide" and simultaneous and self.decided[s] is not None
                state.append(Cell("IN ✓" if locked else "IN", None, "info", s == actor))
            else:
                state.append(Cell(f"OUT T{self.abandoned[s]}", None, "info"))
            cup = self.cups[s]
            cups.append(Cell(" ".join(map(str, cup)), None, "hand") if cup else Cell("??", None, "info"))
            if cup:
                white = self.white[: 2 + self.abandoned[s]] if self.abandoned[s] else self.white
                best.append(Cell(LABELS[best_combination(cup + white, self._required(cup))], None, "info"))
            else:
                best.append(Cell("", None, "empty"))
        columns = self.players
        if self.has_imaginary:
            columns = columns + ("Imaginary",)
            state.append(Cell("IN" if any(self.inhand) else "—", None, "info"))
            im = self.imaginary
            cups.append(Cell(" ".join(map(str, im)), None, "hand") if im else Cell("??", None, "info"))
            best.append(Cell(LABELS[best_combination(im + self.white, self._required(im))], None, "info")
                        if im else Cell())
        white = " ".join(map(str, self.white)) or "none yet"
        rows = (Row("IN_HAND", "In hand", tuple(state)), Row("CUP", "Cup", tuple(cups)),
                Row("BEST", "Best", tuple(best)))
        return Table(f"Hand {self.hand}, first player {self.players[self.first]} — white dice: {white}",
                     columns, rows, actor)

    def _status(self, exp: Expectation) -> str:
        if self.stage == "over":
            winners = self.result().winners
            names = ", ".join(self.players[i] for i in winners)
            return f"Game over after hand {self.hand} — {'winners' if len(winners) > 1 else 'winner'}: {names}"
        ins = ", ".join(p for p, i in zip(self.players, self.inhand) if i) or "nobody"
        return f"Hand {self.hand}, turn {self.turn} — in: {ins} — {exp.prompt}"

    def result(self) -> Result:
        totals = self.totals()
        ttw = LINES.index("THIRD_TURN_WON")
        ranking = rank_by_score(totals, key=lambda i: (totals[i], self.boxes[i][ttw]))
        tie_break = self._tie_words(totals, ranking)
        details = {"boxes": {p: dict(zip(LINES, row)) for p, row in zip(self.players, self.boxes)},
                   "hands": self.hand}
        return Result(self.players, totals, ranking, ranking[0], tie_break, details)

    def _tie_words(self, totals: Sequence[int], ranking: Sequence[tuple[int, ...]]) -> str:
        """Why equal totals were placed apart (by the turn-3 boxes), for every such tie: one below
        the winner ("Bob 7, Cy 7" in 2nd and 3rd place) was ordered silently, only the win's said."""
        split = [g for g in rank_by_score(totals) if len(g) > 1 and set(g) not in map(set, ranking)]
        if not split:
            return ""
        ties = [", ".join(self.players[i] for i in g) + f" tied on {totals[g[0]]} points" for g in split]
        rule = "wins" if len(split) == 1 and set(split[0]) & set(ranking[0]) else "ranks first"
        return "; ".join(ties) + f"; most '3ème tour remporté' boxes {rule}"

    def snapshot(self) -> dict[str, Any]:
        return {"game": self.name, "players": list(self.players), "options": self.options,
                "hand": self.hand, "first": self.first, "turn": self.turn, "stage": self.stage,
                "white": list(self.white), "inhand": list(self.inhand), "abandoned": list(self.abandoned),
                "decided": list(self.decided), "cups": [list(c) if c else None for c in self.cups],
                "imaginary": list(self.imaginary) if self.imaginary else None,
                "queue": [[k, s, t, list(w)] for k, s, t, w in self.queue],
                "deferred": [[k, s, t, list(w)] for k, s, t, w in self.deferred],
                "closing": self.closing, "choice": [self.choice[0], self.choice[1], list(self.choice[2])]
                if self.choice else None, "boxes": [list(r) for r in self.boxes],
                "notes": list(self.notes), "last_notes": list(self.last_notes)}
