"""What the screens say by colour, they say some other way too (a word, a mark, a shape): one
player in twelve sees red, green and blue differently, and a café's light and a metre's distance
wash colours out for everyone."""
from __future__ import annotations

import random

import pygame
import pytest

from controller.autoplay import AutoPlayer
from controller.rules import new_game
from display.render import tray_marks
from display.view import DieMark, TrayView

GAME_OPTIONS = [("thirteen", {}), ("classic", {}), ("school", {}), ("poknroll", {"must_mark_best": False}),
                ("objective-cards", {})]


def preview_cells(state):
    return [c for t in state.sheet().to_json()["tables"] for r in t["rows"] for c in r["cells"]
            if c["kind"] == "preview" and c["text"]]


@pytest.mark.parametrize("game,options", GAME_OPTIONS, ids=[g for g, _ in GAME_OPTIONS])
def test_a_preview_never_looks_like_a_written_score_but_for_its_colour(game, options):
    """What the dice would score is outlined or says "+": Thirteen's previews were bare numbers,
    blue among the green written scores of the same column (one colour to a tritanope)."""
    bot = AutoPlayer(random.Random(11))
    state = new_game(game, ["Ann", "Bob", "Cy"], options)
    seen = 0
    for _ in range(400):
        if state.is_over:
            break
        for cell in preview_cells(state):
            seen += 1
            assert cell.get("highlight") or "+" in cell["text"], (game, cell)
        state = state.apply(bot.next_input(state))
    assert seen, f"{game}: no preview met"


def test_a_die_read_unsurely_says_so_on_its_face_tag():
    """A die the reader is unsure of is outlined orange, the others green: one colour to a
    red-green colour-blind player (simulated). Its tag says "3?" too; an unread die's "?" stays one."""
    boxes = [pygame.Rect(20 + 90 * i, 120, 60, 60) for i in range(3)]
    dice = (DieMark((0, 0, 1, 1), "3"), DieMark((0, 0, 1, 1), "3", doubtful=True),
            DieMark((0, 0, 1, 1), "?", doubtful=True))
    area = pygame.Rect(0, 0, 300, 300)
    sure, unsure, unread = (tag for tag, *_ in tray_marks(TrayView(None, dice), boxes, area, 1.0))
    question = tray_marks(TrayView(None, (DieMark((0, 0, 1, 1), "?"),)), boxes[:1], area, 1.0)
    assert unsure.get_width() > sure.get_width()
    assert unread.get_width() == question[0][0].get_width()         # "?", not "??"
