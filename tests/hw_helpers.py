"""Small test doubles shared by the hardware tests."""
from __future__ import annotations


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
