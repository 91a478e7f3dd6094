"""School: Russian-style poker dice with a 15-row x 3-column table (spec: shared/rules/school.md).

Each turn is 1-3 throws and exactly one entry (a score or a cross) in one of the 15 rows; the
entry goes to the leftmost empty column of the row (or any free column, by option). Scores after
throw 1 are doubled (never in the School rows 1-6). Surplus School dice may be banked as a
reserve for later columns of the same class. A row completed without a cross earns the value of
its column-3 cell as a row award and a column completed without a cross earns 60, each only for
the first player to do it. A cross in the School forfeits the player's awards.

State encoding (cheap to copy): per player one frozen `PlayerSheet` of tuples; a play cell is
None (empty), CROSS (-1) or a positive score; award cells are None, CROSS or a value >= 0.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Mapping

from .base import (
    Cell, Decide, GameOver, GameState, IllegalInput, Input, Option, OptionError, OptionSpec,
    RerollSpec, Result, Row, Sheet, Table, Throw, check_input, first_player_option, rank_by_score, register,
)
from .option_words import option_forms

ROWS = ("S1", "S2", "S3", "S4", "S5", "S6", "PAIR", "TWO_PAIRS", "TRIPLET", "SMALL_STRAIGHT",
        "LARGE_STRAIGHT", "FULL_HOUSE", "FOUR_OF_A_KIND", "POKER", "CHANCE")
ROW_LABELS = dict(zip(ROWS, (
    "School 1", "School 2", "School 3", "School 4", "School 5", "School 6", "Pair", "Two pairs",
    "Triplet", "Small straight", "Large straight", "Full house", "Four of a kind", "Poker", "Chance")))
# (the screen draws these where a label would be cut: 320x240's "Small s...", "Four of..."; the
# shortest for the menu's "Cross ..." beside its points, 92 px there: "Cross Small str." was cut)
ROW_SHORT = {"SMALL_STRAIGHT": ("Small str.", "Sm. str."), "LARGE_STRAIGHT": ("Large str.", "Lg. str."),
             "FOUR_OF_A_KIND": ("4 of a kind", "4 kind"), "TWO_PAIRS": ("2 pairs",), "FULL_HOUSE": ("Full",)}
ROW_INDEX = {r: i for i, r in enumerate(ROWS)}
NROWS, NCOLS = 15, 3
NCELLS = NROWS * NCOLS
SCHOOL = 6                     # rows 0..5 are the School (class f = row index + 1)
CROSS = -1
X = "✕"
KEY_RE = re.compile(r"^(X_)?([A-Z_]+?[A-Z0-6])(?:_C([1-3]))?(?:_BANK(\d))?$")


def figure_scores(dice: tuple[int, ...], same_face_two_pairs: bool, poker_is_full: bool) -> dict[str, int]:
    """Base scores of the non-School rows the dice qualify for (School's own predicates, §3)."""
    cnt = [0] * 7
    for v in dice:
        cnt[v] += 1
    total = sum(dice)
    out = {"CHANCE": total}
    pairs = [f for f in range(6, 0, -1) if cnt[f] >= 2]
    if pairs:
        out["PAIR"] = 2 * pairs[0]
        two = [2 * pairs[0] + 2 * pairs[1]] if len(pairs) >= 2 else []
        if same_face_two_pairs:
            two += [4 * f for f in pairs if cnt[f] >= 4]
        if two:
            out["TWO_PAIRS"] = max(two)
    for f in range(6, 0, -1):
        if cnt[f] >= 3:
            out["TRIPLET"] = 3 * f
            if cnt[f] >= 4:
                out["FOUR_OF_A_KIND"] = 4 * f
            if cnt[f] == 5:
                out["POKER"] = total
                if poker_is_full:
                    out["FULL_HOUSE"] = total
            elif cnt[f] == 3 and len(pairs) == 2:
                out["FULL_HOUSE"] = total
            break
    present = {f for f in range(1, 7) if cnt[f]}
    if len(dice) == 5 and present == {1, 2, 3, 4, 5}:
        out["SMALL_STRAIGHT"] = 15
    elif len(dice) == 5 and present == {2, 3, 4, 5, 6}:
        out["LARGE_STRAIGHT"] = 20
    return out


@dataclass(frozen=True, slots=True)
class PlayerSheet:
    cells: tuple[int | None, ...]        # 45, row-major: row * 3 + column
    doubled: int                         # bit (row * 3 + column) set: that score was doubled
    awards: tuple[int | None, ...]       # 15 row awards
    col_awards: tuple[int | None, ...]   # 3 column awards
    reserve: tuple[int, ...]             # banked dice per class 1..6
    eligible: bool = True

    @property
    def full(self) -> bool:
        return None not in self.cells

    def to_json(self) -> dict[str, Any]:
        return {"cells": list(self.cells), "doubled": self.doubled, "awards": list(self.awards),
                "col_awards": list(self.col_awards), "reserve": list(self.reserve), "eligible": self.eligible}


EMPTY_SHEET = PlayerSheet((None,) * NCELLS, 0, (None,) * NROWS, (None,) * NCOLS, (0,) * 6)


def dice_words(n: int) -> str:
    """"1 die", "3 dice": what a player reads in a prompt or a refusal."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def held(values: tuple[int | None, ...]) -> int:
    """Sum of awards actually held (not empty, not crossed)."""
    return sum(v for v in values if v is not None and v != CROSS)


def played(cells: tuple[int | None, ...]) -> int:
    return sum(v for v in cells if v is not None and v > 0)


def fixed_three_bank(count: int, last: bool, unused_reserve_at_end: str) -> int:
    """Dice banked by a `fixed_three` School entry of `count` dice of its face (3 or more).

    The surplus over 3 is banked automatically (spec §4.2). In the row's last empty cell no later
    cell can use it, so it is dropped, unless banked dice never used score at the end
    (`unused_reserve_at_end = "scored"`): then it is banked there too. Dropping it there cost the
    surplus (five 6s in column 3 scored 18 where in column 1 they scored 18 + 2 x 6 at the end), the
    only place where a die of the class thrown under these rules scored nothing."""
    if last and unused_reserve_at_end != "scored":
        return 0
    return count - 3


# An action: (row, column, value or CROSS, doubled, reserve change of the row's class)
Action = tuple[int, int, int, bool, int]


def how_to_play_under(o: Mapping[str, Any]) -> tuple[str, ...]:
    """The HINT card under the options `o` (all of them given)."""
    where = "any empty column of one row" if o["row_fill_order"] == "any_free_column" else \
        "one row's leftmost empty column"
    cross = "or a cross (0)" if o["voluntary_cross_allowed"] else "or, if they score in no open row, a cross (0)"
    reserve = {"player_choice": "School 1 to 6: 3 or more dice of that face, scoring face x dice; dice "
                                "over 3 may be banked for a later column of the row.",
               "fixed_three": "School 1 to 6: 3 or more dice of that face, scoring face x 3; dice over "
                              "3 are banked for a later column of the row.",
               "none": "School 1 to 6: 3 or more dice of that face, scoring face x dice."}
    least = o["reserve_min_real_dice"]
    if least and o["school_reserve_mode"] != "none":      # (the card said nothing of these house rules)
        reserve = {mode: words.replace(
            "row.", f"row, usable only with at least {least} {'die' if least == 1 else 'dice'} of that face thrown.")
                   for mode, words in reserve.items()}
    two_pairs = "Two pairs (four alike too)" if o["two_pairs_same_face_allowed"] else "Two pairs (two faces)"
    full_house = "Full house (five alike too)" if o["full_house_accepts_poker"] else "Full house"
    card = [
        "Fill a sheet of 15 rows by 3 columns: up to 3 throws a turn, then one entry.",
        f"Hold dice between throws, then write in {where} a score the dice make, {cross}.",
        reserve[o["school_reserve_mode"]] + f" Then Pair, {two_pairs}, Triplet, Small 1-5 and Large 2-6 "
        f"straight, {full_house}, Four of a kind, Poker (five alike), Chance.",
    ]
    if o["double_on_first_throw"]:
        card.append("Scores outside the School written after throw 1 count double"
                    + ("." if o["double_applies_to_chance"] else " (not Chance)."))
    row = "its third column again" + ("" if o["award_copies_doubling"] else ", undoubled") \
        + ("" if o["award_block_scope"] == "award_cell_only" else " (crossing others' empty cells in it)")
    barred = " (yet still blocking others' awards)" \
        if o["ineligible_player_blocks_award"] else ""
    penalty = {"forfeit_all_awards": f" A cross in the School loses every award, now and to come{barred}.",
               "erase_earned_only": " A cross in the School loses the awards held.", "none": ""}
    card.append(f"Awards: the first to fill a row without a cross scores {row}; the first to fill a column "
                f"without a cross scores {o['column_award_value']}." + penalty[o["school_cross_penalty"]])
    # (not without a reserve: the card told of banked dice in a game where none can be banked)
    scored = o["unused_reserve_at_end"] == "scored" and o["school_reserve_mode"] != "none"
    card.append("When every sheet is full, the highest total wins"
                + ("; banked dice never used score their face." if scored else "."))
    return tuple(card)


@register
class School(GameState):
    name = "school"
    title = "School"
    min_players = 1
    max_players = 6
    max_inputs_per_player = NCELLS * 6       # 45 turns x (throw, reroll, throw, reroll, throw, choose)
    OPTIONS = (
        OptionSpec("row_fill_order", "left_to_right", "which column an entry goes to: the leftmost "
                   "empty one of the row, or any free one (the player chooses)",
                   choices=("left_to_right", "any_free_column")),
        OptionSpec("voluntary_cross_allowed", True, "a cross may be written in any open row; if not, "
                   "only when the dice score in no open row"),
        OptionSpec("double_on_first_throw", True, "non-School scores written after throw 1 count double"),
        OptionSpec("double_applies_to_chance", True, "the doubling also applies to Chance"),
        OptionSpec("school_reserve_mode", "player_choice", "surplus School dice: banked by choice, "
                   "banked automatically (every entry scores 3 x face), or no reserve",
                   choices=("player_choice", "fixed_three", "none")),
        OptionSpec("reserve_min_real_dice", 0, "real dice of the class needed to use the reserve",
                   type=int, minimum=0, maximum=2),
        OptionSpec("unused_reserve_at_end", "lost", "banked dice never used: lost, or their face value each",
                   choices=("lost", "scored")),
        OptionSpec("two_pairs_same_face_allowed", False, "four of a kind also counts as two pairs"),
        OptionSpec("full_house_accepts_poker", False, "five of a kind also counts as a full house"),
        OptionSpec("award_copies_doubling", True, "the row award copies the doubled column-3 value; "
                   "if not, its undoubled base"),
        OptionSpec("award_block_scope", "award_cell_only", "what a row award crosses on the other "
                   "sheets: their award cell, or also their empty cells of that row",
                   choices=("award_cell_only", "row_cells_too")),
        OptionSpec("school_cross_penalty", "forfeit_all_awards", "a cross in the School erases all "
                   "awards held and bars new ones; or only erases; or nothing",
                   choices=("forfeit_all_awards", "erase_earned_only", "none")),
        OptionSpec("ineligible_player_blocks_award", False, "a player barred from awards still blocks "
                   "a row/column award for the others by completing it without a cross"),
        OptionSpec("column_award_value", 60, "points for a column completed without a cross",
                   type=int, minimum=0),
        OptionSpec("tie", "shared", "equal best totals share the win", choices=("shared",)),
        OptionSpec("start_seat", 0, "seat of the first player", type=int, minimum=0),
        first_player_option(),
    )
    how_to_play = how_to_play_under({spec.name: spec.default for spec in OPTIONS})

    @classmethod
    def _card(cls, o: Mapping[str, Any]) -> tuple[str, ...]:
        return how_to_play_under(o)

    def __init__(self, players: tuple[str, ...], options: Mapping[str, Any], sheets: tuple[PlayerSheet, ...],
                 seat: int | None, throw_no: int, dice: tuple[int, ...], to_throw: int,
                 notes: tuple[str, ...] = ()):
        self.players = players
        self.options = options
        self.sheets = sheets
        self.seat = seat              # None: game over
        self.throw_no = throw_no      # throws made this turn
        self.dice = dice              # all 5 dice when deciding; the held dice while a throw is awaited
        self.to_throw = to_throw      # dice awaited (0: deciding)
        self.notes = notes
        self._cache: tuple[Decide, dict[str, Action]] | None = None

    @classmethod
    def _create(cls, players: tuple[str, ...], options: dict[str, Any]) -> "School":
        if options["start_seat"] >= len(players):
            raise OptionError(f"option 'start_seat': {options['start_seat']} is not a seat (0..{len(players) - 1})")
        return cls(players, options, (EMPTY_SHEET,) * len(players), options["start_seat"], 0, (), 5)

    def _next(self, **changes: Any) -> "School":
        fields = dict(players=self.players, options=self.options, sheets=self.sheets, seat=self.seat,
                      throw_no=self.throw_no, dice=self.dice, to_throw=self.to_throw, notes=self.notes)
        fields.update(changes)
        return School(**fields)

    # ------------------------------------------------------------------------------ decisions
    def _open_columns(self, sheet: PlayerSheet, r: int) -> list[int]:
        free = [c for c in range(NCOLS) if sheet.cells[r * 3 + c] is None]
        return free if self.options["row_fill_order"] == "any_free_column" else free[:1]

    def _school_entries(self, sheet: PlayerSheet, r: int, last: bool) -> list[tuple[int, int]]:
        """(points, reserve change) of each legal School score in row r (§4.2)."""
        o, f = self.options, r + 1
        c, res = self.dice.count(f), sheet.reserve[r]
        mode = o["school_reserve_mode"]
        if c >= 3:
            if mode == "none":
                return [(f * c, 0)]
            if mode == "fixed_three":
                return [(3 * f, fixed_three_bank(c, last, o["unused_reserve_at_end"]))]
            return [(f * (c - b), b) for b in range((0 if last else c - 3) + 1)]
        if mode != "none" and c + res >= 3 and c >= o["reserve_min_real_dice"]:
            return [(3 * f, c - 3)]
        return []

    def _decision(self) -> tuple[Decide, dict[str, Action]]:
        if self._cache is not None:
            return self._cache
        o, p = self.options, self.seat
        sheet = self.sheets[p]
        any_col = o["row_fill_order"] == "any_free_column"
        double = self.throw_no == 1 and o["double_on_first_throw"]
        choice = o["school_reserve_mode"] == "player_choice"     # else banking is automatic: one key
        figures = figure_scores(self.dice, o["two_pairs_same_face_allowed"], o["full_house_accepts_poker"])
        scores: list[Option] = []
        crosses: list[Option] = []
        actions: dict[str, Action] = {}
        for r, row in enumerate(ROWS):
            cols = self._open_columns(sheet, r)
            if not cols:
                continue
            label = ROW_LABELS[row]
            names = (label, f"S{r + 1}") if r < SCHOOL else (label, *ROW_SHORT.get(row, ()))
            last = sum(sheet.cells[r * 3 + c] is None for c in range(NCOLS)) == 1
            for c in cols:
                key = f"{row}_C{c + 1}" if any_col else row
                where = f" (col {c + 1})" if any_col else ""
                col = c + 1 if any_col else None
                if r < SCHOOL:
                    for pts, delta in self._school_entries(sheet, r, last):
                        k = f"{key}_BANK{delta}" if delta > 0 and choice else key
                        bank = f", bank {delta}" if delta > 0 else ""
                        scores.append(Option(k, f"{label}{where}{bank}", pts, row, "score",
                                             short=option_forms(names, col, delta, False)[1:]))
                        actions[k] = (r, c, pts, False, delta)
                elif row in figures:
                    dbl = double and (row != "CHANCE" or o["double_applies_to_chance"])
                    pts = figures[row] * (2 if dbl else 1)
                    scores.append(Option(key, f"{label}{where}", pts, row, "score",
                                         short=option_forms(names, col, 0, False)[1:]))
                    actions[key] = (r, c, pts, dbl, 0)
                crosses.append(Option("X_" + key, f"Cross {label}{where}", 0, row, "cross",
                                      short=option_forms(names, col, 0, True)[1:]))
                actions["X_" + key] = (r, c, CROSS, False, 0)
        if not o["voluntary_cross_allowed"] and scores:
            for opt in crosses:
                del actions[opt.key]
            crosses = []
        name = self.players[p]
        if self.throw_no < 3:
            prompt = f"{name}: choose a row, or hold dice and throw again (throw {self.throw_no} of 3)"
            reroll = RerollSpec(self.dice, 1, 5)
        else:
            prompt = f"{name}: choose a row to score or cross (throw 3 of 3)"
            reroll = None
        self._cache = (Decide(p, tuple(scores + crosses), prompt, reroll), actions)
        return self._cache

    def expects(self):
        if self.seat is None:
            return GameOver()
        name = self.players[self.seat]
        if self.to_throw:
            if self.throw_no == 0:
                return Throw(self.seat, 5, (), f"{name}: throw all 5 dice", "throw")
            return Throw(self.seat, self.to_throw, self.dice,
                         f"{name}: throw {dice_words(self.to_throw)} again (throw {self.throw_no + 1} of 3)", "rethrow")
        return self._decision()[0]

    # ---------------------------------------------------------------------------------- apply
    def apply(self, data: Input) -> "School":
        exp = self.expects()
        if isinstance(exp, Decide) and isinstance(data, Mapping) and data.get("player", exp.player) == exp.player:
            if data.get("type") == "reroll" and exp.reroll is None:
                raise IllegalInput(f"{self.players[exp.player]}: 3 throws are the most per turn; choose a row")
            if data.get("type") == "choose" and isinstance(data.get("option"), str) and exp.option(data["option"]) is None:
                why = self._why_not(data["option"])
                if why:
                    raise IllegalInput(why)
        inp = check_input(exp, data)
        if inp["type"] == "dice":
            return self._next(dice=self.dice + tuple(inp["values"]), throw_no=self.throw_no + 1, to_throw=0)
        if inp["type"] == "reroll":
            keep = tuple(inp["keep"])
            return self._next(dice=keep, to_throw=5 - len(keep))
        return self._write(self._decision()[1][inp["option"]])

    def _why_not(self, key: str) -> str | None:
        """A player-readable reason why a well-formed option key is not legal now."""
        m = KEY_RE.match(key)
        if not m or m.group(2) not in ROW_INDEX:
            return None
        r, row = ROW_INDEX[m.group(2)], m.group(2)
        label, sheet = ROW_LABELS[row], self.sheets[self.seat]
        any_col = self.options["row_fill_order"] == "any_free_column"
        if (m.group(3) is not None) != any_col:
            return None
        cols = self._open_columns(sheet, r)
        if not cols:
            return f"{label} is already filled"
        if any_col and int(m.group(3)) - 1 not in cols:
            return f"{label}, column {m.group(3)} is already filled"
        if m.group(1):
            if m.group(4) or self.options["voluntary_cross_allowed"]:
                return None                 # a cross banks nothing; a voluntary one is never refused
            return "a cross is allowed only when the dice score in no open row"
        if m.group(4):
            if r >= SCHOOL or self.options["school_reserve_mode"] != "player_choice" or m.group(4) == "0":
                return None
            return self._why_no_bank(r, int(m.group(3) or cols[0] + 1) - 1, int(m.group(4)))
        return f"the dice do not qualify for {label}"

    def _why_no_bank(self, r: int, c: int, bank: int) -> str:
        """Why `bank` dice cannot be banked in School row r, column c (an open cell): the row does
        not score, or how many could be, so that the player can choose again at once."""
        label = ROW_LABELS[ROWS[r]]
        banks = [a[4] for a in self._decision()[1].values() if a[:2] == (r, c) and a[2] != CROSS]
        if not banks:
            return f"the dice do not qualify for {label}"
        if self.sheets[self.seat].cells[r * 3:r * 3 + 3].count(None) == 1:
            why = "not in the row's last column (no later column could use it)"
        elif max(banks) <= 0:
            why = "only dice over three can be banked"
        else:
            why = f"at most {max(banks)}"
        return f"you cannot bank {dice_words(bank)} in {label} now: {why}"

    def _write(self, action: Action) -> "School":
        o, p = self.options, self.seat
        r, c, value, dbl, delta = action
        me = self.sheets[p]
        name, label = self.players[p], ROW_LABELS[ROWS[r]]
        idx = r * 3 + c
        cells = me.cells[:idx] + (value,) + me.cells[idx + 1:]
        awards, cols = list(me.awards), list(me.col_awards)
        reserve, eligible = me.reserve, me.eligible
        doubled = me.doubled | (1 << idx) if dbl else me.doubled
        if delta:
            reserve = reserve[:r] + (reserve[r] + delta,) + reserve[r + 1:]
        notes: list[str] = []
        block_rows: list[int] = []
        block_cols: list[int] = []
        if value == CROSS:
            notes.append(f"{name} crossed {label} (column {c + 1})")
            if awards[r] is None:
                awards[r] = CROSS
            if cols[c] is None:
                cols[c] = CROSS
        else:
            how = ", doubled" if dbl else (f", banked {delta}" if delta > 0 else
                                           (f", used {-delta} reserve" if delta < 0 else ""))
            notes.append(f"{name} wrote {value} in {label} (column {c + 1}{how})")
            line = cells[r * 3:r * 3 + 3]
            if None not in line and CROSS not in line:              # §4.3 row award
                if eligible and awards[r] is None:
                    v3 = line[2]
                    if not o["award_copies_doubling"] and doubled >> (r * 3 + 2) & 1:
                        v3 //= 2
                    awards[r] = v3
                    block_rows.append(r)
                    notes.append(f"{name} won the {label} award: {v3}")
                elif not eligible and o["ineligible_player_blocks_award"]:
                    block_rows.append(r)
            column = cells[c::3]
            if None not in column and CROSS not in column:          # §4.4 column award
                if eligible and cols[c] is None:
                    cols[c] = o["column_award_value"]
                    block_cols.append(c)
                    notes.append(f"{name} won the column {c + 1} award: {cols[c]}")
                elif not eligible and o["ineligible_player_blocks_award"]:
                    block_cols.append(c)
        penalty = o["school_cross_penalty"]
        if value == CROSS and r < SCHOOL and penalty != "none":     # §4.5
            lost = held(tuple(awards)) + held(tuple(cols))
            awards = [CROSS if v is not None else v for v in awards]
            cols = [CROSS if v is not None else v for v in cols]
            if penalty == "forfeit_all_awards":
                awards, cols = [CROSS] * NROWS, [CROSS] * NCOLS
            notes += self._penalty_note(name, lost, barred=eligible and penalty == "forfeit_all_awards")
            eligible = eligible and penalty != "forfeit_all_awards"
        sheets = list(self.sheets)
        sheets[p] = PlayerSheet(cells, doubled, tuple(awards), tuple(cols), reserve, eligible)
        if block_rows or block_cols:
            for q, other in enumerate(sheets):
                if q != p:
                    sheets[q] = self._blocked(other, block_rows, block_cols)
        sheets_t = tuple(sheets)
        n = len(sheets_t)
        nxt = next((q for q in ((p + k) % n for k in range(1, n + 1)) if not sheets_t[q].full), None)
        if nxt is None:
            notes.append("Game over")
        return self._next(sheets=sheets_t, seat=nxt, throw_no=0, dice=(), to_throw=0 if nxt is None else 5,
                          notes=tuple(notes))

    @staticmethod
    def _penalty_note(name: str, lost: int, barred: bool) -> list[str]:
        """What a School cross changed, in words: the award points lost, and the awards to come
        if this is the cross that bars them (a later one changes nothing and says nothing)."""
        parts = ([f"loses {lost} award points"] if lost else []) + (["can win no more awards"] if barred else [])
        return [f"School cross: {name} " + " and ".join(parts)] if parts else []

    def _blocked(self, sheet: PlayerSheet, rows: list[int], cols: list[int]) -> PlayerSheet:
        """Another player's sheet after someone took (or blocked) these row/column awards."""
        awards, col_awards, cells = list(sheet.awards), list(sheet.col_awards), sheet.cells
        for r in rows:
            if awards[r] is None:
                awards[r] = CROSS
            if self.options["award_block_scope"] == "row_cells_too":
                line = list(cells[r * 3:r * 3 + 3])
                for c in range(NCOLS):
                    if line[c] is None:
                        line[c] = CROSS
                        if col_awards[c] is None:
                            col_awards[c] = CROSS
                cells = cells[:r * 3] + tuple(line) + cells[r * 3 + 3:]
        for c in cols:
            if col_awards[c] is None:
                col_awards[c] = CROSS
        return replace(sheet, cells=cells, awards=tuple(awards), col_awards=tuple(col_awards))

    # -------------------------------------------------------------------------------- scoring
    def reserve_points(self, p: int) -> int:
        if self.options["unused_reserve_at_end"] != "scored":
            return 0
        return sum((f + 1) * n for f, n in enumerate(self.sheets[p].reserve))

    def total(self, p: int) -> int:
        s = self.sheets[p]
        return played(s.cells) + held(s.awards) + held(s.col_awards) + self.reserve_points(p)

    def result(self) -> Result:
        scores = tuple(self.total(p) for p in range(len(self.players)))
        ranking = rank_by_score(scores)
        details = {
            "row_awards": {n: held(s.awards) for n, s in zip(self.players, self.sheets)},
            "column_awards": {n: held(s.col_awards) for n, s in zip(self.players, self.sheets)},
            "award_eligible": {n: s.eligible for n, s in zip(self.players, self.sheets)},
        }
        return Result(self.players, scores, ranking, ranking[0], "", details)

    def snapshot(self) -> dict[str, Any]:
        return {"game": self.name, "players": list(self.players), "options": dict(self.options),
                "sheets": [s.to_json() for s in self.sheets], "seat": self.seat, "throw_no": self.throw_no,
                "dice": list(self.dice), "to_throw": self.to_throw, "notes": list(self.notes)}

    # ---------------------------------------------------------------------------------- sheet
    def _previews(self, focus: str | None = None) -> dict[tuple[int, int], Cell]:
        """(row, column) -> the preview cell of the pending decision, for the acting player: the
        best points a cell can take, except the cell of the option `focus` (the one under the
        menu's cursor), which shows what that option writes and is the only one outlined. A
        School row's cell is written by up to three options ("School 2" 8, "School 2, bank 1"
        6, and its cross): the best alone showed 8 while the option highlighted, and chosen,
        wrote 6."""
        if self.seat is None or self.to_throw:
            return {}
        actions = self._decision()[1]
        best: dict[tuple[int, int], int] = {}
        for r, c, value, _, _ in actions.values():
            if value != CROSS:
                best[(r, c)] = max(value, best.get((r, c), 0))
        if focus not in actions:
            return {rc: Cell(str(v), v, "preview", highlight=True) for rc, v in best.items()}
        # the cursor's cell alone outlined: under any_free_column "Pair (col 2)" and "(col 3)"
        # previewed 20 in three outlined cells alike, and which one OK fills was not shown
        out = {rc: Cell(str(v), v, "preview") for rc, v in best.items()}
        r, c, value, _, _ = actions[focus]
        out[(r, c)] = (Cell(X, 0, "preview", highlight=True) if value == CROSS
                       else Cell(str(value), value, "preview", highlight=True))
        return out

    def _player_table(self, p: int, previews: dict[tuple[int, int], Cell], winners: tuple[int, ...]) -> Table:
        s = self.sheets[p]

        def cell(v: int | None, kind: str = "score") -> Cell:
            if v is None:
                return Cell()
            return Cell(X, 0, "cross") if v == CROSS else Cell(str(v), v, kind)

        rows = []
        for r, key in enumerate(ROWS):
            cells = []
            for c in range(NCOLS):
                v = s.cells[r * 3 + c]
                if v is None and (r, c) in previews:
                    cells.append(previews[r, c])
                else:
                    cells.append(cell(v))
            cells.append(cell(s.awards[r], "award"))
            if r < SCHOOL:
                info = Cell(f"res {s.reserve[r]}", s.reserve[r], "info") if s.reserve[r] else Cell()
            else:
                dbl = [str(c + 1) for c in range(NCOLS) if s.doubled >> (r * 3 + c) & 1]
                info = Cell("×2: " + " ".join(dbl), kind="info") if dbl else Cell()
            rows.append(Row(key, ROW_LABELS[key], tuple(cells + [info]), short=ROW_SHORT.get(key, ())))
        rows.append(Row("COL_AWARD", "Column award", tuple(cell(v, "award") for v in s.col_awards)
                        + (Cell(), Cell()), "bonus", ("Col. award",)))
        sums = [sum(v for v in s.cells[c::3] if v is not None and v > 0) for c in range(NCOLS)]
        awards = held(s.awards) + held(s.col_awards)
        res = self.reserve_points(p)
        rows.append(Row("SUM", "Sums", tuple(Cell(str(v), v, "total") for v in sums + [awards])
                        + ((Cell(f"+{res} res", res, "total"),) if res else (Cell(),)), "subtotal"))
        total = self.total(p)
        rows.append(Row("TOTAL", "Total", (Cell(), Cell(), Cell(), Cell(str(total), total, "total", p in winners),
                                           Cell()), "total"))
        title = self.players[p] + (" (to play)" if p == self.seat else "") + ("" if s.eligible else " — no awards")
        # (at 320x240 "Alexandrinaa (to play) — no awards" was cut before "no awards": a player
        # barred from the awards was not told so; the name goes first, then the words around it)
        short = () if s.eligible else (f"{self.players[p]} — no awards", f"{self.players[p]}: no awards")
        return Table(title, ("1", "2", "3", "Award", "Info"), tuple(rows), short=short)

    def sheet(self) -> Sheet:
        return self.sheet_for(None)

    def sheet_for(self, focus: str | None) -> Sheet:
        """The sheet while the menu's cursor is on option `focus` (None: on no option): its cell
        previews what that option writes (see `_previews`)."""
        n = len(self.players)
        over = self.seat is None
        winners = self.result().winners if over else ()
        totals = tuple(self.total(p) for p in range(n))

        def line(key: str, label: str, values: list[int], kind: str = "normal") -> Row:
            ck = "total" if kind == "total" else "score"
            return Row(key, label, tuple(Cell(str(v), v, ck, over and p in winners and kind == "total")
                                         for p, v in enumerate(values)), kind)

        rows = [
            Row("ENTRIES", "Entries", tuple(Cell(f"{NCELLS - s.cells.count(None)}/{NCELLS}", kind="info")
                                            for s in self.sheets)),
            line("CELLS", "Cells", [played(s.cells) for s in self.sheets]),
            line("ROW_AWARDS", "Row awards", [held(s.awards) for s in self.sheets]),
            line("COL_AWARDS", "Column awards", [held(s.col_awards) for s in self.sheets]),
        ]
        if self.options["unused_reserve_at_end"] == "scored":
            rows.append(line("RESERVE", "Reserve", [self.reserve_points(p) for p in range(n)]))
        rows.append(line("TOTAL", "Total", list(totals), "total"))
        summary = Table("Scores", self.players, tuple(rows), self.seat)
        tables = []
        previews = self._previews(focus)
        order = range(n) if over else [(self.seat + k) % n for k in range(n)]
        tables += [self._player_table(p, previews if p == self.seat else {}, winners) for p in order]
        # the acting player's own sheet matters most on a small screen; the summary comes next
        tables.insert(1 if tables else 0, summary)
        if over:
            names = ", ".join(self.players[p] for p in winners)
            status = f"Game over — {'winners' if len(winners) > 1 else 'winner'}: {names} ({totals[winners[0]]})"
        else:
            name = self.players[self.seat]
            rnd = NCELLS - self.sheets[self.seat].cells.count(None) + 1
            if self.to_throw:
                status = f"Round {rnd} of {NCELLS} — {name}, throw {self.throw_no + 1} of 3"
            else:
                dice = " ".join(map(str, sorted(self.dice)))
                status = f"Round {rnd} of {NCELLS} — {name}, throw {self.throw_no} of 3: {dice}"
        return Sheet(self.name, self.title, self.players, tuple(tables), totals, status, self.notes)
