"""A pin's events shut off, under a lock, before gpiozero closes it.

gpiozero calls a pin's event on the thread that saw the edge (lgpio's callback thread; with
MockFactory, the thread that drives the pin) with no lock against `close()`: an edge arriving as
the panel stopped raised inside gpiozero, on that thread, *TypeError: 'NoneType' object is not
callable* (the pin's `_when_changed` set to None between its check and its call) or
*AttributeError: 'NoneType' object has no attribute 'holding'* (the button's hold thread gone):
22 exceptions in 30 stops of a panel whose four pins were being pressed (tests/test_gpio_stop.py).
Here each pin's event goes through `PinGuard`: under its lock, and not at all once the guard is
closed; `close()` takes the same lock, so an edge is either done before the pins are closed or
dropped, never half way through their closing.
"""
from __future__ import annotations

import threading
from typing import Any, Callable


class PinGuard:
    """The gate of a panel's pin events: open from creation until `close()`."""

    def __init__(self) -> None:
        self._lock = threading.RLock()     # (re-entrant: a stop from inside an event cannot deadlock)
        self.closed = False

    def watch(self, pin: Any) -> None:
        """Route `pin`'s events (`_call_when_changed`, which gpiozero's pin classes and lgpio's
        callback call) through this guard. Done before a device sets the pin's `when_changed`:
        lgpio takes the method as its callback at that moment."""
        unguarded = getattr(type(pin), "_call_when_changed", None)   # (the class's: never a guard of a guard)
        if unguarded is None:
            # (a gpiozero private name: a pin class of another version without it keeps working,
            # unguarded, rather than the panel failing to start)
            return
        pin._call_when_changed = self._guarded(unguarded.__get__(pin))

    def _guarded(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            if self.closed:                  # (no wait for the lock once closed)
                return None
            with self._lock:
                if self.closed:
                    return None
                return original(*args)

        return call

    def close(self) -> None:
        """No event from now on; returns once an event under way is done. (The flag is set
        before the lock is taken: a pin pressed without pause kept taking the lock back, and a
        stop waited seconds for it.)"""
        self.closed = True
        with self._lock:
            pass
