"""The question over a menu under a banner at 320x240: after every score Thirteen's banner ("Ann
scored 40 in 4 of a kind after throw 2") left the prompt panel 58 px, one line of question over
the cursor's row, and the next player read "Bob: choose a c..." (or "Bob: choose a category
(th..." on the last throw) for the whole turn: what to choose was never on screen. Now the
question's fewest lines and the cursor's row are kept: the tray gives up what they lack (up to
its 2/5), else the banner goes at the top of the sheet's column (display.question_room).

Over a whole game played by the table's own flow (its banners as they come), with the
recorder of tests/test_small_*.py: every line cut with "..." is compared with the question."""
from __future__ import annotations

import numpy as np
import pygame
import pytest

from controller.bench_table import played_to
from controller.table import DECIDE
from display import draw, theme
from display import render as render_module
from display.menu_question import menu_question_forms

from test_sheet_fits import cut_lines

CAMERA = np.zeros((480, 640, 3), np.uint8)


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def menus_under_banners(game: str, names: list[str], size: tuple[int, int]):
    """Every open menu of a whole game of `names` at `size` with a banner over it."""
    flow, rest = played_to(game, names, 0.0)
    flow.screen_size = size
    flow._enter_phase()
    while rest:
        if flow.phase == DECIDE:
            view = flow.view(CAMERA)
            if view.prompt is not None and view.prompt.options and view.message is not None:
                yield view
        assert flow._apply(rest.pop(0))


def drawn(view, size, monkeypatch) -> tuple[list[str], list[str], list[str]]:
    """`view` drawn at `size`: the question's lines (the accent's bold type in the prompt panel),
    the banner's lines, and every line cut with "..."."""
    cut = cut_lines(monkeypatch)
    surface = pygame.Surface(size)
    lower = render_module._columns_for(surface, view)[1]
    question: list[str] = []
    banner: list[str] = []
    real = render_module.text

    def text(surf, s, pos, size, colour=theme.TEXT, *a, **k):
        rect = real(surf, s, pos, size, colour, *a, **k)
        if lower.contains(rect) and tuple(colour) == tuple(theme.ACCENT) and k.get("bold"):
            question.append(s)
        elif s in view.message.text and k.get("bold") and tuple(colour) == tuple(theme.TEXT):
            banner.append(s)
        return rect

    monkeypatch.setattr(render_module, "text", text)
    render_module.render(surface, view)
    monkeypatch.undo()
    return question, banner, cut


@pytest.mark.parametrize("names", [["Ann", "Bob", "Cy"], ["Ann", "Bob", "Cy", "Dee"]])
def test_thirteens_question_under_a_banner_is_whole(names, monkeypatch):
    """On main: 9 of 97 menus cut (3 players), 3 of 128 (4 players): "Bob: choose a c..."."""
    size = (320, 240)
    seen = 0
    for view in menus_under_banners("thirteen", names, size):
        question, banner, cut = drawn(view, size, monkeypatch)
        said = " ".join(question)
        forms = menu_question_forms(view.prompt.text)
        assert not [c for c in cut if any(c in f for f in forms)], (view.message.text, cut)
        assert said.startswith(view.prompt.player + ": "), question
        assert any(f == said or f.startswith(said + " (") for f in forms), said
        # the banner is still on screen, whole
        assert " ".join(banner) == view.message.text, (banner, view.message.text)
        assert not [c for c in cut if c in view.message.text], cut
        seen += 1
    assert seen > 50


def test_the_midgame_screen_of_the_demo(monkeypatch):
    """The demo's thirteen-04-midgame at 320x240: "Bob: choose a c..." under Ann's score."""
    from dataclasses import replace

    from display.view import MessageView
    size = (320, 240)
    view = next(v for v in menus_under_banners("thirteen", ["Ann", "Bob", "Cy"], size)
                if v.prompt.player == "Bob" and "(throw 1 of 3)" in v.prompt.text)
    view = replace(view, message=MessageView("Ann scored 40 in 4 of a kind after throw 2"))
    question, banner, cut = drawn(view, size, monkeypatch)
    assert " ".join(question) == "Bob: choose a category or throw again", (question, cut)
    assert banner == ["Ann scored 40 in 4 of a kind", "after throw 2"] or " ".join(banner) == view.message.text
