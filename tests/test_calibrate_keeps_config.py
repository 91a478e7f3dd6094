"""`dicetable calibrate` as café staff run it, over a café's config that holds a good calibration:
a black picture. Each says what to do in one line, and the old calibration is never lost."""
from __future__ import annotations


import cv2
import numpy as np
import pytest

import vision.calibrate as calibrate_module
from controller.cli import main
from vision.synthetic import TrayStyle, render_tray

CAFE = """# The Blue Door café, table 2
[table]
game = "classic"

[vision]
# measured on 2026-11-20
tray = [10, 10, 600, 440]
die_px = 50.0
frame_size = [640, 480]
"""


@pytest.fixture
def cafe(tmp_path):
    """(the config, the images: e0 e1 empty, t0 t1 throws, black, a lens cap's frame)."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(CAFE, encoding="utf-8")
    images = {}
    for i in range(2):
        images[f"e{i}"] = render_tray([], seed=i, style=TrayStyle(), die_px=60).image
        images[f"t{i}"] = render_tray([1, 2, 3, 4, 5], seed=50 + i, style=TrayStyle(), die_px=60).image
    images["black"] = np.zeros_like(images["e0"])
    paths = {}
    for name, img in images.items():
        cv2.imwrite(str(tmp_path / f"{name}.png"), img)
        paths[name] = str(tmp_path / f"{name}.png")
    return cfg, paths


def _run(cfg, paths, empty=("e0", "e1"), throw=("t0", "t1")):
    return main(["calibrate", "--empty", *[paths[e] for e in empty], "--throw", *[paths[t] for t in throw],
                 "--config", str(cfg)])


def test_a_black_empty_tray_is_refused_and_the_calibration_kept(cafe, capsys):
    """Before: a black frame as the empty tray (the lens cap on, the lamp and the room off) was
    measured as felt of "BGR 0, 0, 0", "lighting looks fine", and saved over the café's
    calibration (exit 0)."""
    cfg, paths = cafe
    assert _run(cfg, paths, empty=("black",)) == 2
    err = capsys.readouterr().err
    assert f"--empty {paths['black']}: the picture is black: is the lens cap off" in err
    assert "Traceback" not in err
    assert cfg.read_text(encoding="utf-8") == CAFE


def test_pictures_with_a_tray_are_not_taken_for_blank_ones():
    dim = render_tray([], seed=0, style=TrayStyle.preset("dim"), die_px=60).image      # mean ~15
    assert calibrate_module.no_picture(dim) is None
    assert "white" in calibrate_module.no_picture(np.full((240, 320, 3), 255, np.uint8))
    assert "one flat colour" in calibrate_module.no_picture(np.full((240, 320, 3), 128, np.uint8))
