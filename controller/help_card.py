"""The HINT button's card: how the game on the table is played, from its rules class."""
from __future__ import annotations

from display.view import HelpView

from .rules import GameState

CLOSE_HINT = "HINT again: close · the other buttons work as usual"


def help_card(game: type[GameState] | GameState) -> HelpView:
    """`game.how_to_play` as the screen shows it (a class, or a state of that game)."""
    return HelpView(f"How to play {game.title}", tuple(game.how_to_play), CLOSE_HINT)
