"""A dice cup put down upside down over the dice just played, as players do (to cover them, or
to put the cup down while they think), at the headless table: real settle tracker, reader, flow
and screen code, fed rendered trays.

The reader sees a cup alone as nothing: the tray was called empty, the table forgot the dice
played, and when the cup was lifted the same dice, lying where they lay, were journaled as the
next throw, one nobody made; a reading not yet accepted was accepted under the cup."""
from __future__ import annotations

import dataclasses

import numpy as np

from controller.table import CONFIRM, DECIDE, WAIT_DICE
from test_tray_problems import SIZE, STYLE, banner, caption, show, table
from vision.settle import SettleTracker
from vision.synthetic import HandSpec, ThingSpec, render_scene, render_tray
from vision.types import DICE_COVERED, Reading

THROW = [6, 6, 2, 3, 5]
SECOND = [4, 4, 1, 2, 5]
# the dice close together, where the cup covers them all
SPOTS = [(165, 118), (230, 112), (252, 172), (192, 180), (132, 165)]
CUP = ThingSpec("cup", (192, 145), 190)


def _truth():
    shot = render_tray(THROW, seed=1, size=SIZE, style=STYLE)
    return [dataclasses.replace(d, centre=s) for d, s in zip(shot.truth, SPOTS)]


def lying() -> np.ndarray:
    return render_scene(_truth(), seed=1, size=SIZE, style=STYLE).image


def covered() -> np.ndarray:
    """The cup upside down over the dice: nothing of them seen."""
    return render_tray([], seed=1, size=SIZE, style=STYLE, things=[CUP]).image


def hand() -> np.ndarray:
    return render_scene(_truth(), seed=1, size=SIZE, style=STYLE,
                        hand=HandSpec(edge="right", pos=0.5, reach=150.0)).image


def empty() -> np.ndarray:
    return render_tray([], seed=1, size=SIZE, style=STYLE).image


def thrown(values=THROW, seed: int = 1) -> np.ndarray:
    return render_tray(values, seed=seed, size=SIZE, style=STYLE).image


def cup_down_and_up(p, seconds: float = 3.0, after: np.ndarray | None = None) -> None:
    """The cup put down over the dice for `seconds`, then lifted: the dice as they lay, or `after`."""
    show(p, hand(), 3)
    show(p, covered(), int(seconds * 10))
    show(p, hand(), 3)
    show(p, lying() if after is None else after, 30)


def accepted(tmp_path):
    """Ann's first throw accepted: she decides what to do next."""
    p = table(tmp_path)
    show(p, empty(), 12)
    show(p, hand(), 4)
    show(p, lying())
    assert p.flow.phase == CONFIRM and sorted(p.flow.pending) == sorted(THROW)
    p.settle_confirmation()
    assert p.flow.phase == DECIDE and len(p.flow.log.inputs) == 1
    return p


def test_dice_uncovered_unchanged_are_not_a_throw_and_dice_thrown_again_are(tmp_path, caplog):
    """Ann's dice accepted, the cup put down over them while she decides, then while the table
    waits for her second throw: the screen says the dice are covered (not "Tray empty"),
    and the dice seen again as the cup is lifted are not taken for her next throw (before: they
    were journaled as it). Thrown again after it, they count."""
    p = accepted(tmp_path)
    cup_down_and_up(p)                                    # while she thinks
    assert p.flow.phase == DECIDE and len(p.flow.log.inputs) == 1
    p.press("OK")                                         # (the menu's first line: throw again)
    assert p.flow.phase == WAIT_DICE and len(p.flow.log.inputs) == 2
    with caplog.at_level("INFO", logger="controller.runner"):
        show(p, hand(), 3)          # (a hand resting over two of the dice: they are covered too)
        show(p, covered(), 30)
    said = caption(p), banner(p)
    show(p, hand(), 3)
    show(p, lying(), 40)                                  # lifted, the dice as they lay
    assert p.flow.phase == WAIT_DICE and len(p.flow.log.inputs) == 2, p.flow.log.inputs
    assert said[0] == "The dice are covered" and "lift it" in said[1]
    assert [r.getMessage() for r in caplog.records if "covered" in r.getMessage()] == [
        "the dice last read are covered (a cup?): the tray is not empty; not a throw when seen again"]
    cup_down_and_up(p, after=thrown(SECOND, seed=5))      # lifted, and the dice thrown again
    assert p.flow.phase == DECIDE and len(p.flow.log.inputs) == 3
    assert sorted(p.flow.log.inputs[-1]["values"]) == sorted(SECOND)


def test_a_reading_not_yet_accepted_is_neither_accepted_nor_lost_under_the_cup(tmp_path):
    """The reading shown, the cup put down over it before its moment passed: it is not accepted
    while the cup lies there (before: accepted under it, after its moment, the tray called
    empty), and is taken once the cup is lifted and the dice are seen unchanged."""
    p = table(tmp_path)
    show(p, empty(), 12)
    show(p, hand(), 4)
    for _ in range(40):
        show(p, lying(), 1)
        if p.flow.phase == CONFIRM:
            break
    assert p.flow.phase == CONFIRM and sorted(p.flow.pending) == sorted(THROW)
    show(p, hand(), 3)
    show(p, covered(), 50)                                # 5 s: more than the reading's moment
    assert p.flow.phase == CONFIRM and p.flow.log.inputs == [] and sorted(p.flow.pending) == sorted(THROW)
    show(p, hand(), 3)
    show(p, lying(), 50)                                  # lifted: the same dice, taken after their moment
    assert p.flow.phase == DECIDE and len(p.flow.log.inputs) == 1
    assert sorted(p.flow.log.inputs[0]["values"]) == sorted(THROW)


def test_dice_picked_up_leave_the_tray_empty():
    """The other way round: dice taken out (no cup) leave a tray the tracker calls empty, so that
    the next dice count wherever they lie."""
    from vision.reader import read
    from vision.settle import SettleState

    tracker, t = SettleTracker(), 0.0
    for image, frames in ((empty(), 10), (hand(), 4), (lying(), 20), (hand(), 3), (empty(), 20)):
        for _ in range(frames):
            t += 0.1
            tracker.update(image, t)
            if tracker.wants_reading:
                tracker.offer(read(image), t)
    assert tracker.state == SettleState.EMPTY


def test_a_cup_over_the_dice_is_never_read_around():
    """Covered dice are not a foreign object: a cup lying still over the dice for long (nudged,
    so that the tray's last still spell is the cup's) is not read around as a thing left in the
    tray, which would make the tray empty again."""
    from vision.covered import with_cover

    reading = with_cover(Reading(()))
    assert [(p.code, p.box) for p in reading.problems] == [(DICE_COVERED, None)]
    assert SettleTracker().read_around(reading) is reading
