"""How far each pixel of a frame is from the tray surface, and the thresholds that make it a mask.

Why its own module: these are the segmenter's per-pixel measures -- a smooth model of the surface
(a large median filter), colour distance with shadows forgiven, colour gradient, thresholds that
follow the frame's own noise and contrast, hole filling -- with no notion of blobs or dice. The
segmenter (vision/segment.py) builds its masks from them, and the moved-tray checks
(vision/tray_moved.py) measure the felt with the same colour distance. Moved out of segment.py
unchanged; `segment` re-exports the names used through it.
"""
from __future__ import annotations

import cv2
import numpy as np


def _odd(n: float) -> int:
    """The odd whole number (3 at least) nearest `n`: OpenCV's median filter and kernels want odd sides."""
    k = max(3, int(round(n)))
    return k if k % 2 else k + 1


def background_lab(lab: np.ndarray, kernel_frac: float, off: np.ndarray | None = None,
                   fill: np.ndarray | None = None) -> np.ndarray:
    """Median-filtered tray surface; computed on a small copy because it is smooth anyway.

    `off` (work-scale mask, 255 = not the tray surface: walls, the table around the tray) is
    painted with the surface colour `fill` first, so the surface model near a wall is the felt,
    not a blend of felt and wood."""
    h, w = lab.shape[:2]
    f = 64.0 / max(h, w)
    if off is not None and fill is not None:
        lab = painted(lab, off, fill)
    small = cv2.resize(lab, (max(8, round(w * f)), max(8, round(h * f))), interpolation=cv2.INTER_AREA)
    k = _odd(kernel_frac * max(small.shape[:2]))
    k = min(k, _odd(min(small.shape[:2]) - 2))
    bg = cv2.medianBlur(small, k)
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


def painted(img: np.ndarray, off: np.ndarray, fill: np.ndarray) -> np.ndarray:
    """A copy of `img` with the pixels where `off` > 0 set to `fill` (numbers as numpy's
    `img[off > 0] = fill` casts them): the same pixels as that boolean indexing, one OpenCV copy
    under a mask instead of numpy gathering the mask's pixels (~0.4 -> 0.2 ms a 320 x 240 frame)."""
    out = np.empty_like(img)
    out[...] = fill
    return cv2.copyTo(img, cv2.compare(off, 0, cv2.CMP_EQ), out)


