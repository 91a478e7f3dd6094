"""The players' names over a score sheet are drawn whole: the rule under them and the acting
player's underline stay below their letters. At 320x240 (rows of 12 px for type of 20) both
were drawn across the lower half of every name."""
from __future__ import annotations

import pygame
import pytest

from controller.rules import new_game
from display import draw, head_lines, sheet as sheet_mod, theme
from display.render import render
from display.view import TableView

SIZES = [(320, 240), (480, 320), (800, 480), (1280, 720)]
GAMES = ["thirteen", "classic", "school", "poknroll", "objective-cards"]
NAMES = ["Ann", "Bob", "Cy"]


def _names_drawn(size: tuple[int, int], game: str, monkeypatch) -> tuple[pygame.Surface, list[tuple]]:
    """The whole play screen of `game` at `size`, and each header name as drawn (its text,
    rect, size, colour, max width)."""
    drawn: list[tuple] = []
    heads: set[str] = set()
    real, real_cuts = sheet_mod.text, sheet_mod.distinct_cuts

    def distinct_cuts(*args, **kwargs):
        cuts = real_cuts(*args, **kwargs)
        heads.update(cuts)
        return cuts

    def text(surface, s, pos, size, colour=theme.TEXT, bold=False, anchor="topleft", max_width=None, min_size=10):
        rect = real(surface, s, pos, size, colour, bold, anchor, max_width, min_size)
        if s in heads and bold and anchor == "center":
            drawn.append((s, rect, max(int(size), theme.min_text(theme.scale(surface))), tuple(colour), max_width,
                          max(int(min_size), theme.min_text(theme.scale(surface)))))
        return rect

    monkeypatch.setattr(sheet_mod, "text", text)
    monkeypatch.setattr(sheet_mod, "distinct_cuts", distinct_cuts)
    # (names on two lines, where one cut them to a letter, are cut there)
    monkeypatch.setattr(head_lines, "distinct_cuts", distinct_cuts)
    state = new_game(game, NAMES, {})
    surface = pygame.Surface(size)
    render(surface, TableView("play", game, sheet=state.sheet().to_json()))
    return surface, drawn


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("game", GAMES)
def test_every_name_over_the_sheet_is_drawn_whole_down_to_its_baseline(game, size, monkeypatch):
    """Each opaque pixel of a name's letters above its baseline is still the name's colour once
    the whole screen is drawn (nothing drawn over it)."""
    surface, drawn = _names_drawn(size, game, monkeypatch)
    assert len(drawn) >= len(NAMES) or game == "school", drawn
    assert drawn
    for name, rect, px, colour, max_width, min_size in drawn:
        img = draw._render_fitted(name, px, colour, True, max_width, min_size)
        assert img.get_size() == rect.size
        baseline = theme.font(px, True).get_ascent()
        covered = [(x, y) for x in range(img.get_width()) for y in range(min(baseline, img.get_height()))
                   if img.get_at((x, y)).a == 255
                   and tuple(surface.get_at((rect.x + x, rect.y + y)))[:3] != colour]
        assert not covered, f"{name}: {len(covered)} px of its letters drawn over"
