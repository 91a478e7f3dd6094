"""Classic poker dice: the spec's test vectors CL-01..CL-31, option effects and properties.

Hands in the tests are written in the spec's rank notation ("K K 9 J A"); the driver turns
them into die faces 1..6 through the game's `face_mapping`, as the camera would read them.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import Decide, GameOver, IllegalInput, OptionError, Throw, new_game
from controller.rules.classic import Category, compare, describe, evaluate, parse_mapping
from controller.rules.random_play import random_input

RANK = {"9": 9, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
C = Category


def ranks(text: str) -> list[int]:
    return [RANK[t] for t in text.split()]


def faces(state, text: str) -> list[int]:
    """Rank notation -> die faces under the state's mapping."""
    return [state.ranks.index(r) + 1 for r in ranks(text)]


def run(state, *steps):
    """Drive a game with compact steps: ("dice", "K K 9"), ("keep", "K K"), ("stand",), ("choose", KEY)."""
    for step in steps:
        exp = state.expects()
        p = exp.player
        kind = step[0]
        if kind == "dice":
            state = state.apply({"type": "dice", "player": p, "values": faces(state, step[1])})
        elif kind == "keep":
            state = state.apply({"type": "reroll", "player": p, "keep": faces(state, step[1])})
        elif kind == "stand":
            state = state.apply({"type": "choose", "player": p, "option": "STAND"})
        else:
            state = state.apply({"type": "choose", "player": p, "option": step[1]})
    return state


def final_hands(*hands):
    """Steps for players who each keep their first throw (no second throw)."""
    out = []
    for h in hands:
        out += [("dice", h), ("stand",)]
    return out


# ----------------------------------------------------------------------- CL-01..CL-08 detection
DETECTION = [
    pytest.param("K K K K K", {}, C.FIVE_OF_A_KIND, (13,), id="CL-01"),
    pytest.param("9 9 9 9 A", {}, C.FOUR_OF_A_KIND, (9,), id="CL-02"),
    pytest.param("Q Q Q 10 10", {}, C.FULL_HOUSE, (12,), id="CL-03"),
    pytest.param("Q Q Q 10 10", {"full_house_pair_tiebreak": True}, C.FULL_HOUSE, (12, 10), id="CL-03-pair-tiebreak"),
    pytest.param("10 A J K Q", {}, C.STRAIGHT, (), id="CL-04"),
    pytest.param("9 10 J Q K", {}, C.NO_PAIR, (13, 12, 11, 10, 9), id="CL-05"),
    pytest.param("9 10 J Q K", {"low_straight_9_to_K": True}, C.STRAIGHT, (13,), id="CL-05-low-straight"),
    pytest.param("J J J 9 10", {}, C.THREE_OF_A_KIND, (11,), id="CL-06"),
    pytest.param("Q Q 10 10 J", {}, C.TWO_PAIRS, (12, 10, 11), id="CL-07"),
    pytest.param("K K J A Q", {}, C.ONE_PAIR, (13, 14, 12, 11), id="CL-08"),
]


@pytest.mark.parametrize("hand, opts, category, key", DETECTION)
def test_category_detection(hand, opts, category, key):
    assert evaluate(ranks(hand), **opts) == (category, key)


# --------------------------------------------------------------------- CL-09..CL-25 comparisons
COMPARISONS = [
    pytest.param("K K K K K", "Q Q Q Q Q", {}, 1, id="CL-09"),
    pytest.param("K K K K 9", "K K K K A", {}, 0, id="CL-10"),
    pytest.param("Q Q Q 10 10", "J J J A A", {}, 1, id="CL-11"),
    pytest.param("Q Q Q 10 10", "Q Q Q A A", {}, 0, id="CL-12"),
    pytest.param("Q Q Q 10 10", "Q Q Q A A", {"full_house_pair_tiebreak": True}, -1, id="CL-12-pair-tiebreak"),
    pytest.param("A K Q J 10", "A A A K Q", {}, 1, id="CL-13"),
    pytest.param("9 10 J Q K", "A K Q J 9", {}, -1, id="CL-14"),
    pytest.param("9 10 J Q K", "A K Q J 9", {"low_straight_9_to_K": True}, 1, id="CL-14-low-straight"),
    pytest.param("J J J 9 10", "10 10 10 A K", {}, 1, id="CL-15"),
    pytest.param("J J J 9 10", "J J J A K", {}, 0, id="CL-16"),
    pytest.param("Q Q 10 10 J", "Q Q 10 10 9", {}, 1, id="CL-17"),
    pytest.param("Q Q 10 10 J", "Q Q J J 9", {}, -1, id="CL-18"),
    pytest.param("K K 9 9 10", "Q Q J J A", {}, 1, id="CL-19"),
    pytest.param("K K J A Q", "K K A Q 10", {}, 1, id="CL-20"),
    pytest.param("A K Q J 9", "A K Q 10 9", {}, 1, id="CL-21"),
    pytest.param("9 9 9 9 A", "A A A K K", {}, 1, id="CL-22"),
    pytest.param("A A K K Q", "9 9 9 10 J", {}, -1, id="CL-23"),
    pytest.param("A K Q J 10", "10 J Q K A", {}, 0, id="CL-24"),
    pytest.param("9 10 J Q A", "9 10 J K A", {}, -1, id="CL-25"),
]


