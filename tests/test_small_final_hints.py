"""The buttons' hints under the final standings on a 320x240 panel: each was drawn on one line
of the ~120 px panel and cut, "hold OK: correct Maximilianus's dice" to "hold OK: correct...",
"BACK twice: undo Bob's choice" to "BACK twice: und...": whose dice, whose choice, never said.
A hint now goes on the lines it takes, counted as such when the panel decides what it keeps
(the hints after the first left off, the last first, where the standings need the room)."""
from __future__ import annotations

import dataclasses

import pygame
import pytest

from display import draw, theme
from display import render as render_module
from display.view import PromptView

from test_sheet_fits import cut_lines, game_view
from test_small_screen import overlaps, texts_drawn


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def final_hints(game: str, hint: str, monkeypatch) -> tuple[list[str], list[str], list]:
    """The hint lines the final standings of `game` draw at 320x240, the lines cut, the overlaps."""
    view = game_view(game, ["Maximilianus", "Bartholomew", "Cy"], 1.0)
    view = dataclasses.replace(view, prompt=PromptView("", "", hint=hint))
    cut = cut_lines(monkeypatch)
    seen = texts_drawn(monkeypatch, render_module)
    hints: list[str] = []
    real = render_module.text

    def text(surface, s, pos, size, colour=theme.TEXT, *a, **k):
        if tuple(colour) in (theme.ACCENT, theme.MUTED):
            hints.append(s)
        return real(surface, s, pos, size, colour, *a, **k)

    monkeypatch.setattr(render_module, "text", text)
    render_module.render(pygame.Surface((320, 240)), view)
    monkeypatch.undo()
    parts = hint.split(" · ")
    return [s for s in hints if any(s in part for part in parts)], cut, overlaps(seen)


@pytest.mark.parametrize("hint", ["hold OK: correct Maximilianus's dice", "BACK twice: undo Bartholomew's choice"])
@pytest.mark.parametrize("game", ["classic", "thirteen", "poknroll"])
def test_a_final_hint_is_whole(game, hint, monkeypatch):
    lines, cut, overlapping = final_hints(game, hint, monkeypatch)
    assert " ".join(lines) == hint, lines
    assert hint not in cut, cut
    assert not overlapping, overlapping


@pytest.mark.parametrize("hint", ["OK: a new game · BACK twice: undo Bartholomew's choice",
                                  "OK: a new game · hold OK: play again (Ann, Bob, Cy)"])
@pytest.mark.parametrize("game", ["classic", "thirteen", "poknroll"])
def test_no_hint_is_left_off_for_the_lines_of_another(game, hint, monkeypatch):
    """Where the panel holds the hints one line each but not the second on its lines, it shows
    them one line each, cut, as before: "hold OK: play ag..." rather than nothing of it."""
    lines, _, overlapping = final_hints(game, hint, monkeypatch)
    first, second = hint.split(" · ")
    assert lines[0] == first and len(lines) > 1 and lines[1].startswith(second.split(":")[0]), lines
    assert not overlapping, overlapping
