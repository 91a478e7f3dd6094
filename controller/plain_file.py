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

`write_whole` is the table's one way of writing a whole file (the game's log, told.json, a
journal rewritten at a resume, the count of starts, the config calibrated): written beside under
another name, flushed to the card, renamed over the old, the folder flushed. A power cut or a
full card leaves the old file or the new one, never half of one, and no half-written file beside
it. Each caller says how it differs (no fsync where losing the file costs nothing; a folder sync
only tried where the file is whole already): before, six copies of these lines each differed a
little, some without meaning to (a fsync refused by the filesystem failed one save and not another).
"""
from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import IO, Any, Callable, Literal

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


def open_new(path: str | os.PathLike[str], encoding: str | None = "utf-8") -> IO[Any]:
    """`path` opened for writing as a new, empty plain file (text in `encoding`; None: bytes):
    what lay under its name is removed first (a folder is not: IsADirectoryError, an OSError as
    any failed write), and the file is made exclusively ("x": O_CREAT | O_EXCL), so a link made
    meanwhile is never followed."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    return Path(path).open("xb") if encoding is None else Path(path).open("x", encoding=encoding)


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


#: how the folder is flushed after the rename: "sync" (an error is a failed write), "try" (an error
#: is let go: the new file is whole already), "no" (not flushed: a file losing which costs nothing)
FolderSync = Literal["sync", "try", "no"]


def flush_and_sync(fh: IO[Any]) -> None:
    """What `write_whole` does before the rename by default: flush, then fsync (`synced`)."""
    fh.flush()
    synced(fh.fileno())


def write_whole(path: str | os.PathLike[str], data: str | bytes, *, tmp: str | os.PathLike[str] | None = None,
                unique: bool = False, sync: bool | Callable[[IO[Any]], None] = True,
                folder: FolderSync = "sync", like: os.stat_result | None = None) -> None:
    """Replace the file at `path` by `data` (str: UTF-8 text; bytes as they are), whole or not at all.

    `data` is written to `tmp` (default: `path` + ".tmp", beside it) opened with `open_new` (a
    FIFO or a link left under that name is removed, never waited on nor followed), then `sync`
    (True: flushed and fsynced, a filesystem without fsync let go; False: flushed only; a callable:
    the caller's own, given the open file), the mode and owner of `like` given to it, renamed over
    `path`, and the folder flushed as `folder` says. `unique`: `tmp` is a new name of
    tempfile.mkstemp's (".NAME-xxxx.SUFFIX" beside `path`, made O_EXCL, mode 0600 until `like`'s)
    instead, for a file that two commands may write at once (two `dicetable calibrate` run side
    by side must not rename each other's half-written file over the config).

    On any failure (an OSError such as ENOSPC, or Ctrl-C) the file written beside is removed and
    the exception raised: `path` is as it was."""
    path = Path(path)
    text = isinstance(data, str)
    if unique:
        fd, made = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=path.suffix, dir=path.parent)
        part = Path(made)
    else:
        part = Path(tmp) if tmp is not None else path.with_name(path.name + ".tmp")
    try:
        if unique:
            fh: IO[Any] = os.fdopen(fd, "w" if text else "wb", **({"encoding": "utf-8"} if text else {}))
        else:
            fh = open_new(part, "utf-8" if text else None)
        with fh:
            fh.write(data)
            if callable(sync):
                sync(fh)
            elif sync:
                flush_and_sync(fh)
            else:
                fh.flush()
        if like is not None:
            os.chmod(part, like.st_mode & 0o7777)
            if (like.st_uid, like.st_gid) != (os.geteuid(), os.getegid()):
                os.chown(part, like.st_uid, like.st_gid)
        os.replace(part, path)
    except BaseException:
        try:
            part.unlink(missing_ok=True)
        except OSError:
            pass
        raise
    if folder == "sync":
        sync_folder(path.parent)
    elif folder == "try":
        try:
            sync_folder(path.parent)
        except OSError:
            pass

