"""A reading to check under a banner, on the smallest screens, at the headless table (real
settle tracker, reader, flow and screen code, fed a rendered tray with a die in the lamp's
glare): the players must see what to press. At 320x240 the glare's banner (*Die 4 is in the
lamp's glare: check it, then OK.*) left the prompt a 58 px panel: it showed *Is this right?
Ch...* and *Taken only with...*, never *OK accepts · hold OK to correct · BACK to throw
again*; at 480x320 it showed *... OK accepts · hold OK to co...*. The banner now goes over the
sheet where the prompt cannot show whole under it, the question in its short form (the die to
check is named by the banner and outlined, tagged *3?*, on the tray) where its whole one
does not fit."""
from __future__ import annotations

import pygame
import pytest

from controller.table import CONFIRM
from display import render as render_module
from test_correction_small_screen import drawn_whole
from test_tray_problems import SIZE, STYLE, show, table, tray
from vision.synthetic import render_tray

CONFIRM_KEYS = "OK accepts · hold OK to correct · BACK to throw again"
BANNER = "Die 4 is in the lamp's glare: check it, then OK."


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


def glare_view(tmp_path):
    p = table(tmp_path)
    shot = tray(2, glare=True)
    show(p, render_tray([], seed=2, size=SIZE, style=STYLE).image, 12)
    show(p, shot)
    assert p.flow.phase == CONFIRM and p.flow.waits_for_ok and p.flow.message.text == BANNER
    return p.flow.view(shot)


@pytest.mark.parametrize("size", [(320, 240), (480, 320), (800, 480)])
def test_the_players_see_what_to_press_under_a_glare_banner(size, tmp_path, monkeypatch):
    view = glare_view(tmp_path)
    surface = pygame.Surface(size)
    seen = drawn_whole(monkeypatch, surface, view)
    words = " ".join(s for s, _ in seen)
    assert BANNER in words, words
    assert f"Is this right? {CONFIRM_KEYS}" in words or f"Is this right? Check die 4 (outlined): I am not sure " \
        f"of it. {CONFIRM_KEYS}" in words, words
    if size != (320, 240):       # (where the panel has the room, the die to check is named there too)
        assert "Check die 4 (outlined)" in words, words
    assert not [(a, b) for i, (a, ra) in enumerate(seen) for b, rb in seen[i + 1:] if ra.colliderect(rb)]
    # the tray still shows the dice read, and their values
    tray_rect = render_module.tray_rect(surface, view)
    assert tray_rect is not None and tray_rect.height >= 60
    assert "Read: 6 5 2 3 3" in words


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
def test_a_reading_with_no_banner_says_what_to_press(size, tmp_path, monkeypatch):
    """With no banner the 320x240 panel showed *Is this right? Check die 4* (the rest of the
    question cut off, with no mark): now the short form, whole. At 480x320 the whole question
    has the room, and shows."""
    from dataclasses import replace
    view = replace(glare_view(tmp_path), message=None)
    words = " ".join(s for s, _ in drawn_whole(monkeypatch, pygame.Surface(size), view))
    whole = f"Is this right? Check die 4 (outlined): I am not sure of it. {CONFIRM_KEYS}"
    assert (f"Is this right? {CONFIRM_KEYS}" if size == (320, 240) else whole) in words, words


@pytest.mark.parametrize("options", [0, 3])
def test_a_hint_cut_on_its_first_line_reads_as_written(options, monkeypatch):
    """A hint part wrapped over two lines and then put on one line (the panel's room for one),
    cut there: it was joined as if its lines were parts, "Taken only with OK: the · g..." (at
    480x320 under a reading's whole question). It reads "Taken only with OK: the glare ...";
    the parts themselves are still joined by " · ". (Where the first part fits whole, the hint is
    kept to its whole parts, "OK accepts", not cut: display.prompt_parts.)"""
    from display.view import OptionView, PromptView
    from test_small_screen import texts_drawn

    s = render_module.theme.scale(pygame.Surface((480, 320)))
    pad, big, text_step, hint_size, hint_step, row_h = render_module._prompt_metrics(s)
    rows = tuple(OptionView(f"Row {i}", selected=i == 0) for i in range(options))
    for hint, whole in [("Taken only with OK: the glare may hide pips", "Taken only with OK: the glare"),
                        ("OK accepts · hold OK to correct · BACK to throw again", "OK accepts")]:
        prompt = PromptView("Ann", "Is this right?", rows, hint=hint)
        height = 2 * pad + text_step + hint_step + (int(6 * s) + row_h if options else 0) + 2
        seen = texts_drawn(monkeypatch, render_module)
        render_module._prompt(pygame.Surface((480, 320)), prompt, pygame.Rect(0, 0, 150, height), s)
        monkeypatch.undo()
        drawn = [line for line, _ in seen if line.startswith(hint[:8])]
        assert drawn and drawn[0].startswith(whole), drawn
