"""Small test doubles shared by the table-flow tests."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Press:
    """A button event as the table flow reads it (kind "press" or "hold")."""

    name: str
    kind: str = "press"


class Clock:
    """Time that moves only when a test says so (`clock.t += seconds`)."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t
