"""The settle tracker's guards, one behaviour a test: each of these was found missing by mutation
testing (the tracker could be broken there and every other test still passed). They are what
makes a reading final (docs/vision.md, the module docstring of vision/settle.py): the tray still
for `still_frames` frames, `agree_readings` readings in a row that agree, motion seen however it
comes (a slow creep, a small nudge), and a die changed after the throw never passing unnoticed."""
from __future__ import annotations

import dataclasses

import numpy as np

from vision.settle import DiceMoved, FinalReading, SettleConfig, SettleState, SettleTracker
from vision.synthetic import HandSpec, render_scene, render_tray
from vision.types import Die, Reading, TrueDie

from test_vision_settle import feed, reading_of, still_frames

K = SettleConfig().still_frames
M = SettleConfig().agree_readings


def settled(values=(3, 5, 1, 6), seed=11):
    shot = render_tray(list(values), seed=seed)
    tracker = SettleTracker()
    _, events = feed(tracker, still_frames(shot.truth, K + M + 1), reading=reading_of(shot.truth))
    assert [e.throw for e in events if isinstance(e, FinalReading)] == [1]
    return shot, tracker


def test_only_the_last_agree_readings_in_a_row_make_a_reading_final():
    """A reading is final when the last `agree_readings` readings agree: after one odd reading,
    M - 1 agreeing ones are not enough, the M-th makes it final."""
    shot = render_tray([3, 5, 1], seed=5)
    good = reading_of(shot.truth)
    odd = reading_of(shot.truth, [d.value for d in good.dice][:2] + [good.dice[2].value % 6 + 1])
    tracker = SettleTracker()
    frames = still_frames(shot.truth, K + M + 2)
    offered = [odd] + [good] * M
    finals = []
    for i, frame in enumerate(frames):
        tracker.update(frame, i / 10)
        if tracker.still_frames >= K and offered:
            tracker.offer(offered.pop(0))
            finals.append((len(offered), tracker.final_reading()))
    # (readings left to offer, final reading) after each offer
    assert [f for _left, f in finals[:M]] == [None] * M          # the odd one, then M - 1 good ones
    assert finals[M] == (0, good)


def test_a_die_creeping_across_the_tray_never_lets_it_settle():
    """A die still sliding, a pixel a frame (too little from one frame to the next to count as
    motion), is caught by comparing with the first frame of the still spell: the tray never
    settles while it creeps, and no reading of it becomes final."""
    tracker = SettleTracker()
    creeping = Reading((Die(4, (200, 200, 250, 250), (225, 225), 0.95),))
    states, events = [], []
    for i in range(6 * K):
        frame = np.full((480, 640), 90, np.uint8)
        frame[200:250, 200 + i:250 + i] = 230                        # one light die on dark felt
        states.append(tracker.update(frame, i / 10))
        if tracker.wants_reading:
            tracker.offer(creeping)
        events += tracker.drain_events()
    assert tracker.still_frames < K
    assert SettleState.SETTLED not in states
    assert not any(isinstance(e, (FinalReading, DiceMoved)) for e in events)


def test_a_die_nudged_half_its_size_without_a_hand_in_view_is_a_moved_die():
    """A die knocked half its side (a bump of the table, a die pushed with a pen): a small patch
    of the frame changes, and that is motion: the die is reported moved, the throw is the same."""
    shot, tracker = settled()
    k = 1
    nudged = [dataclasses.replace(d, centre=(d.centre[0], d.centre[1] + 0.5 * d.size_px)) if j == k else d
              for j, d in enumerate(shot.truth)]
    after = reading_of(nudged)
    states, events = feed(tracker, still_frames(nudged, K + M + 1, seed0=400), t0=10, reading=after)
    assert states[0] is SettleState.MOVING
    assert not any(isinstance(e, FinalReading) for e in events)
    moved = [e for e in events if isinstance(e, DiceMoved)]
    assert len(moved) == 1 and moved[0].throw == 1
    index = sorted(range(len(nudged)), key=lambda j: nudged[j].centre[0]).index(k)
    assert moved[0].moved == (index,) and moved[0].changed == ()
    assert tracker.final_reading() == after


def test_a_die_turned_over_where_it_lies_is_reported_changed():
    """A hand reaches in and turns one die over without moving it: the dice are where they
    were, but one shows another value. That is no "hand passed over": the die is reported
    (moved and changed), never silently taken as the same throw."""
    shot, tracker = settled()
    before = tracker.final_reading()
    hand = HandSpec(edge="left", pos=0.5, reach=150, width=90)
    frames = [render_scene(shot.truth, seed=700 + i, hand=dataclasses.replace(hand, reach=80 + 40 * i)).image
              for i in range(3)]
    feed(tracker, frames, t0=20)
    k = 2
    turned = reading_of(shot.truth, [v if i != k else v % 6 + 1 for i, v in enumerate(before.values)])
    _, events = feed(tracker, still_frames(shot.truth, K + M, seed0=800), t0=30, reading=turned)
    assert not any(isinstance(e, FinalReading) for e in events)
    (moved,) = [e for e in events if isinstance(e, DiceMoved)]
    assert moved.moved == (k,) and moved.changed == (k,) and moved.previous == before
    assert tracker.final_reading() == turned


