"""Turn whatever the caller hands us into a BGR uint8 frame, or say why we cannot.

The reader must never raise on a bad frame (a camera glitch must not crash the table), so all
the defensive conversion lives here, in one place, before any real vision work starts.
"""
from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.types import BAD_FRAME, TOO_BRIGHT, TOO_DARK, Problem

# OpenCV builds its colour-conversion tables on the first Lab conversion of a process (~100 ms
# on a desktop core, several times that on a Pi). Pay it here, when the reader is imported at
# start-up, not on the first still frame of the first throw.
cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2LAB)


def _keep_freed_memory() -> None:
    """Let glibc reuse freed image buffers instead of returning them to the kernel.

    A frame's work images (a few hundred KB each) are above glibc's default mmap threshold, so
    every temporary was a fresh mmap whose pages fault in zeroed on first touch and go back on
    free: ~880 page faults and ~2 ms of system time per 640x640 frame on the dev VM, with cold
    caches on top (page faults are dear in VMs and on small ARM cores). Serving them from the
    heap and not trimming it keeps the pages mapped: peak RSS ~2 MB higher over the bench.
    Process-wide, set once at import; a no-op off glibc."""
    try:
        import ctypes
        import ctypes.util

        name = ctypes.util.find_library("c")
        if not name or "musl" in name:
            return
        libc = ctypes.CDLL(name)
        if not hasattr(libc, "mallopt") or not hasattr(libc, "gnu_get_libc_version"):
            return
        m_trim_threshold, m_mmap_threshold = -1, -3
        libc.mallopt(m_mmap_threshold, 32 * 1024 * 1024)
        libc.mallopt(m_trim_threshold, 64 * 1024 * 1024)
    except Exception:  # noqa: BLE001 - a speed-up only, never a reason to fail
        pass


_keep_freed_memory()

MIN_SIDE = 16          # smaller than this cannot hold a readable die
MAX_SIDE = 1600        # larger frames are downscaled first: nothing gains from more pixels


def to_bgr(frame: Any) -> tuple[np.ndarray | None, Problem | None]:
    """Return (bgr uint8 image, None) or (None, BAD_FRAME problem)."""
    if frame is None:
        return None, Problem(BAD_FRAME, "no frame")
    try:
        arr = np.asarray(frame)
    except Exception:  # noqa: BLE001 - anything unconvertible is simply a bad frame
        return None, Problem(BAD_FRAME, "frame is not an array")
    if arr.size == 0:
        return None, Problem(BAD_FRAME, "empty frame")
    if arr.dtype == object:
        return None, Problem(BAD_FRAME, "frame is not an array of numbers")
    if arr.ndim == 3 and arr.shape[2] == 1:
        arr = arr[:, :, 0]
    if arr.ndim not in (2, 3) or (arr.ndim == 3 and arr.shape[2] not in (3, 4)):
        return None, Problem(BAD_FRAME, f"unsupported frame shape {arr.shape}")
    h, w = arr.shape[:2]
    if min(h, w) < MIN_SIDE:
        return None, Problem(BAD_FRAME, f"frame too small ({w}x{h})")
    if max(h, w) > 4 * MAX_SIDE:
        # every k-th pixel first (a view, no copy), so that a huge frame of floats is not
        # converted whole: 20000 x 20000 float64 took three 4.8 GB copies. Frames up to
        # 6400 px are downscaled from all their pixels, as before.
        k = max(h, w) // (2 * MAX_SIDE)
        arr = arr[::k, ::k]
    arr = _to_uint8(arr)
    if arr is None:
        return None, Problem(BAD_FRAME, f"unsupported pixel type {np.asarray(frame).dtype}")
    if max(h, w) > MAX_SIDE:
        f = MAX_SIDE / max(h, w)
        arr = cv2.resize(np.ascontiguousarray(arr), (max(1, round(w * f)), max(1, round(h * f))),
                         interpolation=cv2.INTER_AREA)
    if arr.ndim == 2:
        arr = cv2.cvtColor(arr, cv2.COLOR_GRAY2BGR)
    elif arr.shape[2] == 4:
        arr = cv2.cvtColor(arr, cv2.COLOR_BGRA2BGR)
    return np.ascontiguousarray(arr), None


def _to_uint8(arr: np.ndarray) -> np.ndarray | None:
    """Map any numeric dtype onto 0..255 without surprises (floats in 0..1 are common)."""
    if arr.dtype == np.uint8:
        return arr
    if arr.dtype == bool:
        return arr.astype(np.uint8) * 255
    if arr.dtype.kind not in "uif":
        return None
    a = arr.astype(np.float32)
    a = np.nan_to_num(a, nan=0.0, posinf=0.0, neginf=0.0)
    if arr.dtype.kind == "f":
        hi = float(a.max()) if a.size else 0.0
        scale = 255.0 if hi <= 1.0 else 1.0
    elif arr.dtype.itemsize >= 2 and float(a.max()) > 255:
        scale = 255.0 / 65535.0 if arr.dtype.itemsize == 2 else 255.0 / float(a.max())
    else:
        scale = 1.0
    return np.clip(a * scale, 0, 255).astype(np.uint8)


