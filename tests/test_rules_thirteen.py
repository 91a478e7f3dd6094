"""Thirteen (13-category Poker Dice): the spec's test vectors TH-01..TH-19, every option, and
property tests against an independent reference scorer."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import Decide, GameOver, IllegalInput, OptionError, Throw, new_game
from controller.rules.base import choose_input, dice_input, reroll_input
from controller.rules.random_play import play_random, random_input
from controller.rules.thirteen import (
    CHANCE, EMPTY_CARD, FIVE_KIND, KEYS, ThirteenState, _Rules, bottom_bonus_earned,
)

DEFAULTS = {s.name: s.default for s in ThirteenState.OPTIONS}
SHORT = {  # the spec's abbreviations -> option keys
    "Aces": "ACES", "Twos": "TWOS", "Threes": "THREES", "Fours": "FOURS", "Fives": "FIVES",
    "Sixes": "SIXES", "2pairs": "TWO_PAIRS", "3kind": "THREE_KIND", "4kind": "FOUR_KIND",
    "Straights": "STRAIGHTS", "FullHouse": "FULL_HOUSE", "5kind": "FIVE_KIND", "Chance": "CHANCE",
}


# ------------------------------------------------------------------------------------ helpers
def game(players=("Ann",), **options) -> ThirteenState:
    return new_game("thirteen", list(players), options)


def throw(state, dice, roll=1):
    """Bring the acting player to a decision whose final dice are `dice` after throw `roll`."""
    p = state.expects().player
    state = state.apply(dice_input(p, dice))
    for _ in range(roll - 1):
        state = state.apply(reroll_input(p, dice[1:]))
        state = state.apply(dice_input(p, dice[:1]))
    return state


def score(state, dice, roll, cat):
    state = throw(state, dice, roll)
    return state.apply(choose_input(state.expects().player, SHORT.get(cat, cat)))


def offered(state) -> dict[str, int]:
    return {o.key: o.points for o in state.expects().options}


def parse(text: str) -> dict[str, int]:
    """'Aces 2, 2pairs 30' -> {'ACES': 2, 'TWO_PAIRS': 30}."""
    out = {}
    for part in text.split(","):
        name, value = part.split()
        out[SHORT[name]] = int(value)
    return out


def row(state, key):
    return next(r for r in state.sheet().tables[0].rows if r.key == key)


def play_turns(turns, players=("Ann",), **options):
    """Play (dice, roll, category) turns in seat order; returns the final state."""
    state = game(players, **options)
    for dice, roll, cat in turns:
        state = score(state, dice, roll, cat)
    return state


# ------------------------------------------------------------------ TH-01..TH-09: per category
CATEGORY_VECTORS = [
    # id, dice, throw, options, expected points, "all others 0"
    ("TH-01", [1, 1, 3, 3, 5], 1, {}, "Aces 2, Threes 6, Fives 5, 2pairs 30, Chance 13", True),
    ("TH-02", [4, 4, 4, 2, 2], 2, {}, "Twos 4, Fours 12, 2pairs 25, 3kind 30, FullHouse 35, Chance 16", True),
    ("TH-03", [2, 3, 4, 5, 6], 3, {}, "Straights 30, Twos 2, Threes 3, Fours 4, Fives 5, Sixes 6, Chance 20",
     True),
    ("TH-04", [2, 3, 4, 5, 6], 1, {}, "Straights 40", False),
    ("TH-05", [1, 2, 3, 4, 5], 2, {}, "Straights 35", False),
    ("TH-06", [6, 6, 6, 6, 2], 1, {}, "4kind 45, 3kind 35, Sixes 24, Twos 2, Chance 26", True),
    ("TH-06", [6, 6, 6, 6, 2], 1, {"two_pairs_accepts_four_of_a_kind": True}, "2pairs 30, 4kind 45", False),
    ("TH-07", [1, 2, 3, 4, 6], 1, {}, "Chance 16, Aces 1, Twos 2, Threes 3, Fours 4, Sixes 6", True),
    ("TH-08", [5, 5, 5, 5, 5], 2, {}, "5kind 55, 4kind 40, 3kind 30, Fives 25, Chance 25", True),
    ("TH-09", [3, 5, 5, 3, 3], 3, {}, "FullHouse 30, 3kind 25, 2pairs 20, Threes 9, Fives 10, Chance 19", True),
    # (not a spec vector) §3: Full house is "signature exactly (3,2)" and 2 pairs needs "two different
    # faces": a bare three of a kind makes neither
    ("3kind-only", [4, 4, 4, 1, 2], 2, {}, "3kind 30, Aces 1, Twos 2, Fours 12, Chance 15", True),
]


@pytest.mark.parametrize("vid, dice, roll, options, expected, complete", [
    pytest.param(*v, id=f"{v[0]}{'-' + '-'.join(v[3]) if v[3] else ''}") for v in CATEGORY_VECTORS])
def test_category_points(vid, dice, roll, options, expected, complete):
    state = throw(game(**options), dice, roll)
    want = parse(expected)
    if complete:
        want = {k: want.get(k, 0) for k in KEYS}
    got = offered(state)
    assert {k: got[k] for k in want} == want


@pytest.mark.parametrize("vid", ["TH-10"])
def test_TH_10_a_zero_entry_gets_no_early_close_bonus(vid):
    state = score(game(), [2, 2, 6, 6, 6], 1, "Straights")
    assert state.cards[0].scores[KEYS.index("STRAIGHTS")] == 0
    cell = row(state, "STRAIGHTS").cells[0]
    assert (cell.value, cell.kind) == (0, "cross")
    assert state.totals() == (0,)


# --------------------------------------------------------------- TH-11..TH-14: joker, +40
FIVE_IN_BOX = [([1, 1, 1, 1, 1], 3, "5kind")]          # the 5kind box holds 50


@pytest.mark.parametrize("vid", ["TH-11"])
def test_TH_11_joker_after_throw_3(vid):
    state = throw(play_turns(FIVE_IN_BOX), [3, 3, 3, 3, 3], 3)
    assert offered(state) == parse("FullHouse 30, Straights 30, 4kind 35, 3kind 25, 2pairs 20, Chance 15, "
                                   "Threes 15, Aces 0, Twos 0, Fours 0, Fives 0, Sixes 0")
    assert "joker" in state.expects().prompt
    assert row(state, "EXTRA_FIVE").cells[0].kind == "preview"
    before = state.totals()[0]
    after = state.apply(choose_input(0, "FULL_HOUSE"))
    assert after.totals()[0] - before == 70
    assert row(after, "EXTRA_FIVE").cells[0].value == 40


@pytest.mark.parametrize("vid", ["TH-12"])
def test_TH_12_joker_after_throw_1(vid):
    state = throw(play_turns(FIVE_IN_BOX), [6, 6, 6, 6, 6], 1)
    assert offered(state) == {**parse("Straights 40, FullHouse 40, 4kind 45, 3kind 35, 2pairs 30, Sixes 30, "
                                      "Chance 30"), **dict.fromkeys(["ACES", "TWOS", "THREES", "FOURS", "FIVES"], 0)}
    before = state.totals()[0]
    assert state.apply(choose_input(0, "STRAIGHTS")).totals()[0] - before == 80


def test_a_second_joker_keeps_the_extra_earned_on_the_sheet():
    """§4.5 "One +40 per such turn", on its own line: while a second joker is decided, the line
    shows the 40 already earned beside the +40 to come (it showed "+40" alone, and the sheet's
    lines added up to 40 less than its total)."""
    state = throw(play_turns(FIVE_IN_BOX + [([2] * 5, 3, "Twos")]), [3] * 5, 1)
    assert state.cards[0].extras == 1 and "joker" in state.expects().prompt
    cell = row(state, "EXTRA_FIVE").cells[0]
    assert (cell.text, cell.value, cell.kind) == ("40 +40", 40, "award")
    sheet_parts_add_up(state)
    state = state.apply(choose_input(0, "CHANCE"))
    assert row(state, "EXTRA_FIVE").cells[0].value == 80
    sheet_parts_add_up(state)


@pytest.mark.parametrize("vid", ["TH-13"])
def test_TH_13_scratched_box_means_no_joker_and_no_bonus(vid):
    state = play_turns([([1, 2, 3, 4, 6], 3, "5kind")])
    state = throw(state, [2, 2, 2, 2, 2], 2)
    got = offered(state)
    assert got | parse("Twos 10, 3kind 30, 4kind 40, Chance 10, FullHouse 0, 2pairs 0, Straights 0") == got
    assert "joker" not in state.expects().prompt
    after = state.apply(choose_input(0, "CHANCE"))
    assert after.cards[0].extras == 0 and after.totals()[0] == 10


@pytest.mark.parametrize("eligibility, chance, extra, joker", [
    pytest.param("five_box_nonzero", 20, 40, True, id="TH-14-default"),
    pytest.param("first_five_in_box", 20, 0, False, id="TH-14-first_five_in_box"),
])
def test_TH_14_extra_five_eligibility(eligibility, chance, extra, joker):
    state = play_turns([([6] * 5, 3, "Sixes"), ([1] * 5, 3, "5kind")], extra_five_eligibility=eligibility)
    assert state.cards[0].scores[FIVE_KIND] == 50          # the second five: box open, no joker yet
    state = throw(state, [4] * 5, 3)
    assert offered(state)["FULL_HOUSE"] == (30 if joker else 0)
    before = state.totals()[0]
    state = state.apply(choose_input(0, "CHANCE"))
    assert state.cards[0].scores[CHANCE] == chance
    assert state.totals()[0] - before == chance + extra


@pytest.mark.parametrize("eligibility", ["five_box_nonzero", "first_five_in_box"])
def test_T9_a_five_of_a_kind_thrown_again_counts_for_nothing(eligibility):
    """T9: "Only the dice actually scored count." A joker seen after throw 1 and thrown again earns
    no +40; under the strict reading a first five of a kind seen and thrown again is not the
    player's first, so the one put in the box later still makes the next one a joker."""
    state = game(extra_five_eligibility=eligibility).apply(dice_input(0, [6] * 5))
    state = state.apply(reroll_input(0, [6, 6, 6, 6])).apply(dice_input(0, [2]))
    state = state.apply(choose_input(0, "CHANCE"))                  # the first five, thrown again
    assert state.cards[0].first_five == 0 and state.totals() == (26,)
    state = score(state, [4] * 5, 3, "5kind")                        # the first scored: into the box
    state = throw(state, [5] * 5, 1)                                 # a joker, +40
    assert "joker" in state.expects().prompt
    state = state.apply(reroll_input(0, [5, 5, 5, 5])).apply(dice_input(0, [1]))
    assert "joker" not in state.expects().prompt                    # thrown again: no longer one
    state = state.apply(choose_input(0, "FIVES"))
    assert state.cards[0].extras == 0 and state.totals() == (26 + 50 + 20,)
    state = score(state, [3] * 5, 3, "Aces")                         # T11: another face's box, 0
    assert state.cards[0].scores[0] == 0 and state.cards[0].extras == 1
    assert state.totals() == (26 + 50 + 20 + 0 + 40,)


