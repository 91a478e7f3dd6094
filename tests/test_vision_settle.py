"""Settle tracker: states from rendered frames, finality from hand-built readings."""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from vision.conditions import flicker_bands
from vision.settle import (
    DiceMoved, FinalReading, SettleConfig, SettleState, SettleTracker, StateChanged, readings_agree,
)
from vision.synthetic import HandSpec, ThrowAnimation, render_scene, render_tray
from vision.types import DIE_LEANING, FOREIGN_OBJECT, UNSURE_VALUE, Die, Problem, Reading, TrueDie

K = SettleConfig().still_frames
M = SettleConfig().agree_readings


def reading_of(truth: list[TrueDie], values: list[int] | None = None, problems=()) -> Reading:
    """What a perfect reader would say about these dice (left to right)."""
    dice = sorted(truth, key=lambda d: d.centre[0])
    vals = values if values is not None else [d.value for d in dice]
    return Reading(tuple(Die(v, d.box, d.centre, 0.95) for v, d in zip(vals, dice)), tuple(problems))


def feed(tracker: SettleTracker, frames, t0: float = 0.0, reading: Reading | None = None):
    """Update with each frame (10 fps) and offer `reading` whenever the tracker wants one."""
    states, events = [], []
    for i, frame in enumerate(frames):
        states.append(tracker.update(frame, t0 + i / 10))
        if reading is not None and tracker.wants_reading:
            tracker.offer(reading)
        events += tracker.drain_events()
    return states, events


def still_frames(truth: list[TrueDie], n: int, seed0: int = 100, **kw):
    return [render_scene(truth, seed=seed0 + i, **kw).image for i in range(n)]


def settled_scene(values=(3, 5, 1, 6), seed=11):
    shot = render_tray(list(values), seed=seed)
    tracker = SettleTracker()
    states, events = feed(tracker, still_frames(shot.truth, K + M + 1), reading=reading_of(shot.truth))
    assert tracker.final_reading() is not None
    return shot, tracker


def test_empty_tray_is_empty():
    tracker = SettleTracker()
    frames = [render_tray([], seed=i).image for i in range(K + 3)]
    states, _ = feed(tracker, frames)
    assert states[0] is SettleState.MOVING          # nothing known yet
    assert states[K - 1] is SettleState.MOVING
    assert states[K] is SettleState.EMPTY and states[-1] is SettleState.EMPTY
    assert tracker.final_reading() is None


def test_empty_readings_make_a_final_empty_tray():
    tracker = SettleTracker()
    feed(tracker, [render_tray([], seed=i).image for i in range(K + M)], reading=Reading(()))
    assert tracker.state is SettleState.EMPTY
    assert tracker.final_reading() == Reading(())
    assert not tracker.wants_reading


def test_throw_is_moving_then_settled_with_final_only_after_agreement():
    anim = ThrowAnimation([3, 5, 1, 6], held=[2], seed=3)
    good = reading_of(anim.final.truth)
    tracker = SettleTracker()
    rng = np.random.default_rng(0)
    offered_still = 0
    finals = []
    for i, (phase, frame) in enumerate(anim.frames_with_phase()):
        state = tracker.update(frame, i / 10)
        if phase in ("hand", "tumble"):
            assert state is SettleState.MOVING, (i, phase)
            assert tracker.final_reading() is None
            # a reading taken mid-throw (random faces) is refused
            assert tracker.offer(reading_of(anim.final.truth, list(rng.integers(1, 7, 5)))) is None
        if phase == "still" and tracker.wants_reading:
            tracker.offer(good)
            offered_still += 1
        for e in tracker.drain_events():
            if isinstance(e, FinalReading):
                finals.append((i, e))
                assert tracker.still_frames >= K
                assert offered_still >= M
    assert tracker.state is SettleState.SETTLED
    assert len(finals) == 1
    _, event = finals[0]
    assert event.throw == 1
    assert event.reading.values == good.values
    assert tracker.final_reading() == good


