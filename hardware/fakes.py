"""Test doubles for devices this machine does not have (camera, picamera2, a flaky port).

They live in the package (not in tests/) so the controller's tests can drive the real
frame and button sources with them too. They mimic the parts of the real APIs that the
sources use, and record what was asked of them so tests can assert on it.
"""
from __future__ import annotations

import threading
import types
from typing import Any, Callable, Sequence

import numpy as np


class NoDevice:
    """A camera and a button source that are there and give nothing: the table only started
    (its start and a game's end timed, old journals resumed), no frame read, no press made."""

    error = None

    def read(self) -> None:
        return None

    def poll(self) -> list:
        return []

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *a, **k: None


def solid_image(value: int, size: tuple[int, int] = (64, 48)) -> np.ndarray:
    """A BGR image of one grey level: frames tests can tell apart by a single pixel."""
    width, height = size
    return np.full((height, width, 3), value % 256, dtype=np.uint8)


# --------------------------------------------------------------------------------------
# cv2.VideoCapture stand-in
# --------------------------------------------------------------------------------------
class FakeVideoCapture:
    """Plays a script of images; None in the script is a failed read ((False, None)).

    `timestamps_ms` (optional, same length) is what CAP_PROP_POS_MSEC reports after each
    read; `actual_size`, `actual_fourcc` and `actual_fps` what the camera gives, whatever is set.
    It takes only the format's properties (size, fourcc, fps, buffers) unless `controls`: a camera
    without exposure, white balance or focus controls. `grab()` consumes a script item without
    returning it (as V4L2 would drop a buffer).
    """

    def __init__(
        self,
        script: Sequence[np.ndarray | None] = (),
        *,
        opened: bool = True,
        timestamps_ms: Sequence[float] | None = None,
        actual_size: tuple[int, int] | None = None,
        actual_fourcc: str | None = None,
        actual_fps: float | None = None,
        backend: str = "FAKE",
        controls: bool = False,
    ) -> None:
        self.script = list(script)
        self.backend = backend
        self.controls = controls
        self.timestamps_ms = list(timestamps_ms) if timestamps_ms is not None else None
        self.opened = opened
        self.released = False
        self.props: dict[int, float] = {}
        self.set_calls: list[tuple[int, float]] = []
        self.position = 0
        self.grabs = 0
        self.reads = 0
        self.actual_size = actual_size
        self.actual_fourcc = actual_fourcc
        self.actual_fps = actual_fps
        self._last_ts = 0.0
        self._grabbed: np.ndarray | None = None

    def isOpened(self) -> bool:  # noqa: N802 - cv2's name
        return self.opened and not self.released

    def getBackendName(self) -> str:  # noqa: N802 - cv2's name
        return self.backend

    #: what a webcam's format takes; a camera's controls (exposure ...) only with `controls`
    FORMAT_PROPS = frozenset((3, 4, 5, 6, 38))    # CAP_PROP_FRAME_WIDTH/HEIGHT, FPS, FOURCC, BUFFERSIZE

    def set(self, prop: int, value: float) -> bool:
        self.set_calls.append((prop, value))
        if prop not in self.FORMAT_PROPS and not self.controls:
            return False
        self.props[prop] = value
        return True

    def get(self, prop: int) -> float:
        import cv2

        if prop == cv2.CAP_PROP_POS_MSEC:
            return self._last_ts
        if self.actual_size is not None and prop == cv2.CAP_PROP_FRAME_WIDTH:
            return float(self.actual_size[0])
        if self.actual_size is not None and prop == cv2.CAP_PROP_FRAME_HEIGHT:
            return float(self.actual_size[1])
        if self.actual_fourcc is not None and prop == cv2.CAP_PROP_FOURCC:
            return float(cv2.VideoWriter_fourcc(*self.actual_fourcc))
        if self.actual_fps is not None and prop == cv2.CAP_PROP_FPS:
            return float(self.actual_fps)
        return float(self.props.get(prop, 0.0))

    def _next(self) -> np.ndarray | None:
        if self.position >= len(self.script):
            return None
        item = self.script[self.position]
        if self.timestamps_ms is not None:
            self._last_ts = float(self.timestamps_ms[self.position])
        self.position += 1
        return item

    def grab(self) -> bool:
        self.grabs += 1
        self._grabbed = self._next() if self.isOpened() else None
        return self._grabbed is not None

    def retrieve(self) -> tuple[bool, np.ndarray | None]:
        image, self._grabbed = self._grabbed, None
        return (image is not None), (None if image is None else image.copy())

    def read(self) -> tuple[bool, np.ndarray | None]:
        self.reads += 1
        self.grab()
        return self.retrieve()

    def release(self) -> None:
        self.released = True


