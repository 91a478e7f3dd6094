"""The HINT button's card: how the game on the table is played, from its rules class.

A card longer than its panel is drawn in pages (the display splits it where the room ends):
HINT opens the card, turns its pages, and closes it after the last, so the one button that
shows it is all a player needs to read it through. A panel without HINT opens it with OK
(a "How to play" menu row, or OK while waiting for a throw, where OK does nothing else), and OK
then stands for HINT: its foot names OK.
"""
from __future__ import annotations

from typing import Any, Mapping

from display.view import HelpView, MessageView

from .rules import GameState

CLOSE_HINT = "HINT again: close · the other buttons work as usual"
NEXT_PAGE_HINT = "HINT: next page · the other buttons work as usual"
#: the row (setup pages, decision menus) that opens the card on a panel without HINT
HOW_TO_PLAY = "How to play"
# the smallest screen the table runs on (the 7" Pi display): where a table that does not say
# its screen's size counts the card's pages, so that none is ever out of HINT's reach
SMALLEST_SCREEN = (800, 480)


def help_card(game: type[GameState] | GameState, options: Mapping[str, Any] | None = None,
              page: int = 0, key: str = "HINT") -> HelpView:
    """How `game` is played, as the screen shows it: a state's card follows its house rules; a
    class's card follows `options` (the defaults for any not given). `page`: the page shown;
    `key`: the button that turns it (OK on a panel without HINT), named at its foot."""
    if not isinstance(game, type):
        options = game.options
    # (short: the game's name alone, where "How to play ..." would be cut: "How to play Object... 1/8"
    # beside the page at 320x240)
    return HelpView(f"How to play {game.title}", tuple(game.rules_card(options)), _with_key(CLOSE_HINT, key), page,
                    _with_key(NEXT_PAGE_HINT, key), short=(game.title,))


def _with_key(foot: str, key: str) -> str:
    """A card's foot naming `key` where it says HINT (a panel without HINT turns the card with OK)."""
    return foot.replace("HINT", key, 1)


def hint_pressed(shown: HelpView | None, mode: str, size: tuple[int, int],
                 message: MessageView | None = None) -> int | None:
    """The page of the card that HINT leaves on a screen of `size` showing `mode` (and the banner
    of `message`): the first when no card was shown, the next while `shown` has one, else None
    (the card closes)."""
    from display.render import help_pages    # (pygame: only where a screen shows the card)

    if shown is None:
        return 0
    page = shown.page + 1
    return page if page < help_pages(shown, mode, size, message) else None