def test_disagreeing_readings_are_not_final_until_the_flicker_rule():
    shot = render_tray([3, 5, 1], seed=5)
    tracker = SettleTracker(SettleConfig(unsure_after=0))   # the rule off: agreement or nothing
    frames = still_frames(shot.truth, K + 8)
    a = reading_of(shot.truth)
    b = flipped(a, 1, 6)                               # one value flips back and forth
    for i, frame in enumerate(frames):
        tracker.update(frame, i / 10)
        tracker.offer(a if i % 2 else b)
    assert tracker.state is SettleState.SETTLED
    assert tracker.final_reading() is None and tracker.unsteady
    assert not any(isinstance(e, FinalReading) for e in tracker.drain_events())
    for i in range(M):                                # now they agree
        tracker.update(frames[i], 2 + i / 10)
        tracker.offer(a)
    assert tracker.final_reading() == a and not tracker.unsteady


def flicker(tracker: SettleTracker, frames, readings) -> list[tuple[int, FinalReading]]:
    """Update with each frame and offer the readings in turn whenever the tracker wants one;
    the FinalReading events, each with how many readings had been offered."""
    finals, offered = [], 0
    for i, frame in enumerate(frames):
        tracker.update(frame, i / 10)
        if tracker.wants_reading:
            tracker.offer(readings[offered % len(readings)])
            offered += 1
        finals += [(offered, e) for e in tracker.drain_events() if isinstance(e, FinalReading)]
    return finals


def flipped(r: Reading, k: int, value: int) -> Reading:
    return Reading(tuple(dataclasses.replace(d, value=value) if i == k else d for i, d in enumerate(r.dice)))


def test_a_die_whose_value_flickers_is_final_unread_after_unsure_after_readings():
    """A still tray must not wait for ever because one hard face reads 3 in one frame, 4 in the
    next: after `unsure_after` readings that place the same dice, that die is reported unread."""
    shot = render_tray([3, 5, 1], seed=5)
    a = reading_of(shot.truth)
    v = a.dice[1].value
    b = flipped(a, 1, v % 6 + 1)
    n = SettleConfig().unsure_after
    tracker = SettleTracker()
    ((offered, final),) = flicker(tracker, still_frames(shot.truth, K + n + 3), [a, b])
    assert offered == n                                 # not one reading early, nor late
    assert final.throw == 1
    got = final.reading
    assert [d.value for d in got.dice] == [a.dice[0].value, None, a.dice[2].value]
    middle = got.dice[1]
    assert middle.confidence == 0.0 and UNSURE_VALUE in middle.problems
    assert middle.box == a.dice[1].box
    (p,) = [p for p in got.problems if p.code == UNSURE_VALUE]
    assert f"die 2 reads {min(v, v % 6 + 1)} or {max(v, v % 6 + 1)}" in p.message and p.box == a.dice[1].box
    assert tracker.state is SettleState.SETTLED and not tracker.unsteady
    assert not tracker.wants_reading


@pytest.mark.parametrize("case", ["count", "moved", "hand"])
def test_readings_that_differ_otherwise_never_become_final(case):
    """The flicker rule is only for values: a die seen in some frames only, a die that moved
    between readings or a hand in the tray still waits (and the tray says it is unsteady)."""
    shot = render_tray([3, 5, 1], seed=5)
    a = reading_of(shot.truth)
    d1 = a.dice[1]
    b = flipped(a, 1, 6)
    if case == "count":
        other = Reading(a.dice[:2])
    elif case == "moved":
        side = d1.box[2] - d1.box[0]
        other = Reading((b.dice[0], dataclasses.replace(b.dice[1], centre=(d1.centre[0] + 0.5 * side, d1.centre[1])),
                         b.dice[2]))
    else:
        other = Reading(b.dice, (Problem(FOREIGN_OBJECT, "hand"),))
    tracker = SettleTracker()
    assert flicker(tracker, still_frames(shot.truth, K + 3 * SettleConfig().unsure_after), [a, other]) == []
    assert tracker.final_reading() is None
    if case != "hand":
        assert tracker.unsteady