class FakeUvcControls:
    """A UVC webcam's exposure, white balance and focus (shared by the captures of one camera: its
    controls outlive the program). Its picture's grey level is `scene_light` x exposure; while
    exposure is automatic it aims at AE_TARGET and hunts (6 levels up and down, frame to frame),
    and reports its value (unless `reports_auto` is false: then it reports, and switched to
    manual jumps to, the stale manual value). Its focus likewise (`focus_reports_auto`); a
    `textured` tray shows a weave only when in focus."""

    HUNT = 6
    IN_FOCUS = 35.0         # the focus that autofocus finds for the tray

    def __init__(self, scene_light: float = 0.7, *, reports_auto: bool = True, textured: bool = False,
                 focus_reports_auto: bool = True) -> None:
        import cv2

        self.PROPS = {cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_EXPOSURE, cv2.CAP_PROP_AUTO_WB,
                      cv2.CAP_PROP_WB_TEMPERATURE, cv2.CAP_PROP_AUTOFOCUS, cv2.CAP_PROP_FOCUS}
        self.values: dict[int, float] = {cv2.CAP_PROP_AUTO_EXPOSURE: 3, cv2.CAP_PROP_EXPOSURE: 400,
                                         cv2.CAP_PROP_AUTO_WB: 1, cv2.CAP_PROP_WB_TEMPERATURE: 6500,
                                         cv2.CAP_PROP_AUTOFOCUS: 1, cv2.CAP_PROP_FOCUS: 0}
        self.scene_light = scene_light
        self.reports_auto = reports_auto
        self.textured = textured
        self.focus_reports_auto = focus_reports_auto

    @property
    def auto(self) -> bool:
        import cv2

        return self.values[cv2.CAP_PROP_AUTO_EXPOSURE] == 3

    def auto_exposure(self) -> float:
        return float(round(AE_TARGET / self.scene_light))

    def get(self, prop: int) -> float:
        import cv2

        if prop == cv2.CAP_PROP_EXPOSURE and self.auto and self.reports_auto:
            return self.auto_exposure()
        if prop == cv2.CAP_PROP_WB_TEMPERATURE and self.values[cv2.CAP_PROP_AUTO_WB] == 1:
            return 4600.0
        if prop == cv2.CAP_PROP_FOCUS and self.values[cv2.CAP_PROP_AUTOFOCUS] == 1 and self.focus_reports_auto:
            return self.IN_FOCUS
        return float(self.values[prop])

    def set(self, prop: int, value: float) -> bool:
        import cv2

        if prop == cv2.CAP_PROP_AUTO_EXPOSURE and value not in (1, 3):
            return False
        if prop == cv2.CAP_PROP_AUTO_EXPOSURE and value == 1 and self.auto and self.reports_auto:
            self.values[cv2.CAP_PROP_EXPOSURE] = self.auto_exposure()     # (it keeps what it chose)
        if prop == cv2.CAP_PROP_AUTOFOCUS and value == 0 and self.values[prop] == 1 and self.focus_reports_auto:
            self.values[cv2.CAP_PROP_FOCUS] = self.IN_FOCUS
        self.values[prop] = value
        return True

    def sharp(self) -> bool:
        """Whether the tray is in focus: autofocus finds it; a focus set by hand must be IN_FOCUS."""
        import cv2

        return self.values[cv2.CAP_PROP_AUTOFOCUS] == 1 or self.values[cv2.CAP_PROP_FOCUS] == self.IN_FOCUS

    def image(self, k: int) -> np.ndarray:
        """Frame k: its grey level, and with `textured` the tray's weave in the lower half, sharp
        or blurred away."""
        level = self.level(k)
        image = np.full((48, 64, 3), level, np.uint8)
        if self.textured and self.sharp():
            image[24:, ::2] = min(255, level + 40)
        return image

    def level(self, k: int) -> int:
        """The grey level of frame k."""
        import cv2

        if self.auto:
            return AE_TARGET + (self.HUNT if k % 2 else -self.HUNT)
        return int(min(255, self.scene_light * self.values[cv2.CAP_PROP_EXPOSURE]))


