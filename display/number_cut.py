"""Whether a score table's narrow columns would cut a cell's number off.

A cell too wide for its column is drawn cut, its start and "...": a word's start still reads
as the word ("ha..." for "hand"), a number cut off is a number lost. Objective cards' three
players at 320x240 had 32 px columns: "won 2" (a card won, and its points) was drawn "w...",
"won 1, hand" "won...". Where some cell would lose its number so, the sheet draws the columns
that keep every number (the acting player's and the next ones, "1-2 of 3" in its corner), as it
does where a cell would be a bare "...".
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from . import theme
from .draw import printable

DIGITS = re.compile(r"\d+")
TICKS = set("■▣□")       # a row of boxes is drawn, not written (as `display.sheet.TICK_GLYPHS`)


def cell_margin(cell: dict[str, Any]) -> int:
    """The px a cell's text leaves its column (wider in a highlighted cell's outline), as
    `display.sheet.draw_table` gives it."""
    return 10 if cell.get("highlight") else 4


def number_need(cell: dict[str, Any], least: int, bold: bool = False) -> int:
    """The least column width at which `cell` keeps its first number whole at the least type
    `least`: a form of it whole, or its shortest form cut after that number ("won 1..."); 0 for
    a cell with no number."""
    forms = [form for form in (cell.get("text", ""), *cell.get("short", ())) if form]
    if not forms or set(forms[0].partition(" ")[0]) <= TICKS or not any(DIGITS.search(form) for form in forms):
        return 0
    font = theme.font(least, bold)
    shortest = min(forms, key=lambda form: font.size(printable(form))[0])
    widths = [font.size(printable(form))[0] for form in forms]
    found = DIGITS.search(shortest)
    if found is not None and found.end() < len(shortest):
        widths.append(font.size(printable(shortest[:found.end()]) + "...")[0])
    return min(widths) + cell_margin(cell)


def numbers_need(rows: Sequence[dict[str, Any]], least: int) -> int:
    """The column width every cell of `rows` keeps its number at (0: no cell has one)."""
    return max((number_need(cell, least, "total" in (row.get("kind"), cell.get("kind")))
                for row in rows for cell in row.get("cells", ())), default=0)
