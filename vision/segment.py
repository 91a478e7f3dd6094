"""Find die bodies on a frame: colour difference from the local tray background.

Why this way: dice come in every colour, trays are light or dark, and the light is uneven, so
neither a fixed colour nor a global threshold works. A die is a compact patch that differs from
the surface *around it*, so we model that surface with a large median filter (dice are small
compared to it) and threshold the colour distance relative to the frame's own noise level.
Work is done at reduced resolution: die bodies are large, only the pips need full detail.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WORK_SIDE = 320          # long side of the segmentation image
KERNEL_DICE = 3.0        # background median window, in die widths
MIN_WORK_DIE = 12.0      # a die narrower than this (work pixels) cannot be segmented reliably


@dataclass
class Candidate:
    """One die-sized blob, in full-frame coordinates."""

    centre: tuple[float, float]
    size: tuple[float, float]       # rotated-rect width, height
    angle: float                    # rotated-rect angle in degrees
    box: tuple[int, int, int, int]  # axis-aligned x0, y0, x1, y1
    area: float                     # blob area in full-frame pixels
    fill: float                     # area / rotated-rect area: ~0.9 for a die, 0.78 for a disc
    touching: bool = False          # was split from a larger blob
    at_border: bool = False         # cut by the frame or tray edge
    contour: np.ndarray | None = None  # work-scale contour (for debugging / annotation)


@dataclass
class Segmentation:
    candidates: list[Candidate]
    die_px: float | None            # estimated die side in full-frame pixels
    foreign: list[tuple[int, int, int, int]]  # large blobs that are not dice
    scale: float                    # work / full


def _odd(n: float) -> int:
    k = max(3, int(round(n)))
    return k if k % 2 else k + 1


def background_lab(lab: np.ndarray, kernel_frac: float) -> np.ndarray:
    """Median-filtered tray surface; computed on a small copy because it is smooth anyway."""
    h, w = lab.shape[:2]
    f = 96.0 / max(h, w)
    small = cv2.resize(lab, (max(8, round(w * f)), max(8, round(h * f))), interpolation=cv2.INTER_AREA)
    k = _odd(kernel_frac * max(small.shape[:2]))
    k = min(k, _odd(min(small.shape[:2]) - 2))
    bg = cv2.medianBlur(small, k)
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


def colour_distance(lab: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """Perceptual-ish distance; OpenCV's 8-bit a/b are compressed vs L, so weight them up."""
    d = lab.astype(np.int16) - bg.astype(np.int16)
    dl = d[:, :, 0].astype(np.float32)
    da = d[:, :, 1].astype(np.float32) * 2.0
    db = d[:, :, 2].astype(np.float32) * 2.0
    return cv2.magnitude(cv2.magnitude(dl, da), db)


def foreground_mask(dist: np.ndarray, roi_mask: np.ndarray | None) -> tuple[np.ndarray, float]:
    """Threshold scaled to the frame's own background noise (robust: median + MAD)."""
    vals = dist if roi_mask is None else dist[roi_mask > 0]
    if vals.size == 0:
        vals = dist.ravel()
    # Most of a tray frame is tray, so the median distance measures the background's own
    # texture + noise; dice, rims and off-tray areas sit far in the tail.
    med = float(np.median(vals))
    thr = float(np.clip(3.5 * med + 8.0, 16.0, 45.0))
    mask = (dist > thr).astype(np.uint8) * 255
    if roi_mask is not None:
        mask &= roi_mask
    return mask, thr


def fill_holes(mask: np.ndarray, max_hole: float | None = None) -> np.ndarray:
    """Fill pips and glare holes; big holes (the inside of a tray rim loop) stay open."""
    if max_hole is None:
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out = np.zeros_like(mask)
        cv2.drawContours(out, contours, -1, 255, thickness=cv2.FILLED)
        return out
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    if hier is None:
        return out
    for i, c in enumerate(contours):
        if hier[0][i][3] >= 0 and cv2.contourArea(c) < max_hole:
            cv2.drawContours(out, [c], -1, 255, thickness=cv2.FILLED)
    return out


