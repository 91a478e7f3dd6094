"""Things left in the tray (a phone, a playing card, a dice cup, a coin), as players meet them at
the headless table: real settle tracker, reader, flow and screen code, fed rendered trays.

A thing that has lain still in the tray since before the throw is told once and read around:
before, it stopped every throw for good ("take it out", and nothing else the players could do
short of entering every throw by hand). One that comes with the throw (a hand, a cup put down
as the dice roll) still stops it until it is out."""
from __future__ import annotations

import pytest

from controller.table import CONFIRM, DECIDE, WAIT_DICE
from controller.tray_words import LEFT_WORDS
from test_tray_problems import SIZE, STYLE, THROW, banner, caption, show, table
from vision.left_things import read_around
from vision.synthetic import HandSpec, ThingSpec, render_scene, render_tray
from vision.types import FOREIGN_OBJECT, LEFT_IN_TRAY, Problem, Reading

THINGS = {
    "phone": ThingSpec("phone", (110, 110), 170, 20),
    "card": ThingSpec("card", (100, 100), 120, -15),
    "cup": ThingSpec("cup", (100, 100), 150),
    "coin": ThingSpec("coin", (90, 80), 40),
}
SECOND = [4, 4, 1, 2, 5]     # Bob's throw


def empty(*things: ThingSpec) -> object:
    return render_tray([], seed=1, size=SIZE, style=STYLE, things=things).image


def dice(values=THROW, seed: int = 1, things=()):
    return render_tray(values, seed=seed, size=SIZE, style=STYLE, things=things).image


def throwing(values=THROW, seed: int = 1, things=()):
    """The hand that throws, over the dice as they land."""
    shot = render_tray(values, seed=seed, size=SIZE, style=STYLE, things=things)
    return render_scene(shot.truth, seed=seed, size=SIZE, style=STYLE, things=things,
                        hand=HandSpec(edge="right", pos=0.5, reach=150.0)).image


@pytest.mark.parametrize("kind", list(THINGS))
def test_a_thing_left_in_the_tray_is_told_once_and_the_dice_are_read_around_it(tmp_path, kind):
    """A phone (a card, a cup, a coin) put down in the empty tray: the screen asks for it to be
    taken out. Nobody does; Ann throws. Her dice were never read ("Something that is not a die is
    in the tray" for good); they are now, the banner saying once why and that it is better out,
    and Bob's throw after hers is read as well, without the words again."""
    thing = THINGS[kind]
    p = table(tmp_path)
    show(p, empty(), 12)
    show(p, empty(thing), 20)                           # put down in the tray
    if kind in ("phone", "card"):    # (a cup or a coin alone in the tray the reader takes for nothing)
        assert caption(p) == "Something that is not a die is in the tray"
    assert p.flow.log.inputs == []
    show(p, throwing(things=[thing]), 5)
    show(p, dice(things=[thing]))
    assert p.flow.phase == CONFIRM and sorted(p.flow.pending) == sorted(THROW)
    if kind != "coin":                                  # (with dice about it, the coin is a disc, no thing)
        assert banner(p) == LEFT_WORDS
    p.settle_confirmation()
    assert p.flow.phase == DECIDE and sorted(p.flow.log.inputs[0]["values"]) == sorted(THROW)
    p.press("OK")                                       # (the menu's first line: Ann scores)
    n = len(p.flow.log.inputs)
    show(p, throwing(SECOND, seed=5, things=[thing]), 5)
    show(p, dice(SECOND, seed=5, things=[thing]))
    assert p.flow.phase == CONFIRM and sorted(p.flow.pending) == sorted(SECOND)
    assert banner(p) != LEFT_WORDS
    p.settle_confirmation()
    assert len(p.flow.log.inputs) == n + 1 and sorted(p.flow.log.inputs[-1]["values"]) == sorted(SECOND)


def test_a_thing_that_comes_with_the_throw_still_stops_it_until_it_is_out(tmp_path):
    """A dice cup put down in the tray as the dice roll was not lying there before: it may hide a
    die, so the throw waits for it to go, as for a hand, and the game is untouched."""
    cup = THINGS["cup"]
    p = table(tmp_path)
    show(p, empty(), 12)
    show(p, throwing(things=[cup]), 5)
    show(p, dice(things=[cup]), 30)
    assert p.flow.phase == WAIT_DICE and p.flow.log.inputs == []
    assert caption(p) == "Something that is not a die is in the tray" and "take it out" in banner(p)
    show(p, dice(), 20)                                 # the cup lifted: the dice are read
    assert p.flow.phase == CONFIRM and sorted(p.flow.pending) == sorted(THROW)


def test_only_a_thing_whose_place_looked_the_same_before_the_throw_is_read_around():
    """The picture decides, place by place: a thing is read around where its place looked the
    same before the throw, and still stops the throw elsewhere (a hand, a thing put down with it)."""
    phone = Problem(FOREIGN_OBJECT, "large object that is not a die", (15, 42, 206, 180))
    hand = Problem(FOREIGN_OBJECT, "large object that is not a die", (250, 100, 400, 200))
    reading = Reading((), (phone, hand))
    after = read_around(reading, lambda box: box == (15, 42, 206, 180))
    assert [(p.code, p.box) for p in after.problems] == [(LEFT_IN_TRAY, phone.box), (FOREIGN_OBJECT, hand.box)]
    assert read_around(reading, lambda box: False) is reading


def test_the_left_things_benchmark_reads_the_throws_around_a_phone_and_a_cup():
    """`python -m vision.left_bench` on a few of its throws: around a phone (seeds 1 and 4) and a
    cup (seed 4) left in the tray the old table never read the dice; they are read right now."""
    from vision.left_bench import throw_around

    assert [throw_around("phone", 1), throw_around("phone", 4), throw_around("cup", 4)] == ["right"] * 3


def test_a_thing_is_read_around_when_the_camera_tracks_a_small_stream_and_reads_full_frames():
    """picamera2: the tracker watches the camera's small stream (here a quarter of the size) and
    the reader reads its full frames, whose boxes are in the full frame's pixels. The phone's place
    must be looked at in the small stream's pixels: looked at in the full frame's, it lay over the
    dice thrown in the bottom right, which changed it, and the dice were never read."""
    import dataclasses

    import cv2

    from vision.reader import read
    from vision.settle import FinalReading, SettleTracker

    phone = THINGS["phone"]
    shot = render_tray(THROW, seed=1, size=SIZE, style=STYLE)
    spots = [(250, 195), (310, 200), (370, 190), (280, 260), (345, 262)]
    truth = [dataclasses.replace(d, centre=spot) for d, spot in zip(shot.truth, spots)]
    landed = render_scene(truth, seed=1, size=SIZE, style=STYLE, things=[phone]).image
    tracker, t, finals = SettleTracker(), 0.0, []
    for full, frames in ((empty(phone), 15), (throwing(things=[phone]), 4), (landed, 20)):
        small = cv2.resize(full, (SIZE[0] // 4, SIZE[1] // 4), interpolation=cv2.INTER_AREA)
        for _ in range(frames):
            t += 0.1
            tracker.update(small, t)
            if tracker.wants_reading:
                tracker.offer(read(full), t)
            finals += [e.reading for e in tracker.drain_events() if isinstance(e, FinalReading)]
    assert finals and sorted(finals[-1].values) == sorted(THROW)
    assert LEFT_IN_TRAY in finals[-1].problem_codes()
