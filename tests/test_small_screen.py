"""The smallest screen a café may fit, 320x240 (a small HDMI or SPI panel): what is drawn there
is drawn apart, never one text over another, whatever it has to leave off."""
from __future__ import annotations

import dataclasses

import pygame
import pytest

from controller.bench_table import late_game
from controller.table import DECIDE
from display import render as render_module
from display.view import MessageView, TableView

SMALL = (320, 240)
GAMES = ["thirteen", "classic", "school", "poknroll", "objective-cards"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


def texts_drawn(monkeypatch, module) -> list[tuple[str, pygame.Rect]]:
    """Every line `module` draws from now on, with its rect on screen."""
    seen: list[tuple[str, pygame.Rect]] = []
    real = module.text

    def text(surface, s, *a, **kw):
        rect = real(surface, s, *a, **kw)
        if rect.width:
            seen.append((s, rect))
        return rect

    monkeypatch.setattr(module, "text", text)
    return seen


def overlaps(lines: list[tuple[str, pygame.Rect]]) -> list[tuple[str, str]]:
    return [(a, b) for i, (a, ra) in enumerate(lines) for b, rb in lines[i + 1:] if ra.colliderect(rb)]


def decisions(game: str, fraction: float) -> TableView:
    flow, rest = late_game(game, fraction)
    while flow.phase != DECIDE and rest:
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    return flow.view(None)


@pytest.mark.parametrize("banner", [False, True])
@pytest.mark.parametrize("game", GAMES)
def test_the_prompt_panels_lines_never_lie_over_each_other(game, banner, monkeypatch):
    """At 320x240 the buttons' hint and "more below", placed up from the panel's foot, were drawn
    over the question and the cursor's menu row (School: "HOLD 1-5 keep" over "Bob: choose a
    ro...", "UP/DOWN choose" over "Throw 5 again"). Now each line has its own place in the panel,
    the cursor's row and the question's first line always among them."""
    for fraction in (0.2, 0.5, 0.8):
        view = decisions(game, fraction)
        if banner:
            view = dataclasses.replace(view, message=MessageView("Dice moved: throw again.", "warning"))
        surface = pygame.Surface(SMALL)
        s = render_module.theme.scale(surface)
        lower = render_module._columns_for(surface, view)[1]
        if banner:
            used = render_module._banner_layout(view.message, lower.width, s)[2]
            lower = pygame.Rect(lower.x, lower.y + used, lower.width, lower.height - used)
        seen = texts_drawn(monkeypatch, render_module)
        render_module._prompt(surface, view.prompt, lower, s)
        monkeypatch.undo()
        assert not overlaps(seen), (fraction, overlaps(seen))
        assert all(lower.contains(r) for _, r in seen), (fraction, [(t, r) for t, r in seen if not lower.contains(r)])
        assert seen[0][0][:3] == view.prompt.text[:3]                        # the question's first line
        cursor = [o.label for o in view.prompt.options if o.selected]
        assert all(any(label.startswith(c[:4]) for label, _ in seen) for c in cursor)
