"""This program's own peak memory, as the demo and the table benchmark report it.

Why not `getrusage().ru_maxrss`: on Linux a program started from a bigger one (the benchmark
launching the demo) inherits its parent's high-water mark at exec, so the figure would be the
larger of the two. The kernel's VmHWM belongs to this program's own memory map only.
"""
from __future__ import annotations

import resource


def _status_mb(field: str) -> float | None:
    """A memory line of /proc/self/status ("VmHWM", "VmRSS") in MB; None where /proc is absent."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024.0   # kB
    except (OSError, ValueError, IndexError):
        pass
    return None


def peak_rss_mb() -> float:
    """Peak resident memory of this process in MB (VmHWM; ru_maxrss where /proc is absent)."""
    peak = _status_mb("VmHWM")
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def resident_mb() -> float:
    """Resident memory of this process now in MB (VmRSS; NaN where /proc is absent)."""
    now = _status_mb("VmRSS")
    return now if now is not None else float("nan")