@pytest.mark.parametrize("a, b, opts, expected", COMPARISONS)
def test_comparison(a, b, opts, expected):
    assert compare(ranks(a), ranks(b), **opts) == expected
    assert compare(ranks(b), ranks(a), **opts) == -expected


def test_low_straight_ranks_just_below_the_high_straight():
    low = {"low_straight_9_to_K": True}
    assert compare(ranks("A K Q J 10"), ranks("9 10 J Q K"), **low) == 1
    assert compare(ranks("9 10 J Q K"), ranks("A A A K Q"), **low) == 1
    assert compare(ranks("9 10 J Q K"), ranks("Q Q Q 9 9"), **low) == -1


def test_every_hand_has_exactly_one_category_and_the_order_is_total():
    import itertools
    hands = list(itertools.product(range(9, 15), repeat=5))
    cats = {evaluate(h)[0] for h in hands}
    assert cats == set(Category)
    # no pair hands: missing 10 > missing J > missing Q > missing K > missing A (spec §3.3)
    order = ["A K Q J 9", "A K Q 10 9", "A K J 10 9", "A Q J 10 9", "K Q J 10 9"]
    for hi, lo in zip(order, order[1:]):
        assert compare(ranks(hi), ranks(lo)) == 1


def test_hand_notation():
    assert describe(ranks("K K K Q 10")) == "K K K Q 10 · Three K"
    assert describe(ranks("10 Q Q 10 Q")) == "Q Q Q 10 10 · Full house Q over 10"
    assert describe(ranks("9 10 J Q K"), low_straight_9_to_K=True) == "K Q J 10 9 · Straight (low)"


# --------------------------------------------------------------------------- CL-26, CL-27 flow
def test_CL_26_round_flow():
    g = new_game("classic", ["P1", "P2", "P3"])
    exp = g.expects()
    assert isinstance(exp, Throw) and exp.count == 5 and exp.player == 0 and exp.purpose == "throw"
    assert exp.faces == ("9", "10", "J", "Q", "K", "A")
    g = run(g, ("dice", "K K 9 J A"))
    exp = g.expects()
    assert isinstance(exp, Decide) and exp.reroll.min_rethrow == 1 and exp.reroll.max_rethrow == 5
    assert [o.key for o in exp.options] == ["STAND"]
    g = run(g, ("keep", "K K"))
    exp = g.expects()
    assert (exp.count, exp.purpose, sorted(exp.held)) == (3, "rethrow", sorted(faces(g, "K K")))
    g = run(g, ("dice", "Q K 10"))
    assert g.hands[0] is not None and g.strength(g.hands[0]) == (C.THREE_OF_A_KIND, (13,))
    g = run(g, ("dice", "A K Q J 9"), ("keep", "A K Q J"), ("dice", "10"))
    assert g.strength(g.hands[1])[0] == C.STRAIGHT
    g = run(g, ("dice", "Q Q Q Q 9"), ("stand",))
    rec = g.history[0]
    assert rec["winners"] == (2,)
    assert g.wins == (0, 0, 1)
    row = g.sheet().tables[0].rows[0]
    assert [c.text for c in row.cells] == ["K K K Q 10 · Three K", "A K Q J 10 · Straight", "Q Q Q Q 9 · Four Q"]
    assert [c.highlight for c in row.cells] == [False, False, True]


CL27 = ("10 10 10 A K", "10 10 10 9 J", "A A K K J")


def test_CL_27_round_tie_shared_by_default():
    g = run(new_game("classic", ["P1", "P2", "P3"]), *final_hands(*CL27))
    assert g.history[0]["winners"] == (0, 1)
    assert g.wins == (1, 1, 0)


def test_CL_27_round_tie_roll_off():
    g = run(new_game("classic", ["P1", "P2", "P3"], {"round_tie": "roll_off"}), *final_hands(*CL27))
    exp = g.expects()
    assert isinstance(exp, Throw) and exp.purpose == "roll_off" and exp.player == 0 and exp.count == 5
    # first roll-off pass ties again (kickers ignored), second pass: P2 strictly best
    g = run(g, ("dice", "J J J A K"), ("dice", "J J J 9 10"))
    assert g.expects().purpose == "roll_off" and g.wins == (0, 0, 0)
    g = run(g, ("dice", "9 10 J Q A"), ("dice", "9 9 10 J Q"))
    assert g.history[0]["winners"] == (1,)
    assert g.wins == (0, 1, 0)
    assert len(g.history[0]["rolloffs"]) == 2
    assert any("roll-off" in n for n in g.sheet().notes)


# --------------------------------------------------------------------------- CL-28..CL-31 betting
BET = {"variant": "betting"}
PHASE1 = [("dice", "K K K 9 10"), ("dice", "Q Q J 10 9"), ("dice", "A K J 10 9")]
BETS = [("choose", "BET_2"), ("choose", "CALL"), ("choose", "RAISE_4"), ("choose", "CALL"), ("choose", "FOLD")]


