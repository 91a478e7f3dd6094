"""The runner between camera, settle tracker, reader and flow, with a reader that cannot make up
its mind: the table must say so and move on, never wait in silence, never change the game."""
from __future__ import annotations

import json

import pytest

from controller.rules import new_game
from controller.runner import TableRunner
from controller.table import CONFIRM, DECIDE, WAIT_DICE, TableFlow
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
    runner.feed_frame(render_tray([], seed=21).image, -0.1)     # the tray empty, then the throw
    notes, advice = [], []
    for i in range(config.still_frames + config.unsure_after + 2):
        runner.feed_frame(shot.image, i / 10)
        notes.append(runner.camera_note())
        advice.append(runner.tray_advice())
    assert len(calls) == config.unsure_after           # readings stop once one is final
    assert "Readings disagree" in notes                 # said while waiting, in the caption's one line
    assert any(a is not None and "straighten the dice or throw again" in a.text for a in advice)  # and what to do
    assert notes[-1] == "" and advice[-1] is None
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


def _table(game="thirteen", players=("Ann", "Bob"), options=None, read=None):
    """A table with the real reader (or `read`) and tracker, on a clock that moves only with the frames."""
    from controller.runner import VirtualClock

    from vision.reader import read as real_read

    read = read or real_read

    clock = VirtualClock()
    flow = TableFlow(new_game(game, list(players), options), TableLog(game, list(players), dict(options or {})),
                     clock=clock)
    runner = TableRunner(flow, SettleTracker(SettleConfig()), read)
    t = [0.0]

    def feed(image, frames=1):
        for _ in range(frames):
            t[0] += 0.1
            clock.advance(0.1)
            runner.feed_frame(image, t[0])
            flow.tick()

    return flow, runner, feed


def _scene(dice, seed, hand=None):
    from vision.synthetic import render_scene

    return render_scene(dice, seed=seed, hand=hand).image


def _throw(feed, values, seed, held=()):
    """A throw: the hand and the tumbling dice, then the dice at rest. Returns the dice as they lie."""
    shot = render_tray(values, held=held, seed=seed)
    feed(render_tray(values, held=held, seed=seed, hands=True, motion_blur=12).image, 3)
    feed(shot.image, 12)
    return shot.truth


def _choose(flow, runner, label):
    from table_helpers import Press

    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.label.startswith(label))
    runner.feed_button(Press("OK"))


@pytest.mark.parametrize("reach", [150, 330], ids=["a die nudged", "a hand sweeping over"])
def test_the_last_players_dice_nudged_are_not_the_next_players_throw(reach):
    """Ann has scored; Bob reaches into the tray for the dice and moves one of hers. Before,
    her dice were read again as Bob's throw (a small nudge was taken for a gentle throw, a large
    hand for a new one) and applied after the usual moment."""
    import dataclasses

    from vision.synthetic import HandSpec

    flow, runner, feed = _table()
    ann = _throw(feed, [6, 6, 2, 3, 5], seed=21)
    feed(_scene(ann, 1), 20)
    assert flow.phase == DECIDE
    _choose(flow, runner, "Chance")
    assert flow.state.expects().player == 1 and len(flow.log.inputs) == 2
    nudged = list(ann)
    nudged[4] = dataclasses.replace(ann[4], centre=(ann[4].centre[0] + 50, ann[4].centre[1] + 60))
    feed(_scene(nudged, 2, HandSpec(edge="bottom", pos=0.3, reach=reach, width=80 if reach < 200 else 160)), 2)
    feed(_scene(nudged, 3), 25)
    assert flow.phase == WAIT_DICE and len(flow.log.inputs) == 2
    assert "only moved, not thrown" in flow.message.text
    bob = _throw(feed, [1, 1, 4, 4, 2], seed=55)          # Bob's own throw counts
    feed(_scene(bob, 3), 20)
    last = flow.log.inputs[-1]
    assert last["player"] == 1 and sorted(last["values"]) == [1, 1, 2, 4, 4]


def _at(size):
    """A camera plugged back that sends `size` frames: each picture of the 640x480 scenes at that size,
    or, for another shape, the middle of it that shape (another crop of the sensor) at that size."""
    import cv2

    def picture(image):
        h = int(round(640 * size[1] / size[0]))
        top = (480 - h) // 2
        return cv2.resize(image[top:top + h], size, interpolation=cv2.INTER_AREA)

    return picture


@pytest.mark.parametrize("size, said", [((1280, 960), "only moved, not thrown"), ((320, 240), "only moved, not thrown"),
                                        ((1280, 720), "were there before")],
                         ids=["twice the size", "half the size", "another shape"])
