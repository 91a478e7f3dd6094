"""The setup menu on a small screen, as the staff and players read it: the cursor's row holds its
words, every row apart from the next. Checked on where the text's ink and the cursor's bar land."""
from __future__ import annotations

import pygame
import pytest

from controller.rules import GAMES
from controller.setup_menu import SetupDefaults, SetupMenu
from display import draw
from display import render as render_module
from display import theme
from display.view import MessageView

NAMES = ["Maximilian-Alexander", "Maximilian-Alexandra", "A", "Zoë Ångström-Núñez", "Bartholomew",
         "Christopher-Robin", "Élodie-Françoise", "Wolfgang Amadeus"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


CONFIG_MISTAKE = MessageView("The config file has a mistake: line 12: [camera] exposure_us = 'fast' is not a "
                             "number; this setting is left out (2 more: dicetable check lists them)", "warning")


def menu_pages(game: int, size: tuple[int, int], notice: MessageView | None = None):
    """Each page of the menu for the `game`-th game, and every row of its house rules page,
    under `notice` (what the table says while it lasts)."""
    menu = SetupMenu(defaults=SetupDefaults(players=NAMES), screen_size=size)
    menu.notice = notice
    for _ in range(game):
        menu.on_button("press", "DOWN")
    yield menu.view()
    for _ in range(3):                          # the count, the names, the house rules
        menu.on_button("press", "OK")
        yield menu.view()
    for _ in range(len(menu.game.OPTIONS) + 1):
        menu.on_button("press", "DOWN")
        yield menu.view()


def drawn(monkeypatch) -> tuple[list[tuple[str, tuple, pygame.Rect]], list[pygame.Rect]]:
    """The lines the screen draws (text, colour, ink's rect) and the cursor bars (yellow rects)."""
    lines: list[tuple[str, tuple, pygame.Rect]] = []
    bars: list[pygame.Rect] = []
    real_text, real_rect = render_module.text, pygame.draw.rect

    def text(surface, s, pos, size, colour=theme.TEXT, bold=False, anchor="topleft", max_width=None, min_size=10):
        rect = real_text(surface, s, pos, size, colour, bold, anchor, max_width, min_size)
        floor = theme.min_text(theme.scale(surface))
        img = draw._render_fitted(s, max(int(size), floor), tuple(colour), bold, max_width, max(int(min_size), floor))
        if rect.width and s.strip():
            lines.append((s, tuple(colour), img.get_bounding_rect().move(rect.topleft)))
        return rect

    def rect(surface, colour, r, *a, **k):
        if tuple(colour)[:3] == theme.ACCENT and not a:
            bars.append(pygame.Rect(r))
        return real_rect(surface, colour, r, *a, **k)

    monkeypatch.setattr(render_module, "text", text)
    monkeypatch.setattr(pygame.draw, "rect", rect)
    return lines, bars


@pytest.mark.parametrize("notice", [None, CONFIG_MISTAKE])
@pytest.mark.parametrize("size", [(320, 240), (480, 320), (800, 480)])
@pytest.mark.parametrize("game", range(len(GAMES)))
def test_the_cursors_row_holds_its_words_and_no_row_runs_into_the_next(game, size, notice, monkeypatch):
    """At 320x240 the house rules page (ten rows over a rule's two lines of description) and
    Classic's eight seats gave rows 13 px high: the cursor's yellow bar, 9 px, under words 13 px
    high, drawn in the background's colour: read over the dark panel, "Line values (set in
    config)" could not be read. The menu now shows the rows the screen holds legibly, the others
    counted in its "N more" rows. Under a config mistake's four-line banner the foot (the rule
    explained, the hint) left the rows 10 px: it now leaves its last lines off for them."""
    surface = pygame.Surface(size)
    for view in menu_pages(game, size, notice):
        lines, bars = drawn(monkeypatch)
        render_module.render(surface, view)
        assert len(bars) == 1, view.setup
        on_bar = [(s, r) for s, colour, r in lines if colour == theme.BG]
        assert on_bar and all(bars[0].contains(r) for _, r in on_bar), (bars, on_bar)
        rows = [r for s, colour, r in lines if s in {i.label for i in view.setup}]
        assert not [(a, b) for i, a in enumerate(rows) for b in rows[i + 1:] if a.colliderect(b)]
        monkeypatch.undo()
