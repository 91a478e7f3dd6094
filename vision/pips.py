"""Read the value of one die from a square crop of its top face.

Why this way: pips may be darker or lighter than the face (black on white, white on black,
red on blue ...), so we do not pick a polarity: a pip is a small round patch whose *colour
distance from the face colour* is high. The count alone is not trusted: the pip centres must
fit the layout of a real die face (diagonal, square, 2x3 grid ...) with consistent pip sizes,
and a value is only returned when the fit is clean. Everything is measured on a canonical
N x N crop, so thresholds are relative to the die size, not to the camera.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

N = 48  # canonical face size in pixels
DEBUG = False  # print layout-fit details (development aid)
THR_OTSU = 1.4

# Pip layouts in units of the pip offset `a` from the face centre.
_LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([[0, 0]], np.float32),
    2: np.array([[-1, -1], [1, 1]], np.float32),
    3: np.array([[-1, -1], [0, 0], [1, 1]], np.float32),
    4: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32),
    5: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1], [0, 0]], np.float32),
    6: np.array([[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]], np.float32),
}


_TH = np.deg2rad(np.arange(0, 180, 5, dtype=np.float32))
_ROTS = np.stack([np.stack([np.cos(_TH), -np.sin(_TH)], 1), np.stack([np.sin(_TH), np.cos(_TH)], 1)], 1)


@dataclass
class FaceRead:
    value: int | None
    confidence: float
    pips: list[tuple[float, float, float]] = field(default_factory=list)  # x, y, area (crop px)
    glare: bool = False
    reason: str = ""


def face_transform(centre: tuple[float, float], side: float, angle: float, n: int = N) -> np.ndarray:
    """2x3 affine taking frame pixels to the n x n axis-aligned face crop."""
    s = n / max(side, 1.0)
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), float(angle), s)
    m[0, 2] += n / 2.0 - centre[0]
    m[1, 2] += n / 2.0 - centre[1]
    return m


def face_crop(bgr: np.ndarray, centre: tuple[float, float], side: float, angle: float,
              n: int = N) -> np.ndarray:
    """Rotate the die to the axes and resample its square to n x n."""
    m = face_transform(centre, side, angle, n)
    interp = cv2.INTER_AREA if n < side else cv2.INTER_LINEAR
    return cv2.warpAffine(bgr, m, (n, n), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def crop_mask(contour_frame: np.ndarray, m: np.ndarray, n: int = N) -> np.ndarray:
    """The die's blob outline mapped into the face crop (pips must lie inside it)."""
    pts = contour_frame.reshape(-1, 2).astype(np.float32)
    q = pts @ m[:, :2].T + m[:, 2]
    mask = np.zeros((n, n), np.uint8)
    cv2.fillPoly(mask, [np.round(q).astype(np.int32)], 255)
    return mask


