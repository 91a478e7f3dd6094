"""One table to a journal folder: the running table holds a lock on it.

Staff check a table by hand (`sudo dicetable run ...` in a shell, as after an update) while the
service runs: both tables resumed the same journal and appended to it, and the one left on its
own in the shell put the game away after idle_minutes (it saw no press), moving the journal
under the real table's feet: its next moves went to a journal without a header, kept aside as
unreadable at the next start. The lock (flock, released by the kernel when its process ends,
whatever the way: no stale lock after a power cut) keeps the second out, saying who holds it.
"""
from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path
from typing import IO

log = logging.getLogger(__name__)

LOCK = "table.lock"


class TableBusy(RuntimeError):
    """Another table runs on this journal folder."""


def hold_table_lock(folder: Path) -> IO[str] | None:
    """Lock `folder` for this table (the file returned holds it: keep it open). TableBusy if
    another process holds it; None, with a warning, where no lock can be taken (a folder that
    cannot be written: the table then says its games cannot be saved, and must still start)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fh = open(folder / LOCK, "a+", encoding="utf-8")
    except OSError as exc:
        log.warning("cannot lock the journal folder %s: %s", folder, exc.strerror or exc)
        return None
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        fh.seek(0)
        holder = fh.read().strip() or "?"
        fh.close()
        raise TableBusy(f"another table is running on {folder} (process {holder}): stop it first "
                        "(sudo systemctl stop dicetable), or give this one another journal_dir") from None
    except OSError as exc:            # (a filesystem without locks)
        log.warning("cannot lock the journal folder %s: %s", folder, exc.strerror or exc)
        return fh
    try:
        fh.seek(0)
        fh.truncate()
        fh.write(f"{os.getpid()}\n")
        fh.flush()
    except OSError:                   # (who holds it is only said to the next one)
        pass
    return fh