def test_CL_28_betting_round():
    g = run(new_game("classic", ["A", "B", "C"], BET), *PHASE1)
    exp = g.expects()
    assert exp.player == 0 and [o.key for o in exp.options] == ["CHECK", "BET_1", "BET_2", "BET_3", "BET_4", "BET_5"]
    g = run(g, *BETS)
    assert g.pot == 10 and g.bank == (16, 18, 16)
    exp = g.expects()
    assert isinstance(exp, Decide) and exp.player == 0 and sorted(exp.reroll.dice) == sorted(faces(g, "K K K 9 10"))
    g = run(g, ("keep", "K K K"))
    assert g.expects().held == tuple(faces(g, "K K K")) and g.expects().count == 2
    g = run(g, ("dice", "K Q"))
    assert g.expects().player == 2                     # B folded: no second throw
    g = run(g, ("keep", "A K J 10"), ("dice", "Q"))
    rec = g.history[0]
    assert rec["winners"] == (0,) and g.strength(rec["hands"][2])[0] == C.STRAIGHT
    assert g.bank == (26, 18, 16) and sum(g.bank) + g.carry == 60
    assert g.sheet().totals == (26, 18, 16)


@pytest.mark.parametrize("opts, banks", [
    pytest.param({}, (21, 18, 21), id="CL-29"),
    pytest.param({"full_house_pair_tiebreak": True}, (16, 18, 26), id="CL-29-pair-tiebreak"),
])
def test_CL_29_split_pot(opts, banks):
    g = run(new_game("classic", ["A", "B", "C"], {**BET, **opts}), *PHASE1, *BETS,
            ("keep", "10"), ("dice", "Q Q Q 10"), ("keep", "A"), ("dice", "Q Q Q A"))
    assert g.bank == banks and g.carry == 0


def test_CL_30_pot_remainder_is_carried():
    g = run(new_game("classic", ["A", "B", "C"], BET), *PHASE1,
            ("choose", "BET_3"), ("choose", "CALL"), ("choose", "CALL"),
            ("keep", "K K K"), ("dice", "Q Q"),        # A: K K K Q Q
            ("keep", "Q Q"), ("dice", "K K K"),        # B: K K K Q Q
            ("keep", "A"), ("dice", "9 9 10 J"))       # C: pair 9
    rec = g.history[0]
    assert rec["pot"] == 9 and rec["winners"] == (0, 1) and rec["share"] == 4 and rec["carried"] == 1
    assert g.bank == (21, 21, 17)
    assert g.pot == 1                                  # the next round's pot starts with the carry
    assert sum(g.bank) + g.pot == 60
    assert "1 carried" in g.sheet().notes[0]


def test_CL_31_everyone_folds():
    g = run(new_game("classic", ["A", "B", "C"], BET), *PHASE1,
            ("choose", "BET_3"), ("choose", "FOLD"), ("choose", "FOLD"))
    rec = g.history[0]
    assert rec["winners"] == (0,) and rec["pot"] == 3
    assert g.bank == (20, 20, 20) and g.wins == (1, 0, 0)
    exp = g.expects()                                  # no phase 2: the next round starts with B
    assert isinstance(exp, Throw) and exp.purpose == "throw" and exp.player == 1 and len(g.history) == 1


def test_betting_skips_a_folded_player_when_the_betting_goes_round_again():
    """§6 betting goes "clockwise, repeated until settled" among the non-folded players: after
    A re-raises, the turn passes over B (folded) to C."""
    g = run(new_game("classic", ["A", "B", "C"], BET), *PHASE1,
            ("choose", "BET_1"), ("choose", "FOLD"), ("choose", "RAISE_2"), ("choose", "RAISE_3"))
    exp = g.expects()
    assert isinstance(exp, Decide) and exp.player == 2 and "CALL" in [o.key for o in exp.options]
    g = run(g, ("choose", "CALL"))
    assert g.pot == 6 and g.bank == (17, 20, 17)               # B folded before paying anything
    assert g.expects().player == 0 and g.expects().reroll is not None      # settled: A's second throw


def test_betting_a_busted_player_is_out_of_the_next_rounds():
    """§5 betting: the match runs until "the last player with points": a player with no points
    left is not dealt in again, while the two others play on."""
    g = new_game("classic", ["A", "B", "C"], {**BET, "starting_bankroll": 2})
    g = run(g, ("dice", "K K K K K"), ("dice", "9 9 9 9 9"), ("dice", "9 10 J Q A"),
            ("choose", "BET_2"), ("choose", "CALL"), ("choose", "FOLD"), ("stand",), ("stand",))
    assert g.bank == (4, 0, 2) and not g.is_over
    assert g.order == (2, 0)                           # round 2 starts at B's seat: B is skipped
    g = run(g, ("dice", "9 9 9 9 9"), ("dice", "K K K K K"))
    assert g.expects().player == 2 and g.sheet().tables[0].rows[1].cells[1].text == "out"


