"""The HINT button's card: how the game on the table is played, from its rules class.

A card longer than its panel is drawn in pages (the display splits it where the room ends):
each page but the last says how to turn it.
"""
from __future__ import annotations

from typing import Any, Mapping

from display.view import HelpView

from .rules import GameState

CLOSE_HINT = "HINT again: close · the other buttons work as usual"
NEXT_PAGE_HINT = "HINT: next page · the other buttons work as usual"


def help_card(game: type[GameState] | GameState, options: Mapping[str, Any] | None = None,
              page: int = 0) -> HelpView:
    """How `game` is played, as the screen shows it: a state's card follows its house rules; a
    class's card follows `options` (the defaults for any not given). `page`: the page shown."""
    if not isinstance(game, type):
        options = game.options
    return HelpView(f"How to play {game.title}", tuple(game.rules_card(options)), CLOSE_HINT, page,
                    NEXT_PAGE_HINT)