def _blob_stats(cnt: np.ndarray) -> tuple[float, tuple, float, float]:
    area = float(cv2.contourArea(cnt))
    rect = cv2.minAreaRect(cnt)
    rw, rh = rect[1]
    fill = area / max(rw * rh, 1e-6)
    aspect = max(rw, rh) / max(min(rw, rh), 1e-6)
    return area, rect, fill, aspect


def _estimate_die_side(blobs: list[tuple], min_area: float) -> float | None:
    """Median side of the blobs that look like single dice (square, well filled)."""
    sides = [
        np.sqrt(a) for a, _r, fill, aspect, _c in blobs
        if a >= min_area and fill > 0.75 and aspect < 1.3
    ]
    if not sides:
        # No lone die: guess from elongated well-filled blobs (rows of touching dice).
        sides = [np.sqrt(a / max(1, round(aspect))) for a, _r, fill, aspect, _c in blobs
                 if a >= min_area and fill > 0.7 and aspect < 3.3]
    if not sides:
        return None
    return float(np.median(sides))


def _split_blob(cnt: np.ndarray, n: int, shape: tuple[int, int]) -> list[np.ndarray]:
    """Split touching dice: watershed from distance-transform peaks, k-means as fallback."""
    x, y, w, h = cv2.boundingRect(cnt)
    pad = 2
    m = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(m, [cnt], -1, 255, cv2.FILLED, offset=(-x + pad, -y + pad))
    pts = np.column_stack(np.nonzero(m)[::-1]).astype(np.float32)  # (x, y)
    if len(pts) < n * 4:
        return [cnt]
    dt = cv2.distanceTransform(m, cv2.DIST_L2, 3)
    labels = None
    for frac in (0.7, 0.6, 0.5):
        _, peaks = cv2.threshold(dt, frac * float(dt.max()), 255, cv2.THRESH_BINARY)
        nlab, lab = cv2.connectedComponents(peaks.astype(np.uint8))
        if nlab - 1 == n:
            markers = lab.astype(np.int32)
            markers[(m > 0) & (lab == 0)] = 0
            markers[m == 0] = n + 1
            ws = cv2.watershed(cv2.cvtColor(m, cv2.COLOR_GRAY2BGR), markers)
            labels = ws
            break
    parts: list[np.ndarray] = []
    if labels is None:
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
        _, km, _ = cv2.kmeans(pts, n, None, crit, 3, cv2.KMEANS_PP_CENTERS)
        labels = np.zeros(m.shape, np.int32) - 1
        labels[pts[:, 1].astype(int), pts[:, 0].astype(int)] = km.ravel() + 1
    for i in range(1, n + 1):
        sub = ((labels == i) & (m > 0)).astype(np.uint8) * 255
        sub = cv2.morphologyEx(sub, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        cs, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if cs:
            c = max(cs, key=cv2.contourArea)
            parts.append(c + np.array([x - pad, y - pad], dtype=c.dtype))
    return parts or [cnt]


def segment(bgr: np.ndarray, die_px: float | None = None,
            tray: tuple[int, int, int, int] | None = None) -> Segmentation:
    """Find die-sized blobs. `die_px` / `tray` come from calibration when available."""
    H, W = bgr.shape[:2]
    scale = min(1.0, WORK_SIDE / max(H, W))
    if die_px:
        scale = min(1.0, max(scale, MIN_WORK_DIE / die_px))
    small = cv2.resize(bgr, (max(1, round(W * scale)), max(1, round(H * scale))),
                       interpolation=cv2.INTER_AREA) if scale < 1.0 else bgr
    h, w = small.shape[:2]
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)

    roi_mask = None
    if tray is not None:
        roi_mask = np.zeros((h, w), np.uint8)
        x0, y0, x1, y1 = [int(round(v * scale)) for v in tray]
        roi_mask[max(0, y0):max(0, y1), max(0, x0):max(0, x1)] = 255

    # Background kernel: several dice wide. Without calibration, start from a fraction of the
    # frame, then redo with a kernel sized from the dice we found if they turn out large.
    kfrac = 0.22 if not die_px else min(0.8, KERNEL_DICE * die_px * scale / max(h, w))
    edges = _edges(lab)
    mask = _mask(lab, kfrac, roi_mask)
    blobs = _blobs(mask, edges)
    est = die_px * scale if die_px else _estimate_die_side(blobs, (MIN_WORK_DIE * 0.8) ** 2)
    if not die_px and est is not None:
        # Second pass sized from the dice found: a few dice wide, so that the median follows
        # tray walls and rims (they become "surface") but never a single die.
        kfrac = min(0.8, KERNEL_DICE * est / max(h, w))
        mask = _mask(lab, kfrac, roi_mask)
        blobs = _blobs(mask, edges)
        est = _estimate_die_side(blobs, (MIN_WORK_DIE * 0.8) ** 2) or est

    cands: list[Candidate] = []
    foreign: list[tuple[int, int, int, int]] = []
    if est is None:
        return Segmentation(cands, None, foreign, scale)
    die_area = est * est
    inv = 1.0 / scale
    border = 2
    rx0, ry0, rx1, ry1 = (0, 0, w, h) if tray is None else (
        max(0, tray[0] * scale), max(0, tray[1] * scale), min(w, tray[2] * scale), min(h, tray[3] * scale))

    def add(pc: np.ndarray, touching: bool) -> None:
        a, r, f, asp = _blob_stats(pc)
        if a < 0.35 * die_area or a > 2.2 * die_area or asp > 2.0 or f < 0.55:
            return
        (cx, cy), (rw, rh), ang = r
        for o in cands:  # a die inside a rim blob's hole is seen twice: keep the first
            if np.hypot(o.centre[0] * scale - cx, o.centre[1] * scale - cy) < 0.5 * est:
                return
        bx, by, bw, bh = cv2.boundingRect(pc)
        at_border = bx <= rx0 + border or by <= ry0 + border or bx + bw >= rx1 - border \
            or by + bh >= ry1 - border
        cands.append(Candidate(
            centre=(cx * inv, cy * inv), size=(rw * inv, rh * inv), angle=ang,
            box=_full_box((bx, by, bw, bh), inv, W, H), area=a * inv * inv, fill=f,
            touching=touching, at_border=at_border, contour=pc))

    for area, rect, fill, aspect, cnt in blobs:
        if area < 0.35 * die_area:
            continue
        if _die_like(area, fill, aspect, die_area):
            add(cnt, False)
            continue
        if area > 8 * die_area and fill > 0.45 and aspect < 4:
            # Far bigger than any die cluster: a hand, a cup (the tray rim is thin: low fill).
            foreign.append(_full_box(cv2.boundingRect(cnt), inv, W, H))
        # Not a single die: cut it along colour edges (dice against rim / each other).
        for a2, r2, f2, asp2, c2 in _cut_blobs(cnt, edges, die_area):
            if a2 < 0.35 * die_area:
                continue
            if _die_like(a2, f2, asp2, die_area):
                add(c2, True)
                continue
            n = int(round(a2 / die_area))
            if 2 <= n <= 6 and f2 > 0.5:
                pieces = _split_blob(c2, n, (h, w))
                if len(pieces) > 1:
                    for pc in pieces:
                        add(pc, True)
    return Segmentation(cands, est * inv, foreign, scale)


