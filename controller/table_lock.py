"""One table to a journal folder: the running table holds a lock on it.

Staff check a table by hand (`sudo dicetable run ...` in a shell, as after an update) while the
service runs: both tables resumed the same journal and appended to it, and the one left on its
own in the shell put the game away after idle_minutes (it saw no press), moving the journal
under the real table's feet: its next moves went to a journal without a header, kept aside as
unreadable at the next start. The lock (flock, released by the kernel when its process ends,
whatever the way: no stale lock after a power cut) keeps the second out, saying who holds it.

The lock is on the folder itself, opened read-only, not on a file in it: a lock file written in
the folder took the last free block of a full card (the journal then had none, and the game
could not be saved), and a file open for writing kept a failing card from being remounted
read-only. The holder's process is found in /proc/locks, by the folder's inode.
"""
from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path

from .plain_file import not_a_folder

log = logging.getLogger(__name__)

PROC_LOCKS = Path("/proc/locks")


class TableBusy(RuntimeError):
    """Another table runs on this journal folder."""


class FolderLock:
    """The folder's lock, held while this object is open (close() lets it go)."""

    def __init__(self, fd: int):
        self.fd = fd

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def hold_table_lock(folder: Path) -> FolderLock | None:
    """Lock `folder` for this table (keep what is returned open). TableBusy if another process
    holds it; None, with a warning, where no lock can be taken (a folder that cannot be made or
    a filesystem without locks: the table must still start)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        lies = not_a_folder(folder)         # (a file there: "File exists" said nothing to act on)
        log.warning("cannot lock the journal folder %s: %s", folder,
                    f"it is {lies}" if lies else exc.strerror or exc)
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = lock_holder(os.fstat(fd).st_ino) or "?"
        os.close(fd)
        raise TableBusy(f"another table is running on {folder} (process {holder}): stop it first "
                        "(sudo systemctl stop dicetable), or give this one another journal_dir") from None
    except OSError as exc:
        log.warning("cannot lock the journal folder %s: %s", folder, exc.strerror or exc)
        os.close(fd)
        return None
    return FolderLock(fd)


def lock_holder(inode: int, locks: Path = PROC_LOCKS) -> str | None:
    """The process holding a flock on the file of `inode`, from the kernel's list of locks
    ("1: FLOCK  ADVISORY  WRITE 1234 08:02:131 0 EOF"); None where it cannot be told."""
    try:
        lines = locks.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5].rsplit(":", 1)[-1] == str(inode):
            return fields[4]
    return None
