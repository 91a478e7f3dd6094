"""Plain data that leaves the vision package: what was seen on one frame.

Kept free of OpenCV types so that the controller, the display and the JSON CLI can use a
reading without knowing how it was made.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Problem codes. The controller decides what to do with them (ask for a re-throw, wait, ...);
# the reader only says what it saw. Keep these strings stable: they appear in `dicetable read --json`.
DIE_LEANING = "die_leaning"            # cocked against the wall or another die: top face unclear
DICE_TOUCHING = "dice_touching"        # two or more dice in contact (they were separated if possible)
GLARE = "glare"                        # specular highlight washes out part of a face
PARTLY_OUT_OF_VIEW = "partly_out_of_view"  # a die cut by the image border or tray edge
FOREIGN_OBJECT = "foreign_object"      # a hand, a cup or anything that is not a die
LEFT_IN_TRAY = "left_in_tray"          # a foreign object lying where it lay before the throw (vision.left_things)
DICE_COVERED = "dice_covered"          # no dice seen where the dice last read lay under something (vision.covered)
UNSURE_VALUE = "unsure_value"          # a die was found but its value is not trustworthy
TOO_DARK = "too_dark"                  # frame too dark to read
TOO_BRIGHT = "too_bright"              # frame washed out
BLURRED = "blurred"                    # motion blur too strong to read
BAD_FRAME = "bad_frame"                # not an image we can use (empty, 1 px, wrong type)
CAMERA_MOVED = "camera_moved"          # the tray is not where it was calibrated: the whole view is read
CALIBRATION_SIZE = "calibration_size"  # calibrated on frames of another shape: the calibration is not used
DIE_SIZE = "die_size"                  # dice bigger or smaller than the calibrated ones: read at their own size


@dataclass(frozen=True)
class Problem:
    """Something on the frame that makes the reading less than certain."""

    code: str
    message: str
    box: tuple[int, int, int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.box is not None:
            out["box"] = list(self.box)
        return out


@dataclass(frozen=True)
class Die:
    """One die found on the frame. `value` is None when its face could not be read."""

    value: int | None
    box: tuple[int, int, int, int]          # x0, y0, x1, y1 in frame pixels
    centre: tuple[float, float]             # x, y
    confidence: float                       # 0..1: how sure the value is
    problems: tuple[str, ...] = ()          # problem codes that concern this die

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "box": [int(v) for v in self.box],
            "centre": [round(float(self.centre[0]), 1), round(float(self.centre[1]), 1)],
            "confidence": round(float(self.confidence), 3),
        }


@dataclass(frozen=True)
class Reading:
    """Everything read from one frame: the dice, left to right, and the problems seen."""

    dice: tuple[Die, ...]
    problems: tuple[Problem, ...] = ()
    ms: float = 0.0
    size: tuple[int, int] = (0, 0)          # frame width, height

    @property
    def values(self) -> list[int | None]:
        return [d.value for d in self.dice]

    @property
    def is_clean(self) -> bool:
        """True when every die has a value and nothing troubling was seen."""
        return not self.problems and all(d.value is not None for d in self.dice)

    def problem_codes(self) -> set[str]:
        return {p.code for p in self.problems}

    def to_json(self) -> dict[str, Any]:
        return {
            "dice": [d.to_json() for d in self.dice],
            "problems": [p.to_json() for p in self.problems],
            "ms": round(self.ms, 2),
        }


@dataclass(frozen=True)
class TrueDie:
    """Ground truth for a rendered die (tests and benchmarks)."""

    value: int
    centre: tuple[float, float]
    box: tuple[int, int, int, int]
    size_px: float
    angle_deg: float = 0.0
    leaning: bool = False
    colour: str = "white"
    extra: dict[str, Any] = field(default_factory=dict)


# How far a frame's shape (width / height) may be from another's and still be the same view:
# 1280 x 960 and 640 x 480 are; 1920 x 1080 is another crop of the sensor.
SAME_SHAPE = 0.02


def view_scale(before: tuple[float, float], now: tuple[float, float]) -> float | None:
    """How pixels of frames of size `before` (width, height) map to frames of size `now`: the ratio
    of the widths when both are the same view (1 at the same size); None when `now` has another
    shape (another crop of the sensor), where no place in the old frames can be found in the new."""
    (bw, bh), (w, h) = before, now
    if (bw, bh) == (w, h):
        return 1.0
    if abs((w / h) / (bw / bh) - 1.0) > SAME_SHAPE:
        return None
    return w / bw