def nudge(truth: list[TrueDie], ks, by: float = 0.5) -> list[TrueDie]:
    """The dice `ks` pushed down by `by` of their side."""
    return [dataclasses.replace(d, centre=(d.centre[0], d.centre[1] + by * d.size_px)) if j in ks else d
            for j, d in enumerate(truth)]


def test_half_the_dice_moved_is_still_the_same_throw():
    """More than `max_moved_fraction` (half) of the dice moved is a new throw; exactly half is
    not: two dice of four pushed aside are moved dice of the same throw."""
    shot, tracker = settled()
    moved_truth = nudge(shot.truth, (0, 2))
    after = reading_of(moved_truth)
    _, events = feed(tracker, still_frames(moved_truth, K + M + 1, seed0=450), t0=10, reading=after)
    assert not any(isinstance(e, FinalReading) for e in events)
    (moved,) = [e for e in events if isinstance(e, DiceMoved)]
    order = sorted(range(4), key=lambda j: moved_truth[j].centre[0])
    assert moved.moved == tuple(sorted(order.index(k) for k in (0, 2))) and moved.throw == 1


def test_a_die_added_to_a_still_tray_is_a_new_throw():
    """The count changed: whatever moved, that is a new throw (a FinalReading with the next
    number), never dice of the old one."""
    shot, tracker = settled()
    extra = dataclasses.replace(shot.truth[0], value=2,
                                centre=(shot.truth[0].centre[0], shot.truth[0].centre[1] + 2.2 * shot.truth[0].size_px))
    more = list(shot.truth) + [extra]
    after = reading_of(more)
    _, events = feed(tracker, still_frames(more, K + M + 1, seed0=460), t0=10, reading=after)
    assert not any(isinstance(e, DiceMoved) for e in events)
    assert [(e.throw, e.reading) for e in events if isinstance(e, FinalReading)] == [(2, after)]


def test_a_reading_offered_while_the_tray_moves_never_counts_towards_agreement():
    """docs: readings offered while moving are dropped. The one taken on the last moving frame
    does not make up one of the `agree_readings` of the still spell after it."""
    shot = render_tray([3, 5, 1], seed=5)
    good = reading_of(shot.truth)
    other = render_tray([3, 5, 1], seed=6)
    tracker = SettleTracker()
    # the dice jump between two places, and the last moving frame is already the still tray's
    moving = [render_scene(other.truth if i % 2 else shot.truth, seed=i).image for i in range(5)]
    for i, frame in enumerate(moving):
        tracker.update(frame, i / 10)
        assert tracker.offer(good) is None
    assert tracker.state is SettleState.MOVING
    frames = still_frames(shot.truth, K + M + 1)
    finals = []
    for i, frame in enumerate(frames):
        tracker.update(frame, 1 + i / 10)
        if tracker.still_frames >= K:
            tracker.offer(good)
            finals.append(tracker.final_reading())
    assert finals[:M - 1] == [None] * (M - 1) and finals[M - 1] == good


def test_a_reading_that_disagrees_with_the_final_one_undoes_it():
    """Already final, a reading that disagrees (something changed that the camera did not see
    move) makes the tray unfinal again, and the readings after it decide anew: a new throw."""
    shot, tracker = settled((3, 5, 1))
    final = tracker.final_reading()
    changed = reading_of(shot.truth, [final.values[0] % 6 + 1] + final.values[1:])
    frames = still_frames(shot.truth, M + 1, seed0=600)
    tracker.update(frames[0], 10)
    tracker.offer(changed)
    assert tracker.final_reading() is None and tracker.wants_reading
    events = []
    for i, frame in enumerate(frames[1:]):
        tracker.update(frame, 10.1 + i / 10)
        if tracker.wants_reading:
            tracker.offer(changed)
        events += tracker.drain_events()
    assert tracker.final_reading() == changed
    assert [(e.throw, e.reading) for e in events if isinstance(e, FinalReading)] == [(2, changed)]


def test_a_dark_die_moved_on_dark_felt_is_motion():
    """Dark dice on dark felt differ from it by a few grey levels only (docs/vision.md: black
    dice on black felt); one of them pushed across the tray is still motion, 25 grey levels
    being well above the sensor's noise (`pixel_threshold`)."""
    def frame(x):
        img = np.full((480, 640), 60, np.uint8)
        img[200:250, x:x + 50] = 85
        return img

    tracker = SettleTracker()
    for i in range(K + 1):
        tracker.update(frame(200), i / 10)
    assert tracker.still_frames == K
    assert tracker.update(frame(240), 1.0) is SettleState.MOVING and tracker.still_frames == 0


