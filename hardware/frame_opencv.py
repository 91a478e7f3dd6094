"""Frames from a USB webcam (or any device/file cv2.VideoCapture can open).

A webcam's /dev node is opened with OpenCV's V4L2 backend first (given a path OpenCV would try
FFMPEG and GStreamer before it). What the camera gives (size, pixel format, frame rate) is kept
and what differs from the config is said (`notes`, logged and shown by `dicetable check`). Its
automatic exposure, white balance and focus are frozen after a warm-up (webcam_controls.py).

V4L2 keeps a few buffers queued, and when they are all full a UVC webcam drops the new frames,
not the old ones: a table that reads more slowly than the camera sends (20 times a second at
most, less while it reads dice) was given pictures as old as the queue is long, so the settle
tracker saw the dice still rolling after they had stopped. We ask for a 1-frame buffer (not all
drivers and backends honour it) and, when frames may have queued since the last read, grab and
discard them until a grab has to wait for the camera: that frame is the tray as it is now.
"""
from __future__ import annotations

import logging
import os
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

import cv2

from ._config import boolean, check_keys, positive, text, whole
from . import device_paths
from .device_clock import DeviceClock
from .device_paths import is_pattern, matches
from .device_words import camera_words
from .frames import BaseFrameSource, Clock, Frame, FrameSourceError, to_bgr_uint8
from .light_watch import LightWatch, light
from .webcam_controls import EXPOSURE, FOCUS, WHITE_BALANCE, AutoControl, freeze, set_auto, sharpness

log = logging.getLogger(__name__)

#: cv2.VideoCapture's signature: (device, apiPreference) -> a capture
CaptureFactory = Callable[[int | str, int], Any]

#: udev's links named after each camera (vendor, model, serial): they follow it to whatever
#: /dev/videoN it gets, where the number changes when it is plugged back while still held
V4L_BY_ID = "/dev/v4l/by-id"


#: below this frame rate the dice are seen to stop late (the settle tracker waits for 6 still
#: frames: 0.2 s at 30 fps, 1.2 s at 5 fps, which many webcams give in YUYV at 1280x720 on USB 2)
SLOW_FPS = 15.0
#: the light of the frames may change this much (either way) when the auto controls are frozen;
#: more, and the camera jumped to a value of its own instead of keeping the one it had chosen
LOCK_JUMP = 1.5
#: the frames may turn this much less sharp when the focus is frozen; more, and it jumped
LOCK_BLUR = 2.0
#: frames read after freezing before the light is compared (the new values take a frame or two)
LOCK_SETTLE_FRAMES = 3
#: a read that waited this long for nothing: the camera stalled (V4L2 gives up after 10 s)
STALLED_S = 2.0
#: why a read failed when the camera sent nothing (the other reasons say what it sent)
NO_PICTURE = "no picture"
#: a grab that took this long waited for the camera's next frame: what came before was queued
WAITED_S = 0.004
#: the frame period assumed when the camera does not report its rate (a webcam's usual 30 fps)
DEFAULT_FRAME_PERIOD_S = 1 / 30


#: OpenCV's log level for its errors alone (cv::utils::logging::LOG_LEVEL_ERROR)
OPENCV_ERRORS_ONLY = 2


def quiet_opencv() -> None:
    """OpenCV's own warnings off, its errors kept, unless OPENCV_LOG_LEVEL (a developer's) says
    otherwise. With the webcam unplugged, every try to open it again printed *[ WARN:2@16.824]
    global cap.cpp:204 open VIDEOIO(V4L2): backend is generally available but can't be used to
    capture by name*: every 10 s, 360 lines an hour of the staff's log, filed as info, that the
    table's own line (*cannot open camera '/dev/video0' (unplugged or in use?)*) already says."""
    if "OPENCV_LOG_LEVEL" not in os.environ:
        cv2.setLogLevel(OPENCV_ERRORS_ONLY)


def _default_capture_factory(device: int | str, api: int) -> Any:
    quiet_opencv()
    return cv2.VideoCapture(device, api)