# ------------------------------------------------------------------ TH-15..TH-17: upper bonus
def upper_turns(values):
    """Turns that score exactly `values` in Aces..Sixes (value = face x count)."""
    turns = []
    for face, value in zip(range(1, 7), values):
        filler = [f for f in (2, 3, 4, 5, 6, 1) if f != face]
        dice = [face] * (value // face) + filler[: 5 - value // face]
        turns.append((dice, 3, list(SHORT)[face - 1]))
    return turns


@pytest.mark.parametrize("values, bonus", [
    pytest.param([3, 6, 9, 12, 15, 18], 20, id="TH-15"),
    pytest.param([2, 4, 9, 12, 15, 18], 20, id="TH-16"),
    pytest.param([1, 4, 9, 12, 15, 18], 0, id="TH-17"),
])
def test_upper_bonus(values, bonus):
    state = play_turns(upper_turns(values))
    assert row(state, "UPPER_SUM").cells[0].value == sum(values)
    assert (row(state, "UPPER_BONUS").cells[0].value or 0) == bonus
    assert state.totals()[0] == sum(values) + bonus


# ----------------------------------------------------------------- TH-18, TH-19: full games
TH_18 = [
    ([5, 5, 5, 5, 5], 2, "5kind", 55), ([6, 6, 6, 3, 3], 1, "FullHouse", 40),
    ([1, 2, 3, 4, 5], 2, "Straights", 35), ([4, 4, 4, 4, 1], 3, "4kind", 35),
    ([6, 6, 6, 6, 2], 3, "Sixes", 24), ([5, 5, 5, 2, 1], 3, "Fives", 15), ([4, 4, 4, 6, 1], 3, "Fours", 12),
    ([3, 3, 3, 3, 3], 3, "Threes", 15), ([2, 2, 2, 5, 6], 3, "Twos", 6), ([1, 1, 3, 4, 6], 3, "Aces", 2),
    ([2, 2, 5, 5, 6], 2, "2pairs", 25), ([1, 2, 3, 5, 6], 3, "3kind", 0), ([6, 6, 5, 4, 3], 3, "Chance", 24),
]
TH_19 = TH_18[:11] + [([3, 3, 3, 1, 2], 3, "3kind", 25)] + TH_18[12:]


@pytest.mark.parametrize("turns, bottom, bottom_bonus, total", [
    pytest.param(TH_18, 214, 0, 348, id="TH-18"),
    pytest.param(TH_19, 239, 30, 403, id="TH-19"),
])
def test_full_game(turns, bottom, bottom_bonus, total):
    state = play_turns([(d, r, c) for d, r, c, _ in turns])
    assert state.is_over
    card = state.cards[0]
    for dice, roll, cat, points in turns:
        assert card.scores[KEYS.index(SHORT[cat])] == points, cat
    assert card.extras == 1                                       # turn 8 was a joker
    assert row(state, "UPPER_SUM").cells[0].value == 74
    assert row(state, "UPPER_BONUS").cells[0].value == 20
    assert sum(row(state, k).cells[0].value for k in KEYS[6:]) == bottom
    assert (row(state, "BOTTOM_BONUS").cells[0].value or 0) == bottom_bonus
    assert row(state, "EXTRA_FIVE").cells[0].value == 40
    assert state.totals() == (total,) == state.result().scores
    assert row(state, "TOTAL").cells[0].highlight                 # the winner
    assert state.result().winners == (0,)


# ------------------------------------------------------------------------- every option
def test_two_pairs_value():
    assert offered(throw(game(two_pairs_value=25), [1, 1, 3, 3, 5], 1))["TWO_PAIRS"] == 35


def test_two_pairs_accepts_full_house_off():
    assert offered(throw(game(two_pairs_accepts_full_house=False), [3, 5, 5, 3, 3], 3))["TWO_PAIRS"] == 0
    assert offered(throw(game(), [3, 5, 5, 3, 3], 3))["TWO_PAIRS"] == 20


def test_five_of_a_kind_meets_2_pairs_only_as_a_joker_by_default():
    state = throw(game(), [2, 2, 2, 2, 2], 3)
    assert offered(state)["TWO_PAIRS"] == 0                       # T2: five of a kind only as a joker


def test_two_pairs_accepts_four_of_a_kind_takes_five_of_a_kind_too():
    """"At least" (README §2.2, T3): under the option a five of a kind holds the four of a kind
    that makes 2 pairs, as it does for the 4 of a kind box. 6 6 6 6 2 scored 20 there and
    6 6 6 6 6 (no joker: the 5 of a kind box was given up) a 0, given up itself."""
    o = dict(two_pairs_accepts_four_of_a_kind=True)
    state = score(game(**o), [1, 2, 3, 5, 6], 3, "5kind")          # 5 of a kind given up: no joker later
    assert offered(throw(state, [6, 6, 6, 6, 2], 3))["TWO_PAIRS"] == 20
    state = throw(state, [6, 6, 6, 6, 6], 2)
    assert offered(state)["TWO_PAIRS"] == 25                       # 20 + 5 for the unused throw
    state = state.apply(choose_input(0, "TWO_PAIRS"))
    assert state.cards[0].scores[KEYS.index("TWO_PAIRS")] == 25
    assert not state.cards[0].scratch >> KEYS.index("TWO_PAIRS") & 1  # met, not given up
    assert row(state, "TWO_PAIRS").cells[0].kind == "score"


def test_early_close_bonus_per_roll():
    assert offered(throw(game(early_close_bonus_per_roll=10), [2, 3, 4, 5, 6], 1))["STRAIGHTS"] == 50
    assert offered(throw(game(early_close_bonus_per_roll=0), [2, 3, 4, 5, 6], 1))["STRAIGHTS"] == 30


def test_early_close_on_zero_still_counts_as_given_up():
    state = score(game(early_close_on_zero=True), [2, 2, 6, 6, 6], 1, "Straights")
    assert state.cards[0].scores[KEYS.index("STRAIGHTS")] == 10
    assert row(state, "STRAIGHTS").cells[0].kind == "cross"
    assert row(state, "BOTTOM_BONUS").cells[0].kind == "cross"    # the bottom bonus is lost


def test_early_close_on_joker_off():
    state = throw(play_turns(FIVE_IN_BOX, early_close_on_joker=False), [6] * 5, 1)
    got = offered(state)
    assert (got["STRAIGHTS"], got["FULL_HOUSE"], got["TWO_PAIRS"]) == (30, 30, 20)   # joker only
    assert (got["FOUR_KIND"], got["THREE_KIND"]) == (45, 35)     # met naturally: bonus kept


def test_upper_bonus_threshold_and_value():
    state = play_turns(upper_turns([1, 4, 9, 12, 15, 18]), upper_bonus_threshold=59, upper_bonus=35)
    assert row(state, "UPPER_BONUS").cells[0].value == 35
    assert state.sheet().tables[0].rows[7].label == "Bonus (59+)"


@pytest.mark.parametrize("bonus, total", [(30, 403), (50, 423), (0, 373)])
def test_bottom_bonus(bonus, total):
    state = play_turns([(d, r, c) for d, r, c, _ in TH_19], bottom_bonus=bonus)
    assert state.totals() == (total,)


def test_bottom_includes_chance():
    # Chance always scores 5+, so it can never be "given up" in play: the option only decides
    # whether the bottom-bonus test looks at it. Shown on a card no real game can produce.
    card = EMPTY_CARD._replace(scores=(0,) * 6 + (20, 25, 35, 30, 30, 50, 0), open=0, scratch=1 << CHANCE)
    assert not bottom_bonus_earned(card, _Rules.get(DEFAULTS))
    assert bottom_bonus_earned(card, _Rules.get({**DEFAULTS, "bottom_includes_chance": False}))
    state = play_turns([(d, r, c) for d, r, c, _ in TH_19], bottom_includes_chance=False)
    assert state.totals() == (403,)


def test_extra_five_bonus():
    state = play_turns([(d, r, c) for d, r, c, _ in TH_18], extra_five_bonus=100)
    assert state.totals() == (348 + 60,)


def test_joker_forced_order():
    state = throw(play_turns(FIVE_IN_BOX, joker_forced_order=True), [3] * 5, 3)
    assert list(offered(state)) == ["THREES"]                     # the matching upper box first
    with pytest.raises(IllegalInput, match="joker must be scored in: Threes"):
        state.apply(choose_input(0, "FULL_HOUSE"))
    state = score(state.apply(choose_input(0, "THREES")), [1, 2, 3, 4, 6], 3, "Chance")
    state = throw(state, [3] * 5, 3)                               # Threes taken: any bottom box
    assert set(offered(state)) == {"TWO_PAIRS", "THREE_KIND", "FOUR_KIND", "STRAIGHTS", "FULL_HOUSE"}
    free = throw(play_turns(FIVE_IN_BOX), [3] * 5, 3)
    assert len(offered(free)) == 12                                # default: any open category


def test_the_forced_order_is_said_whole():
    """§6 joker_forced_order: "matching upper box first, then bottom, then any upper box with 0":
    the card and the option's words stopped at "else a lower box", the third step unsaid."""
    card = " ".join(ThirteenState.rules_card({"joker_forced_order": True}))
    assert "its face's box first if open, else a lower box, else any box" in card
    doc = next(spec.doc for spec in ThirteenState.OPTIONS if spec.name == "joker_forced_order")
    assert doc.endswith("else to a lower box, else to any open box (scoring 0)")
    state = throw(play_turns(FIVE_IN_BOX + [([3, 3, 3, 1, 2], 3, "Threes")] + [
        ([1, 2, 3, 4, 6], 3, c) for c in ("2pairs", "3kind", "4kind", "Straights", "FullHouse", "Chance")],
        joker_forced_order=True), [3] * 5, 3)
    assert set(offered(state)) == {"ACES", "TWOS", "FOURS", "FIVES", "SIXES"}     # the third step
    assert set(offered(state).values()) == {0}


def test_the_card_keeps_the_early_bonus_of_a_box_met_by_five_of_a_kind():
    """early_close_on_joker=false takes the bonus only from a box met *only* as a joker: the card
    said "(a joker's box does not)", yet a joker in 3 of a kind keeps it (docs/games/thirteen.md)."""
    card = " ".join(ThirteenState.rules_card({"early_close_on_joker": False}))
    assert "for each throw not used (not a box met only as a joker)." in card
    assert offered(throw(play_turns(FIVE_IN_BOX, early_close_on_joker=False), [6] * 5, 1))["THREE_KIND"] == 35


def test_no_extra_bonus_promises_none():
    """extra_five_bonus=0: a joker is still a joker, but the prompt said "+0 if scored!", the note
    "+0 for another 5 of a kind" and the sheet previewed "+0"."""
    state = throw(play_turns(FIVE_IN_BOX, extra_five_bonus=0), [6] * 5, 1)
    assert state.expects().prompt == "Ann: joker! choose a category, or hold dice and throw again (throw 1 of 3)"
    assert row(state, "EXTRA_FIVE").cells[0].kind == "empty"
    state = state.apply(choose_input(0, "FULL_HOUSE"))
    assert state.sheet().notes == ("Ann scored 40 in Full house after throw 1",)
    assert offered(throw(play_turns(FIVE_IN_BOX), [6] * 5, 1))["FULL_HOUSE"] == 40


TIE_TURNS = {  # equal totals (34), Ann has the higher upper total and fewer zeros
    0: [([1, 1, 1, 1, 3], 3, "Aces"), ([2, 2, 3, 4, 4], 3, "Chance")],
    1: [([2, 2, 3, 3, 4], 3, "Aces"), ([2, 3, 4, 4, 6], 3, "Chance")],
}


def tie_game(**options):
    rest = [([1, 2, 3, 4, 6], 3, c) for c in ["Twos", "Threes", "Fours", "Fives", "Sixes", "2pairs", "3kind",
                                               "4kind", "Straights", "FullHouse", "5kind"]]
    turns = []
    for a, b in zip(TIE_TURNS[0] + rest, TIE_TURNS[1] + rest):
        turns += [a, b]
    return play_turns(turns, ("Ann", "Bob"), **options)


@pytest.mark.parametrize("tie, ranking, broken", [
    ("shared", ((0, 1),), False), ("upper_total", ((0,), (1,)), True), ("fewer_zeros", ((0,), (1,)), True)])
def test_tie(tie, ranking, broken):
    result = tie_game(tie=tie).result()
    assert result.scores == (34, 34)
    assert result.ranking == ranking
    assert bool(result.tie_break) == broken


@pytest.mark.parametrize("tie, words", [
    ("upper_total", "Ann and Bob tied on 34 points; the higher Aces to Sixes total ranks first (Ann 19 > Bob 15)"),
    ("fewer_zeros", "Ann and Bob tied on 34 points; fewer boxes given up ranks first (Ann 7 given up < Bob 8 "
                    "given up)")])
def test_a_tie_broken_names_the_players_and_their_figures(tie, words):
    """The final screen's "Tie-break: ..." said "equal totals ranked by the upper total": Bob,
    second on the same 34 points, was not told whom he tied with nor what Ann had more of."""
    assert tie_game(tie=tie).result().tie_break == words


def test_a_tie_broken_among_three_names_the_tie_left_shared():
    rest = [([1, 2, 3, 4, 6], 3, c) for c in ["Twos", "Threes", "Fours", "Fives", "Sixes", "2pairs", "3kind",
                                               "4kind", "Straights", "FullHouse", "5kind"]]
    ann, cy = TIE_TURNS[0] + rest, TIE_TURNS[1] + rest
    state = play_turns([t for three in zip(ann, ann, cy) for t in three], ("Ann", "Bob", "Cy"), tie="upper_total")
    assert state.result().ranking == ((0, 1), (2,))
    assert state.result().tie_break == ("Ann, Bob and Cy tied on 34 points; the higher Aces to Sixes total ranks "
                                        "first (Ann 19, Bob 19 > Cy 15)")


@pytest.mark.parametrize("tie", ["shared", "upper_total", "fewer_zeros"])
def test_tie_option_only_breaks_equal_totals(tie):
    """§5 "The highest total wins" [SOURCE]; the `tie` option only ranks *equal* totals: Bob's
    higher total beats Ann's higher upper total and fewer zeros."""
    rest = [([1, 2, 3, 4, 6], 3, c) for c in ["Twos", "Threes", "Fours", "Fives", "Sixes", "2pairs", "3kind",
                                               "4kind", "Straights", "FullHouse", "5kind"]]
    ann = [([1, 1, 1, 1, 3], 3, "Aces"), ([1, 1, 1, 2, 2], 3, "Chance")] + rest
    bob = [([2, 2, 3, 3, 4], 3, "Aces"), ([6, 6, 6, 6, 5], 3, "Chance")] + rest
    result = play_turns([t for pair in zip(ann, bob) for t in pair], ("Ann", "Bob"), tie=tie).result()
    assert result.scores == (26, 44) and result.details["upper"] == [19, 15]
    assert result.ranking == ((1,), (0,)) and result.tie_break == ""


@pytest.mark.parametrize("tie, ranking, winners", [
    ("shared", ((0, 2), (1,)), (0, 2)), ("upper_total", ((0,), (2,), (1,)), (0,)),
    ("fewer_zeros", ((0,), (2,), (1,)), (0,))])
def test_a_tie_of_two_among_three(tie, ranking, winners):
    """§5 ties [DEFAULT shared win]: Ann and Cy equal on 34, Bob below them on 26 whatever the rule."""
    rest = [([1, 2, 3, 4, 6], 3, c) for c in ["Twos", "Threes", "Fours", "Fives", "Sixes", "2pairs", "3kind",
                                               "4kind", "Straights", "FullHouse", "5kind"]]
    ann = TIE_TURNS[0] + rest
    bob = [([1, 1, 1, 1, 3], 3, "Aces"), ([1, 1, 1, 2, 2], 3, "Chance")] + rest
    cy = TIE_TURNS[1] + rest
    state = play_turns([t for three in zip(ann, bob, cy) for t in three], ("Ann", "Bob", "Cy"), tie=tie)
    result = state.result()
    assert result.scores == (34, 26, 34)
    assert (result.ranking, result.winners) == (ranking, winners)
    assert bool(result.tie_break) == (tie != "shared")
    names = "Ann, Cy win" if len(winners) == 2 else "Ann wins"
    assert state.sheet().status == f"Game over: {names} with 34"


def test_start_seat():
    state = game(("Ann", "Bob", "Cy"), start_seat=2)
    assert state.expects().player == 2 and state.expects().prompt == "Cy: throw all 5 dice"
    state = score(state, [1, 2, 3, 4, 6], 3, "Chance")
    assert state.expects().player == 0
    with pytest.raises(OptionError, match="start_seat"):
        game(("Ann", "Bob"), start_seat=2)


# ------------------------------------------------------------------- turn flow and words
def test_turn_flow_prompts_and_held_dice():
    state = game(("Ann", "Bob"))
    exp = state.expects()
    assert isinstance(exp, Throw) and (exp.count, exp.held, exp.purpose) == (5, (), "throw")
    state = state.apply(dice_input(0, [6, 2, 6, 3, 1]))
    exp = state.expects()
    assert isinstance(exp, Decide) and exp.reroll.dice == (1, 2, 3, 6, 6) and len(exp.options) == 13
    assert exp.prompt == "Ann: choose a category, or hold dice and throw again (throw 1 of 3)"
    state = state.apply(reroll_input(0, [6, 6]))
    exp = state.expects()
    assert (exp.count, exp.held, exp.purpose) == (3, (6, 6), "rethrow")
    assert exp.prompt == "Ann: throw 3 dice again (throw 2 of 3)"
    state = state.apply(dice_input(0, [6, 6, 4]))
    state = state.apply(reroll_input(0, [4]))                      # held dice may be released (T15)
    state = state.apply(dice_input(0, [6, 6, 6, 6]))
    exp = state.expects()
    assert exp.reroll is None and exp.prompt == "Ann: choose a category (throw 3 of 3)"
    assert offered(state)["FOUR_KIND"] == 35
    with pytest.raises(IllegalInput, match="at most twice"):
        state.apply(reroll_input(0, [6]))
    state = state.apply(choose_input(0, "FOUR_KIND"))
    assert state.expects().player == 1
    assert state.sheet().notes == ("Ann scored 35 in 4 of a kind after throw 3",)


def test_filled_category_is_refused_with_its_name():
    state = throw(score(game(), [6, 6, 6, 3, 3], 1, "FullHouse"), [6, 6, 6, 3, 3], 1)
    with pytest.raises(IllegalInput, match="Full house is already filled"):
        state.apply(choose_input(0, "FULL_HOUSE"))


def test_malformed_inputs_take_the_uniform_checks():
    state = throw(game(), [1, 2, 3, 4, 5])
    for bad in ({"type": "choose", "player": 0, "option": ["CHANCE"]},
                {"type": "reroll", "player": 0, "keep": [True]},
                {"type": "reroll", "player": 0, "keep": [1, 2, 3, 4, 5]},
                {"type": "reroll", "player": 0, "keep": [6]}):
        with pytest.raises(IllegalInput):
            state.apply(bad)
    state = game()
    for bad in ({"type": "dice", "player": 0, "values": [1, 2, 3, 4, True]},
                {"type": "dice", "player": 0, "values": [1, 2, 3, 4, 5.0]},
                {"type": "dice", "player": 0, "values": (1, 2, 3, 4, 7)},
                {"type": "dice", "player": 0, "values": [0, 2, 3, 4, 5]},     # a die shows 1 to 6
                {"type": "dice", "player": 0, "values": [1, 2, 3, 4, 5, 6]},  # 5 dice are thrown
                {"type": "dice", "player": 0, "values": [1, 2, 3, 4]}):
        with pytest.raises(IllegalInput):
            state.apply(bad)
    two = game(("Ann", "Bob"))                                # Ann's turn: Bob cannot throw for her
    for bad in ({"type": "dice", "player": 1, "values": [1, 2, 3, 4, 5]},
                {"type": "choose", "player": 1, "option": "CHANCE"}):
        with pytest.raises(IllegalInput):
            (throw(two, [1, 2, 3, 4, 5]) if bad["type"] == "choose" else two).apply(bad)
    # what check_input accepts, the engine accepts too (a tuple, a missing player)
    assert state.apply({"type": "dice", "values": (1, 2, 3, 4, 5)}).dice == (1, 2, 3, 4, 5)


@pytest.mark.parametrize("seat, player", [(1, True), (1, 1.0), (0, False), (0, 0.0)])
def test_a_seat_that_only_equals_a_number_is_refused(seat, player):
    """The engine accepts no more than check_input does: a seat is a whole number, never True or
    1.0 (the fast path compared seats with == and took them; a journal then held them)."""
    state = game(("Ann", "Bob"))
    if seat:
        state = score(state, [1, 2, 3, 4, 6], 3, "Chance")
    for data in ({"type": "dice", "player": player, "values": [1, 2, 3, 4, 5]},):
        with pytest.raises(IllegalInput, match="a player is a seat number"):
            state.apply(data)
    state = throw(state, [1, 2, 3, 4, 5])
    for data in ({"type": "choose", "player": player, "option": "STRAIGHTS"},
                 {"type": "reroll", "player": player, "keep": [1, 2]}):
        with pytest.raises(IllegalInput, match="a player is a seat number"):
            state.apply(data)


def test_sheet_layout_previews_and_status():
    state = throw(game(("Ann", "Bob")), [4, 4, 4, 2, 2], 2)
    sheet = state.sheet()
    table = sheet.tables[0]
    assert [r.key for r in table.rows] == list(KEYS[:6]) + ["UPPER_SUM", "UPPER_BONUS"] + list(KEYS[6:]) + [
        "BOTTOM_BONUS", "EXTRA_FIVE", "TOTAL"]
    assert table.columns == ("Ann", "Bob") and table.active_column == 0
    fh = row(state, "FULL_HOUSE")
    assert (fh.cells[0].kind, fh.cells[0].value, fh.cells[1].kind) == ("preview", 35, "empty")
    assert sheet.status == "Round 1 of 13: Ann, choose a category (throw 2 of 3)"
    assert row(state, "TOTAL").kind == "total"
    json.dumps(sheet.to_json())


def test_snapshot_is_json_and_identifies_the_state():
    state = throw(game(("Ann", "Bob")), [4, 4, 4, 2, 2], 2)
    snap = state.snapshot()
    assert json.loads(json.dumps(snap)) == snap
    assert snap["dice"] == [2, 2, 4, 4, 4] and snap["roll"] == 2 and snap["seat"] == 0
    assert state.apply(choose_input(0, "CHANCE")).snapshot() != snap


# ----------------------------------------------------------- reference model and properties
def reference_points(dice, roll, cat, joker, o) -> tuple[int, bool]:
    """(points, given up) written straight from spec §3-§4, independently of the engine."""
    c = Counter(dice)
    sig = sorted(c.values(), reverse=True)
    i = KEYS.index(cat)
    if i < 6:
        p = (i + 1) * c[i + 1]
        return p, p == 0
    if cat == "CHANCE":
        return sum(dice), False
    natural = {
        "TWO_PAIRS": sig == [2, 2, 1] or (sig == [3, 2] and o["two_pairs_accepts_full_house"])
        or (sig[0] >= 4 and o["two_pairs_accepts_four_of_a_kind"]),
        "THREE_KIND": sig[0] >= 3, "FOUR_KIND": sig[0] >= 4,
        "STRAIGHTS": sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]),
        "FULL_HOUSE": sig == [3, 2], "FIVE_KIND": sig == [5],
    }[cat]
    value = {"TWO_PAIRS": o["two_pairs_value"], "THREE_KIND": 25, "FOUR_KIND": 35, "STRAIGHTS": 30,
             "FULL_HOUSE": 30, "FIVE_KIND": 50}[cat]
    early = o["early_close_bonus_per_roll"] * (3 - roll)
    if natural:
        return value + early, False
    if joker:
        return value + (early if o["early_close_on_joker"] else 0), False
    return (early if o["early_close_on_zero"] else 0), True


