"""`dicetable check`'s calibration line against the camera's frame, as the table will read it:
a camera knocked after calibrating, dice bigger than those calibrated with."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from controller import check
from controller.check import OK, WARN, check_calibration
from controller.cli import main
from controller.config import load_config
from controller.calibrate import save_calibration
from vision.calibrate import calibrate
from vision.reader import read
from vision.synthetic import TrayStyle, render_tray

STYLE = TrayStyle.preset("green", border_px=40)


@pytest.fixture(autouse=True)
def _no_table_user(monkeypatch):
    monkeypatch.setattr(check, "table_user", lambda: None, raising=False)


def _moved(img: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """The camera's view after a knock: the picture shifted."""
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REPLICATE)


@pytest.fixture(scope="module")
def calibration():
    empty = [render_tray([], seed=i, style=STYLE, die_px=55).image for i in range(2)]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=STYLE, die_px=55).image for i in range(2)]
    return calibrate(empty, throws, reader=read)


def _table(tmp_path, calibration, frame: np.ndarray):
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0.png"), frame)
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[table]\njournal_dir = "{tmp_path / "games"}"\n\n[camera]\ntype = "folder"\npath = "{folder}"\n\n'
                   '[buttons]\ntype = "keyboard"\n')
    save_calibration(calibration, cfg)
    return cfg


def test_a_camera_knocked_since_calibrating_is_a_problem_of_the_calibration(tmp_path, calibration, capsys):
    """Before: "ok  calibration: taken on ..., die 55 px", and "ready", while the table then showed
    "For the staff: the tray is not where it was calibrated" at every throw."""
    frame = _moved(render_tray([2, 3], seed=90, style=STYLE, die_px=55).image, 40, 0)
    cfg = _table(tmp_path, calibration, frame)
    assert main(["check", "--config", str(cfg)]) == 1
    line = next(ln for ln in capsys.readouterr().out.splitlines() if "calibration:" in ln)
    assert line.startswith("PROBLEM  calibration:"), line
    assert "the tray is not where it was calibrated" in line and "calibrate --camera" in line


def test_the_same_view_is_ok_and_bigger_dice_a_warning(tmp_path, calibration):
    config = load_config(_table(tmp_path, calibration, np.zeros((4, 4, 3), np.uint8)))
    same = render_tray([2, 3], seed=90, style=STYLE, die_px=55).image
    assert [f.level for f in check_calibration(config, same)] == [OK]
    assert [f.level for f in check_calibration(config, render_tray([], seed=91, style=STYLE).image)] == [OK]
    bigger = check_calibration(config, render_tray([2, 3, 4, 5, 6], seed=91, style=STYLE, die_px=85).image)
    assert [f.level for f in bigger] == [WARN] and "bigger than the ones calibrated" in bigger[0].text


def test_the_calibrate_it_advises_saves_into_the_config_file_checked(tmp_path, capsys):
    """`dicetable check --config FILE` advised `sudo dicetable calibrate --camera`, which saves into
    /etc/dicetable/config.toml: the file checked was left uncalibrated. The table's own file needs
    no --config."""
    mine = tmp_path / "my table.toml"
    mine.write_text('[table]\ngame = "thirteen"\n', encoding="utf-8")
    [finding] = check_calibration(load_config(mine), None)
    assert finding.level == WARN
    assert f"sudo dicetable calibrate --camera --config '{mine}';" in finding.text
    [default] = check_calibration(check.Config(path=check.DEFAULT_PATH), None)
    assert "sudo dicetable calibrate --camera; sudo systemctl start dicetable" in default.text