def backends_for(device: int | str, platform: str = sys.platform) -> list[int]:
    """The OpenCV backends to open `device` with, in order. Given a path, OpenCV tries FFMPEG and
    GStreamer before V4L2 (its file backends come first), and for an index GStreamer first: a
    slow start, and a webcam in another pixel format than V4L2 would pick. So on Linux a /dev node
    (an index, /dev/videoN, a by-id link) is opened with V4L2 itself, then with whatever OpenCV
    picks when V4L2 will not; anything else (a video file, a URL) only the latter."""
    node = device_node(device)
    if platform.startswith("linux") and node is not None and node.startswith("/dev/"):
        return [cv2.CAP_V4L2, cv2.CAP_ANY]
    return [cv2.CAP_ANY]


def parse_device(device: int | str) -> int | str:
    """"0" or 0 -> camera index 0; anything else (e.g. "/dev/video2", a file) stays a string."""
    if isinstance(device, bool):
        raise ValueError(f"[camera] device must be an index or a path, got {device!r}")
    if isinstance(device, int):
        return device
    if not isinstance(device, str):
        raise ValueError(f"[camera] device must be an index or a path, got {device!r}")
    text = device.strip()
    # (ASCII digits: "²".isdigit() is true, and int() refused it without naming the key)
    return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else text


def device_node(device: int | str) -> str | None:
    """The /dev node `device` names (an index N is /dev/videoN; a link is followed), or None for
    what is not a device path (a video file's relative name, a URL)."""
    if isinstance(device, int):
        return f"/dev/video{device}"
    return os.path.realpath(device) if device.startswith("/") else None


def stable_links(node: str | None, by_id_dir: str = V4L_BY_ID) -> list[str]:
    """The links of `by_id_dir` that point at `node`, sorted: the camera's own names."""
    return device_paths.stable_links(node, by_id_dir)


@dataclass(frozen=True)
class CameraMode:
    """What a capture says it gives: the size, the pixel format and the frame rate (0: unknown)."""

    width: int
    height: int
    fourcc: str
    fps: float

    def __str__(self) -> str:
        parts = [f"{self.width}x{self.height}", self.fourcc, f"at {self.fps:g} fps" if self.fps else ""]
        return " ".join(p for p in parts if p)


def fourcc_text(code: float) -> str:
    """The four letters of a CAP_PROP_FOURCC value ("MJPG"), "" when it is none."""
    number = int(code) if code == code and 0 < code < 2 ** 32 else 0
    letters = "".join(chr((number >> (8 * i)) & 0xFF) for i in range(4))
    return letters.strip() if number and letters.isprintable() else ""


def _number(cap: Any, prop: int) -> float:
    """`cap.get(prop)`, 0 when the backend cannot say (-1, nan, an error)."""
    try:
        value = float(cap.get(prop))
    except Exception:               # (cv2.error from a backend that has no such property)
        return 0.0
    return value if value == value and value > 0 else 0.0


def _backend_name(cap: Any) -> str:
    """The name of the backend `cap` was opened by, "" when it does not say."""
    try:
        return str(cap.getBackendName())
    except Exception:               # (cv2.error for a capture that is not open; a stand-in without it)
        return ""


