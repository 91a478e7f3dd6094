"""Objective cards' sheet on a 320x240 panel, as its players read it. Two players' 48 px columns
cut the card the player is choosing on to "in ha...": "in hand: +3 now", what the card would
score, the one thing the choice is made on, never on screen; the chooser's "picking" was cut in
its outline. Three players' 32 px columns cut a card won to "w..." ("won 2": its points lost).
Now the cell's shorter forms ("hand: +3", "+3"; "picks") fit, and where a number still would
be cut off the sheet draws the columns that keep it ("1-2 of 3")."""
from __future__ import annotations

import pygame
import pytest

from display import draw
from display import render as render_module
from display.draw import printable

from test_sheet_fits import cut_lines, game_view, sheet_texts

TWELVE = ["Maximilianus", "Alexandrinaa", "Bartholomews", "Christophers", "Evangelines"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def cells(view) -> list[dict]:
    return [cell for table in view.sheet["tables"] for row in table["rows"] for cell in row["cells"]]


def forms(cell: dict) -> set[str]:
    """A cell's words and shorter forms, as written and as drawn."""
    return {f for form in (cell.get("text", ""), *cell.get("short", ())) if form for f in (form, printable(form))}


@pytest.mark.parametrize("fraction", [0.0, 0.3])
def test_two_players_the_points_a_card_would_score_are_shown(fraction, monkeypatch):
    """Every preview ("in hand: +3 now") and the chooser's cell are drawn whole in one of their
    forms: none is cut."""
    view = game_view("objective-cards", TWELVE[:2], fraction)
    previews = [c for c in cells(view) if "now" in c.get("text", "") or c.get("highlight")]
    assert previews
    cut = cut_lines(monkeypatch)
    seen = sheet_texts(monkeypatch)
    render_module.render(pygame.Surface((320, 240)), view)
    every = set().union(*(forms(c) for c in previews))
    assert not [s for s in cut if s in every], [s for s in cut if s in every]
    drawn = {s for s, _ in seen}
    for cell in previews:
        assert forms(cell) & drawn, (cell, sorted(drawn))


@pytest.mark.parametrize("fraction", [0.6, 1.0])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_card_won_loses_its_points(players, fraction, monkeypatch):
    """No cell with a number in it ("won 2", "won 1, hand") is drawn cut before its number, in
    play and on the final standings."""
    view = game_view("objective-cards", TWELVE[:players], fraction)
    numbered = [c for c in cells(view) if any(ch.isdigit() for ch in c.get("text", ""))]
    assert numbered
    cut = cut_lines(monkeypatch)
    render_module.render(pygame.Surface((320, 240)), view)
    every = set().union(*(forms(c) for c in numbered))
    assert not [s for s in cut if s in every], [s for s in cut if s in every]
