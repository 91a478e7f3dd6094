"""The HINT card follows the house rules chosen: what a card states that a rule changes is
checked here against what the rules do under that rule, not against a copy of the card's words."""
from __future__ import annotations

import re

import pytest

from controller.help_card import help_card
from controller.rules import GAMES, choose_input, dice_input, new_game
from controller.rules.base import Decide, resolve_options


def card_text(game: str, options: dict) -> str:
    return " ".join(GAMES[game].rules_card(options))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_card_of_a_game_in_play_is_the_card_of_its_house_rules(game):
    cls = GAMES[game]
    spec = next(s for s in cls.OPTIONS if isinstance(s.default, bool))
    options = {spec.name: not spec.default}
    players = ["Ann", "Bob", "Cy"][: max(cls.min_players, 2 if game != "poknroll" else 3)]
    if game == "objective-cards" and spec.name == "two_player_strategic_variant":
        players = ["Ann", "Bob"]
    state = new_game(game, players, options)
    assert help_card(state).paragraphs == cls.rules_card(options)
    assert help_card(cls).paragraphs == cls.how_to_play == cls.rules_card({})


# ------------------------------------------------------------------------------------- thirteen
THIRTEEN_RULES = [{}, {"two_pairs_value": 25}, {"early_close_bonus_per_roll": 10}, {"early_close_bonus_per_roll": 0},
                  {"upper_bonus_threshold": 63, "upper_bonus": 35}, {"upper_bonus": 0}, {"bottom_bonus": 0},
                  {"extra_five_bonus": 50}, {"extra_five_bonus": 0}]


@pytest.mark.parametrize("options", THIRTEEN_RULES, ids=str)
def test_thirteen_card_states_the_points_the_rules_give(options):
    from controller.rules import thirteen as th

    rules = th._Rules.get(resolve_options(th.ThirteenState.OPTIONS, options, "thirteen"))
    card = card_text("thirteen", options)
    met = {th.TWO_PAIRS: (2, 2, 3, 3, 5), th.THREE_KIND: (1, 2, 4, 4, 4), th.FOUR_KIND: (1, 4, 4, 4, 4),
           th.STRAIGHTS: (1, 2, 3, 4, 5), th.FULL_HOUSE: (2, 2, 4, 4, 4), th.FIVE_KIND: (4, 4, 4, 4, 4)}
    for cat, dice in met.items():                       # met on the third throw: the fixed points alone
        assert f"{th.LABELS[cat]} {rules.table[dice][3 * 2].points[cat]}" in card
    pairs = (2, 2, 3, 3, 5)
    per_throw = (rules.table[pairs][1 * 2].points[th.TWO_PAIRS] - rules.table[pairs][3 * 2].points[th.TWO_PAIRS]) // 2
    assert (f"+{per_throw} for each throw not used" in card) == (per_throw > 0)
    assert ("throw not used" in card) == (per_throw > 0)

    def total(upper: int, extras: int = 0) -> int:
        card = th.Card((upper,) + (0,) * 5 + (None,) * 7, th.ALL_OPEN, 0, extras, 0)
        return th.card_total(card, rules)

    threshold = next(t for t in range(200) if total(t) > t) if total(199) > 199 else None
    if threshold is None:
        assert "or more in Aces to Sixes" not in card
    else:
        assert f"+{total(threshold) - threshold} for {threshold} or more in Aces to Sixes" in card
    extra = total(0, extras=1) - total(0)
    assert (f"earns +{extra} and" in card) == (extra > 0)
    bottom = th.Card((0,) * 6 + (20, 25, 35, 30, 30, 50, 20), 0, 0, 0, 1)
    bonus = th.card_total(bottom, rules) - sum(bottom.scores)
    assert (f"+{bonus} if no figure box is given up" in card) == (bonus > 0)


@pytest.mark.parametrize("tie", ["shared", "upper_total", "fewer_zeros"])
def test_thirteen_card_says_how_equal_totals_end(tie):
    card = card_text("thirteen", {"tie": tie})
    words = {"shared": "share the win", "upper_total": "Aces to Sixes total ranks first",
             "fewer_zeros": "fewer boxes given up ranks first"}
    assert words[tie] in card and sum(w in card for w in words.values()) == 1


