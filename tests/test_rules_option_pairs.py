"""House rules that change play together (spec: /work/shared/rules/*.md), checked by hand against
the spec's words with scripted games: most tests play the defaults, or one rule changed at a time,
and a pair of rules can each be right alone and wrong together."""
from __future__ import annotations

import pytest

from controller.rules.base import choose_input, dice_input, reroll_input
from controller.rules import new_game

FILLER = [1, 2, 3, 4, 6]        # a first throw thrown again at once


def school_turn(state, dice, key):
    """One School turn: a throw, all thrown again, then `dice` at throw 2 and the entry `key`."""
    p = state.expects().player
    state = state.apply(dice_input(p, FILLER)).apply(reroll_input(p, [])).apply(dice_input(p, dice))
    return state.apply(choose_input(p, key))


# ---------------------------------------------- School: fixed_three x unused_reserve_at_end=scored
# §4.2: under `fixed_three` "every legal School entry scores 3f, and surplus dice (c - 3) are
# banked automatically"; under `unused_reserve_at_end = "scored"` a banked die never used scores
# f. Five 6s scored 18 + 2 x 6 in column 1 or 2, but 18 alone in column 3: the two surplus dice
# were dropped there, the only place under these rules where a thrown 6 counted for nothing.
FIXED_SCORED = {"school_reserve_mode": "fixed_three", "unused_reserve_at_end": "scored"}


def test_fixed_three_banks_the_last_cells_surplus_when_unused_reserve_scores():
    s = new_game("school", ["Ann"], FIXED_SCORED)
    s = school_turn(s, [6, 6, 6, 1, 2], "S6")           # column 1: 18, nothing to bank
    s = school_turn(s, [6, 6, 6, 1, 2], "S6")           # column 2: 18
    before = s.total(0)
    s = school_turn(s, [6, 6, 6, 6, 6], "S6")           # column 3, the row's last cell
    sheet = s.sheets[0]
    assert sheet.cells[15:18] == (18, 18, 18)           # every entry scores 3f
    assert sheet.reserve[5] == 2                        # the surplus is banked ...
    assert sheet.awards[5] == 18                        # (the row award: column 3's value)
    assert s.total(0) - before == 18 + 18 + 2 * 6       # ... and scores its face at the end
    assert "banked 2" in s.notes[0]


def test_the_surplus_is_worth_the_same_in_any_column_under_fixed_three_and_scored():
    first = school_turn(new_game("school", ["Ann"], FIXED_SCORED), [6, 6, 6, 6, 6], "S6")
    s = new_game("school", ["Ann"], FIXED_SCORED)
    s = school_turn(school_turn(s, [6, 6, 6, 1, 2], "S6"), [6, 6, 6, 1, 2], "S6")
    last = school_turn(s, [6, 6, 6, 6, 6], "S6")
    assert first.reserve_points(0) == last.reserve_points(0) == 12


def test_fixed_three_still_drops_the_last_cells_surplus_when_unused_reserve_is_lost():
    """The default `lost`: a die banked in the last cell could never count, so none is banked."""
    s = new_game("school", ["Ann"], {"school_reserve_mode": "fixed_three"})
    s = school_turn(school_turn(s, [6, 6, 6, 1, 2], "S6"), [6, 6, 6, 1, 2], "S6")
    s = school_turn(s, [6, 6, 6, 6, 6], "S6")
    assert s.sheets[0].cells[17] == 18 and s.sheets[0].reserve[5] == 0


# ------------------------------------------------ Pok'n Roll: mode=expert x imaginary_player_dice
# §6.2: the imaginary player uses "une paire de dés", 2 dice even in Expert mode (the default);
# `same_as_mode` gives it as many as the players. The HINT card said the count only when the
# option was changed: in an expert game under the default it said nothing, and players with three
# dice each read the imaginary cup as a hand like theirs; in a beginner one under `same_as_mode` it
# said "of two dice", the players' own count.
@pytest.mark.parametrize("mode, cup, said", [("expert", 2, "an imaginary cup of two dice"),
                                             ("expert", "same_as_mode", "an imaginary cup plays"),
                                             ("beginner", 2, "an imaginary cup plays"),
                                             ("beginner", "same_as_mode", "an imaginary cup plays")])
