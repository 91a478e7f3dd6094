"""The prompt panel on a 320x240 panel (~114 px wide, four lines): while a player was to throw it
read "Ann: throw all 5..." over "Throw, then let the / dice settle / hold OK: enter t...", and
under a menu "Ann: choose a r..." over "dice · UP/DOWN...": a button named without what it does.
The question now keeps its lines before the hint's where it has no menu, a question or a hint too
long for its lines is kept to its longest start ending a clause or to its first whole parts, and
Objective cards' "Game over after 10 rounds" may be "Game over" beside its title."""
from __future__ import annotations

import pygame
import pytest

from controller.bench_table import played_to
from controller.rules import GAMES
from controller.table import WAIT_DICE
from display import draw, theme
from display import render as render_module

from test_sheet_fits import cut_lines, game_view

NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def wait_view(game: str, again: bool = False):
    """The view of `game` while its first player is to throw (`again`: to throw some dice again)."""
    flow, rest = played_to(game, NAMES, 0.0)
    flow._enter_phase()
    while rest and not (flow.phase == WAIT_DICE and (" again " in flow.view(None).prompt.text) == again):
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    view = flow.view(None)
    assert flow.phase == WAIT_DICE and view.prompt is not None
    return view


def prompt_drawn(view, size, monkeypatch) -> tuple[list[str], list[str], list[str]]:
    """The question's and the hint's lines the prompt panel draws for `view`, and every line cut."""
    cut = cut_lines(monkeypatch)
    drawn: list[tuple[str, tuple]] = []
    real = render_module.text
    surface = pygame.Surface(size)
    lower = render_module._columns_for(surface, view)[1]

    def text(surface, s, pos, size, colour=theme.TEXT, *a, **k):
        rect = real(surface, s, pos, size, colour, *a, **k)
        if lower.contains(rect):            # (the prompt's panel: the status says the question too)
            drawn.append((s, tuple(colour)))
        return rect

    monkeypatch.setattr(render_module, "text", text)
    render_module.render(surface, view)
    monkeypatch.undo()
    question = [s for s, c in drawn if c == theme.ACCENT and s in view.prompt.text]
    hint = [s for s, c in drawn if c == theme.MUTED and s in view.prompt.hint]
    return question, hint, cut


def ends_a_clause(text: str, said: str) -> bool:
    """Whether `said` is `text` whole or a start of it that ends a sentence or a clause."""
    if not said or not text.startswith(said):
        return False
    return said == text or said[-1] in ".!?" or text[len(said):].startswith((", ", " ("))


def pieces_cut(view, cut: list[str]) -> list[str]:
    """The lines cut that are pieces of the prompt's question or hint."""
    return [s for s in cut if s in view.prompt.text or s in view.prompt.hint]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_throw_question_is_whole_and_the_hint_cut_nowhere(game, monkeypatch):
    """On main: "Ann: throw all 5 dice" drawn "Ann: throw all 5..." (every game) and the hint's
    third line "hold OK: enter t..."."""
    view = wait_view(game)
    question, hint, cut = prompt_drawn(view, (320, 240), monkeypatch)
    assert not pieces_cut(view, cut), cut
    said = " ".join(question)
    assert ends_a_clause(view.prompt.text, said), question
    assert said.startswith(view.prompt.text.split(". ")[0]), said       # "Ann: throw all 5 dice" at least
    assert " ".join(hint) == view.prompt.hint.split(" · ")[0], hint      # its first part, whole


@pytest.mark.parametrize("game", ["school", "thirteen"])
def test_a_throw_again_keeps_a_clause_and_the_hints_first_part(game, monkeypatch):
    """"Ann: throw 3 dice again (throw 2 of 3), with your held 4 4 back in the tray" beside
    "Throw, then let the dice settle": on main "Ann: throw 3 dice / again (throw 2 of / 3), with
    your h..." over "Throw, then l..."."""
    view = wait_view(game, again=True)
    question, hint, cut = prompt_drawn(view, (320, 240), monkeypatch)
    assert not [s for s in cut if s in view.prompt.hint], cut
    assert hint and " · ".join(hint).startswith(view.prompt.hint.split(" · ")[0].split()[0]), hint
    assert not [s for s in cut if s in view.prompt.text], cut
    assert ends_a_clause(view.prompt.text, " ".join(question)), question


