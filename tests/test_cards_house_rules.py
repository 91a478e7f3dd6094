"""Every house rule in force that changes how a game is played is on its HINT card.

Thirteen's card said nothing of what makes 2 pairs (a full house, four of a kind: each a house
rule), School's nothing of Two pairs of one face, a Poker as Full house, the reserve's minimum of
dice thrown, or a barred player still blocking awards: a player whose throw the table refused (or
took) in those boxes could not read why. (That each card still fits its pages at 320x240 and
800x480 under every rule is tests/test_display.py's.)
"""
from __future__ import annotations

from typing import Any, Iterator

import pytest

from controller.rules import GAMES

#: rules that change no player's play, so no card says them: who sits first (the table names the
#: player whose turn it is), and Thirteen's Chance in the bottom-bonus test (Chance is the sum of
#: five dice, never 0, never given up: the bonus is the same either way)
NOT_ON_THE_CARD = {"start_seat", "first_player", "rotate_first_player", "bottom_includes_chance"}

#: the rules a rule only matters under (Classic's betting rules outside its betting variant ...)
UNDER = {("classic", "starting_bankroll"): {"variant": "betting"}, ("classic", "ante"): {"variant": "betting"},
         ("classic", "max_bet"): {"variant": "betting"}, ("classic", "betting_model"): {"variant": "betting"},
         ("classic", "keep_declared_in_phase1"): {"variant": "betting"},
         ("classic", "first_to"): {"match_length": "first_to"},
         ("objective-cards", "allow_duplicate_objective_in_round"): {"two_player_strategic_variant": True},
         # (in a beginner game the imaginary cup holds two dice under either value, as the players' do)
         ("poknroll", "imaginary_player_dice"): {"mode": "expert"}}


def _changes() -> Iterator[tuple[str, str, Any]]:
    for game, cls in sorted(GAMES.items()):
        for spec in cls.OPTIONS:
            if spec.name in NOT_ON_THE_CARD:
                continue
            if spec.choices is not None:
                values = [c for c in spec.choices if c != spec.default]
            elif isinstance(spec.default, bool):
                values = [not spec.default]
            elif isinstance(spec.default, int) and not isinstance(spec.default, bool):
                values = [spec.default + 1] if spec.maximum is None or spec.default < spec.maximum else []
            else:
                values = []
            yield from ((game, spec.name, v) for v in values)


@pytest.mark.parametrize("game, rule, value", list(_changes()), ids=lambda x: str(x))
def test_each_house_rule_in_force_changes_the_card(game, rule, value):
    cls = GAMES[game]
    under = UNDER.get((game, rule), {})
    assert cls.rules_card({**under, rule: value}) != cls.rules_card(under), f"{game}: {rule}={value!r} unsaid"


THIRTEEN_TWO_PAIRS = [
    ({}, "2 pairs 20 (2 different pairs or a full house)"),
    ({"two_pairs_accepts_full_house": False}, "2 pairs 20 (2 different pairs, not a full house)"),
    ({"two_pairs_accepts_four_of_a_kind": True}, "2 pairs 20 (2 pairs, a full house or 4 alike)"),
    ({"two_pairs_accepts_four_of_a_kind": True, "two_pairs_accepts_full_house": False, "two_pairs_value": 25},
     "2 pairs 25 (2 pairs or 4 alike, not a full house)"),
]


@pytest.mark.parametrize("options, said", THIRTEEN_TWO_PAIRS, ids=str)
def test_thirteens_card_says_what_makes_2_pairs(options, said):
    assert said in " ".join(GAMES["thirteen"].rules_card(options))


SCHOOL = [
    ({}, ["Two pairs (two faces)", "Full house, Four of a kind"], ["usable only", "blocking"]),
    ({"two_pairs_same_face_allowed": True}, ["Two pairs (four alike too)"], []),
    ({"full_house_accepts_poker": True}, ["Full house (five alike too)"], []),
    ({"reserve_min_real_dice": 1}, ["a later column of the row, usable only with at least 1 die of that face thrown."],
     []),
    ({"reserve_min_real_dice": 2, "school_reserve_mode": "fixed_three"},
     ["are banked for a later column of the row, usable only with at least 2 dice of that face thrown."], []),
    ({"reserve_min_real_dice": 2, "school_reserve_mode": "none"}, [], ["usable only", "banked"]),
    ({"ineligible_player_blocks_award": True},
     ["loses every award, now and to come (yet still blocking others' awards)."], []),
    ({"ineligible_player_blocks_award": True, "school_cross_penalty": "erase_earned_only"}, [], ["blocking"]),
]


@pytest.mark.parametrize("options, said, unsaid", SCHOOL, ids=str)
def test_schools_card_says_its_house_rules_in_force(options, said, unsaid):
    card = " ".join(GAMES["school"].rules_card(options))
    for words in said:
        assert words in card
    for words in unsaid:
        assert words not in card
