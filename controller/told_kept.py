"""The staff notices told once, kept across restarts (`told.json` beside the journal).

The table tells a knocked camera and dice or frames of another size than calibrated once
(controller/knock_notice.py, size_notice.py), but its watchers lived in memory: after every
restart (a power cut, the service restarted after a crash, the table switched off at night with
the camera left knocked) the same knock was told again, a new warning in the log and the staff's
banner over the players' game, although nothing had changed. A knocked camera and a table
started four times: 4 warnings and 60 banner frames; now 1 and 15.

What was told is written here each time it changes (told, told again, gone), with the
calibration it was told against: a new calibration (`dicetable calibrate`) starts afresh, since
a knock told against the old one is not the new one's. The file is written as the journal's other
files are (a new file fsynced, renamed over the old one, the folder fsynced): a power cut leaves
the old state or the new one. A file that cannot be read (cut, garbage, another version's) costs
at worst a notice told once more: the table starts, says in the log that it ignored it, and
writes a good one. A folder that cannot be written costs the same, never the game.
"""
from __future__ import annotations

import hashlib
import json
import logging
import math
from pathlib import Path
from typing import Any, Mapping, NamedTuple

from .knock_notice import Knock, KnockWatch
from .plain_file import NotAFile, TooBig, read_plain, write_whole
from .knock_notice import short_words as knock_words
from .size_notice import DiceSize, SizeWatch
from .size_notice import short_words as size_words
from .told_once import BACK_AFTER

log = logging.getLogger("dicetable")

#: the file, in the table's journal folder (the service's own, written as the journal is)
KEPT = "told.json"
FORMAT = 1
#: a file larger than this is not the table's (a few hundred bytes): not read into memory
MOST_BYTES = 64 * 1024

def calibration_id(calibration: Mapping[str, Any] | None) -> str:
    """A short name for a calibration (its values hashed): two calibrations taken with the table's
    camera differ in their measured background at least, so a new one has another name."""
    if not calibration:
        return "none"
    text = json.dumps(calibration, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]

class BadFile(ValueError):
    """The kept file is not one this table wrote whole."""

