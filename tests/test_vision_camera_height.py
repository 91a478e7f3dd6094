"""A camera arm raised or lowered since calibration: the tray and the dice shrink or grow about
the frame's centre (by 5-20%).

The box would scale, not move, so the knock check did not name it. Raised, nothing was said (the
box, too big, still held the tray). Lowered by 5-10%, the calibrated box cut the dice against the
walls: "partly out of view", the throw asked again and nobody told why (rendered: 19 of 36 throws
right at x1.05 and x1.1, 34 unmoved); from ~10% the felt past the box had the whole view read and
the staff told the tray was "not where it was calibrated (its felt reaches past the right side)".
Now the felt's edges measured at calibration (`wall_edges`) give the tray's scale on both axes;
the box and the dice's size follow it and the staff are told once: "the camera was raised since
calibration (the tray looks 10% smaller): run dicetable calibrate again".

The frames are `vision.synthetic` trays with 50 px of table, calibrated as `dicetable calibrate`
does, seen scaled about the frame's centre. What the table tells the staff of it:
tests/test_camera_height_told_once.py."""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.calibrate import calibrate
from vision.knock_bench import by_the_walls, turned
from vision.reader import read
from vision.size_bench import verdict
from vision.synthetic import STYLES, render_tray
from vision.types import CAMERA_MOVED, PARTLY_OUT_OF_VIEW

VALUES = [3, 5, 1, 6, 2, 4]


def zoomed(img: np.ndarray, scale: float) -> np.ndarray:
    """`img` as the camera sees it raised (`scale` < 1) or lowered (> 1): scaled about its centre."""
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), 0.0, scale)
    return cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _calibrated(name: str) -> tuple[object, dict]:
    style = dataclasses.replace(STYLES[name], border_px=50)
    empty = [render_tray([], seed=i, style=style, die_px=50).image for i in range(2)]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=style, die_px=50).image for i in range(2)]
    return style, calibrate(empty, throws, reader=read).to_dict()


def _told(reading) -> list[str]:
    return [p.message for p in reading.problems if p.code == CAMERA_MOVED]


@pytest.mark.parametrize("name, scale", [("light", 1.05), ("light", 1.1), ("green", 1.1), ("blue", 1.05)])
def test_a_camera_lowered_reads_the_dice_by_the_walls_and_says_so(name, scale):
    """A die against each wall, two in corners, the camera lowered 5 or 10%: the calibrated box
    cut the dice by the walls ("partly out of view": asked again), nothing said. Now the throw
    reads right and the staff are told the camera was lowered, by how much."""
    style, cal = _calibrated(name)
    r = read(zoomed(by_the_walls(VALUES, 703, style, cal["tray"]), scale), cal)
    assert PARTLY_OUT_OF_VIEW not in r.problem_codes(), r.problems
    assert verdict(r, VALUES) == "right", r.problems
    told = _told(r)
    percent = round((scale - 1) * 100)
    assert told == [f"the camera was lowered since calibration (the tray looks {percent}% bigger): run dicetable "
                    "calibrate again"], r.problems


def test_a_camera_lowered_so_its_felt_passes_the_box_is_still_read_in_the_tray():
    """The dark tray lowered 10%: its felt reached past the box's right side, the whole view was
    read and the staff told the tray had moved. It is read in the tray scaled, and named lowered."""
    style, cal = _calibrated("dark")
    r = read(zoomed(by_the_walls(VALUES, 701, style, cal["tray"]), 1.1), cal)
    assert verdict(r, VALUES) == "right", r.problems
    assert len(_told(r)) == 1 and "camera was lowered" in _told(r)[0] and "10% bigger" in _told(r)[0], r.problems


@pytest.mark.parametrize("name", ["green", "dark"])
def test_a_camera_lowered_20_percent_is_named_lowered_not_knocked(name):
    """Lowered 20%, the side walls leave the frame (past what the edges measure): the whole view
    is read as before, but the staff were told the tray moved ("its felt reaches past the left
    side"), which no knock of the camera could put right. The felt past both sides of an axis is
    a tray grown in the view: named lowered. A knock of 60 px still names the one side."""
    style, cal = _calibrated(name)
    image = by_the_walls(VALUES, 701, style, cal["tray"])
    told = _told(read(zoomed(image, 1.2), cal))
    assert len(told) == 1 and told[0].startswith("the camera was lowered since calibration (its felt reaches past "
                                                 "the left and right sides)"), told
    from vision.knock_bench import shifted

    assert _told(read(shifted(image, 60, 0), cal)) == ["the tray is not where it was calibrated (its felt reaches "
                                                       "past the right side): run dicetable calibrate again"]


@pytest.mark.parametrize("name, scale", [("green", 0.9), ("red", 0.85), ("glare", 0.9)])
def test_a_camera_raised_is_named(name, scale):
    """The camera raised 10-15%: the dice read (the box, too big, still held the tray), and the
    staff were never told the table no longer sees the tray it was calibrated on."""
    style, cal = _calibrated(name)
    r = read(zoomed(render_tray(VALUES, seed=702, style=style, die_px=50).image, scale), cal)
    percent = round((1 - scale) * 100)
    assert _told(r) == [f"the camera was raised since calibration (the tray looks {percent}% smaller): run "
                        "dicetable calibrate again"], r.problems


@pytest.mark.parametrize("name", ["red", "green"])
def test_a_camera_turned_with_dice_against_the_walls_is_not_called_raised_or_lowered(name):
    """Turned 2 degrees with dice against two walls, both axes' spans measured ~2% longer (the
    dice pull the edges): a zoom slants no side, a turn slants them all, so it is not one."""
    style, cal = _calibrated(name)
    for seed in (701, 703):
        r = read(turned(by_the_walls(VALUES, seed, style, cal["tray"]), -2.0), cal)
        assert not any("camera was" in m for m in _told(r)), r.problems


def test_a_still_camera_is_not_called_raised_nor_is_a_hand_over_a_wall():
    """The same trays unscaled, and a hand over one wall (which moves one side: one axis's span
    shorter, the other's not), say nothing."""
    from vision.synthetic import HandSpec

    style, cal = _calibrated("light")
    assert _told(read(by_the_walls(VALUES, 703, style, cal["tray"]), cal)) == []
    for edge in ("left", "top", "right", "bottom"):
        hand = render_tray(VALUES[:5], seed=906, style=style, die_px=50, hands=HandSpec(edge, 0.5, 160, 90)).image
        assert _told(read(hand, cal)) == [], edge
