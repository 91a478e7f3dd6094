"""Cut a blob that is not one die into die-sized pieces: touching dice apart, walls and rims left out.

Why its own module: it is the segmenter's one judgement made inside a blob rather than on its
shape -- colour edges between the dice first, then distance-transform peaks (watershed), then
k-means on the expected count -- together with the checks that keep a smooth sharp-cornered
thing (a card) and a thin band (a rim, an arm reaching in) from being cut into "dice". The
segmenter (vision/segment.py) calls `_split` on each blob it could not take whole. Moved out of
segment.py unchanged; `segment` re-exports the names used through it.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.blob_shape import ROUND, _K5, _Blob, _die_like, _local_mask, _parts
from vision.surface_model import _odd, fill_holes


def _chroma_x2(lab: np.ndarray) -> np.ndarray:
    """a and b twice as far from neutral (128), saturating; L unchanged."""
    lab2 = lab.astype(np.int16)
    lab2[:, :, 1:] = (lab2[:, :, 1:] - 128) * 2 + 128
    return np.clip(lab2, 0, 255).astype(np.uint8)


# the same as a per-channel lookup table (one OpenCV call instead of six array operations)
_CHROMA_X2 = _chroma_x2(np.repeat(np.arange(256, dtype=np.uint8)[:, None, None], 3, axis=2)).reshape(1, 256, 3)


def edges(lab: np.ndarray, grad_thr: float) -> np.ndarray:
    """Thin colour edges (chroma boosted) along which touching dice are cut apart."""
    lab2 = cv2.LUT(lab, _CHROMA_X2) if lab.dtype == np.uint8 and lab.ndim == 3 and lab.shape[2] == 3 \
        else _chroma_x2(lab)
    hi = float(np.clip(grad_thr, 40.0, 160.0))
    return cv2.Canny(cv2.GaussianBlur(lab2, (3, 3), 0), 0.4 * hi, hi)


def _cut(m: np.ndarray, edge: np.ndarray, min_area: float) -> list[np.ndarray]:
    """Pieces of a blob mask after removing edge pixels (4-connected, so thin cuts hold)."""
    cut = m & ~edge
    n, lbl, stats, _ = cv2.connectedComponentsWithStats(cut, connectivity=4)
    k3 = np.ones((3, 3), np.uint8)
    out = []
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < min_area:
            continue
        sub = (lbl == i).astype(np.uint8) * 255
        sub = cv2.dilate(sub, k3) & m     # give back the edge pixels taken off
        out.append(fill_holes(sub))
    return out


def _split(b: _Blob, lab: np.ndarray, gthr: float, est: float
           ) -> tuple[list[tuple[_Blob, bool]], float]:
    """Die-sized pieces of a blob that is not one die (dice cut apart, walls left out), and
    the blob's edge density (edge pixels per blob pixel: high for a heap of dice)."""
    die_area = est * est
    m, ox, oy = _local_mask(b.contour)
    hh, ww = m.shape
    e = np.zeros_like(m)
    ys, xs = max(0, oy), max(0, ox)
    sub = edges(lab[ys:oy + hh, xs:ox + ww], gthr)
    e[ys - oy:ys - oy + sub.shape[0], xs - ox:xs - ox + sub.shape[1]] = sub
    e &= m
    # edge density inside the blob (its own outline left out: a small hand has a long one)
    inner = cv2.erode(m, _K5)
    density = float(cv2.countNonZero(e & inner)) / max(float(cv2.countNonZero(inner)), 1.0)
    out: list[tuple[_Blob, bool]] = []
    multi: list[_Blob] = []
    for piece in _cut(m, e, 0.2 * die_area):
        for p in _parts(piece, ox, oy, 0.3 * die_area):
            if _die_like(p, die_area):
                out.append((p, True))
            elif p.area >= 1.5 * die_area and p.roundness < ROUND \
                    and min(p.rect[1]) >= 0.7 * est \
                    and (p.fill >= 0.5 or (not _at_frame_edge(p, lab.shape) and _die_thick(p, est) >= THICK_FRAC)):
                multi.append(p)   # at least one die thick: a heap or a row of dice
    for p in multi:
        n = int(round(p.area / die_area))
        if n > 12:
            continue
        pm, px, py = _local_mask(p.contour)
        pieces = _split_blob(p.contour, max(n, 2), est)
        if len(pieces) >= 2 and density < ONE_THING_EDGES and p.fill >= ONE_THING_FILL \
                and _cut_support(pm, px, py, pieces, e, ox, oy) < CUT_SUPPORT:
            continue    # a smooth, sharp-cornered slab cut where no outline runs: one thing (a card), not dice
        for q in pieces:
            if not (0.35 * die_area <= q.area <= 1.9 * die_area and q.aspect < 1.8 and q.fill > 0.6
                    and q.roundness < ROUND):
                continue
            # a piece cut by geometry alone must show some die evidence: outlines or pips
            qm = np.zeros_like(pm)
            cv2.drawContours(qm, [q.contour - np.array([px, py], dtype=q.contour.dtype)], -1, 255,
                             cv2.FILLED)
            ex, ey = px - ox, py - oy
            ew = e[max(0, ey):ey + pm.shape[0], max(0, ex):ex + pm.shape[1]]
            if ew.shape == qm.shape and cv2.countNonZero(ew & qm) < 0.06 * max(q.area, 1.0):
                continue
            out.append((q, True))
    # "touching" only when two or more dice came out of a heap-sized blob (not a die against a
    # wall, not pieces of a board)
    if len(out) < 2 or b.area > 14 * die_area:
        out = [(p, False) for p, _t in out]
    return out, density


