"""The reader's problems in the players' words, with what to do about each.

The reader says what it saw for the log and `dicetable read --json` ("die found but value
unsure", "frame too dark (98th percentile 17)"); the players need to know which die, and whether
to throw again, take a hand out, or call the staff. Plain data and small functions: the table
flow and the runner word the same problem the same way.
"""
from __future__ import annotations

from vision.types import BAD_FRAME, BLURRED, FOREIGN_OBJECT, TOO_BRIGHT, TOO_DARK

BY_HAND = "hold OK to enter the values"
UNSTEADY = "unsteady"       # not a reader's code: a still tray whose readings keep disagreeing

# What keeps the camera from reading the whole tray: (the tray's caption, the banner's advice). The
# caption is one line under the tray (at 800x480 "Readings disagree: straighten the dice or throw
# again" was cut after "or throw"); the banner holds what to do.
TRAY_TROUBLE: dict[str, tuple[str, str]] = {
    FOREIGN_OBJECT: ("Something that is not a die is in the tray",
                     "A hand or something that is not a die is in the tray: take it out. The dice are read "
                     "once it is out."),
    TOO_DARK: ("Too dark to see the dice",
               f"Too dark to see the dice: is the light over the tray on? The dice are read once it is. If it "
               f"stays dark, call the staff, or {BY_HAND}."),
    TOO_BRIGHT: ("Too bright to see the dice",
                 f"Too much light on the tray to see the dice (a lamp or the sun shining on it): shade the tray, "
                 f"or call the staff, or {BY_HAND}."),
    BAD_FRAME: ("The camera's picture cannot be used",
                f"The camera's picture cannot be used: call the staff if this stays, or {BY_HAND}."),
    BLURRED: ("The picture is blurred",
              f"The camera's picture is blurred: keep the table still. If it stays blurred (the camera out of "
              f"focus or loose), call the staff, or {BY_HAND}."),
    UNSTEADY: ("Readings disagree",
               f"The camera reads the dice differently from one picture to the next: straighten the dice or "
               f"throw again, or {BY_HAND}."),
}
# the order in which they are named when several are seen at once
TRAY_ORDER = (FOREIGN_OBJECT, TOO_DARK, TOO_BRIGHT, BAD_FRAME, BLURRED)

