"""The totals under a sheet on a 320x240 panel, School's two players on the final standings:
"Totals: Maximilianus 669" was one part too wide for the footer's first line, and the footer
only made sure its last line fitted: the line was cut to "Totals: Maximilianus 6...", the
winner's total lost. Every line of the footer now fits, the names cut apart if they must be."""
from __future__ import annotations

import pygame
import pytest

from display import draw, theme
from display import render as render_module
from display.sheet import footer_lines

from test_sheet_fits import cut_lines, game_view

NAMES = ["Maximilianus", "Alexandrinaa", "Bartholomews"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("fraction", [0.6, 1.0])
def test_no_total_is_cut_at_320x240(players, fraction, monkeypatch):
    view = game_view("school", NAMES[:players], fraction)
    cut = cut_lines(monkeypatch)
    render_module.render(pygame.Surface((320, 240)), view)
    # (the status line, "winner: Maximilianus (669)", is the header's, not the footer's)
    footer = [s for s in cut if not s.startswith(("winner", "Game over"))]
    assert not [s for s in footer if s.startswith("Totals") or any(str(t) in s for t in view.sheet["totals"])], cut


@pytest.mark.parametrize("width", [100, 120, 150, 200])
def test_every_footer_line_fits(width):
    """Each line of the totals footer is within its width, and names every total."""
    sheet = {"players": ["Maximilianus", "Alexandrinaa"], "totals": [669, 538],
             "tables": [{"title": "Scores", "columns": ["Maximilianus", "Alexandrinaa"], "rows": []}]}
    hidden = sheet["tables"]
    lines = footer_lines(sheet, hidden, width, 20)
    font = theme.font(20)
    assert all(font.size(line)[0] <= width for line in lines), [(line, font.size(line)[0]) for line in lines]
    assert "669" in " ".join(lines) and "538" in " ".join(lines), lines
