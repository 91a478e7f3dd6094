"""A button that presses itself: a loose wire, a wet switch, a long lead beside a fridge's motor.

Each flicker of a pin that stays up longer than `bounce_time` is a whole press to a GPIO panel: a
loose OK contact flickering 16 times a second was 100 OKs in 6 s (readings accepted, boxes scored,
a game played by nobody), with nothing on screen. The button box has its flood guard for its own
firmware; a GPIO panel's wires fail one button at a time, so the button is named and put aside,
the others going on working, as a stuck button is (`StuckWatch`).
"""
from __future__ import annotations

import logging
from collections import deque

from .buttons import BUTTON_NAMES, HOLD, PRESS, ButtonEvent

log = logging.getLogger(__name__)

#: ASSUMPTION: no hand presses one arcade button more often than this within a second (a player
#: mashing OK manages 6 or 7; staff cycling a name's letters with UP about as many): more is a
#: wire or a switch, not a hand
MOST_PRESSES = 10
WINDOW_S = 1.0
#: a flickering button counts again once it has pressed nothing for this long
CALM_S = 2.0


class FlickerWatch:
    """The presses of each button within the last `window_s`: a button pressed more than `most`
    times in it flickers, and its presses and holds are not taken until none has come for `calm_s`.
    Said once in the log when it starts and when it ends, and named in the panel's warning meanwhile."""

    def __init__(self, source: str, most: int = MOST_PRESSES, window_s: float = WINDOW_S,
                 calm_s: float = CALM_S) -> None:
        self.source, self.most, self.window_s, self.calm_s = source, most, window_s, calm_s
        self.dropped = 0
        self._recent: dict[str, deque[float]] = {}
        self._flickering: dict[str, float] = {}     # button -> its last press (while it flickers)

    def filter(self, events: list[ButtonEvent], now: float) -> list[ButtonEvent]:
        """`events` without the presses and holds of a flickering button (releases go through)."""
        kept = [e for e in events if e.kind not in (PRESS, HOLD) or self._allow(e)]
        for name, last in list(self._flickering.items()):
            if now - last >= self.calm_s:
                del self._flickering[name]
                self._recent.pop(name, None)
                log.info("%s: %s button has stopped pressing itself: it is taken again (%d presses ignored)",
                         self.source, name, self.dropped)
        return kept

    def _allow(self, event: ButtonEvent) -> bool:
        name, t = event.name, event.timestamp
        if name in self._flickering:
            self._flickering[name] = max(t, self._flickering[name])
            self.dropped += 1
            return False
        recent = self._recent.setdefault(name, deque())
        recent.append(t)
        while recent and recent[0] <= t - self.window_s:
            recent.popleft()
        if len(recent) <= self.most:
            return True
        self._flickering[name] = t
        self.dropped += 1
        log.error("%s: %s button pressed %d times within %.0f s: a loose wire or a wet switch, not a hand; it is "
                  "ignored until it stops, call staff", self.source, name, len(recent), self.window_s)
        return False

    @property
    def warning(self) -> str:
        """What the screen says while a button flickers ("OK button presses itself: call staff")."""
        names = [n for n in BUTTON_NAMES if n in self._flickering]
        if not names:
            return ""
        if len(names) == 1:
            return f"{names[0]} button presses itself: call staff"
        return f"{' and '.join(names)} buttons press themselves: call staff"