def reference_totals(state, o) -> list[int]:
    """Replay the scored turns through the reference rules; check each turn's points."""
    n = len(state.players)
    cards = [dict() for _ in range(n)]
    given_up = [set() for _ in range(n)]
    extras, first = [0] * n, [None] * n
    for seat, cat, dice, roll, points, joker in state.scored_turns():
        key = KEYS[cat]
        five = len(set(dice)) == 1
        box_ok = "FIVE_KIND" in cards[seat] and "FIVE_KIND" not in given_up[seat]
        if o["extra_five_eligibility"] == "first_five_in_box":
            box_ok = box_ok and first[seat] == "FIVE_KIND"
        ref_joker = five and box_ok
        assert joker == ref_joker
        p, zero = reference_points(dice, roll, key, ref_joker, o)
        assert points == p and key not in cards[seat]
        cards[seat][key] = p
        if zero:
            given_up[seat].add(key)
        extras[seat] += ref_joker
        if five and first[seat] is None:
            first[seat] = key
    out = []
    bottom = list(KEYS[6:]) if o["bottom_includes_chance"] else list(KEYS[6:12])
    for seat in range(n):
        upper = sum(v for k, v in cards[seat].items() if k in KEYS[:6])
        total = sum(cards[seat].values()) + extras[seat] * o["extra_five_bonus"]
        total += o["upper_bonus"] if upper >= o["upper_bonus_threshold"] else 0
        total += o["bottom_bonus"] if all(k in cards[seat] and k not in given_up[seat] for k in bottom) else 0
        out.append(total)
    return out


