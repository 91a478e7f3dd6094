"""Ctrl-C (SIGINT) while `dicetable` starts: the program's libraries take seconds to load on a Pi,
and staff who started it by hand stop it then. It ends as interrupted (130), saying so in one line,
never with Python's traceback (which reads as a crash of the table).

The Ctrl-C is injected where it lands (an import under way, the vision's libraries loading), not
sent at a moment that luck picks."""
from __future__ import annotations

import importlib.abc
import sys

import pytest

import controller.cli


class _CtrlCWhileImporting(importlib.abc.MetaPathFinder):
    """Python finding `name` (loading it) when the Ctrl-C comes."""

    def __init__(self, name: str) -> None:
        self.name = name

    def find_spec(self, fullname, path, target=None):
        if fullname == self.name:
            raise KeyboardInterrupt
        return None


def _run(argv: list[str]) -> int:
    from controller.launch import main

    try:
        return main(argv)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C as the table starts ended it with Python's traceback")


@pytest.fixture
def ctrl_c_as_cli_loads(monkeypatch):
    """The Ctrl-C lands as the command's module (numpy, OpenCV, pygame behind it) is imported."""
    monkeypatch.delitem(sys.modules, "controller.cli")
    monkeypatch.setattr(sys, "meta_path", [_CtrlCWhileImporting("controller.cli"), *sys.meta_path])


def test_ctrl_c_as_the_table_run_by_hand_loads_is_no_traceback(ctrl_c_as_cli_loads, monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("RUNTIME_DIRECTORY", raising=False)
    assert _run(["run", "--headless", "--config", str(tmp_path / "config.toml")]) == 130
    assert capsys.readouterr().err == "dicetable: stopped (Ctrl-C) while it was starting.\n"


def test_ctrl_c_as_the_service_loads_is_a_stop_not_a_failed_start(ctrl_c_as_cli_loads, monkeypatch, tmp_path, capsys):
    """(systemd itself stops with SIGTERM; `systemctl kill -s INT` or a Ctrl-C on its terminal is a
    person's stop too: not one more quick failure for the back-off to count)"""
    from controller import start_backoff

    runtime = tmp_path / "run"
    runtime.mkdir()
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(runtime))
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM"):
        monkeypatch.delenv(name, raising=False)
    assert _run(["run", "--headless", "--config", str(tmp_path / "config.toml")]) == 130
    assert not (runtime / start_backoff.RECORD).exists()
    assert "Traceback" not in capsys.readouterr().err


def test_ctrl_c_as_the_vision_libraries_load_is_no_traceback(monkeypatch, tmp_path, capsys):
    def loading() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(controller.cli, "load_all", loading)
    try:
        code = controller.cli.main(["run", "--headless", "--config", str(tmp_path / "config.toml")])
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C as the vision's libraries load ended it with Python's traceback")
    assert code == 130 and capsys.readouterr().err == "dicetable: stopped (Ctrl-C) while it was starting.\n"
