"""`dicetable calibrate` as café staff run it, over a café's config that holds a good calibration:
a black picture, Ctrl-C, a full card, a power cut, a FIFO or a link to nowhere where the config
belongs. Each says what to do in one line, and the old calibration is never lost."""
from __future__ import annotations

import errno
import io
import os

import cv2
import numpy as np
import pytest

import controller.calibrate as calibrate_module
from controller.cli import main
from hang_guard import outcome_of
from controller.calibrate import load_calibration, save_calibration
from vision.calibrate import Calibration
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


def _left_behind(cfg):
    return sorted(p.name for p in cfg.parent.iterdir() if p.name.startswith(".config-"))


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


def test_ctrl_c_while_measuring_says_nothing_was_saved(cafe, capsys, monkeypatch):
    """Before: `dicetable calibrate` returned 130 without a word (`python -m vision.calibrate`:
    a traceback), the staff left to wonder whether the café's calibration was still there."""
    cfg, paths = cafe

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(calibrate_module, "calibrate", interrupted)
    assert _run(cfg, paths) == 130
    err = capsys.readouterr().err
    assert f"stopped (Ctrl-C): nothing was saved, {cfg} is as it was" in err
    assert cfg.read_text(encoding="utf-8") == CAFE and not _left_behind(cfg)


class _FullCard(io.StringIO):
    """A file on a card that fills up after `room` characters."""

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def write(self, s: str) -> int:
        if self.tell() + len(s) > self.room:
            super().write(s[:self.room - self.tell()])
            raise OSError(errno.ENOSPC, "No space left on device")
        return super().write(s)

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "no file")


def test_a_full_card_mid_write_keeps_the_old_config_whole_and_says_so(cafe, capsys, monkeypatch):
    """Before: "[Errno 28] No space left on device: '.../.config-k2j1.toml'", naming a file the
    staff never made, and not saying whether the calibration was still there."""
    cfg, paths = cafe
    real_fdopen = os.fdopen

    def fdopen(fd, *args, **kwargs):
        os.close(fd)
        return _FullCard(room=40)

    monkeypatch.setattr(calibrate_module.os, "fdopen", fdopen)
    code = _run(cfg, paths)
    monkeypatch.setattr(calibrate_module.os, "fdopen", real_fdopen)
    err = capsys.readouterr().err
    assert code == 1
    assert "the disk (SD card) is full: make room" in err
    assert f"{cfg} was left as it was, with its old calibration" in err
    assert cfg.read_text(encoding="utf-8") == CAFE and not _left_behind(cfg)


def test_the_new_config_reaches_the_card_before_it_replaces_the_old(tmp_path, monkeypatch):
    """Before: renamed over the old config with its bytes still in memory, a power cut in the
    next seconds (the table unplugged once calibrated) could leave an empty config.toml."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(CAFE, encoding="utf-8")
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append("fsync folder" if os.path.isdir(f"/proc/self/fd/{fd}") else "fsync file")
        real_fsync(fd)

    def replace(src, dst):
        events.append("replace")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    save_calibration(Calibration(tray=(40, 30, 600, 450), die_px=61.0, frame_size=(640, 480)), cfg)
    assert events == ["fsync file", "replace", "fsync folder"]
    assert load_calibration(cfg).die_px == 61.0


@pytest.mark.parametrize("what", ["fifo", "folder", "dangling link"])
def test_a_config_that_is_not_a_file_is_named_for_what_it_is(cafe, capsys, what):
    """Before: a FIFO or a folder was "... is not a file"; a link to nowhere "no config file
    there: copy the example" with a cp that would write through the link."""
    cfg, paths = cafe
    there = cfg.parent / "other.toml"
    if what == "fifo":
        os.mkfifo(there)
    elif what == "folder":
        there.mkdir()
    else:
        there.symlink_to(cfg.parent / "usb" / "config.toml")
    assert _run(there, paths) == 2
    err = capsys.readouterr().err
    words = {"fifo": "is a FIFO (named pipe), not a file: put the table's config file there in its place",
             "folder": "is a folder, not a file: put the table's config file there in its place",
             "dangling link": f"is a link to {cfg.parent / 'usb' / 'config.toml'}, which is not there"}[what]
    assert f"{there} {words}" in err and "Traceback" not in err


def test_a_fifo_put_in_the_configs_place_before_the_save_does_not_hang_it(tmp_path, monkeypatch):
    """--camera looks at the config before the frames and saves minutes later: a FIFO put there
    meanwhile was read with read_text(), which waits for a writer for ever."""
    cfg = tmp_path / "config.toml"
    os.mkfifo(cfg)
    monkeypatch.setattr(calibrate_module, "missing_config", lambda path: None)    # (as it was at the check)

    def free_the_waiting_reader() -> None:
        with open(os.open(cfg, os.O_WRONLY | os.O_NONBLOCK), "w"):
            pass

    raised = outcome_of(lambda: save_calibration(Calibration(tray=(0, 0, 640, 480), die_px=60.0), cfg),
                        free_the_waiting_reader, "the save hung on a FIFO")
    assert isinstance(raised, OSError) and "FIFO" in str(raised)


def test_an_image_of_another_size_is_named(cafe, capsys, tmp_path):
    """Before: "all frames must have the same size; got 320x240 and 640x480", no file named."""
    cfg, paths = cafe
    small = str(tmp_path / "phone.png")
    cv2.imwrite(small, cv2.resize(cv2.imread(paths["t1"]), (320, 240)))
    paths["phone"] = small
    assert _run(cfg, paths, throw=("t0", "phone")) == 2
    err = capsys.readouterr().err
    assert f"of the size of --empty {paths['e0']} (640x480):\n  --throw {small}: 320x240" in err
    assert cfg.read_text(encoding="utf-8") == CAFE


def test_a_camera_unplugged_mid_calibration_says_what_to_do_and_keeps_the_config(tmp_path, capsys, monkeypatch):
    """The camera (a folder of frames) gone after the first empty frame. Before: "the camera
    failed: folder: cannot read image ...", no word of what to do nor of the old calibration."""
    import shutil

    frames = tmp_path / "frames"
    frames.mkdir()
    style = TrayStyle.preset("green", border_px=40)
    for i, kind in enumerate("eett"):
        img = render_tray([] if kind == "e" else [1, 2, 3, 4, 5], seed=60 + i, style=style, die_px=50).image
        cv2.imwrite(str(frames / f"{i:02d}-{kind}.png"), img)
    cfg = tmp_path / "config.toml"
    text = f'[camera]\ntype = "folder"\npath = "{frames}"\nrepeat = 8\n\n' + CAFE.split("\n", 1)[1]
    cfg.write_text(text, encoding="utf-8")
    asked: list[str] = []

    def ask(prompt: str = "") -> str:
        asked.append(prompt)
        if len(asked) == 2:
            shutil.rmtree(frames)                  # unplugged
        return ""

    monkeypatch.setattr("builtins.input", ask)
    assert main(["calibrate", "--camera", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert "the camera failed: " in err and "Check its cable" in err
    assert f"nothing was saved, {cfg} is as it was" in err and "Traceback" not in err
    assert cfg.read_text(encoding="utf-8") == text
