"""`dicetable check` on a card with no space left: an empty file can still be made there, so the
check's write test passed and it said "games are saved" and "ready", while the table's first move
said *This game can no longer be saved*. A card all but full was not mentioned at all."""
from __future__ import annotations

import os

import pytest

from controller import check
from controller.check import FAIL, OK, WARN, check_journal
from controller.table_user import TableUser


def _card(monkeypatch, free_bytes: int, read_only: bool = False) -> None:
    """The games' card as statvfs sees it: `free_bytes` free for a user other than root."""
    real = os.statvfs

    def statvfs(path):
        st = real(path)
        blocks = free_bytes // st.f_frsize
        flag = st.f_flag | os.ST_RDONLY if read_only else st.f_flag & ~os.ST_RDONLY
        return os.statvfs_result((st.f_bsize, st.f_frsize, st.f_blocks, blocks, blocks, st.f_files,
                                  st.f_ffree, st.f_favail, flag, st.f_namemax))

    monkeypatch.setattr(check.os, "statvfs", statvfs)


@pytest.mark.parametrize("free, said", [(0, "(0 bytes free)"), (12_288, "(12 KB free)")])
def test_a_full_card_is_a_problem_said_with_what_to_do(tmp_path, monkeypatch, free, said):
    _card(monkeypatch, free)
    [found] = check_journal(tmp_path)             # (the same user as the table's: the folder tried)
    assert found.level == FAIL
    assert f"the card holding {tmp_path} is full {said}" in found.text
    assert "journalctl --vacuum-size" in found.text and "keep_games" in found.text


def test_a_nearly_full_card_is_a_warning(tmp_path, monkeypatch):
    _card(monkeypatch, 40_000_000)
    [found] = check_journal(tmp_path)
    assert found.level == WARN and "nearly full (40.0 MB free)" in found.text
    assert f"games are saved in {tmp_path}" in found.text


def test_a_card_with_room_is_fine(tmp_path, monkeypatch):
    _card(monkeypatch, 2_000_000_000)
    [found] = check_journal(tmp_path)
    assert found.level == OK and found.text == f"games are saved in {tmp_path}"


def test_the_table_users_card_nearly_full_is_said_too(tmp_path, monkeypatch):
    """Asked for the service's own user (sudo dicetable check): before, only a card with not one
    block left was said; one with 12 KB was "ok"."""
    monkeypatch.setattr(check, "sandbox_problem", lambda folder: None)
    monkeypatch.setattr(check, "denied", lambda path, user, bits: None)
    user = TableUser("dicetable", os.geteuid() + 4242, frozenset({4343}))
    _card(monkeypatch, 12_288)
    [found] = check_journal(tmp_path, user)
    assert found.level == FAIL and "is full (12 KB free)" in found.text
    _card(monkeypatch, 40_000_000)
    [found] = check_journal(tmp_path, user)
    assert found.level == WARN and "nearly full" in found.text


def _refused(monkeypatch, exc: OSError) -> None:
    """The check's trial file refused with `exc`."""
    def refuse(*args, **kwargs):
        raise exc

    monkeypatch.setattr(check.tempfile, "NamedTemporaryFile", refuse)


def test_a_read_only_card_is_said_as_such(tmp_path, monkeypatch):
    """Before: "cannot write in ... (Read-only file system) ... Check the card (full? read-only?)
    and the folder's owner": three causes for the staff to tell apart."""
    import errno

    _card(monkeypatch, 2_000_000_000, read_only=True)
    _refused(monkeypatch, OSError(errno.EROFS, "Read-only file system"))
    [found] = check_journal(tmp_path)
    assert found.level == FAIL and found.text.startswith(f"the card holding {tmp_path} is read-only")
    assert "folder's owner" not in found.text


def test_a_folder_of_another_user_names_its_owner_and_the_command(tmp_path, monkeypatch):
    import errno

    _card(monkeypatch, 2_000_000_000)
    _refused(monkeypatch, PermissionError(errno.EACCES, "Permission denied"))
    [found] = check_journal(tmp_path)
    assert found.level == FAIL and f"this user cannot write in {tmp_path} (owner " in found.text
    assert f"sudo chown -R $(id -un) {tmp_path}" in found.text and "full?" not in found.text
