"""One table at work: frames -> settle tracker -> reader -> flow, buttons -> flow, flow -> screen.

The runner owns no policy: the settle tracker says when the tray is still and readings agree,
the flow says what that means for the game. Whatever the camera, the reader or the buttons do,
an exception in them becomes a message on screen and in the log, never a crash of the table.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable

import numpy as np

from display.view import MessageView
from vision.left_things import things_in
from vision.settle import DiceMoved, FinalReading, SettleState, SettleTracker, StateChanged
from vision.types import BAD_FRAME, BLURRED, DICE_COVERED, Problem, Reading

from .table import TableFlow
from .tray_words import TRAY_ORDER, TRAY_TROUBLE, UNSTEADY

log = logging.getLogger(__name__)

Reader = Callable[[np.ndarray], Reading]


class VirtualClock:
    """Time that moves only when told to: headless runs are fast and repeatable."""

    def __init__(self, start: float = 0.0):
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        self.t += dt


class Repeats:
    """A failure that may repeat at every camera frame (20 a second): logged with its traceback
    the first time, then only at its 10th, 100th, 1,000th... time in a row, and once when it
    stops. A camera sending frames the tracker refuses logged a traceback for each of them: 13 KB
    a second, a gigabyte a day written to the card, every other line of the log pushed out."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.kind: str | None = None      # the failure repeating ("ValueError: ..."); None: none
        self.count = 0

    def failed(self, exc: Exception) -> bool:
        """Count `exc`; True when it is new (another kind than the last): say it then."""
        kind = f"{type(exc).__name__}: {exc}"
        if kind != self.kind:
            self.kind, self.count = kind, 1
            log.error("%s", self.what, exc_info=exc)
            return True
        self.count += 1
        if _power_of_ten(self.count):
            log.error("%s, again: %d times in a row (%s)", self.what, self.count, kind)
        return False

    def worked(self) -> None:
        if self.kind is not None:
            log.info("%s: works again after %d failures in a row", self.what, self.count)
            self.kind, self.count = None, 0


def _power_of_ten(n: int) -> bool:
    while n >= 10 and n % 10 == 0:
        n //= 10
    return n == 1


