"""A Hebrew or Arabic name with its seat number ("דוד #3", kept apart from another name drawn
alike, or from a name the journal held twice): the number is part of the name's label, read
after it, so on its left. It was drawn on the right, where a right-to-left reader starts, and a
name cut to fit had its "..." on the left and its "#3" on the right ("...וד#3"), the name between."""
from __future__ import annotations

import pygame
import pytest

from display import theme
from display.glyphs import visual
from display.labels import distinct_cuts


@pytest.mark.parametrize("logical, drawn", [
    ("דוד #3", "#3 דוד"),                        # whole, with its seat number
    ("שרה...#12", "#12...הרש"),                  # cut: the dots and the number together, left
    ("Totals: שרה...#2 35 · Ann 20", "Totals: #2...הרש 35 · Ann 20"),   # the footer's totals
    ("Ann #3", "Ann #3"), ("Ann...#3", "Ann...#3"),                     # left to right: as before
    ("דוד 35", "דוד 35"),                        # a score beside a name is no seat number
    ("שרה #2x", "הרש #2x"),                      # nor a word that begins with one
])
def test_a_right_to_left_names_seat_number_is_drawn_on_its_left(logical, drawn):
    assert visual(logical) == drawn


def _machine_has(ch: str) -> bool:
    import pygame.freetype

    pygame.freetype.init()
    path = pygame.font.match_font("dejavusans", bold=True)
    return bool(path) and pygame.freetype.Font(path, 12).get_metrics(ch)[0] is not None


@pytest.mark.skipif(not _machine_has("ش"), reason="no font of this machine's has Arabic")
def test_two_arabic_names_alike_in_narrow_columns():
    """Two names alike to their ends, in columns too narrow for either: each cut with its seat
    number, drawn with the dots on the left of the name's start and the number beside them."""
    pygame.font.init()
    font = theme.font(20, True)
    labels = distinct_cuts(["دانيال-محمد", "دانيال-أحمد"], font, 40)
    assert [label[-2:] for label in labels] == ["#1", "#2"]
    for label in labels:
        shown = visual(label)
        assert shown == label[-2:] + visual(label[:-2]) and shown[2:].startswith("..."), shown