def exposure_problem(gray: np.ndarray) -> Problem | None:
    """Frames with almost no usable range: say why instead of hunting for dice in noise."""
    # a coarse sample is plenty for percentiles of a whole frame
    step = max(1, int(np.sqrt(gray.size / 40000.0)))
    sample = gray[::step, ::step]
    if sample.dtype == np.uint8 and sample.ndim == 2:
        p2, p50, p98 = _percentiles_u8(sample, (2, 50, 98))
    else:
        p2, p50, p98 = np.percentile(sample, (2, 50, 98))
    if p98 < 40:
        return Problem(TOO_DARK, f"frame too dark (98th percentile {p98:.0f})")
    if p2 > 235 or (p50 > 250 and p98 - p2 < 12):
        return Problem(TOO_BRIGHT, f"frame washed out (2nd percentile {p2:.0f})")
    return None


# Pixels this bright somewhere (the 99.99th percentile, ~30 pixels of a 640 x 480 frame: the pips
# of one die) say there is light enough to try: the dark is the felt (black felt, black dice, white
# pips) or a dim room, and the reader says "too dark" only if nothing reads. Rendered dim trays
# (brightest pixels 47-61): 168 of 192 dice read, none wrong, where all were refused before; a tray
# at 12% of its light (brightest 30) is still too dark. Measured on the brightest channel since
# 2026-11-26 (grey before): gold dice in a rendered dim room (grey 39, brightest channel 50) were
# refused, 12 of 12; now read, 12 of 12. The 224 rendered trays darkened to 18% of their light:
# 519 of 1,344 dice right and 1 wrong, against 471 and the same 1 by grey; no photo's reading moved.
LIT_DETAIL = 40


# A dim frame (a dark room, a camera exposing short against motion blur) is brought up by a
# digital gain before it is read. The reader's thresholds, and the nets' training, come from
# well-exposed frames; a frame at a third of its light is the same picture with every colour step
# a third as big. Its bright end (the 99.9th percentile of each pixel's brightest channel: a few
# hundred pixels of a 640 x 480 frame, the pips of a die or two; white pips on black felt and a
# red die's red are bright, so dark felt in good light is not "dim") is lifted to BRIGHT_END (the
# Byler trays' is 193-233, median 198), by at most MAX_GAIN: on rendered dim rooms a gain of 3
# or 4 lifted the felt's noise into wrong values, 2 did not. Frames whose bright end is
# DIM_BELOW or more are left exactly as they are.
DIM_BELOW = 120
BRIGHT_END = 200
MAX_GAIN = 2.0


def brightened(bgr: np.ndarray) -> np.ndarray:
    """The frame lifted by a digital gain when it is dim (see DIM_BELOW); otherwise the very
    same array."""
    h, w = bgr.shape[:2]
    step = max(1, int(np.sqrt(h * w / 40000.0)))
    # (a nearest-pixel sample and OpenCV's max: ~0.1 ms a 640 x 480 frame, numpy's max over a
    # strided view took ~0.7)
    sample = cv2.resize(bgr, (max(1, w // step), max(1, h // step)), interpolation=cv2.INTER_NEAREST)
    bright_end = _percentiles_u8(_brightest_channel(sample), (99.9,))[0]
    if bright_end >= DIM_BELOW:
        return bgr
    return cv2.convertScaleAbs(bgr, alpha=min(MAX_GAIN, BRIGHT_END / max(bright_end, 1.0)))


def has_lit_detail(bgr: np.ndarray) -> bool:
    """Some small part of a dark frame is lit enough to read (whole frame: the pips are small).
    Measured on each pixel's brightest channel, as the digital gain is: a gold or yellow die's
    light is in its red and green, and grey (a weighted mean) counts it a fifth lower."""
    if bgr.dtype != np.uint8 or bgr.ndim != 3 or bgr.shape[2] != 3 or bgr.size < 48:
        return False
    return _percentiles_u8(_brightest_channel(bgr), (99.99,))[0] >= LIT_DETAIL


#: brightest pixels of a picture below this: nothing in it is lit (see black_picture)
BLACK_PICTURE = 24


def black_picture(image: np.ndarray) -> bool:
    """Whether nothing at all is lit in `image`: a covered lens, the lamp over the tray off, a
    sensor sending zeros. A dim tray still has its lit rim, the dice's pips or the sensor's noise
    above BLACK_PICTURE. Every 8th pixel each way, a few lit ones forgiven (a hot pixel): it runs
    on every frame, so no percentiles (0.8 ms a 640x480 frame)."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.size == 0:
        return False
    sample = image[::8, ::8]
    lit = np.count_nonzero(sample >= BLACK_PICTURE)          # (a pixel's lit channels, counted each)
    return bool(lit <= sample.shape[0] * sample.shape[1] // 1000)


def _brightest_channel(bgr: np.ndarray) -> np.ndarray:
    """Each pixel's brightest channel: how lit it is, whatever its colour (a red die's red, a
    gold die's red and green), where grey would weigh the colours down."""
    b, g, r = cv2.split(bgr)
    return cv2.max(cv2.max(b, g), r)


def _percentiles_u8(sample: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """np.percentile(sample, qs) (its default linear method), the same numbers, for a uint8
    image: order statistics read off the histogram instead of partitioning a copy (~15x faster)."""
    n = sample.size
    hist = cv2.calcHist([np.ascontiguousarray(sample)], [0], None, [256], [0, 256]).ravel()
    cum = np.cumsum(hist, dtype=np.float64)
    out = []
    for q in qs:
        v = (n - 1) * (q / 100)
        lo = float(np.floor(v))
        g = v - lo
        i = int(lo)
        a = float(np.searchsorted(cum, i, side="right"))          # the i-th smallest value
        b = float(np.searchsorted(cum, min(i + 1, n - 1), side="right"))
        d = b - a
        out.append(b - d * (1 - g) if g >= 0.5 else a + d * g)   # numpy's _lerp
    return out