def _number(data: Mapping[str, Any], key: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise BadFile(f"{key} is not a number")
    return float(value)

def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise BadFile(f"{key} is not text")
    return value

def _object(data: Mapping[str, Any], key: str) -> Mapping[str, Any] | None:
    value = data.get(key)
    if value is not None and not isinstance(value, dict):
        raise BadFile(f"{key} is not an object")
    return value

class Kept(NamedTuple):
    """What a kept file holds: the calibration it was told against, and for each condition what
    was told (None: nothing, or it is gone), the reader's words, and the settled readings since
    that showed it gone (`*_clear`, under BACK_AFTER: the count goes on across a restart)."""

    calibration: str
    knock: Knock | None
    knock_said: str
    dice: DiceSize | None
    dice_said: str
    frames: str | None
    knock_clear: int = 0
    dice_clear: int = 0
    frames_clear: int = 0

def _count(data: Mapping[str, Any], key: str) -> int:
    """A count of readings showing a condition gone; absent (files kept before the counts were):
    0, as before them."""
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < BACK_AFTER:
        raise BadFile(f"{key} is not a count of readings under {BACK_AFTER}")
    return value

def parse(text: str) -> Kept:
    """What a kept file's text holds. Raises BadFile for anything this table would not have
    written."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BadFile(f"not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise BadFile("not a JSON object")
    if data.get("format") != FORMAT:
        raise BadFile(f"format {data.get('format')!r}, this table writes {FORMAT}")
    calibration = _text(data, "calibration")
    knock, knock_said, knock_clear = None, "", 0
    kn = _object(data, "knock")
    if kn is not None:
        knock = Knock(_number(kn, "dx"), _number(kn, "dy"), _number(kn, "turn"), _text(kn, "side"),
                      _number(kn, "scale") if "scale" in kn else 1.0)     # (files kept before heights were told)
        knock_said, knock_clear = _text(kn, "words"), _count(kn, "gone")
    dice, dice_said, dice_clear = None, "", 0
    di = _object(data, "dice")
    if di is not None:
        way = _text(di, "way")
        if way not in ("bigger", "smaller"):
            raise BadFile(f"dice way {way!r}")
        dice, dice_said, dice_clear = DiceSize(way, _number(di, "times")), _text(di, "words"), _count(di, "gone")
    frames = data.get("frames")
    if frames is not None and not isinstance(frames, str):
        raise BadFile("frames is not text")
    frames_clear = _count(data, "frames_gone") if frames is not None else 0
    return Kept(calibration, knock, knock_said, dice, dice_said, frames, knock_clear, dice_clear, frames_clear)

def read_kept(path: Path) -> Kept | None:
    """What the kept file at `path` holds (as `parse`); None when there is none. Raises BadFile
    for a file this table would not have written, OSError for one that cannot be read (NotAFile:
    a FIFO, a folder, a device, which are not opened to wait on, nor read without end)."""
    try:
        raw = read_plain(path, MOST_BYTES)
    except FileNotFoundError:
        return None
    except TooBig:
        raise BadFile(f"over {MOST_BYTES} bytes") from None
    if not raw.strip():
        raise BadFile("empty")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadFile("not UTF-8 text") from None
    return parse(text)

class ToldKept:
    """The app's knock and size watchers, taken up from `folder`/told.json as the table starts
    and written back each time what they told changes (`save`)."""

    def __init__(self, folder: Path, calibration: Mapping[str, Any] | None,
                 knocks: KnockWatch, sizes: SizeWatch, fsync: bool = True) -> None:
        self.path = Path(folder) / KEPT
        self.calibration = calibration_id(calibration)
        self.knocks, self.sizes, self.fsync = knocks, sizes, fsync
        self._written = ""                 # the text last written (or read): nothing new, no write
        self._cannot = False               # a failed write said once, not at every notice

    def take_up(self) -> None:
        """Read what was told before this start into the watchers. No file: nothing was told. A
        bad file or one told against another calibration: nothing is taken up, the log says
        why, and a good file replaces it (the next start is quiet)."""
        try:
            found = read_kept(self.path)
        except NotAFile as exc:
            # (a FIFO hung the start, a link to a device read without end: now neither is opened
            # to wait on nor read, and the table's own file is written in its place)
            log.warning("camera: ignored %s: it is %s: the table writes its own file there (a folder "
                        "there must be removed: sudo rm -r %s); a camera notice still true is told again",
                        self.path, exc.strerror, self.path)
            self.save()
            return
        except OSError as exc:
            log.warning("camera: ignored %s (%s): a camera notice still true is told again", self.path,
                        exc.strerror or exc)
            return
        except BadFile as exc:
            log.warning("camera: ignored a bad file %s (%s: cut by a power cut, or not the table's): what the "
                        "staff were told is told again if it still holds", self.path, exc)
            self.save()
            return
        if found is None:
            # (no file is nothing told: not written until something is, now that `save` is
            # called at every settled reading)
            self._written = self.text()
            return
        if found.calibration != self.calibration:
            log.info("camera: the notices told before were told against another calibration: a new "
                     "calibration starts afresh")
            self.save()
            return
        self.knocks.restore(found.knock, found.knock_said, found.knock_clear)
        self.sizes.restore(found.dice, found.dice_said, found.frames, found.dice_clear, found.frames_clear)
        self._written = self.text()
        knock, knock_said, dice, dice_said, frames = found.knock, found.knock_said, found.dice, found.dice_said, \
            found.frames
        held = [knock_words(knock_said)] if knock is not None else []
        held += [size_words(w) for w in (dice_said if dice is not None else None, frames) if w]
        if held:
            # (not the reader's words: `dicetable check` would count this line as told again)
            log.info("camera: told before this start, not told again unless it changes: %s", "; ".join(held))

    def text(self) -> str:
        """The file's text for what the watchers hold now."""
        knock = self.knocks.told
        dice = self.sizes.dice.told
        data = {"format": FORMAT, "calibration": self.calibration,
                "knock": None if knock is None else {"dx": knock.dx, "dy": knock.dy, "turn": knock.turn,
                                                     "side": knock.side, "scale": knock.scale,
                                                     "words": self.knocks.words, "gone": self.knocks.clear},
                "dice": None if dice is None else {"way": dice.way, "times": dice.times,
                                                   "words": self.sizes.dice_words, "gone": self.sizes.dice.clear},
                "frames": self.sizes.frames.told}
        if self.sizes.frames.told is not None:
            data["frames_gone"] = self.sizes.frames.clear
        return json.dumps(data, ensure_ascii=False) + "\n"

    def save(self) -> None:
        """Write what the watchers hold, whole (called after each settled reading: written only
        when a notice was told, said gone, or a reading counted toward its being gone). A folder
        that cannot be written is said once in the log: the table and the game go on."""
        text = self.text()
        if text == self._written:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # (told.json.tmp beside; not synced in tests that write it thousands of times)
            write_whole(self.path, text, sync=self.fsync, folder="sync" if self.fsync else "no")
        except (OSError, ValueError) as exc:     # (ValueError: a path the system refuses, a NUL in it)
            if not self._cannot:
                log.warning("camera: cannot keep what the staff were told in %s (%s): after a restart a "
                            "camera notice still true is told again", self.path, exc.strerror or exc)
            self._cannot = True
            return
        self._written, self._cannot = text, False
