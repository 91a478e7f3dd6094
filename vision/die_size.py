"""Dice bigger than the calibrated ones: the calibration's die size no longer holds.

A calibration is made with whatever dice were at hand; the players may then bring their own,
or the café change sets. The segmenter takes the calibrated die size as given: a die 1.5 times
that size is a "large object that is not a die", and the table read none of five 80 px dice
calibrated at 55 px (2 of 60 on 12 rendered trays; uncalibrated: 60), asking the players to
take a hand out of the tray. When a calibrated segmentation shows that sign (objects that are
not dice, or dice touching), the frame is segmented again at the size its own blobs show; if
the dice are clearly bigger there and more of them are found, that reading is used, and the
staff are told to calibrate again with the dice that are played.

Dice smaller than calibrated are found by the detector, but the calibrated size misjudges them
(the segmenter drops 22-28 px dice as specks beside 55 px ones, and the tray's margin is cut for
55 px dice): 8 to 15 of 20 trays read exactly, the rest asked again ("partly out of view", a die
unread) with no reason the players could act on. When a calibrated reading asks, the frame is
segmented without a die size; if its dice are clearly smaller, it is read again at their size,
and that reading is kept only when it reads more of the dice or asks less (`smaller_size`,
`reads_better`). (A lone bigger die is not switched: a hand alone in the tray can look like one.)

Both checks look at the same segmentation without a die size (`OwnSize`): a frame with a thing
in it and a die it could not read (a coin, a phone) asks both, and segmented it twice, the second
time for nothing (~10 ms of a 640 x 480 frame, a third of its read; on a Pi 30-50 ms).

The smaller-dice check first measures the dice by the boxes the reading already has (`box_side`,
as `dicetable calibrate` measures a die it has no blob for): a reading asked for something, or
with more dice than blobs, at the calibrated size (dice touching in a heap, a die by a wall, a
die unsure) is common, and segmenting each such frame again cost ~7 ms to find dice as big as
calibrated (36 of 40 Byler frames). Only dice whose boxes are clearly smaller are measured again.
"""
from __future__ import annotations

import numpy as np

from typing import Callable

from vision import segment
from vision.types import DIE_LEANING, DIE_SIZE, FOREIGN_OBJECT, PARTLY_OUT_OF_VIEW, UNSURE_VALUE, Problem, Reading

# The dice's own size must be this many times the calibrated one to be called another size
# (dice of 70 px read as well as 55 px ones with a 55 px calibration; 80 px ones did not).
BIGGER = 1.3
# ... on at least this many dice: a hand alone, resting in the tray, gave one "die" of twice the
# size (1 of 48 rendered trays with a hand over 0-5 dice of the calibrated size)
MIN_DICE = 2
# ... and this many times it or less to be called smaller (45 px dice read as well as 55 px ones with
# a 55 px calibration; 34 px dice, measured 36.5 px by their blobs, were asked again on 5 of 20 trays)
SMALLER = 0.8
# A die's axis-aligned box is 1 to 1.41 times its side, whatever its turn: its side is taken as
# the box's short side / BOX_TURN (`dicetable calibrate` measures a die it has no blob for so).
BOX_TURN = 1.2
# The dice are measured again without a die size only when their boxes' median side is this many
# times the calibrated size or less. Of 700 calibrated frames (vision.size_bench's 630, the 70 of
# vision.calcost_bench), every frame whose dice the second segmentation measured SMALLER than
# calibrated had boxes of at most 0.84 x (40 px dice calibrated at 55 px); 55 px dice 0.84 and more.
BOX_SMALLER = 0.9
# The bigger-dice check segments the frame again without a die size only when the calibrated
# segmentation's own blobs already show dice this many times the calibrated size or more
# (`Segmentation.blob_px`): of 622 calibrated frames that showed the sign (things not dice or dice
# touching: 55-95 px dice calibrated at 55 px, with hands and heaps; the 70 of calcost_bench),
# blob_px was 0.89-1.29 times the size the second segmentation measured (median 1.00), every frame
# read at a bigger size had 1.30 or more, and 103 frames (19 of 31 Byler heaps) under 1.15.
BIGGER_SEEN = 1.15
# what in a reading makes the table ask for the throw again (or for a die by hand)
ASKING = (PARTLY_OUT_OF_VIEW, UNSURE_VALUE, DIE_LEANING)


class OwnSize:
    """The segmentation of one frame without a die size in the calibrated tray, made on first
    use and kept: `bigger_dice` and `smaller_size` both need it, for the same frame and tray."""

    def __init__(self, bgr: np.ndarray, tray: tuple[int, int, int, int] | None,
                 like: segment.Segmentation | None = None) -> None:
        """`like`: the calibrated segmentation of this `bgr`, whose frame-level work (its Lab,
        gradient, ...) is taken when it worked at the same scale (`segment.frame_work`)."""
        self.bgr, self.tray, self.like = bgr, tray, like
        self._seg: segment.Segmentation | None = None

    def __call__(self) -> segment.Segmentation:
        if self._seg is None:
            self._seg = segment.segment(self.bgr, die_px=None, tray=self.tray, refine=False, like=self.like)
        return self._seg


