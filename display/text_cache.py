"""The rendered lines of text kept between frames, bounded by the memory they take.

A sheet redraws the same few hundred lines every frame, so they are kept; but every move also
brings lines never drawn again (a round's status, a message, the dice of a throw). Kept up to
4,000 lines and then all dropped at once, they took 29 KB a line at 1280x720 (antialiased 32-bit
surfaces), and a table drawing every frame grew from 160 MB to 240 MB over 8 games before the
first drop (more at 1920x1080, where a line is twice the pixels), memory a Pi with 1 GB gives
no other use and that the allocator does not hand back once dropped. Now the lines least
recently drawn are dropped first, once the lines kept take more than `max_bytes`: a frame's own
lines are about 1 MB at most, so the sheet's lines stay, and the move's old lines go.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Hashable

import pygame

#: the bytes of pixels kept; a frame's own lines take 1 MB at most at 1920x1080 (School's sheet, 75 lines)
MAX_BYTES = 24 * 1024 * 1024


def surface_bytes(img: pygame.Surface) -> int:
    """The bytes of `img`'s pixels (its rows padded as SDL pads them)."""
    return img.get_pitch() * img.get_height()


class SurfaceCache:
    """Surfaces by key, the least recently used dropped first beyond `max_bytes` of pixels."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._kept: OrderedDict[Hashable, pygame.Surface] = OrderedDict()

    def get(self, key: Hashable) -> pygame.Surface | None:
        """The surface kept for `key` (now the most recently used), None if none is."""
        img = self._kept.get(key)
        if img is not None:
            self._kept.move_to_end(key)
        return img

    def put(self, key: Hashable, img: pygame.Surface) -> None:
        """Keep `img` for `key`, dropping the least recently used beyond the bound (never `img`)."""
        old = self._kept.pop(key, None)
        if old is not None:
            self.bytes -= surface_bytes(old)
        self._kept[key] = img
        self.bytes += surface_bytes(img)
        while self.bytes > self.max_bytes and len(self._kept) > 1:
            _, dropped = self._kept.popitem(last=False)
            self.bytes -= surface_bytes(dropped)

    def values(self) -> list[pygame.Surface]:
        return list(self._kept.values())

    def clear(self) -> None:
        self._kept.clear()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._kept)
