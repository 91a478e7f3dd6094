"""School's own sheet on a 320x240 panel: five columns ("1", "2", "3", "Award", "Info") in 97 px.
The room was counted for the widest cell of any column (the Info column's "×2: 1 2 3"), so the
sheet drew one column, column 1, whatever the menu's cursor was on: a player choosing *School 2*
for column 2 or 3 never saw the cell the choice writes ("1 of 5" in the corner). The sheet now
draws as many columns as hold their own cells (columns 1-3: "1-3 of 5"), around the cell the
cursor previews."""
from __future__ import annotations

import pygame
import pytest

from display import draw
from display import render as render_module
from display import sheet as sheet_module

from test_sheet_fits import game_view

NAMES = ["Maximilianus", "Alexandrinaa", "Bartholomews"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def previewed_column(table: dict) -> int | None:
    """The column of the table's highlighted preview (what the cursor's option writes)."""
    for row in table["rows"]:
        for c, cell in enumerate(row["cells"]):
            if cell.get("highlight") and cell.get("kind") == "preview":
                return c
    return None


def views_with_a_preview_past_column_1(players: int):
    """School's play views whose cursor previews a cell in column 2 or 3."""
    found = []
    for i in range(40):
        view = game_view("school", NAMES[:players], i / 40, seed=3)
        if view.mode == "play" and view.sheet and (previewed_column(view.sheet["tables"][0]) or 0) > 0:
            found.append(view)
    return found[:4]


@pytest.mark.parametrize("players", [2, 3])
def test_the_column_a_choice_writes_is_drawn(players, monkeypatch):
    """The player's own sheet draws the column of the cursor's preview, and more than one column."""
    views = views_with_a_preview_past_column_1(players)
    assert views
    drawing: list[str] = [""]
    windows: list[tuple[str, range]] = []
    real_window, real_table = sheet_module.column_window, sheet_module.draw_table

    def column_window(count, active, room):
        shown = real_window(count, active, room)
        windows.append((drawing[0], shown))
        return shown

    def draw_table(surface, table, rect, s, players=()):
        drawing[0] = table["title"]
        return real_table(surface, table, rect, s, players)

    monkeypatch.setattr(sheet_module, "column_window", column_window)
    monkeypatch.setattr(sheet_module, "draw_table", draw_table)
    for view in views:
        windows.clear()
        render_module.render(pygame.Surface((320, 240)), view)
        own = view.sheet["tables"][0]
        mine = [shown for title, shown in windows if title == own["title"]]
        column = previewed_column(own)
        assert mine, "the own sheet was drawn whole"
        assert column in mine[-1] and len(mine[-1]) > 1, (column, mine[-1])
