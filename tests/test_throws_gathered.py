"""Dice the last player left, gathered up by the next one, are not his throw (controller/gathered.py).

Rendered frames through the real tracker, reader and table flow, on a clock that moves with the
frames (10 fps): Ann throws and scores; Bob sweeps her dice together by hand (a slid die keeps
its face), the tray is still for a moment, and he picks them up to throw."""
from __future__ import annotations

import dataclasses

import pytest

from controller.gathered import looks_gathered
from controller.table import CONFIRM, DECIDE, WAIT_DICE
from table_helpers import Press
from test_table_runner import _table   # (Thirteen for Ann and Bob: the real reader and tracker, 10 fps)
from vision.synthetic import HandSpec, render_scene, render_tray

SWEEP = HandSpec(edge="bottom", pos=0.5, reach=330, width=160)
# where Bob gathers the dice: the free bottom of the tray (Ann's dice lie higher up, see seed 21)
PILE = [(170, 315), (290, 315), (410, 315), (230, 410), (350, 410)]


def _ann_scored(flow, runner, feed):
    """Ann throws 6 6 2 3 5 and scores it in Chance: Bob's turn, her dice still in the tray."""
    shot = render_tray([6, 6, 2, 3, 5], seed=21)
    feed(render_tray([6, 6, 2, 3, 5], seed=21, hands=True, motion_blur=12).image, 3)
    feed(shot.image, 50)
    assert flow.phase == DECIDE
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.label.startswith("Chance"))
    runner.feed_button(Press("OK"))
    assert flow.state.expects().player == 1 and len(flow.log.inputs) == 2
    return shot.truth


def _gather(feed, dice, n):
    """Bob's hand sweeps `n` of the dice into a pile, faces unchanged, and leaves the tray."""
    swept = [dataclasses.replace(d, centre=PILE[k]) if k < n else d for k, d in enumerate(dice)]
    feed(render_scene(swept, seed=2, hand=SWEEP).image, 3)
    return swept


@pytest.mark.parametrize("n", [3, 5], ids=["three dice swept", "all five swept"])
def test_dice_gathered_and_picked_up_are_not_the_next_players_throw(n):
    """Before: the pile was staged as Bob's throw and journaled 1.5 s after, though Bob had
    picked the dice up meanwhile: Bob scored Ann's 6 6 2 3 5."""
    flow, runner, feed = _table()
    ann = _ann_scored(flow, runner, feed)
    swept = _gather(feed, ann, n)
    feed(render_scene(swept, seed=3).image, 7)           # still for 0.7 s: the tracker makes it final
    assert flow.phase == CONFIRM
    asked = flow.message.text
    feed(render_scene([], seed=4, hand=SWEEP).image, 3)  # picked up
    feed(render_scene([], seed=5).image, 40)
    assert len(flow.log.inputs) == 2, flow.log.inputs[2:]   # nothing journaled for Bob
    assert "only gathered up" in asked                   # asked, not taken as it stood
    assert flow.phase == WAIT_DICE and flow.pending is None
    assert "not a throw" in flow.message.text and "Bob: throw all 5 dice" in flow.message.text
    bob = render_tray([1, 1, 4, 4, 2], seed=55)          # Bob's own throw counts
    feed(render_tray([1, 1, 4, 4, 2], seed=55, hands=True, motion_blur=12).image, 3)
    feed(bob.image, 25)
    assert flow.log.inputs[-1]["player"] == 1 and sorted(flow.log.inputs[-1]["values"]) == [1, 1, 2, 4, 4]


def test_dice_gathered_and_left_count_as_thrown():
    """The same faces can be a real throw (1.5% of five-dice throws at most): left there, they
    count after the usual moment, and OK takes them at once."""
    flow, runner, feed = _table()
    ann = _ann_scored(flow, runner, feed)
    swept = _gather(feed, ann, 5)
    feed(render_scene(swept, seed=3).image, 30)
    assert flow.log.inputs[-1]["player"] == 1 and sorted(flow.log.inputs[-1]["values"]) == [2, 3, 5, 6, 6]

    flow, runner, feed = _table()
    ann = _ann_scored(flow, runner, feed)
    swept = _gather(feed, ann, 5)
    feed(render_scene(swept, seed=3).image, 7)
    runner.feed_button(Press("OK"))
    assert flow.log.inputs[-1]["player"] == 1 and sorted(flow.log.inputs[-1]["values"]) == [2, 3, 5, 6, 6]


def test_a_throw_picked_up_before_it_counted_still_counts():
    """Only dice that look gathered are dropped when picked up: a player grabbing his own new
    throw early (to throw again for a better one) keeps the throw read, as before."""
    flow, runner, feed = _table()
    _ann_scored(flow, runner, feed)
    bob = render_tray([1, 1, 4, 4, 2], seed=55)
    feed(render_tray([1, 1, 4, 4, 2], seed=55, hands=True, motion_blur=12).image, 3)
    feed(bob.image, 7)
    assert flow.phase == CONFIRM
    feed(render_scene([], seed=4, hand=SWEEP).image, 3)
    feed(render_scene([], seed=5).image, 40)
    assert flow.log.inputs[-1]["player"] == 1 and sorted(flow.log.inputs[-1]["values"]) == [1, 1, 2, 4, 4]


@pytest.mark.parametrize("values, played, held, count, gathered", [
    ([6, 6, 2, 3, 5], [2, 3, 5, 6, 6], (), 5, True),
    ([6, 6, 2, 3, 4], [2, 3, 5, 6, 6], (), 5, False),       # one face differs: thrown
    ([6, 6, 2, 3, 5], [2, 3, 5, 6, 6], (6, 6, 2), 2, False),  # a partial throw: 2 in 36 repeat by chance
    ([3, 5], [3, 5], (), 2, False),                          # too few dice to tell
    ([6, 6, 2, 3, None], [2, 3, 5, 6, 6], (), 5, False),     # an unread die: asked about anyway
    ([6, 6, 2, 3, 5], [], (), 5, False),                     # the tray was seen empty: nothing played
])
def test_looks_gathered(values, played, held, count, gathered):
    assert looks_gathered(values, played, held, count) is gathered
