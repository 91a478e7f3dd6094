"""Dice too blurred to trust: out of focus, or smeared by a camera that moved during the exposure.

Why its own module: these two measures judge the frame, not a die's value -- the reader
(vision/reader.py) asks them once its dice are read, and reports BLURRED: the table waits for
a sharp frame instead of offering values read off a smear. `_sharpness` is the Laplacian's
spread on a die's crop (focus); `_camera_shaken` compares the dice's steepest edges across and
along their weakest direction (a streak softens them one way only). Moved out of reader.py
unchanged; `reader` re-exports `_directional_sharpness` for its test.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.types import Die


def _sharpness(face: np.ndarray) -> float:
    """Std of the Laplacian on the canonical crop: pip edges make it high when in focus."""
    g = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(g, cv2.CV_32F).std())


# A camera that moves during the exposure smears every edge along the movement, and only along
# it: the dice's steepest edges one way are then softer than the other way. Measured on each die
# brought to SHAKE_SIDE px (a streak is judged against the die), median over the frame's dice (1:
# as sharp both ways). Odd Byler half: sharp frames 0.65 and up (1% under 0.79); a 5 px streak at
# 30 degrees (a sixth of a die) 0.58-0.85; 7 px 0.42-0.77 (4 of 62 frames under SHAKE_RATIO); 9 px
# 0.39-0.72 (34 of 62). An oblique view changes the dice's shapes, not the sharpness of their
# edges: the sharp roboflow photos, many taken from the side, 0.54 and up. Such a frame is
# reported blurred (the table waits for a sharp one) and only values SHAKE_SURE sure stand: 9 px,
# 321 right and 42 wrong -> 233 and 21; 7 px 405 and 14 -> 399 and 11; 5 px and sharp frames
# unchanged. Rendered 60 px dice: streaks to 12 px read as before; 16 and 20 px, 46 right and 8
# wrong -> 19 and 1.
SHAKE_RATIO = 0.5
SHAKE_SURE = 0.95
SHAKE_SIDE = 36.0


def _camera_shaken(bgr: np.ndarray, dice: list[Die], f: float) -> bool:
    """Whether the dice's edges are smeared one way (boxes scaled by `f` into `bgr`): the median
    over the dice of `_directional_sharpness` below SHAKE_RATIO.

    The dice are measured one by one and the answer given as soon as more than half of them
    fall on one side of SHAKE_RATIO (the median is then on that side whatever the rest measure):
    a sharp frame, the common case, costs about half of its dice."""
    crops = []
    for d in dice:
        x0, y0, x1, y1 = (int(round(v * f)) for v in d.box)
        crop = bgr[max(0, y0):max(0, y1), max(0, x0):max(0, x1)]
        if min(crop.shape[:2]) >= 8:
            crops.append(crop)
    half = len(crops) // 2
    ratios: list[float] = []
    smeared = 0
    for crop in crops:
        # at a die's size of SHAKE_SIDE px: a streak is judged against the die, not the pixel
        k = SHAKE_SIDE / max(crop.shape[:2])
        crop = cv2.resize(crop, None, fx=k, fy=k, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
        r = _directional_sharpness(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY))
        ratios.append(r)
        smeared += r < SHAKE_RATIO
        if smeared > half or len(ratios) - smeared > half:
            return smeared > half
    # (an even count split half and half: the two middle values decide)
    return bool(ratios) and float(np.median(ratios)) < SHAKE_RATIO


def _directional_sharpness(gray: np.ndarray) -> float:
    """The steepest gradients (98th percentile) across the direction of the weakest ones, over
    those along the strongest (the structure tensor's axes)."""
    gx = cv2.Scharr(gray, cv2.CV_32F, 1, 0)
    gy = cv2.Scharr(gray, cv2.CV_32F, 0, 1)
    jxx, jyy, jxy = float(cv2.mean(gx * gx)[0]), float(cv2.mean(gy * gy)[0]), float(cv2.mean(gx * gy)[0])
    theta = 0.5 * np.arctan2(2.0 * jxy, jxx - jyy)
    c, s = float(np.cos(theta)), float(np.sin(theta))
    strong = np.abs(gx * c + gy * s).ravel()
    weak = np.abs(gy * c - gx * s).ravel()
    k = int(0.98 * (strong.size - 1))
    return float(np.partition(weak, k)[k] / max(np.partition(strong, k)[k], 1e-6))
