"""A score sheet's row labels at 320x240, as players read them: a label cut to "3 of a ki..." or
"Full hou..." does not say which box the row is. The labels' column stopped at 42 % of the table
while two players' columns had room to spare; now it takes that room (the columns keep their
numbers whole and their names' first letters), and where the columns have none to spare, or at
800x480, it is as wide as before."""
from __future__ import annotations

import pygame
import pytest

from display import draw, theme
from display import render as render_module
from display import sheet as sheet_module

from test_sheet_fits import LONG, SHORT, cut_lines, game_view, sheet_texts


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def drawn(view, size: tuple[int, int], monkeypatch) -> tuple[list[str], list[str]]:
    """The lines cut, and every line drawn on the sheet, when `view` is rendered at `size`."""
    cut = cut_lines(monkeypatch)
    seen = sheet_texts(monkeypatch)
    render_module.render(pygame.Surface(size), view)
    return cut, [s for s, _ in seen]


@pytest.mark.parametrize("game,names", [("thirteen", SHORT[:2]), ("thirteen", ["Eve", "Zoë"]), ("classic", SHORT[:2])])
@pytest.mark.parametrize("fraction", [0.1, 0.5])
def test_no_row_label_is_cut_where_the_players_columns_have_room(game, names, fraction, monkeypatch):
    """Thirteen of two at 320x240 drew "Upper t...", "Bonus (...", "3 of a ki...", "4 of a ki...",
    "Straigh...", "Full hou...", "Extra 5 of ..." beside two 51 px columns of two-digit scores."""
    view = game_view(game, names, fraction)
    cut, _ = drawn(view, (320, 240), monkeypatch)
    labels = {row["label"] for table in view.sheet["tables"] for row in table["rows"]}
    assert not [s for s in cut if s in labels]
    assert not [s for s in cut if s in names]


@pytest.mark.parametrize("names", [SHORT[:2], ["Eve", "Zoë"]])
def test_late_in_the_game_only_the_widest_label_is_cut(names, monkeypatch):
    """Near the end scores of three digits need their columns' room (38 px each at 320x240):
    "Extra 5 of a kind" (103 px at the least type) is cut by a few px, no other label is. Before,
    seven were ("Upper t...", "3 of a ki...", "Full hou...")."""
    view = game_view("thirteen", names, 0.95)
    cut, _ = drawn(view, (320, 240), monkeypatch)
    labels = {row["label"] for table in view.sheet["tables"] for row in table["rows"]}
    assert not [s for s in cut if s in labels and s != "Extra 5 of a kind"]


@pytest.mark.parametrize("size,names", [((320, 240), SHORT[:3]), ((320, 240), SHORT[:6]), ((320, 240), LONG[:2]),
                                        ((800, 480), LONG[:2]), ((800, 480), SHORT[:6])])
def test_the_labels_column_is_as_before_where_the_columns_spare_nothing_or_the_labels_fit(size, names,
                                                                                           monkeypatch):
    """Three and more players at 320x240 (or two long names, "Max...r" "Max...a" over 51 px
    columns): the columns need their room, the labels' column is 42 % of the table as before; at
    800x480 the labels fit it, and their column is as wide as before."""
    view = game_view("thirteen", names, 0.5)
    widths: list[tuple[int, int]] = []
    real = sheet_module.label_width

    def label_width(rows, columns, width, size_, s, clear):
        got = real(rows, columns, width, size_, s, clear)
        old = min(max([theme.font(size_).size(r.get("label", ""))[0] for r in rows]) + int(12 * s), int(width * 0.42))
        widths.append((got, old))
        return got

    monkeypatch.setattr(sheet_module, "label_width", label_width)
    render_module.render(pygame.Surface(size), view)
    assert widths and all(got == old for got, old in widths), widths
