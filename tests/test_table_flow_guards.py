"""The table flow's guards of trust, one behaviour a test: each of these was found missing by
mutation testing (the code could be broken there and every other test still passed).

A wrong value applied, a throw lost or a held die silently changed is the worst fault a dice
table can make: these tests script readings and presses as the players would (docs/table.md)
and check that the game is left exactly as it was whenever it should be."""
from __future__ import annotations

import json

import pytest

from controller.rules import new_game
from controller.table import CONFIRM, CORRECT, WAIT_DICE, TableFlow
from controller.tablelog import TableLog
from table_helpers import Clock, Press
from vision.types import Die, Problem, Reading


def die(i: int, value, confidence: float = 0.95, dx: int = 0) -> Die:
    x = 40 + 80 * i + dx
    return Die(value, (x, 40, x + 50, 90), (x + 25, 65), confidence)


def reading(values, problems=(), confidence=0.95) -> Reading:
    return Reading(tuple(die(i, v, confidence) for i, v in enumerate(values)), tuple(problems))


def make(game="thirteen", players=("Ann", "Bob"), options=None, **kw):
    clock = Clock()
    flow = TableFlow(new_game(game, list(players), options), TableLog(game, list(players), dict(options or {})),
                     clock=clock, **kw)
    return flow, clock


def snap(flow):
    return json.dumps(flow.state.snapshot(), sort_keys=True), len(flow.log.inputs)


def settle_and_confirm(flow, clock, values):
    flow.on_reading(reading(values))
    assert flow.phase == CONFIRM, flow.message
    clock.t += 2.0
    flow.tick()


# ---------------------------------------------------------------- a reading that must not count
def test_a_die_read_with_a_value_but_hardly_sure_is_not_taken():
    """The reader may put a value on a die it is far from sure of: the table does not take that
    guess (`MIN_CONFIDENCE`), it names the die and waits, and a long OK starts the correction
    from the dice as read."""
    flow, clock = make()
    before = snap(flow)
    dice = list(reading([6, 6, 2, 3, 5]).dice)
    dice[2] = die(2, 2, confidence=0.3)
    flow.on_reading(Reading(tuple(dice)))
    assert flow.phase == WAIT_DICE and snap(flow) == before
    assert "I cannot read die 3 for sure" in flow.message.text
    clock.t += 10
    flow.tick()
    assert snap(flow) == before                         # nothing counts by itself
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT and flow.pending == [6, 6, 2, 3, 5]


@pytest.mark.parametrize("code, message", [
    ("die_leaning", "die 2 is leaning on another"),
    ("foreign_object", "something that is not a die is in the tray"),
    ("partly_out_of_view", "die 5 is partly out of view"),
    ("blurred", "the image is blurred"),
    ("too_dark", "the tray is too dark"),
])
def test_a_tray_with_a_blocking_problem_is_not_taken_even_with_every_die_read(code, message):
    """docs/table.md: a leaning die, a die partly out of view, something that is not a die in
    the tray: "fix the tray or throw again, or hold OK to enter the values by hand". Every die
    having a value does not make such a tray a throw."""
    flow, clock = make()
    before = snap(flow)
    flow.on_reading(reading([6, 6, 2, 3, 5], problems=[Problem(code, message)]))
    assert flow.phase == WAIT_DICE and snap(flow) == before
    assert flow.message.level == "warning" and message[1:] in flow.message.text
    clock.t += 10
    flow.tick()
    assert snap(flow) == before


def test_the_camera_does_not_overrule_players_correcting_by_hand():
    """While the players correct a die with the buttons, a new still reading of the tray (the
    same misread) must not replace what they are entering."""
    flow, clock = make()
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    flow.on_button(Press("OK", "hold"))                 # correct: die 3 is really a 1
    flow.on_button(Press("HOLD3"))
    flow.on_button(Press("DOWN"))
    assert flow.pending == [6, 6, 1, 3, 5]
    flow.on_reading(reading([6, 6, 2, 3, 5]))           # the camera reads the tray again
    clock.t += 10
    flow.tick()
    assert flow.phase == CORRECT and flow.pending == [6, 6, 1, 3, 5] and flow.log.inputs == []
    flow.on_button(Press("OK", "hold"))
    assert flow.log.inputs[-1]["values"] == [6, 6, 1, 3, 5]
