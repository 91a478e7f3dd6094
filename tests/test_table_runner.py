"""The runner between camera, settle tracker, reader and flow, with a reader that cannot make up
its mind: the table must say so and move on, never wait in silence, never change the game."""
from __future__ import annotations

import json

from controller.rules import new_game
from controller.runner import TableRunner
from controller.table import CONFIRM, WAIT_DICE, TableFlow
from controller.tablelog import TableLog
from vision.settle import SettleConfig, SettleState, SettleTracker
from vision.synthetic import render_tray
from vision.types import Die, Reading


def test_a_die_read_differently_frame_to_frame_is_asked_about_not_waited_on():
    shot = render_tray([6, 6, 2, 3, 5], seed=21)
    dice = sorted(shot.truth, key=lambda d: d.centre[0])
    # (each reading gives every die its true value, except die 3, read 2 and 1 by turns)
    readings = [Reading(tuple(Die(d.value if i != 2 else alt, d.box, d.centre, 0.9)
                              for i, d in enumerate(dice))) for alt in (2, 1)]
    calls = []

    def read(frame):
        calls.append(1)
        return readings[len(calls) % 2]

    state = new_game("thirteen", ["Ann", "Bob"], None)
    flow = TableFlow(state, TableLog("thirteen", ["Ann", "Bob"], {}))
    before = json.dumps(state.snapshot(), sort_keys=True)
    config = SettleConfig()
    runner = TableRunner(flow, SettleTracker(config), read)
    notes = []
    for i in range(config.still_frames + config.unsure_after + 2):
        runner.feed_frame(shot.image, i / 10)
        notes.append(runner.camera_note())
    assert len(calls) == config.unsure_after           # readings stop once one is final
    assert "Readings disagree: straighten the dice or throw again" in notes   # said while waiting
    assert notes[-1] == ""
    assert flow.phase == WAIT_DICE
    assert "Die 3 reads 1 or 2" in flow.message.text and "hold OK" in flow.message.text
    assert json.dumps(flow.state.snapshot(), sort_keys=True) == before and flow.log.inputs == []


def test_a_coin_in_the_tray_is_named_and_the_throw_is_read_once_it_is_out():
    """A coin lying among the dice (real reader): not read as a die, the table says something
    that is not a die is in the tray and waits, the game untouched; once it is taken out, the
    same five dice are read and the throw is offered."""
    import numpy as np
    from round_things import paint_round_thing

    from vision.reader import read

    shot = render_tray([6, 6, 2, 3, 5], seed=21)
    side = float(np.median([d.box[2] - d.box[0] for d in shot.truth]))
    h, w = shot.image.shape[:2]
    spot = max(((x, y) for x in np.linspace(60, w - 60, 12) for y in np.linspace(60, h - 60, 9)),
               key=lambda p: min(np.hypot(p[0] - d.centre[0], p[1] - d.centre[1]) for d in shot.truth))
    with_coin = shot.image.copy()
    paint_round_thing(with_coin, spot, 0.5 * side, "coin", np.random.default_rng(1))
    assert min(np.hypot(spot[0] - d.centre[0], spot[1] - d.centre[1]) for d in shot.truth) > 1.5 * side

    state = new_game("thirteen", ["Ann", "Bob"], None)
    flow = TableFlow(state, TableLog("thirteen", ["Ann", "Bob"], {}))
    before = json.dumps(state.snapshot(), sort_keys=True)
    config = SettleConfig()
    runner = TableRunner(flow, SettleTracker(config), read)
    for i in range(config.still_frames + config.agree_readings + 3):
        runner.feed_frame(with_coin, i / 10)
    assert runner.camera_note() == "Something that is not a die is in the tray"
    assert flow.phase == WAIT_DICE and flow.last_reading is None
    assert json.dumps(flow.state.snapshot(), sort_keys=True) == before and flow.log.inputs == []
    t0 = 10.0
    for i in range(config.still_frames + config.agree_readings + 3):
        runner.feed_frame(shot.image, t0 + i / 10)
    assert runner.camera_note() == ""
    assert sorted(d.value for d in runner.tracker.final_reading().dice) == [2, 3, 5, 6, 6]
    assert flow.phase == CONFIRM and sorted(flow.pending) == [2, 3, 5, 6, 6]


def test_a_still_tray_is_not_called_moving_while_the_tracker_makes_up_its_mind():
    """The demo's first screenshot (and a table just started) showed an empty, still tray
    captioned "Dice moving..."; it says so only once something has moved."""
    import numpy as np

    state = new_game("thirteen", ["Ann", "Bob"], None)
    flow = TableFlow(state, TableLog("thirteen", ["Ann", "Bob"], {}))
    runner = TableRunner(flow, SettleTracker(SettleConfig()), lambda frame: Reading(()))
    empty = np.full((240, 320, 3), 90, np.uint8)
    runner.feed_frame(empty, 0.0)
    assert runner.tracker.state == SettleState.MOVING and runner.camera_note() == ""
    runner.feed_frame(empty, 0.1)
    assert runner.camera_note() == ""
    hand = empty.copy()
    hand[60:180, 80:240] = 250
    runner.feed_frame(hand, 0.2)
    assert runner.camera_note() == "Dice moving..."
