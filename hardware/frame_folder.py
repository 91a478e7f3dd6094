"""Frames from image files: fixtures for tests and headless play without a camera.

A still camera delivers the same scene many times per second; `repeat` reproduces that
(each image is yielded k times) so settle detection can be exercised from a folder.
"""
from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any, Sequence

import cv2
import numpy as np

from ._config import a_path, boolean, check_keys, positive, text, whole
from .frames import BaseFrameSource, Clock, Frame, FrameSourceError, to_bgr_uint8

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".ppm", ".pgm"})


def natural_key(path: Path) -> list[Any]:
    """Sort key so that frame_2.png comes before frame_10.png."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


def _decode_file(path: Path) -> np.ndarray | None:
    """The image in a file, or None. The bytes are read by Python and decoded by OpenCV: given a
    name that is not UTF-8 (a file copied from another system: b"2\\xff.png" is '2\\udcff.png' to
    Python), cv2.imread killed the process with a segmentation fault, and the table with it."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    except cv2.error:
        return None


class FolderFrameSource(BaseFrameSource):
    """Images from a folder (sorted by name, naturally) or from an explicit list (kept in order).

    Timestamps are `index / fps` (deterministic) unless a `clock` is given. An unreadable file
    either raises FrameSourceError naming it (`on_bad="error"`) or is skipped with a warning
    (`on_bad="skip"`), once: from then on it is skipped quietly, until it changes on disk, and
    `reconnect()` goes on after it. (It used to be read again at every pass and every reconnect,
    which started the folder over: with `loop` and the retrying wrapper, the images after it
    were never read.) A folder with no readable image left fails to open.
    """

    def __init__(
        self,
        folder: str | Path | None = None,
        files: Sequence[str | Path] | None = None,
        *,
        loop: bool = False,
        repeat: int = 1,
        fps: float = 10.0,
        on_bad: str = "error",
        clock: Clock | None = None,
        name: str = "folder",
    ) -> None:
        super().__init__()
        if (folder is None) == (files is None):
            raise ValueError("[camera] folder source needs exactly one of 'path' or 'files'")
        if on_bad not in ("error", "skip"):
            raise ValueError(f"[camera] on_bad must be 'error' or 'skip', got {on_bad!r}")
        if files is not None and (isinstance(files, str) or not isinstance(files, (list, tuple))):
            raise ValueError(f"[camera] files must be a list of image files [\"a.png\", ...], got {files!r}")
        self.folder = a_path(folder, "path", "camera") if folder is not None else None
        self._given_files = [a_path(f, "files", "camera") for f in files] if files is not None else None
        self.loop = boolean(loop, "loop", "camera")
        self.repeat = whole(repeat, "repeat", "camera", low=1)
        self.fps = positive(fps, "fps", "camera")
        self.on_bad = on_bad
        self.clock = clock
        self.name = text(name, "name", "camera")
        self.files: list[Path] = []
        self.skipped: list[Path] = []          # files found unreadable, in the order found
        self._bad: dict[Path, tuple[int, int]] = {}   # path -> (mtime_ns, size) when found so
        self._pos = 0
        self._repeats_left = 0
        self._current: np.ndarray | None = None
        self._good_this_pass = 0

    @classmethod
    def from_config(cls, config: dict[str, Any], *, clock: Clock | None = None) -> "FolderFrameSource":
        check_keys(config, {"path", "files", "loop", "repeat", "fps", "on_bad", "name"}, "camera")
        return cls(
            folder=config.get("path"),
            files=config.get("files"),
            loop=config.get("loop", False),
            repeat=config.get("repeat", 1),
            fps=config.get("fps", 10.0),
            on_bad=config.get("on_bad", "error"),
            clock=clock,
            name=config.get("name", "folder"),
        )

    def _list_files(self) -> list[Path]:
        if self._given_files is not None:
            return list(self._given_files)
        assert self.folder is not None
        if not self.folder.is_dir():
            raise FrameSourceError(f"image folder {self.folder} does not exist", self.name)
        found = [p for p in self.folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES]
        return sorted(found, key=natural_key)

    def _open(self) -> None:
        self.files = self._list_files()
        if not self.files:
            where = self.folder if self.folder is not None else "the file list"
            raise FrameSourceError(f"no images in {where}", self.name)
        self._pos = 0
        self._repeats_left = 0
        self._current = None
        self._good_this_pass = 0
        self._next_index = 0
        if all(self._known_bad(p) for p in self.files):
            raise FrameSourceError(self._none_readable(), self.name)

    def reconnect(self) -> None:
        """Open again, going on after the image last read when the folder has not changed
        (frame numbers and timestamps go on too)."""
        files, pos, good, index = self.files, self._pos, self._good_this_pass, self._next_index
        super().reconnect()
        if self.files == files:
            self._pos, self._good_this_pass, self._next_index = pos, good, index

    def _none_readable(self) -> str:
        names = ", ".join(p.name for p in self.files[:3]) + (", ..." if len(self.files) > 3 else "")
        where = self.folder if self.folder is not None else "the file list"
        return f"no readable images in {where} ({len(self.files)} unreadable: {names})"

    @staticmethod
    def _signature(path: Path) -> tuple[int, int]:
        try:
            st = path.stat()
        except OSError:
            return (-1, -1)
        return (st.st_mtime_ns, st.st_size)

    def _known_bad(self, path: Path) -> bool:
        return path in self._bad and self._bad[path] == self._signature(path)

    def _close(self) -> None:
        self._current = None

    def _load(self, path: Path) -> np.ndarray | None:
        """Decode one file; None for a file already found unreadable, or (after logging) for a
        newly found one when skipping bad files; else raise naming it."""
        if self._known_bad(path):
            return None
        image = _decode_file(path) if path.is_file() else None
        if image is not None and image.size > 0:
            self._bad.pop(path, None)
            return to_bgr_uint8(image, str(path))
        self._bad[path] = self._signature(path)
        if path not in self.skipped:
            self.skipped.append(path)
        if self.on_bad == "error":
            raise FrameSourceError(f"cannot read image {path}", self.name)
        log.warning("%s: skipping unreadable image %s", self.name, path)
        return None

    def _read(self) -> Frame | None:
        while self._repeats_left == 0:
            if self._pos >= len(self.files):
                if not self.loop:
                    self.finished = True
                    return None
                if self._good_this_pass == 0:
                    raise FrameSourceError(self._none_readable(), self.name)
                self._pos = 0
                self._good_this_pass = 0
            path = self.files[self._pos]
            self._pos += 1
            image = self._load(path)
            if image is None:
                continue
            self._good_this_pass += 1
            self._current = image
            self._repeats_left = self.repeat
        self._repeats_left -= 1
        assert self._current is not None
        timestamp = self.clock() if self.clock is not None else self._next_index / self.fps
        # Each delivered frame gets its own array: a consumer drawing on it must not alter the next.
        return self._make_frame(self._current.copy(), timestamp)
