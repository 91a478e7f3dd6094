"""What the screen says of a game resumed after a restart, in words a player reads as English.

The count of moves replayed was put in a fixed phrase, and a game cut after its first move came
back saying *(1 moves replayed)*: a table that cannot count its own moves is one the players
doubt, at the very moment it asks them to trust that it kept their game.
"""
from __future__ import annotations


def moves_replayed(count: int) -> str:
    """`count` moves replayed, singular for one: "1 move replayed", "12 moves replayed"."""
    return f"{count} move{'' if count == 1 else 's'} replayed"
