"""Keep going when a device fails: exponential backoff, and a frame source that self-heals.

The table must keep running with the camera unplugged (showing why) and pick it up again
when it is plugged back; the controller should not have to write that loop itself.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable

from .frames import Clock, Frame, FrameSource, FrameSourceError

log = logging.getLogger(__name__)


class Backoff:
    """Delays initial, initial*factor, ... capped at maximum; `reset()` after a success."""

    def __init__(self, initial: float = 0.5, maximum: float = 10.0, factor: float = 2.0) -> None:
        if initial <= 0 or maximum < initial or factor < 1:
            raise ValueError("backoff needs 0 < initial <= maximum and factor >= 1")
        self.initial = float(initial)
        self.maximum = float(maximum)
        self.factor = float(factor)
        self._next = self.initial

    def next_delay(self) -> float:
        delay = self._next
        self._next = min(self._next * self.factor, self.maximum)
        return delay

    def reset(self) -> None:
        self._next = self.initial


class RetryingFrameSource:
    """Wraps a FrameSource so `read()` never raises: errors are kept in `error` for the screen.

    After an error (a FrameSourceError, or any other a driver raises) the source is closed and
    `reconnect()` is tried again when the backoff delay (measured on `clock`) has passed;
    meanwhile reads return None. The first frame after a reconnect clears `error` (and the
    backoff): a webcam that opens but sends no picture is not "working again" at every reopen,
    which made the screen say *Camera back.* and the problem in turn, and retried it every 0.5 s
    for ever.
    """

    def __init__(self, source: FrameSource, *, clock: Clock | None = None, backoff: Backoff | None = None) -> None:
        self.source = source
        self.clock = clock or time.monotonic
        self.backoff = backoff or Backoff()
        self.error: FrameSourceError | None = None
        self._retry_at: float | None = None  # None: the source is believed healthy

    @property
    def name(self) -> str:
        return getattr(self.source, "name", "camera")

    def open(self) -> None:
        """Open, remembering (not raising) a failure; retries happen in read()."""
        self._attempt(self.source.open)

    def close(self) -> None:
        self.source.close()

    def _fail(self, exc: Exception) -> None:
        if not isinstance(exc, FrameSourceError):
            # A driver's own error (picamera2's RuntimeError when the camera has gone away while
            # its controls are set, libcamera's timeouts): the same as a FrameSourceError to the
            # table. Let through, it stopped the table's loop before the buttons and the screen.
            log.warning("%s: unexpected camera error", self.name, exc_info=exc)
            exc = FrameSourceError(f"{type(exc).__name__}: {exc}", self.name)
        if self.error is None or str(exc) != str(self.error):
            log.warning("%s", exc)
        self.error = exc
        try:
            self.source.close()
        except Exception:           # (a camera that has gone away may fail to close too)
            log.warning("%s: closing after an error failed", self.name, exc_info=True)
        self._retry_at = self.clock() + self.backoff.next_delay()

    def _attempt(self, action: Callable[[], Any]) -> bool:
        try:
            action()
        except Exception as exc:
            self._fail(exc)
            return False
        self._retry_at = None
        return True

    def _working(self) -> None:
        """The source delivers: the problem is over (said once) and the backoff starts afresh."""
        if self.error is not None:
            log.info("%s: working again", self.name)
        self.error = None
        self.backoff.reset()

    def _call(self, method: str) -> Any:
        if self._retry_at is not None:
            if self.clock() < self._retry_at or not self._attempt(self.source.reconnect):
                return None
        try:
            frame = getattr(self.source, method)()
        except Exception as exc:
            self._fail(exc)
            return None
        if frame is not None:
            self._working()
        return frame

    def read(self) -> Frame | None:
        return self._call("read")

    def read_lores(self) -> Frame | None:
        """Low-res read when the source has one (picamera2), else the normal read."""
        return self._call("read_lores" if hasattr(self.source, "read_lores") else "read")
