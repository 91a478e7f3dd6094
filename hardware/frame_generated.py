"""Frames from any Python producer (e.g. the vision package's synthetic throw animation).

Hardware must not import vision; the controller hands the producer in through the config
dict (`{"type": "generated", "factory": make_animation}`), so this module only adapts it.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

import numpy as np

from ._config import check_keys, positive
from .frames import BaseFrameSource, Clock, Frame, FrameSourceError, to_bgr_uint8

ImageIterable = Iterable["np.ndarray | None"]


class GeneratedFrameSource(BaseFrameSource):
    """Adapts an iterable of images, or a factory returning one, to a FrameSource.

    * `frames`: an iterable of images; consumed once (a list can be replayed on reopen).
    * `factory`: a zero-argument callable returning such an iterable; called at every
      `open()`, so `reconnect()` restarts the animation.

    An item that is None means "no new frame right now" (read returns None); the end of the
    iterable finishes the source. Items are normalised to BGR uint8; a non-image item raises
    FrameSourceError naming its position. Timestamps are `index / fps` unless `clock` is given.
    """

    def __init__(
        self,
        frames: ImageIterable | None = None,
        factory: Callable[[], ImageIterable] | None = None,
        *,
        fps: float = 30.0,
        clock: Clock | None = None,
        name: str = "generated",
    ) -> None:
        super().__init__()
        if (frames is None) == (factory is None):
            raise ValueError("[camera] generated source needs exactly one of 'frames' or 'factory'")
        if factory is not None and not callable(factory):
            raise ValueError("[camera] 'factory' must be callable")
        if frames is not None and not hasattr(frames, "__iter__"):
            raise ValueError("[camera] 'frames' must be iterable")
        self._frames = frames
        self._factory = factory
        self.fps = positive(fps, "fps", "camera")
        self.clock = clock
        self.name = name
        self._iterator: Iterator[np.ndarray | None] | None = None
        self._produced = 0

    @classmethod
    def from_config(cls, config: dict[str, Any], *, clock: Clock | None = None) -> "GeneratedFrameSource":
        check_keys(config, {"frames", "factory", "fps", "name"}, "camera")
        return cls(
            frames=config.get("frames"),
            factory=config.get("factory"),
            fps=config.get("fps", 30.0),
            clock=clock,
            name=config.get("name", "generated"),
        )

    def _open(self) -> None:
        try:
            produced = self._factory() if self._factory is not None else self._frames
            self._iterator = iter(produced)  # type: ignore[arg-type]
        except Exception as exc:
            raise FrameSourceError(f"producer failed to start: {exc}", self.name) from exc
        self._produced = 0
        self._next_index = 0

    def _close(self) -> None:
        self._iterator = None

    def _read(self) -> Frame | None:
        assert self._iterator is not None
        try:
            item = next(self._iterator)
        except StopIteration:
            self.finished = True
            return None
        except Exception as exc:
            raise FrameSourceError(f"producer failed at item {self._produced}: {exc}", self.name) from exc
        position = self._produced
        self._produced += 1
        if item is None:
            return None
        try:
            image = to_bgr_uint8(item, f"item {position}")
        except ValueError as exc:
            raise FrameSourceError(str(exc), self.name) from exc
        timestamp = self.clock() if self.clock is not None else self._next_index / self.fps
        return self._make_frame(image, timestamp)
