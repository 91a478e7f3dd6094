"""HINT cards at a real table: the card tells the rules the game on the table is played under.

A card that tells other rules than those in force is worse than none: the players trust the
table's word over their memory of the box.
"""
from __future__ import annotations

import re

import pytest

from controller.config import parse_config
from controller.rules import GAMES, choose_input, dice_input, new_game
from controller.rules.base import Decide, GameOver
from test_between_games import Evening, _left_alone, _throw


def test_hint_on_take_up_row_tells_the_put_away_games_own_rules(tmp_path):
    """Ann and Bob's 2-player Objective cards (two cards a round: the café's house rule that
    evening) was put away by *Still playing?*. The staff then took the variant out of the config
    and restarted. The games page offers *Take up Objective cards*; HINT on that row told the
    config's rules (one card a round), while OK takes the game up under its own (two a round)."""
    evening = Evening(tmp_path, 'idle_minutes = 30\nplayers = ["Ann", "Bob"]\ngame = "objective-cards"\n'
                                '[table.options.objective-cards]\ntwo_player_strategic_variant = true\n')
    evening.press("OK")
    evening.hold()                                          # Objective cards, Ann and Bob, 2 cards a round
    assert evening.app.flow.state.per_round == 2
    _throw(evening, [1, 2, 3, 4, 6])
    _left_alone(evening)

    evening.config = parse_config(f'[table]\njournal_dir = "{tmp_path}"\nplayers = ["Ann", "Bob"]\n'
                                  'game = "objective-cards"\n')
    evening.power_on()                                      # the staff's new config: no variant
    evening.down_to("Take up Objective cards")
    evening.press("HINT")
    card = evening.menu.view().help
    assert card is not None and card.title == "How to play Objective cards"
    text = " ".join(card.paragraphs)
    assert "two of their unplayed cards" in text, text
    assert "one of their unplayed cards" not in text

    evening.press("HINT")                                   # (turned or closed: any other button closes it)
    evening.press("DOWN", "UP")
    evening.down_to("Objective cards")                      # the game itself: the config's rules, one card
    evening.press("HINT")
    assert "one of their unplayed cards" in " ".join(evening.menu.view().help.paragraphs)


# ------------------------------------------------------------------------------------ Pok'n Roll
POKNROLL_RULES = [{}, {"line_values": {"beginner": {"YAMS": 12, "ABANDON_T1": 2}}},
                  {"mode": "expert", "line_values": {"expert": {"PAIRE": 2, "CARRE": 8}}},
                  {"imaginary_counts_for_multiplier": True}, {"boxes_per_line": 4}]


@pytest.mark.parametrize("players", [("Ann", "Bob", "Cy"), ("Ann", "Bob", "Cy", "Dee")], ids=len)
@pytest.mark.parametrize("options", POKNROLL_RULES, ids=str)
def test_poknroll_card_says_what_a_box_of_each_line_is_worth(options, players):
    """The card named the lines and never what they score: a player asking HINT what a Yam's or
    a won showdown was worth (the seed printed no values: they are a house rule, spec §4.2) got
    nothing, and a café that set its own values had a card that could not say them. The points
    said are those the score counts, the board side played and the imaginary player included."""
    from controller.rules.poknroll import COMBOS, LABELS

    state = new_game("poknroll", list(players), options)
    card = " ".join(GAMES["poknroll"].rules_card(options))
    for line in COMBOS:
        named = LABELS[line] + (" (five alike)" if line == "YAMS" else "")
        assert re.search(rf"{re.escape(named)} {state.line_value(line)}\b", card), (line, card)
    assert f"{state.line_value('ABANDON_T1')} for Abandon au 1er tour" in card
    assert "as many as players" in card and "3ème tour remporté" in card
    # 3 players and the imaginary one counted: 4 a box, one more than the players at the table
    assert ("and the imaginary one" in card) == (state.options["imaginary_counts_for_multiplier"])
    if state.options["imaginary_counts_for_multiplier"] and len(players) == 3:
        assert state.line_value("THIRD_TURN_WON") == len(players) + 1
    else:
        assert state.line_value("THIRD_TURN_WON") == len(players)


@pytest.mark.parametrize("boxes", [1, 4, 6])
def test_poknroll_card_says_how_many_boxes_fill_a_line(boxes):
    """The card said the game ends when someone "fills a line", not how many boxes that takes:
    under boxes_per_line = 4 it read as the board's six."""
    state = new_game("poknroll", ["Ann", "Bob", "Cy", "Dee"], {"boxes_per_line": boxes})
    seat = 0
    while not isinstance(state.expects(), GameOver):              # Ann abandons every hand at turn 1
        exp = state.expects()
        if isinstance(exp, Decide):
            state = state.apply(choose_input(exp.player, "ABANDON" if exp.player == seat else "CONTINUE"))
        elif exp.purpose == "white":
            state = state.apply(dice_input(exp.player, [1, 1, 2, 3, 4, 6][:exp.count]))
        else:
            state = state.apply(dice_input(exp.player, [5, 6, 6][:exp.count]))
    filled = max(state.boxes[seat])
    assert filled == boxes                                       # her Paire and Abandon lines: full
    said = f"({boxes} box)" if boxes == 1 else f"({boxes} boxes)"
    assert said in " ".join(GAMES["poknroll"].rules_card({"boxes_per_line": boxes}))