def test_betting_with_nothing_to_bet_goes_straight_to_the_second_throws():
    """§6: bets are "capped at the smallest bankroll among players at round start"; after an ante
    that takes a player's last point the cap is 0, so there is no betting round to ask for."""
    g = new_game("classic", ["A", "B"], {**BET, "starting_bankroll": 2, "ante": 2})
    assert g.cap == 0 and g.pot == 4
    g = run(g, ("dice", "K K K K K"), ("dice", "9 9 9 9 9"))
    exp = g.expects()
    assert isinstance(exp, Decide) and exp.player == 0 and exp.reroll is not None   # A's keep, no bet
    g = run(g, ("stand",), ("stand",))
    assert g.is_over and g.bank == (4, 0)


# ------------------------------------------------------------------------------- option effects
def test_face_mapping_list_and_dict():
    rev = [14, 13, 12, 11, 10, 9]
    g = new_game("classic", ["A", "B"], {"face_mapping": rev})
    assert g.expects().faces == ("A", "K", "Q", "J", "10", "9")
    g = g.apply({"type": "dice", "player": 0, "values": [1, 1, 1, 1, 1]})
    assert g.strength(g.dice) == (C.FIVE_OF_A_KIND, (14,))
    d = new_game("classic", ["A", "B"], {"face_mapping": {"1": "A", "2": "K", "3": "Q", "4": "J", "5": "10", "6": "9"}})
    assert d.ranks == tuple(rev)
    assert parse_mapping(["9", "10", "j", "q", "k", "a"]) == (9, 10, 11, 12, 13, 14)


@pytest.mark.parametrize("bad", [[9, 9, 11, 12, 13, 14], [9, 10, 11], {"1": 9}, [1, 2, 3, 4, 5, 6],
                                 {"7": 9, "1": 10, "2": 11, "3": 12, "4": 13, "5": 14}])
def test_face_mapping_must_be_a_permutation(bad):
    with pytest.raises(OptionError, match="face_mapping"):
        new_game("classic", ["A", "B"], {"face_mapping": bad})


def test_start_seat_and_rotation():
    g = new_game("classic", ["A", "B", "C"], {"start_seat": 2})
    assert g.expects().player == 2 and g.order == (2, 0, 1)
    with pytest.raises(OptionError, match="start_seat"):
        new_game("classic", ["A", "B"], {"start_seat": 2})
    hands = final_hands("K K K K K", "Q Q Q Q Q", "J J J J J")
    assert run(new_game("classic", ["A", "B", "C"]), *hands).expects().player == 1
    assert run(new_game("classic", ["A", "B", "C"], {"rotate_first_player": False}), *hands).expects().player == 0


def play_rounds(g, hand_for):
    """Play until over; `hand_for(seat, round)` gives each player's kept first throw."""
    while not g.is_over:
        g = run(g, ("dice", hand_for(g.expects().player, len(g.history))), ("stand",))
    return g


def test_match_length_rounds_default_and_fixed():
    g = play_rounds(new_game("classic", ["A", "B", "C"]), lambda s, r: ["K K K K K", "9 9 9 9 9", "9 9 9 9 A"][s])
    assert len(g.history) == 6 and g.wins == (6, 0, 0) and g.result().winners == (0,)
    g = play_rounds(new_game("classic", ["A", "B"], {"rounds": 3}), lambda s, r: "K K K K K")
    assert len(g.history) == 3 and g.wins == (3, 3) and g.result().winners == (0, 1)


def test_match_length_first_to():
    opts = {"match_length": "first_to", "first_to": 2, "rounds": 50}
    g = play_rounds(new_game("classic", ["A", "B"], opts),
                    lambda s, r: "K K K K K" if s == [0, 1, 0][r] else "Q Q Q Q Q")
    assert g.wins == (2, 1) and len(g.history) == 3
    assert "first to 2" in new_game("classic", ["A", "B"], opts).sheet().status


def test_match_tie_sudden_death():
    opts = {"rounds": 1, "match_tie": "sudden_death"}
    g = run(new_game("classic", ["A", "B", "C"], opts), *final_hands("K K K K K", "K K K K K", "9 9 9 9 9"))
    assert g.wins == (1, 1, 0) and not g.is_over and g.sudden and set(g.order) == {0, 1}
    assert "Sudden death 1" in g.sheet().status
    g = run(g, *final_hands("A A A A A", "K K K K K"))     # round 2's first player is B (rotation)
    assert g.is_over and g.wins == (1, 2, 0)
    res = g.result()
    assert res.winners == (1,) and "sudden-death" in res.tie_break
    shared = run(new_game("classic", ["A", "B", "C"], {"rounds": 1}),
                 *final_hands("K K K K K", "K K K K K", "9 9 9 9 9"))
    assert shared.is_over and shared.result().winners == (0, 1)


def test_starting_bankroll_max_bet_and_cap():
    g = new_game("classic", ["A", "B"], {**BET, "starting_bankroll": 3, "max_bet": 2})
    assert g.sheet().totals == (3, 3) and g.cap == 2
    g = run(g, ("dice", "K K K K K"), ("dice", "9 9 9 9 9"), ("choose", "BET_2"), ("choose", "CALL"),
            ("stand",), ("stand",))
    assert g.bank == (5, 1)
    assert g.cap == 1                                  # capped by the smallest bankroll
    g = run(g, ("dice", "9 9 9 9 9"), ("dice", "A A A A A"))
    assert [o.key for o in g.expects().options] == ["CHECK", "BET_1"]


