"""A menu entry the rules would refuse now ("Keep all" where a throw is due) is told from the
others by a line through it, not by its grey alone: under the cursor it was drawn exactly as an
enabled entry (black on the cursor's yellow), and off it only 2:1 dimmer than its neighbours."""
from __future__ import annotations

import numpy as np
import pygame
import pytest

from display import theme
from display.render import render
from display.view import OptionView, PromptView, TableView

SIZES = [(320, 240), (800, 480), (1280, 720)]


def _grey(surface: pygame.Surface) -> np.ndarray:
    """The screen as lightness alone (what a colour-blind or low-vision player still tells)."""
    rgb = pygame.surfarray.array3d(surface).astype(float)
    return np.round(rgb @ np.array([0.2126, 0.7152, 0.0722])).astype(int)


def _screen(size: tuple[int, int], enabled: bool, selected: bool) -> pygame.Surface:
    options = (OptionView("Keep all", selected=selected, enabled=enabled), OptionView("Aces", 3, not selected),
               OptionView("Twos", 4))
    prompt = PromptView("Ann", "Ann: choose", options)      # (room for the three rows at 320x240)
    surface = pygame.Surface(size)
    render(surface, TableView("play", "Thirteen", prompt=prompt))
    return surface


@pytest.mark.parametrize("selected", [True, False], ids=["under-the-cursor", "off-the-cursor"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_greyed_entry_is_struck_through(size, selected):
    """In lightness alone, the greyed entry's row has a line across its label that the enabled
    entry's row has not: a run of the label's own colour as wide as the label."""
    on, off = _screen(size, True, selected), _screen(size, False, selected)
    diff = np.nonzero(_grey(on) != _grey(off))
    assert len(diff[0]), "the greyed entry looks like the enabled one in lightness"
    colour = theme.BG if selected else theme.MUTED
    pixels = pygame.surfarray.array3d(off)
    xs, ys = diff
    row_runs = [np.all(pixels[xs.min():xs.max() + 1, y] == colour, axis=1).sum() for y in range(ys.min(), ys.max() + 1)]
    label_w = pygame.font.Font.size(theme.font(max(int(30 * theme.scale(off)), theme.min_text(theme.scale(off))),
                                               selected), "Keep all")[0]
    assert max(row_runs) >= label_w * 0.9, (max(row_runs), label_w)
