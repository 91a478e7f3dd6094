"""What the screen says of a game resumed after a restart, in words a player reads as English.

The count of moves replayed was put in a fixed phrase, and a game cut after its first move came
back saying *(1 moves replayed)*: a table that cannot count its own moves is one the players
doubt, at the very moment it asks them to trust that it kept their game.
"""
from __future__ import annotations

from typing import Any


def moves_replayed(count: int) -> str:
    """`count` moves replayed, singular for one: "1 move replayed", "12 moves replayed"."""
    return f"{count} move{'' if count == 1 else 's'} replayed"


def _whose(state: Any, undone: dict[str, Any]) -> str:
    """Whose dice the input `undone` was ("Ann's"), or "The" where it names no player."""
    player = undone.get("player")
    try:
        return f"{state.player_name(player)}'s" if isinstance(player, int) else "The"
    except Exception:   # (a seat the game does not have: the words must not stop a resume)
        return "The"


def correction_resumed(state: Any, undone: dict[str, Any]) -> str:
    """Dice already accepted were being corrected (a long OK) when the game stopped (a power
    cut, or put away by *Still playing?* and taken up): what the table asks now, and why. After a
    cut it asked for the throw again without a word of the dice. Words true of both: "the power
    went" was said of a game put away and taken up."""
    return (f"{_whose(state, undone)} dice were being corrected: they are back as read "
            "(changes not yet accepted are lost); BACK leaves them so.")


def correction_lost(state: Any, undone: dict[str, Any]) -> str:
    """As `correction_resumed`, where the dice cannot be put back (the journal's values do not
    fit the throw the game waits for): the throw is asked again, and the screen says why."""
    return f"{_whose(state, undone)} dice were being corrected, and cannot be put back: throw them again."