def test_ante_and_busted_player_ends_the_match():
    g = new_game("classic", ["A", "B"], {**BET, "starting_bankroll": 2, "ante": 1})
    assert g.pot == 2 and g.bank == (1, 1) and g.cap == 1
    g = run(g, ("dice", "K K K K K"), ("dice", "9 9 9 9 9"), ("choose", "BET_1"), ("choose", "CALL"),
            ("stand",), ("stand",))
    assert g.is_over and g.bank == (4, 0)              # only one player has points left
    assert g.result().winners == (0,)


def test_simple_pot_model():
    g = run(new_game("classic", ["A", "B", "C"], {**BET, "betting_model": "simple_pot"}), *PHASE1)
    exp = g.expects()
    assert [o.key for o in exp.options] == [f"STAKE_{a}" for a in range(6)]
    g = run(g, ("choose", "STAKE_0"), ("choose", "STAKE_5"), ("choose", "STAKE_2"))
    assert g.pot == 7 and g.bank == (20, 15, 18)
    g = run(g, ("stand",), ("stand",), ("stand",))     # nobody folds: all three show down
    assert g.history[0]["winners"] == (0,) and g.bank == (27, 15, 18)


def test_keep_declared_in_phase1():
    g = new_game("classic", ["A", "B"], {**BET, "keep_declared_in_phase1": True})
    g = run(g, ("dice", "K K K 9 10"))
    exp = g.expects()
    assert isinstance(exp, Decide) and exp.reroll is not None and "after the betting" in exp.prompt
    g = run(g, ("keep", "K K K"), ("dice", "A A Q J 9"), ("stand",), ("choose", "CHECK"), ("choose", "CHECK"))
    exp = g.expects()                                  # phase 2 goes straight to the declared rethrow
    assert isinstance(exp, Throw) and exp.count == 2 and exp.held == tuple(faces(g, "K K K"))
    g = run(g, ("dice", "K 9"))
    assert g.history[0]["winners"] == (0,)             # B kept all 5: no second throw for B
    assert g.strength(g.history[0]["hands"][1]) == (C.ONE_PAIR, (14, 12, 11, 9))


def test_base_variant_has_no_bankroll_and_betting_changes_totals():
    base = new_game("classic", ["A", "B"])
    assert base.sheet().totals == (0, 0)
    assert new_game("classic", ["A", "B"], BET).sheet().totals == (20, 20)


def test_illegal_inputs_are_worded_and_refused():
    g = run(new_game("classic", ["A", "B"]), ("dice", "K K 9 J A"))
    with pytest.raises(IllegalInput, match="at least 1"):
        g.apply({"type": "reroll", "player": 0, "keep": g.dice})   # keeping all is STAND, not a reroll
    g = run(g, ("keep", "K K"))
    with pytest.raises(IllegalInput, match="expected 3 dice"):
        g.apply({"type": "dice", "player": 0, "values": [1, 2]})
    b = run(new_game("classic", ["A", "B", "C"], BET), *PHASE1)
    with pytest.raises(IllegalInput, match="not a legal choice"):
        b.apply({"type": "choose", "player": 0, "option": "BET_6"})
    with pytest.raises(IllegalInput, match="not a legal choice"):
        b.apply({"type": "choose", "player": 0, "option": "FOLD"})


def test_sheet_preview_and_status():
    g = run(new_game("classic", ["Ann", "Bob"]), ("dice", "K K 9 J A"))
    sh = g.sheet()
    t = sh.tables[0]
    assert t.active_column == 0
    cell = t.rows[0].cells[0]
    assert cell.kind == "preview" and cell.text == "K K A J 9 · Pair K"
    assert sh.status.startswith("Round 1 of 4") and "Ann" in sh.status
    assert [r.key for r in t.rows][-1] == "round_wins" and t.rows[-1].kind == "total"
    b = run(new_game("classic", ["A", "B", "C"], BET), *PHASE1, ("choose", "BET_2"))
    sh = b.sheet()
    assert "pot 2" in sh.status
    assert [r.key for r in sh.tables[0].rows][-3:] == ["round_wins", "stake", "bankroll"]