def _distance_map(face: np.ndarray, inner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lab = cv2.cvtColor(face, cv2.COLOR_BGR2LAB).astype(np.float32)
    ref = np.median(lab[inner], axis=0)
    d = lab - ref
    d[:, :, 1:] *= 2.0
    return np.sqrt((d * d).sum(axis=2)), ref


def _fit_layout(pts: np.ndarray, value: int) -> tuple[float, float]:
    """Best residual over layout variants (dice differ in how tight the 6's rows are)."""
    if value != 6:
        return _fit_one(pts, _LAYOUTS[6 if value == 6 else value])
    fits = [_fit_one(pts, _LAYOUTS[6] * np.array([1.0, r], np.float32)) for r in (0.75, 1.0, 1.25)]
    return min(fits)


def _fit_one(pts: np.ndarray, tpl: np.ndarray) -> tuple[float, float]:
    """Residual (in units of pip spacing) of the best rotated/scaled layout, and spacing a."""
    value = len(tpl)
    c = pts.mean(axis=0)
    q = pts - c
    if value == 1:
        return 0.0, 0.0
    t_rms = float(np.sqrt((tpl ** 2).sum(axis=1).mean()))
    a = float(np.sqrt((q ** 2).sum(axis=1).mean())) / t_rms
    if a < 1e-3:
        return 9.0, a
    # All trial rotations at once: (angles, template points, 2).
    t = np.einsum("tj,akj->atk", tpl, _ROTS) * a
    dd = np.sqrt(((q[None, :, None, :] - t[:, None, :, :]) ** 2).sum(axis=3))  # (A, n, T)
    r = 0.5 * (dd.min(axis=2).mean(axis=1) + dd.min(axis=1).mean(axis=1)) / a
    best = float(r.min())
    return best, a


def read_face(face: np.ndarray, mask: np.ndarray | None = None) -> FaceRead:
    """Value and confidence of an N x N axis-aligned face crop (BGR uint8).

    `mask` (optional, N x N uint8) marks the die's body; without it the whole crop is the die.
    """
    n = face.shape[0]
    m = max(1, int(round(0.06 * n)))
    inner = np.zeros(face.shape[:2], bool)
    inner[m:n - m, m:n - m] = True
    centre = (n / 2.0, n / 2.0)
    ref_region = inner.copy()
    allowed = None
    if mask is not None and (mask > 0).sum() > 0.3 * n * n:
        k3 = np.ones((3, 3), np.uint8)
        body = cv2.erode(mask, k3, iterations=max(1, n // 24)) > 0
        if body.sum() > 0.25 * n * n:
            ref_region &= body
            ys, xs = np.nonzero(ref_region)
            centre = (float(xs.mean()), float(ys.mean()))
            allowed = body
    dist, _ref = _distance_map(face, ref_region)
    vals = dist[ref_region]
    peak = float(np.percentile(vals, 99.5))
    if peak < 25:
        return FaceRead(None, 0.0, reason="no contrast on face")
    d8 = np.clip(dist, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(d8[ref_region].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    thr = max(THR_OTSU * float(otsu), 0.3 * peak, 20.0)
    binm = ((dist > thr) & inner).astype(np.uint8)
    binm = cv2.morphologyEx(binm, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    glare = bool(((face.min(axis=2) > 245) & inner).sum() > 0.02 * n * n)

    cnt, lbl, stats, cents = cv2.connectedComponentsWithStats(binm, connectivity=8)
    blobs = []
    for i in range(1, cnt):
        x, y, w, h, area = stats[i]
        if area < 0.004 * n * n or area > 0.12 * n * n:
            continue
        if max(w, h) > 2.0 * min(w, h) + 1:
            continue
        extent = area / float(w * h)
        if extent < 0.45:
            continue
        if allowed is not None and not allowed[int(cents[i][1]), int(cents[i][0])]:
            continue  # outside the die body: table texture, a neighbour's pip
        contrast = float(dist[lbl == i].mean())
        blobs.append((float(cents[i][0]), float(cents[i][1]), float(area), contrast))
    if not blobs:
        return FaceRead(None, 0.0, glare=glare, reason="no pips")
    return _choose(blobs, n, glare, centre)


def _choose(blobs: list[tuple[float, float, float, float]], n: int, glare: bool,
            centre: tuple[float, float]) -> FaceRead:
    """Pick the pip set that best fits a real face layout."""
    arr = np.array(blobs, np.float32)
    areas = arr[:, 2]
    big_single = len(blobs) == 1
    med = float(np.median(areas))
    if not big_single:
        # Pips on one face have the same size: drop outliers (glare spots, specks, ghost pips).
        keep = (areas > 0.45 * med) & (areas < 2.2 * med)
        arr = arr[keep]
    arr = arr[np.argsort(-arr[:, 3])]  # strongest contrast first
    options: list[np.ndarray] = [arr]
    if len(arr) >= 2:
        for i in range(len(arr)):
            options.append(np.delete(arr, i, axis=0))
    best: FaceRead | None = None
    for opt in options:
        k = len(opt)
        if k < 1 or k > 6:
            continue
        pts = opt[:, :2]
        res, a = _fit_layout(pts, k)
        centroid = pts.mean(axis=0)
        off = float(np.hypot(centroid[0] - centre[0], centroid[1] - centre[1])) / n
        if k == 1:
            if off > 0.2:
                continue
            conf = 0.85 - off
        else:
            if not (0.12 * n <= a <= 0.4 * n) or off > 0.22:
                continue
            sz = opt[:, 2]
            size_var = float(sz.std() / max(sz.mean(), 1e-6))
            conf = 1.0 - 1.6 * res - 0.5 * size_var - off
            if DEBUG: print("k",k,"res",round(res,3),"a",round(a/n,3),"sv",round(size_var,3),"off",round(off,3),"pen",len(arr)-k)
        penalty = 0.15 * (len(arr) - k)  # dropping a blob costs confidence
        conf -= penalty
        fr = FaceRead(k, float(np.clip(conf, 0.0, 1.0)),
                      pips=[(float(x), float(y), float(s)) for x, y, s, _ in opt], glare=glare)
        if best is None or fr.confidence > best.confidence:
            best = fr
    if best is None:
        return FaceRead(None, 0.0, glare=glare, reason=f"{len(arr)} blobs fit no layout")
    if best.confidence < 0.45:
        return FaceRead(None, best.confidence, pips=best.pips, glare=glare, reason="weak layout fit")
    return best
