"""Objective cards: the spec's test vectors OC-01..OC-23, option effects, secrecy and properties."""
from __future__ import annotations

import functools
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import Decide, GameOver, IllegalInput, OptionError, Throw, new_game
from controller.rules.base import choose_input, dice_input, reroll_input
from controller.rules.objective_cards import (
    KEYS, POINTS, ObjectiveCards, active_seat, discarded, last_active_round, rank_players, satisfied,
    won_cards,
)
from controller.rules.random_play import random_input

GAME = "objective-cards"
NAMES = ["A", "B", "C", "D", "E"]
ALL = set(KEYS)

# ------------------------------------------------------------------------ OC-01..OC-12 predicates
J, P1, K3, P2, SS, NE, NO, FH, LS, K4 = KEYS
SAME_FACE = {"two_pairs_same_face_allowed": True}
FIVE_FULL = {"full_house_accepts_five_of_a_kind": True}
PREDICATES = [
    ("OC-01", [3, 3, 5, 1, 1], {}, {J, P1, P2, NE}),
    ("OC-02", [2, 3, 4, 5, 5], {}, {J, P1, SS}),
    ("OC-03", [6, 6, 6, 6, 6], {}, {J, P1, K3, K4, NO}),
    ("OC-03-two_pairs_same_face_allowed", [6, 6, 6, 6, 6], SAME_FACE, {J, P1, K3, K4, NO, P2}),
    ("OC-03-full_house_accepts_five_of_a_kind", [6, 6, 6, 6, 6], FIVE_FULL, {J, P1, K3, K4, NO, FH}),
    ("OC-04", [4, 4, 4, 2, 2], {}, {J, P1, K3, P2, FH, NO}),
    ("OC-05", [1, 2, 3, 4, 6], {}, {J, SS}),
    ("OC-06", [1, 3, 4, 5, 6], {}, {J, SS}),
    ("OC-07", [1, 2, 4, 5, 6], {}, {J}),
    ("OC-08", [2, 3, 4, 5, 6], {}, {J, SS, LS}),
    ("OC-09", [5, 5, 5, 5, 1], {}, {J, P1, K3, K4, NE}),
    ("OC-09-two_pairs_same_face_allowed", [5, 5, 5, 5, 1], SAME_FACE, {J, P1, K3, K4, NE, P2}),
    ("OC-09-full_house_never_from_four", [5, 5, 5, 5, 1], FIVE_FULL, {J, P1, K3, K4, NE}),
    ("OC-10", [1, 1, 1, 1, 1], {}, {J, P1, K3, K4, NE}),
    ("OC-11", [2, 4, 6, 6, 2], {}, {J, P1, P2, NO}),
    ("OC-12", [1, 2, 3, 5, 6], {}, {J}),
    # §6 two_pairs_same_face_allowed: "(4,1) and (5) also satisfy Two pairs" — not a bare (3,1,1)
    ("three-of-a-kind-two_pairs_same_face_allowed", [3, 3, 3, 1, 5], SAME_FACE, {J, P1, K3, NE}),
]


@pytest.mark.parametrize("dice,options,expected", [pytest.param(*row[1:], id=row[0]) for row in PREDICATES])
def test_predicates(dice, options, expected):
    assert satisfied(dice, options) == expected


def test_reference_probabilities_of_one_roll():
    """§3 sanity figures: exact over all 6^5 rolls."""
    import itertools

    hits = Counter()
    for roll in itertools.product(range(1, 7), repeat=5):
        hits.update(satisfied(roll))
    expected = {J: 1.0, P1: 0.9074, P2: 0.2701, K3: 0.2130, SS: 0.1543, FH: 0.0386,
                NE: 0.0312, NO: 0.0312, LS: 0.0309, K4: 0.0201}
    for key, p in expected.items():
        assert hits[key] / 6**5 == pytest.approx(p, abs=6e-5), key