# ------------------------------------------------------------------------------------ properties
OPTION_SETS = [
    {},
    {"round_tie": "roll_off", "match_tie": "sudden_death", "rotate_first_player": False},
    {"match_length": "first_to", "first_to": 2, "low_straight_9_to_K": True, "full_house_pair_tiebreak": True},
    {"face_mapping": [14, 9, 13, 10, 12, 11], "rounds": 3, "start_seat": 1},
    BET,
    {**BET, "betting_model": "simple_pot", "ante": 1, "max_bet": 3},
    {**BET, "keep_declared_in_phase1": True, "starting_bankroll": 6, "ante": 2},
    {**BET, "full_house_pair_tiebreak": True, "match_length": "first_to", "first_to": 2},
    {"match_length": "first_to", "first_to": 1, "match_tie": "sudden_death", "start_seat": 1},
    # the base game's tie rules are not the betting variant's (docs/games/classic.md): ignored there
    {**BET, "rotate_first_player": False, "start_seat": 1, "round_tie": "roll_off", "match_tie": "sudden_death",
     "low_straight_9_to_K": True},
    {**BET, "betting_model": "simple_pot", "keep_declared_in_phase1": True, "starting_bankroll": 1,
     "face_mapping": {"1": "A", "2": "9", "3": "K", "4": "10", "5": "Q", "6": "J"}},
]
PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 8), opts=st.sampled_from(OPTION_SETS))
@PROPS
def test_random_play_invariants(seed, n, opts):
    rng = random.Random(seed)
    g = new_game("classic", [f"P{i}" for i in range(n)], opts)
    total_bank = n * g.options["starting_bankroll"]
    while not g.is_over:
        if rng.random() < 0.1:
            assert_keeps_legal_exactly(g)
        if g.betting:
            assert sum(g.bank) + g.pot == total_bank           # points are only moved, never made
            assert all(b >= 0 for b in g.bank)
            assert all(c <= g.cap for c in g.contrib) or g.options["betting_model"] == "simple_pot"
        g = g.apply(random_input(g, rng))
    eo = g.eval_opts
    wins = [0] * n
    for rec in g.history:
        for s in rec["winners"]:
            wins[s] += 1
        shown = [s for s in rec["order"] if not (g.betting and rec["folded"][s])]
        final = {s: rec["hands"][s] for s in shown}
        if g.betting and len(shown) == 1:
            assert rec["winners"] == tuple(shown)
            continue
        assert all(h is not None and len(h) == 5 for h in final.values())     # every hand recorded
        rk = {s: [g.ranks[f - 1] for f in h] for s, h in final.items()}
        best = [s for s in shown if all(compare(rk[s], rk[t], **eo) >= 0 for t in shown)]
        if rec["rolloffs"]:
            assert len(rec["winners"]) == 1 and rec["winners"][0] in best
        else:
            assert sorted(rec["winners"]) == sorted(best)
    assert tuple(wins) == g.wins
    sheet = g.sheet()
    assert sheet.totals == g.scores() == g.result().scores
    assert [c.value for c in sheet.tables[0].rows[-1 if not g.betting else -2].cells] == list(g.wins)
    regular = sum(1 for r in g.history if not r["sudden"])
    if g.betting:
        assert sum(g.bank) + g.carry == total_bank and g.carry < n
        ended_by = [regular == g.n_rounds, len([b for b in g.bank if b > 0]) <= 1,
                    max(g.wins) >= g.options["first_to"] and g.options["match_length"] == "first_to"]
        assert any(ended_by)
    elif g.options["match_length"] == "rounds":
        assert regular == g.n_rounds
    else:
        assert max(g.wins) >= g.options["first_to"]
    if g.options["match_tie"] == "sudden_death" and not g.betting:
        assert len(g.result().winners) == 1
    assert_seating_and_stakes(g)
    if not g.betting:                                          # highlighted cells = round winners
        for row, rec in zip(sheet.tables[0].rows, g.history):
            assert [i for i, c in enumerate(row.cells) if c.highlight] == sorted(rec["winners"])
    assert isinstance(g.expects(), GameOver)


def assert_seating_and_stakes(g):
    """§2.1: every player (in betting, every one with points left after the round before) plays
    each regular round, clockwise from its first player, who moves one seat a round
    (`rotate_first_player`); §6: in call/raise/fold every player still in at the showdown has put
    in the same (no side pots)."""
    n, start = len(g.players), g.options["start_seat"]
    for i, rec in enumerate(g.history):
        order = rec["order"]
        nominal = (start + i) % n if g.options["rotate_first_player"] else start
        assert [(s - nominal) % n for s in order] == sorted((s - nominal) % n for s in order)
        if rec["sudden"]:
            continue
        seated = list(range(n)) if not g.betting or i == 0 else [
            s for s in range(n) if g.history[i - 1]["bank"][s] > 0]
        assert sorted(order) == seated
        if not g.betting:
            assert order[0] == nominal
        elif g.options["betting_model"] == "call_raise_fold":
            assert len({rec["stakes"][s] for s in order if not rec["folded"][s]}) == 1


def assert_keeps_legal_exactly(g):
    """C8: any of the dice may be kept and the others thrown once more, keeping all five is STAND;
    a keep of dice not on the table is refused. Every such input is tried (the state unchanged)."""
    import itertools
    exp = g.expects()
    if not isinstance(exp, Decide) or exp.reroll is None:
        return
    dice = exp.reroll.dice
    assert len(dice) == 5 and [o.key for o in exp.options] == ["STAND"]
    g.apply({"type": "choose", "player": exp.player, "option": "STAND"})
    for k in range(5):
        for keep in set(itertools.combinations(sorted(dice), k)):
            after = g.apply({"type": "reroll", "player": exp.player, "keep": list(keep)})
            if g.step == "declare":                # keep_declared_in_phase1: thrown after the betting
                assert sorted(after.keeps[exp.player]) == sorted(keep)
                continue
            nxt = after.expects()
            assert isinstance(nxt, Throw) and nxt.count == 5 - k and sorted(nxt.held) == sorted(keep)
    with pytest.raises(IllegalInput):
        g.apply({"type": "reroll", "player": exp.player, "keep": list(dice)})
    absent = next(f for f in range(1, 7) if f not in dice) if len(set(dice)) < 6 else None
    if absent is not None:
        with pytest.raises(IllegalInput):
            g.apply({"type": "reroll", "player": exp.player, "keep": [absent]})


