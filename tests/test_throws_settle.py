"""Careless throws at a camera's real frame rates: no reading is final while a die has yet to
fall over or roll on (vision/throw_bench.py sequences, real tracker and reader).

The tracker waited `still_frames` (5) still frames: half a second at 10 fps, but 0.17 s at
30 fps, so a die resting a moment on an edge was read final with the face it had before it fell
over. Sequence time only (the frames' timestamps): nothing here depends on the machine."""
from __future__ import annotations

import numpy as np
import pytest

from vision.reader import read
from vision.settle import SettleConfig, SettleState, SettleTracker
from vision.synthetic import render_scene, render_tray
from vision.throw_bench import play, plain, second_throw, stop_and_go, tip_over


@pytest.mark.parametrize("fps", [15, 20, 30])
@pytest.mark.parametrize("seq", [tip_over(0.35), stop_and_go(0.35)], ids=["tips over", "rolls on"])
def test_no_reading_is_final_while_a_die_is_still_to_fall_over_or_roll_on(seq, fps):
    out = play(seq, fps, read)
    assert out.premature == [], out.premature       # (before: the die's face before it fell, or its old place)
    assert out.missed == 0 and out.twice == 0 and out.wrong == 0


def test_the_same_throw_at_30_fps_with_frames_dropped_is_not_final_early():
    out = play(tip_over(0.35), 30, read, drop=0.4)
    assert out.premature == [] and out.missed == 0 and out.wrong == 0


@pytest.mark.parametrize("fps", [10, 30])
def test_the_wait_is_half_a_second_of_sequence_time_at_any_frame_rate(fps):
    """The price: a throw at 30 fps is final half a second after it stopped, as at 10 fps (it
    was 0.17 s), and a throw thrown again while the first is shown is read twice, once each."""
    out = play(second_throw(), fps, read)
    assert out.premature == [] and out.missed == 0 and out.twice == 0 and out.wrong == 0
    assert all(500 <= ms <= 600 for ms in out.latency_ms), out.latency_ms


def test_frames_alone_still_decide_when_still_seconds_is_0():
    out = play(plain(), 30, read, config=SettleConfig(still_seconds=0))
    assert out.latency_frames == [6] and out.premature == []


def test_timestamps_that_go_back_do_not_keep_a_still_tray_from_settling():
    """A camera whose clock restarts (timestamps from 1000 s back to 0): the tray still settles,
    half a second after the jump at the latest."""
    shot = render_tray([2, 4, 6], seed=5)
    tracker = SettleTracker()
    frames = [render_scene(shot.truth, seed=i).image for i in range(40)]
    times = [1000 + i / 30 for i in range(10)] + [i / 30 for i in range(30)]
    states = []
    for image, t in zip(frames, times):
        states.append(tracker.update(image, t))
        if tracker.wants_reading:
            tracker.offer(read(image), t)
    assert states[-1] is SettleState.SETTLED and tracker.final_reading() is not None
    assert sorted(d.value for d in tracker.final_reading().dice) == [2, 4, 6]


def test_still_seconds_out_of_range_is_refused():
    for bad in (-0.1, float("nan"), 11.0):
        with pytest.raises(ValueError, match="still_seconds"):
            SettleConfig(still_seconds=bad)
    assert np.isclose(SettleConfig().still_seconds, 0.5)
