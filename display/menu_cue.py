"""The decision menu's scroll cue where "more above"/"more below" find no room: small triangles.

On a 320x240 panel the question over a menu is drawn whole, then the cursor's row and one more;
the words "more above" and "more below" took a line each, or the end of the question's or the
hint's last line, and no longer find either: School showed "Throw 5 again" and "School 6", and
nothing told a player that every other row of the sheet was below (nor, scrolled, above); at
480x320 "more above" was left off the same way. A triangle needs no line: the menu's rows give
up a narrow margin on their right (`gutter`), and a muted triangle in it points up beside the
first row shown when rows are hidden above, down beside the last when rows are hidden below.
Never over a row's label, points or the cursor's highlight (the rows end before the margin).
"""
from __future__ import annotations

import pygame

from . import theme
from .menu_rows import LABEL_SHARE
from .view import OptionView


def _size(s: float) -> tuple[int, int, int]:
    """The triangle's width and height and its gap to the rows, at scale `s` (9x7 px and 2 px
    at 320x240: as wide as a digit of the menu's points)."""
    w = max(9, int(18 * s))
    return w, max(7, w * 3 // 4), max(2, int(4 * s))


def gutter(s: float) -> int:
    """The width the menu's rows give up on their right for the cue (its triangle and gap)."""
    w, _, gap = _size(s)
    return w + gap


def draw_cue(surface: pygame.Surface, right: int, first: pygame.Rect | None, last: pygame.Rect | None,
             s: float, colour=theme.MUTED) -> list[pygame.Rect]:
    """Draw the cue in the margin that ends at `right` (x): a triangle pointing up at the top of
    the `first` row shown (None: no row hidden above), one pointing down at the bottom of the
    `last` (None: none hidden below). With one row shown, both share it, the up one over the
    down one. Returns the triangles' bounding rects."""
    w, h, _ = _size(s)
    drawn: list[pygame.Rect] = []
    if first is not None:
        top = first.top + max(1, (first.height // 2 - h) // 2)
        points = [(right - w, top + h - 1), (right - 1, top + h - 1), (right - w + (w - 1) // 2, top)]
        drawn.append(pygame.draw.polygon(surface, colour, points))
    if last is not None:
        bottom = last.bottom - 1 - max(1, (last.height // 2 - h) // 2)
        points = [(right - w, bottom - h + 1), (right - 1, bottom - h + 1), (right - w + (w - 1) // 2, bottom)]
        drawn.append(pygame.draw.polygon(surface, colour, points))
    return drawn


def points_inset(width: int, rows_w: int) -> int:
    """How far a row's points end before the end of the row's text (`rows_w` of the menu's `width`
    when the rows give up the cue's margin): 4 px as ever, none in narrowed rows (their highlight
    still reaches 4 px past them), which keeps the labels the room they had."""
    return 4 if rows_w >= width else 0


def points_gap(size: int) -> int:
    """The least room between a narrowed row's label (or label and note) and its points: a fifth
    of the type `size` (4 px at 320x240; half of it in rows not narrowed)."""
    return size // 5


def text_width(width: int, rows_w: int) -> int:
    """The width `menu_rows.row_texts` measures a row's label, note and points in: the rows' own,
    plus the 4 px their points no longer keep from the row's end once narrowed. Measured in the
    narrowed width alone (and half the type size from the points), Thirteen's "Aces: give up"
    and "Sixes: give up" beside their "0" went onto two lines at 320x240, and the cursor's row
    ran 22 px past the panel, its note over the hint."""
    return rows_w + 4 - points_inset(width, rows_w)


def label_room(opt: OptionView, width: int, rows_w: int, size: int) -> int:
    """A row's label's room when the rows give up the cue's margin (`rows_w` of the menu's `width`):
    the room it had (`LABEL_SHARE` of `width`, which keeps the points clear), but no further than
    a fifth of `size` before its points (drawn at `size`, bold). A label starts 4 px into the
    row. Taken off every label, the margin cut "Throw 5 again" to "Throw 5 ag..." on a 320x240
    panel two players leave ~97 px wide, and School's "Cross Sm. str." beside its "0"."""
    share = int(width * LABEL_SHARE)
    if rows_w >= width:
        return share
    points_w = theme.font(size, True).size(str(opt.points))[0] + points_gap(size) if opt.points is not None else 0
    return min(share, rows_w - points_inset(width, rows_w) - 4 - points_w)


def one_kind(words: bool, triangles: bool) -> bool:
    """Whether "more above" (or "more below") is drawn as words, given whether they would be
    (`words`) and whether the menu's rows gave up the margin for a triangle at either end
    (`triangles`): never both kinds of cue on one menu. Where "more above" found room at the end
    of the question's last line and "more below" none (no hint, or its last line full), the
    panel showed the words at the top and a triangle at the bottom: two signs for one thing, the
    words easy to take for part of the question. With the margin given up, triangles for both."""
    return words and not triangles
