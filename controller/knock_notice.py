"""A camera knocked since calibration, told once (controller/table.py).

The reader reports `camera_moved` on every reading of a knocked camera ("the tray is not where it
was calibrated (moved 10 px right): run dicetable calibrate again"), and the table goes on reading
the tray where it now is. The table said it, on the banner and as a warning in the log, at every
settled reading: a game of Thirteen with the camera knocked 10 px logged it 38 times in 39 throws
(and a sagging arm 18 times, its words changing by a pixel), burying the other warnings staff read
(`journalctl -p warning`, `dicetable check`), and the players had the staff's banner over their
game on 29% of its frames. Now a knock is told once, again only when the camera moved further
(`FURTHER_PX`, `FURTHER_DEGREES`), and a line is logged when the tray is back where it was
calibrated (the camera put back). A camera raised or lowered since calibration (the reader's
"the camera was raised since calibration (the tray looks 10% smaller)") is a knock of its own:
told once, again when its height changes by `FURTHER_SCALE` more.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .told_once import BACK_AFTER, ToldOnce

#: how much further than the knock last told the camera must move to be told again: above the
#: measure's own jitter (a knock of 10 px read 9-11 px), under a sagging arm's few pixels an hour
FURTHER_PX = 4.0
FURTHER_DEGREES = 0.5
#: ... or its height changed by this share of the tray's size (a 10% zoom is measured 10 +- 0.1%;
#: a camera raised then lowered again by 3% more is told again)
FURTHER_SCALE = 0.03
#: the log line when the tray is read in the calibrated box again after a knock was told
BACK_WORDS = "camera: the tray is back where it was calibrated (the knock told before is gone)"
#: the log line the table writes as it starts with a calibration (`dicetable check` counts the
#: knocks told after the last one: a table restarted after `dicetable calibrate` starts afresh)
CALIBRATION_WORDS = "camera: calibration in use"

_PX = re.compile(r"(\d+) px (right|left|down|up)")
_TURN = re.compile(r"turned (\d+(?:\.\d+)?) degrees")
_SIDE = re.compile(r"reaches past the (\w+) side")
_ZOOM = re.compile(r"looks (\d+)% (smaller|bigger)")
_GROWN = re.compile(r"reaches past the (\w+) and (\w+) sides")


@dataclass(frozen=True)
class Knock:
    """How far the tray moved in the view (px of the camera's frame), the camera's turn
    (degrees), the side the felt reaches past (a knock past what the edges can measure), or the
    tray's size against the calibrated one (`scale`: a camera raised, under 1, or lowered)."""

    dx: float = 0.0
    dy: float = 0.0
    turn: float = 0.0
    side: str = ""
    scale: float = 1.0

    def further_than(self, told: "Knock") -> bool:
        """Has the camera moved on from the knock `told` by enough to be told again?"""
        return (self.side != told.side or math.hypot(self.dx - told.dx, self.dy - told.dy) >= FURTHER_PX
                or abs(self.turn - told.turn) >= FURTHER_DEGREES or abs(self.scale - told.scale) >= FURTHER_SCALE)


def knock_of(message: str) -> Knock:
    """The knock the reader's `camera_moved` message names (vision/reader.py's words)."""
    dx = dy = 0.0
    for n, way in _PX.findall(message):
        v = float(n) * (-1 if way in ("left", "up") else 1)
        if way in ("right", "left"):
            dx = v
        else:
            dy = v
    turn = _TURN.search(message)
    side = _SIDE.search(message)
    grown = _GROWN.search(message)      # (a camera lowered past what the edges measure: "left+right")
    zoom = _ZOOM.search(message)
    scale = 1.0 + int(zoom.group(1)) / 100 * (-1 if zoom.group(2) == "smaller" else 1) if zoom else 1.0
    where = side.group(1) if side else "+".join(grown.groups()) if grown else ""
    return Knock(dx, dy, float(turn.group(1)) if turn else 0.0, where, scale)


class KnockWatch:
    """Decides, reading by reading, when the staff are told of a knocked camera (a `ToldOnce`
    of the knock the reader's `camera_moved` message names)."""

    def __init__(self) -> None:
        self._watch: ToldOnce[Knock] = ToldOnce(Knock.further_than, BACK_AFTER)
        self.words = ""                # the reader's words for the knock told ("" with none)

    @property
    def told(self) -> Knock | None:
        """The knock last told (None: none, or the tray is back)."""
        return self._watch.told

    @property
    def clear(self) -> int:
        """Settled readings in a row that showed the knock told gone (kept across restarts)."""
        return self._watch.clear

    def restore(self, knock: Knock | None, words: str, clear: int = 0) -> None:
        """Take up the knock told before a restart (controller/told_kept.py) and the readings
        since that showed it gone: the same knock is not told again, one further is, and the tray
        back is a line, after as many readings as without the restart."""
        self._watch.restore(knock, clear)
        self.words = words if knock is not None else ""

    def seen(self, message: str | None) -> str:
        """A settled reading's `camera_moved` message (None: it had none). "tell": say it (a new
        knock, or the camera moved further); "back": the tray is where it was calibrated again;
        "": nothing to say."""
        said = self._watch.seen(None if message is None else knock_of(message))
        if said == "tell":
            self.words = message or ""
        elif said == "back":
            self.words = ""
        return said


def banner_words(message: str) -> str:
    """The knock as the banner says it. The reader's words ("For the staff: the tray is not where
    it was calibrated (moved 10 px right): run dicetable calibrate again. The game goes on.") took
    two pages at 320x240, and the first (cut after "moved 10 px") was all that was shown before
    the throw's own message replaced it: what to do was never read. Now what to do is on the first
    page; the log keeps the reader's words."""
    return f"For the staff: {short_words(message)}: calibrate again. The game goes on."


def short_words(message: str) -> str:
    """The knock in a few words ("camera knocked (10 px right)"): the banner's, and the log's
    line at a start that the knock told before is not told again. They leave out the reader's
    "the tray is not where it was calibrated", which `dicetable check` counts as a knock told."""
    how = re.search(r"\((.+?)\)", message)
    zoomed = re.search(r"camera was (raised|lowered) .*looks (\d+% \w+)", message)
    if zoomed:     # (a camera raised or lowered: how much, on the first page at 320x240; the log has any move)
        return f"camera {zoomed.group(1)} ({zoomed.group(2)})"
    if _GROWN.search(message):
        return "camera lowered (the tray fills the view)"
    inner = how.group(1).removeprefix("moved ") if how else "the tray moved"
    return f"camera knocked ({inner})"
