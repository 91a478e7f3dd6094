"""The setup menu on a 320x240 panel, as the staff read it when they set the house rules.

A row drew its label in the left half, its value in the right: "Two pairs accepts ful... yes",
"Early close bonus pe... 5", "Voluntary cross allo... yes", the value's half nearly empty. Under
a config mistake's four-line banner the foot's hint was joined onto one line and cut ("UP/DOWN
choose · OK next · hold OK: start..."), a row's height kept free above the rows for a margin of
half of one. Now a label takes the room its value leaves, and the foot keeps its lines while the
rows keep their least height."""
from __future__ import annotations

import pygame
import pytest

from controller.rules import GAMES
from display import draw
from display import render as render_module
from display import theme

from test_setup_fits import CONFIG_MISTAKE, menu_pages
from test_sheet_fits import cut_lines


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def rows_drawn(view, size, monkeypatch) -> tuple[dict[str, pygame.Rect], list[str], list[str]]:
    """The texts the setup screen draws (text: ink's rect), the lines it cut, and its foot's hint lines."""
    cut = cut_lines(monkeypatch)
    seen: dict[str, pygame.Rect] = {}
    hints: list[str] = []
    real = render_module.text

    def text(surface, s, pos, size, colour=theme.TEXT, *a, **k):
        rect = real(surface, s, pos, size, colour, *a, **k)
        seen[s] = rect
        if colour == theme.MUTED:
            hints.append(s)
        return rect

    monkeypatch.setattr(render_module, "text", text)
    render_module.render(pygame.Surface(size), view)
    monkeypatch.undo()
    return seen, cut, hints


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_a_rows_label_takes_the_room_its_value_leaves(game, monkeypatch):
    size = (320, 240)
    s = 0.5
    inner = size[0] - 2 * int(10 * s) - 2 * int(16 * s) - 2 * int(12 * s)
    font = theme.font(theme.min_text(s), True)
    checked = 0
    for view in menu_pages(game, size):
        seen, cut, _ = rows_drawn(view, size, monkeypatch)
        for item in view.setup:
            together = font.size(draw.printable(item.label))[0] + font.size(draw.printable(item.value))[0]
            if together + int(16 * s) <= inner:
                checked += 1
                assert item.label not in cut and item.value not in cut, (item, cut)
                assert not seen[item.label].colliderect(seen[item.value]) or not item.value
    assert checked


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_under_a_long_banner_the_foots_hint_is_whole(game, monkeypatch):
    size = (320, 240)
    for view in menu_pages(game, size, CONFIG_MISTAKE):
        seen, cut, hints = rows_drawn(view, size, monkeypatch)
        assert hints and not [h for h in hints if h in cut], (view.title, hints, cut)
        rows = [seen[item.label] for item in view.setup if item.label in seen]
        foot = min(seen[h].top for h in hints)
        assert all(r.bottom <= foot for r in rows), (view.title, rows, foot)