class LiveFakeCapture(FakeVideoCapture):
    """A webcam streaming on a clock: frame k is taken at `k / fps` (its image of grey level
    k % 256; `taken` lists when each frame retrieved was) into V4L2-like buffers. A filled buffer
    waits to be grabbed; when all are full the camera's new frames are dropped (as uvcvideo
    does), so a slow reader is given old ones. grab() takes the oldest filled buffer at once, or
    waits (advances `clock`) for the next frame. CAP_PROP_BUFFERSIZE sets the buffer count, never
    below `min_buffers` (a driver or backend that does not honour it); get() reports the count in
    use.
    """

    def __init__(self, clock: Any, *, fps: float = 30.0, buffers: int = 4, min_buffers: int = 1,
                 backend: str = "V4L2", uvc: "FakeUvcControls | None" = None) -> None:
        super().__init__(backend=backend, controls=uvc is not None)
        self.uvc = uvc
        self.clock = clock
        self.fps = fps
        self.buffers = buffers
        self.min_buffers = min_buffers
        self.queue: list[int] = []           # frame numbers in the filled buffers, oldest first
        self.next_frame = int(clock() * fps) + 1
        self.taken: list[float] = []         # when each frame retrieved was taken
        self._grabbed_k = -1

    def set(self, prop: int, value: float) -> bool:
        import cv2

        if prop == cv2.CAP_PROP_BUFFERSIZE:
            self.buffers = max(self.min_buffers, int(value))
            del self.queue[self.buffers:]
        if self.uvc is not None and prop in self.uvc.PROPS:
            self.set_calls.append((prop, value))
            return self.uvc.set(prop, value)
        return super().set(prop, value)

    def get(self, prop: int) -> float:
        import cv2

        if self.uvc is not None and prop in self.uvc.PROPS:
            return self.uvc.get(prop)
        if prop == cv2.CAP_PROP_BUFFERSIZE:
            return float(self.buffers)
        if prop == cv2.CAP_PROP_FPS:
            return float(self.fps)
        return super().get(prop)

    def _stream(self) -> None:
        """The frames taken up to now into free buffers (the others dropped)."""
        while self.next_frame / self.fps <= self.clock():
            if len(self.queue) < self.buffers:
                self.queue.append(self.next_frame)
            self.next_frame += 1

    def grab(self) -> bool:
        self.grabs += 1
        self._stream()
        if not self.queue:                  # nothing queued: wait for the next frame
            self.clock.advance(max(0.0, self.next_frame / self.fps - self.clock()))
            self.queue.append(self.next_frame)
            self.next_frame += 1
        self._grabbed_k = self.queue.pop(0)
        self._grabbed = (np.full((48, 64, 3), self._grabbed_k % 256, np.uint8) if self.uvc is None
                         else self.uvc.image(self._grabbed_k))
        return True

    def retrieve(self) -> tuple[bool, np.ndarray | None]:
        if self._grabbed is not None:
            self.taken.append(self._grabbed_k / self.fps)
        return super().retrieve()


class HangingCapture(FakeVideoCapture):
    """A webcam that hangs when told to: `hang()` makes grab() wait, as V4L2 does for a camera that
    stopped streaming, until `answer()` (the camera streams again) or `gives_up_s` (V4L2's 10 s:
    then it returns False). Otherwise every grab gives a picture (grey level: the grab's number),
    at once, or paced at `fps` in real time (for a benchmark). `hanging` is true while a grab
    waits; `threads` lists the threads that called it (one only: a VideoCapture is not for two)."""

    def __init__(self, *, fps: float | None = None, gives_up_s: float = 10.0, size: tuple[int, int] = (64, 48)) -> None:
        super().__init__()
        self.fps = fps
        self.gives_up_s = gives_up_s
        self.size = size
        self.hanging = False
        self.threads: set[int] = set()
        self._streaming = threading.Event()
        self._streaming.set()
        self._next_at = 0.0

    def hang(self) -> None:
        self._streaming.clear()

    def answer(self) -> None:
        self._streaming.set()

    def _called(self) -> None:
        self.threads.add(threading.get_ident())

    def isOpened(self) -> bool:  # noqa: N802 - cv2's name
        self._called()
        return super().isOpened()

    def set(self, prop: int, value: float) -> bool:
        self._called()
        return super().set(prop, value)

    def get(self, prop: int) -> float:
        self._called()
        return super().get(prop)

    def grab(self) -> bool:
        import time

        self._called()
        self.grabs += 1
        if not self._streaming.is_set():
            self.hanging = True
            answered = self._streaming.wait(self.gives_up_s)
            self.hanging = False
            if not answered:
                self._grabbed = None
                return False
        if self.fps:
            now = time.monotonic()
            self._next_at = max(self._next_at + 1.0 / self.fps, now)
            time.sleep(self._next_at - now)
        width, height = self.size
        self._grabbed = np.full((height, width, 3), self.grabs % 256, np.uint8)
        return True

    def retrieve(self) -> tuple[bool, np.ndarray | None]:
        self._called()
        return super().retrieve()

    def release(self) -> None:
        self._called()
        super().release()


