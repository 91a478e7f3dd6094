"""The tray's caption names whose throw it shows while a player decides with no dice to hold.

Betting Classic: everyone throws before the bets, so while Ann and Bob bet the tray holds Cy's
first throw. It read "Dice: A K J 10 9" under "Ann: check or bet", taken for Ann's hand.
"""
from __future__ import annotations

import numpy as np

from controller.table import DECIDE
from table_helpers import Press
from test_table_flow import make, settle_and_confirm

CAMERA = np.full((480, 640, 3), 90, np.uint8)


def caption(flow) -> str:
    return flow.view(CAMERA).tray.caption


def choose(flow, label: str) -> None:
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.label.startswith(label))
    flow.on_button(Press("OK"))


def test_betting_classic_bets_name_the_thrower_of_the_tray():
    flow, clock = make("classic", ("Ann", "Bob", "Cy"), {"variant": "betting"})
    for values in ([6, 6, 6, 6, 6], [5, 4, 3, 2, 1], [6, 5, 3, 2, 1]):   # Ann five aces; Cy's dice stay
        settle_and_confirm(flow, clock, values)
    assert flow.phase == DECIDE and flow.state.expects().player == 0
    assert caption(flow) == "Cy's throw: A K J 10 9"          # was "Dice: A K J 10 9", under Ann's bet
    choose(flow, "Bet 2")
    assert flow.state.expects().player == 1 and caption(flow) == "Cy's throw: A K J 10 9"
    choose(flow, "Call")
    assert flow.state.expects().player == 2 and caption(flow) == "Dice: A K J 10 9"   # Cy's own
    choose(flow, "Call")
    assert caption(flow) == "Ann's throw, as recorded: A A A A A"   # her keep: her dice, as before


def test_simple_pot_stakes_name_the_thrower_too():
    flow, clock = make("classic", ("Ann", "Bob"), {"variant": "betting", "betting_model": "simple_pot"})
    for values in ([1, 1, 2, 3, 4], [6, 6, 5, 5, 4]):
        settle_and_confirm(flow, clock, values)
    assert flow.state.expects().player == 0 and caption(flow) == "Bob's throw: A A K K Q"


def test_objective_cards_are_chosen_on_the_active_players_throw():
    flow, clock = make("objective-cards", ("Ann", "Bob"))
    settle_and_confirm(flow, clock, [3, 3, 3, 5, 5])
    assert flow.state.expects().player == 0 and caption(flow) == "Dice: 3 3 3 5 5"   # Ann's own
    flow.on_button(Press("OK"))                                   # Ann opens her secret menu
    choose(flow, "Full house")
    assert flow.state.expects().player == 1 and caption(flow) == "Ann's throw: 3 3 3 5 5"


def test_pok_n_roll_white_dice_are_nobodys_throw():
    flow, clock = make("poknroll", ("Ann", "Bob", "Cy"), {"decision_order": "sequential"})
    settle_and_confirm(flow, clock, [1, 3, 5])
    choose(flow, "Continue")
    assert flow.state.expects().player == 1 and caption(flow) == "Dice: 1 3 5"


def test_a_last_throw_decision_is_the_players_own():
    flow, clock = make("thirteen", ("Ann", "Bob"))
    settle_and_confirm(flow, clock, [2, 3, 4, 6, 6])
    assert caption(flow) == "Dice: 2 3 4 6 6"