def test_dice_lying_as_played_are_not_a_throw_when_the_camera_comes_back_at_another_size(size, said):
    """The camera plugged back sends another size (another mode of the same webcam, or another
    camera); a hand then sweeps over Ann's dice. Before, the places of her dice, kept in the old
    frames' pixels, matched none of the new frames, and her dice were taken as Bob's throw. The
    same view at another size is scaled; another shape cannot be placed, and the dice are taken as
    found lying there, as after a power cut. Bob's own throw then counts."""
    from vision.synthetic import HandSpec

    flow, runner, feed = _table()
    ann = _throw(feed, [6, 6, 2, 3, 5], seed=110)
    feed(_scene(ann, 1), 20)
    _choose(flow, runner, "Chance")
    assert len(flow.log.inputs) == 2
    now = _at(size)
    feed(now(_scene(ann, 2, HandSpec(edge="bottom", pos=0.3, reach=330, width=160))), 2)
    feed(now(_scene(ann, 3)), 25)
    assert flow.phase == WAIT_DICE and len(flow.log.inputs) == 2
    assert said in flow.message.text
    bob = render_tray([1, 1, 4, 4, 2], seed=129)
    feed(now(render_tray([1, 1, 4, 4, 2], seed=129, hands=True, motion_blur=12).image), 3)
    feed(now(bob.image), 32)
    last = flow.log.inputs[-1]
    assert last["player"] == 1 and sorted(last["values"]) == [1, 1, 2, 4, 4]


def test_the_hold_numbers_stay_on_their_dice_when_the_camera_comes_back_at_another_size():
    """Ann decides; the camera, plugged back, sends the same view at 1280x960. Before, the dice's
    marks and HOLD numbers were drawn at their old pixels on the new picture, bunched in its top
    left quarter over the wrong dice (no reading comes while the dice lie still to move them)."""
    flow, runner, feed = _table()
    ann = _throw(feed, [6, 6, 2, 3, 5], seed=21)
    feed(_scene(ann, 1), 20)
    assert flow.phase == DECIDE
    feed(_at((1280, 960))(_scene(ann, 1)), 25)
    marks = flow.view(runner.last_image).tray.dice
    dice = [tuple(2 * v for v in d.box) for d in ann]
    assert len(marks) == 5 and all(any(_inside(m.box, d) for d in dice) for m in marks)


def _inside(box, die) -> bool:
    """Whether the centre of `box` lies on `die` (both x0, y0, x1, y1)."""
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return die[0] <= x <= die[2] and die[1] <= y <= die[3]


def test_a_calibration_is_scaled_or_refused_as_the_cameras_size_changes_mid_game():
    """docs/table.md: a calibration taken at another size of the same view is scaled to the
    camera's frames, one of another shape is not used and the screen says so. Checked when the size
    changes mid-game, after a camera is plugged back: at twice the size the dice read as before and
    nothing is said; at another shape the staff are told, and the game goes on."""
    from vision.reader import read

    calibration = {"frame_size": [640, 480], "tray": [0, 0, 640, 480], "die_px": 44.0}
    flow, runner, feed = _table(read=lambda image: read(image, calibration))
    ann = _throw(feed, [6, 6, 2, 3, 5], seed=110)
    feed(_scene(ann, 1), 20)
    _choose(flow, runner, "Chance")
    big = _at((1280, 960))
    bob = render_tray([1, 1, 4, 4, 2], seed=129)
    feed(big(render_tray([1, 1, 4, 4, 2], seed=129, hands=True, motion_blur=12).image), 3)
    feed(big(bob.image), 32)
    assert sorted(flow.log.inputs[-1]["values"]) == [1, 1, 2, 4, 4]
    assert "calibration_size" not in runner.last_problems
    _choose(flow, runner, "Chance")
    wide = _at((1280, 720))
    ann2 = render_tray([3, 3, 3, 5, 6], seed=141)
    feed(wide(render_tray([3, 3, 3, 5, 6], seed=141, hands=True, motion_blur=12).image), 3)
    for _ in range(30):
        feed(wide(ann2.image))
        if flow.phase == CONFIRM:
            break
    assert "another camera view (1280x720): calibrate again" in flow.message.text      # (the log: the reader's words)
    feed(wide(ann2.image), 30)
    assert flow.log.inputs[-1]["player"] == 0 and sorted(flow.log.inputs[-1]["values"]) == [3, 3, 3, 5, 6]


def test_dice_taken_out_then_lying_just_as_before_are_a_new_throw():
    """Once the tray was seen empty, the dice were picked up: the next player's dice count
    wherever they lie, even (as with a fixture image shown twice) just where the last ones lay."""
    flow, runner, feed = _table()
    ann = _throw(feed, [6, 6, 2, 3, 5], seed=21)
    feed(_scene(ann, 1), 20)
    _choose(flow, runner, "Chance")
    feed(render_tray([], seed=3).image, 15)
    assert runner.tracker.state == SettleState.EMPTY
    feed(_scene(ann, 4), 25)
    last = flow.log.inputs[-1]
    assert last["player"] == 1 and sorted(last["values"]) == [2, 3, 5, 6, 6]


