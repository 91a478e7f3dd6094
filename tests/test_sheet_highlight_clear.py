"""A highlighted cell (the box just scored, the winner's total) is marked without touching its
text: at 320x240 its outline's top and bottom ran along the digits' own, "271" and "0" read as
struck through."""
from __future__ import annotations

import random

import numpy as np
import pygame
import pytest

from controller.autoplay import AutoPlayer
from controller.rules import new_game
from display import draw, sheet as sheet_mod, theme
from display.render import render
from display.view import TableView

SIZES = [(320, 240), (480, 320), (800, 480), (1280, 720)]
GAMES = ["thirteen", "school"]         # (the others' highlighted cells are words, cut or on two lines here)


def _sheet_with_highlight(game: str) -> dict:
    """A sheet of `game` played by random players until some cell of it is highlighted with text."""
    bot, state = AutoPlayer(random.Random(5)), new_game(game, ["Ann", "Bob", "Cy"], {})
    for _ in range(600):
        sheet = state.sheet().to_json()
        if any(c.get("highlight") and c.get("text") for t in sheet["tables"] for r in t["rows"] for c in r["cells"]):
            return sheet
        state = state.apply(bot.next_input(state))
    pytest.skip(f"{game}: no highlighted cell met")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("game", GAMES)
def test_a_highlighted_cells_mark_stays_off_its_text(game, size, monkeypatch):
    """No pixel of the cursor's yellow within a px of the highlighted text's ink, and the mark is
    there (some yellow in the cell's row, around the text)."""
    sheet = _sheet_with_highlight(game)
    lit = {(c["text"], theme.CELL_COLOURS.get(c.get("kind", "empty"), theme.TEXT))
           for t in sheet["tables"] for r in t["rows"] for c in r["cells"] if c.get("highlight") and c.get("text")}
    drawn: list[tuple] = []
    real = sheet_mod.text

    def text(surface, s, pos, size, colour=theme.TEXT, bold=False, anchor="topleft", max_width=None, min_size=10):
        rect = real(surface, s, pos, size, colour, bold, anchor, max_width, min_size)
        if (s, tuple(colour)) in lit and anchor == "center":
            least = theme.min_text(theme.scale(surface))
            drawn.append((rect, draw._render_fitted(s, max(int(size), least), tuple(colour), bold, max_width,
                                                     max(int(min_size), least))))
        return rect

    monkeypatch.setattr(sheet_mod, "text", text)
    surface = pygame.Surface(size)
    render(surface, TableView("play", game, sheet=sheet))
    assert drawn, "the highlighted cell is not drawn"
    pixels = pygame.surfarray.array3d(surface)
    marked = []              # (a cell of the same text and colour unlit, Pok'n Roll's "IN"s, has none)
    for rect, img in drawn:
        ink = img.get_bounding_rect().move(rect.topleft).inflate(2, 2).clip(surface.get_rect())
        near = np.all(pixels[ink.left:ink.right, ink.top:ink.bottom] == theme.ACCENT, axis=2)
        assert not near.any(), f"the highlight touches its text at {size}: {int(near.sum())} px"
        reach = size[0] // 8                         # (a column's width, about)
        row = pixels[max(0, rect.left - reach):rect.right + reach, max(0, ink.top - 4):ink.bottom + 4]
        marked.append(np.all(row == theme.ACCENT, axis=2).any())
    assert any(marked), "no highlight drawn"