def test_the_card_says_the_imaginary_cups_dice_where_they_are_not_the_players_count(mode, cup, said):
    options = {"mode": mode, "imaginary_player_dice": cup}
    state = new_game("poknroll", ["Ann", "Bob", "Cy"], options)
    card = " ".join(type(state).rules_card(state.options))
    assert said in card, card
    own = state.n_private
    assert (state.n_imaginary != own) == ("imaginary cup of" in card)
    if state.n_imaginary != own:
        assert f"of {'two' if state.n_imaginary == 2 else 'three'} dice" in card


# ------------------------------------------- Thirteen: early_close_on_zero x bottom bonus and joker
# §4.2: the early-close bonus goes to a figure "only when the requirement is met" by default; under
# early_close_on_zero a figure given up before the third throw earns it too, and stays given up:
# §4.4's bottom bonus is lost, and §4.5's joker and +40 need the 5 of a kind box to hold a met five.
# The written box read "0+10"; its menu line read "5 of a kind  10" and its preview "+10", a met
# figure's look, and the note "Ann scored 10 in 5 of a kind": a player took it for a score.
def test_a_figure_given_up_with_its_bonus_says_so_before_and_after_it_is_written():
    s = new_game("thirteen", ["Ann", "Bob"], {"early_close_on_zero": True})
    s = s.apply(dice_input(0, [1, 1, 3, 5, 6]))                      # throw 1: no figure met
    option = s.expects().option("FIVE_KIND")
    assert option.points == 10 and option.group == "cross"
    assert (option.label, option.note) == ("5 of a kind", "give up, +10 early")
    preview = next(r for r in s.sheet().tables[0].rows if r.key == "FIVE_KIND").cells[0]
    assert preview.text == "+0+10 give up" and preview.short == ("+0+10",) and preview.value == 10
    assert s.expects().option("CHANCE").note == ""                   # a met box without an early bonus reads as before
    s = s.apply(choose_input(0, "FIVE_KIND"))
    assert s.sheet().notes == ("Ann gave up 5 of a kind after throw 1: 0+10",)
    written = next(r for r in s.sheet().tables[0].rows if r.key == "FIVE_KIND").cells[0]
    assert written.text == "0+10" and written.kind == "cross"
    # given up it stays: no joker nor +40 for a later five of a kind, and no bottom bonus
    s = s.apply(dice_input(1, [2, 3, 4, 5, 6])).apply(choose_input(1, "STRAIGHTS"))
    s = s.apply(dice_input(0, [4, 4, 4, 4, 4]))
    assert "joker" not in s.expects().prompt
    assert s.expects().option("FULL_HOUSE").points == 10 and s.expects().option("FULL_HOUSE").group == "cross"


def test_under_the_defaults_a_box_given_up_for_0_reads_as_before():
    s = new_game("thirteen", ["Ann"], {})
    s = s.apply(dice_input(0, [1, 1, 3, 5, 6]))
    option = s.expects().option("FIVE_KIND")
    assert (option.points, option.label) == (0, "5 of a kind")
    preview = next(r for r in s.sheet().tables[0].rows if r.key == "FIVE_KIND").cells[0]
    assert (preview.text, option.note) == ("+0 give up", "give up")
    assert s.apply(choose_input(0, "FIVE_KIND")).sheet().notes == ("Ann scored 0 in 5 of a kind after throw 1",)


# ------------------------------------------- School: school_reserve_mode=none x unused_reserve_at_end
# §4.2: "none": no reserve. The card still said "banked dice never used score their face" under
# unused_reserve_at_end=scored, a rule of dice that this game never banks.
def test_schools_card_tells_of_banked_dice_only_where_dice_are_banked():
    def card(options):
        state = new_game("school", ["Ann"], options)
        return " ".join(type(state).rules_card(state.options))

    assert "banked dice never used score their face" in card({"unused_reserve_at_end": "scored"})
    assert "banked dice never used score their face" in card(FIXED_SCORED)
    plain = card({"unused_reserve_at_end": "scored", "school_reserve_mode": "none"})
    assert "bank" not in plain, plain
    # and the game indeed never banks: four 1s score 4, nothing kept
    s = school_turn(new_game("school", ["Ann"], {"unused_reserve_at_end": "scored", "school_reserve_mode": "none"}),
                    [1, 1, 1, 1, 3], "S1")
    assert s.sheets[0].cells[0] == 4 and s.sheets[0].reserve == (0,) * 6 and s.reserve_points(0) == 0
