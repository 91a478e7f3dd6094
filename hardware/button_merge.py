"""The rules that hold where several panels meet (a GPIO panel, a button box and the staff's keyboard
on one table): the table has one game, so what one panel's own rules stop must not come through
because it was pressed on two.

Each panel keeps its own rules (a worn switch, a flooding box, the busy rule within the panel); these
two are about the panels together, applied by `MultiButtonSource` to the merged events.
"""
from __future__ import annotations

import logging
from typing import Any

from .buttons import HOLD, PRESS, BusyFilter, ButtonEvent

log = logging.getLogger(__name__)

#: ASSUMPTION: the same button on another panel this soon after a press was taken was pressed at the
#: same moment, on the screen the first acted on: nobody has seen the first's result yet (the next
#: picture is 50 ms away, a hand reacts to it in 200 ms or more). Two players pressing OK at once on
#: a reading, one on the panel, one on the box, were the reading accepted and then all five dice
#: thrown again, a move nobody chose.
SAME_PRESS_S = 0.25


class SamePress:
    """The same button pressed (or held) on two panels at once is one press: the first taken, the
    others said in the log. One panel's own repeats go through (a player pressing DOWN twice
    quickly), as do releases."""

    def __init__(self, within_s: float = SAME_PRESS_S) -> None:
        self.within_s = within_s
        self.dropped = 0
        self._taken: dict[tuple[str, str], tuple[float, str]] = {}   # (kind, name) -> (time, panel)

    def filter(self, events: list[ButtonEvent]) -> list[ButtonEvent]:
        kept = []
        for event in events:
            if event.kind in (PRESS, HOLD) and self._twice(event):
                continue
            kept.append(event)
        return kept

    def _twice(self, event: ButtonEvent) -> bool:
        """Whether `event` is a press already taken from another panel (and remember it if not)."""
        key = (event.kind, event.name)
        taken = self._taken.get(key)
        if taken is not None and taken[1] != event.source and abs(event.timestamp - taken[0]) < self.within_s:
            self.dropped += 1
            log.info("%s %s on %s at the same moment as on %s: taken once", event.name, event.kind, event.source,
                     taken[1])
            return True
        self._taken[key] = (event.timestamp, event.source)
        return False


class BusyAcrossPanels:
    """The busy rule over every panel at once: when the table was busy, of the presses made meanwhile
    on any panel only the first counts. Each panel's own rule let its own first through, so a
    freeze was still one move per panel; and the keyboard's presses queued meanwhile were all moves.

    The rule waits the shortest `busy_after_s` of the panels that have one; the presses of a panel set
    to 0 (all of them count: a test harness) are left alone."""

    def __init__(self, waits: dict[str, float], name: str) -> None:
        kept = [s for s in waits.values() if s]
        self.exempt = frozenset(source for source, s in waits.items() if not s)
        self._busy = BusyFilter(min(kept) if kept else 0.0, name)

    def started(self, now: float) -> None:
        self._busy.started(now)

    def filter(self, events: list[ButtonEvent], now: float) -> list[ButtonEvent]:
        ruled = [e for e in events if e.source not in self.exempt]
        kept = self._busy.filter(ruled, now)
        return [e for e in events if e.source in self.exempt or any(e is k for k in kept)]


def named_apart(children: list[Any]) -> list[Any]:
    """The panels' configs, a second panel of the same type left unnamed named "<type> 2" (then 3...).

    Both GPIO panels of a table with one at each end were "gpio": OK pressed on both at once was two
    OKs (a press from the same panel counts again), and the screen and the log could not say which
    panel a stuck button or a failure was on."""
    seen: dict[str, int] = {}
    out = []
    for child in children:
        if isinstance(child, dict) and "name" not in child:
            kind = str(child.get("type"))
            seen[kind] = seen.get(kind, 0) + 1
            if seen[kind] > 1:
                child = {**child, "name": f"{kind} {seen[kind]}"}
        out.append(child)
    return out