def test_unsure_after_must_leave_room_for_agreement():
    with pytest.raises(ValueError):
        SettleConfig(agree_readings=3, unsure_after=3)
    assert SettleConfig(unsure_after=0).unsure_after == 0


def test_moved_boxes_or_foreign_object_block_agreement():
    shot = render_tray([2, 4], seed=6)
    a = reading_of(shot.truth)
    d0 = a.dice[0]
    size = d0.box[2] - d0.box[0]
    shifted = Reading((dataclasses.replace(d0, centre=(d0.centre[0] + 0.5 * size, d0.centre[1])),) + a.dice[1:])
    assert readings_agree(a, a, 0.25)
    assert not readings_agree(a, shifted, 0.25)
    hand = Reading(a.dice, (Problem(FOREIGN_OBJECT, "hand"),))
    tracker = SettleTracker()
    for i, frame in enumerate(still_frames(shot.truth, K + M + 2)):
        tracker.update(frame, i / 10)
        tracker.offer(hand)
    assert tracker.final_reading() is None
    assert tracker.state is SettleState.MOVING        # a resting hand is not a settled tray
    leaning = Reading(a.dice, (Problem(DIE_LEANING, "cocked"),))
    for i, frame in enumerate(still_frames(shot.truth, M, seed0=300)):
        tracker.update(frame, 5 + i / 10)
        tracker.offer(leaning)
    assert tracker.final_reading() == leaning         # other problems are the controller's call


def _free_spot(truth: list[TrueDie], k: int, size=(640, 480)) -> tuple[float, float]:
    """A spot about 1.6 die sizes from die k, clear of the other dice and inside the frame."""
    d = truth[k]
    s = d.size_px
    for ang in range(0, 360, 15):
        c = (d.centre[0] + 1.6 * s * math.cos(math.radians(ang)), d.centre[1] + 1.6 * s * math.sin(math.radians(ang)))
        if not (s < c[0] < size[0] - s and s < c[1] < size[1] - s):
            continue
        if all(math.dist(c, o.centre) > 1.6 * s for j, o in enumerate(truth) if j != k):
            return c
    raise AssertionError("no free spot")


def slide_frames(truth: list[TrueDie], k: int, target: tuple[float, float], seed0: int = 500):
    """A hand comes in from the nearest edge, pushes die k to target and leaves."""
    d = truth[k]
    x, y = d.centre
    edge = min((("left", x), ("right", 640 - x), ("top", y), ("bottom", 480 - y)), key=lambda e: e[1])
    pos = y / 480 if edge[0] in ("left", "right") else x / 640
    hand = HandSpec(edge=edge[0], pos=pos, reach=edge[1] - 0.6 * d.size_px, width=70)
    frames = []
    steps = [0.0, 0.0, 0.35, 0.7, 1.0]
    for i, f in enumerate(steps):
        c = (x + (target[0] - x) * f, y + (target[1] - y) * f)
        moved = [dataclasses.replace(o, centre=c) if j == k else o for j, o in enumerate(truth)]
        h = dataclasses.replace(hand, reach=hand.reach * (0.5 if i == 0 else 1.0))
        frames.append(render_scene(moved, seed=seed0 + i, hand=h).image)
    final = [dataclasses.replace(o, centre=target) if j == k else o for j, o in enumerate(truth)]
    frames += still_frames(final, K + M + 1, seed0=seed0 + 50)
    return frames, render_scene(final, seed=0).truth


