"""A staff notice told once: the generic watcher the knock and the size notices share.

The reader names a condition of the camera (knocked, dice of another size than calibrated,
frames of another size) at every reading it holds for; the staff need it once, again when it
changes enough to matter, and a line when it is gone. Said at every settled reading, it buried
the other warnings staff read and kept their banner over the players' game.
"""
from __future__ import annotations

from typing import Callable, Generic, TypeVar

#: settled readings in a row that show the condition gone before it is said gone (one reading
#: that cannot tell, a hand over the tray, is not the condition put right)
BACK_AFTER = 3

C = TypeVar("C")


class ToldOnce(Generic[C]):
    """Decides, reading by reading, when the staff are told of a condition `C`."""

    def __init__(self, changed: Callable[[C, C], bool], back_after: int = BACK_AFTER) -> None:
        """`changed(now, told)`: whether the condition moved on from the one told enough to be
        told again."""
        self.changed, self.back_after = changed, back_after
        self.told: C | None = None     # the condition last told (None: none, or it is gone)
        #: settled readings in a row showing it gone, kept across restarts with what was told
        #: (controller/told_kept.py): counted from 0 again at each start, a camera put back on a
        #: table restarted every few throws was never said back
        self.clear = 0

    def restore(self, told: C | None, clear: int = 0) -> None:
        """Take up what was told before a restart and the readings since that showed it gone
        (a count that cannot be right, under 0 or at `back_after` and over, is read as none)."""
        self.told = told
        self.clear = clear if told is not None and 0 <= clear < self.back_after else 0

    def seen(self, condition: C | None, gone: bool | None = True) -> str:
        """A settled reading's condition (None: it did not name one). With none, `gone` says what
        the reading shows: True the condition gone, None that it cannot tell (an empty tray),
        False that it still holds though unnamed (the count of readings gone starts again).
        "tell": say it (new, or changed); "back": it is gone after being told; "": nothing to say."""
        if condition is None:
            if self.told is None or gone is None:
                return ""
            if not gone:
                self.clear = 0
                return ""
            self.clear += 1
            if self.clear < self.back_after:
                return ""
            self.told, self.clear = None, 0
            return "back"
        self.clear = 0
        if self.told is not None and not self.changed(condition, self.told):
            return ""
        self.told = condition
        return "tell"
