"""The runner's guards, one behaviour a test: each of these was found missing by mutation
testing (the runner could be broken there and every other test still passed)."""
from __future__ import annotations

import numpy as np

from controller.runner import TableRunner
from controller.table import CONFIRM
from table_helpers import Press
from test_table_flow_guards import die, make, reading, settle_and_confirm
from vision.settle import DiceMoved, SettleState
from vision.types import Die, Reading


class ScriptedTracker:
    """A settle tracker that reports what the test scripts, whatever the frames."""

    def __init__(self):
        self.events: list = []
        self.wants_reading = False
        self.state = SettleState.SETTLED

    def update(self, image, timestamp):
        return None

    def drain_events(self):
        out, self.events = self.events, []
        return out


def test_dice_slid_during_a_decision_reach_the_table_as_moved_not_as_a_new_reading():
    """The runner passes the tracker's DiceMoved on as such: the table then follows the slid
    dice and their holds follow them, which a mere new reading of the same values would not do."""
    flow, clock = make()
    tracker = ScriptedTracker()
    runner = TableRunner(flow, tracker, read=lambda frame: Reading(()))
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    flow.on_button(Press("HOLD1"))
    flow.on_button(Press("HOLD2"))
    slid = Reading((die(0, 2), die(1, 6), die(2, 6), die(3, 3), die(4, 5)))
    tracker.events.append(DiceMoved(slid, reading([6, 6, 2, 3, 5]), (0, 2), (), 1, 1.0))
    runner.feed_frame(np.zeros((48, 64), np.uint8), 1.0)
    assert flow.tray_values == [2, 6, 6, 3, 5] and flow.holds == [False, True, True, False, False]
    assert flow.message.text == "Dice moved: the dice held stay held."


def test_a_reader_that_fails_for_a_while_loses_no_throw():
    """A reader that raises becomes a bad frame (never an empty tray): when it works again, the
    dice lying still on the tray since the throw are read and offered, without anyone having
    to touch them."""
    from vision.settle import SettleConfig, SettleTracker
    from vision.synthetic import render_tray

    shot = render_tray([6, 6, 2, 3, 5], seed=21)
    dice = sorted(shot.truth, key=lambda d: d.centre[0])
    good = Reading(tuple(Die(d.value, d.box, d.centre, 0.95) for d in dice))
    calls = []

    def read(frame):
        calls.append(1)
        if len(calls) <= 6:
            raise RuntimeError("the model could not be loaded")
        return good

    flow, clock = make()
    config = SettleConfig()
    runner = TableRunner(flow, SettleTracker(config), read)
    empty = render_tray([], seed=21).image              # the tray before the throw (dice found
    for i in range(3):                                  # lying there from the start are no throw)
        runner.feed_frame(empty, i / 10)
    for i in range(3, 3 + config.still_frames + 6 + config.agree_readings + 2):
        runner.feed_frame(shot.image, i / 10)
    assert runner.camera_note() != "Tray empty"
    assert flow.phase == CONFIRM and flow.pending == good.values


def test_a_two_stream_camera_shows_the_tray_from_the_first_frame():
    """With a low-resolution stream for motion (picamera2), the screen has the tray to show from
    the first frame on, not only once the dice lie still; once a full frame was read, that one
    is shown (the dice outlined on it are in its coordinates)."""
    from vision.settle import SettleTracker
    from vision.synthetic import render_tray

    shot = render_tray([6, 6, 2, 3, 5], seed=21)
    full = shot.image
    lores = full[::4, ::4].copy()
    fetched = []

    def fetch_full():
        fetched.append(1)
        return full

    flow, clock = make()
    runner = TableRunner(flow, SettleTracker(), read=lambda frame: Reading(()))
    runner.feed_frame(lores, 0.0, full=fetch_full)
    assert runner.last_image is lores and not fetched
    for i in range(1, 4):
        runner.feed_frame(lores, i / 10, full=fetch_full)
    assert fetched and runner.last_image is full
