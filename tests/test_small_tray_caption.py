"""The tray's caption on a 320x240 panel (a tray 120 px wide): a game resumed after a power cut,
or betting Classic, draws the dice decided on "as recorded", captioned "Fay's throw, as
recorded: 1 2 2 5 6". On one line cut at its end it read "Fay's throw, as r...": the values
were never on screen. The caption now goes on two lines where one would cut it, its end (the
values) whole on the second."""
from __future__ import annotations

import pygame
import pytest

from display import draw
from display import render as render_module
from display import theme

from test_sheet_fits import cut_lines, game_view

NAMES = [["Ann", "Bob", "Cy"], ["Maximilianus", "Christopher", "Bartholomew", "Alexandrinaa"]]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def caption_drawn(view, size, monkeypatch) -> tuple[list[tuple[str, pygame.Rect]], list[str]]:
    """The tray's caption lines as drawn (text as asked, rect) and every line the screen cut."""
    cut = cut_lines(monkeypatch)
    seen: list[tuple[str, pygame.Rect]] = []
    real = render_module.text
    surface = pygame.Surface(size)
    tray = render_module.tray_rect(surface, view)

    def text(surface, s, pos, size, colour=theme.TEXT, *a, **k):
        rect = real(surface, s, pos, size, colour, *a, **k)
        if tray.contains(rect) and colour == theme.TEXT and s.strip():
            seen.append((s, rect))
        return rect

    monkeypatch.setattr(render_module, "text", text)
    render_module.render(surface, view)
    monkeypatch.undo()
    return seen, cut


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
@pytest.mark.parametrize("game,names", [("classic", NAMES[0]), ("classic", NAMES[1]), ("school", NAMES[0]),
                                        ("thirteen", NAMES[0]), ("thirteen", NAMES[1])],
                         ids=lambda v: v if isinstance(v, str) else str(len(v)))
def test_the_recorded_dice_are_named_whole(game, names, size, monkeypatch):
    """(Objective cards and Pok'n Roll decide before the throw: no recorded dice there.)"""
    view = game_view(game, names, 0.3)
    assert view.tray is not None and "as recorded" in view.tray.caption
    values = view.tray.caption.split(": ")[-1]
    seen, cut = caption_drawn(view, size, monkeypatch)
    assert seen, view.tray.caption
    assert seen[-1][0].endswith(values) and seen[-1][0] not in cut, (view.tray.caption, seen, cut)
    tray = render_module.tray_rect(pygame.Surface(size), view)
    rects = [r for _, r in seen]
    assert all(tray.contains(r) for r in rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:]), seen


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_a_caption_that_fits_stays_on_one_line(size, monkeypatch):
    view = game_view("thirteen", ["Ann", "Bob"], 0.3)
    seen, _ = caption_drawn(view, size, monkeypatch)
    assert [s for s, _ in seen] == [view.tray.caption]


def test_the_second_line_holds_the_values_together():
    from display.caption_fit import caption_lines
    font = theme.font(20, True)
    caption = "Ann's throw, as recorded: 1 3 4 4 5"
    width = font.size("recorded: 1 3 4 4 5")[0]
    assert caption_lines(caption, 20, width) == ["Ann's throw, as", "recorded: 1 3 4 4 5"]
    assert caption_lines("Read: 5 1 3 4 1", 20, width) == ["Read: 5 1 3 4 1"]
