"""Dice bigger than the calibrated ones: the calibration's die size no longer holds.

A calibration is made with whatever dice were at hand; the players may then bring their own,
or the café change sets. The segmenter takes the calibrated die size as given: a die 1.5 times
that size is a "large object that is not a die", and the table read none of five 80 px dice
calibrated at 55 px (2 of 60 on 12 rendered trays; uncalibrated: 60), asking the players to
take a hand out of the tray. When a calibrated segmentation shows that sign (objects that are
not dice, or dice touching), the frame is segmented again at the size its own blobs show; if
the dice are clearly bigger there and more of them are found, that reading is used, and the
staff are told to calibrate again with the dice that are played.

(Dice smaller than calibrated are still found and read, with a few left unread: not switched.
A lone bigger die is not either: a hand alone in the tray can look like one.)
"""
from __future__ import annotations

import numpy as np

from vision import segment
from vision.types import DIE_SIZE, Problem

# The dice's own size must be this many times the calibrated one to be called another size
# (dice of 70 px read as well as 55 px ones with a 55 px calibration; 80 px ones did not).
BIGGER = 1.3
# ... on at least this many dice: a hand alone, resting in the tray, gave one "die" of twice the
# size (1 of 48 rendered trays with a hand over 0-5 dice of the calibrated size)
MIN_DICE = 2


def bigger_dice(bgr: np.ndarray, seg: segment.Segmentation, die_px: float,
                tray: tuple[int, int, int, int] | None, refine: bool,
                frame_per_px: float = 1.0) -> tuple[segment.Segmentation, float, Problem] | None:
    """The segmentation of `bgr` at its dice's own size, that size, and the staff's notice, when
    they are bigger than the calibrated `die_px` (px of `bgr`; `frame_per_px` turns them into
    the camera frame's pixels for the message); None when the calibrated `seg` stands.

    The dice's size is measured by segmenting without a die size; the frame is then segmented
    again with the size measured and the calibrated tray, as a calibration with those dice would
    (without a die size, the tray's margin is too thin for them, and a die against the wall was
    "partly out of view": 4 of 24 such trays)."""
    if not seg.foreign and not any(c.touching for c in seg.candidates):
        return None
    own = segment.segment(bgr, die_px=None, tray=tray, refine=False)
    if not own.die_px or own.die_px < BIGGER * die_px or len(own.candidates) < max(MIN_DICE, len(seg.candidates)):
        return None
    seen, calibrated = own.die_px * frame_per_px, die_px * frame_per_px
    told = Problem(DIE_SIZE, f"the dice are bigger than the ones calibrated ({seen:.0f} px, calibrated "
                             f"{calibrated:.0f} px): run dicetable calibrate again with the dice played")
    return segment.segment(bgr, die_px=own.die_px, tray=tray, refine=refine), own.die_px, told
