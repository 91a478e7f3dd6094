"""The rule over a sheet's Total row stands clear of the row before it: at 320x240 (rows of 12 px,
type of 20) it was drawn into the ink of that row's label and scores ("Chance", "16", "19"), so
the Total read as underlining them. Checked on the ink of the text drawn and the rule's rect."""
from __future__ import annotations

import pygame
import pytest

from display import draw, theme
from display import render as render_module
from display import sheet as sheet_module

from test_sheet_fits import LONG, SHORT, game_view, sheet_texts


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


@pytest.mark.parametrize("size", [(320, 240), (480, 320), (800, 480), (1280, 720)])
@pytest.mark.parametrize("game,names,fraction", [("thirteen", SHORT[:2], 0.5), ("thirteen", LONG[:6], 0.9),
                                                 ("school", SHORT[:3], 0.5), ("classic", SHORT[:4], 0.5)])
def test_the_totals_rule_is_a_px_clear_of_the_row_above(game, names, fraction, size, monkeypatch):
    """Every text of the row over the rule ends a px above it, every text of the Total row starts
    a px under it (320x240 Thirteen: "Total", "182", "142" began 1 px into it)."""
    view = game_view(game, names, fraction)
    seen = sheet_texts(monkeypatch)
    rules: list[pygame.Rect] = []
    real = pygame.draw.line

    def line(surface, colour, start, end, width=1):
        rect = real(surface, colour, start, end, width)
        if tuple(colour)[:3] == tuple(theme.GRID)[:3] and start[1] == end[1]:
            rules.append(rect)
        return rect

    monkeypatch.setattr(sheet_module.pygame.draw, "line", line)
    render_module.render(pygame.Surface(size), view)
    # (a Total drawn by the game's shorter form of its label: Classic's "Wins" for "Round wins")
    labels = {form for table in view.sheet["tables"] for row in table["rows"] if row.get("kind") == "total"
              for form in (row["label"], *row.get("short", ()))}
    totals = [i for i, (s, _) in enumerate(seen) if s in labels]
    assert totals
    for i in totals:
        top = seen[i][1]
        rule = max((r for r in rules if r.top <= top.top), key=lambda r: r.top)
        above = [(s, ink) for s, ink in seen[:i] if ink.top < rule.top]
        touching = [(s, ink.bottom, rule.top) for s, ink in above if ink.bottom > rule.top - 1]
        below = [(s, ink) for s, ink in seen[i:] if abs(ink.centery - seen[i][1].centery) <= 3]
        touching += [(s, ink.top, rule.bottom) for s, ink in below if ink.top < rule.bottom + 1]
        assert not touching, touching
