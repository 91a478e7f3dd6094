"""A picture of dice that are no longer on the tray, drawn in place of the camera image.

In betting Classic everyone throws before the bets, and each player then decides on the dice of
their own first throw while the tray holds the last thrower's. The live tray there would show
the wrong dice under the decided player's name; this draws the recorded ones instead, plainly
not a photograph (no felt, dice in a row), where the HOLD numbers and HELD marks go as on a tray.

Plain numpy (no pygame): the controller builds it into the view like a camera frame.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

Box = tuple[int, int, int, int]

BACKGROUND = (52, 44, 38)      # BGR: slate, unlike any felt
DIE = (236, 238, 240)
PIP = (30, 28, 28)
# (the pip layout of vision.synthetic's renderer, written again: display imports nothing from vision)
_A = 0.27
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-_A, -_A), (_A, _A)),
    3: ((-_A, -_A), (0.0, 0.0), (_A, _A)),
    4: ((-_A, -_A), (_A, -_A), (-_A, _A), (_A, _A)),
    5: ((-_A, -_A), (_A, -_A), (0.0, 0.0), (-_A, _A), (_A, _A)),
    6: ((-_A, -_A), (-_A, 0.0), (-_A, _A), (_A, -_A), (_A, 0.0), (_A, _A)),
}


def dice_row(count: int, size: tuple[int, int]) -> list[Box]:
    """Boxes for `count` dice side by side across the middle of an image of `size` (w, h):
    big enough to read from across the table, a quarter of a die apart."""
    w, h = size
    n = max(1, count)
    side = max(8, int(min(w / (1.25 * n + 0.5), h / 2.5)))
    gap = side // 4
    x0 = (w - (n * side + (n - 1) * gap)) // 2
    y0 = (h - side) // 2
    return [(x0 + i * (side + gap), y0, x0 + i * (side + gap) + side, y0 + side) for i in range(count)]


@lru_cache(maxsize=8)
def dice_picture(values: tuple[int | None, ...], size: tuple[int, int]) -> tuple[np.ndarray, list[Box]]:
    """A BGR image of `size` showing dice with these pip counts in a row, and their boxes.
    Cached (read-only): the screen asks for it with every camera frame."""
    w, h = size
    image = np.empty((h, w, 3), np.uint8)
    image[:] = BACKGROUND
    boxes = dice_row(len(values), size)
    for value, box in zip(values, boxes):
        _die(image[box[1]:box[3], box[0]:box[2]], value)
    image.setflags(write=False)
    return image, boxes


def _die(face: np.ndarray, value: int | None) -> None:
    """One die face drawn into `face` (a square view of the image): a rounded body and its pips."""
    side = face.shape[0]
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32) + 0.5
    r = 0.16 * side
    dx = np.maximum(np.abs(xx - side / 2) - (side / 2 - r), 0)
    dy = np.maximum(np.abs(yy - side / 2) - (side / 2 - r), 0)
    face[dx * dx + dy * dy <= r * r] = DIE
    for u, v in PIPS.get(value or 0, ()):
        cx, cy = side / 2 + u * side, side / 2 + v * side
        face[(xx - cx) ** 2 + (yy - cy) ** 2 <= (0.09 * side) ** 2] = PIP
