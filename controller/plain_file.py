"""The table's own files read safely: a plain file, or an OSError that says what is there instead.

The table reads its config, its journal and what it told the staff (told.json) as it starts, by
name, with Path.read_bytes() or open(). Where that name was something else than a plain file,
the start hung or never ended: a FIFO (a named pipe, left by a tool or a mistyped `mkfifo`) is
opened to wait for a writer that never comes, and a link to a device (/dev/zero, /dev/urandom)
is read without end, the table's memory filling up. systemd's watchdog then killed it, and it
started again into the same wait: a black screen, and not a line in the log saying which file.

`read_plain` opens without waiting (O_NONBLOCK: a FIFO opens at once), looks at what it opened
(fstat) and reads only a regular file, at most `most` bytes of it. Anything else is `NotAFile`
(an OSError, so the callers' `except OSError` says it as any unreadable file: `strerror` is
"a FIFO (named pipe), not a file"); a file over `most` is `TooBig`.

`open_new` opens the file a whole file is written in before it is renamed over the real one
(`told.json.tmp`, `current.jsonl.tmp`): open("w") on a FIFO left under that name waited for a
reader for ever, the table hung at the first notice told or the first game started. Whatever
lies there (a FIFO, a link, a file a cut left) is removed and the file made anew.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import IO

#: what a name that is not a plain file is, in the staff's words
KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a device"),
         (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


class NotAFile(OSError):
    """The name is a folder, a FIFO, a device or a socket, not a file: not read."""

    def __init__(self, path: str | os.PathLike[str], kind: str) -> None:
        super().__init__(errno.EISDIR if kind == "a folder" else errno.EINVAL, f"{kind}, not a file", str(path))
        self.kind = kind


class TooBig(OSError):
    """A plain file larger than the caller reads (not one the table wrote)."""

    def __init__(self, path: str | os.PathLike[str], most: int) -> None:
        super().__init__(errno.EFBIG, f"over {most} bytes, not a file the table wrote", str(path))


def kind_of(mode: int) -> str | None:
    """What a file of `mode` (st_mode) is in words, None for a plain file."""
    return next((words for test, words in KINDS if test(mode)), None) if not stat.S_ISREG(mode) else None


def read_plain(path: str | os.PathLike[str], most: int | None = None) -> bytes:
    """The bytes of the plain file at `path` (a link followed), at most `most` of them (None: all).

    Raises NotAFile for a folder, FIFO, device or socket (without waiting on it nor reading it),
    TooBig for a file over `most` bytes, and the OSError of a name that cannot be opened
    (FileNotFoundError for none, or a dangling link; PermissionError)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(Path(path), flags)
    try:
        kind = kind_of(os.fstat(fd).st_mode)
        if kind is not None:
            raise NotAFile(path, kind)
        chunks, left = [], (most + 1) if most is not None else None
        while left is None or left > 0:
            chunk = os.read(fd, 1 << 16 if left is None else min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            if left is not None:
                left -= len(chunk)
        data = b"".join(chunks)
    finally:
        os.close(fd)
    if most is not None and len(data) > most:
        raise TooBig(path, most)
    return data


def not_a_folder(path: str | os.PathLike[str]) -> str | None:
    """What lies at `path` where a folder is expected, as the end of "PATH is ...": "a file, not a
    folder", "a FIFO (named pipe), not a folder", "a link to /mnt/usb/games, which is not there"
    (a card or stick not mounted); None for a folder, nothing at all, or a name that cannot be
    looked at."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        try:
            return f"a link to {os.readlink(path)}, which is not there"
        except OSError:
            return None
    except OSError:
        return None
    if stat.S_ISDIR(mode):
        return None
    return f"{'a file' if stat.S_ISREG(mode) else kind_of(mode)}, not a folder"


def open_new(path: str | os.PathLike[str], encoding: str = "utf-8") -> IO[str]:
    """`path` opened for writing as a new, empty plain file (text in `encoding`): what lay under
    its name is removed first (a folder is not: IsADirectoryError, an OSError as any failed write),
    and the file is made exclusively ("x": O_CREAT | O_EXCL), so a link made meanwhile is never
    followed."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    return Path(path).open("x", encoding=encoding)


def not_writable_over(path: str | os.PathLike[str]) -> str | None:
    """What lies at `path` that a program writing the file by name (pygame's PNG, not ours to
    open) would wait on or fail at: a FIFO, a folder, a device, a socket. None for nothing there,
    a plain file, or a name that cannot be looked at (the write then says why)."""
    try:
        return kind_of(os.stat(path).st_mode)
    except OSError:
        return None


#: what fsync says on a filesystem that cannot do it at all (not a failure of the card)
NO_FSYNC = frozenset({errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP})


def synced(fd: int) -> None:
    """fsync `fd`; a filesystem without fsync (EINVAL) is let go, any other error (EIO, ENOSPC)
    is a write that failed and is raised (the file was not saved)."""
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in NO_FSYNC:
            raise


def sync_folder(folder: Path) -> None:
    """fsync a folder after a file was renamed into it or out of it: a file's name is the folder's
    data, and without this a power cut soon after can lose the rename though the file's own data
    were synced (a game started whose journal is not found, or an archived game back on the
    table). A folder that cannot be opened or synced is a failed write, as in Journal._sync."""
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        synced(fd)
    finally:
        os.close(fd)