# A playing card (white, red pips) was cut into die-sized pieces by its shape alone, a blob four
# to five dice big, and its pips read as dice (1s on its hearts, 2s at its corners): 10 of 20
# rendered trays had dice too many, and the card was never reported as the thing it is. A blob
# is one thing, not dice, when it is all three: smooth (edge density under ONE_THING_EDGES: the
# cards 0.022-0.044; rows of touching white dice drawn edge to edge, no line between them,
# 0.081-0.129; heaps on the Byler photos 0.25-0.33), a sharp-cornered slab (fill of its rotated
# box ONE_THING_FILL or more: the cards 0.972-0.985; rows of dice, their corners round, 0.94-0.95;
# Byler heaps under 0.75), and cut where no outline runs (under CUT_SUPPORT of the cut lines
# within 2 px of an edge: the cards 0.19-0.35; touching dice meet along their outlines, 0.61-0.86
# on rendered heaps, 0.33-1.0 on the Byler photos).
ONE_THING_EDGES = 0.065
ONE_THING_FILL = 0.965
CUT_SUPPORT = 0.45


def _cut_support(pm: np.ndarray, px: int, py: int, pieces: list[_Blob], e: np.ndarray, ox: int, oy: int) -> float:
    """The share of the lines along which `pieces` cut the blob `pm` (work pixels, its corner at
    px, py) that run within 2 px of an edge of `e` (its corner at ox, oy): touching dice are cut
    where they meet, along their outlines; one thing cut by its shape alone, across its face."""
    lines = np.zeros_like(pm)
    for q in pieces:
        cv2.drawContours(lines, [q.contour - np.array([px, py], dtype=q.contour.dtype)], -1, 255, 1)
    lines &= cv2.erode(pm, _K5)
    ex, ey = px - ox, py - oy
    ew = np.zeros_like(pm)
    sub = e[max(0, ey):ey + pm.shape[0], max(0, ex):ex + pm.shape[1]]
    ew[max(0, -ey):max(0, -ey) + sub.shape[0], max(0, -ex):max(0, -ex) + sub.shape[1]] = sub
    n = cv2.countNonZero(lines)
    return float(cv2.countNonZero(lines & cv2.dilate(ew, _K5))) / n if n else 1.0


KMEANS_SEED = 1          # see _split_blob: a fixed seed makes the cut of a heap reproducible
THICK_FRAC = 0.8        # share of a sprawling blob that must be die-thick to be cut into dice


def _at_frame_edge(b: _Blob, shape: tuple[int, ...]) -> bool:
    """The blob reaches the frame edge: a sprawling one there may be an arm or hand reaching in."""
    x, y, w, h = cv2.boundingRect(b.contour)
    return x <= 1 or y <= 1 or x + w >= shape[1] - 1 or y + h >= shape[0] - 1


def _die_thick(b: _Blob, est: float) -> float:
    """Share of a blob that lies in die-thick parts (an opening with a disc of most of a die
    side keeps a chain or heap of dice, even a diagonal or bent one whose bounding rectangle is
    mostly empty, and peels off thin bands: a rim, a wall, a shadow streak)."""
    m, _x, _y = _local_mask(b.contour)
    k = _odd(0.6 * est)
    o = cv2.morphologyEx(m, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return float(cv2.countNonZero(o)) / max(float(cv2.countNonZero(m)), 1.0)


def _split_blob(cnt: np.ndarray, n: int, est: float) -> list[_Blob]:
    """Split touching dice: watershed from distance-transform peaks, k-means as fallback."""
    m, ox, oy = _local_mask(cnt)
    pts = np.column_stack(np.nonzero(m)[::-1]).astype(np.float32)  # (x, y)
    if len(pts) < n * 4:
        return []
    dt = cv2.distanceTransform(m, cv2.DIST_L2, 3)
    labels = None
    # Peaks of the distance transform: die centres are ~est/2 from the blob edge.
    k = _odd(0.6 * est)
    dil = cv2.dilate(dt, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    peaks = ((dt >= dil - 1e-3) & (dt > 0.3 * est)).astype(np.uint8)
    nlab, lab = cv2.connectedComponents(peaks)
    if 2 <= nlab - 1 <= n + 1 and nlab - 1 >= n - 1:
        markers = lab.astype(np.int32)
        markers[m == 0] = nlab
        ws = cv2.watershed(cv2.cvtColor(m, cv2.COLOR_GRAY2BGR), markers)
        labels, count = ws, nlab - 1
    if labels is None:
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
        # k-means++ draws its seeds from OpenCV's global random generator, whose state moves on
        # with every call: the same frame read twice could be cut differently (and a still tray
        # never "settle"). Seeded here, the same blob is always cut the same way.
        cv2.setRNGSeed(KMEANS_SEED)
        _, km, _ = cv2.kmeans(pts, n, None, crit, 3, cv2.KMEANS_PP_CENTERS)
        labels = np.zeros(m.shape, np.int32) - 1
        labels[pts[:, 1].astype(int), pts[:, 0].astype(int)] = km.ravel() + 1
        count = n
    out: list[_Blob] = []
    k3 = np.ones((3, 3), np.uint8)
    for i in range(1, count + 1):
        sub = ((labels == i) & (m > 0)).astype(np.uint8) * 255
        sub = cv2.morphologyEx(sub, cv2.MORPH_OPEN, k3)
        ps = _parts(sub, ox, oy, 0.2 * est * est)
        if ps:
            out.append(max(ps, key=lambda q: q.area))
    return out
