"""A camera driver's frame times, told from a frame delivered again.

`device_timestamps = true` drops a frame whose driver time (CAP_PROP_POS_MSEC) is not newer than
the last one delivered: a buffer handed out twice, or an old one still queued. But that time is
the driver's clock, and a driver that stamps frames with the wall clock (uvcvideo loaded with
`clock=realtime`, an older driver) moves them with it: a Raspberry Pi's clock set back (by the
network, from a clock that was ahead; by hand) made every frame after it "not newer", each one
dropped until the camera's time passed the last again (an hour, a day: *no new picture* all that
time, the game stopped). A queue holds a few frames, a second or so at the slowest camera: a
time gone back further than `CLOCK_SET_BACK_S` is the clock set back, and the frame is taken.
"""
from __future__ import annotations

import logging

log = logging.getLogger("hardware.frame_opencv")

#: a frame's time this far (s) behind the last delivered is the clock set back, not an old buffer
CLOCK_SET_BACK_S = 2.0


class DeviceClock:
    """The driver's time of the last frame delivered, and whether a frame's time is a new frame's."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.last: float | None = None       # s, the driver's clock (None: no frame yet)

    def reset(self) -> None:
        """The camera opened again: its first frame is new, whatever its time."""
        self.last = None

    def fresh(self, seconds: float) -> bool:
        """Whether a frame the driver timed at `seconds` is new (and counted from); False for a
        frame delivered again or an older one still queued. 0 or less: no time (always new)."""
        if seconds <= 0:
            return True
        last = self.last
        if last is not None and seconds <= last:
            if last - seconds < CLOCK_SET_BACK_S:
                return False
            log.warning("%s: the camera's frame times went back %.0f s (its driver stamps them with the "
                        "clock, and the clock set back): frames are taken from there", self.name, last - seconds)
        self.last = seconds
        return True
