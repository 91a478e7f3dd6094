"""Objective cards' menu rows on a 320x240 panel: a row's label has 92 px beside its points, and
"Stop: the dice are final" (142 px), now drawn under "Throw 5 again" since the question over the
menu leaves a second row, read "Stop: the dic..."; the secret menu's cards "Long straight (7)",
"Four of a kind (7)", "Three of a kind (2)" were cut the same way ("Three of a ki..."), their
points value lost. The game's shorter forms are drawn where the label does not fit: "Stop: dice
final" is still too wide, "Stop"; the cards as the sheet shortens them ("Lg. str. (7)")."""
from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from display import draw
from display import render as render_module

from test_sheet_fits import cut_lines
from test_secret_menu_small import secret_menu
from test_small_menu_question import menu_view


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def rows_cut(view, monkeypatch) -> list[tuple[str, list[str]]]:
    """For each row of the view's menu, the cursor on it: the lines cut that are its label's forms."""
    found = []
    for i, opt in enumerate(view.prompt.options):
        options = tuple(replace(o, selected=(j == i)) for j, o in enumerate(view.prompt.options))
        cut = cut_lines(monkeypatch)
        render_module.render(pygame.Surface((320, 240)), replace(view, prompt=replace(view.prompt, options=options)))
        monkeypatch.undo()
        forms = {opt.label, *opt.short}
        found.append((opt.label, [s for s in cut if s in forms]))
    return found


@pytest.mark.parametrize("fraction", [0.02, 0.5])
def test_stop_is_named_whole(fraction, monkeypatch):
    view = menu_view("objective-cards", fraction)
    assert [o.label for o in view.prompt.options if o.label.startswith("Stop")]
    assert not [(label, cut) for label, cut in rows_cut(view, monkeypatch) if cut]


def test_every_card_of_the_secret_menu_is_named_whole(monkeypatch):
    view = secret_menu()
    assert not [(label, cut) for label, cut in rows_cut(view, monkeypatch) if cut]