# §3's table, column "Count signatures that satisfy it" (and the face sets of the straights and
# parities), with what each option adds (§6.2)
SIGNATURES = {
    P1: {(2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1), (5,)},
    K3: {(3, 1, 1), (3, 2), (4, 1), (5,)},
    P2: {(2, 2, 1), (3, 2)},
    FH: {(3, 2)},
    K4: {(4, 1), (5,)},
}
ADDED = {"two_pairs_same_face_allowed": (P2, {(4, 1), (5,)}), "full_house_accepts_five_of_a_kind": (FH, {(5,)})}


def spec_table(dice, options) -> set:
    """The objectives §3's table says `dice` meet, read off its columns."""
    sig = tuple(sorted(Counter(dice).values(), reverse=True))
    faces = set(dice)
    out = {J} | {k for k, sigs in SIGNATURES.items() if sig in sigs}
    out |= {k for name, (k, sigs) in ADDED.items() if options.get(name) and sig in sigs}
    if any(run <= faces for run in ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})):
        out.add(SS)
    if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}):
        out.add(LS)
    if faces <= {1, 3, 5}:
        out.add(NE)
    if faces <= {2, 4, 6}:
        out.add(NO)
    return out


@pytest.mark.parametrize("options", [{}, SAME_FACE, FIVE_FULL, {**SAME_FACE, **FIVE_FULL}],
                         ids=["defaults", "same_face", "five_full", "both"])
def test_every_roll_meets_what_the_spec_table_says(options):
    """All 6^5 rolls under every combination of the two predicate options."""
    import itertools

    wrong = [roll for roll in itertools.product(range(1, 7), repeat=5)
             if satisfied(roll, options) != spec_table(roll, options)]
    assert wrong == []


def test_predicate_refuses_bad_dice():
    with pytest.raises(ValueError):
        satisfied([1, 2, 3, 4])
    with pytest.raises(ValueError):
        satisfied([1, 2, 3, 4, 7])


# -------------------------------------------------------------------------------- scripted play
def play_round(state, first, commits, rerolls=(), stop=True):
    """One round: first roll, every commitment in the order the game asks, rerolls, STOP."""
    active = state.active
    state = state.apply(dice_input(active, first))
    pending = {seat: list(keys) for seat, keys in commits.items()}
    while state.phase == "choose":
        exp = state.expects()
        # (secret while there is a choice; round 10's last card is known to all: no secret)
        assert isinstance(exp, Decide) and exp.secret == (state.round < 10)
        state = state.apply(choose_input(exp.player, pending[exp.player].pop(0)))
    for keep, new in rerolls:
        state = state.apply(reroll_input(active, keep))
        state = state.apply(dice_input(active, new))
    if stop and state.phase == "reroll":
        state = state.apply(choose_input(active, "STOP"))
    return state


def round_points(before, after):
    return [a - b for a, b in zip(after.scores, before.scores)]


def test_OC_13_active_meets_and_captures_two():
    g = new_game(GAME, NAMES[:3])
    after = play_round(g, [5, 5, 5, 2, 2], {0: [FH], 1: [K4], 2: [NE]})
    assert round_points(g, after) == [7, 0, 0]
    assert list(won_cards(after, 0)) == [FH]
    assert after.captured == (2, 0, 0)
    assert after.lost[1] == ((K4, 0),) and after.lost[2] == ((NE, 0),)
    assert after.sheet().notes[-1].endswith(
        "A met Full house +5; A captured B's Four of a kind +1; A captured C's No evens +1")


def test_OC_14_active_fails_others_meet():
    g = new_game(GAME, NAMES[:3])
    after = play_round(g, [1, 2, 3, 4, 4], {0: [LS], 1: [P1], 2: [SS]})
    assert round_points(g, after) == [0, 1, 3]
    assert discarded(after) == [LS]
    assert after.captured == (0, 0, 0)


def test_OC_15_five_players_B_active():
    g = new_game(GAME, NAMES, {"start_seat": 1})
    assert g.active == 1
    after = play_round(g, [1, 3, 3, 3, 5], {0: [NE], 1: [SS], 2: [J], 3: [P2], 4: [FH]})
    assert round_points(g, after) == [4, 2, 1, 0, 0]
    assert discarded(after) == [SS]
    assert after.lost[3] == ((P2, 1),) and after.lost[4] == ((FH, 1),)


