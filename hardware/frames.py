"""Frames from a camera (or a stand-in for one), behind one small interface.

The controller reads frames without knowing whether they come from a Pi camera, a USB
webcam, a folder of fixtures or a synthetic animation: it asks `make_frame_source(config)`
for a source and calls `read()`. Device failures surface as `FrameSourceError` with a
message meant for the screen ("camera unplugged?"), never as a crash deep in OpenCV.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, Protocol, runtime_checkable

import numpy as np

log = logging.getLogger(__name__)

Clock = Callable[[], float]


class FrameSourceError(RuntimeError):
    """A frame source cannot deliver: device missing, unplugged, unreadable file...

    The message is written for people (it is shown on the table's screen); `source` names
    the source that failed so logs say which one.
    """

    def __init__(self, message: str, source: str = "") -> None:
        super().__init__(f"{source}: {message}" if source else message)
        self.source = source
        self.reason = message


@dataclass(frozen=True)
class Frame:
    """One image, BGR uint8 (H, W, 3), with when it was taken and its number in the stream."""

    image: np.ndarray
    timestamp: float
    index: int


@runtime_checkable
class FrameSource(Protocol):
    """What the controller needs from any camera-like thing."""

    name: str

    def open(self) -> None: ...

    def close(self) -> None: ...

    def read(self) -> Frame | None:
        """The next new frame, or None when there is none right now (or the stream ended)."""
        ...

    def reconnect(self) -> None: ...

    def __iter__(self) -> Iterator[Frame]: ...

    def __enter__(self) -> "FrameSource": ...

    def __exit__(self, *exc: object) -> None: ...


def to_bgr_uint8(image: Any, what: str = "image") -> np.ndarray:
    """Normalise an image to contiguous BGR uint8 (H, W, 3) so every consumer sees one layout.

    Grey images are expanded, a fourth (alpha/padding) channel is dropped, 16-bit and float
    images are scaled. Anything else is refused with a ValueError naming `what`.
    """
    if not isinstance(image, np.ndarray):
        raise ValueError(f"{what} is not a numpy array (got {type(image).__name__})")
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if image.ndim not in (2, 3) or image.shape[0] < 1 or image.shape[1] < 1:
        raise ValueError(f"{what} has unusable shape {image.shape}")
    if image.ndim == 3 and image.shape[2] not in (3, 4):
        raise ValueError(f"{what} has {image.shape[2]} channels; expected 1, 3 or 4")
    if image.dtype != np.uint8:
        if image.dtype == np.uint16:
            image = (image >> 8).astype(np.uint8)
        elif np.issubdtype(image.dtype, np.floating):
            image = np.clip(image * 255.0 if image.max(initial=0) <= 1.0 else image, 0, 255).astype(np.uint8)
        elif image.dtype == np.bool_ or np.issubdtype(image.dtype, np.integer):
            image = np.clip(image, 0, 255).astype(np.uint8)
        else:
            raise ValueError(f"{what} has unsupported dtype {image.dtype}")
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    elif image.shape[2] == 4:
        image = image[:, :, :3]
    return np.ascontiguousarray(image)


class BaseFrameSource:
    """Shared plumbing: context manager, iteration, reconnect, open-state bookkeeping.

    Subclasses implement `_open`, `_close` and `_read`. `finished` tells a finite source that
    has run out (folder without loop, exhausted generator) from a camera with no new frame.
    """

    name = "frames"
    #: seconds `__iter__` waits when a live source has no new frame yet
    idle_wait_s = 0.005

    def __init__(self) -> None:
        self._is_open = False
        self.finished = False
        self._next_index = 0

    # -- lifecycle ---------------------------------------------------------------------
    @property
    def is_open(self) -> bool:
        return self._is_open

    def open(self) -> None:
        if self._is_open:
            return
        self.finished = False
        self._open()
        self._is_open = True

    def close(self) -> None:
        if not self._is_open:
            return
        self._is_open = False
        try:
            self._close()
        except Exception:  # closing a dead device must not hide the original error
            log.exception("%s: error while closing", self.name)

    def reconnect(self) -> None:
        """Close (ignoring errors) and open again; raises FrameSourceError if still failing."""
        self.close()
        self.open()

    def read(self) -> Frame | None:
        if not self._is_open:
            raise FrameSourceError("source is not open (call open() first)", self.name)
        return self._read()

    def _make_frame(self, image: np.ndarray, timestamp: float) -> Frame:
        frame = Frame(image=image, timestamp=float(timestamp), index=self._next_index)
        self._next_index += 1
        return frame

    # -- protocol sugar ----------------------------------------------------------------
    def __enter__(self) -> "BaseFrameSource":
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[Frame]:
        """Frames until a finite source finishes; waits briefly when a live one has none."""
        self.open()
        while True:
            frame = self.read()
            if frame is not None:
                yield frame
            elif self.finished:
                return
            else:
                time.sleep(self.idle_wait_s)

    # -- for subclasses ----------------------------------------------------------------
    def _open(self) -> None:
        raise NotImplementedError

    def _close(self) -> None:
        raise NotImplementedError

    def _read(self) -> Frame | None:
        raise NotImplementedError


# --------------------------------------------------------------------------------------
# Registry: config["type"] -> builder. Builders import their module lazily so choosing
# "folder" never imports picamera2 (absent off the Pi) and vice versa.
# --------------------------------------------------------------------------------------
FrameBuilder = Callable[..., FrameSource]
_BUILDERS: dict[str, FrameBuilder] = {}


def register_frame_source(type_name: str, builder: FrameBuilder) -> None:
    """Make `config["type"] == type_name` build a source with `builder(config, **inject)`."""
    _BUILDERS[type_name] = builder


def frame_source_types() -> list[str]:
    return sorted(_BUILDERS)


def make_frame_source(config: Mapping[str, Any], **inject: Any) -> FrameSource:
    """Build the frame source named by `config["type"]` (not opened yet).

    `inject` passes test doubles and non-TOML objects through to the builder (e.g.
    `clock=`, `capture_factory=`, `picamera2_module=`). Unknown config keys raise ValueError
    so a typo in config.toml is reported instead of silently ignored.
    """
    kind = config.get("type")
    if kind not in _BUILDERS:
        raise ValueError(f"unknown camera type {kind!r}; expected one of {frame_source_types()}")
    return _BUILDERS[kind](dict(config), **inject)


def _build_folder(config: dict[str, Any], **inject: Any) -> FrameSource:
    from .frame_folder import FolderFrameSource

    return FolderFrameSource.from_config(config, **inject)


def _build_generated(config: dict[str, Any], **inject: Any) -> FrameSource:
    from .frame_generated import GeneratedFrameSource

    return GeneratedFrameSource.from_config(config, **inject)


def _build_opencv(config: dict[str, Any], **inject: Any) -> FrameSource:
    from .frame_opencv import OpenCVFrameSource

    return OpenCVFrameSource.from_config(config, **inject)


def _build_picamera2(config: dict[str, Any], **inject: Any) -> FrameSource:
    from .frame_picamera2 import Picamera2FrameSource

    return Picamera2FrameSource.from_config(config, **inject)


register_frame_source("folder", _build_folder)
register_frame_source("generated", _build_generated)
register_frame_source("opencv", _build_opencv)
register_frame_source("picamera2", _build_picamera2)
