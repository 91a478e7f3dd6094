"""`dicetable check` run as the table's own user (the service's account, or a Pi whose table runs
from the login that asks) looks inside the games folder too: a games/ a `sudo dicetable run` left
root's (every finished game then 'could not be put away', back at each start), a current.jsonl
left root's and unreadable (the game on the table kept aside at the next start). Before, it wrote
a file in the folder, and said *games are saved* and *ready*.

Without root (and as root, who may do anything), the kernel's answer is stood in for by
os.access, which is what the check asks."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from controller import check
from controller.check import FAIL, OK, check_journal, run_checks
from controller.table_user import TableUser


@pytest.fixture(autouse=True)
def _no_table_user(monkeypatch):
    monkeypatch.setattr(check, "table_user", lambda: None, raising=False)


def refuse(monkeypatch, *paths: Path, mode: int | None = None) -> None:
    """os.access says no for `paths` (for `mode` alone, or any)."""
    real = os.access
    refused = {str(p) for p in paths}

    def access(path, wanted, *a, **kw):
        if str(path) in refused and (mode is None or wanted & mode):
            return False
        return real(path, wanted, *a, **kw)

    monkeypatch.setattr(os, "access", access)


def folder_after_a_sudo_run(tmp_path: Path) -> Path:
    folder = tmp_path / "state"
    (folder / "games").mkdir(parents=True)
    (folder / "games" / "000001-20261127-040000-finished.jsonl").write_text("{}\n", encoding="utf-8")
    (folder / "current.jsonl").write_text("{}\n", encoding="utf-8")
    return folder


def test_a_games_folder_left_by_sudo_is_a_problem_with_the_chown(tmp_path, monkeypatch) -> None:
    folder = folder_after_a_sudo_run(tmp_path)
    refuse(monkeypatch, folder / "games", mode=os.W_OK)
    [found] = check_journal(folder)
    assert found.level == FAIL, found.line()
    assert f"this user cannot write {folder / 'games'} (owner " in found.text
    assert "finished games cannot be put away" in found.text
    assert f"sudo chown -R $(id -un): {folder}" in found.text


def test_the_same_for_the_tables_own_user_asking(tmp_path, monkeypatch) -> None:
    folder = folder_after_a_sudo_run(tmp_path)
    refuse(monkeypatch, folder / "games", mode=os.W_OK)
    me = TableUser("dicetable", os.geteuid(), frozenset({os.getegid()}))
    [found] = check_journal(folder, me)
    assert found.level == FAIL and "cannot write" in found.text and "games" in found.text, found.line()


def test_a_current_game_the_table_cannot_read_is_a_problem(tmp_path, monkeypatch) -> None:
    folder = folder_after_a_sudo_run(tmp_path)
    refuse(monkeypatch, folder / "current.jsonl", mode=os.R_OK)
    [found] = check_journal(folder)
    assert found.level == FAIL, found.line()
    assert f"this user cannot read {folder / 'current.jsonl'}" in found.text
    assert "cannot be taken up at the next start" in found.text


def test_a_current_game_another_user_cannot_read_is_named_for_the_tables_user(monkeypatch) -> None:
    """Asked by someone else (sudo, a staff login): from the owners and modes, as games/ was."""
    top = Path(tempfile.mkdtemp(prefix="dicetable-check-"))     # (pytest's tmp_path: its owner's alone)
    try:
        os.chmod(top, 0o755)
        folder = folder_after_a_sudo_run(top)
        monkeypatch.setattr(check, "sandbox_problem", lambda folder: None)
        os.chmod(folder, 0o777)
        os.chmod(folder / "games", 0o777)
        os.chmod(folder / "current.jsonl", 0o600)      # (the file's owner alone: not the table's user 4242)
        [found] = check_journal(folder, TableUser("dicetable", 4242, frozenset({4343})))
    finally:
        shutil.rmtree(top)
    assert found.level == FAIL and f"cannot read {folder / 'current.jsonl'}" in found.text, found.line()


def test_a_folder_all_the_tables_is_ready(tmp_path, monkeypatch) -> None:
    folder = folder_after_a_sudo_run(tmp_path)
    [found] = check_journal(folder)
    assert found.level == OK and f"games are saved in {folder}" in found.text, found.line()


def test_check_as_a_whole_is_not_ready(tmp_path, monkeypatch, capsys) -> None:
    folder = folder_after_a_sudo_run(tmp_path)
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[table]\njournal_dir = "{folder}"\n[camera]\ntype = "folder"\npath = "{tmp_path}"\n'
                   '[buttons]\ntype = "keyboard"\n', encoding="utf-8")
    refuse(monkeypatch, folder / "games", mode=os.W_OK)
    found = [f for f in run_checks(cfg, camera=False) if f.part == "journal"]
    assert [f.level for f in found] == [FAIL], [f.line() for f in found]