def bigger_dice(bgr: np.ndarray, seg: segment.Segmentation, die_px: float,
                tray: tuple[int, int, int, int] | None, refine: bool,
                frame_per_px: float = 1.0, own_size: Callable[[], segment.Segmentation] | None = None
                ) -> tuple[segment.Segmentation, float, Problem] | None:
    """The segmentation of `bgr` at its dice's own size, that size, and the staff's notice, when
    they are bigger than the calibrated `die_px` (px of `bgr`; `frame_per_px` turns them into
    the camera frame's pixels for the message); None when the calibrated `seg` stands.

    The dice's size is measured by segmenting without a die size; the frame is then segmented
    again with the size measured and the calibrated tray, as a calibration with those dice would
    (without a die size, the tray's margin is too thin for them, and a die against the wall was
    "partly out of view": 4 of 24 such trays). `own_size` gives that segmentation without a die
    size when the caller shares it (`OwnSize`); it is made only when `seg`'s own blobs show dice
    BIGGER_SEEN of `die_px` or more (dice touching in a heap of the calibrated size are common)."""
    if not seg.foreign and not any(c.touching for c in seg.candidates):
        return None
    if seg.blob_px is not None and seg.blob_px < BIGGER_SEEN * die_px:
        return None         # (its blobs measure the dice as calibrated: a heap, a hand, not bigger dice)
    own = (own_size or OwnSize(bgr, tray))()
    if not own.die_px or own.die_px < BIGGER * die_px or len(own.candidates) < max(MIN_DICE, len(seg.candidates)):
        return None
    seen, calibrated = own.die_px * frame_per_px, die_px * frame_per_px
    told = Problem(DIE_SIZE, f"the dice are bigger than the ones calibrated ({seen:.0f} px, calibrated "
                             f"{calibrated:.0f} px): run dicetable calibrate again with the dice played")
    return segment.segment(bgr, die_px=own.die_px, tray=tray, refine=refine, like=own), own.die_px, told


def asks(reading: Reading) -> int:
    """How much `reading` asks of the players: its dice left unread and its problems that stop
    the throw (a die partly out of view, unsure, leaning)."""
    return sum(d.value is None for d in reading.dice) + sum(p.code in ASKING for p in reading.problems)


def box_side(box: tuple[int, int, int, int]) -> float:
    """A die's side (px) as its axis-aligned `box` (x0, y0, x1, y1) shows it, whatever its turn."""
    return min(box[2] - box[0], box[3] - box[1]) / BOX_TURN


def boxes_smaller(reading: Reading, die_px: float, frame_per_px: float = 1.0) -> bool:
    """Whether the dice of `reading` (boxes in the camera frame's px, `frame_per_px` of them a
    px of the image read) may be smaller than the calibrated `die_px` (px of the image read):
    their boxes' median side is BOX_SMALLER of it or less. True when there are no dice to judge
    by. Costs nothing: the boxes are found already."""
    if not reading.dice:
        return True
    side = float(np.median([box_side(d.box) for d in reading.dice])) / frame_per_px
    return side <= BOX_SMALLER * die_px


def smaller_size(bgr: np.ndarray, die_px: float, tray: tuple[int, int, int, int] | None,
                 reading: Reading, blobs: int, own_size: Callable[[], segment.Segmentation] | None = None,
                 frame_per_px: float = 1.0) -> float | None:
    """The dice's own size (px of `bgr`) when `reading`, made at the calibrated `die_px`, asks
    for something or read more dice than the calibrated segmentation had `blobs` (it drops dice
    much smaller than calibrated as specks; the detector alone found them, and missed some), and
    the frame's blobs, segmented without a die size in the calibrated `tray`, are at least
    MIN_DICE (and as many as the dice read) dice SMALLER than calibrated; else None. Only those
    readings whose dice's boxes are already smaller (`boxes_smaller`; `frame_per_px` as there)
    pay for the second segmentation (a few ms), made once a frame with `bigger_dice`'s when
    `own_size` is shared (`OwnSize`)."""
    if not asks(reading) and blobs >= len(reading.dice):
        return None
    if not boxes_smaller(reading, die_px, frame_per_px):
        return None
    own = (own_size or OwnSize(bgr, tray))()
    if not own.die_px or own.die_px > SMALLER * die_px or len(own.candidates) < max(MIN_DICE, len(reading.dice)):
        return None
    return float(own.die_px)


def reads_better(new: Reading, old: Reading) -> bool:
    """Whether `new` (read at the dice's own size) reads the throw better than `old` (at the
    calibrated size): more dice read and no more asked, or as many read and less asked; and no
    more things not dice. The smaller size is a guess from the blobs (black dice on black felt
    can show their pips): it is kept only where it helps."""
    n_new, n_old = (sum(d.value is not None for d in r.dice) for r in (new, old))
    things = [sum(p.code == FOREIGN_OBJECT for p in r.problems) for r in (new, old)]
    if things[0] > things[1]:
        return False
    return (n_new > n_old and asks(new) <= asks(old)) or (n_new >= n_old and asks(new) < asks(old))


def smaller_told(seen: float, calibrated: float) -> Problem:
    """The staff's notice for dice smaller than calibrated (sizes in the camera frame's px)."""
    return Problem(DIE_SIZE, f"the dice are smaller than the ones calibrated ({seen:.0f} px, calibrated "
                             f"{calibrated:.0f} px): run dicetable calibrate again with the dice played")
