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

from dataclasses import dataclass

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


def leave_words(origin: str, late: bool) -> str:
    """The prompt's hint for leaving a correction: what a long OK and BACK do from here."""
    if late:
        back = "BACK leaves the dice as read"
    elif origin == SHOWN:
        back = "BACK: the dice as read"
    else:
        back = "BACK cancels"
    return f"hold OK: done · {back}"