def test_the_tray_is_called_unsteady_only_after_twice_the_readings_that_should_agree():
    """Readings that disagree for a moment are normal while a tray settles; the players are
    told "Readings disagree" only once twice `agree_readings` readings of the still tray have
    not agreed."""
    shot = render_tray([3, 5, 1], seed=5)
    a = reading_of(shot.truth)
    b = Reading(a.dice[:2])                              # a die seen in some frames only
    tracker = SettleTracker()
    unsteady = []
    for i, frame in enumerate(still_frames(shot.truth, K + 2 * M)):
        tracker.update(frame, i / 10)
        if tracker.still_frames >= K:
            tracker.offer(a if len(unsteady) % 2 else b)
            unsteady.append(tracker.unsteady)
    assert unsteady[:2 * M - 1] == [False] * (2 * M - 1) and unsteady[2 * M - 1]


def test_an_empty_tray_becomes_final_without_a_throw():
    """docs: an empty tray is a state (EMPTY), not a throw: emptying the tray after a throw is
    no FinalReading (the table would say "I see 0 dice"), and the next throw is number 2."""
    shot, tracker = settled()
    empty = render_tray([], seed=3)
    states, events = feed(tracker, [empty.image] + still_frames(empty.truth, K + M + 1, seed0=40), t0=10,
                          reading=Reading(()))
    assert tracker.state is SettleState.EMPTY and tracker.final_reading() == Reading(())
    assert not any(isinstance(e, (FinalReading, DiceMoved)) for e in events)
    again = render_tray([2, 2, 6], seed=9)
    _, events = feed(tracker, still_frames(again.truth, K + M + 1, seed0=70), t0=20, reading=reading_of(again.truth))
    assert [e.throw for e in events if isinstance(e, FinalReading)] == [2]


def test_a_hand_that_passed_over_does_not_make_a_later_nudge_a_new_throw():
    """The motion that counts towards "a new throw" is the motion since the last final reading:
    a hand that passed over the tray and left it as it was is forgotten once the tray is final
    again, so a die nudged after that is a moved die, not a new throw."""
    shot, tracker = settled()
    hand = HandSpec(edge="left", pos=0.5, reach=300, width=160)
    frames = [render_scene(shot.truth, seed=700 + i, hand=dataclasses.replace(hand, reach=120 + 90 * i)).image
              for i in range(3)]
    _, events = feed(tracker, frames + still_frames(shot.truth, K + M, seed0=750), t0=20,
                     reading=reading_of(shot.truth))
    assert not any(isinstance(e, (FinalReading, DiceMoved)) for e in events)
    nudged = nudge(shot.truth, (1,))
    _, events = feed(tracker, still_frames(nudged, K + M + 1, seed0=800), t0=30, reading=reading_of(nudged))
    assert not any(isinstance(e, FinalReading) for e in events)
    assert len([e for e in events if isinstance(e, DiceMoved)]) == 1


def test_the_flicker_rule_never_covers_a_die_that_moved_between_readings():
    """The flicker rule is only for values (docs/table.md: the dice still, one read differently
    from frame to frame): when some of the readings also place a die elsewhere, nothing is
    final, however long it goes on, and the tray is called unsteady."""
    shot = render_tray([3, 5, 1], seed=5)
    a = reading_of(shot.truth)
    b = Reading(tuple(dataclasses.replace(d, value=d.value % 6 + 1) if i == 1 else d for i, d in enumerate(a.dice)))
    d2 = a.dice[2]
    side = d2.box[2] - d2.box[0]
    elsewhere = Reading(a.dice[:2] + (dataclasses.replace(d2, centre=(d2.centre[0], d2.centre[1] + 0.6 * side)),))
    tracker = SettleTracker()
    events = []
    cycle = [a, b, elsewhere]
    for i, frame in enumerate(still_frames(shot.truth, K + 3 * SettleConfig().unsure_after)):
        tracker.update(frame, i / 10)
        if tracker.wants_reading:
            tracker.offer(cycle[i % 3])
        events += tracker.drain_events()
    assert tracker.final_reading() is None and tracker.unsteady
    assert not any(isinstance(e, FinalReading) for e in events)


def test_readings_before_a_motion_never_count_after_it():
    """Readings agree within one still spell: after the tray moved, the readings taken before
    it are gone, and `agree_readings` new ones are needed."""
    shot = render_tray([3, 5, 1], seed=5)
    good = reading_of(shot.truth)
    tracker = SettleTracker()
    frames = still_frames(shot.truth, K + M - 1)
    for i, frame in enumerate(frames):
        tracker.update(frame, i / 10)
        if tracker.still_frames >= K:
            tracker.offer(good)
    assert tracker.final_reading() is None                     # M - 1 readings: not yet
    other = render_tray([3, 5, 1], seed=6)
    tracker.update(render_scene(other.truth, seed=50).image, 5.0)     # the tray is knocked
    assert tracker.state is SettleState.MOVING
    finals = []
    for i, frame in enumerate(still_frames(shot.truth, K + M, seed0=60)):
        tracker.update(frame, 6 + i / 10)
        if tracker.still_frames >= K:
            tracker.offer(good)
            finals.append(tracker.final_reading())
    assert finals[:M - 1] == [None] * (M - 1) and finals[M - 1] == good
