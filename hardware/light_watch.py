"""Whether the room's light has changed for good since a camera's exposure was frozen.

An exposure frozen in the morning leaves the evening's frames dark or washed out. The frames'
light (the median of a coarse grid, mostly tray) is compared with the light just after the lock;
a hand over the tray or a passing shadow is gone sooner than the light of a room changes.
Shared by the Pi camera and the webcam sources.
"""
from __future__ import annotations

import numpy as np


def light(image: np.ndarray) -> float:
    """The light of a frame: the median of a coarse grid (mostly tray), + 1 so that ratios of a
    black frame stay finite."""
    return float(np.median(image[::8, ::8])) + 1.0


class LightWatch:
    """Whether the room's light has changed since a lock: the frames' light more than `ratio`
    times brighter or darker than just after it for `after_s` seconds (a hand or a shadow passes
    sooner). 0 as `ratio`: never."""

    def __init__(self, ratio: float, after_s: float) -> None:
        self.ratio = ratio
        self.after_s = after_s
        self.reset()

    def reset(self) -> None:
        """A new lock: its light is that of the next frame."""
        self.locked: float | None = None
        self.since: float | None = None

    def changed(self, image: np.ndarray, ts: float) -> float | None:
        """The light's ratio to the lock's once it has been far from it for `after_s`, else None."""
        if not self.ratio:
            return None
        now = light(image)
        if self.locked is None:
            self.locked = now
            return None
        ratio = now / self.locked
        if 1.0 / self.ratio <= ratio <= self.ratio:
            self.since = None
            return None
        if self.since is None:
            self.since = ts
        return ratio if ts - self.since >= self.after_s else None

    def lasted(self, ts: float) -> float:
        """How long the light has been far from the lock's at `ts` (0 when it is not)."""
        return ts - self.since if self.since is not None else 0.0
