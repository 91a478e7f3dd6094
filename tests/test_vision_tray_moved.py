"""A knocked camera (or a pushed tray): the calibrated tray box no longer fits the felt."""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.bench import match
from vision.calibrate import calibrate
from vision.reader import read
from vision.synthetic import STYLES, render_tray, truth_to_json
from vision.tray_moved import SIDES, felt_past_tray, walled_sides
from vision.types import CAMERA_MOVED


def _calibrated(style_name: str, border: int = 50):
    style = dataclasses.replace(STYLES[style_name], border_px=border)
    empty = [render_tray([], seed=i, style=style, die_px=50).image for i in range(2)]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=style, die_px=50).image for i in range(2)]
    return style, calibrate(empty, throws).to_dict()


def _shifted(img: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """The frame as a camera moved by (-dx, -dy) sees it: the tray moved by (dx, dy)."""
    return cv2.warpAffine(img, np.float32([[1, 0, dx], [0, 1, dy]]), (img.shape[1], img.shape[0]),
                          borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("name", sorted(n for n in STYLES if n != "dim"))
def test_the_felt_past_a_side_of_the_calibrated_tray_is_named(name):
    """Over the tray styles with a table around the tray (the dim style's tray is not found by
    calibration: it covers the whole frame and there is nothing to check), 3 throws each and 50
    or 30 px of table, measured: no side named while the camera stays, 0 of 84 frames; the tray
    moved 60 px sideways, 45 px up or 40 + 30 px diagonally, 215 of 216 seen. The one missed:
    under the glare style's lamp the felt by the far wall is darker than the felt further in by
    more than a wall is, and a move towards it can go unseen (the reader keeps its box, as
    before)."""
    style, cal = _calibrated(name)
    tray, walls = tuple(cal["tray"]), cal["walls"]
    assert sorted(walls) == ["bottom", "left", "right", "top"]       # the table all round the tray
    img = render_tray([1, 2, 3, 4, 5, 6], seed=7, style=style, die_px=50).image
    assert felt_past_tray(img, tray, walls) is None
    for (dx, dy), side in (((60, 0), "right"), ((-60, 0), "left"), ((0, 60), "bottom"), ((0, -60), "top")):
        named = felt_past_tray(_shifted(img, dx, dy), tray, walls)
        assert named == side or (name == "glare" and named is None), (dx, dy, named)
        assert felt_past_tray(_shifted(img, dx, dy), tray, [s for s in walls if s != side]) is None
    full = (0, 0, img.shape[1], img.shape[0])                          # a tray filling the frame
    assert walled_sides(img, full) == [] and felt_past_tray(img, full, SIDES) is None


def test_a_tray_box_drawn_across_a_larger_felt_has_no_walls_and_is_never_called_moved():
    """A box written by hand to leave part of the felt out (where held dice wait) has felt past
    it from the start: calibration-style measuring finds no wall there, and an older
    calibration without `walls` is not checked either."""
    style = dataclasses.replace(STYLES["green"], border_px=0)
    img = render_tray([1, 2, 3], seed=3, style=style, die_px=50).image
    box = (0, 0, 400, 480)
    assert walled_sides(img, box) == []
    r = read(img, {"tray": list(box), "die_px": 50})
    assert CAMERA_MOVED not in r.problem_codes()


def test_after_the_camera_moved_the_whole_view_is_read_and_the_staff_are_told():
    """18 throws of six dice, the tray moved 60 px one way or another since calibration: with the
    calibrated box the reader read 93 of the 108 dice right (the felt outside the box is not
    looked at); now it reads the whole view, 108 right, and says to calibrate again."""
    right = total = flagged = 0
    for name in ("green", "light", "blue"):
        style, cal = _calibrated(name)
        for seed in range(2):
            shot = render_tray([1, 2, 3, 4, 5, 6], seed=100 + seed, style=style, die_px=50)
            steady = read(shot.image, cal)
            assert CAMERA_MOVED not in steady.problem_codes()
            for dx, dy in ((60, 0), (0, -60), (-60, 0)):
                r = read(_shifted(shot.image, dx, dy), cal)
                labels = [truth_to_json(d) for d in shot.truth]
                for lab in labels:
                    lab["box"] = [lab["box"][0] + dx, lab["box"][1] + dy, lab["box"][2] + dx, lab["box"][3] + dy]
                preds = [(d.centre[0], d.centre[1], d.value) for d in r.dice]
                pairs, _extras = match(preds, labels)
                right += sum(preds[pi][2] == labels[li]["value"] for li, pi in pairs)
                total += len(labels)
                flagged += CAMERA_MOVED in r.problem_codes()
                moved = [p for p in r.problems if p.code == CAMERA_MOVED]
                assert moved and "calibrate again" in moved[0].message
    assert flagged == 18
    assert right >= total - 2, (right, total)            # (measured: all 108)


@pytest.mark.parametrize("dx, dy", [(20, 0), (0, -20), (-30, 0), (0, 30)])
def test_a_camera_knocked_by_a_little_is_named_and_the_dice_by_the_walls_read(dx, dy):
    """The camera knocked by 20-30 px (3-5% of the frame): the felt stayed inside the band looked
    at past each side, nothing was named, and the dice against the walls were cut by the old box
    ("partly out of view": the throw asked again for no reason the players could see). The tray is
    now found again, the box moved with it, and the staff told (`python -m vision.knock_bench`:
    36 of 36 such frames at 20 px; smaller knocks: tests/test_vision_knock_small.py). This
    throw's dice lie against every wall."""
    from vision.knock_bench import by_the_walls, shifted
    from vision.size_bench import verdict

    style, cal = _calibrated("green")
    values = [3, 5, 1, 6, 2, 4]
    image = shifted(by_the_walls(values, 703, style, cal["tray"]), dx, dy)
    r = read(image, cal)
    assert verdict(r, values) == "right", r.problems
    told = [p.message for p in r.problems if p.code == CAMERA_MOVED]
    assert len(told) == 1 and "calibrate again" in told[0], r.problems
    way = ("right" if dx > 0 else "left") if dx else ("down" if dy > 0 else "up")
    assert f"px {way}" in told[0], told


@pytest.mark.parametrize("name", ["green", "glare", "light"])
def test_a_camera_that_stayed_is_not_called_knocked(name):
    """Not moved: no notice on still trays of dice, dice by the walls, a hand, or a phone left in
    the tray (0 of 560 such frames over the styles, `tray_shift`)."""
    from vision.knock_bench import by_the_walls
    from vision.synthetic import HandSpec, ThingSpec

    style, cal = _calibrated(name)
    values = [3, 5, 1, 6, 2, 4]
    frames = [by_the_walls(values, 701, style, cal["tray"]),
              render_tray(values, seed=31, style=style, die_px=50, hands=HandSpec("left", 0.5, 160, 90)).image,
              render_tray(values[:5], seed=33, style=style, die_px=50,
                          things=[ThingSpec("phone", (150, 150), 170, 20)]).image]
    for image in frames:
        assert CAMERA_MOVED not in read(image, cal).problem_codes()
