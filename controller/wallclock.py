"""The wall clock (the date and time of day), which the table uses only for what it tells people.

A Raspberry Pi has no battery-backed clock: after a power cut it boots at the time fake-hwclock
saved last (up to an hour before the cut) or, without it, in 1970, and the network (NTP) sets it
right some seconds or minutes later, or never. So nothing the table decides rests on the wall
clock: durations are measured on the monotonic clock, the archive is ordered by number. The wall
clock dates what people read (an archived journal's name), and is asked for through this
interface so that tests can set it where a power cut leaves it.
"""
from __future__ import annotations

import time
from typing import Protocol


class WallClock(Protocol):
    def now(self) -> float:
        """Seconds since 1970 as the clock says (time.time)."""


class SystemWallClock:
    """The system's wall clock."""

    def now(self) -> float:
        return time.time()
