"""What the screens say by colour, they say some other way too (a word, a mark, a shape): one
player in twelve sees red, green and blue differently, and a café's light and a metre's distance
wash colours out for everyone."""
from __future__ import annotations

import random

import pytest

from controller.autoplay import AutoPlayer
from controller.rules import new_game

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
