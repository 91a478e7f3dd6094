"""The HINT card's title on a 320x240 panel: in the sheet's column beside its page ("1/8"),
"How to play Objective cards" was cut to "How to play Object...", "How to play Classic poker
dice" to "How to play Clas...": which game's rules, the one thing a title says, was lost. The
title is now its game's name alone where the whole would be cut."""
from __future__ import annotations

import dataclasses

import pygame
import pytest

from controller.help_card import help_card
from controller.rules import GAMES
from display import draw
from display import render as render_module

from test_sheet_fits import cut_lines, game_view


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


@pytest.mark.parametrize("size", [(320, 240), (480, 320), (800, 480)])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_cards_title_names_its_game_whole(game, size, monkeypatch):
    rules = GAMES[game]
    view = game_view(game, ["Ann", "Bob", "Cy"], 0.3)
    for page in range(2):
        card = help_card(rules, page=page)
        cut = cut_lines(monkeypatch)
        render_module.render(pygame.Surface(size), dataclasses.replace(view, help=card))
        monkeypatch.undo()
        assert not [s for s in cut if s.startswith("How to play") or s == rules.title], cut