# --------------------------------------------------------------------------------------
# picamera2 stand-in: inject with sys.modules["picamera2"] = make_fake_picamera2_module()
# --------------------------------------------------------------------------------------
class FakeRequest:
    """A CompletedRequest: arrays per stream, metadata, and a release() that must be called."""

    def __init__(self, camera: "FakePicamera2", arrays: dict[str, np.ndarray], metadata: dict[str, Any]) -> None:
        self._camera = camera
        self._arrays = arrays
        self._metadata = metadata
        self.released = False

    def make_array(self, name: str) -> np.ndarray:
        if self.released:
            raise RuntimeError("request used after release")
        return self._arrays[name].copy()

    def get_metadata(self) -> dict[str, Any]:
        return dict(self._metadata)

    def release(self) -> None:
        if not self.released:
            self.released = True
            self._camera.outstanding -= 1


AE_TARGET = 110         # the grey level the fake's auto exposure aims at (with `scene_light` set)
LIGHT_SCALE = 1e5       # level = scene_light x exposure (us) x gain / LIGHT_SCALE


class FakePicamera2:
    """Picamera2 as far as the frame source uses it.

    Frame n carries SensorTimestamp `timestamp_ns(n)`; its main image is solid grey level
    n % 256 and its lores image a YUV420 buffer with luma (100 + n) % 256, neutral chroma (or,
    with the module's `scene_light` set, both the scene's level as exposed). Metadata reports the
    auto values (`auto`, avoiding flicker as libcamera does when AeFlickerMode is set) until
    set_controls fixes them. Every call is recorded in `calls`.
    """

    def __init__(self, module: types.ModuleType, camera_num: int = 0) -> None:
        if module.fail_open is not None:
            raise module.fail_open
        self.module = module
        self.camera_num = camera_num
        self.calls: list[str] = []
        self.config: dict[str, Any] | None = None
        self.controls_set: list[dict[str, Any]] = []
        self.started = False
        self.closed = False
        self.captured = 0
        self.outstanding = 0
        self.applied: dict[str, Any] = dict(module.auto_metadata)
        # (min, max, default) of each control, as picamera2 reports them
        self.camera_controls: dict[str, tuple[Any, Any, Any]] = dict(module.camera_controls)
        module.cameras.append(self)

    def create_video_configuration(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append("create_video_configuration")
        return dict(kwargs)

    create_still_configuration = create_video_configuration
    create_preview_configuration = create_video_configuration

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append("configure")
        self.config = config

    def start(self) -> None:
        self.calls.append("start")
        self.started = True

    def stop(self) -> None:
        self.calls.append("stop")
        self.started = False

    def close(self) -> None:
        self.calls.append("close")
        self.closed = True

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append("set_controls")
        self.controls_set.append(dict(controls))
        self.applied.update(controls)

    def capture_request(self) -> FakeRequest:
        self.calls.append("capture_request")
        if not self.started:
            raise RuntimeError("camera not started")
        if self.module.fail_capture is not None:
            raise self.module.fail_capture
        if not self.module.streaming.is_set():      # (a pipeline that hangs: libcamera's frontend timeout)
            self.module.hanging = True
            answered = self.module.streaming.wait(self.module.hang_s)
            self.module.hanging = False
            if not answered:
                raise RuntimeError("Camera frontend has timed out!")
        n = self.captured
        self.captured += 1
        assert self.config is not None
        metadata = dict(self.applied)
        metadata["SensorTimestamp"] = int(self.module.timestamp_ns(n))
        light = self.module.scene_light
        if self.applied.get("AeEnable", True):
            self._auto_exposure(metadata, n, light)
        # the scene as exposed (with `scene_light` set), else a level that changes every frame
        level = (n % 256, (100 + n) % 256) if light is None else \
            (min(255, int(light * metadata["ExposureTime"] * metadata["AnalogueGain"] / LIGHT_SCALE)),) * 2
        arrays: dict[str, np.ndarray] = {}
        for stream in ("main", "lores"):
            spec = self.config.get(stream)
            if not spec:
                continue
            width, height = spec["size"]
            if spec["format"] in ("YUV420", "YVU420"):
                array = np.full((height * 3 // 2, width), 128, dtype=np.uint8)
                array[:height] = level[1]
            else:
                channels = 4 if spec["format"].startswith("X") else 3
                array = np.full((height, width, channels), level[0], dtype=np.uint8)
            arrays[stream] = array
        self.outstanding += 1
        return FakeRequest(self, arrays, metadata)

    def _auto_exposure(self, metadata: dict[str, Any], n: int, light: float | None) -> None:
        """The auto exposure of frame n into `metadata`. It "converges": the values the source
        must read are those of late frames."""
        auto = int(self.module.auto_metadata["ExposureTime"]) if light is None else \
            int(min(66666, max(100, AE_TARGET * LIGHT_SCALE / (light * metadata["AnalogueGain"]))))
        metadata["ExposureTime"] = auto + max(0, 5 - n) * 1000
        period = self.applied.get("AeFlickerPeriod")
        if self.applied.get("AeFlickerMode") == 1 and period and metadata["ExposureTime"] >= period:
            # flicker avoidance: a whole number of periods, the gain (never under the camera's
            # least) making up the light
            total = metadata["ExposureTime"] * metadata["AnalogueGain"]
            whole = round(metadata["ExposureTime"] / period) * period
            if total / whole < self.camera_controls["AnalogueGain"][0]:
                whole -= period
            metadata["AnalogueGain"] = total / whole
            metadata["ExposureTime"] = whole


def make_fake_picamera2_module(
    timestamp_ns: Callable[[int], int] | None = None,
    auto_metadata: dict[str, Any] | None = None,
) -> types.ModuleType:
    """A module object to put in sys.modules["picamera2"].

    Attributes tests may change: `fail_open` / `fail_capture` (an exception to raise),
    `timestamp_ns(n)`, `streaming` (cleared: capture_request hangs, `hanging` true, until it is set
    again, or raises after `hang_s`); `cameras` lists every Picamera2 instance created.
    """
    module = types.ModuleType("picamera2")
    module.cameras = []  # type: ignore[attr-defined]
    module.fail_open = None  # type: ignore[attr-defined]
    module.fail_capture = None  # type: ignore[attr-defined]
    module.streaming = threading.Event()  # type: ignore[attr-defined]
    module.streaming.set()
    module.hanging = False  # type: ignore[attr-defined]
    module.hang_s = 10.0  # type: ignore[attr-defined]
    module.timestamp_ns = timestamp_ns or (lambda n: 1_000_000_000 + n * 33_333_333)  # type: ignore[attr-defined]
    module.auto_metadata = auto_metadata or {  # type: ignore[attr-defined]
        "ExposureTime": 12000,
        "AnalogueGain": 2.5,
        "ColourGains": (1.9, 1.6),
        "Lux": 300.0,
    }
    # None: frames whose level changes every frame; a number: a room this bright, exposed by the
    # camera's exposure and gain (its auto exposure aims at AE_TARGET), for tests of a light change
    module.scene_light = None  # type: ignore[attr-defined]
    # a current libcamera's controls (with flicker avoidance); tests may remove some
    module.camera_controls = {  # type: ignore[attr-defined]
        "ExposureTime": (75, 1_000_000, 20000),
        "AnalogueGain": (1.0, 16.0, 1.0),
        "AeFlickerMode": (0, 1, 0),
        "AeFlickerPeriod": (100, 1_000_000, 0),
    }

    class Picamera2(FakePicamera2):
        def __init__(self, camera_num: int = 0) -> None:
            super().__init__(module, camera_num)

    module.Picamera2 = Picamera2  # type: ignore[attr-defined]
    return module


# --------------------------------------------------------------------------------------
# A serial port that can be "unplugged"
# --------------------------------------------------------------------------------------
class UnpluggablePort:
    """Wraps a pyserial port (e.g. loop://); after `unplug()` reads raise SerialException.

    That is what pyserial does when a USB-serial adapter disappears mid-read.
    """

    def __init__(self, port: Any) -> None:
        self.port = port
        self._unplugged = threading.Event()
        self.closed = False

    def unplug(self) -> None:
        self._unplugged.set()

    def _check(self) -> None:
        if self._unplugged.is_set():
            import serial

            raise serial.SerialException("device reports readiness to read but returned no data "
                                         "(device disconnected or multiple access on port?)")

    @property
    def in_waiting(self) -> int:
        self._check()
        return int(self.port.in_waiting)

    def read(self, size: int = 1) -> bytes:
        self._check()
        data = self.port.read(size)
        self._check()
        return data

    def write(self, data: bytes) -> int:
        return int(self.port.write(data))

    def close(self) -> None:
        self.closed = True
        self.port.close()
