"""A blob's shape, measured once: the numbers every judgement of the segmenter is made on.

Why its own module: the segmenter (vision/segment.py), the wall peeling (vision/tray_walls.py)
and the cutting of touching dice (vision/touching_dice.py) all look at blobs through the same
measures -- area, rotated rectangle, fill, aspect, roundness -- and the same masks of one blob
(drawn in a small window around it, not the whole frame). Moved out of segment.py unchanged;
`segment` re-exports the names used through it.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

ROUND = 0.84             # area / enclosing-circle area above this: a disc, not a square (0.64)
_K3 = np.ones((3, 3), np.uint8)
_K5 = np.ones((5, 5), np.uint8)


@dataclass
class _Blob:
    """One connected piece of a mask and its shape measures (work pixels), computed once."""

    area: float
    rect: tuple
    fill: float
    aspect: float
    roundness: float
    contour: np.ndarray
    circle: tuple[float, float, float]   # the enclosing circle its roundness is measured by: x, y, r


def _blob(cnt: np.ndarray) -> _Blob:
    """The shape measures of the outline `cnt`."""
    area = float(cv2.contourArea(cnt))
    rect = cv2.minAreaRect(cnt)
    rw, rh = rect[1]
    fill = area / max(rw * rh, 1e-6)
    aspect = max(rw, rh) / max(min(rw, rh), 1e-6)
    (x, y), r = cv2.minEnclosingCircle(cnt)
    return _Blob(area, rect, fill, aspect, area / max(np.pi * r * r, 1e-6), cnt, (x, y, r))


def _squareish(b: _Blob) -> bool:
    """Filled, not long, not round: the outline of a die's top face."""
    return b.fill > 0.72 and b.aspect < 1.45 and b.roundness < ROUND


def _die_like(b: _Blob, die_area: float) -> bool:
    """One die: squareish and of a die's area (0.4 to 1.9 of `die_area`)."""
    return 0.4 * die_area <= b.area <= 1.9 * die_area and _squareish(b)


def _blobs(mask: np.ndarray) -> list[_Blob]:
    """The outer blobs of `mask` and those in holes of others (5 points and 12 px at least)."""
    # CCOMP, not EXTERNAL: dice sit inside the hole of a tray-rim blob and must still be seen.
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for i, c in enumerate(contours):
        if hier[0][i][3] >= 0 or len(c) < 5 or cv2.contourArea(c) < 12:
            continue
        out.append(_blob(c))
    return out


def _fill_mask(cnt: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """The outline `cnt` filled, on a mask of `shape`."""
    m = np.zeros(shape, np.uint8)
    cv2.drawContours(m, [cnt], -1, 255, cv2.FILLED)
    return m


def _local_mask(cnt: np.ndarray, pad: int = 2) -> tuple[np.ndarray, int, int]:
    """The outline `cnt` filled on a mask just its size (plus `pad`), and that mask's corner in
    the frame: a blob's own work without a frame-sized image."""
    x, y, w, h = cv2.boundingRect(cnt)
    m = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(m, [cnt], -1, 255, cv2.FILLED, offset=(-x + pad, -y + pad))
    return m, x - pad, y - pad


def _parts(m: np.ndarray, ox: int, oy: int, min_area: float) -> list[_Blob]:
    """The outer blobs of the local mask `m` (its corner at ox, oy) of `min_area` or more, in
    frame coordinates."""
    cs, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in cs:
        if len(c) >= 5 and cv2.contourArea(c) >= min_area:
            out.append(_blob(c + np.array([ox, oy], dtype=c.dtype)))
    return out