OPTION_VALUES = st.fixed_dictionaries({}, optional={
    "two_pairs_value": st.sampled_from([20, 25]),
    "two_pairs_accepts_full_house": st.booleans(),
    "two_pairs_accepts_four_of_a_kind": st.booleans(),
    "early_close_bonus_per_roll": st.integers(0, 10),
    "early_close_on_zero": st.booleans(),
    "early_close_on_joker": st.booleans(),
    "upper_bonus_threshold": st.integers(0, 80),
    "upper_bonus": st.integers(0, 40),
    "bottom_bonus": st.integers(0, 50),
    "bottom_includes_chance": st.booleans(),
    "extra_five_bonus": st.integers(0, 100),
    "extra_five_eligibility": st.sampled_from(["five_box_nonzero", "first_five_in_box"]),
    "joker_forced_order": st.booleans(),
    "tie": st.sampled_from(["shared", "upper_total", "fewer_zeros"]),
})
PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def sheet_parts_add_up(state):
    rows = {r.key: r for r in state.sheet().tables[0].rows}
    def val(key, s):                          # written values only, never previews
        cell = rows[key].cells[s]
        return cell.value or 0 if cell.kind in ("score", "cross", "award", "total") else 0

    for s in range(len(state.players)):
        upper = sum(val(k, s) for k in KEYS[:6])
        assert val("UPPER_SUM", s) == upper
        parts = upper + val("UPPER_BONUS", s) + sum(val(k, s) for k in KEYS[6:]) + val("BOTTOM_BONUS", s)
        parts += val("EXTRA_FIVE", s)
        assert val("TOTAL", s) == parts == state.sheet().totals[s]


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 6), options=OPTION_VALUES, bias=st.floats(0, 1))
@PROPS
def test_random_play_matches_the_reference(seed, n, options, bias):
    """Every decision offers what the reference scores; the end fills each category once; the
    totals equal the sum of the sheet's parts and the reference totals."""
    o = {**DEFAULTS, **options}
    rng = random.Random(seed)
    state = new_game("thirteen", ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:n], options)
    steps = 0
    while not state.is_over:
        exp = state.expects()
        if isinstance(exp, Decide):
            seat = exp.player
            for opt in exp.options:
                card = state.cards[seat]
                assert card.scores[KEYS.index(opt.key)] is None
                preview = row(state, opt.row).cells[seat]
                assert (preview.kind, preview.value) == ("preview", opt.points)
            assert (exp.reroll is None) == (state.roll == 3)
        if steps % 7 == 0:
            sheet_parts_add_up(state)
        state = state.apply(random_input(state, rng, reroll_bias=bias))
        steps += 1
    assert steps <= ThirteenState.max_inputs_per_player * n
    for card in state.cards:
        assert None not in card.scores and card.open == 0
    assert sorted(Counter((s, c) for s, c, *_ in state.scored_turns()).values()) == [1] * 13 * n
    sheet_parts_add_up(state)
    assert list(state.totals()) == reference_totals(state, o) == list(state.result().scores)
    assert set(state.result().winners) == set(state.result().ranking[0])


