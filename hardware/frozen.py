"""A live camera that freezes: frames keep coming, every one the same picture to the byte.

A UVC webcam whose firmware hangs with its stream on, or a capture that hands over its last buffer
again and again, raises nothing and sends frames on time. The table took them for a tray lying
perfectly still: dice thrown after the freeze were never seen, nothing was said, and a picture
frozen on dice was read as a throw at rest. A live sensor's noise changes some pixels in every
frame, so two frames equal to the byte are one picture sent twice: the copy is not a new frame,
and a picture unchanged for `FROZEN_S` of the camera's time is a camera problem (named, and the
camera opened again by the retrying wrapper). Folders and generated frames repeat a picture on
purpose and are not watched (see `hardware.frame_reader.table_frames`).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import numpy as np

from .frames import Frame, FrameSourceError

log = logging.getLogger(__name__)

#: a picture unchanged to the byte this long (seconds of the frames' own timestamps) is a frozen
#: camera (ASSUMPTION: as long as the table's "no new picture" notice waits)
FROZEN_S = 3.0
#: every this many pixels each way are compared (a frozen frame is the same everywhere, a live
#: one differs by its noise nearly everywhere): ~0.1 ms a 1280x960 frame, not a full copy
STEP = 8
#: a picture whose compared pixels span no more grey levels than this, or whose mean is within
#: DARK of black or white, is flat (a covered lens, the lamp off with a hot pixel or two, a picture
#: burnt white): its noise may be nothing, so its copies are not taken for a freeze (the table
#: names a black picture itself)
FLAT, DARK = 8, 16
FROZEN_WORDS = ("picture frozen for {s:g} s: dice thrown now are not seen. If it stays so, unplug the camera "
                "and plug it back")


@dataclass
class _Seen:
    """The last new picture of a stream: its pixels compared, and since when copies of it came
    (None: none yet, or the camera was opened again since)."""

    sample: np.ndarray
    since: float | None = None


class FrozenWatch:
    """Wraps a live frame source: a frame that is the last one's copy is not a new frame (None), and
    copies for `frozen_s` raise FrameSourceError (for `RetryingFrameSource`: said, closed, opened
    again). A camera opened again that sends the same frozen picture is still frozen: no "back"."""

    def __init__(self, source: Any, frozen_s: float = FROZEN_S) -> None:
        self.source = source
        self.frozen_s = frozen_s
        self.copies = 0                         # frames dropped as copies (for the benchmark, tests)
        self._seen: dict[str, _Seen] = {}

    def __getattr__(self, name: str) -> Any:    # name, finished, may_hang, relocks ... of the camera
        return getattr(self.__dict__["source"], name)

    def open(self) -> None:
        self.source.open()
        self._restart()

    def reconnect(self) -> None:
        self.source.reconnect()
        self._restart()

    def close(self) -> None:
        self.source.close()

    def _restart(self) -> None:
        """The camera (re)opened: it has `frozen_s` afresh to show a change."""
        for seen in self._seen.values():
            seen.since = None

    def read(self) -> Frame | None:
        return self._watch("read", self.source.read())

    def read_lores(self) -> Frame | None:
        reader = getattr(self.source, "read_lores", self.source.read)
        return self._watch("read_lores", reader())

    def _watch(self, stream: str, frame: Frame | None) -> Frame | None:
        if frame is None or not isinstance(frame.image, np.ndarray):
            return frame
        sample = frame.image[::STEP, ::STEP]
        seen = self._seen.get(stream)
        if seen is None or seen.sample.shape != sample.shape or not np.array_equal(seen.sample, sample) \
                or _flat(sample):       # (looked at only for a copy: an equal sample)
            self._seen[stream] = _Seen(sample.copy())
            return frame
        self.copies += 1
        if seen.since is None:
            seen.since = frame.timestamp
        elif frame.timestamp - seen.since >= self.frozen_s:
            raise FrameSourceError(FROZEN_WORDS.format(s=self.frozen_s), self.name)
        return None


def _flat(sample: np.ndarray) -> bool:
    if sample.size == 0 or int(sample.max()) - int(sample.min()) <= FLAT:
        return True
    mean = float(sample.mean())
    return mean < DARK or mean > 255 - DARK
