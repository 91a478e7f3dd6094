"""A row of boxes too small to see, said as a count that fits its cell.

Where a board's boxes would be drawn under 10 px (Pok'n Roll's six boxes a line in a player's
column at 320x240) the cell says how many are ticked, "2/6". Four players' columns there hold
17 px of text, "2/6" takes 30: every cell of the board was drawn "..." (1,080 cells over a
game), the board unread. A line has as many boxes as every other (Pok'n Roll's
`boxes_per_line`), so where "2/6" does not fit the cell says "2"; a preview keeps its points
("2 +3", else "+3", what the choice would score).
"""
from __future__ import annotations

from typing import Callable


def count_forms(boxes: str, tail: str = "") -> tuple[str, ...]:
    """The forms of a row of boxes' count, longest first: "2/6 +3", "2 +3", "+3" ("2/6", "2")."""
    ticked, n = boxes.count("■"), len(boxes)
    after = f" {tail}" if tail else ""
    return (f"{ticked}/{n}{after}", f"{ticked}{after}") + ((tail,) if tail else ())


def count_said(boxes: str, tail: str, fits: Callable[[str], bool]) -> str:
    """The first of the count's forms that `fits` its cell, else the shortest (cut when drawn)."""
    forms = count_forms(boxes, tail)
    return next((form for form in forms if fits(form)), forms[-1])