# -------------------------------------------------------------------------------------- classic
def play_classic(options: dict) -> int:
    """Rounds a 2-player match lasts when Ann always throws five aces and Bob no pair."""
    state = new_game("classic", ["Ann", "Bob"], options)
    while not state.is_over:
        exp = state.expects()
        if exp.kind == "throw":
            state = state.apply(dice_input(exp.player, [6] * 5 if exp.player == 0 else [1, 2, 3, 4, 6]))
        else:
            state = state.apply(choose_input(exp.player, "STAND"))
    return len(state.history)


@pytest.mark.parametrize("options", [{}, {"rounds": 3}, {"rounds": 1}, {"match_length": "first_to", "first_to": 4},
                                     {"match_length": "first_to", "first_to": 1}], ids=str)
def test_classic_card_says_how_long_the_match_is(options):
    card = card_text("classic", options)
    rounds = play_classic(options)
    said = f"{rounds} round" + ("s" if rounds > 1 else "")
    if options.get("match_length") == "first_to":
        assert f"has won {said}:" in card
    elif options.get("rounds"):
        assert f"The match is {said}:" in card
    else:
        assert rounds == 2 * 2 and "two rounds per player" in card


@pytest.mark.parametrize("low", [False, True])
def test_classic_card_names_the_straights_the_rules_count(low):
    from controller.rules.classic import Category, evaluate

    card = card_text("classic", {"low_straight_9_to_K": low})
    nine_to_king = evaluate([9, 10, 11, 12, 13], low_straight_9_to_K=low)[0] == Category.STRAIGHT
    assert ("9 to K" in card) == nine_to_king and "straight (10 to A" in card


def test_classic_card_under_betting_tells_the_betting_round_not_the_base_turn():
    card = card_text("classic", {"variant": "betting"})
    assert "see the hand to beat" not in card and "most rounds won" not in card
    assert "then bet" in card and "the most points wins" in card and "takes the pot" in card


# ------------------------------------------------------------------------------ objective cards
@pytest.mark.parametrize("options", [{}, {"two_pairs_same_face_allowed": True},
                                     {"full_house_accepts_five_of_a_kind": True},
                                     {"two_pairs_same_face_allowed": True, "full_house_accepts_five_of_a_kind": True}],
                         ids=str)
def test_objective_card_says_what_four_and_five_alike_meet(options):
    from controller.rules.objective_cards import satisfied

    card = card_text("objective-cards", options)
    assert ("Four alike also make Two pairs" in card) == ("TWO_PAIRS" in satisfied([5, 5, 5, 5, 1], options))
    assert bool(re.search(r"five alike (also make )?a Full house", card, re.I)) == \
        ("FULL_HOUSE" in satisfied([5, 5, 5, 5, 5], options))


@pytest.mark.parametrize("variant", [False, True])
def test_objective_card_says_how_many_cards_each_player_picks(variant):
    state = new_game("objective-cards", ["Ann", "Bob"], {"two_player_strategic_variant": variant})
    card = card_text("objective-cards", {"two_player_strategic_variant": variant})
    picks = {1: "picks one", 2: "picks two"}
    assert picks[state.per_round] in card and picks[3 - state.per_round] not in card


# ------------------------------------------------------------------------------------ Pok'n Roll
@pytest.mark.parametrize("mode", ["beginner", "expert"])
def test_poknroll_card_says_how_many_dice_each_cup_holds(mode):
    state = new_game("poknroll", ["Ann", "Bob", "Cy"], {"mode": mode})
    assert card_text("poknroll", {"mode": mode}).startswith(f"{ {2: 'Two', 3: 'Three'}[state.n_private]} hidden dice")


@pytest.mark.parametrize("tiebreak", [False, True])
def test_poknroll_card_says_whether_face_values_break_a_showdown_tie(tiebreak):
    from controller.rules.poknroll import resolve_showdown

    out = resolve_showdown([1, 2, 4, 6, 6], {0: [3, 3], 1: [5, 5]}, value_tiebreak=tiebreak)   # two Fulls
    card = card_text("poknroll", {"showdown_value_tiebreak": tiebreak})
    assert ("face values never count" in card) == (len(out.winners) == 2)
    assert "imaginary cup" in card                     # 3 players: it plays at every showdown


