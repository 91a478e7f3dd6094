"""A table installed by the docs of 2026-11-25 and updated by step 11: `sudo dicetable ...`.

Step 4 gained its `sudo ln -sf ... /usr/local/bin/dicetable` line on 2026-11-26; step 11
(updating) never makes it. On such a Pi the table runs, but every command `dicetable check` and
docs/install.md give the staff (`sudo dicetable calibrate --camera`, `sudo dicetable check`)
answers `sudo: dicetable: command not found`, and the check's service line said *ok*.
"""
from __future__ import annotations

import sys
from pathlib import Path

from controller.check import run_checks
from test_service import GROUPS, TABLE, UNIT


def service_lines(tmp_path: Path, sudo_path: tuple[Path, ...]) -> list[tuple[str, str]]:
    """`dicetable check`'s service lines on a Pi whose unit and venv are installed (the venv's
    program: this Python), `sudo` looking for commands in `sudo_path`."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[table]\njournal_dir = "{tmp_path / "games"}"\n\n[buttons]\ntype = "keyboard"\n')
    unit = tmp_path / "etc-dicetable.service"
    unit.write_text(UNIT.read_text(encoding="utf-8").replace("/opt/dicetable/venv/bin/dicetable", sys.executable),
                    encoding="utf-8")
    service = {"unit": unit, "shipped": (unit,), "dev": tmp_path / "no-dev", "group_id": GROUPS.get,
               "user_named": lambda name: TABLE if name == "dicetable" else None, "sudo_path": sudo_path}
    found = run_checks(cfg, camera=False, table_user=None, service=service, buttons={"wait_s": 0.1})
    return [(f.level, f.text) for f in found if f.part == "service"]


def sudo_folders(tmp_path: Path) -> tuple[Path, Path]:
    """sudo's /usr/local/bin and /usr/bin, empty."""
    folders = tmp_path / "usr-local-bin", tmp_path / "usr-bin"
    for folder in folders:
        folder.mkdir()
    return folders


def test_an_install_updated_from_before_the_link_is_told_to_make_it(tmp_path):
    lines = service_lines(tmp_path, sudo_folders(tmp_path))
    [(level, text)] = [line for line in lines if line[0] != "ok"]
    assert level == "warning"
    assert "command not found" in text and "step 11" in text
    assert f"sudo ln -sf {sys.executable} /usr/local/bin/dicetable" in text


def test_a_link_to_the_program_is_fine(tmp_path):
    local, _ = sudo_folders(tmp_path)
    (local / "dicetable").symlink_to(sys.executable)
    assert [level for level, _ in service_lines(tmp_path, (local,))] == ["ok"]


def test_another_dicetable_found_first_by_sudo_is_named(tmp_path):
    """A copy left by an older install (`sudo pip install` put one in /usr/local/bin): the
    commands the staff type run that copy, not the table's."""
    local, usr = sudo_folders(tmp_path)
    (usr / "dicetable").symlink_to(sys.executable)
    stale = local / "dicetable"
    stale.write_text("#!/bin/sh\n")
    stale.chmod(0o755)
    [(level, text)] = [line for line in service_lines(tmp_path, (local, usr)) if line[0] != "ok"]
    assert level == "warning" and f"sudo dicetable runs {stale}, not the table's {sys.executable}" in text
