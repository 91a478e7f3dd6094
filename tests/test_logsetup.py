"""The log under systemd: journald files a line printed on stderr as info unless it starts with
`<N>`, so `journalctl -u dicetable -p warning` (docs/install.md, section 10) showed nothing, not
even the errors. Each line now carries its priority when, and only when, stderr is the journal."""
from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

from controller import cli
from controller.logsetup import log_handler


def journal_env(fh) -> dict[str, str]:
    """What systemd sets for a unit with StandardError=journal: stderr's device and inode."""
    st = os.fstat(fh.fileno())
    return {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"}


def emit(handler: logging.Handler) -> None:
    logger = logging.Logger("dicetable.test")
    logger.addHandler(handler)
    logger.info("config read")
    logger.warning("no config file at /etc/dicetable/config.toml: using the built-in defaults")
    try:
        raise OSError("read-only file system")
    except OSError:
        logger.exception("cannot journal games")


def test_dicetable_run_by_systemd_gives_each_line_its_priority(tmp_path, monkeypatch):
    stderr = (tmp_path / "stderr").open("w")
    for name, value in journal_env(stderr).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)      # (restored after: main sets it)
    given = {}
    monkeypatch.setattr(logging, "basicConfig", lambda **kwargs: given.update(kwargs))
    assert cli.main(["games"]) == 0
    [handler] = given["handlers"]
    emit(handler)
    stderr.close()
    lines = (tmp_path / "stderr").read_text().splitlines()
    assert lines[:3] == ["<6>dicetable.test: config read",
                         "<4>dicetable.test: no config file at /etc/dicetable/config.toml: using the built-in defaults",
                         "<3>dicetable.test: cannot journal games"]
    assert len(lines) > 4 and all(line.startswith("<3>") for line in lines[3:])    # the traceback too
    assert lines[-1] == "<3>OSError: read-only file system"


def test_a_terminal_keeps_timed_lines_without_prefixes(tmp_path):
    """Also when the variable is inherited (dicetable typed in a shell started by a service): it
    names another stream than this stderr."""
    other = (tmp_path / "other").open("w")
    with (tmp_path / "stderr").open("w") as stderr:
        for environ in ({}, journal_env(other)):
            emit(log_handler(stderr, environ))
    other.close()
    text = (tmp_path / "stderr").read_text()
    assert "<" not in text.split("Traceback")[0]
    assert " WARNING dicetable.test: no config file" in text


def test_a_crash_at_start_up_is_logged_as_critical_under_systemd(tmp_path):
    """A library that no longer imports after an update: Python printed the traceback, which the
    journal filed as info, hidden from `journalctl -p warning` while the table restarted in a loop."""
    crash = ("import controller.cli as cli\n"
             "def broken():\n"
             "    raise ImportError('numpy.core.multiarray failed to import')\n"
             "cli.build_parser = broken\n"
             "cli.main(['run'])\n")
    with (tmp_path / "stderr").open("w") as stderr:
        env = dict(os.environ, **journal_env(stderr))
        done = subprocess.run([sys.executable, "-c", crash], stderr=stderr, env=env,
                              cwd=Path(__file__).resolve().parents[1], timeout=120)
    lines = (tmp_path / "stderr").read_text().splitlines()
    assert done.returncode == 1
    assert lines[0] == "<2>dicetable: crashed: ImportError: numpy.core.multiarray failed to import"
    assert all(line.startswith("<2>") for line in lines) and "<2>Traceback (most recent call last):" in lines


def test_python_warnings_are_logged_as_warnings_under_systemd(tmp_path):
    """gpiozero warns when it falls back to another pin factory (a missing lgpio): Python printed
    the warning on stderr without a prefix, and the journal filed it as info."""
    script = ("import warnings\n"
              "import controller.cli as cli\n"
              "cli.main(['games'])\n"
              "warnings.warn('Falling back from lgpio: No module named lgpio', RuntimeWarning)\n")
    with (tmp_path / "stderr").open("w") as stderr:
        env = dict(os.environ, **journal_env(stderr))
        done = subprocess.run([sys.executable, "-c", script], stderr=stderr, stdout=subprocess.DEVNULL,
                              env=env, cwd=Path(__file__).resolve().parents[1], timeout=120)
    lines = (tmp_path / "stderr").read_text().splitlines()
    assert done.returncode == 0
    assert lines and all(line.startswith("<4>py.warnings: ") for line in lines), lines
    assert "Falling back from lgpio" in lines[0]
