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
#: UP and DOWN step a value (a die's in a correction, a row in a menu): two players who both see the
#: 3 that should be a 4 both press UP, and expect a 4. Pressed at the same moment, they come in as
#: far apart as their releases (a panel and a box send a press as the button comes back up: one
#: held 0.1 s, the other 0.4 s): 0.25 s apart took both, and the die went to 5, which the players
#: trusting the table accepted. ASSUMPTION: a player on another panel who means a second step has
#: seen the first one's result (the screen drawn within 50 ms, a hand reacts in 200 ms, a press
#: takes 80 ms or more) and still waits for it before pressing; a step the other panel meant and
#: that was dropped shows as a value that did not move (pressed again), while a step taken twice
#: is a wrong value that looks right. One panel's own repeats always count (one player, twice).
SAME_STEP_S = 0.6
STEPS = frozenset({"UP", "DOWN"})


class SamePress:
    """The same button pressed (or held) on two panels at once is one press: the first taken, the
    others said in the log. One panel's own repeats go through (a player pressing DOWN twice
    quickly), as do releases."""

    def __init__(self, within_s: float = SAME_PRESS_S, steps_within_s: float = SAME_STEP_S) -> None:
        self.within_s = within_s
        self.steps_within_s = max(within_s, steps_within_s)
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
        step = event.kind == PRESS and event.name in STEPS
        within = self.steps_within_s if step else self.within_s
        if taken is not None and taken[1] != event.source and abs(event.timestamp - taken[0]) < within:
            self.dropped += 1
            if step:
                log.info("%s on %s %.2f s after %s on %s: one step asked by two players, taken once", event.name,
                         event.source, abs(event.timestamp - taken[0]), event.name, taken[1])
            else:
                log.info("%s %s on %s at the same moment as on %s: taken once", event.name, event.kind,
                         event.source, taken[1])
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