@pytest.mark.parametrize("fraction", [0.1, 0.5])
@pytest.mark.parametrize("game", ["classic", "school", "thirteen"])     # (the others decide in secret there)
def test_a_menus_hint_is_cut_nowhere(game, fraction, monkeypatch):
    """Under a menu the hint "HOLD 1-5 keep dice · UP/DOWN choose · OK confirm" read "HOLD 1-5
    keep / dice · UP/DOWN..." on main: now its first whole parts."""
    view = game_view(game, NAMES, fraction)
    assert view.prompt is not None and view.prompt.options
    question, hint, cut = prompt_drawn(view, (320, 240), monkeypatch)
    assert not [s for s in cut if s in view.prompt.hint], cut
    parts = view.prompt.hint.split(" · ")
    if hint:
        drawn = " ".join(hint)
        assert any(drawn.replace(" · ", " ") == " ".join(parts[:k]).replace(" · ", " ")
                   for k in range(1, len(parts) + 1)), (hint, parts)


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (1280, 720)])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_where_the_prompt_fitted_it_is_drawn_whole(game, size, monkeypatch):
    """The larger screens draw the throw's question and hint whole, as before."""
    view = wait_view(game)
    question, hint, cut = prompt_drawn(view, size, monkeypatch)
    assert not pieces_cut(view, cut), cut
    assert " ".join(question) == view.prompt.text, question
    assert " ".join(hint).replace(" · ", " ") == view.prompt.hint.replace(" · ", " "), hint


def test_objective_cards_final_title_and_status_are_whole(monkeypatch):
    """"Objective cards: final standings" beside "Game over after 10 rounds" were both cut at
    320x240 (the status had no shorter form); the status is now "Game over" there."""
    view = game_view("objective-cards", NAMES, 1.0)
    assert view.mode == "final" and view.status.startswith("Game over after")
    cut = cut_lines(monkeypatch)
    render_module.render(pygame.Surface((320, 240)), view)
    assert view.title not in cut and view.status not in cut, cut
    from display.status_fit import status_forms
    assert "Game over" in status_forms(view.status, NAMES)


def test_prompt_parts_units():
    from display.prompt_parts import question_start, whole_part_lines
    hint = "HOLD 1-5 keep dice · UP/DOWN choose · OK confirm"
    lines = ["HOLD 1-5 keep", "dice", "UP/DOWN choose", "OK confirm"]
    assert [whole_part_lines(hint, lines, k) for k in range(5)] == [0, 0, 2, 3, 4]
    assert whole_part_lines("a · b", ["a · b"], 1) == 1
    text = "Ann: throw 3 dice again (throw 2 of 3), with your held 4 4 back in the tray"
    assert question_start(text, lambda s: len(s) <= 40) == "Ann: throw 3 dice again (throw 2 of 3)"
    assert question_start(text, lambda s: len(s) <= 25) == "Ann: throw 3 dice again"
    assert question_start(text, lambda s: len(s) <= 10) is None
    assert question_start("Ann: throw all 5 dice. Pips count as 1=9", lambda s: len(s) < 30) == "Ann: throw all 5 dice."


def test_a_question_never_ends_before_its_other_choice():
    """"Ann: stop, or hold dice and throw again" kept as "Ann: stop" would read as an order."""
    from display.prompt_parts import question_start
    assert question_start("Ann: stop, or hold dice and throw again (throw 1 of 3)", lambda s: len(s) <= 20) is None
    assert question_start("Ann: throw the other 3 dice once more, with your held Q Q back",
                          lambda s: len(s) <= 40) == "Ann: throw the other 3 dice once more"


def test_a_secret_choices_hint_stays_whole_beside_a_long_question(monkeypatch):
    """The question's lines go first only where that cuts less: a secret choice's long question
    beside "Bartholomew: press OK to see your choices" keeps the hint whole, as on main (the
    first version of this change drew the question whole and cut the hint to "Bartholomew: p...")."""
    from dataclasses import replace

    from display.view import PromptView
    view = wait_view("thirteen")
    prompt = PromptView("Bartholomew", "Bartholomew: your choice is secret. Everyone else, please look away.",
                        hint="Bartholomew: press OK to see your choices")
    view = replace(view, prompt=prompt, sheet={**view.sheet, "players": ["Bartholomew", "Ann"]})
    question, hint, cut = prompt_drawn(view, (320, 240), monkeypatch)
    assert not [s for s in cut if s in prompt.hint], cut
    assert " ".join(hint) == prompt.hint, hint


def test_classics_throw_once_more_keeps_who_throws_what(monkeypatch):
    """Classic's "Ann: throw the other 3 dice once more, with your held A A back in the tray. Pips
    count as ..." at 320x240: on main "Ann: throw the / other 3 dice once / more, with your h..." over
    "Throw, then l..."; with the hint first, "Ann: throw the o..." over a blank line. Now the clause
    whole, "Ann: throw the other 3 dice once more" (its hint's first part the one line cut)."""
    flow, rest = played_to("classic", NAMES, 0.0)
    flow._enter_phase()
    while rest and not (flow.phase == WAIT_DICE and "once more" in flow.view(None).prompt.text):
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    view = flow.view(None)
    question, hint, cut = prompt_drawn(view, (320, 240), monkeypatch)
    assert not [s for s in cut if s in view.prompt.text], cut
    assert " ".join(question).endswith("once more") and ends_a_clause(view.prompt.text, " ".join(question)), question
