"""Classic poker dice with three players on a 320x240 panel: the labels' column kept 42 % of the
sheet (70 px) for "Round 1", the players' columns were 32 px, and the hands in a highlighted
cell (the round's winner, in its outline) were cut to "4..." and "A..." ("4×10", "A/10", "Q+10"
too): the winning hand, the one a player looks for, was the one not shown. The labels now give
their room up to their shortest forms ("Rd 1", "Wins") where that holds every column's cells."""
from __future__ import annotations

import pygame
import pytest

from display import draw
from display.draw import printable
from display import render as render_module

from test_sheet_fits import cut_lines, game_view, sheet_texts

TWELVE = ["Maximilianus", "Alexandrinaa", "Bartholomews", "Christophers"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def cell_forms(view) -> set[str]:
    """Every form of every cell of the view's sheet (its words and its shorter forms), as written
    and as drawn ("4×10" is drawn "4x10")."""
    return {f for table in view.sheet["tables"] for row in table["rows"] for cell in row["cells"]
            for form in (cell.get("text", ""), *cell.get("short", ())) if form for f in (form, printable(form))}


@pytest.mark.parametrize("fraction", [0.0, 0.3, 0.6])
def test_three_players_hands_whole_at_320x240(fraction, monkeypatch):
    """No hand of the sheet is cut, the winners' outlined ones included, and every round's row
    is still named ("Rd 2" where "Round 2" does not fit)."""
    view = game_view("classic", TWELVE[:3], fraction)
    cut = cut_lines(monkeypatch)
    seen = sheet_texts(monkeypatch)
    render_module.render(pygame.Surface((320, 240)), view)
    hands = cell_forms(view)
    assert not [s for s in cut if s in hands], [s for s in cut if s in hands]
    drawn = {s for s, _ in seen}
    rounds = [row for table in view.sheet["tables"] for row in table["rows"] if row["key"].startswith("round_")]
    assert rounds and all({row["label"], *row.get("short", ())} & drawn for row in rounds), drawn


@pytest.mark.parametrize("size", [(480, 320), (800, 480)])
def test_round_labels_whole_where_they_fit(size, monkeypatch):
    """Where the sheet has room the rows keep the game's own words ("Round 1")."""
    view = game_view("classic", TWELVE[:3], 0.6)
    seen = sheet_texts(monkeypatch)
    render_module.render(pygame.Surface(size), view)
    drawn = {s for s, _ in seen}
    assert "Round 1" in drawn and "Rd 1" not in drawn, sorted(drawn)


@pytest.mark.parametrize("players", [4, 6])
def test_more_players_no_hand_cut_to_less_than_before(players, monkeypatch):
    """Four and six players' columns at 320x240 are not made narrower for the labels: the
    labels keep their room where giving it up would not hold the hands (the columns drawn are
    chosen to hold them, "1-3 of 4")."""
    view = game_view("classic", TWELVE[:players] + ["Evangelines", "Zoë"][:max(0, players - 4)], 0.3)
    cut = cut_lines(monkeypatch)
    render_module.render(pygame.Surface((320, 240)), view)
    hands = cell_forms(view)
    assert not [s for s in cut if s in hands], [s for s in cut if s in hands]


@pytest.mark.parametrize("names", [["Ann", "Bob"], ["Ann", "Bob", "Cy"], ["Ann", "Bob", "Cy", "Dee"]])
def test_short_names_no_hand_cut_in_its_outline(names, monkeypatch):
    """Short names at 320x240 (the demo's Ann, Bob, Cy): a hand the sheet measured as fitting was
    drawn cut, "2×9" measured with its "×" (22 px) but drawn "2x9" (23 px) in a 22 px outline,
    and a highlighted cell's outline (4 px more) was not counted where the columns' room was
    ("2×10" cut with two players). Every hand of every view sampled is drawn whole."""
    cut = cut_lines(monkeypatch)
    bad: set[str] = set()
    for seed in (1, 2, 3):
        for i in range(12):
            view = game_view("classic", names, i / 12, seed=seed)
            cut.clear()
            draw._TEXT_CACHE.clear()
            render_module.render(pygame.Surface((320, 240)), view)
            bad |= {s for s in cut if s in cell_forms(view)}
    assert not bad, sorted(bad)