@pytest.mark.parametrize("reach,width", [(120, 80), (420, 170)], ids=["a small hand", "a large hand"])
def test_a_die_knocked_while_a_player_holds_dice_leaves_their_holds_on_the_same_dice(reach, width):
    """Ann holds her two sixes; a hand knocks the 2 across the tray (it is now the leftmost die,
    so every die's number changes). Before, every hold was released ("check which dice are held")
    and the menu's first line became "Throw 5 again": one OK threw the sixes away too. A hand
    large enough for the tracker to call it a new throw left the 2's mark and HOLD number on the
    empty spot where it had been."""
    import dataclasses

    from table_helpers import Press
    from vision.synthetic import HandSpec

    flow, runner, feed = _table()
    ann = _throw(feed, [6, 6, 2, 3, 5], seed=21)
    feed(_scene(ann, 1), 20)
    for i, v in enumerate(flow.tray_values):
        if v == 6:
            runner.feed_button(Press(f"HOLD{i + 1}"))
    knocked = list(ann)
    two = ann[2]
    knocked[2] = dataclasses.replace(two, centre=(90.0, two.centre[1] + 250))
    feed(_scene(knocked, 2, HandSpec(edge="left", pos=0.8, reach=reach, width=width)), 2)
    feed(_scene(knocked, 3), 20)
    assert flow.tray_values[0] == 2                    # the knocked die is now die 1
    x0, y0, x1, y1 = flow.view().tray.dice[0].box      # marked where it lies now
    assert abs((x0 + x1) / 2 - 90) < 10 and abs((y0 + y1) / 2 - two.centre[1] - 250) < 10
    assert sorted(v for v, h in zip(flow.tray_values, flow.holds) if h) == [6, 6]
    assert flow.menu()[0].label == "Throw 3 again"
    assert flow.message.text == "Dice moved: the dice held stay held."


def test_a_held_die_the_camera_never_reads_keeps_the_value_the_players_set():
    """The camera cannot read Ann's 3 (a worn face): she sets it by hand, holds it with her
    sixes and throws the other two. Before, the same die stopped the next throw too ("I cannot
    read die 3 for sure", and the hand entry offered it as a 1); it now keeps the value set,
    outlined for the players to check, as long as it lies where it lay."""
    import dataclasses

    from table_helpers import Press
    from vision.reader import read as real_read

    ann = render_tray([6, 6, 2, 3, 5], seed=21).truth
    three = next(d for d in ann if d.value == 3)

    def read(image):
        r = real_read(image)
        return dataclasses.replace(r, dice=tuple(
            dataclasses.replace(d, value=None, confidence=0.0) if abs(d.centre[0] - three.centre[0]) < 15
            and abs(d.centre[1] - three.centre[1]) < 15 else d for d in r.dice))

    flow, runner, feed = _table(read=read)
    _throw(feed, [6, 6, 2, 3, 5], seed=21)
    assert "cannot read die" in flow.message.text
    runner.feed_button(Press("OK", "hold"))
    k = next(i for i, b in enumerate(flow.pending_boxes) if abs((b[0] + b[2]) / 2 - three.centre[0]) < 15)
    for name in (f"HOLD{k + 1}", "UP", "UP"):      # the unread die's stand-in 1 -> 3
        runner.feed_button(Press(name))
    runner.feed_button(Press("OK", "hold"))
    assert sorted(flow.log.inputs[-1]["values"]) == [2, 3, 5, 6, 6]
    for i, v in enumerate(flow.tray_values):
        if v in (6, 3):
            runner.feed_button(Press(f"HOLD{i + 1}"))
    _choose(flow, runner, "Throw 2")
    kept = [d for d in ann if d.value in (6, 3)]
    second = _throw(feed, [1, 2], seed=90, held=kept)
    assert flow.phase == CONFIRM and sorted(flow.pending) == [1, 2, 3, 6, 6]
    assert "Check die" in flow.view().prompt.text                   # outlined, to be checked
    feed(_scene(second, 1), 50)
    last = flow.log.inputs[-1]
    assert last["player"] == 0 and sorted(last["values"]) == [1, 2]


