"""The HINT button's card: how the game on the table is played, from its rules class."""
from __future__ import annotations

from typing import Any, Mapping

from display.view import HelpView

from .rules import GameState

CLOSE_HINT = "HINT again: close · the other buttons work as usual"


def help_card(game: type[GameState] | GameState, options: Mapping[str, Any] | None = None) -> HelpView:
    """How `game` is played, as the screen shows it: a state's card follows its house rules; a
    class's card follows `options` (the defaults for any not given)."""
    if not isinstance(game, type):
        options = game.options
    return HelpView(f"How to play {game.title}", tuple(game.rules_card(options)), CLOSE_HINT)
