"""Correcting the dice on the smallest screens (320x240, 480x320), at the headless table with
real trays: the screen must say how to change a die, how to finish (a long OK) and what BACK
does. At 320x240 the banner said it ("Correcting: UP/DOWN change the die, OK next die, hold
OK when done.", cut at its fourth line) and took the prompt's room: the prompt showed
"Correct die 1: UP..." and none of its hint, so BACK's meaning was never on screen; at 480x320
the late correction's banner lost "read." off "BACK leaves them as"."""
from __future__ import annotations

from pathlib import Path

import cv2
import pygame
import pytest

from controller.table import CORRECT
from controller.table_cli import FixturePlayer
from display import render as render_module
from display import theme
from hardware.button_scripted import parse_script

FRAMES = Path(__file__).parent / "fixtures" / "table"
SCRIPTS = {
    "shown": ("throw d66235.jpg\nhold OK\n", "d66235.jpg", ["hold OK: done", "BACK: the dice as read"]),
    "offered": ("throw 4dice.jpg\nhold OK\n", "4dice.jpg", ["hold OK: done", "BACK cancels"]),
    "late": ("throw d66235.jpg\nwait\nhold OK\n", "d66235.jpg", ["hold OK: done", "BACK leaves the dice as read"]),
}


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


def drawn_whole(monkeypatch, surface: pygame.Surface, view) -> list[tuple[str, pygame.Rect]]:
    """Every line the screen draws whole (not shrunk nor cut), with its rect."""
    seen: list[tuple[str, pygame.Rect]] = []
    real = render_module.text
    least = theme.min_text(theme.scale(surface))

    def text(surf, s, pos, size, *a, **kw):
        rect = real(surf, s, pos, size, *a, **kw)
        bold = kw.get("bold", a[1] if len(a) > 1 else False)
        if rect.width and rect.width >= theme.font(max(int(size), least), bold).size(s)[0]:
            seen.append((s, rect))
        return rect

    monkeypatch.setattr(render_module, "text", text)
    render_module.render(surface, view)
    monkeypatch.undo()
    return seen


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
@pytest.mark.parametrize("origin", sorted(SCRIPTS))
def test_the_correction_says_how_to_change_finish_and_leave_it(origin, size, monkeypatch):
    script, frame, leave = SCRIPTS[origin]
    p = FixturePlayer(FRAMES, parse_script(("game thirteen Ann\n" + script).splitlines(), "test"), None, None)
    p.run()
    assert p.flow.phase == CORRECT
    view = p.flow.view(cv2.imread(str(FRAMES / frame)))
    surface = pygame.Surface(size)
    seen = drawn_whole(monkeypatch, surface, view)
    words = " ".join(s for s, _ in seen)
    for needed in ["Correct die", "UP/DOWN", "OK next" if origin != "offered" else "OK: done", *leave]:
        assert needed in words, (needed, words)
    # nothing drawn over anything else
    assert not [(a, b) for i, (a, ra) in enumerate(seen) for b, rb in seen[i + 1:] if ra.colliderect(rb)]
    # and the tray still shows the dice being set, with their values
    tray = render_module.tray_rect(surface, view)
    assert tray is not None and tray.height >= 60
    assert view.tray is not None and view.tray.caption.startswith("Setting:")
