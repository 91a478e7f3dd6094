"""The wall clock (the date and time of day), which the table uses only for what it tells people.

A Raspberry Pi has no battery-backed clock: after a power cut it boots at the time fake-hwclock
saved last (up to an hour before the cut) or, without it, in 1970, and the network (NTP) sets it
right some seconds or minutes later, or never. So nothing the table decides rests on the wall
clock alone: durations are measured on the monotonic clock, the archive is ordered by number, and
the one thing only the wall clock can tell, how long a journal found at start was left (the table
was off meanwhile), is taken from it only when the kernel says an NTP daemon has set it, both when
the journal was written and now (`synced`). The wall clock is asked for through this interface so
that tests can set it where a power cut or the network leaves it.
"""
from __future__ import annotations

import ctypes
import functools
import time
from typing import Protocol

#: adjtimex(2)'s answer while the kernel's clock is not synchronised (STA_UNSYNC)
TIME_ERROR = 5
#: more than a `struct timex` on any architecture (208 bytes on 64-bit Linux); zeroed, it asks nothing
TIMEX_BYTES = 512


class WallClock(Protocol):
    def now(self) -> float:
        """Seconds since 1970 as the clock says (time.time)."""

    def synced(self) -> bool:
        """Whether the clock has been set by the network (NTP), so that `now` is the real time."""


class SystemWallClock:
    """The system's wall clock."""

    def now(self) -> float:
        return time.time()

    def synced(self) -> bool:
        return kernel_clock_synced()


def kernel_clock_synced() -> bool:
    """Whether the kernel's clock is synchronised: adjtimex(2) asked nothing (modes 0, allowed to
    any user) answers TIME_ERROR until an NTP daemon (systemd-timesyncd, chrony) has set it since
    the boot; a time restored by fake-hwclock is not. False where it cannot be asked (not Linux):
    a time the table cannot vouch for."""
    try:
        state = _adjtimex()(ctypes.create_string_buffer(TIMEX_BYTES))
    except (OSError, AttributeError):
        return False
    return 0 <= state < TIME_ERROR


@functools.cache
def _adjtimex():
    """The C library's adjtimex, looked up once (the table may ask at every pass of its loop)."""
    return ctypes.CDLL(None, use_errno=True).adjtimex
