"""The question over a menu on a 320x240 panel (~118 px wide, 90 px high): every menu with dice to
hold had its question cut to its first line, the hint's two lines kept before the question's
second: "Ann: choose a r..." (School), "Ann: choose a c..." (Thirteen), "Ann: keep dice..."
(Classic), "Ann: stop, or h..." (Objective cards), and at 480x320 "Ann: choose a row, or hold..."
over three lines of hint. Who acts was on screen, not what to choose. Now the question is drawn
whole (the game's words, else fewer: "Ann: choose a row or throw again"), before the hint."""
from __future__ import annotations

import pygame
import pytest

from display import draw, theme
from display import render as render_module

from test_sheet_fits import cut_lines
from test_secret_menu_small import secret_menu

NAMES = ["Ann", "Bob", "Cy"]
#: (game, fraction of its inputs): a decision with dice to hold, its menu open
MENUS = [("school", 0.0), ("school", 0.3), ("thirteen", 0.0), ("thirteen", 0.5), ("classic", 0.0),
         ("classic", 0.5), ("objective-cards", 0.02), ("objective-cards", 0.5)]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def menu_view(game: str, fraction: float):
    """The first open menu with dice to hold at or after `fraction` of a game of Ann, Bob and Cy."""
    from controller.bench_table import played_to
    from controller.table import DECIDE
    flow, rest = played_to(game, NAMES, fraction)
    flow._enter_phase()
    while rest:
        view = flow.view(None)
        if flow.phase == DECIDE and view.prompt is not None and view.prompt.options and "HOLD" in view.prompt.hint:
            return view
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    raise AssertionError(f"{game}: no menu with dice to hold")


def panel_drawn(view, size, monkeypatch) -> tuple[list[str], list[str], list[str], list[str]]:
    """The prompt panel's question lines, menu rows and hint lines as drawn, and every line cut."""
    cut = cut_lines(monkeypatch)
    question: list[str] = []
    rows: list[str] = []
    hint: list[str] = []
    surface = pygame.Surface(size)
    lower = render_module._columns_for(surface, view)[1]
    labels = {form for o in view.prompt.options for form in (o.label, *o.short)}
    real = render_module.text

    def text(surface, s, pos, size, colour=theme.TEXT, *a, **k):
        rect = real(surface, s, pos, size, colour, *a, **k)
        if lower.contains(rect):
            if tuple(colour) == tuple(theme.ACCENT):
                question.append(s)
            elif s in labels:
                rows.append(s)
            elif tuple(colour) == tuple(theme.MUTED) and not s.startswith("more "):
                hint.append(s)
        return rect

    monkeypatch.setattr(render_module, "text", text)
    render_module.render(surface, view)
    monkeypatch.undo()
    return question, rows, hint, cut


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
@pytest.mark.parametrize("game,fraction", MENUS)
def test_the_question_over_a_menu_is_whole(game, fraction, size, monkeypatch):
    """On main: cut to "Ann: choose a r..." (320x240), "Ann: choose a row, or hold..." (480x320)."""
    view = menu_view(game, fraction)
    question, rows, hint, cut = panel_drawn(view, size, monkeypatch)
    said = " ".join(question)
    assert not [s for s in cut if s in question or s in view.prompt.text], (cut, question)
    assert said.startswith(view.prompt.player + ": "), question
    assert rows, "the menu's cursor row is drawn"
    # the whole question, or a form of it the panel draws in fewer words, ending a clause
    from display.menu_question import menu_question_forms
    assert any(form == said or form.startswith(said + " (") for form in menu_question_forms(view.prompt.text)), said
    # the alternative is not lost: "or throw again", "or keep all 5", "or cross" where the game says it
    if ", or " in view.prompt.text or " or " in view.prompt.text.split(" (")[0]:
        assert " or " in said or ", or " in said, said
    # the hint, where drawn, is its first whole parts
    parts = view.prompt.hint.split(" · ")
    if hint:
        assert any(" ".join(hint) == " ".join(parts[:k]) for k in range(1, len(parts) + 1)), hint


def test_school_at_320x240_reads_its_choice_and_two_rows(monkeypatch):
    """What a School player reads at 320x240 on the first throw's menu."""
    view = menu_view("school", 0.0)
    question, rows, hint, cut = panel_drawn(view, (320, 240), monkeypatch)
    assert " ".join(question) == "Ann: choose a row or throw again", question
    assert len(rows) >= 2, rows


def test_the_secret_card_menu_keeps_its_whole_hint_and_two_cards(monkeypatch):
    """Objective cards' secret menu at 320x240: "Ann: choose you..." on main (over two cards and
    the whole hint, BACK hides included); now "Ann: choose your card" whole, the rest as before."""
    view = secret_menu()
    question, rows, hint, cut = panel_drawn(view, (320, 240), monkeypatch)
    assert " ".join(question) == "Ann: choose your card", question
    assert " ".join(hint) == view.prompt.hint.replace(" · ", " "), hint
    assert len(rows) >= 2, rows         # (a card's name may be cut beside its points: "Three of a ki...")


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("game,fraction", MENUS[::2])
def test_where_the_question_fitted_it_is_the_games_words(game, fraction, size, monkeypatch):
    """The larger screens draw the game's own question whole, as before."""
    view = menu_view(game, fraction)
    question, rows, hint, cut = panel_drawn(view, size, monkeypatch)
    assert " ".join(question) == view.prompt.text, question
