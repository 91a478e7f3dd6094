"""Labelled photos under another light or camera: what a café's table may really send.

The benchmark photos were taken in one good light. A table sits in a dim corner, under a warm
lamp or a cold LED panel, behind a wide lens that darkens the corners, with a camera that
exposes too long or too short. `python -m vision.bench --condition NAME` reads every photo
changed by one of these, so that the reader's robustness is measured on real dice rather than
guessed. Each change is deterministic (the noise is seeded by the photo's name), so two runs
compare.
"""
from __future__ import annotations

import zlib
from typing import Callable

import cv2
import numpy as np


Change = Callable[[np.ndarray, str], np.ndarray]   # (photo, its name) -> the photo changed


def gain(k: float) -> Change:
    """The light times k (a camera exposing shorter or longer)."""
    return lambda img, _name: cv2.convertScaleAbs(img, alpha=k)


def _cast(bgr: tuple[float, float, float]) -> Change:
    """A light of another colour (per-channel gains, in B, G, R order)."""
    gains = np.array(bgr, np.float32)
    return lambda img, _name: np.clip(img * gains, 0, 255).astype(np.uint8)


def vignette(loss: float) -> Change:
    """A wide lens without shading correction: the corners lose `loss` of the centre's light."""
    def change(img: np.ndarray, _name: str) -> np.ndarray:
        h, w = img.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w]
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        return np.clip(img * (1 - loss * r2)[..., None], 0, 255).astype(np.uint8)
    return change


def _uneven(img: np.ndarray, _name: str) -> np.ndarray:
    """A lamp to one side: light falls from 1.1 to 0.45 across the frame."""
    ramp = np.linspace(0.45, 1.1, img.shape[1], dtype=np.float32)
    return np.clip(img * ramp[None, :, None], 0, 255).astype(np.uint8)


def _noise(img: np.ndarray, name: str) -> np.ndarray:
    """Sensor noise of a small camera at high gain (sigma 10 grey levels)."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return np.clip(img + rng.normal(0.0, 10.0, img.shape), 0, 255).astype(np.uint8)


def _blur(img: np.ndarray, _name: str) -> np.ndarray:
    """A camera slightly out of focus (Gaussian, sigma 1.2 px)."""
    return cv2.GaussianBlur(img, (0, 0), 1.2)


def _motion(img: np.ndarray, _name: str) -> np.ndarray:
    """A camera shaken during the exposure: a 5 px streak at 30 degrees (a sixth of a Byler die)."""
    n = 5
    line = np.zeros((n, n), np.float32)
    line[n // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), 30, 1.0)
    line = cv2.warpAffine(line, turn, (n, n))
    return cv2.filter2D(img, -1, line / line.sum())


CONDITIONS: dict[str, Change] = {
    "dim": gain(0.45),                      # a dim room: the tray ~80 grey levels
    "darker": gain(0.3),                    # dimmer still: the tray ~55
    "overexposed": gain(1.35),              # the light tray near white, some of it clipped
    "warm": _cast((0.72, 0.95, 1.12)),      # a tungsten lamp
    "cool": _cast((1.15, 1.0, 0.8)),        # a cold LED panel
    "vignette": vignette(0.55),             # the corners at 0.45 of the centre's light
    "uneven": _uneven,
    "noise": _noise,
    "blur": _blur,
    "motion": _motion,
}


def apply(condition: str | None, img: np.ndarray | None, name: str) -> np.ndarray | None:
    """`img` as the camera would give it under `condition` (None: as it is)."""
    if condition is None or img is None:
        return img
    return CONDITIONS[condition](img, name)