def test_a_bet_prompt_names_only_what_its_menu_offers():
    """At the cap there is nothing to raise to: "B: call 2, raise or fold" stood over a menu of
    "Call 2" and "Fold" (betting Classic, 8 players at 800x480)."""
    g = run(new_game("classic", ["A", "B"], {**BET, "max_bet": 2}), ("dice", "K K K K K"), ("dice", "9 9 9 9 9"))
    exp = g.expects()
    assert [o.key for o in exp.options] == ["CHECK", "BET_1", "BET_2"] and exp.prompt.startswith("A: check or bet (")
    g = run(g, ("choose", "BET_2"))
    exp = g.expects()
    assert [o.key for o in exp.options] == ["CALL", "FOLD"]
    assert exp.prompt.startswith("B: call 2 or fold (pot "), exp.prompt
    g = run(new_game("classic", ["A", "B"], {**BET, "max_bet": 2}), ("dice", "K K K K K"), ("dice", "9 9 9 9 9"),
            ("choose", "BET_1"))
    exp = g.expects()
    assert [o.key for o in exp.options] == ["CALL", "RAISE_2", "FOLD"]
    assert exp.prompt.startswith("B: call 1, raise or fold (pot "), exp.prompt


# ------------------------------------------------------------------------- what the notes say
def test_a_sudden_death_round_is_named_as_on_the_sheet():
    """The note under the sheet named a sudden-death round by its place in the history: "B wins
    round 2" under a sheet of "Round 1" and "Sudden death 1", in a one-round match."""
    g = run(new_game("classic", ["A", "B", "C"], {"rounds": 1, "match_tie": "sudden_death"}),
            *final_hands("K K K K K", "K K K K K", "9 9 9 9 9"))
    assert g.sheet().notes[0] == "A and B share round 1"
    g = run(g, *final_hands("A A A A A", "K K K K K"))
    assert [r.label for r in g.sheet().tables[0].rows[:2]] == ["Round 1", "Sudden death 1"]
    assert g.sheet().notes[0] == "B wins sudden death 1"


def test_a_remainder_left_at_the_end_of_the_match_is_not_carried_to_a_next_pot():
    """§6 carries an indivisible remainder to the next round's pot; after the last round there is
    none, and the last note said "1 carried to the next pot" over the final standings."""
    steps = (*PHASE1, ("choose", "BET_3"), ("choose", "CALL"), ("choose", "CALL"),
             ("keep", "K K K"), ("dice", "Q Q"), ("keep", "Q Q"), ("dice", "K K K"), ("keep", "A"), ("dice", "9 9 10 J"))
    g = run(new_game("classic", ["A", "B", "C"], {**BET, "rounds": 1}), *steps)
    assert g.is_over and g.result().details["pot_carried"] == 1
    note = g.sheet().notes[0]
    assert note.startswith("A and B share round 1 and 4 points each; 1 point left in the pot"), note
    assert "next pot" not in note
    going_on = run(new_game("classic", ["A", "B", "C"], {**BET, "rounds": 2}), *steps)
    assert going_on.sheet().notes[0].endswith("; 1 carried to the next pot")


# ------------------------------------------------------------------- §3 ranking, independently
def _reference_compare(a, b, low=False, pair_tiebreak=False):
    """§3 of the spec rule by rule, without the engine's keys: the category (exact patterns, the
    straight 10-A only unless `low`), then the §3.3 comparison of the category."""
    from collections import Counter

    def category(h):
        sig, present = sorted(Counter(h).values(), reverse=True), set(h)
        if sig == [5]:
            return 8
        if sig == [4, 1]:
            return 7
        if sig == [3, 2]:
            return 6
        if present == {10, 11, 12, 13, 14} or (low and present == {9, 10, 11, 12, 13}):
            return 5
        return {(3, 1, 1): 4, (2, 2, 1): 3, (2, 1, 1, 1): 2}.get(tuple(sig), 1)

    def of(h, n):
        return sorted((r for r, k in Counter(h).items() if k == n), reverse=True)

    def cmp(x, y):
        return (x > y) - (x < y)

    ca, cb = category(a), category(b)
    if ca != cb:
        return cmp(ca, cb)
    if ca in (8, 7, 4):                      # five, four, three of a kind: the group's rank alone
        n = {8: 5, 7: 4, 4: 3}[ca]
        return cmp(of(a, n), of(b, n))
    if ca == 6:                              # full house: the triple, then (option) the pair
        return cmp(of(a, 3), of(b, 3)) or (cmp(of(a, 2), of(b, 2)) if pair_tiebreak else 0)
    if ca == 5:                              # one straight ties; with the low one, the top die
        return cmp(max(a), max(b)) if low else 0
    return cmp(of(a, 2) + of(a, 1), of(b, 2) + of(b, 1))   # pairs high to low, then the others