def test_one_die_slid_is_moved_not_a_new_throw():
    shot, tracker = settled_scene()
    tracker.drain_events()
    before = tracker.final_reading()
    k = 1
    target = _free_spot(shot.truth, k)
    frames, after_truth = slide_frames(shot.truth, k, target)
    states, events = feed(tracker, frames, t0=10, reading=reading_of(after_truth))
    assert SettleState.MOVING in states
    moved = [e for e in events if isinstance(e, DiceMoved)]
    assert not any(isinstance(e, FinalReading) for e in events)
    assert len(moved) == 1
    ev = moved[0]
    new_index = sorted(range(len(after_truth)), key=lambda j: after_truth[j].centre[0]).index(k)
    assert ev.moved == (new_index,)
    assert ev.changed == ()
    assert ev.throw == 1 and ev.previous == before
    assert tracker.final_reading() == reading_of(after_truth)
    assert tracker.state is SettleState.SETTLED


def flickering(frames, amplitude: float = 0.15, period: float = 160, step: float = 0.33):
    """`frames` under a mains lamp seen by a rolling shutter: bands of light and dark rows that
    move by `step` of their period from one frame to the next (the frame rate out of step)."""
    return [flicker_bands(f, amplitude, period, step * i) for i, f in enumerate(frames)]


@pytest.mark.parametrize("amplitude, period, step", [(0.05, 160, 0.33), (0.1, 60, 0.25), (0.2, 160, 0.33),
                                                     (0.2, 480, 0.1)])
def test_a_lamp_flickering_through_a_rolling_shutter_does_not_keep_a_still_tray_moving(amplitude, period, step):
    """Moving bands of light are a change of light, not motion. Measured before each row's light
    was matched on its own (one gain for the frame): bands of +-5% and more kept a still tray
    "moving" for ever, so the table never took a throw."""
    shot = render_tray([3, 5, 1, 6], seed=11)
    tracker = SettleTracker()
    frames = flickering(still_frames(shot.truth, K + M + 2), amplitude, period, step)
    states, _ = feed(tracker, frames, reading=reading_of(shot.truth))
    assert tracker.final_reading() == reading_of(shot.truth)
    assert states[-1] is SettleState.SETTLED and tracker.last_motion < SettleConfig().motion_fraction


def test_under_a_flickering_lamp_a_slid_die_and_a_new_throw_are_still_seen():
    shot = render_tray([3, 5, 1, 6], seed=11)
    tracker = SettleTracker()
    feed(tracker, flickering(still_frames(shot.truth, K + M + 1)), reading=reading_of(shot.truth))
    assert tracker.final_reading() is not None
    tracker.drain_events()
    target = _free_spot(shot.truth, 1)
    frames, after_truth = slide_frames(shot.truth, 1, target)
    states, events = feed(tracker, flickering(frames), t0=10, reading=reading_of(after_truth))
    assert SettleState.MOVING in states
    assert [type(e) for e in events if isinstance(e, (DiceMoved, FinalReading))] == [DiceMoved]
    # (the animation ends with just K still frames; the camera goes on sending, and in the bands
    # the throw's last wobble can count a frame longer: white faces clip at the bright bands)
    anim = ThrowAnimation([2, 2, 6], seed=9)
    frames = list(anim) + still_frames(anim.final.truth, 3, seed0=900)
    states, events = feed(tracker, flickering(frames), t0=20, reading=reading_of(anim.final.truth))
    assert [f.throw for f in events if isinstance(f, FinalReading)] == [2]


def test_new_throw_after_final_is_a_new_final():
    shot, tracker = settled_scene(values=(3, 5, 1))
    anim = ThrowAnimation([2, 2, 6], seed=9)
    states, events = feed(tracker, list(anim), t0=10, reading=reading_of(anim.final.truth))
    finals = [e for e in events if isinstance(e, FinalReading)]
    assert [f.throw for f in finals] == [2]
    assert finals[0].reading.values == reading_of(anim.final.truth).values
    assert not any(isinstance(e, DiceMoved) for e in events)


