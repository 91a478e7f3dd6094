"""Has the camera (or the tray) moved since calibration?

A calibration says where the tray's felt is, and the reader then looks only there. If the
camera is knocked, or the tray pushed, dice on the part of the felt now outside that box are
not read at all, and the table only says it sees too few dice. The calibrated box is the felt
up to its walls, so just outside each side lies the wall or the table, never felt: when the
felt reaches past a side, the box no longer fits. The reader then reads the whole view (as
without calibration, which works) and says so, so that the staff calibrate again. Only the
sides that had a wall when the tray was calibrated are watched (`walled_sides`).
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.segment import colour_distance

BAND = (0.03, 0.07)     # the band looked at past each side, as fractions of the frame's width/height
FELT_NEAR = 30.0        # segment.colour_distance from the felt's colour that is still felt
FELT_SHARE = 0.35       # share of the band past a side that must be felt (dice may lie on the rest)
WALL_SHARE = 0.1        # at calibration, a side with less felt than this past it has a wall
WORK_WIDTH = 160        # the frame is looked at this wide (nearest pixels): only broad regions matter

SIDES = ("left", "top", "right", "bottom")


def felt_shares(bgr: np.ndarray, tray: tuple[int, int, int, int]) -> dict[str, float]:
    """For each side of `tray` (x0, y0, x1, y1 in `bgr`'s pixels) that is not at the frame's
    edge: the share of the band just outside it (its middle half: a tray's corners may be
    round) that has the felt's colour, give or take the shade near a wall.

    The felt's colour is taken from a ring an eighth to a quarter of the way in from the box's
    sides (its middle may hold a lamp's glare; with the box moved, its outer rim may hold the
    wall)."""
    h, w = bgr.shape[:2]
    f = min(1.0, WORK_WIDTH / w)     # (nearest pixels: colours of broad regions need no smoothing)
    small = cv2.resize(bgr, (max(8, round(w * f)), max(8, round(h * f))), interpolation=cv2.INTER_NEAREST)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    sh, sw = lab.shape[:2]
    x0, y0, x1, y1 = (v * f for v in tray)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return {}
    ya, yb = int(y0 + (y1 - y0) / 4), int(y1 - (y1 - y0) / 4)
    xa, xb = int(x0 + (x1 - x0) / 4), int(x1 - (x1 - x0) / 4)
    ring = np.zeros((sh, sw), bool)
    ring[int(y0 + (y1 - y0) / 8):int(y1 - (y1 - y0) / 8), int(x0 + (x1 - x0) / 8):int(x1 - (x1 - x0) / 8)] = True
    ring[ya:yb, xa:xb] = False
    felt = np.round(np.median(lab[ring], axis=0)).astype(np.uint8)[None, None, :]

    def outside(edge: float, direction: int, size: int) -> slice:
        a, b = sorted((edge + direction * BAND[0] * size, edge + direction * BAND[1] * size))
        return slice(int(np.clip(round(a), 0, size)), int(np.clip(round(b), 0, size)))

    bands = {"left": lab[ya:yb, outside(x0, -1, sw)], "top": lab[outside(y0, -1, sh), xa:xb],
             "right": lab[ya:yb, outside(x1, 1, sw)], "bottom": lab[outside(y1, 1, sh), xa:xb]}
    shares = {}
    for side in SIDES:
        band = bands[side]
        if min(band.shape[:2]) >= 2:     # (none at the frame's edge)
            shares[side] = float((colour_distance(band, felt) < FELT_NEAR).mean())
    return shares


def walled_sides(bgr: np.ndarray, tray: tuple[int, int, int, int]) -> list[str]:
    """The sides of `tray` past which the frame shows no felt (a wall, the table): measured at
    calibration, they are the sides `felt_past_tray` watches. A box drawn by hand across a
    larger felt, to leave part of it out, has none, and is never called moved."""
    return [side for side, share in felt_shares(bgr, tray).items() if share < WALL_SHARE]


def felt_past_tray(bgr: np.ndarray, tray: tuple[int, int, int, int], walls: list[str] | tuple[str, ...]
                   ) -> str | None:
    """The first of the `walls` (sides of the calibrated `tray`) past which most of the band is
    now felt, or None: the felt stays inside the box (dice lying in the band cover part of it)."""
    if not walls:
        return None
    shares = felt_shares(bgr, tray)
    return next((side for side in SIDES if side in walls and shares.get(side, 0.0) >= FELT_SHARE), None)


# A camera knocked by a little (10-40 px of 640, 1.6-6%) leaves the felt inside the band above:
# not named, while from ~2.5% a die by the wall was "partly out of view" (the box cut it) and from
# 5% unread. The tray's felt is found again as calibration finds it (`calibrate.find_tray`) and its
# sides compared with the calibrated box: when both sides of an axis moved the same way, by
# SHIFT_MIN of the frame or more on average, the tray moved by that (one side is sometimes found
# off by up to ~16 px in the shade by a wall; both sides 10 px the same way under a lamp's glare
# with a phone in the tray, the wall's inner or outer edge taken: 2 of 560 frames at 1.5%).
SHIFT_MIN = 0.02        # fraction of the frame's long side
SHIFT_MAX = 0.1         # fraction of the frame's width (x) or height (y) beyond which it is not this


def _axis_shift(a: int, b: int, least: float) -> int:
    """The shift of an axis whose two sides moved by `a` and `b` px: their mean, when both moved
    the same way, by half of `least` or more each and `least` or more on average; else 0."""
    mean = (a + b) / 2
    if min(abs(a), abs(b)) < least / 2 or a * b <= 0 or abs(mean) < least:
        return 0
    return int(round(mean))


def tray_shift(bgr: np.ndarray, tray: tuple[int, int, int, int], walls: list[str] | tuple[str, ...]
               ) -> tuple[int, int] | None:
    """How far (dx, dy, px of `bgr`) the calibrated `tray` (its walled sides) has moved in the
    view, found as calibration finds the tray; None when it has not (less than SHIFT_MIN), or
    cannot be told (an axis without walls on both sides is not measured)."""
    from vision.calibrate import find_tray      # (calibrate imports the reader, which imports this)

    h, w = bgr.shape[:2]
    x_walled = "left" in walls and "right" in walls
    y_walled = "top" in walls and "bottom" in walls
    if not (x_walled or y_walled):
        return None
    found = find_tray(bgr)
    if tuple(found) == (0, 0, w, h):
        return None                             # no surface found (a hand over the tray, the light off)
    d = [found[i] - tray[i] for i in range(4)]
    dx = _axis_shift(d[0], d[2], SHIFT_MIN * max(w, h)) if x_walled else 0
    dy = _axis_shift(d[1], d[3], SHIFT_MIN * max(w, h)) if y_walled else 0
    if (dx == 0 and dy == 0) or abs(dx) > SHIFT_MAX * w or abs(dy) > SHIFT_MAX * h:
        return None
    return dx, dy
