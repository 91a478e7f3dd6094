"""A secret choice's gate on a 320x240 panel (Objective cards' card, Pok'n Roll's abandon or
continue): "Maximilianus: your choice is secret. Everyone else, please look away." and "...:
press OK to see your choices" took 8 lines of a panel that holds 6, and the question was cut to
"your choice is s...": the other players never read that they should look away. The gate now
says it in fewer words, whole, with what to press."""
from __future__ import annotations

import dataclasses

import pygame
import pytest

from display import draw
from display import render as render_module
from display.view import MessageView

from test_setup_fits import drawn
from test_sheet_fits import cut_lines, game_view

NAMES = ["Maximilian-Alexandra", "Zoë Ångström", "Wolfgang Amadeus", "Bartholomews", "Ann", "Christophers"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def gate_view(game: str, names: list[str]):
    """The first view of `game` whose prompt is a secret choice's gate."""
    for fraction in (0.0, 0.1, 0.2, 0.3, 0.5):
        view = game_view(game, names, fraction)
        if view.prompt is not None and not view.prompt.options and "look away" in view.prompt.text:
            return view
    raise AssertionError(f"no secret gate in {game}")


@pytest.mark.parametrize("size", [(320, 240), (480, 320), (800, 480)])
@pytest.mark.parametrize("game,first", [("objective-cards", 0), ("objective-cards", 1), ("poknroll", 0),
                                        ("poknroll", 2), ("poknroll", 4)])
def test_the_gate_asks_the_others_to_look_away_whole(game, first, size, monkeypatch):
    """Nothing of the gate's question or hint is cut, and the screen says "look away" and what
    the player presses, whoever's turn it is (one long name, two words, a short one)."""
    names = (NAMES[first:] + NAMES[:first])[:4 if game == "poknroll" else 3]
    view = gate_view(game, names)
    cut = cut_lines(monkeypatch)
    lines, _ = drawn(monkeypatch)
    render_module.render(pygame.Surface(size), view)
    gate = [s for s in cut if "look away" in s or "choices" in s]
    assert not gate, gate
    text = " ".join(s for s, _, _ in lines)
    assert "look away" in text and "press OK" in text, text


@pytest.mark.parametrize("game,first", [("objective-cards", 0), ("objective-cards", 1), ("poknroll", 0),
                                        ("poknroll", 2)])
def test_the_gate_under_a_banner_is_whole(game, first, monkeypatch):
    """Under a banner (*Cy has chosen (kept secret).*, the demo's) the gate's question kept two
    of its lines and its hint two ("Ann: secret choice. Everyon..."): with the banner over the
    sheet the panel now asks the tray for the room of all its lines where the tray can spare it."""
    names = (NAMES[first:] + NAMES[:first])[:4 if game == "poknroll" else 3]
    view = dataclasses.replace(gate_view(game, names), message=MessageView("Cy has chosen (kept secret)."))
    cut = cut_lines(monkeypatch)
    lines, _ = drawn(monkeypatch)
    render_module.render(pygame.Surface((320, 240)), view)
    assert not [s for s in cut if "look away" in s or "choices" in s], cut
    text = " ".join(s for s, _, _ in lines)
    assert "look away" in text and "press OK" in text, text
