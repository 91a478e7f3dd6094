"""`dicetable calibrate --camera` in a café whose config has a mistake where calibrating never
looks. Before: one typo in [buttons] (a panel `type = "gpoi"`) and calibrate refused to start,
"calibrate: ...config.toml: [buttons] type: unknown type 'gpoi'", though it never touches the
buttons: the café could not calibrate until someone who knew TOML came by. Now it calibrates
with what it can read and says what to fix; a [camera] it could not use as written is still
refused, with the words of before (calibrating another camera than the table's is worse)."""
from __future__ import annotations

import itertools
import logging
import tomllib

import cv2
import pytest

from controller.cli import main
from vision.synthetic import TrayStyle, render_tray

STYLE = TrayStyle.preset("green", border_px=40)
VISION = "[vision]\ntray = [10, 10, 600, 440]\ndie_px = 50.0\n"


@pytest.fixture
def camera(tmp_path, monkeypatch):
    """A folder camera over two empty trays and two throws, Enter typed at every prompt: the
    config's [camera] section."""
    frames = tmp_path / "frames"
    frames.mkdir()
    for i, kind in enumerate("eett"):
        img = render_tray([] if kind == "e" else [1, 2, 3, 4, 5], seed=60 + i, style=STYLE, die_px=50).image
        cv2.imwrite(str(frames / f"{i:02d}-{kind}.png"), img)
    typed = itertools.repeat("")
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    return f'[camera]\ntype = "folder"\npath = "{frames}"\nrepeat = 8\n'


def _calibrate(tmp_path, text: str) -> tuple[int, str]:
    cfg = tmp_path / "config.toml"
    cfg.write_text(text, encoding="utf-8")
    return main(["calibrate", "--camera", "--config", str(cfg)]), cfg.read_text(encoding="utf-8")


@pytest.mark.parametrize("mistake,said", [
    ('[buttons]\ntype = "gpoi"\n', "[buttons] type: unknown type 'gpoi'"),
    ('[table]\nconfirm_seconds = -1\n\n[buttons]\ntype = "serial"\nport = 5\nbaud = "fast"\n',
     "[table] confirm_seconds: must be from 0 to 60 seconds"),
    ('[vision.settle]\nstill_frames = -3\n', "[vision.settle] still_frames: must be from 1 to 100"),
], ids=["buttons type misspelt", "a table setting out of range", "vision.settle out of range"])
def test_a_mistake_outside_the_camera_is_said_and_the_tray_calibrated(tmp_path, camera, capsys, caplog, mistake,
                                                                      said):
    text = camera + "\n" + mistake + "\n" + VISION
    with caplog.at_level(logging.INFO):
        code, after = _calibrate(tmp_path, text)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "the config has mistakes outside [camera] (logged above): calibrating goes on" in captured.err
    assert said in captured.err and said in caplog.text          # (named, at the terminal and in the log)
    saved = tomllib.loads(after)
    assert saved["vision"]["die_px"] == pytest.approx(50, rel=0.15)
    assert after.split("[vision]")[0] == text.split("[vision]")[0]       # (the mistake left for the staff)


@pytest.mark.parametrize("mistake,said", [
    ('[camera]\ntype = "fodler"\npath = "/frames"\n\n[buttons]\ntype = "gpoi"\n',
     "[camera] type: unknown type 'fodler'"),
    ('[table]\nconfirm_seconds = -1\n\n[camera]\ntype = "fodler"\npath = "/frames"\n',
     "[camera] type: unknown type 'fodler'"),
    ('[camera]\ntype = folder\n\n[buttons]\ntype = "gpoi"\n', "not valid TOML"),
], ids=["camera and buttons misspelt", "a table setting, then the camera", "not TOML"])
def test_a_camera_that_cannot_be_used_as_written_is_still_refused(tmp_path, camera, capsys, mistake, said):
    text = mistake + "\n" + VISION
    code, after = _calibrate(tmp_path, text)
    err = capsys.readouterr().err
    assert code == 2 and said in err and "Traceback" not in err
    assert "calibrating goes on" not in err and after == text