def test_poknroll_card_says_who_throws_the_imaginary_cup():
    """Left to the table (imaginary_dice_source = engine_rng), nobody rolls the imaginary cup:
    the table draws it. The card said only that it plays."""
    from controller.rules.base import Throw

    for source, said in (("engine_rng", True), ("physical", False)):
        state = new_game("poknroll", ["Ann", "Bob", "Cy"], {"imaginary_dice_source": source})
        while not (isinstance(state.expects(), Throw) and state.expects().purpose == "imaginary"):
            exp = state.expects()
            if isinstance(exp, Decide):
                state = state.apply(choose_input(exp.player, "CONTINUE"))
            else:
                state = state.apply(dice_input(exp.player, [1, 2, 2, 3, 5][:exp.count]))
        card = " ".join(GAMES["poknroll"].rules_card({"imaginary_dice_source": source}))
        assert state.expects().drawn == said
        assert ("drawn by the table" in card) == said


def test_hint_on_the_games_page_tells_the_rules_the_group_set_for_that_game():
    """Ann's group set Objective cards' ties to be shared, then went back and chose Thirteen to
    look at it. Back on the games page with the cursor on Objective cards, HINT (and the page's
    foot) told the config's rules (*a tie goes to whoever was active last*), while OK on it
    loads the group's: ties shared."""
    from controller.setup_menu import SetupMenu, option_label

    menu = SetupMenu(buttons=None)
    names = [g.name for g in menu.games]
    for _ in range(names.index("objective-cards")):
        menu.on_button("press", "DOWN")
    for _ in range(3):                                       # the game, the count, the names: Next
        menu.on_button("press", "OK")
    assert menu.page == "options"
    while next(i.label for i in menu.view().setup if i.selected) != option_label("tie_break"):
        menu.on_button("press", "DOWN")
    menu.on_button("press", "OK")                            # last_active -> shared
    assert menu.values["tie_break"] == "shared"
    while menu.page != "game":                               # "< Back" rows, as a 3-button panel has
        while next(i.label for i in menu.view().setup if i.selected) != "< Back":
            menu.on_button("press", "DOWN")
        menu.on_button("press", "OK")
    while menu.cursor["game"] != names.index("thirteen"):
        menu.on_button("press", "UP")
    menu.on_button("press", "OK")                            # Thirteen chosen
    assert menu.game.name == "thirteen"
    while next(i.label for i in menu.view().setup if i.selected) != "< Back":
        menu.on_button("press", "DOWN")
    menu.on_button("press", "OK")
    while menu.cursor["game"] != names.index("objective-cards"):
        menu.on_button("press", "DOWN")
    menu.on_button("press", "HINT")
    card = " ".join(menu.view().help.paragraphs)
    assert "a tie is shared" in card and "whoever was active last" not in card, card

    menu.on_button("press", "HINT")                          # (closed), and OK on it: the rules said
    menu.on_button("press", "OK")
    assert menu.game.name == "objective-cards" and menu.values["tie_break"] == "shared"


def test_a_players_first_of_two_secret_cards_is_not_said_to_be_all_their_choice():
    """2-player variant: Ann committed her first card and the banner said *Ann has chosen (kept
    secret).* over her still open menu for the second: she could take it for done and look away,
    her hand left on the shared screen and her second card to Bob's next OK. The banner says
    there is one more choice; after the second, only that she has chosen."""
    from controller.table import TableFlow
    from controller.tablelog import TableLog
    from table_helpers import Clock, Press
    from test_table_flow import reading

    options = {"two_player_strategic_variant": True}
    flow = TableFlow(new_game("objective-cards", ["Ann", "Bob"], options),
                     TableLog("objective-cards", ["Ann", "Bob"], options), clock=Clock())
    flow.on_reading(reading([3, 3, 3, 5, 5]))
    flow.on_button(Press("OK"))                              # the dice accepted
    flow.on_button(Press("OK"))                              # Ann opens her secret menu
    flow.on_button(Press("OK"))                              # her first card
    assert flow.expect.player == 0 and flow.expect.secret and flow.view().prompt.options
    banner = flow.view().message.text
    assert "one more choice" in banner and banner.startswith("Ann"), banner
    flow.on_button(Press("OK"))                              # her second card
    assert flow.expect.player == 1 and flow.view().message.text == "Ann has chosen (kept secret)."


def test_objective_card_says_the_joker_is_always_met():
    """The Joker "automatically wins, regardless of the result of the dice" (spec §3, NB1): the
    card never said so, and a player could not tell it from the objectives the dice must make.
    Said as the rules have it: met by every throw, the worst included."""
    from controller.rules.objective_cards import satisfied

    assert all("JOKER" in satisfied(dice) for dice in ([1, 2, 4, 5, 6], [1, 2, 3, 5, 6], [6, 6, 6, 6, 6]))
    for variant in (False, True):
        card = " ".join(GAMES["objective-cards"].rules_card({"two_player_strategic_variant": variant}))
        assert "the Joker is always met" in card
