"""Frames from the Raspberry Pi camera through picamera2 (imported only when chosen).

Two streams from one sensor: a small "lores" one that is cheap to compare frame to frame
(are the dice still rolling?) and a full "main" one to read pips from. After a warm-up the
auto exposure, gain and white balance are frozen: the tray's lighting does not change, and a
drifting exposure would make the same die look different from one throw to the next.

Lamps on the mains flicker 100 or 120 times a second (`mains_hz` 50 or 60). A rolling shutter
then lays bands of light and dark rows over frames whose exposure is not a whole number of
flicker periods, and the bands move from frame to frame. So auto exposure is told the flicker
period while it warms up (libcamera's AeFlickerMode / AeFlickerPeriod, where the camera has
them), and the exposure frozen after it is a whole number of periods, the gain making up the
difference. (The settle tracker forgives such bands too, but the dice read better without.)

A café's light changes over a day (daylight fades, the lamps go on), and an exposure frozen in
the morning would leave the evening's frames dark or washed out. So the frames' light is
watched (the median of a coarse grid, mostly tray): when it stays more than `relock_ratio`
times brighter or darker than just after the lock for `relock_after_s` seconds, the exposure
and white balance are measured again (a new warm-up, ~1 s) and frozen anew. A hand over the
tray or a shadow passes sooner than that. Values given in the config are never changed.
"""
from __future__ import annotations

import importlib
import logging
import time
from types import ModuleType
from typing import Any

import cv2
import numpy as np

from ._config import boolean, check_keys, positive, size_pair, text, whole
from .frames import BaseFrameSource, Clock, Frame, FrameSourceError, to_bgr_uint8
from .light_watch import LightWatch

log = logging.getLogger(__name__)

MAIN = "main"
LORES = "lores"
FLICKER_MANUAL = 1      # libcamera's AeFlickerModeEnum.Manual: avoid the flicker of AeFlickerPeriod


