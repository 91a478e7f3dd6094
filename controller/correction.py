"""Where a correction of the dice started, so that leaving it (BACK) goes back there.

Players correct the dice with the buttons from three places: the reading shown for a moment
(*Is this right?*), a tray the table refused but offers to enter by hand (*I see 4 dice ... hold
OK to enter the values*), and dice already accepted (a late correction, which the table keeps
in `TableFlow._amending`). BACK used to leave the first two the same way, as *throw again*: a
right reading opened by a long OK (a slow press of OK is one: hold_time 1 s) and left with BACK
was dropped, the dice still in the tray and never read again until thrown; and the dice read of a
refused tray were forgotten, so that a second long OK started every die at 1. `Opened` keeps
what BACK gives back.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

#: the reading shown for a moment (CONFIRM): BACK shows it again, as read
SHOWN = "shown"
#: a tray refused, its dice read offered to be entered by hand: BACK keeps the offer
OFFERED = "offered"
#: nothing read (the whole throw entered by hand): BACK leaves nothing behind
BLANK = "blank"


@dataclass(frozen=True)
class Opened:
    """A correction as it was opened: where from (`SHOWN`, `OFFERED`, `BLANK`), the dice as
    they were then (values, places, the positions still in doubt), and for a reading shown when
    it was due to count by itself (the clock's time; inf: only with OK, a die in the glare)."""

    origin: str
    values: tuple[int, ...]
    boxes: tuple
    doubtful: tuple[int, ...]
    confirm_at: float = 0.0
    gathered: bool = False      # the reading looked gathered up (controller.gathered): asked again as such

    def read(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The dice as the camera read them, and the positions of the stand-ins among them (not
        read or not seen: entered by hand, every die when nothing was read)."""
        if self.origin == OFFERED:
            return self.values, self.doubtful
        if self.origin == BLANK:
            return self.values, tuple(range(len(self.values)))
        return self.values, ()


def leave_words(origin: str, late: bool) -> str:
    """The prompt's hint for leaving a correction: what a long OK and BACK do from here."""
    if late:
        back = "BACK leaves the dice as read"
    elif origin == SHOWN:
        back = "BACK: the dice as read"
    else:
        back = "BACK cancels"
    return f"hold OK: done · {back}"


#: corrected throws in a game before the staff are told, and the least share of its throws they are
STAFF_AFTER = 3
STAFF_SHARE = 0.2


def changed_dice(read: Sequence[int], stand_ins: Sequence[int], final: Sequence[int]) -> list[int]:
    """The positions of the dice the camera read with a value that the players set otherwise (a
    misread). Stand-ins (a die not read, not seen: entered by hand) are no misread of the camera's."""
    return [i for i, (r, f) in enumerate(zip(read, final)) if r != f and i not in stand_ins]


@dataclass
class Tally:
    """A game's throws read from the tray and those the players corrected. A table whose players
    keep correcting it has a dirty lens or a poor light: the staff are told, on screen and in the
    log at WARNING (`journalctl -u dicetable -p warning`), from the STAFF_AFTER-th corrected throw
    if they are STAFF_SHARE of the throws or more (the reader misreads under 1% of the dice, about
    one throw in twenty). Before, a correction was logged as *Corrected values accepted.*, with
    neither the values nor how often, and nothing told the staff."""

    throws: int = 0
    corrected: int = 0
    # the throws counted and those counted corrected, by their place in the game (input number)
    _counted: set[int] = field(default_factory=set, repr=False)
    _misread: set[int] = field(default_factory=set, repr=False)

    def add(self, new_throw: bool, misread: bool, at: int | None = None) -> str | None:
        """Count a throw applied (`new_throw`: not one corrected late, already counted) and
        whether the players changed a die the camera read; the staff's words when they are due.

        `at`, the throw's place in the game (its input number), counts each throw once and
        corrected once, whatever `new_throw` says: a throw corrected late again and again was
        counted corrected each time (one throw, *3 of the 1 throws*), and one read before a
        restart, corrected after it, was never counted as a throw (*3 of the 0 throws*)."""
        if at is not None:
            new_throw = at not in self._counted
            self._counted.add(at)
            misread = misread and at not in self._misread
            if misread:
                self._misread.add(at)
        self.throws += new_throw
        self.corrected += misread
        if misread and self.corrected >= STAFF_AFTER and self.corrected >= STAFF_SHARE * self.throws:
            return (f"the players corrected {self.corrected} of the {self.throws} throws read in this game: clean "
                    "the camera's lens and check the light over the tray (dicetable calibrate)")
        return None


def holds_kept(tray: Sequence[int], holds: Sequence[bool], read: Sequence[int], final: Sequence[int]) -> list[bool]:
    """The holds a player had marked on `tray` when they corrected its dice late (`read`, set to
    `final`), given back on the corrected dice: a die held keeps its hold unless its value was
    changed (then the player decides on it again). By place when the tray is in the order of
    `read`, else by value (a tray rebuilt after a resume). Before, the correction dropped every
    hold: a player who held 6 6, then fixed a misread third 6, had to hold all three again, and
    one who did not look threw the sixes again."""
    if list(tray) == list(read) and len(holds) == len(read):
        flags = list(holds)
    else:
        left = [v for v, h in zip(tray, holds) if h]
        flags = []
        for v in read:
            flags.append(v in left)
            if v in left:
                left.remove(v)
    return [h and r == f for h, r, f in zip(flags, read, final)]
