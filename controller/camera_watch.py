"""What the table knows of its camera between pictures: an error its driver gives, pictures that
stop coming without one, pictures that are all black, pictures that come too slowly
(controller/table_app.py).

Out of `TableApp` (fix-appsplit): the app reads the camera each pass and says changes in the
banner; this keeps what was seen and builds the notice that stays on screen while the camera is
down (a message said once fades after a few seconds; players would then throw dice that are
never read). Times come from the app's clock, passed at each call: the app's clock may be
replaced (tests do), and each look reads it as often as it did inside the app.
"""
from __future__ import annotations

import logging
from typing import Any, Callable

from display.view import MessageView
from vision.reader_input import black_picture

from .slow_camera import SlowCameraWatch

# (the staff's log filters read these lines as the app's: its name is kept)
log = logging.getLogger("controller.table_app")

# A camera that has sent pictures and then sends none for this long, with no error, has hung
# (a driver that stalls, or one that repeats a frame the source drops as not new).
CAMERA_QUIET_SECONDS = 3.0

Clock = Callable[[], float]


class CameraWatch:
    """The camera's health as the table loop sees it, one picture (or none) at a time."""

    def __init__(self) -> None:
        self.error = ""                              # the camera's error as last looked at ("": none)
        self.last_frame_at: float | None = None      # (None: no picture yet, the camera is starting)
        self.black_since: float | None = None        # since when every picture has been black
        self.black_said = False
        self.slow = SlowCameraWatch()                # pictures too far apart: throws read slowly

    def error_changed(self, problem: Any) -> str | None:
        """The camera's error `problem` (looked at once by the caller: the camera's thread may
        clear it between two looks, and the screen said "Camera: None. Retrying..."): the new
        error when it changed ("": the camera is back), None when it is as it was."""
        error = str(problem) if problem else ""
        if error == self.error:
            return None
        self.error = error
        if error:
            self.slow.interrupted()
        return error

    def picture(self, image: Any, clock: Clock) -> None:
        """A picture came: the camera is not quiet, its pace is counted, its blackness looked at."""
        self.last_frame_at = clock()
        self.slow.frame(self.last_frame_at)
        self._watch_black(image, clock)

    def _watch_black(self, image: Any, clock: Clock) -> None:
        """A camera sending black pictures: before, the table said "Tray empty" and dice thrown
        were never seen, with no word of the camera (a lens covered, the lamp over the tray off)."""
        if not black_picture(image):
            if self.black_said:
                log.info("camera: pictures are no longer black")
            self.black_since, self.black_said = None, False
            return
        if self.black_since is None:
            self.black_since = clock()
        elif not self.black_said and self.black(clock):
            log.warning("camera: every picture black for %.0f s: lens covered, the light over the tray off, or the "
                        "camera failing", clock() - self.black_since)
            self.black_said = True

    def black(self, clock: Clock) -> bool:
        """Whether every picture has been black for a while (not one dark frame as a hand passes)."""
        return self.black_since is not None and clock() - self.black_since >= CAMERA_QUIET_SECONDS

    def quiet(self, clock: Clock) -> bool:
        """Whether the camera has stopped sending pictures without saying why: the screen kept
        its last picture as if live, and dice thrown meanwhile were never read, without a word."""
        # (a camera known to be slow, said so, is quiet only past twice its gap: a picture every 3.5 s
        # made the screen flap between "no new picture" and the slow camera at every picture)
        quiet_s = max(CAMERA_QUIET_SECONDS, 2 * (self.slow.slow_s or 0.0))
        return self.last_frame_at is not None and clock() - self.last_frame_at >= quiet_s

    def notice(self, clock: Clock) -> MessageView | None:
        """What stays on screen of the camera while it is down or slow (None: it works)."""
        if self.error:
            return MessageView(f"Camera: {self.error}. Retrying...", "error")
        if self.quiet(clock):
            return MessageView("Camera: no new picture for a few seconds. Dice thrown now are not seen; "
                               "waiting for it...", "error")
        if self.black(clock):
            return MessageView("Camera: the picture is black (too dark to see dice). Is the lens covered, or the "
                               "light over the tray off? Dice thrown now are not seen.", "error")
        if self.slow.slow_s is not None:
            return MessageView(self.slow.words(), "warning")
        return None
