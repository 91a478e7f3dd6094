"""The values on the dice (their face tags) are drawn no smaller than the least legible type
where they have room: at 320x240 and 480x320 they were drawn at 15 px (capitals 7 px) while
every other line is 20 px or more, the sizes scaled from the 1280x720 layout."""
from __future__ import annotations

import numpy as np
import pygame
import pytest

from display import theme
from display.render import render
from display.view import DieMark, PromptView, TableView, TrayView
from test_display import _type_sizes as _sizes_drawn

SIZES = [(320, 240), (480, 320), (800, 480), (1280, 720)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_dice_values_on_a_tray_with_room_are_legible(size, monkeypatch):
    """Five poker dice well apart (a throw as the demo's camera sees it), one unsure: each face
    tag ("A", "K?") at the screen's least legible size or more (HOLD numbers 1-5 beside them)."""
    image = np.full((480, 640, 3), (40, 90, 50), np.uint8)
    values = ["A", "K", "Q", "J", "T"]
    dice = tuple(DieMark((40 + 120 * i, 200, 90 + 120 * i, 250), v, position=i + 1, doubtful=(i == 1))
                 for i, v in enumerate(values))
    view = TableView("play", "Thirteen", tray=TrayView(image, dice, "Dice: A K Q J T"),
                     prompt=PromptView("Ann", "Ann: hold dice or choose"))
    seen = _sizes_drawn(monkeypatch)
    surface = pygame.Surface(size)
    render(surface, view)
    least = theme.min_text(theme.scale(surface))
    tags = [(px, line) for px, line in seen if line in ("A", "K?", "Q", "J", "T")]
    assert len(tags) == len(values), seen
    assert all(px >= least for px, _ in tags), (least, tags)
