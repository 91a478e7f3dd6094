"""A config file saved by Windows' Notepad ("UTF-8 with BOM", and its CRLF line ends): staff edit
the config on a laptop and copy it to the card. The invisible mark before `[table]` made its
first line "not valid TOML" and every [table] setting an unknown key, ignored; the check said
PROBLEM on a line that looks right, and calibrating refused to write into the file."""
from __future__ import annotations

from pathlib import Path

from controller.check import OK, check_config
from controller.config import load_config
from controller.calibrate import load_calibration, save_calibration
from vision.calibrate import Calibration

BOM = "\ufeff"
CAFE = ('[table]\ngame = "classic"\nplayers = ["Window", "Bar"]\nconfirm_seconds = 2.5\n\n'
        '[display]\nfullscreen = true\n')


def notepad(path: Path, text: str) -> Path:
    """`text` as Notepad saves it: a BOM first, CRLF line ends."""
    path.write_bytes((BOM + text).replace("\n", "\r\n").encode("utf-8"))
    return path


def test_a_config_saved_with_a_bom_is_read_whole(tmp_path):
    cfg = notepad(tmp_path / "config.toml", CAFE)
    for lenient in (False, True):
        config = load_config(cfg, lenient=lenient)
        assert (config.table.game, config.table.players, config.table.confirm_seconds) == \
               ("classic", ("Window", "Bar"), 2.5)
        assert config.display.fullscreen is True
        assert config.problems == () and config.warnings == ()


def test_check_says_the_bom_config_is_read(tmp_path):
    cfg = notepad(tmp_path / "config.toml", CAFE)
    _, found = check_config(cfg)
    assert [(f.level, f.text) for f in found] == [(OK, f"{cfg} read")]


def test_calibrating_writes_into_a_bom_config_and_keeps_the_rest(tmp_path):
    cfg = notepad(tmp_path / "config.toml", CAFE)
    cal = Calibration(tray=(40, 30, 600, 450), die_px=61.0, frame_size=(640, 480), walls=["left"])
    save_calibration(cal, cfg)          # before: ValueError "is not valid TOML"
    assert load_calibration(cfg) == cal
    config = load_config(cfg)
    assert config.table.game == "classic" and config.vision.calibration["die_px"] == 61.0
    assert not config.warnings
