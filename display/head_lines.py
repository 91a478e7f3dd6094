"""The players' names over a score table's columns, on two staggered lines where one is too tight.

At 320x240 three players' columns (and the three of four or six a window shows) are 32 px wide:
with two word spaces kept between names, a name had 24 px, and every name of 12 letters was
headed by its first letter alone ("M...", "A...", "B..."), which few players could tell for
theirs. Where one line cuts a name to fewer than `HEAD_LETTERS` letters, the names go on two
lines, every other column's on the second: a name then has its own column and half of each
neighbour's (whose name is on the other line), "Maxi...", "Alexan...", at the cost of one
line of the header (the rows left off for it are said by the sheet's dotted line).
"""
from __future__ import annotations

from typing import Sequence

import pygame

from .draw import printable
from .label_room import HEAD_LETTERS
from .labels import ELLIPSIS, distinct_cuts


def letters(head: str, name: str) -> int:
    """How many of `name`'s letters its header `head` shows: all when whole, its start when cut,
    none for a seat number ("#3") standing for it."""
    name = printable(name)
    if head == name:
        return len(name)
    if ELLIPSIS in head:
        start, end = head.split(ELLIPSIS, 1)
        return len(start) + len(end)
    return 0


def boxes(count: int, left: int, col_w: int, right: int, clear: int, start: int) -> list[tuple[int, int]]:
    """Each of `count` columns (the first at `left`) room for its name on two staggered lines, as
    (x0, x1): its column and half of each neighbour's, `clear` px short of the next name on its
    line, never left of `start` (the labels' header, where it says which columns are shown) nor
    past the table's `right`."""
    out = []
    for c in range(count):
        x0 = left + c * col_w
        out.append((max(start, x0 - col_w // 2 + clear // 2), min(right, x0 + col_w + col_w // 2 - clear // 2)))
    return out


def staggered_heads(every: Sequence[str], shown: Sequence[int], one_line: Sequence[str], font: pygame.font.Font,
                    left: int, col_w: int, right: int, clear: int, seats: Sequence[int | None],
                    start: int | None = None) -> tuple[list[str], list[tuple[int, int]]] | None:
    """The names of the `shown` columns (of `every` column's) on two lines, with their boxes,
    where `one_line`'s cuts (the shown columns' heads on one line) leave a name fewer than
    `HEAD_LETTERS` letters and two lines show more of them; else None (one line as before)."""
    if len(shown) < 2:
        return None
    names = [every[i] for i in shown]
    before = [letters(h, n) for h, n in zip(one_line, names)]
    if not any(h != printable(n) and b < HEAD_LETTERS for h, n, b in zip(one_line, names, before)):
        return None
    room = boxes(len(shown), left, col_w, right, clear, left if start is None else start)
    least = min(x1 - x0 for x0, x1 in room)
    # (the columns a window left off are cut as narrow, so that those shown stay apart from them)
    widths = [least] * len(every)
    for i, (x0, x1) in zip(shown, room):
        widths[i] = x1 - x0
    heads = distinct_cuts(list(every), font, widths, list(seats))
    heads = [heads[i] for i in shown]
    if sum(letters(h, n) for h, n in zip(heads, names)) <= sum(before):
        return None
    return heads, room
