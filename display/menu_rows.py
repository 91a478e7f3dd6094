"""The decision menu's rows when an option says what it does besides its points (`OptionView.note`:
Thirteen's "give up", "+10 early"): the note goes after the label where the row holds both and
the points, else on a second line of the row. Cut with "..." at 320x240, "4 of a kind: give up"
would have read "4 of a kind: giv..." and a player could not tell what OK would do."""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from . import theme
from .label_room import fitting_form
from .view import OptionView

LABEL_SHARE = 0.78          # of the menu's width, the most a label takes (its points go on the right)


def menu_label(opt: OptionView, width: int, least: int, room: int | None = None) -> OptionView:
    """`opt` with the form of its label drawn in a menu `width` px wide (its label `room` px, by
    default `LABEL_SHARE` of that) whose type shrinks to `least`: the label where it fits (bold,
    as on the cursor's row, so that a row keeps its form when the cursor comes to it), else the
    first of the game's shorter forms that fits, else the shortest (cut when drawn). At 320x240
    School's "School 2, bank 1" and "School 2, bank 2" were both cut to "School 2, ba...", and
    "School 2 (col 2)" to "School 2 (co...": options that differ in their last words read alike;
    "S2 bank 1", "S2 col 2" keep those words."""
    if not opt.short or opt.note:
        return opt
    room = int(width * LABEL_SHARE) if room is None else room
    form = fitting_form(opt.label, opt.short, room, theme.font(least, True))
    return opt if form == opt.label else replace(opt, label=form)


def row_texts(opt: OptionView, width: int, size: int, gap: int | None = None) -> list[str]:
    """The lines of `opt`'s row in a menu `width` px wide at type `size`: its label and note on
    one line beside its points (`gap` px apart, by default half of `size`) when they fit, else
    the label, then the note on a line of its own."""
    if not opt.note:
        return [opt.label]
    font = theme.font(size, True)               # (measured bold: the cursor's row is drawn so)
    gap = size // 2 if gap is None else gap
    points_w = font.size(str(opt.points))[0] + gap if opt.points is not None else 0
    joined = f"{opt.label}: {opt.note}"
    if font.size(joined)[0] + points_w <= width - 8:
        return [joined]
    return [opt.label, opt.note]


def row_heights(options: Sequence[OptionView], width: int, size: int, line_h: int,
                gap: int | None = None) -> list[int]:
    """Each row's height: a line, or two for a note on a line of its own (`gap`: `row_texts`')."""
    return [line_h * len(row_texts(o, width, size, gap)) for o in options]


def menu_window(heights: Sequence[int], sel: int, room: int) -> tuple[int, int]:
    """The rows [start, end) shown in `room` px around the cursor's row `sel`: it, then a row above,
    a row below, in turn while they fit (with rows of one height, the cursor centred as before,
    one more above when the count is even; at the ends, the rows on the other side)."""
    start, end, used = sel, sel + 1, heights[sel]
    up = True
    while True:
        grown = False
        for side in ((True, False) if up else (False, True)):
            if side and start > 0 and used + heights[start - 1] <= room:
                start -= 1
                used += heights[start]
                grown = True
                break
            if not side and end < len(heights) and used + heights[end] <= room:
                used += heights[end]
                end += 1
                grown = True
                break
        if not grown:
            return start, end
        up = not up
