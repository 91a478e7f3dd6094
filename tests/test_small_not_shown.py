"""Pok'n Roll on a 320x240 panel: the hand table (its title "Hand 12, first player Cy — white
dice: 2 5 5 3 2") is left off beside the board and named in the footer, on one line cut to "Not
shown: Hand 12, firs...": who plays first and the white dice were never on screen (at 480x320
the final board's "Not shown: Hand 22, first player Ann..." the same). The footer now goes on
two lines between words, without "Not shown:" where it needs the room."""
from __future__ import annotations

import pygame
import pytest

from display import draw
from display import render as render_module

from test_sheet_fits import cut_lines, game_view, sheet_texts
from test_small_screen import overlaps


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
@pytest.mark.parametrize("names", [["Ann", "Bob", "Cy"], ["Maximilianus", "Bartholomew", "Cy"]], ids=len)
@pytest.mark.parametrize("fraction", [0.1, 0.5, 1.0])
def test_the_hand_left_off_is_named_whole(size, names, fraction, monkeypatch):
    view = game_view("poknroll", names, fraction)
    hand = next(t["title"] for t in view.sheet["tables"] if "white dice" in t.get("title", ""))
    cut = cut_lines(monkeypatch)
    seen = sheet_texts(monkeypatch)
    render_module.render(pygame.Surface(size), view)
    monkeypatch.undo()
    drawn = " ".join(s for s, _ in seen)
    if any(s == hand for s, _ in seen):
        pytest.skip("the hand table is drawn, titled")
    assert not [s for s in cut if "white dice" in s], cut
    assert hand.split(" — ")[-1] in drawn and hand.split(",")[0] in drawn, drawn
    assert not overlaps(seen), overlaps(seen)
