"""Device names that may be patterns (`/dev/ttyACM*`, `/dev/video*`).

A USB device plugged back while the table still held its old node comes back under the next
number, so the camera and the button box both take a pattern and open the first match that
opens; both list the matches the same way, in number order (/dev/video2 before /dev/video10).
"""
from __future__ import annotations

import glob
import os
import re
from typing import Any


def is_pattern(name: Any) -> bool:
    """Whether a configured device name is a pattern to match, not one device."""
    return isinstance(name, str) and glob.has_magic(name)


def matches(pattern: str) -> list[str]:
    """The device paths `pattern` matches now, in number order."""
    return sorted(glob.glob(pattern), key=_number_order)


def _number_order(path: str) -> list[Any]:
    """Sort key that puts /dev/video2 before /dev/video10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path)]


def stable_links(node: str | None, by_id_dir: str) -> list[str]:
    """The links of `by_id_dir` (/dev/v4l/by-id, /dev/serial/by-id) that point at `node`, sorted: the
    device's own names, which udev points at its new node when it comes back under another number."""
    if node is None:
        return []
    try:
        names = sorted(os.listdir(by_id_dir))
    except OSError:                 # (no such folder: no such USB device, or not Linux)
        return []
    paths = (os.path.join(by_id_dir, n) for n in names)
    return [p for p in paths if os.path.realpath(p) == node]
