"""A calibrated read segments the frame a second time, without a die size, only when the dice
may be another size than calibrated (vision/die_size.py): dice touching in a heap, a die under a
lamp's glare, things by the dice, all of the calibrated size, made most calibrated frames pay
that second segmentation (~7 ms of 640 x 480 here, 1.95 segmentations a Byler frame) for the
same reading. Counted, not timed; the readings of dice of another size stay in
tests/test_vision_die_size.py."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from test_vision_calcost import sizeless_segmentations
from vision import reader
from vision.calibrate import calibrate
from vision.synthetic import TrayStyle, render_tray

GREEN = TrayStyle.preset("green", border_px=40)
LIGHT = TrayStyle.preset("light", border_px=40)


def _calibration(style: TrayStyle) -> dict:
    """What `dicetable calibrate` saves for `style`'s tray: two empty frames, two throws of 55 px dice."""
    empty = [render_tray([], seed=i, style=style, die_px=55).image for i in range(2)]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=style, die_px=55).image for i in range(2)]
    return calibrate(empty, throws, reader=reader.read).to_dict()


@pytest.fixture(scope="module")
def green() -> dict:
    return _calibration(GREEN)


def _throw(seed: int) -> list[int]:
    return [int(v) for v in np.random.default_rng(seed).integers(1, 7, 5)]


@pytest.mark.parametrize("seed", [0, 3, 6])
def test_dice_of_the_calibrated_size_touching_are_not_segmented_again(green, monkeypatch, seed):
    """Before: two 55 px dice touching, on a tray calibrated with them, were segmented again
    without a size to see whether they were bigger dice (8 of 8 such trays); they never were."""
    values = _throw(seed)
    frame = render_tray(values, seed=seed, style=GREEN, die_px=55, touching=2).image
    calls = sizeless_segmentations(monkeypatch)
    r = reader.read(frame, green)
    assert sorted(d.value for d in r.dice) == sorted(values), r.problems
    assert "die_size" not in r.problem_codes()
    assert len(calls) == 0


def test_a_die_under_glare_of_the_calibrated_size_is_not_measured_again(monkeypatch):
    """Before: under a lamp's glare one die of five had no blob of its own at the calibrated
    size (the detector found it), and the smaller-dice check segmented the frame again to
    measure dice its boxes already showed as big as calibrated."""
    cal = calibrate([render_tray([], seed=1, style=LIGHT).image], [render_tray([1, 2, 3, 4, 5], seed=2,
                                                                               style=LIGHT).image],
                    reader=reader.read).to_dict()
    frame = render_tray([2, 4, 6, 1, 3], seed=13, style=LIGHT, glare=True).image
    calls = sizeless_segmentations(monkeypatch)
    r = reader.read(frame, cal)
    assert sorted(d.value for d in r.dice) == [1, 2, 3, 4, 6], r.problems
    assert "die_size" not in r.problem_codes()
    assert len(calls) == 0


def test_the_benchmark_calibrates_photos_with_the_dice_s_side_as_calibration_measures_it(tmp_path):
    """`vision.calcost_bench` gives each Byler photo the calibration the table would have. Before,
    it took the die size as its boxes' long side (1.2-1.3 x the top face a calibration measures):
    segmented at a size too big, the dice in heaps stayed one blob and were measured again."""
    from vision.calcost_bench import photo_frames

    folder = tmp_path / "nellbyler_d6"
    folder.mkdir()
    shot = render_tray([1, 2, 3, 4, 5, 6], seed=21, style=GREEN, die_px=55)
    cv2.imwrite(str(folder / "tray.png"), shot.image)
    (folder / "labels.json").write_text(json.dumps([{"image": "tray.png"}]))
    [(_what, _frame, cal)] = photo_frames(tmp_path, 1)
    assert cal["die_px"] == pytest.approx(55, rel=0.12)


def test_the_tray_found_again_is_the_largest_part_of_the_felt_as_before():
    """`calibrate.find_tray` (run on every calibrated frame by the moved-tray check) measures the
    largest part of the felt by labelling it alone (the labelling with statistics cost ~0.15 ms
    more a frame): the same box as the statistics give, on regions of one part and of several
    (two felts, a speck, ties)."""
    from vision.calibrate import _largest_region

    rng = np.random.default_rng(5)
    regions = [np.zeros((240, 320), np.uint8) for _ in range(4)]
    regions[0][20:200, 30:300] = 255
    regions[1][20:100, 30:100] = 255
    regions[1][120:230, 150:310] = 255
    regions[1][5, 5] = 255
    regions[2][10:20, 10:20] = 255
    regions[2][50:60, 50:60] = 255
    regions[3] = (rng.random((240, 320)) < 0.55).astype(np.uint8) * 255
    for region in regions + [np.zeros((240, 320), np.uint8)]:
        n, _labels, stats, _c = cv2.connectedComponentsWithStats(region, connectivity=4)
        want = None if n <= 1 else tuple(int(v) for v in stats[1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA])), :4])
        assert _largest_region(region) == want
