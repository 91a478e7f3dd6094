"""`dicetable calibrate` saves through plain_file.write_whole, as the table's other whole files are.
Its own copy of those lines called os.fsync itself: on a filesystem without fsync (EINVAL: the
table's game log and journal let it go, and were saved) every calibration failed, "cannot save
to config.toml: not saved: Invalid argument", though nothing was wrong with the card."""
from __future__ import annotations

import errno
import os
import tomllib

import cv2
import pytest

from controller.cli import main
from vision.synthetic import TrayStyle, render_tray

CAFE = '# The Blue Door café\n[table]\ngame = "classic"\n\n[vision]\ntray = [10, 10, 600, 440]\ndie_px = 50.0\n'


@pytest.fixture
def cafe(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text(CAFE, encoding="utf-8")
    cfg.chmod(0o640)
    argv = ["calibrate", "--config", str(cfg), "--empty"]
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"e{i}.png"), render_tray([], seed=i, style=TrayStyle(), die_px=60).image)
        cv2.imwrite(str(tmp_path / f"t{i}.png"),
                    render_tray([1, 2, 3, 4, 5], seed=50 + i, style=TrayStyle(), die_px=60).image)
    argv += [str(tmp_path / "e0.png"), str(tmp_path / "e1.png"), "--throw", str(tmp_path / "t0.png"),
             str(tmp_path / "t1.png")]
    return cfg, argv


def test_a_filesystem_without_fsync_still_gets_its_calibration(cafe, monkeypatch, capsys):
    cfg, argv = cafe

    def unsupported(fd: int) -> None:
        raise OSError(errno.EINVAL, "Invalid argument")

    monkeypatch.setattr(os, "fsync", unsupported)
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 0, err
    saved = tomllib.loads(cfg.read_text(encoding="utf-8"))
    assert saved["table"] == {"game": "classic"} and 55 < saved["vision"]["die_px"] < 65
    assert cfg.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in cfg.parent.iterdir() if p.name.startswith(".")) == []


def test_a_card_failing_at_fsync_keeps_the_old_config_and_says_so(cafe, monkeypatch, capsys):
    cfg, argv = cafe

    def failing(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing)
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "the SD card failed to write (input/output error)" in err
    assert f"{cfg} was left as it was, with its old calibration" in err
    assert cfg.read_text(encoding="utf-8") == CAFE
    assert sorted(p.name for p in cfg.parent.iterdir() if p.name.startswith(".")) == []
