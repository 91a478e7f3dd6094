"""How the table names dice in words: by pips, or by the game's own faces (Classic's 9 10 J Q K A).

Every part of the table (the menu, the messages about a tray, the prompt and the captions)
names dice the same way, so that a die the banner calls "K" is the die the menu calls "K".
"""
from __future__ import annotations

from typing import Iterable, Sequence

from .rules import Throw


def face_name(value: int | None, faces: Sequence[str] | None) -> str:
    """One die as the players see it: its face in the game's faces if it has its own, else its
    pips; "?" for a die not read."""
    if value is None:
        return "?"
    return faces[value - 1] if faces else str(value)


def sorted_faces(values: Iterable[int], exp: Throw) -> str:
    """Dice named in order of their pips, in the faces of the throw `exp` ("none" for no dice):
    how the messages name the dice held and the dice seen."""
    return " ".join(face_name(v, exp.faces) for v in sorted(values)) or "none"
