"""`dicetable play --log` writes its log by a temp file and a rename. Each one must reach the card
before the rename is made (the temp file fsynced) and the rename itself after it (the folder
fsynced): else a power cut within the kernel's writeback leaves the log's name on an empty or
half-written file, and the game typed so far is lost. A card that fails at fsync (EIO) is a log
not written, said, never a traceback."""
from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import controller.cli as cli
from controller.tablelog import TableLog
from test_cli_play import Keyboard

TYPED = ["1 2 3 4 6", "Aces", "2 2 2 3 3"]


@pytest.fixture
def disk(monkeypatch):
    """Records, in order, each fsync (of the file or folder its fd is) and each rename."""
    events: list[tuple[str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def replace(src, dst) -> None:
        events.append(("replace", f"{os.fspath(src)} -> {os.fspath(dst)}"))
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    return events


def play(monkeypatch, lines: list[str], *argv: str) -> int:
    monkeypatch.setattr("builtins.input", Keyboard(lines))
    try:
        return cli.main(["play", *argv])
    except SystemExit as exc:
        return int(exc.code or 0)


def test_every_write_of_the_log_is_synced_before_and_after_its_rename(tmp_path, monkeypatch, disk, capsys) -> None:
    log = tmp_path / "game.json"
    assert play(monkeypatch, TYPED, "--game", "thirteen", "--players", "Ann", "--log", str(log)) == 0
    tmp, folder = str(log) + ".tmp", str(tmp_path)
    renames = [i for i, (kind, what) in enumerate(disk) if kind == "replace" and what == f"{tmp} -> {log}"]
    assert len(renames) >= len(TYPED), disk            # (the start, then every input)
    for i in renames:
        assert ("fsync", tmp) in disk[:i] and disk[i - 1] == ("fsync", tmp), disk[:i + 2]
        assert disk[i + 1] == ("fsync", folder), disk[i:i + 2]
    assert len(TableLog.load(log).inputs) == len(TYPED)


def test_a_card_that_fails_at_fsync_is_a_log_not_written_said(tmp_path, monkeypatch, capsys) -> None:
    def failing(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing)
    log = tmp_path / "game.json"
    code = play(monkeypatch, TYPED, "--game", "thirteen", "--players", "Ann", "--log", str(log))
    err = capsys.readouterr().err
    assert code == 2 and f"cannot write the log {log}: Input/output error" in err, err
    assert "Traceback" not in err


def test_a_filesystem_without_fsync_still_gets_its_log(tmp_path, monkeypatch, capsys) -> None:
    def unsupported(fd: int) -> None:
        raise OSError(errno.EINVAL, "Invalid argument")

    monkeypatch.setattr(os, "fsync", unsupported)
    log = tmp_path / "game.json"
    assert play(monkeypatch, TYPED, "--game", "thirteen", "--players", "Ann", "--log", str(log)) == 0
    assert len(TableLog.load(Path(log)).inputs) == len(TYPED)