@pytest.mark.parametrize("reveal", ["immediate", "end_of_hand"])
def test_poknroll_card_says_which_white_dice_an_abandon_scores_with(reveal):
    """Cups read at the hand's end, the card said an abandon scores "the best line of your dice
    and the white ones": at the hand's end that reads as all five, but the rules score the white
    dice out when the player abandoned (Ann's 6 1 with 6 1 2 is a Double paire, not the Full it
    makes with the hand's 6 6 1 2 6 6)."""
    state = new_game("poknroll", ["Ann", "Bob", "Cy"], {"reveal_on_abandon": reveal})
    white, cups = [[6, 1, 2], [6], [6]], {0: [6, 1], 1: [1, 1], 2: [3, 3], None: [2, 3]}
    while state.hand == 1:
        exp = state.expects()
        if isinstance(exp, Decide):
            state = state.apply(choose_input(exp.player, "ABANDON" if exp.player == 0 else "CONTINUE"))
        else:
            state = state.apply(dice_input(exp.player, white.pop(0) if exp.purpose == "white" else cups[exp.player]))
    assert state.boxes[0][1] == 1 and state.boxes[0][3] == 0          # Double paire, not Full
    card = card_text("poknroll", {"reveal_on_abandon": reveal})
    said = re.search(r"Abandoning scores (.*?) the best line of your dice and the white ones( out when you abandoned)?",
                     card)
    assert said and said.group(1) == {"immediate": "at once", "end_of_hand": "at the hand's end"}[reveal]
    assert bool(said.group(2)) == (reveal == "end_of_hand")    # at once, the white ones out now are those


@pytest.mark.parametrize("must_use", [False, True])
def test_poknroll_card_says_where_a_line_must_use_a_hidden_die(must_use):
    """must_use_private_die binds the showdown as well as an abandon, but the card said "using one
    of yours" of abandoning alone: a board-only Brelan winning nothing at the showdown was not on
    it. It is now said of the lines themselves, which both the abandon and the showdown score."""
    from controller.rules.poknroll import resolve_showdown

    out = resolve_showdown([6, 6, 6, 1, 3], {0: [2, 4], 1: [5, 1]}, must_use_private_die=must_use)
    board_plays = out.lines[0] == "BRELAN"                # Ann's Brelan of 6s is the board's alone
    card = GAMES["poknroll"].rules_card({"must_use_private_die": must_use})
    lines = next(p for p in card if p.startswith("Lines"))
    abandon = next(p for p in card if p.startswith("Abandoning"))
    assert ("one of your hidden dice" in lines) == (not board_plays) and "hidden" not in abandon


# ---------------------------------------------------------------------------------------- School
@pytest.mark.parametrize("options", [{}, {"double_on_first_throw": False}, {"double_applies_to_chance": False},
                                     {"row_fill_order": "any_free_column"}], ids=str)
def test_school_card_says_what_doubles_and_where_an_entry_goes(options):
    state = new_game("school", ["Ann"], options).apply(dice_input(0, [4, 4, 4, 5, 5]))   # throw 1
    exp = state.expects()
    assert isinstance(exp, Decide)
    points = {o.row: o.points for o in exp.options if o.group == "score"}
    card = card_text("school", options)
    assert ("count double" in card) == (points["PAIR"] == 2 * 10)
    assert ("(not Chance)" in card) == (points["PAIR"] == 20 and points["CHANCE"] == 22)
    any_column = any(re.search(r"_C[1-3]", o.key) for o in exp.options)
    assert ("any empty column" in card) == any_column and ("leftmost" in card) == (not any_column)


def test_hint_turns_the_pages_its_screen_draws():
    """Beside the final standings at 800x480 (a narrower panel than the sheet's place while
    playing) Pok'n Roll's standard card takes two pages: HINT turns to the second, then closes.
    While playing it is one page: HINT again closes it."""
    from dataclasses import replace

    from controller.help_card import hint_pressed

    card = help_card(GAMES["poknroll"])
    assert hint_pressed(None, "final", (800, 480)) == 0
    assert hint_pressed(card, "final", (800, 480)) == 1
    assert hint_pressed(replace(card, page=1), "final", (800, 480)) is None
    assert hint_pressed(card, "play", (800, 480)) is None