def _die_like(area: float, fill: float, aspect: float, die_area: float) -> bool:
    return 0.35 * die_area <= area <= 1.9 * die_area and fill > 0.72 and aspect < 1.45


def _edges(lab: np.ndarray) -> np.ndarray:
    """Colour edges (chroma boosted) used to cut dice off the rim and off each other."""
    lab2 = lab.astype(np.int16)
    lab2[:, :, 1:] = (lab2[:, :, 1:] - 128) * 2 + 128
    lab2 = np.clip(lab2, 0, 255).astype(np.uint8)
    return cv2.Canny(cv2.GaussianBlur(lab2, (3, 3), 0), 40, 100)


def _mask(lab: np.ndarray, kfrac: float, roi_mask: np.ndarray | None) -> np.ndarray:
    bg = background_lab(lab, kfrac)
    dist = colour_distance(lab, bg)
    mask, _thr = foreground_mask(dist, roi_mask)
    return mask


def refine_background(lab: np.ndarray, fg: np.ndarray, kfrac: float, fallback: np.ndarray) -> np.ndarray:
    """Normalised box filter of the background-only pixels, on a small copy."""
    h, w = lab.shape[:2]
    f = 96.0 / max(h, w)
    sw, sh = max(8, round(w * f)), max(8, round(h * f))
    lab_s = cv2.resize(lab, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float32)
    wgt = cv2.resize((fg == 0).astype(np.float32), (sw, sh), interpolation=cv2.INTER_AREA)
    wgt = (wgt > 0.99).astype(np.float32)
    k = _odd(kfrac * 0.6 * max(sw, sh))
    num = cv2.boxFilter(lab_s * wgt[:, :, None], -1, (k, k), normalize=True)
    den = cv2.boxFilter(wgt, -1, (k, k), normalize=True)
    fb = cv2.resize(fallback, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float32)
    ok = den > 0.05
    out = np.where(ok[:, :, None], num / np.maximum(den, 1e-6)[:, :, None], fb)
    out = cv2.resize(out, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(out, 0, 255).astype(np.uint8)


def _cut_blobs(cnt: np.ndarray, edges: np.ndarray, die_area: float) -> list[tuple]:
    """Components of one blob after removing edge pixels (4-connected so thin cuts hold)."""
    x, y, w, h = cv2.boundingRect(cnt)
    m = np.zeros((h, w), np.uint8)
    cv2.drawContours(m, [cnt], -1, 255, cv2.FILLED, offset=(-x, -y))
    cut = m & ~edges[y:y + h, x:x + w]
    n, lbl, stats, _ = cv2.connectedComponentsWithStats(cut, connectivity=4)
    out = []
    k3 = np.ones((3, 3), np.uint8)
    for i in range(1, n):
        cx, cy, cw, ch, ca = stats[i]
        # Only die-sized pieces matter (edge pixels removed make pieces a bit small).
        if ca < 0.2 * die_area or cw * ch > 10 * die_area:
            continue
        x0, y0 = max(0, cx - 2), max(0, cy - 2)
        x1, y1 = min(w, cx + cw + 2), min(h, cy + ch + 2)
        sub = (lbl[y0:y1, x0:x1] == i).astype(np.uint8) * 255
        sub = cv2.dilate(sub, k3) & m[y0:y1, x0:x1]
        sub = fill_holes(sub)
        cs, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in cs:
            if len(c) < 5:
                continue
            c = c + np.array([x + x0, y + y0], dtype=c.dtype)
            area, rect, fill, aspect = _blob_stats(c)
            out.append((area, rect, fill, aspect, c))
    return out


def _blobs(mask: np.ndarray, edges: np.ndarray | None = None) -> list[tuple]:
    k3 = np.ones((3, 3), np.uint8)
    m = cv2.morphologyEx(mask, cv2.MORPH_OPEN, k3)
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, k3)
    m = fill_holes(m, max_hole=m.size / 40)
    # CCOMP, not EXTERNAL: dice sit inside the hole of a tray-rim blob and must still be seen.
    contours, hier = cv2.findContours(m, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for i, c in enumerate(contours):
        if hier[0][i][3] >= 0 or len(c) < 5:
            continue
        area, rect, fill, aspect = _blob_stats(c)
        if area < 20:
            continue
        out.append((area, rect, fill, aspect, c))
    return out


def _full_box(r: tuple[int, int, int, int], inv: float, W: int, H: int) -> tuple[int, int, int, int]:
    x, y, w, h = r
    return (max(0, int(x * inv)), max(0, int(y * inv)),
            min(W, int(round((x + w) * inv))), min(H, int(round((y + h) * inv))))
