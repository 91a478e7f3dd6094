"""A Hebrew or Arabic name cut with "..." reads from its start, the ellipsis at its end (its left).

A name too long for its column is cut to its start and "...". A right-to-left name's letters are
drawn in visual order, but the "..." stayed after the run, on its right: read right to left, the
column said "...", then the name's start; a name kept apart by its end ("start...end") was read
end first. The "..." that cuts a name now goes with it, drawn on its left.
"""
from __future__ import annotations

import pygame
import pytest

from display import theme
from display.glyphs import visual
from display.labels import distinct_cuts


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


@pytest.mark.parametrize("logical, drawn", [
    ("שרה כהן...", "...ןהכ הרש"),                 # cut: the dots on the left, where reading ends
    ("שרה...ן", "ן...הרש"),                       # start and end kept: the start on the right
    ("שרה כ...ן", "ן...כ הרש"),
    ("Ann...", "Ann..."),                         # left to right: as before
    ("שרה: throw all 5 di...", "הרש: throw all 5 di..."),   # an English line cut: at its end
    ("Winners: שרה, דוד כהן", "Winners: הרש, ןהכ דוד"),
])
def test_the_ellipsis_that_cuts_a_right_to_left_name_is_drawn_on_its_left(logical, drawn):
    assert visual(logical) == drawn


def _machine_has(ch: str) -> bool:
    import pygame.freetype

    pygame.freetype.init()
    path = pygame.font.match_font("dejavusans", bold=True)
    return bool(path) and pygame.freetype.Font(path, 12).get_metrics(ch)[0] is not None


@pytest.mark.skipif(not _machine_has("ש"), reason="no font of this machine's has Hebrew")
def test_a_long_hebrew_name_over_a_narrow_column_reads_from_its_start():
    font = theme.font(24, True)
    name = "אברהם בן-דוד כהן"
    label, = distinct_cuts([name], font, font.size(name)[0] // 2)
    assert label.endswith("...") and name.startswith(label[:-3])       # the logical cut, as before
    shown = visual(label)
    assert shown.startswith("...") and shown[3:] == visual(label[:-3])   # drawn: dots left, start right
