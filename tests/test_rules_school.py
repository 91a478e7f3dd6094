"""School (spec: /work/shared/rules/school.md): the worked examples SC-01..SC-24, every option,
and property tests over random legal play. All states are built from real inputs (throw dice,
reroll, choose), never by editing a sheet.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import Decide, GameOver, IllegalInput, OptionError, Throw, new_game
from controller.rules.base import choose_input, dice_input, reroll_input
from controller.rules.random_play import random_input
from controller.rules.school import CROSS, ROW_INDEX, ROWS, School


def scores_table(sheet):
    """The summary table (the acting player's own table is drawn first, then this one)."""
    return next(t for t in sheet.tables if t.title == "Scores")


def player_tables(sheet):
    """The players' own tables, in the order the sheet gives them (acting player first)."""
    return [t for t in sheet.tables if t.title != "Scores"]


FILLER = [1, 2, 3, 4, 6]      # scores only Chance: used for throws that are thrown again

# dice (after throw 2) that score in a row, and the score
STD = {
    "S1": ([1, 1, 1, 2, 3], 3), "S2": ([2, 2, 2, 1, 3], 6), "S3": ([3, 3, 3, 1, 2], 9),
    "S4": ([4, 4, 4, 1, 2], 12), "S5": ([5, 5, 5, 1, 2], 15), "S6": ([6, 6, 6, 1, 2], 18),
    "PAIR": ([5, 5, 1, 2, 3], 10), "TWO_PAIRS": ([3, 3, 5, 5, 1], 16), "TRIPLET": ([4, 4, 4, 1, 2], 12),
    "SMALL_STRAIGHT": ([1, 2, 3, 4, 5], 15), "LARGE_STRAIGHT": ([2, 3, 4, 5, 6], 20),
    "FULL_HOUSE": ([3, 3, 3, 5, 5], 19), "FOUR_OF_A_KIND": ([6, 6, 6, 6, 1], 24),
    "POKER": ([6, 6, 6, 6, 6], 30), "CHANCE": ([1, 2, 3, 4, 6], 16),
}


# ------------------------------------------------------------------------------------- helpers
def new(players=("A",), **options) -> School:
    return new_game("school", list(players), options)


def throw_to(state, dice, throw=2):
    """Reach `throw` (1..3) of the current turn with `dice` showing, through real inputs."""
    p = state.expects().player
    first = dice if throw == 1 else FILLER
    state = state.apply(dice_input(p, first))
    for n in range(2, throw + 1):
        state = state.apply(reroll_input(p, []))
        state = state.apply(dice_input(p, dice if n == throw else FILLER))
    return state


def turn(state, dice, key, throw=2):
    """One scripted turn: throw to `dice` at `throw`, then choose `key`."""
    state = throw_to(state, dice, throw)
    return state.apply(choose_input(state.expects().player, key))


def scores(state) -> dict[str, int]:
    return {o.key: o.points for o in state.expects().options if o.group == "score"}


def cell(state, p, row, col):
    return state.sheets[p].cells[ROW_INDEX[row] * 3 + col - 1]


def award(state, p, row):
    return state.sheets[p].awards[ROW_INDEX[row]]


def row_cells(state, p, row):
    r = ROW_INDEX[row]
    return state.sheets[p].cells[r * 3:r * 3 + 3]


def crosser(state):
    """A filler turn: throw FILLER, cross the last open row outside the School (Chance, Poker, ...)."""
    state = throw_to(state, FILLER, 3)
    keys = [o.key for o in state.expects().options if o.group == "cross" and o.row not in ROWS[:6]]
    return state.apply(choose_input(state.expects().player, keys[-1]))


def sheet_total(table) -> int:
    """Recompute a player's total from the drawn table: play cells + awards + column awards + reserve."""
    rows = {r.key: r for r in table.rows}
    total = 0
    for key in ROWS:
        total += sum(c.value or 0 for c in rows[key].cells[:4] if c.kind in ("score", "award"))
    total += sum(c.value or 0 for c in rows["COL_AWARD"].cells if c.kind == "award")
    res = rows["SUM"].cells[4]
    return total + (res.value or 0)


def vector(vid: str):
    """Give a one-off test the spec's vector id in its pytest id (e.g. `-k SC-15`)."""
    return pytest.mark.parametrize("vid", [vid])


# ---------------------------------------------------------------------------- SC-01..SC-14
LEGALITY = [
    pytest.param([4, 4, 4, 5, 5], 2, {}, dict(S4=12, PAIR=10, TWO_PAIRS=18, TRIPLET=12, FULL_HOUSE=22, CHANCE=22),
                 id="SC-01"),
    pytest.param([4, 4, 4, 5, 5], 1, {}, dict(S4=12, PAIR=20, TWO_PAIRS=36, TRIPLET=24, FULL_HOUSE=44, CHANCE=44),
                 id="SC-02"),
    pytest.param([2, 4, 5, 5, 6], 1, {}, dict(PAIR=20, CHANCE=44), id="SC-04"),
    pytest.param([2, 2, 3, 5, 6], 3, {}, dict(PAIR=4, CHANCE=18), id="SC-05"),
    pytest.param([3, 5, 5, 6, 6], 2, {}, dict(PAIR=12, TWO_PAIRS=22, CHANCE=25), id="SC-06"),
    pytest.param([1, 3, 4, 4, 4], 3, {}, dict(S4=12, PAIR=8, TRIPLET=12, CHANCE=16), id="SC-07"),
    pytest.param([1, 2, 3, 4, 5], 1, {}, dict(SMALL_STRAIGHT=30, CHANCE=30), id="SC-08-throw1"),
    pytest.param([1, 2, 3, 4, 5], 2, {}, dict(SMALL_STRAIGHT=15, CHANCE=15), id="SC-08-throw2"),
    pytest.param([2, 3, 4, 5, 6], 2, {}, dict(LARGE_STRAIGHT=20, CHANCE=20), id="SC-09"),
    pytest.param([3, 3, 3, 5, 5], 3, {}, dict(S3=9, PAIR=10, TWO_PAIRS=16, TRIPLET=9, FULL_HOUSE=19, CHANCE=19),
                 id="SC-10"),
    pytest.param([5, 5, 5, 5, 6], 2, {}, dict(FOUR_OF_A_KIND=20, TRIPLET=15, PAIR=10, CHANCE=26, S5=20, S5_BANK1=15),
                 id="SC-11-throw2"),
    pytest.param([5, 5, 5, 5, 6], 2, {"two_pairs_same_face_allowed": True},
                 dict(FOUR_OF_A_KIND=20, TRIPLET=15, PAIR=10, CHANCE=26, S5=20, S5_BANK1=15, TWO_PAIRS=20),
                 id="SC-11-two_pairs_same_face_allowed"),
    pytest.param([5, 5, 5, 5, 6], 1, {}, dict(FOUR_OF_A_KIND=40, TRIPLET=30, PAIR=20, CHANCE=52, S5=20, S5_BANK1=15),
                 id="SC-11-throw1"),
    pytest.param([6, 6, 6, 6, 6], 1, {},
                 dict(POKER=60, FOUR_OF_A_KIND=48, TRIPLET=36, PAIR=24, CHANCE=60, S6=30, S6_BANK1=24, S6_BANK2=18),
                 id="SC-12-throw1"),
    pytest.param([6, 6, 6, 6, 6], 3, {},
                 dict(POKER=30, FOUR_OF_A_KIND=24, TRIPLET=18, PAIR=12, CHANCE=30, S6=30, S6_BANK1=24, S6_BANK2=18),
                 id="SC-12-throw3"),
    pytest.param([6, 6, 5, 5, 5], 3, {}, dict(S5=15, PAIR=12, TWO_PAIRS=22, TRIPLET=15, FULL_HOUSE=27, CHANCE=27),
                 id="SC-13"),
    # §3 two_pairs_same_face_allowed: "If the option is set, the score is 4 × v" for four or five of a
    # kind only: a triple is not two pairs of one face
    pytest.param([1, 3, 4, 4, 4], 3, {"two_pairs_same_face_allowed": True},
                 dict(S4=12, PAIR=8, TRIPLET=12, CHANCE=16), id="SC-07-two_pairs_same_face_allowed"),
    pytest.param([2, 2, 5, 5, 5], 3, {"two_pairs_same_face_allowed": True},
                 dict(S5=15, PAIR=10, TWO_PAIRS=14, TRIPLET=15, FULL_HOUSE=19, CHANCE=19),
                 id="full-house-two_pairs_same_face_allowed"),
    pytest.param([1, 2, 3, 4, 6], 1, {}, dict(CHANCE=32), id="SC-14"),
]


@pytest.mark.parametrize("dice,throw,options,expected", LEGALITY)
def test_legal_scores_on_an_empty_sheet(dice, throw, options, expected):
    state = throw_to(new(**options), dice, throw)
    assert scores(state) == expected
    crosses = {o.key for o in state.expects().options if o.group == "cross"}
    assert crosses == {"X_" + r for r in ROWS}          # every other row only accepts a cross
    assert (state.expects().reroll is None) == (throw == 3)


@vector("SC-03")
def test_SC_03_reserve_makes_up_a_shortfall(vid):
    state = turn(new(), [5, 5, 5, 5, 1], "S5_BANK1")
    assert cell(state, 0, "S5", 1) == 15 and state.sheets[0].reserve[4] == 1
    state = throw_to(state, [4, 4, 4, 5, 5], 2)
    assert scores(state)["S5"] == 15
    state = state.apply(choose_input(0, "S5"))
    assert cell(state, 0, "S5", 2) == 15 and state.sheets[0].reserve[4] == 0


@vector("SC-11-col3")
def test_SC_11_no_banking_in_column_3(vid):
    state = new()
    for _ in range(2):
        state = turn(state, [5, 5, 5, 1, 2], "S5")
    state = throw_to(state, [5, 5, 5, 5, 6], 2)
    assert {k: v for k, v in scores(state).items() if k.startswith("S5")} == {"S5": 20}


# ---------------------------------------------------------------------------- SC-15..SC-17
@vector("SC-15")
def test_SC_15_reserve_sequence_class_1(vid):
    state = turn(new(), [1, 1, 1, 1, 3], "S1_BANK1")
    assert cell(state, 0, "S1", 1) == 3 and state.sheets[0].reserve[0] == 1
    state = turn(state, [1, 1, 2, 4, 6], "S1")
    assert cell(state, 0, "S1", 2) == 3 and state.sheets[0].reserve[0] == 0
    state = throw_to(state, [1, 1, 2, 3, 5], 2)
    assert "S1" not in scores(state)
    assert state.expects().option("X_S1") is not None
    # control: no banking at column 1
    control = turn(new(), [1, 1, 1, 1, 3], "S1")
    assert cell(control, 0, "S1", 1) == 4
    control = throw_to(control, [1, 1, 2, 4, 6], 2)
    assert "S1" not in scores(control)
    with pytest.raises(IllegalInput, match="do not qualify for School 1"):
        control.apply(choose_input(0, "S1"))


@vector("SC-16")
def test_SC_16_reserve_with_zero_real_dice(vid):
    state = turn(new(), [6, 6, 6, 6, 6], "S6_BANK2")
    assert cell(state, 0, "S6", 1) == 18 and state.sheets[0].reserve[5] == 2
    state = throw_to(state, [6, 6, 6, 6, 1], 2)
    assert "S6_BANK2" not in scores(state)           # at most c - 3 = 1
    state = state.apply(choose_input(0, "S6_BANK1"))
    assert cell(state, 0, "S6", 2) == 18 and state.sheets[0].reserve[5] == 3
    state = turn(state, [1, 2, 3, 4, 5], "S6")
    assert cell(state, 0, "S6", 3) == 18 and state.sheets[0].reserve[5] == 0
    assert sum(row_cells(state, 0, "S6")) == 54


@vector("SC-17")
def test_SC_17_reserve_not_added_when_enough_and_lost_at_end(vid):
    state = turn(new(), [2, 2, 2, 2, 5], "S2_BANK1")
    assert cell(state, 0, "S2", 1) == 6 and state.sheets[0].reserve[1] == 1
    state = throw_to(state, [2, 2, 2, 3, 4], 2)
    assert {k: v for k, v in scores(state).items() if k.startswith("S2")} == {"S2": 6}
    state = state.apply(choose_input(0, "S2"))
    assert state.sheets[0].reserve[1] == 1
    state = throw_to(state, [2, 2, 2, 6, 6], 2)
    assert {k: v for k, v in scores(state).items() if k.startswith("S2")} == {"S2": 6}
    state = state.apply(choose_input(0, "S2"))
    assert sum(row_cells(state, 0, "S2")) == 18 and state.sheets[0].reserve[1] == 1
    assert state.total(0) == 18 + 6                  # cells + the row award; the reserve is lost


# ---------------------------------------------------------------------------- SC-18..SC-21
@vector("SC-18")
def test_SC_18_first_to_complete_a_row_takes_the_award(vid):
    s = new(("A", "B"))
    s = turn(s, [2, 4, 5, 5, 6], "PAIR", throw=1)     # A 20
    s = turn(s, [4, 4, 1, 2, 3], "PAIR")              # B 8
    s = turn(s, [5, 5, 1, 2, 3], "PAIR", throw=2)     # A 10
    s = turn(s, [5, 5, 1, 2, 3], "PAIR")              # B 10
    assert award(s, 0, "PAIR") is None and award(s, 1, "PAIR") is None
    s = turn(s, [6, 6, 1, 2, 3], "PAIR", throw=3)     # A 12
    assert row_cells(s, 0, "PAIR") == (20, 10, 12)
    assert award(s, 0, "PAIR") == 12 and award(s, 1, "PAIR") == CROSS
    assert s.total(0) == 54
    s = turn(s, [6, 6, 1, 2, 3], "PAIR")              # B 12
    assert row_cells(s, 1, "PAIR") == (8, 10, 12) and award(s, 1, "PAIR") == CROSS
    assert s.total(1) == 30


@vector("SC-19")
def test_SC_19_a_row_with_a_cross_blocks_nobody(vid):
    s = new(("A", "B"))
    s = turn(s, STD["CHANCE"][0], "CHANCE")
    s = turn(s, [4, 4, 5, 5, 1], "TWO_PAIRS")         # B 18
    s = turn(s, STD["PAIR"][0], "PAIR")
    s = turn(s, FILLER, "X_TWO_PAIRS")                # B cross in column 2
    assert award(s, 1, "TWO_PAIRS") == CROSS
    s = turn(s, STD["TRIPLET"][0], "TRIPLET")
    s = turn(s, [3, 3, 5, 5, 1], "TWO_PAIRS")         # B 16 in column 3: row complete with a cross
    assert row_cells(s, 1, "TWO_PAIRS") == (18, CROSS, 16)
    assert award(s, 0, "TWO_PAIRS") is None
    for dice in ([4, 4, 5, 5, 1], [5, 5, 6, 6, 1], [3, 3, 4, 4, 1]):
        s = turn(s, dice, "TWO_PAIRS")                # A 18, 22, 14
        s = crosser(s)
    assert row_cells(s, 0, "TWO_PAIRS") == (18, 22, 14) and award(s, 0, "TWO_PAIRS") == 14


def column_script(key_suffix=""):
    return [(STD[r][0], r + key_suffix) for r in ROWS]


@pytest.mark.parametrize("value", [60, 100], ids=["SC-20", "SC-20-column_award_value"])
def test_SC_20_column_awards_are_first_come_per_column(value):
    s = new(("A", "B"), column_award_value=value)
    b_col1 = [(STD[r][0], r) if r.startswith("S") else (FILLER, "X_" + r) for r in ROWS]
    for (a_dice, a_key), (b_dice, b_key) in zip(column_script(), b_col1):
        s = turn(s, a_dice, a_key)
        s = turn(s, b_dice, b_key)
    assert s.sheets[0].col_awards == (value, None, None)
    assert s.sheets[1].col_awards[0] == CROSS
    a_col2 = [(FILLER, "X_POKER") if r == "POKER" else (STD[r][0], r) for r in ROWS]
    for (a_dice, a_key), (b_dice, b_key) in zip(a_col2, column_script()):
        s = turn(s, a_dice, a_key)
        s = turn(s, b_dice, b_key)
    assert s.sheets[1].col_awards == (CROSS, value, None)
    assert s.sheets[0].col_awards == (value, CROSS, None)
    assert s.result().details["column_awards"] == {"A": value, "B": value}


def sc21_setup(**options):
    """A wins the column-1 award (60), the Pair award (12) and the Chance award (25); B only crosses."""
    s = new(("A", "B"), **options)
    a_turns = column_script() + [([5, 5, 1, 2, 3], "PAIR"), ([6, 6, 1, 2, 3], "PAIR"),
                                 ([1, 2, 3, 4, 6], "CHANCE"), ([6, 6, 6, 6, 1], "CHANCE")]
    for dice, key in a_turns:
        s = turn(s, dice, key)
        s = crosser(s)
    assert award(s, 0, "PAIR") == 12 and award(s, 0, "CHANCE") == 25 and s.sheets[0].col_awards[0] == 60
    assert s.result().details["row_awards"]["A"] + s.result().details["column_awards"]["A"] == 97
    return s


@pytest.mark.parametrize("penalty,lost", [("forfeit_all_awards", 97), ("erase_earned_only", 97), ("none", 0)],
                         ids=["SC-21", "SC-21-erase_earned_only", "SC-21-none"])
def test_SC_21_school_cross_penalty(penalty, lost):
    s = sc21_setup(school_cross_penalty=penalty)
    before = s.total(0)
    s = turn(s, FILLER, "X_S3")                       # S3 column 2
    assert cell(s, 0, "S3", 2) == CROSS
    assert award(s, 0, "S3") == CROSS and s.sheets[0].col_awards[1] == CROSS
    assert s.total(0) == before - lost
    assert award(s, 1, "PAIR") == CROSS and s.sheets[1].col_awards[0] == CROSS   # not re-offered
    forfeit = penalty == "forfeit_all_awards"
    assert s.sheets[0].eligible is not forfeit
    empty_awards = [v for v in s.sheets[0].awards + s.sheets[0].col_awards if v is None]
    assert (not empty_awards) if forfeit else empty_awards
    if penalty == "none":
        assert award(s, 0, "PAIR") == 12 and s.sheets[0].col_awards[0] == 60
    # may A still earn a future award? complete Triplet (column 1 already filled)
    s = crosser(s)
    for dice in ([4, 4, 4, 1, 2], [5, 5, 5, 1, 2]):
        s = turn(s, dice, "TRIPLET")
        s = crosser(s)
    assert award(s, 0, "TRIPLET") == (CROSS if forfeit else 15)


# ---------------------------------------------------------------------------- SC-22..SC-24
# (row, [(dice, throw, key) for columns 1..3]) giving the SC-22 sheet
SC22 = [
    ("S1", [([1, 1, 1, 2, 3], 2, "S1")] * 3),
    ("S2", [([2, 2, 2, 1, 3], 2, "S2"), ([2, 2, 2, 2, 3], 2, "S2"), ([2, 2, 2, 1, 3], 2, "S2")]),
    ("S3", [([3, 3, 3, 1, 2], 2, "S3")] * 2 + [([3, 3, 3, 3, 1], 2, "S3")]),
    ("S4", [([4, 4, 4, 1, 2], 2, "S4"), ([4, 4, 4, 4, 1], 2, "S4"), ([4, 4, 4, 1, 2], 2, "S4")]),
    ("S5", [([5, 5, 5, 1, 2], 2, "S5")] * 2 + [([5, 5, 5, 5, 1], 2, "S5")]),
    ("S6", [([6, 6, 6, 1, 2], 2, "S6")] * 2 + [([6, 6, 6, 6, 1], 2, "S6")]),
    ("PAIR", [([2, 4, 5, 5, 6], 1, "PAIR"), ([5, 5, 1, 2, 3], 2, "PAIR"), ([6, 6, 1, 2, 3], 3, "PAIR")]),
    ("TWO_PAIRS", [([4, 4, 5, 5, 1], 2, "TWO_PAIRS"), ([5, 5, 6, 6, 1], 2, "TWO_PAIRS"), (FILLER, 3, "X_TWO_PAIRS")]),
    ("TRIPLET", [([4, 4, 4, 1, 2], 1, "TRIPLET"), ([5, 5, 5, 1, 2], 2, "TRIPLET"), ([6, 6, 6, 1, 2], 2, "TRIPLET")]),
    ("SMALL_STRAIGHT", [([1, 2, 3, 4, 5], 2, "SMALL_STRAIGHT"), ([1, 2, 3, 4, 5], 1, "SMALL_STRAIGHT"),
                        (FILLER, 3, "X_SMALL_STRAIGHT")]),
    ("LARGE_STRAIGHT", [([2, 3, 4, 5, 6], 2, "LARGE_STRAIGHT"), (FILLER, 3, "X_LARGE_STRAIGHT"),
                        ([2, 3, 4, 5, 6], 1, "LARGE_STRAIGHT")]),
    ("FULL_HOUSE", [([4, 4, 4, 5, 5], 2, "FULL_HOUSE"), ([5, 5, 5, 6, 6], 2, "FULL_HOUSE"),
                    ([4, 4, 4, 5, 5], 1, "FULL_HOUSE")]),
    ("FOUR_OF_A_KIND", [([5, 5, 5, 5, 1], 2, "FOUR_OF_A_KIND"), ([6, 6, 6, 6, 1], 2, "FOUR_OF_A_KIND"),
                        (FILLER, 3, "X_FOUR_OF_A_KIND")]),
    ("POKER", [(FILLER, 3, "X_POKER"), (FILLER, 3, "X_POKER"), ([6, 6, 6, 6, 6], 2, "POKER")]),
    ("CHANCE", [([4, 4, 4, 5, 5], 1, "CHANCE"), ([4, 4, 4, 5, 5], 2, "CHANCE"), ([6, 6, 6, 6, 1], 2, "CHANCE")]),
]
SC22_AWARDS = dict(S1=3, S2=6, S3=12, S4=12, S5=20, S6=24, PAIR=12, TRIPLET=18, FULL_HOUSE=44, CHANCE=25)


def sc22_turns(order=None, s1_col3_cross=False):
    script = dict(SC22)
    if s1_col3_cross:
        script["S1"] = script["S1"][:2] + [(FILLER, 3, "X_S1")]
    return [t for row in (order or [r for r, _ in SC22]) for t in script[row]]


@vector("SC-22")
def test_SC_22_full_sheet_total(vid):
    s = new()
    for dice, throw, key in sc22_turns():
        s = turn(s, dice, key, throw)
    assert isinstance(s.expects(), GameOver)
    sums = [sum(v for v in s.sheets[0].cells[c::3] if v > 0) for c in range(3)]
    assert sums == [246, 219, 246]
    assert {r: award(s, 0, r) for r in SC22_AWARDS} == SC22_AWARDS
    assert s.sheets[0].col_awards == (CROSS, CROSS, CROSS)
    assert s.total(0) == 887 == s.result().scores[0] == s.sheet().totals[0]
    assert sheet_total(player_tables(s.sheet())[0]) == 887


@vector("SC-23")
def test_SC_23_awards_taken_by_opponents(vid):
    s = new(("A", "B"))
    order = [r for r, _ in SC22 if r not in ("S6", "FULL_HOUSE")] + ["S6", "FULL_HOUSE"]
    b_turns = [(STD["S6"][0], "S6")] * 3 + [(STD["FULL_HOUSE"][0], "FULL_HOUSE")] * 3
    for i, (dice, throw, key) in enumerate(sc22_turns(order)):
        s = turn(s, dice, key, throw)
        if i < len(b_turns):
            s = turn(s, *b_turns[i])
            if i == len(b_turns) - 1:
                assert award(s, 1, "S6") == 18 and award(s, 1, "FULL_HOUSE") == 19
        elif i < 30:
            s = crosser(s)
        else:                                          # B's School rows last (B's own penalty only)
            s = turn(s, FILLER, "X_" + ROWS[(i - 30) // 3])
    assert isinstance(s.expects(), GameOver)
    assert award(s, 0, "S6") == CROSS and award(s, 0, "FULL_HOUSE") == CROSS
    assert s.result().details["row_awards"]["A"] == 108
    assert s.total(0) == 819


@pytest.mark.parametrize("penalty,total", [("forfeit_all_awards", 708), ("none", 881)],
                         ids=["SC-24", "SC-24-none"])
def test_SC_24_school_cross_in_a_full_sheet(penalty, total):
    s = new(school_cross_penalty=penalty)
    order = [r for r, _ in SC22 if r != "S1"] + ["S1"]        # the cross comes last: all awards are held
    turns = sc22_turns(order, s1_col3_cross=True)
    for dice, throw, key in turns[:-1]:
        s = turn(s, dice, key, throw)
    assert s.result().details["row_awards"]["A"] == 176 - 3
    dice, throw, key = turns[-1]
    s = turn(s, dice, key, throw)
    assert s.is_over and s.total(0) == total


# ------------------------------------------------------------------------------------ options
def test_option_row_fill_order_any_free_column():
    s = throw_to(new(row_fill_order="any_free_column"), [6, 6, 1, 2, 3], 2)
    keys = {o.key for o in s.expects().options}
    assert {"PAIR_C1", "PAIR_C2", "PAIR_C3", "X_PAIR_C2", "CHANCE_C3"} <= keys and "PAIR" not in keys
    s = s.apply(choose_input(0, "PAIR_C3"))
    assert row_cells(s, 0, "PAIR") == (None, None, 12)
    s = throw_to(s, [6, 6, 6, 6, 1], 2)
    assert {"S6_C3_BANK1", "S6_C1_BANK1"} <= set(scores(s))       # banking allowed: not the last cell
    s = s.apply(choose_input(0, "PAIR_C1"))
    with pytest.raises(IllegalInput, match="Pair, column 1 is already filled"):
        throw_to(s, [5, 5, 1, 2, 3], 2).apply(choose_input(0, "PAIR_C1"))
    s = turn(s, [5, 5, 1, 2, 3], "PAIR_C2")
    assert row_cells(s, 0, "PAIR") == (12, 10, 12) and award(s, 0, "PAIR") == 12   # column-3 value
    s = throw_to(s, [5, 5, 1, 2, 3], 2)
    with pytest.raises(IllegalInput, match="Pair is already filled"):
        s.apply(choose_input(0, "PAIR_C2"))


def test_option_voluntary_cross_allowed_false():
    s = throw_to(new(voluntary_cross_allowed=False), FILLER, 2)
    assert [o.key for o in s.expects().options] == ["CHANCE"]
    with pytest.raises(IllegalInput, match="cross is allowed only"):
        s.apply(choose_input(0, "X_PAIR"))
    s = s.apply(choose_input(0, "CHANCE"))
    s = turn(s, FILLER, "CHANCE")
    s = turn(s, FILLER, "CHANCE")
    s = throw_to(s, FILLER, 3)                     # nothing scores any more: every open row may be crossed
    assert not scores(s) and len(s.expects().options) == 14


@pytest.mark.parametrize("options,pair,chance", [({}, 20, 44), ({"double_on_first_throw": False}, 10, 22),
                                                 ({"double_applies_to_chance": False}, 20, 22)])
def test_options_doubling(options, pair, chance):
    s = throw_to(new(**options), [4, 4, 4, 5, 5], 1)
    assert scores(s)["PAIR"] == pair and scores(s)["CHANCE"] == chance and scores(s)["S4"] == 12


def test_option_school_reserve_mode_fixed_three():
    s = throw_to(new(school_reserve_mode="fixed_three"), [1, 1, 1, 1, 1], 2)
    assert {k: v for k, v in scores(s).items() if k.startswith("S1")} == {"S1": 3}
    s = s.apply(choose_input(0, "S1"))
    assert s.sheets[0].reserve[0] == 2
    s = turn(s, [1, 2, 3, 4, 6], "S1")             # 1 real + 2 reserve
    assert cell(s, 0, "S1", 2) == 3 and s.sheets[0].reserve[0] == 0


def test_option_school_reserve_mode_none():
    s = throw_to(new(school_reserve_mode="none"), [1, 1, 1, 1, 3], 2)
    assert {k: v for k, v in scores(s).items() if k.startswith("S1")} == {"S1": 4}
    s = s.apply(choose_input(0, "S1"))
    assert s.sheets[0].reserve[0] == 0


@pytest.mark.parametrize("minimum,legal", [(0, True), (1, False)])
def test_option_reserve_min_real_dice(minimum, legal):
    s = turn(new(reserve_min_real_dice=minimum), [6, 6, 6, 6, 6], "S6_BANK2")
    s = turn(s, [6, 6, 6, 6, 1], "S6_BANK1")
    s = throw_to(s, [1, 2, 3, 4, 5], 2)
    assert ("S6" in scores(s)) is legal


@pytest.mark.parametrize("mode,total", [("lost", 24), ("scored", 26)])
def test_option_unused_reserve_at_end(mode, total):
    s = new(unused_reserve_at_end=mode)
    for dice, key in (([2, 2, 2, 2, 5], "S2_BANK1"), ([2, 2, 2, 3, 4], "S2"), ([2, 2, 2, 6, 6], "S2")):
        s = turn(s, dice, key)
    assert s.total(0) == total
    assert sheet_total(player_tables(s.sheet())[0]) == total


@pytest.mark.parametrize("allowed", [False, True])
def test_option_full_house_accepts_poker(allowed):
    s = throw_to(new(full_house_accepts_poker=allowed), [6, 6, 6, 6, 6], 2)
    assert scores(s).get("FULL_HOUSE") == (30 if allowed else None)
    assert "TWO_PAIRS" not in scores(s)


@pytest.mark.parametrize("copies,expected", [(True, 24), (False, 12)])
def test_option_award_copies_doubling(copies, expected):
    s = new(award_copies_doubling=copies)
    s = turn(s, [5, 5, 1, 2, 3], "PAIR")
    s = turn(s, [5, 5, 1, 2, 3], "PAIR")
    s = turn(s, [6, 6, 1, 2, 3], "PAIR", throw=1)
    assert cell(s, 0, "PAIR", 3) == 24 and award(s, 0, "PAIR") == expected


def test_option_award_block_scope_row_cells_too():
    """A works down the rows, B starts with Chance then works up: each completed row crosses the
    other's empty cells of that row, sheets fill early and full sheets are skipped."""
    s = new(("A", "B"), award_block_scope="row_cells_too")
    plans = [list(ROWS), ["CHANCE"] + list(reversed(ROWS[:-1]))]
    turns = [0, 0]
    while not s.is_over:
        p = s.expects().player
        assert None in s.sheets[p].cells                 # never a turn for a full sheet
        row = next(r for r in plans[p] if None in row_cells(s, p, r))
        s = turn(s, STD[row][0], row)
        turns[p] += 1
    assert sum(turns) < 90
    a, b = s.sheets
    assert row_cells(s, 0, "CHANCE") == (CROSS,) * 3 and award(s, 1, "CHANCE") == 16
    assert a.col_awards == (CROSS,) * 3
    assert b.eligible                                    # auto-crosses in the School are no penalty
    for r in range(15):                                  # each row: one player has the award, the other a cross
        got = sorted((s.sheets[p].awards[r] for p in range(2)), reverse=True)
        assert got[0] > 0 and got[1] == CROSS
    assert s.total(0) + s.total(1) == sum(sheet_total(t) for t in player_tables(s.sheet()))


def test_option_award_block_scope_default_keeps_cells():
    s = new(("A", "B"))
    s = turn(s, STD["PAIR"][0], "PAIR")
    s = turn(s, STD["PAIR"][0], "PAIR")
    for _ in range(2):
        s = turn(s, STD["PAIR"][0], "PAIR")
        s = crosser(s)
    assert award(s, 1, "PAIR") == CROSS and row_cells(s, 1, "PAIR") == (10, None, None)


@pytest.mark.parametrize("blocks", [False, True])
def test_option_ineligible_player_blocks_award(blocks):
    s = new(("A", "B"), ineligible_player_blocks_award=blocks)
    s = turn(s, FILLER, "X_S1")                          # A is now ineligible
    s = crosser(s)
    assert not s.sheets[0].eligible
    for _ in range(3):
        s = turn(s, STD["PAIR"][0], "PAIR")
        s = crosser(s)
    assert award(s, 0, "PAIR") == CROSS
    assert award(s, 1, "PAIR") == (CROSS if blocks else None)


def test_option_ineligible_player_blocks_award_not_with_a_crossed_row():
    """§4.3 "A player who completes a row **with** a cross in it does not block anyone": even
    when ineligible players block awards, only a cross-free completion blocks."""
    s = new(("A", "B"), ineligible_player_blocks_award=True)
    s = turn(s, FILLER, "X_S1")                          # A is now ineligible
    s = crosser(s)                                       # (B crosses Chance)
    s = turn(s, FILLER, "X_PAIR")                        # A's Pair row gets a cross
    for _ in range(2):
        s = turn(s, STD["PAIR"][0], "PAIR")
        s = turn(s, STD["PAIR"][0], "PAIR")
    assert row_cells(s, 0, "PAIR") == (CROSS, 10, 10)   # A completed the row first, with a cross
    assert row_cells(s, 1, "PAIR") == (10, 10, None)
    s = turn(s, STD["PAIR"][0], "PAIR")                  # B completes it without a cross
    assert award(s, 1, "PAIR") == 10


def test_option_ineligible_player_blocks_award_not_with_a_crossed_column():
    """§4.4 a column award needs "all 15 cells of column c are SCORE (no cross)": a column
    completed with a cross (here the School cross) does not block the others' column award."""
    s = new(("A", "B"), ineligible_player_blocks_award=True)
    s = turn(s, FILLER, "X_S1")                          # A: a cross in column 1, and ineligible
    s = turn(s, STD["S1"][0], "S1")
    for row in ROWS[1:]:
        s = turn(s, STD[row][0], row)                    # A, then B, score column 1 of each row
        s = turn(s, STD[row][0], row)
    assert all(v is not None for v in s.sheets[0].cells[0::3])   # A's column 1 was full first
    assert s.sheets[1].col_awards[0] == 60

def test_option_tie_is_shared():
    s = new(("A", "B"), tie="shared")
    while not s.is_over:
        s = crosser_any(s)
    r = s.result()
    assert r.scores == (0, 0) and r.ranking == ((0, 1),) and r.winners == (0, 1)
    assert s.sheet().status.startswith("Game over — winners: A, B")


def crosser_any(state):
    state = throw_to(state, FILLER, 3)
    exp = state.expects()
    return state.apply(choose_input(exp.player, next(o.key for o in exp.options if o.group == "cross")))


def test_option_start_seat():
    s = new(("A", "B", "C"), start_seat=2)
    assert s.expects().player == 2 and s.expects().prompt == "C: throw all 5 dice"
    s = turn(s, FILLER, "CHANCE")
    assert s.expects().player == 0
    with pytest.raises(OptionError, match="start_seat"):
        new(("A", "B"), start_seat=2)


@pytest.mark.parametrize("name,value", [("row_fill_order", "random"), ("column_award_value", -1),
                                        ("reserve_min_real_dice", 3), ("voluntary_cross_allowed", 1),
                                        ("tie", "split")])
def test_bad_option_values_name_the_option(name, value):
    with pytest.raises(OptionError, match=name):
        new(**{name: value})


# ---------------------------------------------------------------------------------- the turn
def test_turn_flow_and_messages():
    s = new(("Ann", "Bob"))
    exp = s.expects()
    assert isinstance(exp, Throw) and exp.count == 5 and exp.purpose == "throw"
    s = s.apply(dice_input(0, [6, 6, 1, 2, 3]))
    exp = s.expects()
    assert isinstance(exp, Decide) and exp.reroll.dice == (6, 6, 1, 2, 3) and exp.reroll.min_rethrow == 1
    assert exp.prompt == "Ann: choose a row, or hold dice and throw again (throw 1 of 3)"
    s = s.apply(reroll_input(0, [6, 6]))
    exp = s.expects()
    assert exp == Throw(0, 3, (6, 6), "Ann: throw 3 dice again (throw 2 of 3)", "rethrow")
    s = s.apply(dice_input(0, [6, 1, 1]))
    s = s.apply(reroll_input(0, [6, 6, 6]))
    s = s.apply(dice_input(0, [6, 6]))
    assert s.expects().reroll is None
    with pytest.raises(IllegalInput, match="3 throws are the most"):
        s.apply(reroll_input(0, [6]))
    with pytest.raises(IllegalInput, match="do not qualify for Small straight"):
        s.apply(choose_input(0, "SMALL_STRAIGHT"))
    with pytest.raises(IllegalInput, match="cannot bank 3"):
        s.apply(choose_input(0, "S6_BANK3"))
    s = s.apply(choose_input(0, "POKER"))
    assert cell(s, 0, "POKER", 1) == 30 and s.expects().player == 1
    assert s.notes == ("Ann wrote 30 in Poker (column 1)",)


def test_sheet_previews_and_layout():
    s = throw_to(new(("Ann", "Bob")), [4, 4, 4, 5, 5], 1)
    sh = s.sheet()
    assert [t.title for t in sh.tables] == ["Ann (to play)", "Scores", "Bob"]   # own sheet first
    assert scores_table(sh).active_column == 0
    ann = {r.key: r for r in player_tables(sh)[0].rows}
    assert ann["FULL_HOUSE"].cells[0].kind == "preview" and ann["FULL_HOUSE"].cells[0].value == 44
    assert ann["S4"].cells[0].value == 12 and ann["S5"].cells[0].kind == "empty"
    assert [r.key for r in player_tables(sh)[0].rows][-3:] == ["COL_AWARD", "SUM", "TOTAL"]
    assert sh.status == "Round 1 of 45 — Ann, throw 1 of 3: 4 4 4 5 5"
    s = s.apply(choose_input(0, "FULL_HOUSE"))
    ann = {r.key: r for r in player_tables(s.sheet())[1].rows}      # Bob acts now: Ann's table comes second
    assert ann["FULL_HOUSE"].cells[0].text == "44" and ann["FULL_HOUSE"].cells[4].text == "×2: 1"
    assert all(c.kind != "preview" for r in player_tables(s.sheet())[1].rows for c in r.cells)


# ---------------------------------------------------------------------------- property tests
#: every house rule and the values it takes (also the reference model's: test_rules_school_model)
OPTION_VALUES = {
    "row_fill_order": st.sampled_from(["left_to_right", "any_free_column"]),
    "voluntary_cross_allowed": st.booleans(),
    "double_on_first_throw": st.booleans(),
    "double_applies_to_chance": st.booleans(),
    "school_reserve_mode": st.sampled_from(["player_choice", "fixed_three", "none"]),
    "reserve_min_real_dice": st.integers(0, 2),
    "unused_reserve_at_end": st.sampled_from(["lost", "scored"]),
    "two_pairs_same_face_allowed": st.booleans(),
    "full_house_accepts_poker": st.booleans(),
    "award_copies_doubling": st.booleans(),
    "award_block_scope": st.sampled_from(["award_cell_only", "row_cells_too"]),
    "school_cross_penalty": st.sampled_from(["forfeit_all_awards", "erase_earned_only", "none"]),
    "ineligible_player_blocks_award": st.booleans(),
    "column_award_value": st.integers(0, 100),
}
OPTION_SPACE = st.fixed_dictionaries({}, optional=OPTION_VALUES)


def scoring_input(state, rng):
    """Random legal play that prefers scores (so that awards and reserves happen)."""
    exp = state.expects()
    if isinstance(exp, Decide) and rng.random() < 0.7:
        best = [o for o in exp.options if o.group == "score"]
        if best and (exp.reroll is None or rng.random() < 0.6):
            return choose_input(exp.player, rng.choice(best).key)
    return random_input(state, rng)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 4), options=OPTION_SPACE)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_play_invariants(seed, n, options):
    rng = random.Random(seed)
    state = new(["A", "B", "C", "D"][:n], **options)
    entries = [0] * n
    while not state.is_over:
        exp = state.expects()
        assert None in state.sheets[exp.player].cells
        nxt = state.apply(scoring_input(state, rng))
        if isinstance(exp, Decide) and nxt.throw_no == 0:
            me_before, me_after = state.sheets[exp.player], nxt.sheets[exp.player]
            assert me_after.cells.count(None) == me_before.cells.count(None) - 1   # one entry per turn
            entries[exp.player] += 1
        state = nxt
    sheet = state.sheet()
    assert list(state.result().scores) == list(sheet.totals)
    by_title = {t.title.split(" ")[0]: t for t in player_tables(sheet)}
    for p, ps in enumerate(state.sheets):
        assert ps.full and sheet_total(by_title[state.players[p]]) == sheet.totals[p]
        if options.get("award_block_scope", "award_cell_only") == "award_cell_only":
            assert entries[p] == 45
        assert all(v >= 0 for v in ps.reserve)
        for r in range(15):
            line = ps.cells[r * 3:r * 3 + 3]
            if r < 6:
                f = r + 1
                assert all(v == CROSS or (v % f == 0 and 3 * f <= v <= 5 * f) for v in line)
                if options.get("school_reserve_mode") == "fixed_three":
                    assert all(v in (CROSS, 3 * f) for v in line)
            for c in range(3):
                if ps.doubled >> (r * 3 + c) & 1:
                    assert r >= 6 and line[c] % 2 == 0
            a = ps.awards[r]
            if a is not None and a != CROSS:               # a held award: cross-free row, column-3 value
                assert CROSS not in line
                assert a in (line[2], line[2] // 2)
            if CROSS in line:
                assert a == CROSS
        if not ps.eligible:
            assert all(v == CROSS for v in ps.awards + ps.col_awards)
    for r in range(15):                                    # each award at most once at the table
        assert sum(1 for ps in state.sheets if ps.awards[r] not in (None, CROSS)) <= 1
    for c in range(3):
        assert sum(1 for ps in state.sheets if ps.col_awards[c] not in (None, CROSS)) <= 1


# ------------------------------------------------------------------------------ the words shown
def test_one_die_thrown_again_is_one_die():
    """The prompt of a rethrow of one die read "throw 1 dice again" (on the table's screen and at
    the terminal); the other games with rethrows say "1 die"."""
    s = new(("Ann",)).apply(dice_input(0, [6, 6, 6, 6, 1]))
    s = s.apply(reroll_input(0, [6, 6, 6, 6]))
    assert s.expects().prompt == "Ann: throw 1 die again (throw 2 of 3)"
    s = s.apply(dice_input(0, [2])).apply(reroll_input(0, [6, 6, 6]))
    assert s.expects().prompt == "Ann: throw 2 dice again (throw 3 of 3)"


REFUSALS = [
    # a cross is always allowed under the default: a cross key with a bank is simply not a key
    pytest.param({}, [6, 6, 6, 6, 1], 1, "X_S1_BANK1", "'X_S1_BANK1' is not a legal choice now", id="cross-with-bank"),
    # no one in the dice: the row does not qualify, whatever is banked
    pytest.param({}, [6, 6, 6, 6, 1], 1, "S1_BANK1", "the dice do not qualify for School 1", id="bank-in-a-row-that-does-not-score"),
    pytest.param({}, [6, 6, 6, 6, 1], 1, "S6_BANK2", "you cannot bank 2 dice in School 6 now: at most 1", id="bank-too-many"),
    pytest.param({}, [6, 6, 6, 1, 2], 1, "S6_BANK1", "you cannot bank 1 die in School 6 now: only dice over three",
                 id="bank-with-three"),
    pytest.param({"row_fill_order": "any_free_column"}, [6, 6, 6, 6, 1], 1, "X_S1_C1_BANK1",
                 "'X_S1_C1_BANK1' is not a legal choice now", id="any-free-column-cross-with-bank"),
    pytest.param({"voluntary_cross_allowed": False}, [6, 6, 6, 6, 1], 1, "X_PAIR",
                 "a cross is allowed only when the dice score in no open row", id="no-voluntary-cross"),
]


@pytest.mark.parametrize("options,dice,throw,key,message", REFUSALS)
def test_a_refusal_says_the_true_reason(options, dice, throw, key, message):
    """A refused key at the terminal said "a cross is allowed only when the dice score in no open
    row" for X_S1_BANK1 under the default (a cross is always allowed there), and "you cannot bank
    1 dice in School 1" when no one was in the dice."""
    s = throw_to(new(**options), dice, throw)
    with pytest.raises(IllegalInput) as err:
        s.apply(choose_input(0, key))
    assert str(err.value).startswith(message)


def test_no_banking_in_the_last_column_says_why():
    s = new()
    for _ in range(2):
        s = turn(s, [6, 6, 6, 1, 2], "S6")
    s = throw_to(s, [6, 6, 6, 6, 1], 2)
    with pytest.raises(IllegalInput, match="^you cannot bank 1 die in School 6 now: not in the row's last column"):
        s.apply(choose_input(0, "S6_BANK1"))


# ------------------------------------------------------------------- spec statements, scripted
def test_a_rethrow_is_one_to_five_dice_of_those_on_the_table():
    """§2.2 DECIDE: RETHROW a selection of 1-5 dice; a die kept at throw 2 may be thrown at throw 3."""
    s = new().apply(dice_input(0, [6, 6, 1, 2, 3]))
    with pytest.raises(IllegalInput, match="throw at least 1 die again"):
        s.apply(reroll_input(0, [6, 6, 1, 2, 3]))           # keeping all five is writing, not a rethrow
    with pytest.raises(IllegalInput, match="cannot keep"):
        s.apply(reroll_input(0, [6, 6, 6]))                 # only dice that are on the table
    s = s.apply(reroll_input(0, []))                        # all five again
    assert s.expects().count == 5 and s.expects().held == ()
    s = s.apply(dice_input(0, [4, 4, 5, 5, 1])).apply(reroll_input(0, [1]))   # the kept 4s and 5s go again
    assert s.expects().count == 4 and s.expects().held == (1,)


def test_one_entry_wins_a_row_award_and_a_column_award():
    """§4.4 "A single entry can trigger a row award and a column award at the same time. Both are
    granted." One player fills the sheet row by row without a cross: the last entry (Chance,
    column 3) completes the Chance row and column 3 at once."""
    s = new()
    for row in ROWS:
        for _ in range(3):
            s = turn(s, STD[row][0], row)
    assert s.is_over
    assert s.notes[1:3] == ("A won the Chance award: 16", "A won the column 3 award: 60")
    assert s.sheets[0].col_awards == (60, 60, 60)
    assert [award(s, 0, r) for r in ROWS] == [STD[r][1] for r in ROWS]
    assert s.total(0) == 3 * 225 + 225 + 180 == 1080


def test_a_three_way_tie_is_shared_by_four_players():
    """§5: equal best totals share the win whatever the player count. A, B and C write the same
    entries (a cross on a diagonal: every row and column has one, so no award), D crosses all."""
    s = new(("A", "B", "C", "D"))
    for i, row in enumerate(ROWS):
        for c in range(3):
            for _ in range(3):
                s = turn(s, FILLER, "X_" + row) if c == i % 3 else turn(s, STD[row][0], row)
            s = crosser_any(s)
    r = s.result()
    assert s.is_over and r.scores[0] == r.scores[1] == r.scores[2] > 0 == r.scores[3]
    assert r.ranking == ((0, 1, 2), (3,)) and r.winners == (0, 1, 2)
    assert s.sheet().status == f"Game over — winners: A, B, C ({r.scores[0]})"


@pytest.mark.parametrize("penalty,first,second", [
    ("forfeit_all_awards", ("A crossed School 1 (column 1)", "School cross: A can win no more awards"),
     ("A crossed School 2 (column 1)",)),
    ("erase_earned_only", ("A crossed School 1 (column 1)",), ("A crossed School 2 (column 1)",)),
])
def test_a_school_cross_says_only_what_it_changes(penalty, first, second):
    """The note of a School cross said "loses 0 award points and can win no more awards" when no
    award was held, and said it again at every later School cross, when nothing changed any more
    (now printed at the terminal after every move, and shown in the table's banner)."""
    s = turn(new(school_cross_penalty=penalty), FILLER, "X_S1")
    assert s.notes == first
    s = turn(s, FILLER, "X_S2")
    assert s.notes == second
