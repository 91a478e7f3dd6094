"""Buttons from the keyboard of the pygame window (development, and a spare on the table).

The display owns the pygame event loop; it hands events to `feed()`. This source never
calls pygame.event.get() itself, so it cannot steal the window's events.
"""
from __future__ import annotations

import queue
import time
import warnings
from typing import Any, Mapping

from ._config import check_keys, positive, table, text
from .buttons import (BUSY_AFTER_S, HOLD, PRESS, RELEASE, STUCK_AFTER_S, BusyFilter, ButtonEvent, Clock,
                      SourceStatus, StuckWatch, check_button_name, drain)


def default_keymap() -> dict[int, str]:
    """pygame key code -> button name (1-5, Enter/Space, arrows, Backspace, Esc/A, H)."""
    import pygame

    keymap = {
        pygame.K_1: "HOLD1", pygame.K_2: "HOLD2", pygame.K_3: "HOLD3", pygame.K_4: "HOLD4", pygame.K_5: "HOLD5",
        pygame.K_KP1: "HOLD1", pygame.K_KP2: "HOLD2", pygame.K_KP3: "HOLD3", pygame.K_KP4: "HOLD4",
        pygame.K_KP5: "HOLD5",
        pygame.K_RETURN: "OK", pygame.K_KP_ENTER: "OK", pygame.K_SPACE: "OK",
        pygame.K_UP: "UP", pygame.K_DOWN: "DOWN",
        pygame.K_BACKSPACE: "BACK",
        pygame.K_ESCAPE: "ABANDON", pygame.K_a: "ABANDON",
        pygame.K_h: "HINT",
    }
    return keymap


def keymap_from_names(names: Mapping[str, str]) -> dict[int, str]:
    """Config form `{"x": "OK", "return": "OK"}` (pygame key names) -> key code map."""
    import pygame

    keymap: dict[int, str] = {}
    for key_name, button in names.items():
        try:
            with warnings.catch_warnings():  # key_code works without pygame.init(), but warns
                warnings.simplefilter("ignore")
                code = pygame.key.key_code(key_name)
        except (ValueError, pygame.error):
            raise ValueError(f"[buttons.keys] unknown key name {key_name!r}") from None
        keymap[code] = check_button_name(button, "buttons.keys")
    return keymap


class KeyboardButtonSource:
    """Maps KEYDOWN/KEYUP to press/hold/release like a physical button.

    A key up before `hold_time` gives `press` + `release`; a key still down after
    `hold_time` gives `hold` (detected in `poll()`, as no event arrives while a key is held)
    and later only `release`. Key repeat and other keys are ignored; losing window focus
    releases every key (their KEYUPs would never come). A key down for `stuck_after_s` (a
    book on the keyboard) is named in `status.warning` until it comes up. Keys pressed while the
    table was busy (`busy_after_s`) count as the panels' do: only the first. The window queues key
    events while the table's loop is held up and hands them all over when it goes on: the staff's
    keyboard was the one panel where twenty impatient presses were still twenty moves.
    """

    def __init__(
        self,
        *,
        keymap: Mapping[int, str] | None = None,
        hold_time: float = 1.0,
        stuck_after_s: float = STUCK_AFTER_S,
        busy_after_s: float = BUSY_AFTER_S,
        clock: Clock | None = None,
        name: str = "keyboard",
    ) -> None:
        import pygame

        self._pygame = pygame
        self.keymap = dict(keymap) if keymap is not None else default_keymap()
        self.hold_time = positive(hold_time, "hold_time", "buttons")
        self.clock = clock or time.monotonic
        self.name = text(name, "name", "buttons")
        self._queue: queue.SimpleQueue[ButtonEvent] = queue.SimpleQueue()
        self._down: dict[int, tuple[str, float, bool]] = {}  # key -> (button, since, held)
        self._running = False
        self._stuck = StuckWatch(positive(stuck_after_s, "stuck_after_s", "buttons", allow_zero=True), self.name,
                                 self.hold_time)
        self._busy = BusyFilter(positive(busy_after_s, "busy_after_s", "buttons", allow_zero=True), self.name)

    @property
    def busy_after_s(self) -> float:
        """How long a pause between two polls is the table busy (0: never; see BusyFilter)."""
        return self._busy.after_s

    @classmethod
    def from_config(cls, config: dict[str, Any], *, clock: Clock | None = None) -> "KeyboardButtonSource":
        check_keys(config, {"hold_time", "keys", "stuck_after_s", "busy_after_s", "name"}, "buttons")
        keys = config.get("keys")
        return cls(
            keymap=keymap_from_names(table(keys, "keys", "buttons")) if keys else None,
            hold_time=config.get("hold_time", 1.0),
            stuck_after_s=config.get("stuck_after_s", STUCK_AFTER_S),
            busy_after_s=config.get("busy_after_s", BUSY_AFTER_S),
            clock=clock,
            name=config.get("name", "keyboard"),
        )

    @property
    def status(self) -> SourceStatus:
        return SourceStatus(True, "", self._stuck.warning) if self._running else SourceStatus(False, "not started")

    def start(self) -> None:
        self._running = True
        self._busy.started(self.clock())

    def stop(self) -> None:
        self._running = False
        self._down.clear()

    def feed(self, event: Any) -> bool:
        """Take one pygame event from the display's loop; True if it was a mapped key."""
        pg = self._pygame
        if not self._running:
            return False
        etype = getattr(event, "type", None)
        if etype == pg.WINDOWFOCUSLOST:
            self._release_all()
            return False
        if etype not in (pg.KEYDOWN, pg.KEYUP):
            return False
        key = getattr(event, "key", None)
        button = self.keymap.get(key)  # type: ignore[arg-type]
        if button is None:
            return False
        now = self.clock()
        if etype == pg.KEYDOWN:
            if key not in self._down:  # a repeat KEYDOWN while held changes nothing
                self._down[key] = (button, now, False)
            return True
        if key in self._down:
            _, since, held = self._down.pop(key)
            if not held and now - since >= self.hold_time:  # poll() was not called in time
                self._queue.put(ButtonEvent(HOLD, button, since + self.hold_time, self.name))
                held = True
            if not held:
                self._queue.put(ButtonEvent(PRESS, button, now, self.name))
            self._queue.put(ButtonEvent(RELEASE, button, now, self.name))
            self._stuck.freed(button, now)
        return True

    def _release_all(self) -> None:
        now = self.clock()
        for key, (button, _, _) in sorted(self._down.items()):
            self._queue.put(ButtonEvent(RELEASE, button, now, self.name))
            self._stuck.freed(button, now)
        self._down.clear()

    def poll(self) -> list[ButtonEvent]:
        now = self.clock()
        for key, (button, since, held) in list(self._down.items()):
            if not held and now - since >= self.hold_time:
                self._down[key] = (button, since, True)
                self._queue.put(ButtonEvent(HOLD, button, since + self.hold_time, self.name))
            self._stuck.is_stuck(button, since, now)
        return self._busy.filter(sorted(drain(self._queue), key=lambda e: e.timestamp), now)
