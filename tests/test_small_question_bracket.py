"""A question kept to a start that ends a clause never ends inside its bracket: at 320x240 Pok'n
Roll's secret choice read "Ann: abandon or continue? (turn 1" over "Abandon" / "Continue", a
bracket opened and never closed (the comma in "(turn 1, secret)" taken for a clause's end).
Now the start ends before the bracket: "Ann: abandon or continue?"."""
from __future__ import annotations

import pygame
import pytest

from display import draw, theme
from display.prompt_parts import question_start

from test_small_menu_cue import SMALL, cursor_at, drawn, first_menu


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def test_a_start_is_not_cut_inside_a_bracket():
    text = "Ann: abandon or continue? (turn 1, secret)"
    assert question_start(text, lambda s: len(s) <= 40) == "Ann: abandon or continue?"
    # (a clause that ends after the bracket keeps it whole)
    assert question_start("Ann: pass (turn 1, secret), then wait", lambda s: len(s) <= 30) \
        == "Ann: pass (turn 1, secret)"


@pytest.mark.parametrize("size", SMALL)
@pytest.mark.parametrize("row", [0, 1])
def test_pokn_roll_secret_choice_question_has_its_bracket_closed(size, row, monkeypatch):
    """What the player reads over 'Abandon' / 'Continue' on a small screen."""
    view = cursor_at(first_menu("poknroll", 0.0, secret=True), row)
    panel = drawn(view, size, monkeypatch)
    question = " ".join(s for s, _, c in panel.texts if c == tuple(theme.ACCENT))
    assert question.startswith("Ann: abandon or continue?"), question
    assert question.count("(") == question.count(")"), question
    assert panel.said("Abandon") and panel.said("Continue")
