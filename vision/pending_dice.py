"""The learned path's dice before they are reported, and the frame-wide checks that may still doubt them.

Why its own module: a die's read can look sure on its own crop and still be wrong given the
rest of the frame -- a small 1 that is one pip of a bigger die whose body the segmenter did not
see (`_ones_inside_a_bigger_face`, with `_outline_unseen`), a find lying on the middle of a
bigger die's face (`_on_another_face`). The reader (vision/reader.py) collects its dice as
`_Pending`, asks these checks once all are read, and makes the doubted ones unsure (the table
asks). Only image measures here; the net's second read of a small 1 (`_small_ones_read_again`)
stays in the reader with the verifier settings it uses. Moved out of reader.py unchanged;
`reader` re-exports the names its tests use as reader.X.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.types import UNSURE_VALUE


LONE_PIP_SIZE = 0.8       # a die read 1 this much smaller than the frame's other dice is read again at their size
# A die read 1 under LONE_PIP_SIZE of the side of the dice read other values (or in a frame where
# every die reads 1), around which, past its corners (0.75-0.9 of its side from its centre), at
# least OUTLINE_UNSEEN of the pixels are within FACE_COLOUR_NEAR (OpenCV's 8-bit Lab) of its
# face's colour, may be a pip of a bigger die: unsure (_ones_inside_a_bigger_face).
OUTLINE_UNSEEN = 0.9
FACE_COLOUR_NEAR = 14.0
ON_A_FACE = 0.35          # a die whose centre is this near (x and y, in sides) a bigger die's centre ...
ON_A_FACE_SMALLER = 0.8   # ... and that is this much smaller is part of that die's face, never a die


def _side_of(box: Any) -> float:
    """A box's mean side (a reported die's, a classical blob's): what dice and finds are measured by."""
    return (box[2] - box[0] + box[3] - box[1]) / 2


@dataclass
class _Pending:
    """A die of the reader's `_learned_dice` before it is added: frame-wide checks may still make it unsure."""
    value: int | None
    box: Any
    centre: tuple[float, float]
    conf: float
    codes: list[str]
    side: float

    def make_unsure(self, conf: float) -> None:
        """No value after all (a frame-wide check doubts it): the table will ask."""
        self.value, self.conf, self.codes = None, conf, self.codes + [UNSURE_VALUE]


def _on_another_face(pending: list[_Pending]) -> list[_Pending]:
    """The dice that lie on the middle of a clearly bigger die's face and read another value.

    Two dice cannot lie one on the other's top face and both show theirs flat, so such a find
    is part of the bigger die: the detector took one of its pips for a small die (a corner of
    a 2 in a row of touching dice reads 1 at 0.96, a blob of its own from the split). It gets
    no value; the bigger die keeps its own. Only where the bigger die is read, and read
    otherwise: a find reading the same value is the same die found twice (its value is right),
    and beside an unread find the smaller one may be the true face (an oblique photo's die,
    whose bigger find took in its side)."""
    def span(d: _Pending) -> float:     # the box reported (the find's side may be a corner's)
        return float(max(d.box[2] - d.box[0], d.box[3] - d.box[1]))

    out = []
    for d in pending:
        if d.value is None:
            continue
        if any(o is not d and o.value is not None and o.value != d.value
               and span(d) < ON_A_FACE_SMALLER * span(o)
               and abs(d.centre[0] - o.centre[0]) < ON_A_FACE * span(o)
               and abs(d.centre[1] - o.centre[1]) < ON_A_FACE * span(o) for o in pending):
            out.append(d)
    return out


def _ones_inside_a_bigger_face(bgr: np.ndarray, pending: list[_Pending]) -> list[_Pending]:
    """The dice read 1 that may be pips of a bigger die: clearly smaller (LONE_PIP_SIZE) than the
    frame's dice read other values, with nothing around them to show where they end
    (_outline_unseen).

    Big black dice on dark felt, uncalibrated: the segmenter sees no bodies, the detector finds
    each white pip as a small die and the classifier reads it 1, surely; read again at the other
    dice's size (_small_ones_read_again), a crop centred on a pip still shows that pip alone. A
    rendered tray of six read "1 1 1 1 1 5" (two 2s and a 5): the count was right, so the table
    would have offered it. Such a 1's face is the colour of everything around it, so nothing
    says it is a die of its own. Measured on the dice read 1 (2026-11-26): all 5 such pips of
    the 120 px sweep had 0.91-1.0 of their surroundings the face's colour, at 0.52-0.64 of the
    other dice's side; the 24 real 1s of the Byler photos that are under 0.8 of the other dice's
    side have 0.0-0.8 (real 1s the colour of their surface reach 1.0, but none is that small).
    The cost: a small real 1 the felt's colour, whose box took in little more than its pip, is
    made unsure too (one black 25 px die on the dark felt of the 25 px sweep): the table asks,
    which is better than offering a wrong value.

    Where every die of the frame reads 1 (two or more), there is no other die to measure them by,
    and a whole tray of big black dice can read "1 1 1 1" from its pips: then each 1 whose
    outline is unseen is unsure. The 120 px sweep over six trays a style and colour (4,025
    dice): 12 wrong values -> 5, 4 more read right; no other sweep (25-100 px, touching, six
    trays at 40, 60 and 80 px) and no photo changed. A real throw of all 1s whose dice stand
    out from the felt keeps its values."""
    others = [_side_of(d.box) for d in pending if d.value is not None and d.value != 1]
    ones = [(d, _side_of(d.box)) for d in pending if d.value == 1]
    if others:
        small = LONE_PIP_SIZE * float(np.median(others))
        ones = [(d, side) for d, side in ones if side < small]
    elif len(ones) < 2:  # every die read is a 1: nothing to be smaller than, but nothing shows a die either
        return []
    return [d for d, side in ones if _outline_unseen(bgr, d.centre, side)]


def _outline_unseen(bgr: np.ndarray, centre: tuple[float, float], side: float) -> bool:
    """Is the colour of this die's face (0.25-0.33 of its side from its centre: between a 1's
    pip and its edge, at any turn) also the colour all around it past its corners (0.75-0.9),
    so that nothing shows where it ends? (Parts out of the frame are left out.)"""
    h, w = bgr.shape[:2]
    cx, cy = centre
    reach = 0.9 * side
    x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
    x1, y1 = min(w, int(cx + reach) + 1), min(h, int(cy + reach) + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return False
    lab = cv2.cvtColor(bgr[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    r = np.hypot(xx - cx, yy - cy) / max(side, 1.0)
    face = lab[(r >= 0.25) & (r <= 0.33)]
    around = lab[(r >= 0.75) & (r <= 0.9)]
    if len(face) < 5 or len(around) < 5:
        return False
    near = np.linalg.norm(around - np.median(face, axis=0), axis=1) < FACE_COLOUR_NEAR
    return float(near.mean()) >= OUTLINE_UNSEEN
