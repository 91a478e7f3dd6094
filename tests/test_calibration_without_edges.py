"""A calibration made before the felt's edges were measured (no `wall_edges` in [vision]).

The reader follows a camera raised or lowered since calibration by those edges; without them
it cannot. With such a calibration a camera lowered 10% had every throw against the walls asked
again ("partly out of view") and raised 10% nothing said, and the staff heard of neither:
`dicetable check` said "ok  calibration: taken on ...", the log nothing. Now both say the
calibration is older than the check and give the command that calibrates again."""
from __future__ import annotations

import dataclasses
import functools
import logging

import cv2
import pytest

from controller import check
from controller.check import OK, WARN, check_calibration
from controller.cli import main
from controller.config import load_config
from controller.table_app import TableApp
from display.screen import Screen
from test_table_e2e import FakeButtons
from table_helpers import Clock
from controller.calibrate import save_calibration
from vision.calibrate import Calibration, calibrate
from vision.height_check import unchecked
from vision.reader import read
from vision.synthetic import STYLES, render_tray

STYLE = dataclasses.replace(STYLES["green"], border_px=50)


@pytest.fixture(autouse=True)
def _no_table_user(monkeypatch):
    monkeypatch.setattr(check, "table_user", lambda: None, raising=False)


@functools.cache
def calibrated() -> Calibration:
    empty = [render_tray([], seed=i, style=STYLE, die_px=50).image for i in range(2)]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=STYLE, die_px=50).image for i in range(2)]
    return calibrate(empty, throws, reader=read)


def older() -> Calibration:
    """The same calibration as a table calibrated before 2026-11-27 holds it: no wall_edges."""
    return dataclasses.replace(calibrated(), wall_edges={})


def _config(tmp_path, calibration: Calibration, frame=None):
    folder = tmp_path / "frames"
    folder.mkdir(exist_ok=True)
    cv2.imwrite(str(folder / "0.png"), frame if frame is not None else
                render_tray([], seed=0, style=STYLE, die_px=50).image)
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[table]\njournal_dir = "{tmp_path / "games"}"\n\n[camera]\ntype = "folder"\npath = "{folder}"\n\n'
                   '[buttons]\ntype = "keyboard"\n', encoding="utf-8")
    save_calibration(calibration, cfg)
    return cfg


def test_dicetable_check_tells_the_staff_to_calibrate_an_older_calibration_again(tmp_path, capsys):
    """Before: "ok  calibration: taken on ..., die 50 px", though the camera's height was never
    checked. Now a warning that says what goes unnoticed and how to calibrate again; the table
    is still ready (it reads the dice as before)."""
    cfg = _config(tmp_path, older())
    [found] = check_calibration(load_config(cfg), None)
    assert found.level == WARN, found
    assert "no wall_edges" in found.text and "raised or lowered" in found.text, found.text
    assert "dicetable calibrate --camera" in found.text, found.text
    main(["check", "--config", str(cfg), "--no-camera"])
    line = next(ln for ln in capsys.readouterr().out.splitlines() if "calibration:" in ln)
    assert line.startswith("warning  calibration:") and "no wall_edges" in line, line


def test_a_calibration_with_its_edges_is_ok(tmp_path):
    cfg = _config(tmp_path, calibrated())
    [found] = check_calibration(load_config(cfg), None)
    assert found.level == OK and "wall_edges" not in found.text, found


def test_the_table_says_it_in_its_log_as_it_starts(tmp_path, caplog):
    """The service's log at each start: once, with what to do."""
    cfg = _config(tmp_path, older())
    with caplog.at_level(logging.INFO):
        TableApp(load_config(cfg), Screen((800, 480), headless=True), None, FakeButtons(), clock=Clock())
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and "calibration" in r.getMessage()]
    assert said == ["camera: this calibration was made before the felt's edges were measured (no wall_edges): a "
                    "camera raised or lowered, or knocked by less than 2% of the frame, goes unnoticed: run "
                    "dicetable calibrate again"], said
    caplog.clear()
    (tmp_path / "new").mkdir()
    cfg2 = _config(tmp_path / "new", calibrated())
    with caplog.at_level(logging.INFO):
        TableApp(load_config(cfg2), Screen((800, 480), headless=True), None, FakeButtons(), clock=Clock())
    assert not [r for r in caplog.records if "this calibration was" in r.getMessage()]


@pytest.mark.parametrize("cal, said", [
    ({}, None),
    ({"tray": [10, 10, 300, 200], "die_px": 40}, None),                                   # a box written by hand
    ({"tray": [10, 10, 300, 200], "die_px": 40, "calibrated_at": "2026-10-01T10:00:00"}, "no walls"),
    ({"tray": [10, 10, 300, 200], "die_px": 40, "calibrated_at": "x", "walls": []}, None),  # a tray filling the view
    ({"tray": [10, 10, 300, 200], "die_px": 40, "calibrated_at": "x", "walls": ["left"]}, "no wall_edges"),
    ({"tray": [10, 10, 300, 200], "die_px": 40, "calibrated_at": "x", "walls": ["left"],
      "wall_edges": {"left": [-1.0, -1.0, -1.0]}}, "no wall_edges"),
    ({"tray": [10, 10, 300, 200], "die_px": 40, "calibrated_at": "x", "walls": ["left"],
      "wall_edges": {"left": "garbage"}}, "no wall_edges"),
    ({"tray": [10, 10, 300, 200], "die_px": 40, "calibrated_at": "x", "walls": ["left"],
      "wall_edges": {"left": [9.5, 9.4, 9.6]}}, None),
])
def test_which_calibrations_are_older(cal, said):
    words = unchecked(cal)
    assert (words is None) if said is None else (said in words), words
