"""plain_file.write_whole, the table's one whole-file write (the game's log, told.json, a journal
rewritten at a resume, the count of starts, the calibrated config): what a café's card does to
it. A FIFO left under the name written beside, a card that fills up mid-write, Ctrl-C: the old
file is left as it was and nothing half-written is left beside it."""
from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import controller.plain_file as plain_file
from controller.plain_file import write_whole
from hang_guard import outcome_of

OLD = "the café's old file\n"


@pytest.fixture
def old(tmp_path: Path) -> Path:
    path = tmp_path / "told.json"
    path.write_text(OLD, encoding="utf-8")
    return path


def _beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if p != path)


class _FullCard:
    """A file on a card that fills up after `room` characters: write() raises ENOSPC."""

    def __init__(self, real, room: int) -> None:
        self.real, self.room, self.written = real, room, 0

    def write(self, data) -> int:
        if self.written + len(data) > self.room:
            self.real.write(data[:self.room - self.written])
            raise OSError(errno.ENOSPC, "No space left on device")
        self.written += len(data)
        return self.real.write(data)

    def __getattr__(self, name):
        return getattr(self.real, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.real.close()


def test_the_new_text_replaces_the_old_and_nothing_is_left_beside(old):
    write_whole(old, "new ☺\n")
    assert old.read_text(encoding="utf-8") == "new ☺\n" and _beside(old) == []
    write_whole(old, b"\x89PNG bytes")
    assert old.read_bytes() == b"\x89PNG bytes" and _beside(old) == []


def test_a_fifo_at_the_name_written_beside_is_not_waited_on(old):
    """open(tmp, "w") on a FIFO waits for a reader for ever: the table hung at its first notice."""
    os.mkfifo(old.with_name(old.name + ".tmp"))
    raised = outcome_of(lambda: write_whole(old, "new\n"),
                        lambda: os.close(os.open(old.with_name(old.name + ".tmp"), os.O_RDONLY | os.O_NONBLOCK)),
                        "write_whole waited on the FIFO")
    assert raised is None and old.read_text(encoding="utf-8") == "new\n" and _beside(old) == []


def test_a_link_at_the_name_written_beside_is_not_followed(old, tmp_path):
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("not the table's\n", encoding="utf-8")
    old.with_name(old.name + ".tmp").symlink_to(elsewhere)
    write_whole(old, "new\n")
    assert elsewhere.read_text(encoding="utf-8") == "not the table's\n"
    assert old.read_text(encoding="utf-8") == "new\n" and not old.is_symlink()


@pytest.mark.parametrize("unique", [False, True], ids=["beside", "unique name"])
def test_a_card_full_mid_write_leaves_the_old_file_and_nothing_beside(old, monkeypatch, unique):
    real_open_new, real_fdopen = plain_file.open_new, os.fdopen
    monkeypatch.setattr(plain_file, "open_new", lambda *a, **k: _FullCard(real_open_new(*a, **k), room=5))
    monkeypatch.setattr(plain_file.os, "fdopen", lambda *a, **k: _FullCard(real_fdopen(*a, **k), room=5))
    with pytest.raises(OSError) as raised:
        write_whole(old, "a much longer new text\n", unique=unique)
    assert raised.value.errno == errno.ENOSPC
    monkeypatch.undo()
    assert old.read_text(encoding="utf-8") == OLD and _beside(old) == []


def test_a_card_failing_at_fsync_is_a_failed_write(old, monkeypatch):
    def failing(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(OSError):
        write_whole(old, "new\n")
    monkeypatch.undo()
    assert old.read_text(encoding="utf-8") == OLD and _beside(old) == []


def test_a_filesystem_without_fsync_still_gets_the_file(old, monkeypatch):
    def unsupported(fd: int) -> None:
        raise OSError(errno.EINVAL, "Invalid argument")

    monkeypatch.setattr(os, "fsync", unsupported)
    write_whole(old, "new\n")
    assert old.read_text(encoding="utf-8") == "new\n"


def test_ctrl_c_while_writing_leaves_the_old_file_and_nothing_beside(old, monkeypatch):
    def interrupted(fh) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_whole(old, "new\n", sync=interrupted)
    assert old.read_text(encoding="utf-8") == OLD and _beside(old) == []


def test_the_file_reaches_the_card_before_its_rename_and_the_folder_after(old, monkeypatch):
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append("fsync folder" if os.path.isdir(f"/proc/self/fd/{fd}") else "fsync file")
        real_fsync(fd)

    def replace(src, dst) -> None:
        events.append("replace")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_whole(old, "new\n")
    assert events == ["fsync file", "replace", "fsync folder"]
    events.clear()
    write_whole(old, "newer\n", sync=False, folder="no")       # (a file losing which costs nothing)
    assert events == ["replace"]


def test_a_folder_that_cannot_be_synced_fails_or_is_let_go_as_asked(old, monkeypatch):
    def no_folder(folder) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(plain_file, "sync_folder", no_folder)
    with pytest.raises(OSError):
        write_whole(old, "new\n")
    write_whole(old, "newer\n", folder="try")
    assert old.read_text(encoding="utf-8") == "newer\n"


def test_a_unique_name_takes_the_old_files_mode(old):
    old.chmod(0o640)
    write_whole(old, "new\n", unique=True, like=old.stat())
    assert old.stat().st_mode & 0o777 == 0o640 and _beside(old) == []


def test_told_json_is_kept_on_a_filesystem_without_fsync(tmp_path, monkeypatch, caplog):
    """told.json's own copy of these lines called os.fsync itself, where the journal and the
    game's log let a filesystem without fsync (EINVAL) go: there, what the staff were told was
    never kept ("cannot keep what the staff were told ... Invalid argument") and each camera
    notice was told again at every start, while the game's journal beside it was saved."""
    from controller.knock_notice import KnockWatch
    from controller.size_notice import SizeWatch
    from controller.told_kept import KEPT, ToldKept

    def unsupported(fd: int) -> None:
        raise OSError(errno.EINVAL, "Invalid argument")

    monkeypatch.setattr(os, "fsync", unsupported)
    kept = ToldKept(tmp_path, {"tray": [0, 0, 640, 480], "die_px": 50.0}, KnockWatch(), SizeWatch())
    kept.save()
    assert (tmp_path / KEPT).is_file() and "cannot keep" not in caplog.text
    assert _beside(tmp_path / KEPT) == []
