"""Which of a score table's columns are drawn when not all of them hold their cells.

School's own sheet at 320x240 has five columns ("1", "2", "3", "Award", "Info") in 97 px: the
room was counted for the widest cell of any column (the Info column's "×2: 1 2 3"), so one
column was drawn, column 1, always: the player choosing *School 2* in column 2 or 3 never saw
the cell the choice writes, nor the column it goes in. The room is now counted for the columns
drawn, and where no player acts in the table (a player's own sheet) they are drawn around the
cell the menu's cursor previews.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence


def focus_column(rows: Sequence[dict[str, Any]], active: int | None) -> int | None:
    """The column the drawn ones go around: the acting player's, else the first one holding the
    highlighted preview (what the cursor's option writes), else None (the first ones)."""
    if active is not None:
        return active
    for row in rows:
        for c, cell in enumerate(row.get("cells", ())):
            if cell.get("highlight") and cell.get("kind") == "preview":
                return c
    return None


def window_room(rows: Sequence[dict[str, Any]], count: int, focus: int | None, width: int,
                need: Callable[[list[dict[str, Any]]], int],
                window: Callable[[int, int | None, int], range]) -> int:
    """How many of `count` columns are drawn in `width` px: the most whose window (`window`,
    around `focus`) holds its own cells, `need(rows of those columns)` px each; at least one."""
    for room in range(count, 1, -1):
        shown = window(count, focus, room)
        sub = [{**row, "cells": [cell for i, cell in enumerate(row.get("cells", ())) if i in shown]} for row in rows]
        if room * max(1, need(sub)) <= width:
            return room
    return 1