@pytest.mark.parametrize("low", [False, True])
@pytest.mark.parametrize("pair_tiebreak", [False, True])
def test_every_hand_ranks_as_section_3_says(low, pair_tiebreak):
    """All 252 different hands, under each setting of the two ranking options: the engine's order
    is the reference's (checked between neighbours of the engine's order, which with both orders
    transitive is every pair), ties included."""
    import itertools
    opts = {"low_straight_9_to_K": low, "full_house_pair_tiebreak": pair_tiebreak}
    hands = sorted((list(h) for h in itertools.combinations_with_replacement(range(9, 15), 5)),
                   key=lambda h: evaluate(h, **opts))
    for lower, higher in zip(hands, hands[1:]):
        assert _reference_compare(higher, lower, low, pair_tiebreak) == compare(higher, lower, **opts), (lower, higher)
    assert _reference_compare(hands[-1], hands[0], low, pair_tiebreak) == 1


def test_the_order_of_the_dice_does_not_matter():
    """§2.1 of the README: a roll is a multiset. All 7,776 ordered throws evaluate as their sorted hand."""
    import itertools
    for h in itertools.product(range(9, 15), repeat=5):
        assert evaluate(h) == evaluate(sorted(h)), h
        assert evaluate(h, low_straight_9_to_K=True, full_house_pair_tiebreak=True) == evaluate(
            sorted(h), low_straight_9_to_K=True, full_house_pair_tiebreak=True), h


def test_no_ace_low_straight():
    """§3.2: there is no A-9-10-J-Q straight, with or without the low straight."""
    for low in (False, True):
        assert evaluate(ranks("A 9 10 J Q"), low_straight_9_to_K=low) == (C.NO_PAIR, (14, 12, 11, 10, 9))


# ---------------------------------------------------------------------------- §2.1, C8, C9 flow
def test_keeping_none_rethrows_all_five_and_the_second_throw_ends_the_turn():
    """C8: k = 0 re-throws all five (the hand is the new five alone); C9: exactly two throws, so the
    last player's second throw in the last round ends the match at once."""
    g = run(new_game("classic", ["A", "B"], {"rounds": 1}), ("dice", "9 9 9 9 10"), ("stand",),
            ("dice", "K K 9 J A"), ("keep", ""))
    exp = g.expects()
    assert isinstance(exp, Throw) and (exp.count, exp.held, exp.purpose) == (5, (), "rethrow")
    g = run(g, ("dice", "A A A A Q"))
    assert g.is_over and g.strength(g.history[0]["hands"][1]) == (C.FOUR_OF_A_KIND, (14,))
    assert g.wins == (0, 1) and g.result().winners == (1,)


def test_three_names_are_listed_as_a_sentence_lists_them():
    """Three players sharing a round read "A and B and C share round 1", and their sudden death
    "between B and C and A": a list of three or more names is "A, B and C"."""
    g = run(new_game("classic", ["A", "B", "C", "D"], {"rounds": 1, "match_tie": "sudden_death"}),
            *final_hands("K K K K K", "K K K K K", "K K K K K", "9 9 9 9 9"))
    assert g.sheet().notes[0] == "A, B and C share round 1"
    g = run(g, *final_hands("A A A A A", "K K K K K", "9 9 9 9 9"))    # B, C, A: the seat after A's starts
    assert g.is_over and g.result().tie_break == "sudden-death rounds between B, C and A"
    two = run(new_game("classic", ["A", "B"], {"rounds": 1}), *final_hands("K K K K K", "K K K K K"))
    assert two.sheet().notes[0] == "A and B share round 1"


def _illegal_bets(g):
    """Bets the betting menu must refuse now: over the cap, no higher than the high bet, a call or
    a fold with nothing owed, a check with something owed, a stake over the cap."""
    exp = g.expects()
    keys = {o.key for o in exp.options}
    if any(k.startswith("STAKE_") for k in keys):
        return [f"STAKE_{g.cap + 1}", "FOLD", "CHECK"]
    owed = g.contrib[exp.player] < g.high
    bad = [f"BET_{g.cap + 1}", f"RAISE_{g.cap + 1}", f"RAISE_{g.high}", "BET_0"]
    bad += ["CHECK"] if owed else ["CALL", "FOLD"]
    assert not keys & set(bad), (keys, bad)
    return bad


@pytest.mark.parametrize("opts", OPTION_SETS)
def test_illegal_input_is_refused_under_every_option_set(opts):
    """The contract's illegal inputs (tests/test_rules_contract.py, run there under the defaults
    only) and bets the menu does not offer, at every step of a random game under each option set:
    each refused with a reason, the state unchanged."""
    import json
    from test_rules_contract import illegal_inputs
    rng = random.Random(11)
    g = new_game("classic", ["A", "B", "C", "D"], {**opts, "start_seat": 0})
    while not g.is_over:
        before = json.dumps(g.snapshot(), sort_keys=True)
        exp = g.expects()
        bad = illegal_inputs(g, rng)
        if isinstance(exp, Decide) and exp.reroll is None:
            bad += [{"type": "choose", "player": exp.player, "option": k} for k in _illegal_bets(g)]
        for data in bad:
            with pytest.raises(IllegalInput) as info:
                g.apply(data)
            assert str(info.value)
        assert json.dumps(g.snapshot(), sort_keys=True) == before
        g = g.apply(random_input(g, rng))
