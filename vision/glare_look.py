"""A second look at a die read in a lamp's glare: the verifier, on the die's own box, turned.

The glare hides pips, so the table asks the players' OK for a die in it read less than
`controller.tray_words.GLARE_SURE` (0.99) sure. Read once, by the classifier on the detector's
crop, almost every such die is under that: on 400 rendered trays with a lamp's spot
(`python -m controller.bench_glare`), 134 throws waited for an OK needlessly to catch 1 wrong
die, and players who press OK blindly catch nothing.

A wrong read in the glare is a crop that shows fewer pips than the die has: the detector's crop
taken off-centre into the spot (a 6 read 3), or a corner pip washed out (a 3 read 2). Looked at
again by the verifier (another net) on the die's own outline and turned by each right angle,
each turn sees the spot elsewhere on the crop: on 3,000 rendered trays (normal and strong spots)
none of the 17 wrong dice had all four views read its value with a mean of 0.9 (the surest:
0.87, its face 0.93 saturated), while most right ones do (944 of 1,139 read under 0.99). So a
die whose four views all read its value, at least GLARE_TURNED_SURE on average, and whose face
is not all washed out (WASHED_OUT), gets the two looks' combined confidence (as a classical read
that agrees does, vision.reader); any other keeps its first read's confidence, and is asked as
before: throws asked 973 -> 226 on those trays, none of the 17 taken.
"""
from __future__ import annotations

from typing import Protocol, Sequence

import cv2
import numpy as np

from vision import dicenet
from vision.types import GLARE

GLARE_TURNED_SURE = 0.9    # the four turned views' mean for the value (wrong reads under 0.8: 0.12-0.85)
WASHED_OUT = 0.8           # a face this much saturated may hide every pip: no look vouches for it
SATURATED = 245            # a pixel this bright in every channel is washed out (as vision.segment's glare)


class Looked(Protocol):
    """What a die of the reader's exposes to be looked at again (vision.pending_dice._Pending)."""

    value: int | None
    box: tuple[int, int, int, int]
    centre: tuple[float, float]
    conf: float
    codes: list[str]


def glare_looked_again(bgr: np.ndarray, dice: Sequence[Looked], model: object | None) -> None:
    """Raise the confidence of the dice read in the glare that the verifier's turned second look
    confirms (see the module's docstring); the others are left as they are. `model`: the
    verifier's file, or None (no verifier: nothing is looked at again, every such die is asked)."""
    which = [d for d in dice if d.value is not None and GLARE in d.codes and d.conf < 1.0
             and washed_out(bgr, d.centre, _side(d.box)) < WASHED_OUT]
    if model is None or not which:
        return
    views = [(d.centre, _side(d.box)) for d in which]
    crops = dicenet.crops(bgr, views, dicenet.VERIFY_SIZE)
    turned = np.concatenate([np.ascontiguousarray(np.rot90(crops, k, axes=(1, 2))) for k in range(4)])
    probs = dicenet.classify(turned, model).reshape(4, len(which), -1)
    for j, d in enumerate(which):
        p = probs[:, j, :]
        agree = all(int(np.argmax(q[1:])) + 1 == d.value for q in p)
        mean = float(p[:, d.value].mean())
        if agree and mean >= GLARE_TURNED_SURE:
            d.conf = 1.0 - (1.0 - d.conf) * (1.0 - mean)


def washed_out(bgr: np.ndarray, centre: tuple[float, float], side: float) -> float:
    """The share of a die's face (the middle 0.8 of its box) that the glare saturates: where
    nearly all of it is, every pip may be gone, and nets that see the same blank agree on a
    wrong value (a 3 read 2 with 0.93 of the face saturated)."""
    h = 0.4 * side
    x0, y0 = max(0, int(centre[0] - h)), max(0, int(centre[1] - h))
    x1, y1 = min(bgr.shape[1], int(np.ceil(centre[0] + h))), min(bgr.shape[0], int(np.ceil(centre[1] + h)))
    if x1 <= x0 or y1 <= y0:
        return 0.0
    face = bgr[y0:y1, x0:x1]
    return cv2.countNonZero(cv2.inRange(face, (SATURATED,) * 3, (255,) * 3)) / float(face.shape[0] * face.shape[1])


def _side(box: Sequence[float]) -> float:
    """A box's mean side: the size of the die's crop."""
    return (box[2] - box[0] + box[3] - box[1]) / 2