OTHERS_JOKER = {1: [J], 2: [J]}


def test_OC_16_stop_at_once():
    g = new_game(GAME, NAMES[:3])
    after = play_round(g, [6, 6, 2, 3, 5], {0: [P2], **OTHERS_JOKER})
    assert after.last["dice"] == [6, 6, 2, 3, 5]
    assert discarded(after) == [P2] and after.scores == (0, 1, 1)


def test_OC_17_one_reroll():
    g = new_game(GAME, NAMES[:3])
    after = play_round(g, [6, 6, 2, 3, 5], {0: [P2], **OTHERS_JOKER}, rerolls=[([6, 6], [3, 3, 1])])
    assert sorted(after.last["dice"]) == [1, 3, 3, 6, 6]
    assert after.scores == (3, 1, 1)


def test_OC_18_two_rerolls_then_dice_are_final():
    g = new_game(GAME, NAMES[:3])
    g = play_round(g, [6, 6, 2, 3, 5], {0: [P2], **OTHERS_JOKER}, rerolls=[([6, 6], [4, 1, 2])], stop=False)
    exp = g.expects()
    assert exp.reroll is not None and "throw 2 of 3" in exp.prompt
    g = g.apply(reroll_input(0, [6, 6]))
    assert g.expects().held == (6, 6) and g.expects().count == 3
    after = g.apply(dice_input(0, [6, 2, 2]))
    # no third reroll is offered: the round is resolved and round 2 waits for B's first roll
    assert after.round == 2 and isinstance(after.expects(), Throw) and after.expects().player == 1
    assert sorted(after.last["dice"]) == [2, 2, 6, 6, 6]
    assert after.scores == (3, 1, 1)


VARIANT = {"two_player_strategic_variant": True}


def test_OC_19_variant_two_cards_each():
    g = new_game(GAME, NAMES[:2], VARIANT)
    after = play_round(g, [2, 2, 4, 4, 6], {0: [P2, J], 1: [K3, NO]})
    assert round_points(g, after) == [5, 4]
    assert after.lost[1] == ((K3, 0),)


@pytest.mark.parametrize("dice", [[1, 2, 4, 5, 6], [6, 6, 6, 6, 6], [1, 3, 5, 2, 4]])
def test_OC_20_two_jokers_are_two_sure_points(dice):
    g = new_game(GAME, NAMES[:2], VARIANT)
    after = play_round(g, dice, {0: [J, J], 1: [J, J]})
    assert after.scores == (2, 2)


# --------------------------------------------------------------------------- OC-21..23 ranking
def test_last_active_rounds_match_the_spec_table():
    table = {2: [9, 10], 3: [10, 8, 9], 4: [9, 10, 7, 8], 5: [6, 7, 8, 9, 10]}
    for n, last in table.items():
        assert [last_active_round(s, n, 0) for s in range(n)] == last
        assert [max(r for r in range(1, 11) if active_seat(r, n, 0) == s) for s in range(n)] == last


def OC21_scores():
    won = [[J, P1, K3, P2, FH], [J, NE, NO, SS], [J, K4, FH]]
    captured = [3, 5, 4]
    return [sum(POINTS[k] for k in w) + c for w, c in zip(won, captured)]


def test_OC_21_two_way_tie_last_active_wins():
    scores = OC21_scores()
    assert scores == [15, 17, 17]
    ranking, words = rank_players(scores, [10, 8, 9], names=["P1", "P2", "P3"])
    assert ranking == ((2,), (1,), (0,))
    assert "P2 and P3 tied on 17" in words
    assert rank_players(scores, [10, 8, 9], "shared")[0] == ((1, 2), (0,))


