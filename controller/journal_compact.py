"""Superseded hold lines: what a journal can drop without changing what a resume reads from it.

Every HOLD press appends a hold line with all the dice held (journal.HOLD), and only the last of
a run of them counts (the holds at the decision, or at the input that follows: BACK twice gives
them back). The others are history nobody reads: a game whose players toggled HOLD 100,000 times
had a 2.65 MB journal, read at every restart (2.5 s more, +110 MB resident on this machine) and
written again whole by every resume. The journal drops them when it is written whole (a resume)
and every HOLDS_BEFORE_COMPACTING hold lines while a game goes on, so its size is bounded by the
game's moves, not by the presses.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

#: hold lines appended before the journal is written again without its superseded ones: a game
#: holds dice a few hundred times, so this is at most a few rewrites of a few KB in a game, and a
#: journal never has more than this many hold lines beyond one per decision
HOLDS_BEFORE_COMPACTING = 256


def without_superseded_holds(lines: Sequence[dict[str, Any]],
                             is_hold: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """`lines` (a journal's, after its header) without the hold lines another hold line follows
    at once: a reader takes only the last of such a run (Journal.read_ending), so the inputs, the
    holds at the decision, the holds before each input, take-backs and damage lines read the same.
    A hold line the table cannot use stays where it is the last of its run (it means: none held)."""
    kept = []
    for i, data in enumerate(lines):
        if is_hold(data) and i + 1 < len(lines) and is_hold(lines[i + 1]):
            continue
        kept.append(data)
    return kept


def without_taken_back(lines: Sequence[dict[str, Any]], is_hold: Callable[[dict[str, Any]], bool],
                       is_input: Callable[[dict[str, Any]], bool],
                       is_take_back: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """`lines` (a journal's, after its header) without the inputs taken back, their take-back
    lines and the hold lines of the decision each answered: BACK twice after a choice, or a long
    OK and OK on dice already accepted, appended two lines each time, and players who did it over
    and over grew the journal without bound (2,000 times: 4,002 lines, 130 KB, read and written
    again whole at every restart). A reader finds nothing held after a take-back, as it does
    after the line before the hold lines dropped, so the inputs and every hold read the same.

    The journal's last take-back, where only hold lines follow it, stays with its input: a resume
    reads from it that the last choice was already taken back (not offered again) or that the
    dice were being corrected (Recovered.undone). A take-back that does not follow an input (one
    after a damage line) stays, and so does what it takes back."""
    end = next((i for i in range(len(lines) - 1, -1, -1) if not is_hold(lines[i])), None)
    last = end if end is not None and is_take_back(lines[end]) else len(lines)
    kept: list[dict[str, Any]] = []
    for data in lines[:last]:
        if is_take_back(data):
            at = _before_holds(kept, len(kept), is_hold)
            if at and is_input(kept[at - 1]):
                del kept[_before_holds(kept, at - 1, is_hold):]
                continue
        kept.append(data)
    return kept + list(lines[last:])


def _before_holds(lines: list[dict[str, Any]], end: int, is_hold: Callable[[dict[str, Any]], bool]) -> int:
    """Where the run of hold lines that ends at `end` (exclusive) begins."""
    while end and is_hold(lines[end - 1]):
        end -= 1
    return end
