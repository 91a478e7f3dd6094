"""Dice covered, not gone: a dice cup put down upside down over the dice just read.

Players cover the dice with the cup, or put it down in the tray over them while they think. The
reader sees a cup alone as nothing at all (no dice, no problem), so the settle tracker called the
tray empty, the table forgot the dice played, and when the cup was lifted the same dice, lying
where they lay, were taken for the next throw: a throw nobody made.

What tells covered dice from dice taken out is the felt around them: dice picked up leave the
felt about their places as it was; a thing over them covers it too. So, when a reading of a still
tray finds no dice where the tracker last read some, the felt around each of those dice (a band
half a die wide, the dice's own places left out) is compared with the picture of the tray as they
lay: most of it changed means they are covered, and the reading gets a DICE_COVERED problem, which
blocks it as a hand does (nothing is known of the tray while it lasts: neither empty, nor a throw).

A cup put down over only some of the dice is the same story: the reader read the dice left in
view, the tracker took them for a throw of fewer dice, and the table said "decide first" (or took
them, when it waited for a throw). So a reading of fewer dice than the tracker last read, each
where one of those lay, whose missing dice's felt changed, is covered too (`unseen_dice`).
Plain numpy; no controller imports.
"""
from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np

from .types import DICE_COVERED, Die, Problem, Reading

Box = tuple[int, int, int, int]

# The share of the dice's places and the felt about them that must not look like bare felt for the
# dice to be covered. On 38 rendered trays (python -m vision.cover_bench, 2026-11-27) dice picked up
# left at most 9% so (two dice the reader had missed, gone with them), most under 2%; a cup over
# them at least 28% (on the dark felt, where only its rim differs in grey), 52% to 93% elsewhere.
COVERED_CHANGED = 0.15
COVER_WORDS = "something covers the dice last read (a cup?)"
# A die of a reading of fewer dice lies where a die last read lay when its centre is this near
# (x die size): the dice beside a cup are not touched by it; one half under it is read a little
# off its centre. (settle.box_tolerance, 0.25, is for dice that agree.)
COVER_SAME_PLACE = 0.5


def _grown(box: Box, shape: tuple[int, int]) -> tuple[slice, slice]:
    """`box` grown by half its side each way, clipped to an image of `shape` (rows, columns)."""
    x0, y0, x1, y1 = box
    m = max(1, (x1 - x0 + y1 - y0) // 4)
    return slice(max(0, y0 - m), min(shape[0], y1 + m)), slice(max(0, x0 - m), min(shape[1], x1 + m))


def felt_about(boxes: Sequence[Box], shape: tuple[int, int]) -> np.ndarray:
    """Mask (of an image of `shape`) of the felt about the dice at `boxes` (small-image pixels):
    each box grown by half its side, the boxes themselves left out."""
    mask = np.zeros(shape, bool)
    for box in boxes:
        mask[_grown(box, shape)] = True
    for x0, y0, x1, y1 in boxes:
        mask[max(0, y0):max(0, y1), max(0, x0):max(0, x1)] = False
    return mask


def covered_share(now: np.ndarray, before: np.ndarray, boxes: Sequence[Box], threshold: float,
                  seen: Sequence[Box] = ()) -> float:
    """The share of the dice's places and the felt about them (`boxes`, small-image pixels) that
    does not look like bare felt now: more than `threshold` grey levels from the felt about each
    die in `before` (the picture with the dice; its median, the frame's change of exposure
    matched). Dice picked up leave bare felt (a die the reader missed beside them too); a cup's
    dark inside differs on a felt of its rim's grey, its rim on a dark felt. The places of the
    dice `seen` now (some of the dice covered) are left out: in a cluster, the felt about a die
    taken out holds its neighbours, which are not felt, and called two dice picked up covered."""
    about = felt_about(boxes, now.shape)
    for x0, y0, x1, y1 in seen:
        about[max(0, y0):max(0, y1), max(0, x0):max(0, x1)] = False
    if not about.any():
        return 0.0
    gain = float(np.median((now.astype(np.float32) + 1) / (before.astype(np.float32) + 1)))
    unlike = np.zeros(now.shape, bool)
    region = np.zeros(now.shape, bool)
    for box in boxes:
        rows, cols = _grown(box, now.shape)
        ring = about[rows, cols]
        felt = float(np.median(before[rows, cols][ring])) if ring.any() else float(np.median(before[about]))
        unlike[rows, cols] |= np.abs(now[rows, cols].astype(np.float32) - felt * gain) > threshold
        region[rows, cols] = True
    for x0, y0, x1, y1 in seen:
        region[max(0, y0):max(0, y1), max(0, x0):max(0, x1)] = False
    return float(unlike[region].mean()) if region.any() else 0.0


def unseen_dice(reading: Reading, last: Reading, pairs: Sequence[tuple[int, int, float]],
                same_place: float) -> list[Die] | None:
    """The dice of `last` that `reading` (fewer dice) does not see, when each die it sees lies
    where one of them lay (`pairs`: its dice matched to `last`'s, (index in reading, index in last,
    distance / die size), within `same_place`); None when one lies elsewhere (a throw)."""
    if len(pairs) < len(reading.dice) or any(rel > same_place for _, _, rel in pairs):
        return None
    seen = {j for _, j, _ in pairs}
    return [d for j, d in enumerate(last.dice) if j not in seen]


def with_cover(reading: Reading) -> Reading:
    """`reading` (of no dice, or of some of the dice last read) with a DICE_COVERED problem: the
    dice last read are covered. Not a foreign object, so that a cup left over the dice is never
    read around (vision.left_things): the dice under it are not seen, and the tray is not empty."""
    return dataclasses.replace(reading, problems=reading.problems + (Problem(DICE_COVERED, COVER_WORDS),))