def test_OC_22_three_way_tie():
    ranking, words = rank_players([17, 17, 17], [10, 8, 9], names=["P1", "P2", "P3"])
    assert ranking == ((0,), (2,), (1,))
    # (the final screen read "P1 and P2 and P3 tied on 17")
    assert words == ("P1, P2 and P3 tied on 17 points; the most recently active ranks first "
                     "(P1 round 10 > P3 round 9 > P2 round 8)")


def test_tie_break_is_for_the_final_ranking_only():
    """§5: the "last to be the active player" tie-break decides the winner once "the game ends
    after round 10"; before that, equal scores share their place in the standing."""
    g = play_round(new_game(GAME, NAMES[:2]), [1, 2, 3, 5, 5], {0: [J], 1: [J]})
    result = g.result()
    assert g.scores == (1, 1) and not g.is_over
    assert result.ranking == ((0, 1),) and result.tie_break == ""


def test_OC_23_four_players():
    last = [last_active_round(s, 4, 0) for s in range(4)]
    assert [active_seat(r, 4, 0) for r in range(1, 11)] == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]
    ranking, _ = rank_players([10, 10, 8, 8], last)
    assert ranking == ((1,), (0,), (3,), (2,))


SAT = {J: [1, 2, 4, 5, 6], P1: [1, 1, 2, 4, 6], K3: [2, 2, 2, 5, 6], P2: [3, 3, 4, 4, 6],
       SS: [1, 2, 3, 4, 6], NE: [1, 3, 5, 5, 3], NO: [2, 4, 6, 6, 2], FH: [5, 5, 5, 2, 2],
       LS: [1, 2, 3, 4, 5], K4: [4, 4, 4, 4, 1]}


def mirrored_game(n, options):
    """Everyone plays the same objective each round and meets it: a tie on 37."""
    g = new_game(GAME, NAMES[:n], options)
    for key in KEYS:
        g = play_round(g, SAT[key], {s: [key] for s in range(n)})
    assert g.is_over and g.scores == (37,) * n
    return g


@pytest.mark.parametrize("n,start,winner", [(2, 0, 1), (2, 1, 0), (3, 0, 0), (3, 1, 1), (4, 0, 1), (5, 2, 1)])
def test_real_game_tie_goes_to_the_most_recently_active(n, start, winner):
    res = mirrored_game(n, {"start_seat": start}).result()
    assert res.winners == (winner,)
    assert len(res.ranking) == n and "tied on 37" in res.tie_break


def test_tie_break_shared_option():
    res = mirrored_game(3, {"tie_break": "shared"}).result()
    assert res.winners == (0, 1, 2) and res.ranking == ((0, 1, 2),) and res.tie_break == ""


# ----------------------------------------------------------------------------------- options
def test_options_have_the_spec_defaults():
    g = new_game(GAME, NAMES[:2])
    assert g.options == {"two_player_strategic_variant": False, "allow_duplicate_objective_in_round": True,
                         "two_pairs_same_face_allowed": False, "full_house_accepts_five_of_a_kind": False,
                         "tie_break": "last_active", "start_seat": 0}


@pytest.mark.parametrize("options,name", [
    ({"two_player_strategic_variant": True}, "two_player_strategic_variant"),   # with 3 players
    ({"start_seat": 3}, "start_seat"),
    ({"start_seat": -1}, "start_seat"),
    ({"tie_break": "coin"}, "tie_break"),
    ({"two_pairs_same_face_allowed": 1}, "two_pairs_same_face_allowed"),
])
def test_bad_options_name_the_option(options, name):
    with pytest.raises(OptionError, match=name):
        new_game(GAME, NAMES[:3], options)


def test_start_seat_picks_the_first_active_player():
    g = new_game(GAME, NAMES[:4], {"start_seat": 2})
    assert g.expects().player == 2 and "C: throw all 5 dice" in g.expects().prompt
    g = play_round(g, SAT[J], {s: [J] for s in range(4)})
    assert g.expects().player == 3


def test_two_pairs_same_face_option_in_play():
    for opts, points in (({}, 0), (SAME_FACE, 3)):
        g = play_round(new_game(GAME, NAMES[:2], opts), [5, 5, 5, 5, 1], {0: [P2], 1: [J]})
        assert g.scores[0] == points


