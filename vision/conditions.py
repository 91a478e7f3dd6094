"""Labelled photos under another light or camera: what a café's table may really send.

The benchmark photos were taken in one good light, by one camera at one height. A table sits in
a dim corner, under a warm lamp or a cold LED panel, behind a wide lens that darkens the
corners, with a camera that exposes too long or too short, mounted another way round or higher
or lower over the tray. `python -m vision.bench --condition NAME` reads every photo changed by
one of these, so that the reader's robustness is measured on real dice rather than guessed.
Each change is deterministic (the noise is seeded by the photo's name), so two runs compare.
A change of mount (`Mount`) moves the dice, so the labels' boxes move with it (`labels`).
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any, Callable

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


def flicker_bands(img: np.ndarray, amplitude: float, period: float, phase: float) -> np.ndarray:
    """A lamp flickering with the mains (100 or 120 times a second), seen by a rolling shutter:
    each row is exposed a little later than the one above, so the light varies by rows, in
    bands `period` rows apart, brighter and darker by `amplitude`; `phase` (in periods) moves
    them, as it does from one frame to the next when the camera's frame rate is not in step."""
    y = np.arange(img.shape[0], dtype=np.float32)
    g = 1.0 + amplitude * np.sin(2.0 * np.pi * (y / period + phase))
    return np.clip(img * (g[:, None, None] if img.ndim == 3 else g[:, None]), 0, 255).astype(np.uint8)


def _flicker(img: np.ndarray, name: str) -> np.ndarray:
    """Bands of +-15% light, three to a frame, placed by the photo's name."""
    return flicker_bands(img, 0.15, img.shape[0] / 3.0, (zlib.crc32(name.encode()) % 1000) / 1000.0)


@dataclass(frozen=True)
class Mount:
    """The camera mounted another way round (`quarters` turns clockwise) or at another height
    (`scale`: its frames' size, and the dice's in them, times this). Why: "at any rotation" and
    "dice 25-120 px wide" are promised for every table, and the photos show one mount."""

    quarters: int = 0
    scale: float = 1.0

    def __call__(self, img: np.ndarray, _name: str) -> np.ndarray:
        if self.scale != 1.0:
            h, w = img.shape[:2]
            img = cv2.resize(img, self._size(w, h), interpolation=cv2.INTER_AREA if self.scale < 1
                             else cv2.INTER_LINEAR)
        return np.ascontiguousarray(np.rot90(img, -self.quarters))

    def _size(self, w: int, h: int) -> tuple[int, int]:
        return max(1, round(w * self.scale)), max(1, round(h * self.scale))

    def box(self, box: list[float], w: int, h: int) -> list[float]:
        """A label's box (x0, y0, x1, y1 in the photo of `w` x `h`) in the changed photo."""
        sw, sh = self._size(w, h)
        x0, y0, x1, y1 = box[0] * sw / w, box[1] * sh / h, box[2] * sw / w, box[3] * sh / h
        for _ in range(self.quarters % 4):       # a clockwise quarter turn: (x, y) -> (h - y, x)
            x0, y0, x1, y1, sw, sh = sh - y1, x0, sh - y0, x1, sh, sw
        return [x0, y0, x1, y1]

    def labels(self, dice: list[dict[str, Any]], size: tuple[int, int]) -> list[dict[str, Any]]:
        """The labelled `dice` of a photo of `size` (w, h) as they lie in the changed photo (a
        crop's die, with no box, as it is)."""
        return [d if d.get("box") is None else {**d, "box": self.box(d["box"], *size)} for d in dice]


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
    "flicker": _flicker,                    # a mains lamp through a rolling shutter
    "turned90": Mount(quarters=1),          # the camera mounted a quarter turn round
    "turned180": Mount(quarters=2),
    "turned270": Mount(quarters=3),
    "nearer": Mount(scale=1.5),             # a lower camera: the dice half as big again
    "farther": Mount(scale=0.7),            # a higher one (Byler's 37 px dice become 26 px)
}


def apply(condition: str | None, img: np.ndarray | None, name: str) -> np.ndarray | None:
    """`img` as the camera would give it under `condition` (None: as it is)."""
    if condition is None or img is None:
        return img
    return CONDITIONS[condition](img, name)


def labels(condition: str | None, dice: list[dict[str, Any]], size: tuple[int, int]) -> list[dict[str, Any]]:
    """The photo's labelled `dice` (its size `size` = w, h) as they lie in it under `condition`:
    moved with a change of mount, as they are under a change of light."""
    change = CONDITIONS.get(condition) if condition else None
    return change.labels(dice, size) if isinstance(change, Mount) else dice
