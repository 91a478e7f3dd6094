"""Objective cards' secret card, chosen before the throw, on the smallest screens: the tray has
nothing to read then (no die outlined, no caption), yet it kept its room and at 320x240 the
menu showed one of the five cards at a time and cut its hint ("OK confirm · BA..."). The menu
now takes what the idle tray does not need; 800x480 and 1280x720 are as they were."""
from __future__ import annotations

import numpy as np
import pygame
import pytest

from controller.bench_table import late_game
from controller.table import DECIDE
from display import render as render_module
from display import theme
from table_helpers import Press

CAMERA = np.zeros((480, 640, 3), np.uint8)


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


def secret_menu():
    """The flow of a 5-player Objective cards game on Ann's secret card menu, opened."""
    flow, rest = late_game("objective-cards", 0.5)
    while flow.phase != DECIDE and rest:
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    flow.on_button(Press("OK"))
    view = flow.view(CAMERA)
    assert len(view.prompt.options) == 5 and view.prompt.hint == "UP/DOWN choose · OK confirm · BACK hides"
    return view


def drawn(monkeypatch, surface, view) -> tuple[list[str], list[str]]:
    """The lines drawn, and those of them drawn whole (not shrunk nor cut)."""
    seen: list[str] = []
    every: list[str] = []
    real = render_module.text
    least = theme.min_text(theme.scale(surface))

    def text(surf, s, pos, size, *a, **kw):
        rect = real(surf, s, pos, size, *a, **kw)
        every.append(s)
        bold = kw.get("bold", a[1] if len(a) > 1 else False)
        if rect.width and rect.width >= theme.font(max(int(size), least), bold).size(s)[0]:
            seen.append(s)
        return rect

    monkeypatch.setattr(render_module, "text", text)
    render_module.render(surface, view)
    monkeypatch.undo()
    return every, seen


@pytest.mark.parametrize("size,rows", [((320, 240), 2), ((480, 320), 4)])
def test_the_secret_menu_shows_more_than_one_card_and_its_whole_hint(size, rows, monkeypatch):
    view = secret_menu()
    every, seen = drawn(monkeypatch, pygame.Surface(size), view)
    # (a row's label may be cut, or drawn in its shorter form: "3 kind (2)")
    shown = [o.label for o in view.prompt.options if {o.label, *o.short} & set(every)]
    assert len(shown) >= rows, (shown, every)
    words = " ".join(seen)
    for part in ("UP/DOWN choose", "OK confirm", "BACK hides"):
        assert part in words, (part, seen)


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_larger_screens_keep_their_tray(size):
    view = secret_menu()
    surface = pygame.Surface(size)
    s, _, body = render_module._frame(surface)
    assert render_module.tray_rect(surface, view) == render_module._play_columns(body, s)[0]
