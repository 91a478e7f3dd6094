"""Thirteen with the house rule early_close_on_zero: a figure given up before the third throw
earns the early-close bonus (10 on the first throw) but is still given up (the bottom bonus is
lost). Its cell read "10", in red, beside a scored figure's green "10": told apart by colour
alone, which one player in twelve and a café's light do not tell."""
from __future__ import annotations

import pygame

from display.sheet import draw_sheet
from test_rules_thirteen import game, row, score


def test_a_figure_given_up_with_its_bonus_reads_otherwise_than_a_scored_one():
    given_up = score(game(early_close_on_zero=True), [2, 2, 6, 6, 6], 1, "Straights")
    cell = row(given_up, "STRAIGHTS").cells[0]
    assert cell.kind == "cross" and cell.value == 10
    assert cell.text != "10" and "0" in cell.text and cell.text.endswith("10")
    # the figures scored in the game never read so
    scored = score(game(early_close_on_zero=True), [2, 3, 4, 5, 6], 2, "Straights")
    assert row(scored, "STRAIGHTS").cells[0].text == "35"


def test_the_mark_is_drawn_whole_on_the_smallest_screen():
    """At 320x240 the given-up cell's text is drawn whole, not cut back to the bare "10"."""
    pygame.font.init()
    from display import sheet as sheet_module
    state = score(game(("Ann", "Bob"), early_close_on_zero=True), [2, 2, 6, 6, 6], 1, "Straights")
    drawn: list[str] = []
    real = sheet_module.text

    def text(surface, s, *a, **kw):
        drawn.append(s)
        return real(surface, s, *a, **kw)

    sheet_module.text = text
    try:
        surface = pygame.Surface((320, 240))
        draw_sheet(surface, state.sheet().to_json(), pygame.Rect(140, 40, 175, 195), 0.5)
    finally:
        sheet_module.text = real
    assert "0+10" in drawn, drawn