class OpenCVFrameSource(BaseFrameSource):
    """cv2.VideoCapture by index or path, with resolution request and failure counting.

    A single failed read returns None (a glitch); `max_failures` failures in a row raise
    FrameSourceError (the camera is gone), and so does one read that waited `STALLED_S` for
    nothing (the camera stalled). With `device_timestamps`, a frame whose
    CAP_PROP_POS_MSEC is not newer than the last delivered one is dropped as a duplicate.
    Frame timestamps are always taken from `clock` so every source shares one time base.
    """

    #: a read can wait 10 s for a camera that stopped streaming: the table reads it on a thread of
    #: its own (frame_reader.FrameReader), its loop never waiting for it
    may_hang = True

    def __init__(
        self,
        device: int | str = 0,
        *,
        width: int | None = None,
        height: int | None = None,
        fps: float | None = None,
        fourcc: str | None = None,
        max_failures: int = 5,
        idle_flush_s: float | None = None,
        flush_frames: int = 4,
        device_timestamps: bool = False,
        lock_exposure: bool = True,
        lock_white_balance: bool = True,
        lock_focus: bool = True,
        warmup_frames: int = 10,
        warmup_s: float = 1.0,
        warmup_max_frames: int = 300,
        relock_ratio: float = 1.6,
        relock_after_s: float = 5.0,
        capture_factory: CaptureFactory | None = None,
        clock: Clock | None = None,
        name: str = "opencv",
        by_id_dir: str = V4L_BY_ID,
    ) -> None:
        super().__init__()
        self.device = parse_device(device)
        self.width = whole(width, "width", "camera", low=1, high=10000) if width is not None else None
        self.height = whole(height, "height", "camera", low=1, high=10000) if height is not None else None
        self.fps = positive(fps, "fps", "camera") if fps is not None else None
        if fourcc is not None and len(text(fourcc, "fourcc", "camera")) != 4:
            raise ValueError(f"[camera] fourcc must be 4 characters, got {fourcc!r}")
        self.fourcc = fourcc
        self.max_failures = whole(max_failures, "max_failures", "camera", low=1)
        # (None: the camera's frame period; frames can have queued only after that long)
        self.idle_flush_s = (positive(idle_flush_s, "idle_flush_s", "camera", allow_zero=True)
                             if idle_flush_s is not None else None)
        self.flush_frames = whole(flush_frames, "flush_frames", "camera", low=0)
        self.device_timestamps = boolean(device_timestamps, "device_timestamps", "camera")
        # ASSUMPTION: a webcam's automatic exposure, white balance and focus are frozen after a
        # warm-up of 10 frames and 1 s, as the Pi camera's are; false leaves that one alone
        self.lock_exposure = boolean(lock_exposure, "lock_exposure", "camera")
        self.lock_white_balance = boolean(lock_white_balance, "lock_white_balance", "camera")
        self.lock_focus = boolean(lock_focus, "lock_focus", "camera")
        self.warmup_frames = whole(warmup_frames, "warmup_frames", "camera", low=0)
        self.warmup_s = positive(warmup_s, "warmup_s", "camera", allow_zero=True)
        self.warmup_max_frames = max(self.warmup_frames, whole(warmup_max_frames, "warmup_max_frames", "camera",
                                                               low=1))
        # ASSUMPTION (as picamera2's): light 1.6 times brighter or darker for 5 s is the room's,
        # not a passing hand, and the exposure is measured again (0: never)
        relock = positive(relock_ratio, "relock_ratio", "camera", allow_zero=True)
        if 0 < relock <= 1:
            raise ValueError(f"[camera] relock_ratio must be 0 or more than 1, got {relock_ratio!r}")
        self.light_watch = LightWatch(relock, positive(relock_after_s, "relock_after_s", "camera"))
        self.capture_factory = capture_factory or _default_capture_factory
        self.clock = clock or time.monotonic
        self.name = text(name, "name", "camera")
        self.by_id_dir = by_id_dir
        self.cap: Any = None
        self.backend = ""                     # the OpenCV backend that opened it ("V4L2")
        self.mode: CameraMode | None = None   # what it says it gives
        self.notes: list[str] = []            # how that differs from what was asked (for the staff)
        self.locked: dict[str, float] = {}    # the auto controls frozen after the warm-up, by name
        self.relocks = 0                      # how often the room's light made them measured again
        self._backends_said: set[str] = set()
        self.opened: str | None = None        # the device node the camera was last opened as
        self.known: str | None = None         # its by-id link, tried first when it comes back
        self.failures = 0
        self.dropped = 0
        self.flushed = 0                      # frames grabbed and discarded as queued (old)
        self.buffers = 0                      # the buffers the capture says it keeps (0: unknown)
        self.frame_period_s = DEFAULT_FRAME_PERIOD_S
        self._last_read_at: float | None = None
        self._device_clock = DeviceClock(self.name)   # (device_timestamps: the driver's frame times)

    @classmethod
    def from_config(
        cls, config: dict[str, Any], *, capture_factory: CaptureFactory | None = None, clock: Clock | None = None,
        by_id_dir: str = V4L_BY_ID,
    ) -> "OpenCVFrameSource":
        keys = {"device", "width", "height", "fps", "fourcc", "max_failures", "idle_flush_s",
                "flush_frames", "device_timestamps", "name", "lock_exposure", "lock_white_balance", "lock_focus",
                "warmup_frames", "warmup_s", "warmup_max_frames", "relock_ratio", "relock_after_s"}
        check_keys(config, keys, "camera")
        return cls(
            device=config.get("device", 0),
            width=config.get("width"),
            height=config.get("height"),
            fps=config.get("fps"),
            fourcc=config.get("fourcc"),
            max_failures=config.get("max_failures", 5),
            idle_flush_s=config.get("idle_flush_s"),
            flush_frames=config.get("flush_frames", 4),
            device_timestamps=config.get("device_timestamps", False),
            lock_exposure=config.get("lock_exposure", True),
            lock_white_balance=config.get("lock_white_balance", True),
            lock_focus=config.get("lock_focus", True),
            warmup_frames=config.get("warmup_frames", 10),
            warmup_s=config.get("warmup_s", 1.0),
            warmup_max_frames=config.get("warmup_max_frames", 300),
            relock_ratio=config.get("relock_ratio", 1.6),
            relock_after_s=config.get("relock_after_s", 5.0),
            capture_factory=capture_factory,
            clock=clock,
            name=config.get("name", "opencv"),
            by_id_dir=by_id_dir,
        )

    def _candidates(self) -> list[int | str]:
        """The devices to try, in order: the camera's own by-id link when it was seen before (a
        webcam plugged back while its old /dev/video0 was still held comes back as /dev/video2,
        and the configured name, or index, then never opened again), then the configured device,
        or the matches of a pattern ("/dev/video*") in number order."""
        known = [self.known] if self.known and os.path.exists(self.known) else []
        if is_pattern(self.device):
            return known + matches(self.device)
        return known + [d for d in [self.device] if d not in known]

    def _open(self) -> None:
        candidates = self._candidates()
        if not candidates:
            raise FrameSourceError(f"no camera matches {self.device!r} (unplugged?)", self.name)
        errors = []
        for device in candidates:
            try:
                cap = self._open_device(device)
            except FrameSourceError as exc:
                errors.append(exc)
                continue
            self._opened(cap, device)
            try:
                self._lock()
            except FrameSourceError:
                self._close()
                raise
            return
        if len(errors) == 1:
            raise errors[0]
        raise FrameSourceError("; ".join(e.reason for e in errors), self.name)

    def _open_device(self, device: int | str) -> Any:
        """A capture opened on `device` and set up as configured; FrameSourceError if it will not open."""
        cap = self._capture(device)
        # FOURCC before the size: V4L2 drivers pick the sizes available for the chosen format.
        if self.fourcc:
            cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*self.fourcc))
        if self.width:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, int(self.width))
        if self.height:
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, int(self.height))
        if self.fps:
            cap.set(cv2.CAP_PROP_FPS, float(self.fps))
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # not all backends honour it; flushing covers the rest
        self.buffers = max(0, int(_number(cap, cv2.CAP_PROP_BUFFERSIZE)))
        fps = _number(cap, cv2.CAP_PROP_FPS)
        self.frame_period_s = 1.0 / fps if 1.0 <= fps <= 1000.0 else DEFAULT_FRAME_PERIOD_S
        self._said_mode(self._mode(cap))
        return cap

    def _mode(self, cap: Any) -> CameraMode:
        return CameraMode(int(_number(cap, cv2.CAP_PROP_FRAME_WIDTH)), int(_number(cap, cv2.CAP_PROP_FRAME_HEIGHT)),
                          fourcc_text(_number(cap, cv2.CAP_PROP_FOURCC)), _number(cap, cv2.CAP_PROP_FPS))

    def mode_notes(self, mode: CameraMode) -> list[str]:
        """What the camera gives unlike what the config asks, and a frame rate too slow for the
        table, in words for the staff (logged, and said by `dicetable check`)."""
        notes = []
        if self.width and self.height and mode.width and (mode.width, mode.height) != (self.width, self.height):
            notes.append(f"asked for {self.width}x{self.height}, the camera gives {mode.width}x{mode.height} "
                         "(v4l2-ctl --list-formats-ext lists the sizes it has)")
        if self.fourcc and mode.fourcc and mode.fourcc != self.fourcc.strip():
            notes.append(f"asked for {self.fourcc}, the camera gives {mode.fourcc}")
        if self.fps and mode.fps and mode.fps < 0.9 * self.fps:
            notes.append(f"asked for {self.fps:g} fps, the camera gives {mode.fps:g}")
        if mode.fps and mode.fps < SLOW_FPS:
            notes.append(f"the camera gives only {mode.fps:g} frames a second ({mode}): the dice are seen to stop "
                         'late; fourcc = "MJPG" or a smaller width and height give more')
        return notes

    def _said_mode(self, mode: CameraMode) -> None:
        """Keep what the camera gives and what is amiss with it; log it when it is news."""
        notes = self.mode_notes(mode)
        if mode != self.mode and mode.width:
            log.info("%s: %s gives %s", self.name, self.backend or "the camera", mode)
        if notes != self.notes:
            for note in notes:
                log.warning("%s: %s", self.name, note)
        self.mode, self.notes = mode, notes

    def _capture(self, device: int | str) -> Any:
        """An open capture of `device`, by the first of its backends that opens it."""
        why = ""
        for api in backends_for(device):
            try:
                cap = self.capture_factory(device, api)
            except Exception as exc:
                why = f": {exc}"
                continue
            if cap is not None and cap.isOpened():
                self.backend = _backend_name(cap)
                return cap
            if cap is not None:
                cap.release()
        raise FrameSourceError(f"cannot open camera {device!r}{why or f' ({camera_words(device)})'}", self.name)

    def _opened(self, cap: Any, device: int | str) -> None:
        """Use `cap`; remember the camera's by-id link, and log the device it was opened as when
        that is new (the first time, and when it came back under another name)."""
        node = device_node(device) or str(device)
        links = stable_links(node, self.by_id_dir)
        if links:
            self.known = links[0]
        if node != self.opened:
            also = f", {self.known}" if self.known else ""
            log.info("%s: camera %r opened as %s%s", self.name, self.device, node, also)
        self.opened = node
        self.cap = cap
        self.failures = 0
        self._last_read_at = None
        self._device_clock.reset()

    def _close(self) -> None:
        cap, self.cap = self.cap, None
        if cap is not None:
            if self.locked:         # (UVC controls outlive the program: the camera is left as found)
                set_auto(cap, self._lockable())
            cap.release()

    # -- exposure, white balance and focus (see webcam_controls) ---------------------------
    def _lockable(self) -> list[AutoControl]:
        """The auto controls to freeze: those the config asks for, with V4L2 (whose values we know)."""
        wanted = [c for c, on in ((EXPOSURE, self.lock_exposure), (WHITE_BALANCE, self.lock_white_balance),
                                  (FOCUS, self.lock_focus)) if on]
        if wanted and self.backend != "V4L2":
            if self.backend not in self._backends_said:
                self._backends_said.add(self.backend)
                log.info("%s: opened by %s, not V4L2: exposure, white balance and focus left as they are",
                         self.name, self.backend or "an unnamed backend")
            return []
        return wanted

    def _lock(self) -> None:
        """Warm up with the auto controls on, then freeze them; left automatic (and said) when the
        camera's picture jumps as they are frozen."""
        self.locked = {}
        self.light_watch.reset()
        controls = set_auto(self.cap, self._lockable())
        if not controls:
            return
        first = self._warm_up()
        frozen = freeze(self.cap, controls)
        then = self._picture(LOCK_SETTLE_FRAMES)
        before, after = light(first), light(then)
        if not 1 / LOCK_JUMP <= after / before <= LOCK_JUMP:
            set_auto(self.cap, controls)
            self._note(f"the picture turned {max(after / before, before / after):.1f} times "
                       f"{'brighter' if after > before else 'darker'} when the camera's {', '.join(frozen)} were "
                       "frozen: it does not say what its automatic mode chose. Left automatic (lock_exposure = "
                       "false and the like in [camera] silence this)")
            return
        if "focus" in frozen and sharpness(then) * LOCK_BLUR < sharpness(first):
            set_auto(self.cap, [FOCUS])
            del frozen["focus"]
            self._note("the picture turned blurred when the camera's focus was frozen: it does not say where its "
                       "autofocus was. Focus left automatic (lock_focus = false silences this)")
        self.locked = frozen
        log.info("%s: fixed %s", self.name, ", ".join(f"{k} {v:g}" for k, v in frozen.items()))

    def _note(self, note: str) -> None:
        """Something the staff should know (logged once, said by `dicetable check`)."""
        if note not in self.notes:
            log.warning("%s: %s", self.name, note)
            self.notes = self.notes + [note]

    def _warm_up(self) -> Any:
        """Pictures for `warmup_frames` and `warmup_s` (at most `warmup_max_frames`): the last."""
        started = self.clock()
        for n in range(1, self.warmup_max_frames + 1):
            image = self._picture(1)
            if n >= self.warmup_frames and self.clock() - started >= self.warmup_s:
                break
        return image

    def _picture(self, count: int) -> Any:
        """The last of `count` pictures read as they come; FrameSourceError when one does not."""
        for _ in range(count):
            try:
                ok, image = self.cap.read()
            except cv2.error as exc:
                raise FrameSourceError(f"camera {self.device!r} failed while warming up: {exc}", self.name) from exc
            if not ok or image is None or getattr(image, "size", 0) == 0:
                raise FrameSourceError(f"camera {self.device!r} opened but sends no picture", self.name)
        self._last_read_at = self.clock()
        return image

    def _relocked(self, image: Any, ts: float) -> bool:
        """Measure exposure and white balance again when the room's light has changed for good."""
        if "exposure" not in self.locked:
            return False
        ratio = self.light_watch.changed(image, ts)
        if ratio is None:
            return False
        log.info("%s: the light changed (x%.2f for %.0f s): measuring exposure again", self.name, ratio,
                 self.light_watch.lasted(ts))
        self._lock()
        self.relocks += 1
        return True

    def _flush_after(self) -> float:
        """How long after a read frames may have queued: the configured time, else a frame period."""
        return self.frame_period_s if self.idle_flush_s is None else self.idle_flush_s

    def _grab_newest(self, queued: bool) -> bool:
        """Grab the camera's newest frame: when frames may have queued, grab until a grab waits
        for the camera (the ones before it were old), at most as many as the queue holds, + 1."""
        most = max(self.flush_frames, self.buffers) + 1 if queued else 1
        for n in range(most):
            started = self.clock()
            if not self.cap.grab():
                return False
            if n == most - 1 or self.clock() - started >= WAITED_S:
                return True
            self.flushed += 1
        return True

    def _failed(self, why: str) -> None:
        """Count a failed read; `max_failures` in a row raise, saying what came (or did not)."""
        self.failures += 1
        if self.failures >= self.max_failures:
            hint = "unplugged?" if why == NO_PICTURE else "the table cannot use such pictures: try another fourcc"
            raise FrameSourceError(
                f"{self.failures} reads in a row failed from camera {self.device!r} ({why}); {hint}", self.name
            )
        log.debug("%s: read failed (%s), %d in a row", self.name, why, self.failures)

    def _no_picture(self, waited: float) -> None:
        """A read that gave nothing. One that waited `STALLED_S` or more (V4L2 waits 10 s for a
        frame) is the camera stalled: said at once, not after `max_failures` such waits, during
        which the table's loop, its buttons and its screen stood still (50 s; systemd's watchdog
        restarts the table after 60)."""
        if waited >= STALLED_S:
            raise FrameSourceError(f"no picture from camera {self.device!r} for {waited:.0f} s; unplugged, "
                                   "or its USB port short of bandwidth or power?", self.name)
        self._failed(NO_PICTURE)

    def _read(self) -> Frame | None:
        now = self.clock()
        queued = self._last_read_at is not None and now - self._last_read_at > self._flush_after()
        try:
            ok = self._grab_newest(queued)
            ok, image = self.cap.retrieve() if ok else (False, None)
        except cv2.error as exc:
            self._failed(str(exc))
            return None
        self._last_read_at = self.clock()
        if not ok or image is None:
            self._no_picture(self._last_read_at - now)
            return None
        if getattr(image, "size", 0) == 0:
            self._failed(f"empty pictures ({'x'.join(map(str, getattr(image, 'shape', ())[:2])) or '0x0'})")
            return None
        if self.device_timestamps:
            if not self._device_clock.fresh(float(self.cap.get(cv2.CAP_PROP_POS_MSEC)) / 1000.0):
                self.dropped += 1
                return None
        try:
            bgr = to_bgr_uint8(image, "camera image")
        except ValueError as exc:
            self._failed(str(exc))
            return None
        self.failures = 0                   # (only a picture the table can use ends a run of failures)
        now = self.clock()
        if self._relocked(bgr, now):
            return None                     # (taken in the old light; the next one is of the new)
        return self._make_frame(bgr, now)
