"""School's player sheet titled "Alexandrinaa (to play) — no awards" on a 320x240 panel: cut
before "no awards" ("Alexandrinaa (to play)..."), in play and on the final standings: a player
barred from the row and column awards was not told so. The title now drops "(to play)", then
cuts the name apart from the others', before it loses "no awards"."""
from __future__ import annotations

import pygame
import pytest

from display import draw
from display import render as render_module

from test_sheet_fits import cut_lines, game_view, sheet_texts

NAMES = ["Maximilianus", "Alexandrinaa", "Bartholomews", "Christophers"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


@pytest.mark.parametrize("size", [(320, 240), (480, 320), (800, 480)])
@pytest.mark.parametrize("players,fraction", [(2, 0.6), (3, 0.6), (4, 0.6), (2, 1.0), (3, 1.0)])
def test_no_awards_is_said_whole(players, fraction, size, monkeypatch):
    """Every sheet drawn whose title says "no awards" draws those words, and no title is cut."""
    view = game_view("school", NAMES[:players], fraction)
    barred = [t["title"] for t in view.sheet["tables"] if "no awards" in t["title"]]
    assert barred
    cut = cut_lines(monkeypatch)
    seen = sheet_texts(monkeypatch)
    render_module.render(pygame.Surface(size), view)
    titles = [s for s, _ in seen if "no awards" in s]
    assert titles, sorted(s for s, _ in seen)
    assert all(s.endswith("no awards") for s in titles), titles
    assert not [s for s in cut if "no awards" in s], cut
