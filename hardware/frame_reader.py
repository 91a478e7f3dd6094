"""A camera read on a thread of its own, so that a camera that hangs never holds the table up.

A USB webcam that stops streaming makes OpenCV's grab wait 10 s (V4L2's limit) for a frame that
never comes, and its opening (and warm-up) can wait as long. Read on the table's loop, each such
wait froze the screen and the buttons with it: presses did nothing, the banner stood still, and
the problem was said only once the wait was over.

`FrameReader` owns the source: its one thread opens, reads, reconnects and closes it (never two
threads touching one cv2.VideoCapture), and hands the newest frame over through one slot (a frame
not taken is replaced by a newer one: memory is one frame, whatever the loop does). `read()` never
waits. While a call to the camera has been waiting `ANSWER_S` or more, `error` says so, so the
screen names the problem during the wait, not after it.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from .frames import Clock, Frame, FrameSourceError

log = logging.getLogger(__name__)

#: a call to the camera that has waited this long (a frame comes every 33-200 ms) has hung: said
#: on screen while it waits (ASSUMPTION: as long as the table's "no new picture" notice waits)
ANSWER_S = 3.0
#: the same for the camera's first opening, which includes its warm-up (1 s and 10 frames, more on a
#: slow Pi): no "does not answer" at every start
OPEN_ANSWER_S = 10.0
#: a frame left in the slot this long is replaced by a newer one: the loop, busy reading dice,
#: takes the tray as it is now, not as it was (about two frame periods of a webcam)
FRESH_S = 0.1
#: how long the thread waits before asking again when the source gave nothing (a retry's backoff
#: is measured by the source; this only keeps the thread from spinning)
IDLE_S = 0.02
#: how long the table's loop waits for a full-resolution frame (the Pi camera's: asked for only when
#: the tray is still and a reading is wanted) before it reads the low-resolution one instead
#: (ASSUMPTION: 2-5 frame periods at 10-30 fps; before, the loop waited for the camera however long)
FULL_WAIT_S = 0.3
#: a camera whose picture came after `ANSWER_S` or more is slow, not hung (a picture every 3.5 s: a
#: webcam short of USB bandwidth): its reads are then given twice the longest such wait, up to this
#: (V4L2's own limit), before it is said not to answer, until a read answers within half `ANSWER_S`
#: again. Before, each of its pictures was "does not answer" then "Camera back.": three log lines a
#: picture, and the screen flapping between the two
SLOW_ANSWER_MAX_S = 10.0
#: how long `close()` waits for the thread: a read hung in the driver may not end for 10 s, and
#: the table must stop well within systemd's stop timeout (the thread is a daemon: it ends with
#: the program)
CLOSE_WAIT_S = 2.0


@dataclass(frozen=True, eq=False)
class _Call:
    """A call to the camera under way: when it began, and how long it may take before it is said
    not to answer. A new object for each call, so that what the loop said of one is never taken
    for what it says of the next (compared by identity)."""

    since: float
    within: float


class FrameReader:
    """Reads `source` (a RetryingFrameSource: its reads never raise) on a daemon thread; the
    table's loop takes the newest frame with `read()`, which returns at once (None: no new one).

    Figures for the benchmark: `delivered` frames taken, `replaced` frames read and never taken,
    `longest_wait_s` the longest a single call to the camera took."""

    #: the source's method whose frames go through the slot
    stream = "read"

    def __init__(self, source: Any, *, clock: Clock | None = None, fresh_s: float = FRESH_S,
                 idle_s: float = IDLE_S, answer_s: float = ANSWER_S, close_wait_s: float = CLOSE_WAIT_S) -> None:
        self.source = source
        self.clock = clock or time.monotonic
        self.fresh_s, self.idle_s, self.answer_s, self.close_wait_s = fresh_s, idle_s, answer_s, close_wait_s
        self.delivered = 0
        self.replaced = 0
        self.longest_wait_s = 0.0
        self._lock = threading.Lock()
        self._frame: Frame | None = None
        self._taken = threading.Event()          # the slot is empty: read the next frame now
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._calling: _Call | None = None       # the call to the camera under way (the thread's)
        self._hung: tuple[_Call, FrameSourceError] | None = None     # that call said hung (the loop's)
        self._failed: FrameSourceError | None = None     # the thread itself failed (a bug)
        self.patience_s: float | None = None     # a slow camera's reads: how long before "does not answer"

    @property
    def name(self) -> str:
        return getattr(self.source, "name", "camera")

    @property
    def finished(self) -> bool:
        return bool(getattr(self.source, "finished", False))

    @property
    def error(self) -> FrameSourceError | None:
        """The source's own error, else, while a call to it has waited `answer_s` or more, that.

        Each of the thread's values is looked at once: the thread may change it between two looks
        (the source's error cleared by a frame, a call ended and the next begun). Before, a call
        that ended during the look left its "does not answer" standing for the next one, which then
        hung unsaid in the log, and the source's error read twice could be None the second time."""
        failed, error, call = self._failed, self.source.error, self._calling
        if failed is not None:
            return failed
        if error is not None:
            return error
        if call is None or self.clock() - call.since < call.within:
            return None
        hung = self._hung
        if hung is None or hung[0] is not call:     # (the same words while this call lasts: said once)
            hung = (call, FrameSourceError(f"no picture for {call.within:g} s or more: it does not answer "
                                           "(unplugged, or its USB port short of power)", self.name))
            self._hung = hung
            log.warning("%s", hung[1])
        return hung[1]

    # -- the table's side -----------------------------------------------------------------
    def open(self) -> None:
        """Start the thread, which opens the source (an opening that hangs holds up no one)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._taken.set()
        self._thread = threading.Thread(target=self._run, name=f"camera-{self.name}", daemon=True)
        self._thread.start()

    def read(self) -> Frame | None:
        """The newest frame not yet taken, or None; never waits for the camera."""
        with self._lock:
            frame, self._frame = self._frame, None
            if frame is not None:
                self.delivered += 1
                self._taken.set()
        return frame

    def close(self) -> None:
        """Stop the thread (it closes the source). A call hung in the driver is not waited for
        beyond `close_wait_s`: the thread is left to end with the program, and the log says so."""
        thread, self._thread = self._thread, None
        self._stop.set()
        self._taken.set()
        if thread is None:
            return
        thread.join(self.close_wait_s)
        if thread.is_alive():
            call = self._calling
            log.warning("%s: the camera has not answered for %.0f s: not waited for at exit", self.name,
                        self.clock() - call.since if call is not None else 0.0)

    def __enter__(self) -> "FrameReader":
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the thread's side ----------------------------------------------------------------
    def _serve_full(self) -> bool:
        """A full-resolution frame asked for (TwoStreamReader): read it now; whether one was."""
        return False

    def _asked(self) -> bool:
        """Whether the table waits for a full-resolution frame (TwoStreamReader)."""
        return False

    def _call(self, method: str, within: float | None = None) -> Any:
        """`source.method()`, timed: once it has waited `within` (else `answer_s`), `error` says the
        camera does not answer."""
        if within is None:
            within = max(self.answer_s, self.patience_s or 0.0)
        call = _Call(self.clock(), within)
        self._calling = call                    # (one assignment: the loop sees a whole call or none)
        result = None
        try:
            result = getattr(self.source, method)()
            return result
        finally:
            self._calling = None
            waited = self.clock() - call.since
            self.longest_wait_s = max(self.longest_wait_s, waited)
            if method != "open":
                self._paced(waited, result is not None)

    def _paced(self, waited: float, answered: bool) -> None:
        """A read took `waited`: a picture after `answer_s` or more is a slow camera (given more
        time from now on, said once), one within half of it a camera quick again."""
        if answered and waited >= self.answer_s:
            patience = min(SLOW_ANSWER_MAX_S, 2 * waited)
            if self.patience_s is None:
                log.info("%s: a picture came after %.1f s: the camera is slow, not hung; %.0f s without a picture "
                         "before it is said not to answer", self.name, waited, patience)
            self.patience_s = max(self.patience_s or 0.0, patience)
        elif answered and self.patience_s is not None and waited < self.answer_s / 2:
            log.info("%s: the camera answers quickly again", self.name)
            self.patience_s = None

    def _run(self) -> None:
        try:
            self._call("open", max(self.answer_s, OPEN_ANSWER_S))
            while not self._stop.is_set():
                self._taken.wait(self.fresh_s)      # (taken, or left long enough to be replaced)
                if self._stop.is_set():
                    break
                if self._serve_full():
                    continue
                frame = self._call(self.stream)
                if frame is None:
                    if self.finished:
                        break
                    self._stop.wait(self.idle_s)
                    continue
                with self._lock:
                    if self._frame is not None:
                        self.replaced += 1
                    self._frame = frame
                    if not self._asked():           # (a full frame asked for meanwhile: no waiting)
                        self._taken.clear()
        except Exception as exc:        # (a RetryingFrameSource raises nothing; a bug must not go unsaid)
            log.exception("%s: the camera's thread failed", self.name)
            self._failed = FrameSourceError(f"the camera's reading stopped ({type(exc).__name__}: {exc}); "
                                            "restart the table", self.name)
        finally:
            try:
                self.source.close()
            except Exception:
                log.warning("%s: closing the camera failed", self.name, exc_info=True)


class TwoStreamReader(FrameReader):
    """A camera with a low-resolution stream (picamera2): the thread reads that one for the slot
    (`read_lores()`, as the table watches motion on it), and a full-resolution frame when the
    table asks for one (`read()`: the tray is still, a reading is wanted), which the loop waits
    for `full_wait_s` at most (None then: the table reads the low-resolution frame)."""

    stream = "read_lores"

    def __init__(self, source: Any, *, full_wait_s: float = FULL_WAIT_S, **kw: Any) -> None:
        super().__init__(source, **kw)
        self.full_wait_s = full_wait_s
        self.full_missed = 0                    # full frames asked for and not come in time
        self._full: Frame | None = None
        self._full_wanted = threading.Event()
        self._full_ready = threading.Event()

    def read_lores(self) -> Frame | None:
        """The newest low-resolution frame not yet taken, or None; never waits."""
        return FrameReader.read(self)

    def read(self) -> Frame | None:
        """A full-resolution frame read from now on, waited for `full_wait_s` at most."""
        with self._lock:
            self._full = None                   # (one asked for before and come late is old)
            self._full_ready.clear()
            self._full_wanted.set()
            self._taken.set()                   # (wake the thread)
        if not self._full_ready.wait(self.full_wait_s):
            self.full_missed += 1
            return None
        with self._lock:
            frame, self._full = self._full, None
        return frame

    def _asked(self) -> bool:
        return self._full_wanted.is_set()

    def _serve_full(self) -> bool:
        if not self._full_wanted.is_set():
            return False
        self._full_wanted.clear()
        frame = self._call("read")
        with self._lock:
            if not self._full_wanted.is_set():  # (else asked again meanwhile: that frame is too old)
                self._full = frame
                self._full_ready.set()
        return True


def table_frames(camera: Any) -> Any:
    """The camera as the table's loop reads it: retried when it fails, and on a thread of its own
    when its reads can hang (`may_hang`: a webcam, the Pi camera), which are also watched for a
    picture frozen (hardware.frozen); folders and generated frames are read on the loop as before."""
    from .frozen import FrozenWatch
    from .retry import RetryingFrameSource

    if not getattr(camera, "may_hang", False):
        return RetryingFrameSource(camera)
    # (a live camera only: its copies of one picture are a freeze, where a folder repeats on purpose)
    frames = RetryingFrameSource(FrozenWatch(camera))
    return TwoStreamReader(frames) if hasattr(camera, "read_lores") else FrameReader(frames)
