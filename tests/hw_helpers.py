"""Small test doubles shared by the hardware tests."""
from __future__ import annotations

import time
from typing import Any, Callable


class FakeClock:
    """Time that moves only when a test says so."""

    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        self.t += dt


def kinds(events) -> list[tuple[str, str]]:
    return [(e.kind, e.name) for e in events]


def wait_for(condition: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
    """The first true value of `condition`, polled: a deadline for a thread's condition on a
    loaded machine, not a speed (tests assert no time)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.002)
    raise AssertionError(f"{what}: not met in time")


class QuietPanel:
    """Buttons that are there and give what a test puts in `queue` at the next poll (nothing else)."""

    status = type("Status", (), {"connected": True, "message": "", "warning": ""})()

    def __init__(self) -> None:
        self.queue: list[Any] = []

    def feed(self, event: Any) -> bool:
        return False

    def poll(self) -> list[Any]:
        out, self.queue = self.queue, []
        return out

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass
