"""Pok'n Roll: a player left alone in the hand decides in the open.

Simultaneous abandon-or-continue choices are secret so that nobody can react to another's; with
one player still in there is nobody to react, and the choice shows at once (the cup lifted, or
the next white die thrown). The table still had him open a secret menu ("Cy: secret choice.
Everyone else, look away.", OK, then his choice).
"""
from __future__ import annotations

import numpy as np

from controller.rules import Decide, new_game
from controller.rules.base import choose_input, dice_input
from controller.table import DECIDE, TableFlow
from controller.tablelog import TableLog
from table_helpers import Clock, Press

PLAYERS = ["Ann", "Bob", "Cy"]
#: hand 1: white 1 3 5; Ann and Bob abandon in turn 1 (their cups 3 3 and 2 4), Cy continues; white 6
MOVES = [dice_input(0, [1, 3, 5]), choose_input(0, "ABANDON"), choose_input(1, "ABANDON"),
         choose_input(2, "CONTINUE"), dice_input(0, [3, 3]), dice_input(1, [2, 4]), dice_input(0, [6])]


def alone_at_turn_2():
    state = new_game("poknroll", PLAYERS)
    for data in MOVES:
        state = state.apply(data)
    return state


def test_the_lone_player_in_decides_in_the_open():
    exp = alone_at_turn_2().expects()
    assert isinstance(exp, Decide) and exp.player == 2
    assert not exp.secret and exp.prompt == "Cy: abandon or continue? (turn 2)"


def test_two_players_in_still_decide_in_secret():
    state = new_game("poknroll", PLAYERS)
    for data in MOVES[:2]:
        state = state.apply(data)
    exp = state.expects()
    assert exp.player == 1 and exp.secret and exp.prompt.endswith("(turn 1, secret)")


def test_the_table_asks_nobody_to_look_away():
    flow = TableFlow(alone_at_turn_2(), TableLog("poknroll", PLAYERS, {}, list(MOVES)), clock=Clock())
    assert flow.phase == DECIDE
    view = flow.view(np.full((480, 640, 3), 90, np.uint8))
    assert "look away" not in view.prompt.text
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == "CONTINUE")
    flow.on_button(Press("OK"))                                   # one press decides
    assert flow.log.inputs[-1] == {"type": "choose", "player": 2, "option": "CONTINUE"}