@given(seed=st.integers(0, 2**32 - 1), options=OPTION_VALUES)
@PROPS
def test_apply_never_touches_the_old_state(seed, options):
    state, inputs = play_random("thirteen", ["Ann", "Bob"], options, seed=seed)
    replayed = new_game("thirteen", ["Ann", "Bob"], options)
    snaps = []
    for data in inputs:
        snaps.append((replayed, json.dumps(replayed.snapshot())))
        replayed = replayed.apply(data)
    assert all(json.dumps(s.snapshot()) == text for s, text in snaps)
    assert replayed.snapshot() == state.snapshot()
    assert isinstance(state.expects(), GameOver)


def forced_joker_boxes(card, face: int) -> set[str]:
    """Spec §6 `joker_forced_order`: the matching upper box, then any bottom box, then any upper box."""
    open_keys = [k for k, s in zip(KEYS, card.scores) if s is None]
    if card.scores[face - 1] is None:
        return {KEYS[face - 1]}
    return set(k for k in open_keys if KEYS.index(k) >= 6) or set(open_keys)


def check_decision(state, rng, o):
    """What the spec allows at this decision is accepted, and what it does not is refused."""
    exp, seat = state.expects(), state.expects().player
    card = state.cards[seat]
    open_keys = {k for k, s in zip(KEYS, card.scores) if s is None}
    offered_keys = {opt.key for opt in exp.options}
    joker = "joker" in exp.prompt
    if joker and o["joker_forced_order"]:
        assert offered_keys == forced_joker_boxes(card, state.dice[0])
    else:
        assert offered_keys == open_keys
    for key in set(KEYS) - offered_keys:
        with pytest.raises(IllegalInput):
            state.apply(choose_input(seat, key))
    dice = list(state.dice)
    keep = rng.sample(dice, rng.randint(0, 4))
    if state.roll < 3:
        assert state.apply(reroll_input(seat, keep)).expects().count == 5 - len(keep)
        with pytest.raises(IllegalInput):
            state.apply(reroll_input(seat, dice))               # keeping all five is not a throw
    else:
        with pytest.raises(IllegalInput):
            state.apply(reroll_input(seat, keep))               # a fourth throw


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 6), options=OPTION_VALUES, faces=st.integers(1, 3))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_loaded_dice_keep_every_rule(seed, n, options, faces):
    """Dice showing 1 to 3 faces make fives of a kind and jokers common (fair dice seldom give a
    second joker): at every step the sheet's lines add up to its total, every open category and
    only those is offered (a forced joker: the boxes the spec's order allows), a filled one is
    refused, a re-throw of 1 to 5 dice is accepted on throws 1 and 2 and refused on throw 3; the
    game ends after exactly 13 turns each, at the reference totals."""
    o = {**DEFAULTS, **options}
    rng = random.Random(seed)
    loaded = rng.sample(range(1, 7), faces)
    state = new_game("thirteen", ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:n], options)
    while not state.is_over:
        exp = state.expects()
        sheet_parts_add_up(state)
        if isinstance(exp, Throw):
            state = state.apply(dice_input(exp.player, [rng.choice(loaded) for _ in range(exp.count)]))
            continue
        check_decision(state, rng, o)
        state = state.apply(random_input(state, rng, reroll_bias=0.3))
    assert state.turn == 13 * n and len(state.scored_turns()) == 13 * n
    sheet_parts_add_up(state)
    assert list(state.totals()) == reference_totals(state, o) == list(state.result().scores)