def test_full_house_five_of_a_kind_option_in_play():
    for opts, scores in (({}, (1, 0)), (FIVE_FULL, (0, 5))):
        g = play_round(new_game(GAME, NAMES[:2], opts), [3, 3, 3, 3, 3], {0: [NO], 1: [FH]})
        assert g.scores == scores   # default: B's Full house is captured by A (+1)


def test_variant_deals_two_sets_and_asks_two_cards_in_order():
    g = new_game(GAME, NAMES[:2], {**VARIANT, "start_seat": 1}).apply(dice_input(1, [1, 2, 3, 4, 6]))
    order = []
    while g.phase == "choose":
        exp = g.expects()
        order.append(exp.player)
        g = g.apply(choose_input(exp.player, J))
    assert order == [1, 1, 0, 0]      # active player first, both of his cards, then clockwise
    assert g.hands[0][0] == 0 and sum(g.hands[0]) == 18


def _script_without_four_of_a_kind(options):
    """Both players play pairs of the 9 other objectives for 8 rounds: 4 of a kind is left ×2."""
    others = [k for k in KEYS if k != K4] * 2
    g = new_game(GAME, NAMES[:2], {**VARIANT, **options})
    for r in range(8):
        pair = others[2 * r: 2 * r + 2]
        g = play_round(g, [1, 2, 3, 4, 6], {0: list(pair), 1: list(pair)})
    assert g.round == 9 and Counter(k for k, c in zip(KEYS, g.hands[0]) for _ in range(c)) == {
        others[16]: 1, others[17]: 1, K4: 2}
    return g.apply(dice_input(g.active, [1, 2, 3, 4, 6])), others[16], others[17]


def test_no_duplicate_option_forces_the_doubled_objective_in_time():
    g, x, y = _script_without_four_of_a_kind({"allow_duplicate_objective_in_round": False})
    assert {o.key for o in g.expects().options} == {x, y, K4}
    g = g.apply(choose_input(g.expects().player, x))
    # x + y now would leave 4 of a kind twice for the last round: not offered
    assert [o.key for o in g.expects().options] == [K4]
    with pytest.raises(IllegalInput, match="not a legal choice"):
        g.apply(choose_input(g.expects().player, y))


def test_duplicates_allowed_by_default_in_the_variant():
    g, x, y = _script_without_four_of_a_kind({})
    g = g.apply(choose_input(g.expects().player, K4))
    assert K4 in {o.key for o in g.expects().options}


def test_no_duplicate_option_refuses_the_same_objective_twice():
    g = new_game(GAME, NAMES[:2], {**VARIANT, "allow_duplicate_objective_in_round": False})
    g = g.apply(dice_input(0, [1, 2, 3, 4, 6])).apply(choose_input(0, J))
    assert J not in {o.key for o in g.expects().options}


# -------------------------------------------------------------------------- flow and messages
def test_choice_options_show_printed_points_and_what_they_score_now():
    g = new_game(GAME, NAMES[:2]).apply(dice_input(0, [4, 4, 4, 2, 2]))
    exp = g.expects()
    assert exp.secret and exp.player == 0
    opts = {o.key: o for o in exp.options}
    assert opts[FH].label == "Full house (5)" and opts[FH].points == 5 and opts[FH].row == FH
    assert opts[LS].label == "Long straight (7)" and opts[LS].points == 0


def test_a_played_card_is_not_offered_again():
    g = play_round(new_game(GAME, NAMES[:2]), SAT[J], {0: [FH], 1: [FH]})
    g = g.apply(dice_input(1, [1, 1, 1, 1, 1]))
    assert FH not in {o.key for o in g.expects().options}
    with pytest.raises(IllegalInput, match="FULL_HOUSE"):
        g.apply(choose_input(1, FH))


