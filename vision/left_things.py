"""Things left lying in the tray (a coin, a phone, a playing card, a cup): told, then read around.

The reader reports anything in the tray that is not a die as a foreign object, and a reading
with one never became final: a hand among the dice may hide a die, so the throw must wait for it
to go. But a phone or a cup left in the tray stopped every throw after it, for good, with "take
it out" on the screen of a table nobody may be watching.

What tells a thing left there from a hand is time: the hand comes with the throw; the thing lay
there, still, before it. So the settle tracker keeps a picture of the tray from its last settled
still spell (before the throw), and a foreign object whose place looks the same in it as now was
*left*: its problem becomes LEFT_IN_TRAY, which blocks nothing, and the dice around it are read
as usual (the reader never reads a die inside a foreign object's box: a die on it is not counted,
and the table asks for it). A thing that came with the throw or was moved by it (its place looked
otherwise before) still stops the throw until it is taken out. The picture, not the reader's
earlier reports, decides: the reader saw a cup alone in a tray as nothing, and saw it as a
foreign object once dice lay around it. Plain Python and numpy; no controller imports.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

from .types import FOREIGN_OBJECT, LEFT_IN_TRAY, Problem, Reading

Box = tuple[int, int, int, int]

# How much two boxes of one thing must overlap (intersection over union) to be the same place. A
# phone's box on rendered trays moved by 1 px from reading to reading, a card's by 9 px of 128 when
# a die landed beside it (0.93).
SAME_PLACE = 0.7


def overlap(a: Sequence[int], b: Sequence[int]) -> float:
    """Intersection over union of two boxes (x0, y0, x1, y1): 1 the same, 0 apart."""
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def same_place(box: Sequence[int], places: Sequence[Sequence[int]]) -> bool:
    """Whether `box` lies at one of `places` (SAME_PLACE)."""
    return any(overlap(box, p) >= SAME_PLACE for p in places)


def read_around(reading: Reading, lay_there: Callable[[Box], bool]) -> Reading:
    """`reading` with each foreign object whose place `lay_there` (looked the same before the
    throw) turned into a LEFT_IN_TRAY problem, which blocks nothing; `reading` itself if none."""
    if not any(p.code == FOREIGN_OBJECT and p.box is not None for p in reading.problems):
        return reading
    problems: list[Problem] = []
    changed = False
    for p in reading.problems:
        if p.code == FOREIGN_OBJECT and p.box is not None and lay_there(tuple(int(v) for v in p.box)):
            problems.append(Problem(LEFT_IN_TRAY, "lying in the tray since before the throw: read around", p.box))
            changed = True
        else:
            problems.append(p)
    return dataclasses.replace(reading, problems=tuple(problems)) if changed else reading


def left_boxes(reading: Reading) -> list[Box]:
    """The places of the things `reading` was read around (LEFT_IN_TRAY)."""
    return [tuple(int(v) for v in p.box) for p in reading.problems  # type: ignore[misc]
            if p.code == LEFT_IN_TRAY and p.box is not None]


def things_in(reading: Reading) -> tuple[Box, ...]:
    """The places of the things not dice in `reading`, left lying (LEFT_IN_TRAY) or not (a hand,
    FOREIGN_OBJECT): the screen outlines them, so that players see what the words mean."""
    return tuple(tuple(int(v) for v in p.box) for p in reading.problems  # type: ignore[misc]
                 if p.code in (FOREIGN_OBJECT, LEFT_IN_TRAY) and p.box is not None)
