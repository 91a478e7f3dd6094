"""Dice gathered up by hand, not thrown: the faces of the dice played before, moved.

A player reaching for the dice the last player left (to pick them up and throw) often sweeps
them together first. A die slid across the felt keeps its face, so the tray then shows the
faces read before, every die moved: the settle tracker calls that a new throw (most dice
moved), and the table's own test of dice left lying where they were (`_lying_as_played`) does
not hold either. Before, those dice were staged as the next player's throw and accepted after
the usual moment and even when they were picked up meanwhile: *Bob* journaled Ann's dice.

A real throw of every die shows exactly the faces before too, but rarely: at most 120 in 7,776
for five dice (1.5%), 24 in 1,296 for four. So such a tray is not refused: it is shown, as any
reading, with a question, and dropped if the dice are taken out before it counted (a player
gathers dice to pick them up; one who threw leaves them to be read). Left there, it counts
after the usual moment, or at once with OK. Fewer dice repeat their faces too often (2 in 36
for two dice) to be asked about: a partial throw is never questioned this way.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

# Fewest dice thrown at once for a repeat of every face to be worth a question (see above).
MIN_DICE = 4


def looks_gathered(values: Sequence[int | None], played_values: Sequence[int], held: Sequence[int],
                   count: int) -> bool:
    """Whether a tray read as `values` (held dice included) for a throw of `count` dice beside
    `held` shows just the faces of the dice played before (`played_values`, the whole tray as
    accepted then), with nothing held: the dice gathered up rather than thrown."""
    if held or count < MIN_DICE or len(values) != count or len(played_values) != count:
        return False
    if any(v is None for v in values):
        return False
    return Counter(values) == Counter(played_values)


GATHERED_WORDS = ("These dice show just the faces read before: thrown, or only gathered up? "
                  "Picked up now, they do not count; left there, they count as thrown.")
DROPPED_WORDS = "The dice were picked up before they counted: not a throw."