def test_reroll_decision_and_its_errors():
    g = play_round(new_game(GAME, NAMES[:2]), [6, 6, 2, 3, 5], {0: [P2], 1: [J]}, stop=False)
    exp = g.expects()
    assert [o.key for o in exp.options] == ["STOP"] and exp.reroll.dice == (6, 6, 2, 3, 5)
    with pytest.raises(IllegalInput, match="at least 1"):
        g.apply(reroll_input(0, [6, 6, 2, 3, 5]))
    with pytest.raises(IllegalInput, match="cannot keep"):
        g.apply(reroll_input(0, [6, 6, 6]))
    with pytest.raises(IllegalInput, match="player 0"):
        g.apply(reroll_input(1, [6, 6]))
    # rerolling kept dice again is allowed, any number 1..5
    assert g.apply(reroll_input(0, [])).expects().count == 5


def test_stop_turns_the_cards_over_so_it_is_final():
    """§2: the other objectives stay hidden until OTHERS_REVEAL, and the active player "must guess
    what they chose". STOP reveals them: a table that took it back (BACK twice) let the active
    player throw again knowing every card. The decision says which choice reveals; no other does."""
    g = play_round(new_game(GAME, NAMES[:3]), [3, 3, 3, 5, 5], {0: [P1], 1: [FH], 2: [J]}, stop=False)
    exp = g.expects()
    assert exp.option("STOP").reveals and exp.reveals(choose_input(0, "STOP"))
    assert not exp.reveals(reroll_input(0, [3, 3]))
    choose = new_game(GAME, NAMES[:3]).apply(dice_input(0, [3, 3, 3, 5, 5])).expects()
    assert exp.secret is False and choose.secret is True
    assert not any(o.reveals for o in choose.options)


# ------------------------------------------------------------------------------------- secrecy
def secret_text(state) -> str:
    return json.dumps(state.sheet().to_json(), sort_keys=True)


def test_hidden_cards_do_not_change_the_sheet():
    """Two games differing only in B's and C's secret cards look the same until the reveal."""
    def upto_reroll(b, c):
        g = new_game(GAME, NAMES[:3]).apply(dice_input(0, [6, 6, 2, 3, 5]))
        sheets = []
        for seat, key in ((0, P2), (1, b), (2, c)):
            g = g.apply(choose_input(seat, key))
            sheets.append(secret_text(g))
        g = g.apply(reroll_input(0, [6, 6])).apply(dice_input(0, [3, 3, 1]))
        sheets.append(secret_text(g))
        return sheets, g

    one, g1 = upto_reroll(FH, NE)
    two, g2 = upto_reroll(LS, J)
    assert one == two
    assert "Two pairs" in g1.sheet().notes[0]            # the active card is public after the reveal
    row = {r.key: r for r in g1.sheet().tables[0].rows}
    assert row[P2].cells[0].kind == "preview" and row[P2].cells[0].value == 3
    assert [c.text for c in row["committed"].cells] == ["Two pairs", "card committed", "card committed"]
    assert row[FH].cells[1].text == "in hand"           # B's committed Full house still looks in hand
    # after STOP everything is revealed
    done = g1.apply(choose_input(0, "STOP"))
    assert "A captured B's Full house +1" in done.sheet().notes[-1]
    assert {r.key: r for r in done.sheet().tables[0].rows}[FH].cells[1].text == "captured by A"


def test_active_card_is_secret_while_others_choose():
    g = new_game(GAME, NAMES[:2]).apply(dice_input(0, [1, 2, 3, 4, 5]))
    a = secret_text(g.apply(choose_input(0, LS)))
    b = secret_text(g.apply(choose_input(0, J)))
    assert a == b


# ---------------------------------------------------------------------------------- properties
def play(n, options, seed):
    rng = random.Random(seed)
    g = new_game(GAME, NAMES[:n], options)
    steps = 0
    while not g.is_over:
        if g.phase in ("choose", "reroll", "rethrow"):
            check_secrecy(g)
        g = g.apply(random_input(g, rng))
        steps += 1
    return g, steps


def check_secrecy(g):
    """No objective row shows a committed card except the active player's after the reveal."""
    for row in g.sheet().tables[0].rows[:10]:
        for seat, cell in enumerate(row.cells):
            if "committed" in cell.text:
                assert g.phase != "choose" and seat == g.active


