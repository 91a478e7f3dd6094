"""What the final standings' panel keeps when it cannot hold everything.

At 320x240 the panel is ~140x200 px: a tie-break message (four lines), the winner, five to eight
standings and the buttons' hints need ~300, and the standings were stepped 8 px apart, each line
drawn over the next. The standings themselves come first; to make room, the message goes above
the sheet beside them, then the hints after the first (OK: a new game) go, the last first, then the winner's
heading shrinks to the least legible size.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable


@dataclass(frozen=True)
class FinalFit:
    message_here: bool                   # the message above the standings (else above the sheet)
    hints: int                           # how many of the buttons' hints are drawn
    small_heading: bool                  # the winner's heading at the least legible size


def final_fit(hints: int, has_message: bool, height: int, need: Callable[[FinalFit], int]) -> FinalFit:
    """The first of the layouts above (everything first) whose `need` is within `height`; the
    last when none is (a screen below any café's)."""
    tries = list(_tries(hints, has_message))
    return next((fit for fit in tries if need(fit) <= height), tries[-1])


def _tries(hints: int, has_message: bool) -> Iterable[FinalFit]:
    yield FinalFit(True, hints, False)
    if has_message:
        yield FinalFit(False, hints, False)
    for kept in range(hints - 1, 0, -1):            # the last hints first
        yield FinalFit(False, kept, False)
    yield FinalFit(False, min(hints, 1), True)
