"""`dicetable calibrate --camera`: frames from the config's camera (a folder of rendered frames
here, each repeated as a still camera repeats a still tray), answers typed at the terminal."""
from __future__ import annotations

import itertools
import tomllib

import cv2
import numpy as np
import pytest

from controller.calibrate_camera import CameraCalibration
from controller.cli import main
from hardware.frame_folder import FolderFrameSource
from controller.calibrate import load_calibration
from vision.settle import SettleConfig
from vision.synthetic import TrayStyle, render_tray

STYLE = TrayStyle.preset("green", border_px=40)


def _frames(folder, kinds: str) -> None:
    """One image per letter of `kinds`: e = the empty tray, t = a throw of five 50 px dice."""
    folder.mkdir()
    for i, kind in enumerate(kinds):
        values = [] if kind == "e" else [1, 2, 3, 4, 5]
        img = render_tray(values, seed=60 + i, style=STYLE, die_px=50).image
        cv2.imwrite(str(folder / f"{i:02d}-{kind}.png"), img)


def _config(tmp_path, frames_dir, repeat: int = 8):
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[camera]\ntype = "folder"\npath = "{frames_dir}"\nrepeat = {repeat}\n\n'
                   '[buttons]\ntype = "keyboard"\n')
    return cfg


def _answers(monkeypatch, *answers: str) -> list[str]:
    """Type `answers` at the prompts, then Enter forever; returns the prompts seen."""
    prompts: list[str] = []
    typed = itertools.chain(answers, itertools.repeat(""))

    def ask(prompt: str = "") -> str:
        prompts.append(prompt)
        return next(typed)

    monkeypatch.setattr("builtins.input", ask)
    return prompts


def _calibrate(tmp_path, monkeypatch, kinds: str):
    """`dicetable calibrate --camera` over the frames `kinds` (see _frames), Enter at every
    prompt: (exit code, the config file, the prompts seen)."""
    frames = tmp_path / "frames"
    _frames(frames, kinds)
    cfg = _config(tmp_path, frames)
    prompts = _answers(monkeypatch)
    return main(["calibrate", "--camera", "--config", str(cfg)]), cfg, prompts


def test_calibrate_with_the_camera_guides_the_staff_and_saves(tmp_path, monkeypatch, capsys):
    code, cfg, prompts = _calibrate(tmp_path, monkeypatch, "eett")
    assert code == 0
    out = capsys.readouterr().out
    assert [p.split(":")[0] for p in prompts] == ["Empty tray (1 of 2)", "Empty tray (2 of 2)",
                                                  "Throw 1 of 2", "Throw 2 of 2"]
    assert "die size:" in out and f"saved to [vision] in {cfg}" in out
    cal = load_calibration(cfg)
    assert cal is not None and cal.die_px == pytest.approx(50, rel=0.15) and cal.frame_size == (640, 480)
    saved = tomllib.loads(cfg.read_text())
    assert saved["camera"]["type"] == "folder" and saved["buttons"] == {"type": "keyboard"}


def test_dice_left_in_the_empty_tray_are_named_and_the_frame_taken_again(tmp_path, monkeypatch, capsys):
    code, cfg, prompts = _calibrate(tmp_path, monkeypatch, "teett")
    assert code == 0
    out = capsys.readouterr().out
    assert "I see 5 dice in the tray: it must be empty." in out
    assert prompts[1].startswith("Press Enter to look again, or type k")
    assert load_calibration(cfg).die_px == pytest.approx(50, rel=0.15)


def test_k_keeps_a_frame_the_check_refused():
    """The reader may be wrong about the tray (a screw head taken for a die): `k` overrules it."""
    source = FolderFrameSource(files=[], repeat=1)
    cal = CameraCalibration(source, SettleConfig(), reader=lambda img: None, ask=lambda p: "k", say=lambda s: None)
    frame = np.zeros((4, 4, 3), np.uint8)
    cal.still_frame = lambda: frame                                  # type: ignore[method-assign]
    said: list[str] = []
    cal.say = said.append
    assert cal.take("Empty tray.", lambda img: "I see 1 die in the tray: it must be empty.") is frame
    assert said == ["I see 1 die in the tray: it must be empty."]


def test_a_tray_that_never_keeps_still_is_waited_for_then_asked_again(tmp_path):
    """Every frame different (a hand over the tray): after the timeout the staff are told and
    asked again, and the next still frame is taken."""
    frames = tmp_path / "frames"
    frames.mkdir()
    rng = np.random.default_rng(1)
    for i in range(12):
        cv2.imwrite(str(frames / f"{i:02d}.png"), rng.integers(0, 255, (120, 160, 3), dtype=np.uint8))
    for i in range(12, 20):
        cv2.imwrite(str(frames / f"{i:02d}.png"), np.full((120, 160, 3), 90, np.uint8))
    source = FolderFrameSource(frames)
    source.open()
    now = itertools.count()
    said: list[str] = []
    cal = CameraCalibration(source, SettleConfig(), reader=lambda img: None, ask=lambda p: "",
                            say=said.append, clock=lambda: next(now), timeout_s=10)
    frame = cal.take("Empty tray.", lambda img: None)
    assert said and said[0].startswith("The tray did not keep still for 10 s")
    assert frame.mean() == 90


@pytest.mark.parametrize("args,message", [
    (["--camera", "--empty", "x.png"], "not both"),
    ([], "or --camera to take them"),
    (["--camera", "--throws", "0"], "--throws must be at least 1"),
])
def test_bad_calibrate_arguments_exit_2_with_a_message(tmp_path, capsys, args, message):
    (tmp_path / "config.toml").write_text("")
    assert main(["calibrate", *args, "--config", str(tmp_path / "config.toml")]) == 2
    assert message in capsys.readouterr().err


def test_a_missing_config_is_refused_before_the_camera_is_opened(tmp_path, monkeypatch, capsys):
    """Without the file the built-in camera was tried (and, had it worked, a new root-only
    config holding only [vision] written): the staff are sent to install step 5 first."""
    prompts = _answers(monkeypatch)
    cfg = tmp_path / "config.toml"
    assert main(["calibrate", "--camera", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert f"no config file at {cfg}" in err and "config.example.toml" in err
    assert "cannot open the camera" not in err and not prompts and not cfg.exists()


def test_a_camera_that_cannot_open_says_to_stop_the_table(tmp_path, monkeypatch, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    cfg = _config(tmp_path, empty)
    _answers(monkeypatch)
    assert main(["calibrate", "--camera", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert "cannot open the camera" in err and "sudo systemctl stop dicetable" in err
    assert "[vision]" not in cfg.read_text()


def test_closed_stdin_and_a_camera_that_runs_out_are_messages_not_tracebacks(tmp_path, monkeypatch, capsys):
    frames = tmp_path / "frames"
    _frames(frames, "ee")
    cfg = _config(tmp_path, frames)

    def no_terminal(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", no_terminal)
    assert main(["calibrate", "--camera", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert "no answer at the terminal (Ctrl-D pressed" in err and "nothing was saved" in err
    _answers(monkeypatch)
    assert main(["calibrate", "--camera", "--config", str(cfg)]) == 2      # two empty frames, no throw
    err = capsys.readouterr().err
    assert "the camera stopped sending frames" in err and "Traceback" not in err
    assert "[vision]" not in cfg.read_text()
