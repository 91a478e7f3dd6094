"""A dice cup put down over only some of the dice just played (the players push it aside onto the
tray, or cover two dice while they think), at the headless table: real settle tracker, reader,
flow and screen code, fed rendered trays (vision.synthetic draws the cup over the dice).

The reader read the dice left in view, the tracker took them for a throw of fewer dice, and the
table said "Ann: decide first (OK on the menu), then throw." over the dice she had just
accepted, or, waiting for her throw, took the dice beside the cup for it. Now the screen says
the dice are covered and the table waits; lifted, the dice as they lay are no throw."""
from __future__ import annotations

from controller.table import CONFIRM, DECIDE, WAIT_DICE
from test_tray_cup_over_dice import SECOND, THROW, _truth, accepted, hand, lying, thrown, empty
from test_tray_problems import SIZE, STYLE, banner, caption, show
from vision.settle import FinalReading, SettleTracker
from vision.reader import read
from vision.synthetic import ThingSpec, render_scene
from vision.types import DICE_COVERED

# over the two dice on the left of the cluster (tests/test_tray_cup_over_dice.SPOTS): a 6 and a
# 5 under it, three dice beside it, one of them half under its rim
CUP = ThingSpec("cup", (150, 140), 120)


def some_covered(cup: ThingSpec = CUP):
    return render_scene(_truth(), seed=1, size=SIZE, style=STYLE, over=[cup]).image


def test_a_cup_over_some_dice_while_she_decides_is_said_and_no_throw(tmp_path):
    """Before: "Ann: decide first (OK on the menu), then throw." as the cup was put down."""
    p = accepted(tmp_path)
    show(p, hand(), 3)
    show(p, some_covered(), 40)
    assert "decide first" not in banner(p)
    # (the screen shows the dice she accepted while she decides, as under a cup over them all)
    assert (p.runner.tray_trouble(), p.runner.camera_note()) == (DICE_COVERED, "The dice are covered")
    assert p.flow.phase == DECIDE and len(p.flow.log.inputs) == 1
    show(p, hand(), 3)
    show(p, lying(), 40)                                   # lifted: the dice as they lay
    assert "decide first" not in banner(p)
    assert p.flow.phase == DECIDE and len(p.flow.log.inputs) == 1


def test_a_cup_over_some_dice_is_not_the_next_throw_and_dice_thrown_again_are(tmp_path):
    """Waiting for Ann's second throw, the cup put down over some of the dice: the dice beside it
    are not her throw (before: they were, a throw of fewer dice). Lifted and thrown, they count."""
    p = accepted(tmp_path)
    p.press("OK")                                          # (the menu's first line: throw again)
    assert p.flow.phase == WAIT_DICE and len(p.flow.log.inputs) == 2
    show(p, hand(), 3)
    show(p, some_covered(), 40)
    assert caption(p) == "The dice are covered" and "lift it" in banner(p)
    assert p.flow.phase == WAIT_DICE and len(p.flow.log.inputs) == 2
    show(p, hand(), 3)
    show(p, thrown(SECOND, seed=5), 40)
    assert p.flow.phase in (CONFIRM, DECIDE)
    p.settle_confirmation()
    assert p.flow.phase == DECIDE and sorted(p.flow.log.inputs[-1]["values"]) == sorted(SECOND)


def test_dice_taken_out_beside_others_left_are_fewer_dice_not_covered():
    """The other way round: two dice picked up, three left where they lay, and no cup: the felt
    where the two lay is bare, so the reading of three is not held back as covered."""
    kept = _truth()[2:]
    fewer = render_scene(kept, seed=1, size=SIZE, style=STYLE).image
    tracker, t, finals = SettleTracker(), 0.0, []
    for image, frames in ((empty(), 10), (hand(), 4), (lying(), 20), (hand(), 3), (fewer, 30)):
        for _ in range(frames):
            t += 0.1
            tracker.update(image, t)
            if tracker.wants_reading:
                reading = tracker.read_around(read(image))
                assert image is not fewer or DICE_COVERED not in reading.problem_codes()
                tracker.offer(reading, t)
            finals += [e.reading.values for e in tracker.drain_events() if isinstance(e, FinalReading)]
    assert [sorted(v) for v in finals] == [sorted(THROW), sorted(d.value for d in kept)]