class TableRunner:
    def __init__(self, flow: TableFlow, tracker: SettleTracker, read: Reader, screen: Any = None):
        self.flow = flow
        self.tracker = tracker
        self.read = read
        self.screen = screen
        self.last_image: np.ndarray | None = None
        self.readings = 0
        self.last_read_ms = 0.0
        self.last_problems: set[str] = set()
        self.last_things: tuple[tuple[int, int, int, int], ...] = ()   # the last reading's things not dice
        self.settled = 0        # dice seen to come to rest (thrown or slid): someone is playing
        self.frame_failures = Repeats("a camera frame could not be processed")
        self.reader_failures = Repeats("the reader failed")

    # ------------------------------------------------------------------------------ camera
    def feed_frame(self, image: np.ndarray, timestamp: float,
                   full: Callable[[], np.ndarray | None] | None = None) -> None:
        """One camera frame. Cheap unless the tray is still and a reading is wanted.

        With a camera that has a low-resolution stream (picamera2), `image` is that stream and
        `full` fetches a full-resolution frame, only when the tracker wants a reading."""
        if full is None or self.last_image is None:
            self.last_image = image
        try:
            self.tracker.update(image, timestamp)
            if self.tracker.wants_reading:
                big = full() if full is not None else None
                if big is not None:
                    self.last_image = big
                self.tracker.offer(self._read(image if big is None else big), timestamp)
            events = self.tracker.drain_events()
        except Exception as exc:  # a broken frame must not stop the table
            first = self.frame_failures.failed(exc)
            # (kept on screen while it lasts; logged once, see Repeats)
            self.flow.say(f"Camera image could not be used ({type(exc).__name__}); waiting for the next one.",
                          "error", logged=first)
            return
        self.frame_failures.worked()
        for event in events:
            if isinstance(event, FinalReading) and event.found:
                self.flow.on_found_tray(event.reading)      # (lying there: nobody played)
            elif isinstance(event, FinalReading):
                self.settled += 1
                self.flow.on_reading(event.reading)
            elif isinstance(event, DiceMoved):
                self.settled += 1
                self.flow.on_dice_moved(event.reading, event.changed)
            elif isinstance(event, StateChanged) and event.new == SettleState.EMPTY:
                self.flow.on_tray_empty()
        if self.tracker.state == SettleState.MOVING:
            self.flow.on_tray_disturbed()       # (a reading shown waits for the tray to be still again)

    def _read(self, image: np.ndarray) -> Reading:
        self.readings += 1
        t0 = time.perf_counter()
        try:
            reading = self.read(image)
        except Exception as exc:
            self.reader_failures.failed(exc)
            reading = Reading((), (Problem(BAD_FRAME, f"reader failed: {type(exc).__name__}"),))
        else:
            self.reader_failures.worked()
            reading = self.tracker.read_around(reading)     # (a thing left lying there blocks nothing)
        self.last_read_ms = (time.perf_counter() - t0) * 1000
        codes = reading.problem_codes()
        if DICE_COVERED in codes and DICE_COVERED not in self.last_problems:
            # (the caption says it; the log keeps why a tray with a cup on it was not called empty)
            log.info("the dice last read are covered (a cup?): the tray is not empty; not a throw when seen again")
        self.last_problems = codes
        self.last_things = things_in(reading)
        return reading

    def camera_error(self, message: str) -> None:
        self.flow.say(f"Camera: {message}. Retrying...", "error")

    # ----------------------------------------------------------------------------- buttons
    def feed_button(self, event: Any) -> None:
        try:
            self.flow.on_button(event)
        except Exception as exc:  # pragma: no cover - the flow handles its own errors
            log.exception("button %s could not be handled", event)
            self.flow.say(f"Button {getattr(event, 'name', '?')} could not be handled ({exc}).", "error")

    # ------------------------------------------------------------------------------ screen
    def camera_note(self) -> str:
        """The tray's caption while there is no reading to show."""
        trouble = self.tray_trouble()
        if trouble is not None:
            return TRAY_TROUBLE[trouble][0]
        state = self.tracker.state
        if state == SettleState.MOVING:
            if self.tracker.last_motion < self.tracker.config.motion_fraction:
                # not settled yet, but nothing moved: the first frames after a start, or a still
                # tray not yet still for long enough (an empty tray was called "Dice moving...")
                return ""
            return "Dice moving..."
        if state == SettleState.EMPTY:
            return "Tray empty"
        return ""

    def tray_trouble(self) -> str | None:
        """What keeps the still tray from being read (a key of TRAY_TROUBLE), if anything: the
        last reading's problem that no reading can agree past, or readings that keep disagreeing."""
        tracker = self.tracker
        if tracker.final_reading() is not None or tracker.last_motion >= tracker.config.motion_fraction:
            return None
        for code in TRAY_ORDER:
            if code in self.last_problems and code != BLURRED:   # (a smeared frame alone: dice still rolling)
                return code
        if tracker.unsteady:
            return BLURRED if BLURRED in self.last_problems else UNSTEADY
        return None

    def tray_advice(self) -> MessageView | None:
        """The banner's words on what keeps the tray from being read, and what to do."""
        trouble = self.tray_trouble()
        return None if trouble is None else MessageView(TRAY_TROUBLE[trouble][1], "warning")

    def tray_things(self) -> tuple[tuple[int, int, int, int], ...]:
        """The things not dice to outline on the tray's picture: the last reading's, while the
        tray is still (moving, the hand or the thing may be elsewhere by now)."""
        if self.tracker.last_motion >= self.tracker.config.motion_fraction:
            return ()
        return self.last_things

    def draw(self) -> None:
        if self.screen is not None:
            self.screen.show(self.flow.view(self.last_image, self.camera_note(), self.tray_advice(),
                                            self.tray_things()))