options_st = st.fixed_dictionaries({
    "two_pairs_same_face_allowed": st.booleans(),
    "full_house_accepts_five_of_a_kind": st.booleans(),
    "tie_break": st.sampled_from(["last_active", "shared"]),
})


@given(n=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), variant=st.booleans(), dup=st.booleans(),
       opts=options_st, start=st.integers(0, 4))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_game_invariants(n, seed, variant, dup, opts, start):
    variant = variant and n == 2
    options = {**opts, "two_player_strategic_variant": variant,
               "allow_duplicate_objective_in_round": dup, "start_seat": start % n}
    g, steps = play(n, options, seed)
    per = 20 if variant else 10
    won = sum(sum(w) for w in g.won)
    assert won + sum(g.captured) + len(discarded(g)) == per * n
    assert sum(g.captured) == sum(1 for lost in g.lost for _, t in lost if t is not None)
    for seat in range(n):
        assert sum(g.hands[seat]) == 0
        # every own card ends won or lost, a Joker never lost
        own = Counter(won_cards(g, seat)) + Counter(k for k, _ in g.lost[seat])
        assert own == Counter({k: per // 10 for k in KEYS})
        assert all(k != J for k, _ in g.lost[seat])
        assert g.scores[seat] == sum(POINTS[k] for k in won_cards(g, seat)) + g.captured[seat]
    # the sheet adds up: Won points + Captured = Total = totals = result scores
    sheet = g.sheet()
    rows = {r.key: r for r in sheet.tables[0].rows}
    for seat in range(n):
        cells = [rows[k].cells[seat] for k in KEYS]
        assert rows["won_points"].cells[seat].value == sum(c.value or 0 for c in cells if c.kind == "score")
        assert rows["won_points"].cells[seat].value + rows["captured"].cells[seat].value == sheet.totals[seat]
        assert rows["total"].cells[seat].value == sheet.totals[seat]
    res = g.result()
    assert res.scores == sheet.totals
    if opts["tie_break"] == "last_active":
        assert all(len(group) == 1 for group in res.ranking)
    else:
        assert len(res.ranking[0]) == list(res.scores).count(max(res.scores))
    assert steps <= g.max_inputs_per_player * n


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=30, deadline=None)
def test_rounds_and_rolls_bounds(seed):
    """10 rounds, each with 1 to 3 rolls by the active player, the role moving left."""
    rng = random.Random(seed)
    g = new_game(GAME, NAMES[:3])
    rolls = Counter()
    while not g.is_over:
        exp = g.expects()
        if isinstance(exp, Throw):
            assert exp.player == active_seat(g.round, 3, 0)
            rolls[g.round] += 1
        g = g.apply(random_input(g, rng))
    assert sorted(rolls) == list(range(1, 11)) and all(1 <= v <= 3 for v in rolls.values())
    assert isinstance(g.expects(), GameOver) and g.sheet().status.startswith("Game over")


def test_snapshot_is_json_and_states_are_independent():
    g0 = new_game(GAME, NAMES[:3])
    g1 = g0.apply(dice_input(0, [1, 2, 3, 4, 5]))
    assert g0.phase == "first_roll" and g1.phase == "choose"
    json.dumps(g1.snapshot())
    assert isinstance(g1, ObjectiveCards)


# ------------------------------------------------------------- audit: statements without a test
def test_variant_active_wins_one_card_and_loses_the_other():
    """§6.1: "The active player can therefore win one card and discard the other in the same
    round. He captures each failed card of the opponent separately, for 1 point each." """
    g = new_game(GAME, NAMES[:2], VARIANT)
    after = play_round(g, [1, 1, 2, 3, 5], {0: [LS, P1], 1: [FH, NO]})
    assert round_points(g, after) == [1 + 2, 0]          # One pair +1, two captures +1 each
    assert discarded(after) == [LS] and list(won_cards(after, 0)) == [P1]
    assert after.lost[1] == ((FH, 0), (NO, 0)) and after.captured == (2, 0)


def test_variant_tie_goes_to_seat_1_active_in_round_10():
    """§6.1: "Tie-break as in §5 (seat 0 last active in r9, seat 1 in r10)"; two sets: 74 each."""
    g = new_game(GAME, NAMES[:2], VARIANT)
    for key in KEYS:
        g = play_round(g, SAT[key], {0: [key, key], 1: [key, key]})
    res = g.result()
    assert g.is_over and g.scores == (74, 74)
    assert res.winners == (1,) and res.details["last_active_round"] == {"A": 9, "B": 10}


# §1: seats active per round r=1..10 (offsets from start_seat) and times active per seat
ACTIVE_TABLE = {2: ([0, 1] * 5, [5, 5]), 3: ([0, 1, 2] * 3 + [0], [4, 3, 3]),
                4: ([0, 1, 2, 3] * 2 + [0, 1], [3, 3, 2, 2]), 5: ([0, 1, 2, 3, 4] * 2, [2] * 5)}


@pytest.mark.parametrize("n,variant", [(2, False), (3, False), (4, False), (5, False), (2, True)])
def test_active_player_each_round_matches_the_spec_table(n, variant):
    """Exactly 10 rounds, with the §1 table's active seats (every start seat), in play."""
    offsets, times = ACTIVE_TABLE[n]
    for start in range(n):
        g = new_game(GAME, NAMES[:n], {"start_seat": start, "two_player_strategic_variant": variant})
        throwers = []
        for key in KEYS:
            throwers.append(g.expects().player)
            g = play_round(g, SAT[key], {s: [key] * g.per_round for s in range(n)})
        assert g.is_over and len(throwers) == 10
        assert throwers == [(start + o) % n for o in offsets]
        assert [throwers.count((start + k) % n) for k in range(n)] == times


def test_a_commitment_is_final():
    """§2 SECRET_CHOICE: "The commitment is final": the player who committed is not asked again."""
    g = new_game(GAME, NAMES[:3]).apply(dice_input(0, [1, 2, 3, 4, 5])).apply(choose_input(0, LS))
    with pytest.raises(IllegalInput, match="waiting for player 1"):
        g.apply(choose_input(0, J))
    assert g.commits[0] == (LS,)


@functools.lru_cache(maxsize=None)
def _can_finish(hand: tuple[int, ...], rounds: int, done: tuple[str, ...]) -> bool:
    """Brute force: can this hand be played out, two different objectives a round, `done` being
    the cards already committed this round (of `rounds` rounds left, this one included)?"""
    if rounds == 0:
        return True
    if len(done) == 2:
        return _can_finish(hand, rounds - 1, ())
    return any(_can_finish(hand[:i] + (c - 1,) + hand[i + 1:], rounds, done + (k,))
               for i, (k, c) in enumerate(zip(KEYS, hand)) if c and k not in done)


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_no_duplicate_option_offers_exactly_the_cards_that_can_still_be_played(seed):
    """allow_duplicate_objective_in_round=false: every card offered leaves a hand that can be
    played out, every card refused would not (brute force), and no round has the same objective
    twice."""
    rng = random.Random(seed)
    g = new_game(GAME, NAMES[:2], {**VARIANT, "allow_duplicate_objective_in_round": False})
    while not g.is_over:
        exp = g.expects()
        if g.phase == "choose":
            seat, done = exp.player, g.commits[exp.player]
            hand = g.hands[seat]
            playable = {k for i, k in enumerate(KEYS) if hand[i] and k not in done and _can_finish(
                hand[:i] + (hand[i] - 1,) + hand[i + 1:], 11 - g.round, done + (k,))}
            assert {o.key for o in exp.options} == playable and playable
        g = g.apply(random_input(g, rng))
        if g.last and g.phase == "first_roll" or g.is_over:
            for seat in range(2):
                keys = [k for s, k, _ in g.last["events"] if s == seat]
                assert len(keys) == 2 and keys[0] != keys[1]
