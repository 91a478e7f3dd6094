"""Wrapping that never leaves a word wider than its line.

`draw.wrap` puts a word too wide for the line on a line of its own, and `draw.text` then cuts
that line with "..." (it shrinks nothing below the legible minimum). In the banner such words are
what the staff need most: a button box's device path
(*/dev/serial/by-id/usb-Arduino_LLC_Arduino_Leonardo-if00*, 373 px at the banner's 20 px type,
in lines of 314 px at 800x480 and 118 at 320x240) was cut, the end that tells one box from
another never on screen. Here such a word is broken where a path or a name breaks (after "/",
"_", "-", ".", ":"), else between letters, into pieces that fit.
"""
from __future__ import annotations

from typing import Callable

from . import theme
from .draw import printable, wrap

BREAKS = "/_-.:"


def wrap_whole(s: str, size: int, width: int, bold: bool = False) -> list[str]:
    """`draw.wrap` of `s`, then every line still wider than `width` (one long word, measured as
    drawn: `printable`) broken into lines that fit."""
    f = theme.font(size, bold)

    def fits(piece: str) -> bool:
        return f.size(printable(piece))[0] <= width

    lines: list[str] = []
    for line in wrap(s, size, width, bold):
        lines.extend([line] if fits(line) else _broken(line, fits))
    return lines


def _broken(line: str, fits: Callable[[str], bool]) -> list[str]:
    """`line` in pieces that each fit: words joined while they fit, a word too wide alone cut
    after the last break character that leaves a fitting start, else after its last fitting letter
    (at least one letter a piece: the search always ends)."""
    pieces: list[str] = []
    current = ""
    for word in line.split():
        trial = f"{current} {word}".strip()
        if fits(trial):
            current = trial
            continue
        if current:
            pieces.append(current)
            current = ""
        while len(word) > 1 and not fits(word):     # (a screen too small for one letter: one a line)
            cut = cut_at(word, fits)
            pieces.append(word[:cut])
            word = word[cut:]
        current = word
    if current:
        pieces.append(current)
    return pieces


def cut_at(word: str, fits: Callable[[str], bool]) -> int:
    """Where to cut `word` (not fitting whole): after its last break character whose start fits,
    else after its longest fitting start, at least one character."""
    longest = 1
    while longest < len(word) and fits(word[:longest + 1]):
        longest += 1
    at = max((i + 1 for i, ch in enumerate(word[:longest]) if ch in BREAKS), default=0)
    return at if at > longest // 3 else longest
