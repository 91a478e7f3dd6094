"""The archive of journals put away (`<journal_dir>/games/`): finished games, games put away by
*Still playing?*, and journals kept aside as damaged or unreadable (controller/table_app.py).

Out of `TableApp` (fix-appsplit): naming a journal in the archive, moving or copying it there so a
power cut cannot bring an ended game back, pruning the oldest past `keep_games`, and listing the
archive once per game's end for the menu's games put away. The app only says when.
"""
from __future__ import annotations

import logging
import os
import re
import shutil
from datetime import datetime
from pathlib import Path
from typing import Callable

from .plain_file import not_a_folder
from .wallclock import WallClock

# (the staff's log filters and `dicetable check` read these lines as the app's: its name is kept)
log = logging.getLogger("controller.table_app")

#: the archive's folder, inside the journal folder
GAMES = "games"

#: an archived journal's name: the number of its place in the archive, then the date the table's
#: clock said when it was archived, then what it is (`000042-20261126-214500-thirteen.jsonl`)
NUMBERED = re.compile(r"(\d+)-\d{8}-\d{6}-")


def archive_order(name: str) -> tuple[int, int, str]:
    """Where an archived journal's name sorts, oldest first: by its number, not by its date.

    The date is the table's clock, and a Raspberry Pi has no clock battery: after a power cut it
    says 1970 or up to an hour before the cut until the network sets it. Sorted by date, a game
    archived then went first in line to be pruned (removed at once when the archive was full)
    and was listed as years older than the games played before it. Names without a number
    (archived before the numbers came) are older than any numbered one, by their date."""
    numbered = NUMBERED.match(name)
    return (1, int(numbered.group(1)), name) if numbered else (0, 0, name)


def archived_journals(folder: Path) -> list[str]:
    """The names of the archived journals (files only), oldest first (`archive_order`).

    Read with scandir, whose entries know a file from a folder, and kept as names: Path.glob and
    is_file read each file's inode and made a Path of each, 5,000 of them at the end of every
    game (0.1-0.2 s of a frozen screen on a 2-core PC; more on a Pi's SD card, most after a boot,
    when none of them is cached)."""
    with os.scandir(folder) as entries:
        return sorted((e.name for e in entries if e.name.endswith(".jsonl") and e.is_file()), key=archive_order)


def next_number(folder: Path) -> int:
    """The number of the next journal archived in `folder`: one more than the highest there, of
    files and folders alike (1 for the first; the folder's names only, no file is read)."""
    try:
        with os.scandir(folder) as entries:
            numbers = [int(found.group(1)) for e in entries if (found := NUMBERED.match(e.name))]
    except OSError:           # (no archive yet: made as the first journal goes in)
        return 1
    return max(numbers, default=0) + 1


def free_name(folder: Path, stem: str) -> Path:
    """folder/stem.jsonl, or stem-2.jsonl, ... if that is taken: two journals kept aside in the
    same second (a damaged one kept, the power cut, kept again) must not be one."""
    target, n = folder / f"{stem}.jsonl", 1
    while target.exists():
        n += 1
        target = folder / f"{stem}-{n}.jsonl"
    return target


def copy_file(path: Path, target: Path) -> None:
    """`target` made a copy of `path`, on the card: a hard link where the filesystem has them (the
    file is written over by a rename, which leaves the link's data as they were), else a copy."""
    try:
        os.link(path, target)
        return
    except FileExistsError:
        raise
    except OSError:         # (no hard links here: a FAT card)
        pass
    shutil.copyfile(path, target)
    with target.open("rb+") as fh:
        os.fsync(fh.fileno())


class GameArchive:
    """The journal folder's `games/`: where journals go, and which are there.

    `sync` makes a folder's names durable (controller.journal.sync_folder); it is given, not
    imported, so that the app stays the one place a power cut is simulated at (tests patch
    `controller.table_app.sync_folder`)."""

    def __init__(self, journal_dir: Path, wall: WallClock, keep_games: int, sync: Callable[[Path], None]):
        self.folder = journal_dir / GAMES
        self.wall = wall
        self.keep_games = keep_games
        self.sync = sync
        self.error = ""                # why the last journal could not be archived
        # the archive's names as the last pruning listed them (see _prune), for the menu's games
        # put away: taken once, by the next names()
        self._listing: tuple[Path, list[str]] | None = None

    def put(self, path: Path, label: str, copy: bool = False) -> Path | None:
        """Move a journal to games/<number>-<date>-<label>.jsonl (`copy`: keep it there too, for a
        journal to be written over it); where it went (None: it could not). The number orders the
        archive (`archive_order`); the date is only what the table's clock said."""
        folder = self.folder
        stamp = datetime.fromtimestamp(self.wall.now()).strftime("%Y%m%d-%H%M%S")
        target = free_name(folder, f"{next_number(folder):06d}-{stamp}-{label}")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            (copy_file if copy else os.replace)(path, target)
        except OSError as exc:   # the table goes on; the journal stays where it is
            lies = not_a_folder(folder)       # (games a file: "File exists" said nothing to act on)
            self.error = f"{folder} is {lies}" if lies else exc.strerror or str(exc)
            log.error("cannot archive the journal %s: %s%s", path, self.error,
                      ": move it away (the table makes the folder)" if lies else "")
            return None
        try:   # the name in games/, then its absence here: a power cut must not bring an ended game back
            self.sync(target.parent)
            if not copy:
                self.sync(path.parent)
        except OSError as exc:   # (archived all the same: the table goes on as if it were on the card)
            log.warning("the journal %s was archived, but its folder could not be synced: %s", target, exc)
        log.info("journal archived as %s", target)
        self._prune(target.parent)
        return target

    def _prune(self, folder: Path) -> None:
        """Keep the newest `keep_games` archived journals: a table that runs for years must not
        fill its card (a game's journal is 5-30 KB; 5,000 of them a few weeks to months of play)."""
        keep = self.keep_games
        if keep <= 0:
            return
        # only files count: a journal that was a folder is kept aside as one, and stays for the
        # staff to look at; one that cannot be removed must not keep the others forever
        try:
            archived = archived_journals(folder)
        except OSError as exc:
            log.error("cannot remove old journals in %s: %s", folder, exc)
            return
        removed = archived[:max(0, len(archived) - keep)]
        for name in removed:
            old = folder / name
            try:
                old.unlink()
            except OSError as exc:
                log.error("cannot remove old journal %s: %s", old, exc)
        # (the menu's games put away are found in this listing: listed again, 5,000 names cost a
        # game's end 12 ms more; those that could not be removed are left in it: they are there)
        self._listing = (folder, archived[len(removed):])

    def names(self) -> list[str]:
        """The names of the archived journals, oldest first: as the pruning just listed them if it
        did, else listed now (none when the archive cannot be listed: they stay for the staff)."""
        folder = self.folder
        listing, self._listing = self._listing, None
        if listing is not None and listing[0] == folder:
            return listing[1]
        try:
            return archived_journals(folder) if folder.is_dir() else []
        except OSError as exc:
            log.error("cannot list the archived games in %s: %s", folder, exc)
            return []

    def forget_listing(self) -> None:
        """A journal moves out of the archive (a game taken up): the next names() lists it again."""
        self._listing = None
