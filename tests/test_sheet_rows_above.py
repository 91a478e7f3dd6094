"""A sheet too tall for its panel shows the rows around the cursor, a dotted line where rows are
left off. With Thirteen's three players at 320x240 and the cursor low on the sheet, the first
drawn row was *Sixes*: Aces to Fives were gone with no dotted line or sign at the top (the
header's rule solid), where a gap between rows had one. The header's rule is now dotted there."""
from __future__ import annotations

import pygame
import pytest

from display import render as render_module
from display import theme
from test_sheet_fits import game_view, sheet_texts

NAMES = ["Maximilianus", "Bartholomew", "Christopher"]


def dotted_rows(monkeypatch) -> list[int]:
    """The y of every dash of a dotted line drawn from now on (short, muted segments)."""
    ys: list[int] = []
    real = pygame.draw.line

    def line(surface, colour, start, end, width=1):
        if tuple(colour)[:3] == tuple(theme.MUTED)[:3] and start[1] == end[1] and abs(end[0] - start[0]) <= 3:
            ys.append(start[1])
        return real(surface, colour, start, end, width)

    monkeypatch.setattr(pygame.draw, "line", line)
    return ys


@pytest.mark.parametrize("size", [(320, 240), (800, 480)])
def test_rows_left_off_above_the_first_drawn_are_marked(size, monkeypatch):
    pygame.font.init()
    view = game_view("thirteen", NAMES, 0.6)
    seen = sheet_texts(monkeypatch)
    ys = dotted_rows(monkeypatch)
    render_module.render(pygame.Surface(size), view)
    labels = [(s, r) for s, r in seen if s in ("Aces", "Sixes")]
    first = min(labels, key=lambda item: item[1].top)
    if first[0] == "Aces":                        # (every row fits: no dotted line above them)
        assert size == (800, 480)
        assert not [y for y in ys if y < first[1].top], ys
    else:
        assert size == (320, 240)
        above = [y for y in ys if y < first[1].top]
        assert len(above) >= 10, (first, ys)      # a dotted line across the sheet, over its first row


def test_rows_left_off_just_above_the_total_are_marked(monkeypatch):
    """A reading to check at 320x240 under a glare banner (over the sheet): Thirteen's sheet shows
    Aces to 2 pairs and the Total; 3 of a kind to Extra 5K were gone between them with only the
    Total's solid rule there. That rule is now dotted."""
    from test_confirm_small_screen import glare_view
    import tempfile
    from pathlib import Path

    pygame.font.init()
    view = glare_view(Path(tempfile.mkdtemp()))
    seen = sheet_texts(monkeypatch)
    ys = dotted_rows(monkeypatch)
    render_module.render(pygame.Surface((320, 240)), view)
    labels = {s: r for s, r in seen}
    assert "Total" in labels and "Chance" not in labels, sorted(labels)
    above = max((r for s, r in seen if s != "Total" and r.bottom <= labels["Total"].top), key=lambda r: r.bottom)
    dashes = [y for y in ys if above.bottom <= y <= labels["Total"].top]
    assert len(dashes) >= 10, (above, labels["Total"], ys)
