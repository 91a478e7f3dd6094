"""A camera whose pictures reach the table too slowly, said once (controller/table_app.py).

The settle tracker calls dice at rest after 5 still frames and 3 readings that agree: 0.5 s at a
webcam's usual 10-30 pictures a second, but 11 s a throw with a picture every 2 s (a webcam short
of USB bandwidth or power on a shared hub, a camera set to a slow frame rate, a Pi camera's long
exposures in a dark room). The table said nothing of it: a picture came before its "no new
picture" notice (3 s), so the players waited for every throw without a word, and the staff had
nothing to look at. Now a typical gap between pictures of `SLOW_S` or more is named on screen
while it lasts and in the log once, and a line is logged when the pictures come quickly again.
"""
from __future__ import annotations

import logging
from collections import deque
from statistics import median

log = logging.getLogger(__name__)

#: ASSUMPTION: pictures this far apart (a typical gap: the median of the last `GAPS`) make a throw
#: take 4 s or more to be read (measured: 3.1 s at 0.5 s, 11 s at 2 s): players notice, staff must be told
SLOW_S = 0.75
#: ...and pictures this close again are a camera that works as it should (a gap between the two
#: does not make the notice come and go)
QUICK_S = 0.4
#: the gaps looked at: the median of 8 lets a pause of the table's own (a card drawn, a reading on a
#: slow Pi) or a few late frames pass, where a camera slow for good is seen within 8 of its pictures
GAPS = 8


class SlowCameraWatch:
    """The gaps between the pictures the table's loop gets; `slow_s` is the typical gap while it is
    said slow (None: not slow). Gaps are measured on the table's clock, as the players wait."""

    def __init__(self, slow_s: float = SLOW_S, quick_s: float = QUICK_S, gaps: int = GAPS) -> None:
        self.slow_at, self.quick_at = slow_s, quick_s
        self.slow_s: float | None = None
        self._last: float | None = None
        self._gaps: deque[float] = deque(maxlen=gaps)

    def frame(self, now: float) -> None:
        """A picture reached the table at `now`."""
        if self._last is not None:
            self._gaps.append(now - self._last)
        self._last = now
        if len(self._gaps) < (self._gaps.maxlen or 1):
            return
        typical = median(self._gaps)
        if self.slow_s is None and typical >= self.slow_at:
            self.slow_s = typical
            log.warning("camera: one picture every %.1f s reaches the table (it should be several a second): dice "
                        "thrown take %.0f s or more to be read. A webcam short of USB bandwidth or power (a shared "
                        "hub?), or a slow frame rate or long exposure in [camera]?", typical, 5 * typical)
        elif self.slow_s is not None and typical < self.quick_at:
            log.info("camera: pictures come quickly again (one every %.2f s; slow before: one every %.1f s)",
                     typical, self.slow_s)
            self.slow_s = None

    def interrupted(self) -> None:
        """The camera failed or is being opened again: the time without pictures is no gap (the
        screen says why meanwhile), and the gaps are measured afresh once it sends again."""
        self._last = None
        self._gaps.clear()

    def words(self) -> str:
        """What the screen says while the camera is slow."""
        return f"Camera slow: a picture every {self.slow_s:.1f} s, dice read late. Call staff: check its USB cable."
