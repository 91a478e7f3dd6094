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


class WallClock:
    """The date and time of day as a Raspberry Pi's clock says them (controller.wallclock): set by
    the test where a power cut or the network leaves it (`wall.t = ...`), and whether the
    network has set it (`wall.set_by_network`)."""

    def __init__(self, t: float, set_by_network: bool = True) -> None:
        self.t = t
        self.set_by_network = set_by_network

    def now(self) -> float:
        return self.t

    def synced(self) -> bool:
        return self.set_by_network