def test_hand_entering_after_settle_is_moving_and_final_comes_back():
    shot, tracker = settled_scene()
    tracker.drain_events()
    final = tracker.final_reading()
    hand = HandSpec(edge="left", pos=0.5, reach=150, width=90)
    frames = [render_scene(shot.truth, seed=700 + i, hand=dataclasses.replace(hand, reach=80 + 40 * i)).image
              for i in range(3)]
    states, events = feed(tracker, frames, t0=20)
    assert states[0] is SettleState.MOVING
    assert tracker.final_reading() is None
    assert tracker.last_final_reading() == final
    assert StateChanged(SettleState.SETTLED, SettleState.MOVING, 20.0) in events
    # the hand leaves without touching anything: same dice, no event, final again
    states, events = feed(tracker, still_frames(shot.truth, K + M), t0=30, reading=final)
    assert tracker.final_reading() == final
    assert not any(isinstance(e, (FinalReading, DiceMoved)) for e in events)
    assert tracker.throws == 1


def test_update_validates_frames():
    """(Its cost a frame is a benchmark figure: `dicetable bench table`, not a timed test.)"""
    tracker = SettleTracker()
    with pytest.raises(ValueError):
        tracker.update(np.zeros((2, 2), np.uint8), 9)
    with pytest.raises(ValueError):
        SettleConfig(still_frames=0)


def test_tray_roi_ignores_motion_outside():
    shot = render_tray([4, 4], seed=8, size=(640, 480))
    tracker = SettleTracker(tray=(100, 80, 540, 400))
    frames = []
    for i in range(K + 2):
        img = render_scene(shot.truth, seed=i).image.copy()
        img[:40, :] = (i * 40) % 255                  # people walking past the table edge
        frames.append(img)
    states, _ = feed(tracker, frames)
    assert states[-1] is not SettleState.MOVING


def test_rethrow_with_held_dice_is_a_new_throw():
    first = ThrowAnimation([3, 5], held=[6, 6, 2], seed=21)
    tracker = SettleTracker()
    _, events = feed(tracker, list(first), reading=reading_of(first.final.truth))
    assert [e.throw for e in events if isinstance(e, FinalReading)] == [1]
    second = ThrowAnimation([4, 1], held=[6, 6, 2], seed=22)
    held_before = [d.centre for d in first.final.truth if d.extra.get("held")]
    assert held_before == [d.centre for d in second.final.truth if d.extra.get("held")]
    _, events = feed(tracker, list(second), t0=10, reading=reading_of(second.final.truth))
    finals = [e for e in events if isinstance(e, FinalReading)]
    assert [e.throw for e in finals] == [2]
    assert sorted(finals[0].reading.values) == [1, 2, 4, 6, 6]
    assert not any(isinstance(e, DiceMoved) for e in events)


@pytest.mark.parametrize("knob, value", [("motion_fraction", float("nan")), ("motion_fraction", -1.0),
                                         ("box_tolerance", float("inf")), ("pixel_threshold", -5),
                                         ("occupancy_fraction", 2.0), ("still_frames", 100_000)])
def test_a_knob_out_of_its_range_is_refused_naming_it(knob, value):
    """With these the tracker never saw a still (or an occupied) tray: the table waited for ever."""
    with pytest.raises(ValueError, match=f"{knob} must be from .* not {value}"):
        SettleConfig(**{knob: value})


def test_dice_found_lying_at_the_start_are_read_but_not_called_thrown():
    """A tray still from the first frame: its final reading says `found` (nothing was seen
    thrown); a throw seen after that is an ordinary one."""
    shot = render_tray([3, 5, 1, 6], seed=11)
    tracker = SettleTracker()
    _, events = feed(tracker, still_frames(shot.truth, K + M + 1), reading=reading_of(shot.truth))
    finals = [e for e in events if isinstance(e, FinalReading)]
    assert len(finals) == 1 and finals[0].found
    again = render_tray([2, 2, 4, 6], seed=12)
    _, events = feed(tracker, [render_tray([], seed=3).image] + still_frames(again.truth, K + M + 1), t0=5.0,
                     reading=reading_of(again.truth))
    finals = [e for e in events if isinstance(e, FinalReading)]
    assert len(finals) == 1 and not finals[0].found