@pytest.mark.parametrize("reach,width", [(120, 80), (420, 170)], ids=["a small hand", "a large hand"])
def test_a_die_turned_over_by_a_hand_during_a_decision_is_named_by_its_number_on_screen(reach, width):
    """A hand knocks Ann's 2 onto a 4 while she decides. With a hand large enough for the tracker
    to call it a new throw, the table said "Ann: decide first (OK on the menu), then throw":
    nobody had thrown."""
    import dataclasses

    from vision.synthetic import HandSpec

    flow, runner, feed = _table()
    ann = _throw(feed, [6, 6, 2, 3, 5], seed=21)
    feed(_scene(ann, 1), 20)
    before = list(flow.tray_values)
    turned = list(ann)
    two = ann[2]
    turned[2] = dataclasses.replace(two, value=4, centre=(two.centre[0] - 30, two.centre[1] + 60))
    feed(_scene(turned, 2, HandSpec(edge="right", pos=0.5, reach=reach, width=width)), 2)
    feed(_scene(turned, 3), 20)
    number = before.index(2) + 1
    assert flow.message.text == (f"Die {number} was turned over. The game keeps {' '.join(str(v) for v in before)}: "
                                 "put it back as it was, or to throw it again choose that on the menu first.")
    assert flow.tray_values == before and len(flow.log.inputs) == 1


def test_dice_lying_in_the_tray_when_the_table_starts_are_not_the_first_throw():
    """A new game (or one resumed after a power cut) with the dice of the game before still in
    the tray: nothing moved, yet they were read and applied as Ann's first throw after the
    usual moment. They are not a throw; nudged, they are still not one; thrown, they count."""
    import dataclasses

    from vision.synthetic import HandSpec

    flow, runner, feed = _table()
    left = render_tray([6, 6, 2, 3, 5], seed=21)
    feed(left.image, 40)
    assert flow.phase == WAIT_DICE and flow.log.inputs == []
    assert "were there before: they do not count. Ann: throw all 5 dice." in flow.message.text
    assert flow.view().prompt.text.startswith("Ann: throw all 5 dice")       # (the same words)
    nudged = list(left.truth)
    nudged[0] = dataclasses.replace(nudged[0], centre=(nudged[0].centre[0] + 40, nudged[0].centre[1] + 50))
    feed(_scene(nudged, 2, HandSpec(edge="bottom", pos=0.5, reach=150, width=80)), 2)
    feed(_scene(nudged, 3), 40)
    assert flow.phase == WAIT_DICE and flow.log.inputs == []
    ann = _throw(feed, [1, 1, 4, 4, 2], seed=55)
    feed(_scene(ann, 3), 20)
    assert flow.log.inputs[-1]["player"] == 0 and sorted(flow.log.inputs[-1]["values"]) == [1, 1, 2, 4, 4]


# ------------------------------------------------------------------------------ the log's growth
def _failing_runner(clock):
    from vision.reader import read

    flow = TableFlow(new_game("classic", ["Ann", "Bob"]), TableLog("classic", ["Ann", "Bob"]), clock=clock)
    return flow, TableRunner(flow, SettleTracker(SettleConfig()), read)


def test_a_frame_that_fails_at_every_frame_is_logged_once_then_counted_not_a_traceback_each(caplog):
    """A camera sending frames the tracker refuses (2x2 pixels) logged a traceback for every frame:
    `dicetable run` with such a camera wrote 227 KB of log in 17 s (a gigabyte a day on the card,
    the rest of the log pushed out of journald). Now: the first with its traceback, then the 10th,
    100th and 1,000th in a row, and once when frames work again; the screen says it all along."""
    import logging

    import numpy as np

    from table_helpers import Clock

    clock = Clock()
    flow, runner = _failing_runner(clock)
    with caplog.at_level(logging.INFO):
        for i in range(1000):
            clock.t += 0.05
            runner.feed_frame(np.zeros((2, 2, 3), np.uint8), clock.t)
        assert flow.view().message.text.startswith("Camera image could not be used (ValueError)")
        runner.feed_frame(np.zeros((480, 640, 3), np.uint8), clock.t + 0.05)
    said = [r.getMessage() for r in caplog.records]
    assert said == ["a camera frame could not be processed",
                    "Camera image could not be used (ValueError); waiting for the next one.",
                    *(f"a camera frame could not be processed, again: {n} times in a row (ValueError: frame must be a "
                      "grey or BGR image array of at least 4x4 pixels)" for n in (10, 100, 1000)),
                    "a camera frame could not be processed: works again after 1000 failures in a row"]
    assert caplog.records[0].exc_info is not None                  # (the first with its traceback)


@pytest.mark.parametrize("n, logged", [(1, True), (2, False), (9, False), (10, True), (11, False), (100, True),
                                       (110, False), (1000, True), (20, False)])
def test_a_repeated_failure_is_logged_at_powers_of_ten(n, logged):
    from controller.runner import _power_of_ten

    assert _power_of_ten(n) is logged
