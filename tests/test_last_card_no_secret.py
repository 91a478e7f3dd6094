"""Objective cards, round 10: the card a player has left is played, not chosen in secret.

Every played card is shown on the sheet (won, captured, discarded), so the last card in hand is
known to all. The table still had each player open a secret menu ("Bob: secret choice. Everyone
else, look away.", OK, then OK on the only card) and asked them to "choose your objective card in
secret". The journal's inputs are unchanged: the same choose, one per card.
"""
from __future__ import annotations

import numpy as np

from controller.rules import Decide, new_game
from controller.rules.base import choose_input, dice_input
from controller.table import DECIDE, TableFlow
from controller.tablelog import TableLog
from table_helpers import Clock, Press

DICE = [1, 1, 2, 2, 3]


def to_round_10(players, options=None):
    """A game played to round 10's first throw, each player giving the last card the menu lists."""
    state = new_game("objective-cards", players, options)
    inputs = []
    while state.round < 10 or state.phase == "first_roll":
        exp = state.expects()
        data = (dice_input(exp.player, DICE[:exp.count]) if not isinstance(exp, Decide)
                else choose_input(exp.player, exp.options[-1].key))
        state = state.apply(data)
        inputs.append(data)
    return state, inputs


def test_round_10_card_is_played_in_the_open_with_its_name():
    state, _ = to_round_10(["Ann", "Bob", "Cy"])
    exp = state.expects()
    assert isinstance(exp, Decide) and not exp.secret and [o.key for o in exp.options] == ["JOKER"]
    assert exp.prompt == f"{state.players[exp.player]}: play your last card: Joker (1), known to all"


def test_round_9_is_still_a_secret_choice():
    state = new_game("objective-cards", ["Ann", "Bob"])
    while state.round < 9 or state.phase == "first_roll":
        exp = state.expects()
        state = state.apply(dice_input(exp.player, DICE[:exp.count]) if not isinstance(exp, Decide)
                            else choose_input(exp.player, exp.options[-1].key))
    assert state.expects().secret and "in secret" in state.expects().prompt


def test_two_player_variant_last_two_cards_are_named():
    state, _ = to_round_10(["Ann", "Bob"], {"two_player_strategic_variant": True})
    exp = state.expects()
    assert not exp.secret and "play your last cards: Joker (1) and Joker (1), known to all" in exp.prompt


def test_the_table_asks_no_look_away_for_the_last_card():
    state, inputs = to_round_10(["Ann", "Bob"])
    log = TableLog("objective-cards", ["Ann", "Bob"], {}, inputs)
    flow = TableFlow(state, log, clock=Clock())
    assert flow.phase == DECIDE
    camera = np.full((480, 640, 3), 90, np.uint8)
    view = flow.view(camera)
    assert "look away" not in view.prompt.text and "secret" not in view.prompt.text.split("(")[0]
    chooser = flow.state.expects().player
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == "JOKER")
    flow.on_button(Press("OK"))                              # one press plays it
    assert flow.log.inputs[-1] == {"type": "choose", "player": chooser, "option": "JOKER"}
