"""The tray's caption in the lines the tray's width gives it.

A caption ends with what it is about: the dice's values ("Read: 5 1 3 4 1", "Held: K K",
"Fay's throw, as recorded: 1 2 2 5 6"). Drawn on one line and cut at its end, at 320x240 (a
tray 120 px wide) a game resumed after a power cut, or betting Classic, showed "Fay's throw, as
r...", the values never on screen. A caption that does not fit one line at the least legible
type goes on two: its end whole on the second (as many of its last words as fit), the rest on
the first (cut with "..." only if even that is too long: "Christopher's thr..." over "A 10 Q J
10"). A caption that fits is drawn as before.
"""
from __future__ import annotations

from typing import Callable

from . import theme
from .draw import printable


def caption_lines(caption: str, least: int, width: int) -> list[str]:
    """`caption` as the lines to draw in `width` px (bold, at the least type `least`): one where
    it fits, else two, the second as many of its last words as fit ("recorded: 1 3 4 4 5", the
    values together), the first the rest."""
    font = theme.font(least, True)
    return end_kept_lines(caption, lambda line: font.size(printable(line))[0] <= width)


def end_kept_lines(line: str, fits: Callable[[str], bool]) -> list[str]:
    """`line` whole where it `fits`, else on two lines: as many of its last words as fit on the
    second, the rest on the first (to be cut with "..." if it does not fit)."""
    if not line or fits(line):
        return [line] if line else []
    words = line.split()
    if len(words) < 2:
        return [line]
    k = len(words) - 1                                  # the second line: words[k:]
    while k > 1 and fits(" ".join(words[k - 1:])):
        k -= 1
    return [" ".join(words[:k]), " ".join(words[k:])]