def colour_distance(lab: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """Perceptual-ish distance; OpenCV's 8-bit a/b are compressed vs L, so weight them up."""
    d = lab.astype(np.int16) - bg.astype(np.int16)
    dl = d[:, :, 0].astype(np.float32)
    da = d[:, :, 1].astype(np.float32) * 2.0
    db = d[:, :, 2].astype(np.float32) * 2.0
    return cv2.magnitude(cv2.magnitude(dl, da), db)


SHADOW = 0.4            # a surface darkened by up to this fraction is shadow, not a die


def surface_distance(lab: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """colour_distance that forgives shadows: a darker copy of the surface (same chroma).

    Dice cast soft shadows that would widen every blob and glue neighbours together; a die of
    any colour differs by chroma or by far more than a shadow's darkening.
    """
    L, A, B = planes(lab)
    bL, bA, bB = planes(bg)
    dl = cv2.subtract(L, bL, dtype=cv2.CV_32F)
    da = cv2.subtract(A, bA, dtype=cv2.CV_32F)
    db = cv2.subtract(B, bB, dtype=cv2.CV_32F)
    # brighter: full difference; darker: only what a shadow cannot explain
    shade = cv2.max(cv2.subtract(-dl, cv2.multiply(bL, SHADOW, dtype=cv2.CV_32F)), 0.0)
    dl = cv2.max(dl, 0.0) + shade
    return cv2.magnitude(cv2.magnitude(dl, da * 2.0), db * 2.0)


def distance_to_colour(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """surface_distance(lab, an image of the one colour `ref` (uint8 Lab)), without building
    and splitting that image: the same numbers, with scalars for the surface planes."""
    L, A, B = planes(lab)
    rl, ra, rb = (float(v) for v in ref[:3])
    dl = cv2.subtract(L, rl, dtype=cv2.CV_32F)
    da = cv2.subtract(A, ra, dtype=cv2.CV_32F)
    db = cv2.subtract(B, rb, dtype=cv2.CV_32F)
    # (the shadow allowance computed exactly as surface_distance computes it per pixel)
    sh = float(cv2.multiply(np.full((1, 64), int(ref[0]), np.uint8), SHADOW, dtype=cv2.CV_32F)[0, 0])
    shade = cv2.max(cv2.subtract(-dl, np.full(L.shape, sh, np.float32)), 0.0)
    dl = cv2.max(dl, 0.0) + shade
    return cv2.magnitude(cv2.magnitude(dl, da * 2.0), db * 2.0)


def planes(img: np.ndarray) -> tuple[np.ndarray, ...]:
    """The channels of an H x W x C image as contiguous planes (OpenCV copies a strided numpy
    channel view on every call it is passed to: split once instead)."""
    return cv2.split(img)


def gradient(lab: np.ndarray) -> np.ndarray:
    """Strongest colour gradient over L, a, b (chroma weighted as in colour_distance)."""
    out = None
    # (no pre-blur: it merges the narrow gaps between dice)
    pl = planes(lab)
    for c, wgt in ((0, 1.0), (1, 2.0), (2, 2.0)):
        ch = pl[c]
        gx = cv2.Sobel(ch, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(ch, cv2.CV_32F, 0, 1, ksize=3)
        m = cv2.magnitude(gx, gy)
        if wgt != 1.0:
            m *= wgt
        out = m if out is None else cv2.max(out, m)
    return out


def _robust_threshold(vals: np.ndarray, k: float, lo: float, hi: float) -> float:
    """median + k sigma (sigma from the MAD): most of a frame is surface, dice are the tail."""
    if vals.size > 8000:
        vals = vals.ravel()[:: vals.size // 8000]
    med = _median(vals)
    sigma = 1.4826 * _median(np.abs(vals - med))
    return float(min(max(med + k * max(sigma, 0.5), lo), hi))


def _median(v: np.ndarray) -> float:
    """float(np.median(v)), bit for bit, without its overhead (one partition, no mean call)."""
    if v.dtype.kind != "f" or v.size == 0:
        return float(np.median(v))
    v = v.ravel()
    n = v.size
    h = n // 2
    if n % 2:
        # (numpy 2's partition of float32 around one rank is ~3x slower than around two)
        return float(np.partition(v, (h, h + 1))[h] if n > 2 else np.partition(v, h)[h])
    p = np.partition(v, (h - 1, h))
    return float((p[h - 1] + p[h]) / 2)   # numpy's mean of the two, in the array's precision


def foreground_mask(dist: np.ndarray, roi_mask: np.ndarray | None,
                    grad: np.ndarray | None = None, contrast: float = 1.0, clip: bool = True,
                    floors: tuple[float, float] = (0.0, 0.0)) -> tuple[np.ndarray, float, float]:
    """Pixels that differ from the surface by colour, or that sit on a strong edge.

    Thresholds follow the frame's own noise (median + k sigma); their floors, which only
    matter on clean frames, follow the frame's contrast (a dim frame has weaker edges).
    """
    sel = (lambda a: a[::2, ::2]) if roi_mask is None else (lambda a: a[roi_mask > 0])
    vals = sel(dist)
    if vals.size == 0:
        vals, sel = dist.ravel(), (lambda a: a.ravel())
    thr = max(_robust_threshold(vals, 6.0, 12.0 * contrast, 40.0), floors[0])
    mask = _gt(dist, thr)
    gthr = 0.0
    if grad is not None:
        gthr = max(_robust_threshold(sel(grad), 8.0, 48.0 * contrast, 160.0), floors[1])
        mg = _gt(grad, gthr)
        mask |= cv2.morphologyEx(mg, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    if roi_mask is not None and clip:
        mask &= roi_mask
    return mask, thr, gthr


def _gt(a: np.ndarray, t: float) -> np.ndarray:
    """(a > t) as a 0/255 mask in one call (numpy compares a float32 map with t in float32)."""
    if a.dtype == np.float32 and a.ndim == 2 and min(a.shape) > 4:   # (tiny shapes read as a Scalar)
        return cv2.compare(a, float(np.float32(t)), cv2.CMP_GT)
    return (a > t).astype(np.uint8) * 255


def frame_contrast(lab: np.ndarray) -> float:
    """0.25..1: how bright the frame's bright end is, relative to a well exposed frame.

    A dim frame (or black dice on dark felt with nothing bright) has weaker colour steps and
    edges everywhere, so the floors of the thresholds come down with it.
    """
    vals = lab[::4, ::4, 0].ravel()
    k = min(vals.size - 1, int(0.995 * vals.size))
    p99 = float(np.partition(vals, k)[k])
    return float(np.clip(p99 / 200.0, 0.25, 1.0))


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
