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

from vision.settle import DiceMoved, FinalReading, SettleState, SettleTracker, StateChanged
from vision.types import BAD_FRAME, FOREIGN_OBJECT, Problem, Reading

from .table import TableFlow

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
        self.settled = 0        # dice seen to come to rest (thrown or slid): someone is playing

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
            log.exception("frame %s could not be processed", timestamp)
            self.flow.say(f"Camera image could not be used ({type(exc).__name__}); waiting for the next one.",
                          "error")
            return
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

    def _read(self, image: np.ndarray) -> Reading:
        self.readings += 1
        t0 = time.perf_counter()
        try:
            reading = self.read(image)
        except Exception as exc:
            log.exception("the reader failed")
            reading = Reading((), (Problem(BAD_FRAME, f"reader failed: {type(exc).__name__}"),))
        self.last_read_ms = (time.perf_counter() - t0) * 1000
        self.last_problems = reading.problem_codes()
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
        state = self.tracker.state
        if state == SettleState.MOVING:
            if FOREIGN_OBJECT in self.last_problems:
                return "Something that is not a die is in the tray"
            if self.tracker.last_motion < self.tracker.config.motion_fraction:
                # not settled yet, but nothing moved: the first frames after a start, or a still
                # tray not yet still for long enough (an empty tray was called "Dice moving...")
                return ""
            return "Dice moving..."
        if state == SettleState.EMPTY:
            return "Tray empty"
        if self.tracker.unsteady:
            return "Readings disagree: straighten the dice or throw again"
        return ""

    def draw(self) -> None:
        if self.screen is not None:
            self.screen.show(self.flow.view(self.last_image, self.camera_note()))
