"""Pok'n Roll's board on a 320x240 panel with four players: a line's six boxes in a player's
column would be under 10 px, so the cell says how many are ticked, "2/6"; the column holds 17 px
of text and "2/6" 30, so every cell of the board was drawn "..." (1,080 cells over a game of four):
nobody could read who had ticked what. A line has as many boxes as every other, so the cell now
says "2" where "2/6" does not fit (a preview "2 +3", else its points "+3")."""
from __future__ import annotations

import re

import pygame
import pytest

from display import draw
from display import render as render_module

from test_sheet_fits import cut_lines, game_view, sheet_texts

FOUR = ["Ann", "Bob", "Cy", "Dee"]
COUNT = re.compile(r"\d+/\d+( .*)?")


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def board_cells(view) -> list[str]:
    """The texts of the board's cells that are rows of boxes."""
    board = view.sheet["tables"][0]
    return [cell["text"] for row in board["rows"] for cell in row["cells"]
            if cell.get("text") and set(cell["text"].partition(" ")[0]) <= set("■▣□")]


@pytest.mark.parametrize("fraction", [0.0, 0.3, 0.7])
def test_four_players_board_counts_are_read(fraction, monkeypatch):
    view = game_view("poknroll", FOUR, fraction)
    boxes = board_cells(view)
    assert boxes
    cut = cut_lines(monkeypatch)
    seen = sheet_texts(monkeypatch)
    render_module.render(pygame.Surface((320, 240)), view)
    assert not [s for s in cut if COUNT.fullmatch(s)], cut
    counts = [s for s, _ in seen if re.fullmatch(r"\d+(/\d+)?( \+\d+)?|\+\d+", s)]
    # every row of boxes is said by a count (the totals are numbers too: at least as many)
    assert len(counts) >= len(boxes), (len(counts), len(boxes))


def test_count_forms():
    from display.tick_count import count_forms, count_said
    assert count_forms("■■□□□□") == ("2/6", "2")
    assert count_forms("■▣□□□□", "+3") == ("1/6 +3", "1 +3", "+3")
    assert count_said("■■□□□□", "", lambda f: len(f) <= 1) == "2"
    assert count_said("■■□□□□", "", lambda f: True) == "2/6"
