"""Where dice lie on the camera's picture: the geometry the table uses to tell a die left where
it was from a die thrown, and to place dice the camera has no place for.

Boxes are (x0, y0, x1, y1) in the camera frame's pixels.
"""
from __future__ import annotations

from typing import Sequence


def box_distance(a: Sequence[int], b: Sequence[int]) -> float:
    """Between the centres of two boxes, in pixels."""
    dx = (a[0] + a[2] - b[0] - b[2]) / 2
    dy = (a[1] + a[3] - b[1] - b[3]) / 2
    return (dx * dx + dy * dy) ** 0.5


def scaled_boxes(boxes: Sequence[Sequence[int]], scale: float) -> list[tuple[int, ...]]:
    """`boxes` in the pixels of a frame `scale` times as wide."""
    return [tuple(int(round(v * scale)) for v in box) for box in boxes]


def same_spot(a: Sequence[int], b: Sequence[int], tolerance: float = 0.3) -> bool:
    """Whether two boxes are one die left where it was: centres within `tolerance` x its side
    (the settle tracker's own test of a moved die, with a little more room)."""
    side = max(1.0, ((a[2] - a[0]) * (a[3] - a[1])) ** 0.5)
    return box_distance(a, b) <= tolerance * side


def row_boxes(count: int, frame_size: tuple[int, int], side: int | None = None) -> list[tuple[int, int, int, int]]:
    """Places for `count` dice the camera has no place for (entered by hand, or journaled without
    places), in a row along the bottom of a `frame_size` image (`side`: the dice's size, else a
    twelfth of the image's width): the players see a mark and a number for each."""
    side = side or max(16, frame_size[0] // 12)
    height = frame_size[1]
    return [(6 + k * (side + side // 2), height - side - 6, 6 + k * (side + side // 2) + side, height - 6)
            for k in range(count)]