def to_bgr(array: np.ndarray, fmt: str, size: tuple[int, int]) -> np.ndarray:
    """Convert a picamera2 `make_array` result to BGR uint8.

    picamera2's names follow DRM fourccs, so "RGB888" is already [B, G, R] in memory and
    "BGR888" is [R, G, B]. YUV420 (what the Pi 4's lores stream must use) is converted; when
    its rows carry stride padding only the luminance plane is used (grey is enough to tell
    whether dice moved).
    """
    width, height = size
    if fmt in ("RGB888", "XRGB8888"):
        return to_bgr_uint8(array[:, :, :3] if array.ndim == 3 else array, fmt)
    if fmt == "BGR888":
        return np.ascontiguousarray(cv2.cvtColor(array, cv2.COLOR_RGB2BGR))
    if fmt == "XBGR8888":
        return np.ascontiguousarray(cv2.cvtColor(array, cv2.COLOR_RGBA2BGR))
    if fmt in ("YUV420", "YVU420"):
        if array.ndim == 2 and array.shape == (height * 3 // 2, width):
            code = cv2.COLOR_YUV2BGR_I420 if fmt == "YUV420" else cv2.COLOR_YUV2BGR_YV12
            return np.ascontiguousarray(cv2.cvtColor(array, code))
        return to_bgr_uint8(np.ascontiguousarray(array[:height, :width]), fmt)
    raise FrameSourceError(f"unsupported picamera2 format {fmt!r}", "picamera2")


class Picamera2FrameSource(BaseFrameSource):
    """The Pi camera: `read()` gives the full "main" stream, `read_lores()` the small one.

    Stale frames are dropped by their SensorTimestamp (nanoseconds, CLOCK_MONOTONIC like
    `time.monotonic`): a frame not newer than the last delivered one of its stream, or older
    than `max_age_s`, is released and skipped. Warm-up lasts `warmup_frames` frames and at
    least `warmup_s` seconds of sensor time before the auto values are read and frozen.
    """

    #: a capture can wait for ever for a pipeline that hangs (libcamera's frontend timeout): the
    #: table reads it on a thread of its own (frame_reader.TwoStreamReader)
    may_hang = True

    def __init__(
        self,
        *,
        camera_num: int = 0,
        main_size: tuple[int, int] = (1280, 960),
        lores_size: tuple[int, int] = (320, 240),
        main_format: str = "RGB888",
        lores_format: str = "YUV420",
        buffer_count: int = 4,
        warmup_frames: int = 10,
        warmup_s: float = 1.0,
        warmup_max_frames: int = 300,
        lock_exposure: bool = True,
        lock_white_balance: bool = True,
        exposure_time_us: int | None = None,
        analogue_gain: float | None = None,
        colour_gains: tuple[float, float] | None = None,
        max_age_s: float = 0.5,
        mains_hz: float = 50.0,
        relock_ratio: float = 1.6,
        relock_after_s: float = 5.0,
        picamera2_module: ModuleType | Any | None = None,
        clock: Clock | None = None,
        name: str = "picamera2",
    ) -> None:
        super().__init__()
        self.camera_num = whole(camera_num, "camera_num", "camera", low=0)
        self.main_size = size_pair(main_size, "main_size", "camera")
        self.lores_size = size_pair(lores_size, "lores_size", "camera")
        self.main_format = text(main_format, "main_format", "camera")
        self.lores_format = text(lores_format, "lores_format", "camera")
        self.buffer_count = max(1, whole(buffer_count, "buffer_count", "camera", low=0, high=64))
        self.warmup_frames = whole(warmup_frames, "warmup_frames", "camera", low=0)
        self.warmup_s = positive(warmup_s, "warmup_s", "camera", allow_zero=True)
        self.warmup_max_frames = max(self.warmup_frames, whole(warmup_max_frames, "warmup_max_frames", "camera",
                                                               low=0))
        self.lock_exposure = boolean(lock_exposure, "lock_exposure", "camera")
        self.lock_white_balance = boolean(lock_white_balance, "lock_white_balance", "camera")
        self.exposure_time_us = (whole(exposure_time_us, "exposure_time_us", "camera", low=1)
                                 if exposure_time_us is not None else None)
        self.analogue_gain = positive(analogue_gain, "analogue_gain", "camera") if analogue_gain is not None else None
        if colour_gains is not None and (isinstance(colour_gains, str) or not isinstance(colour_gains, (list, tuple))
                                         or len(colour_gains) != 2):
            raise ValueError(f"[camera] colour_gains must be [red, blue], got {colour_gains!r}")
        self.colour_gains = (tuple(positive(g, "colour_gains", "camera") for g in colour_gains)
                             if colour_gains is not None else None)
        self.max_age_s = positive(max_age_s, "max_age_s", "camera")
        # ASSUMPTION: the café's lights run on 50 Hz mains (Europe); 60 in the Americas; 0: no
        # flicker avoidance (daylight, or lamps that do not flicker)
        self.mains_hz = positive(mains_hz, "mains_hz", "camera", allow_zero=True)
        # ASSUMPTION: light 1.6 times brighter or darker for 5 s is the room's, not a passing hand
        # (0: never measured again)
        self.relock_ratio = positive(relock_ratio, "relock_ratio", "camera", allow_zero=True)
        if 0 < self.relock_ratio <= 1:
            raise ValueError(f"[camera] relock_ratio must be 0 or more than 1, got {relock_ratio!r}")
        self.relock_after_s = positive(relock_after_s, "relock_after_s", "camera")
        self._module = picamera2_module
        self.clock = clock or time.monotonic
        self.name = text(name, "name", "camera")
        self.cam: Any = None
        #: the controls set after warm-up (for logs and the service screen)
        self.locked_controls: dict[str, Any] = {}
        self.dropped = 0
        #: how often the exposure was measured again because the room's light changed
        self.relocks = 0
        self._last_ts: dict[str, float] = {}
        self._lores_index = 0
        self.light_watch = LightWatch(self.relock_ratio, self.relock_after_s)

    @classmethod
    def from_config(
        cls, config: dict[str, Any], *, picamera2_module: Any = None, clock: Clock | None = None
    ) -> "Picamera2FrameSource":
        keys = {"camera_num", "main_size", "lores_size", "main_format", "lores_format", "buffer_count",
                "warmup_frames", "warmup_s", "warmup_max_frames", "lock_exposure", "lock_white_balance",
                "exposure_time_us", "analogue_gain", "colour_gains", "max_age_s", "mains_hz",
                "relock_ratio", "relock_after_s", "name"}
        check_keys(config, keys, "camera")
        kwargs = {k: v for k, v in config.items() if k != "type"}
        return cls(**kwargs, picamera2_module=picamera2_module, clock=clock)

    # -- lifecycle ---------------------------------------------------------------------
    def _import(self) -> Any:
        if self._module is not None:
            return self._module
        try:
            return importlib.import_module("picamera2")
        except ImportError as exc:
            raise FrameSourceError(
                "picamera2 is not installed (on Raspberry Pi OS: apt install python3-picamera2; "
                "create the venv with --system-site-packages)", self.name
            ) from exc

    def _open(self) -> None:
        module = self._import()
        try:
            cam = module.Picamera2(self.camera_num)
        except Exception as exc:
            raise FrameSourceError(f"camera {self.camera_num} not found or busy: {exc}", self.name) from exc
        self.cam = cam
        try:
            config = cam.create_video_configuration(
                main={"size": self.main_size, "format": self.main_format},
                lores={"size": self.lores_size, "format": self.lores_format},
                buffer_count=self.buffer_count,
            )
            cam.configure(config)
            cam.start()
            flicker = self._flicker_controls()
            if flicker:
                cam.set_controls(flicker)
            self._measure_and_lock()
        except FrameSourceError:
            self._close()
            raise
        except Exception as exc:
            self._close()
            raise FrameSourceError(f"camera failed to start: {exc}", self.name) from exc
        self._last_ts = {}
        self._next_index = 0
        self._lores_index = 0
        self.dropped = 0

    def _measure_and_lock(self) -> None:
        """Warm up (auto values converge), then freeze them."""
        metadata = self._warm_up()
        self.locked_controls = self._lock_controls(metadata)
        if self.locked_controls:
            self.cam.set_controls(self.locked_controls)
            log.info("%s: fixed controls %s", self.name, self.locked_controls)
        self.light_watch.reset()

    def _relocks(self) -> bool:
        """Whether the frozen values are the camera's own measure, which a change of light may
        call for again (not values given in the config, not when nothing is frozen)."""
        return bool(self.relock_ratio) and self.lock_exposure and self.exposure_time_us is None \
            and self.analogue_gain is None and "ExposureTime" in self.locked_controls

    def _watch_light(self, image: np.ndarray, ts: float) -> None:
        """Measure exposure and white balance again when the frames' light has stayed far from
        the light just after the lock for `relock_after_s` (see the module's docstring)."""
        if not self._relocks():
            return
        ratio = self.light_watch.changed(image, ts)
        if ratio is None:
            return
        log.info("%s: the light changed (x%.2f for %.0f s): measuring exposure again", self.name, ratio,
                 self.light_watch.lasted(ts))
        self.cam.set_controls({"AeEnable": True, "AwbEnable": True} if self.lock_white_balance
                              else {"AeEnable": True})
        self._measure_and_lock()
        self.relocks += 1

    def _close(self) -> None:
        cam, self.cam = self.cam, None
        if cam is None:
            return
        for step in (cam.stop, cam.close):
            try:
                step()
            except Exception:
                log.debug("%s: %s failed while closing", self.name, step.__name__, exc_info=True)

    def _warm_up(self) -> dict[str, Any]:
        """Let auto exposure/white balance converge; return the last frame's metadata."""
        metadata: dict[str, Any] = {}
        first_ts: float | None = None
        started = self.clock()
        frames = 0
        while frames < self.warmup_max_frames:
            request = self._capture()
            try:
                metadata = dict(request.get_metadata())
            finally:
                request.release()
            frames += 1
            ts = self._sensor_ts(metadata)
            if ts is not None and first_ts is None:
                first_ts = ts
            elapsed = (ts - first_ts) if (ts is not None and first_ts is not None) else self.clock() - started
            if frames >= self.warmup_frames and elapsed >= self.warmup_s:
                break
        return metadata

    @property
    def flicker_period_us(self) -> int | None:
        """The lamps' flicker period (half the mains period), None when flicker is not avoided."""
        return round(1e6 / (2.0 * self.mains_hz)) if self.mains_hz else None

    def _camera_limits(self, name: str) -> tuple[Any, Any] | None:
        """(min, max) of a control as the camera reports it (picamera2's camera_controls), None
        when it does not report that control."""
        limits = (getattr(self.cam, "camera_controls", None) or {}).get(name)
        return (limits[0], limits[1]) if limits is not None and len(limits) >= 2 else None

    def _flicker_controls(self) -> dict[str, Any]:
        """The controls that make auto exposure avoid the lamps' flicker (empty when the camera's
        libcamera is too old to have them: the frozen exposure is still rounded, see below)."""
        period = self.flicker_period_us
        if period is None:
            return {}
        if self._camera_limits("AeFlickerMode") is None or self._camera_limits("AeFlickerPeriod") is None:
            log.info("%s: no AeFlickerMode in this camera's controls; only the frozen exposure avoids "
                     "the flicker", self.name)
            return {}
        return {"AeFlickerMode": FLICKER_MANUAL, "AeFlickerPeriod": period}

    def _flicker_free(self, exposure: int, gain: float) -> tuple[int, float]:
        """`exposure` (us) brought to the nearest whole number of flicker periods that the gain can
        make up for (the same light: exposure x gain kept), or as it is when none can: shorter
        than one period (a very bright tray) no exposure avoids the bands."""
        period = self.flicker_period_us
        if period is None or exposure < period:
            return exposure, gain
        lo, hi = self._camera_limits("AnalogueGain") or (1.0, None)
        k = exposure / period
        for periods in sorted({int(k), int(k) + 1}, key=lambda n: abs(n - k)):   # (k >= 1 here)
            g = gain * exposure / (periods * period)
            if g >= float(lo) and (hi is None or g <= float(hi)):
                return periods * period, round(g, 3)
        return exposure, gain

    def _lock_controls(self, metadata: dict[str, Any]) -> dict[str, Any]:
        controls: dict[str, Any] = {}
        if self.lock_exposure:
            exposure = self.exposure_time_us if self.exposure_time_us is not None else metadata.get("ExposureTime")
            gain = self.analogue_gain if self.analogue_gain is not None else metadata.get("AnalogueGain")
            if exposure is None or gain is None:
                log.warning("%s: no ExposureTime/AnalogueGain in metadata; exposure stays automatic", self.name)
            else:
                exposure, gain = int(exposure), float(gain)
                if self.exposure_time_us is None and self.analogue_gain is None:   # (values given are kept)
                    exposure, gain = self._flicker_free(exposure, gain)
                controls.update(AeEnable=False, ExposureTime=exposure, AnalogueGain=gain)
        if self.lock_white_balance:
            gains = self.colour_gains if self.colour_gains is not None else metadata.get("ColourGains")
            if gains is None or len(gains) != 2:
                log.warning("%s: no ColourGains in metadata; white balance stays automatic", self.name)
            else:
                controls.update(AwbEnable=False, ColourGains=(float(gains[0]), float(gains[1])))
        return controls

    # -- reading -----------------------------------------------------------------------
    def _capture(self) -> Any:
        if self.cam is None:
            raise FrameSourceError("camera is not open", self.name)
        try:
            return self.cam.capture_request()
        except Exception as exc:
            raise FrameSourceError(f"camera stopped delivering frames: {exc}", self.name) from exc

    @staticmethod
    def _sensor_ts(metadata: dict[str, Any]) -> float | None:
        ns = metadata.get("SensorTimestamp")
        return None if ns is None else float(ns) / 1e9

    def _fresh_request(self, streams: tuple[str, ...]) -> tuple[Any, float] | None:
        """Capture until a fresh request comes (at most one per queued buffer), else None."""
        for _ in range(self.buffer_count + 1):
            request = self._capture()
            try:
                ts = self._sensor_ts(dict(request.get_metadata()))
            except Exception:
                request.release()
                raise
            if ts is None:
                ts = self.clock()
            too_old = self.clock() - ts > self.max_age_s
            not_newer = any(ts <= self._last_ts.get(s, float("-inf")) for s in streams)
            if too_old or not_newer:
                self.dropped += 1
                request.release()
                continue
            return request, ts
        return None

    def _read_streams(self, streams: tuple[str, ...]) -> dict[str, Frame] | None:
        if not self.is_open:
            raise FrameSourceError("source is not open (call open() first)", self.name)
        got = self._fresh_request(streams)
        if got is None:
            return None
        request, ts = got
        try:
            images = {s: self._image(request, s) for s in streams}
        except FrameSourceError:
            raise
        except Exception as exc:
            raise FrameSourceError(f"bad frame from camera: {exc}", self.name) from exc
        finally:
            request.release()
        self._watch_light(images[LORES] if LORES in images else images[MAIN], ts)
        frames: dict[str, Frame] = {}
        for stream, image in images.items():
            self._last_ts[stream] = ts
            if stream == MAIN:
                frames[stream] = self._make_frame(image, ts)
            else:
                frames[stream] = Frame(image=image, timestamp=ts, index=self._lores_index)
                self._lores_index += 1
        return frames

    def _image(self, request: Any, stream: str) -> np.ndarray:
        fmt, size = (self.main_format, self.main_size) if stream == MAIN else (self.lores_format, self.lores_size)
        return to_bgr(request.make_array(stream), fmt, size)

    def _read(self) -> Frame | None:
        frames = self._read_streams((MAIN,))
        return None if frames is None else frames[MAIN]

    def read_lores(self) -> Frame | None:
        """The next fresh low-resolution frame (for settle detection), or None."""
        frames = self._read_streams((LORES,))
        return None if frames is None else frames[LORES]

    def read_both(self) -> tuple[Frame, Frame] | None:
        """(main, lores) from the same sensor frame, or None."""
        frames = self._read_streams((MAIN, LORES))
        return None if frames is None else (frames[MAIN], frames[LORES])
