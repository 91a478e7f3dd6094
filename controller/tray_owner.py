"""Whose dice the tray shows while a player decides with nothing to hold.

In betting Classic everyone throws before the bets, so the tray holds the last player's first
throw while each player bets; in Objective cards every player picks a card on the active
player's dice. The tray's caption read "Dice: J K J K J" under "Ann: check or bet": Cy's hand,
taken by players for Ann's (hers, Five A, was on the sheet). It now names the thrower.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Mapping, Sequence

from .rules import Decide
from .rules.base import Expectation

#: A whole throw: Pok'n Roll's white dice, thrown 3, 1 and 1 by the first player for everyone,
#: and its cups (2 or 3 dice) are never one, so their tray keeps "Dice:".
WHOLE_THROW = 5


def tray_head(expect: Expectation | None, deciding: bool, live_tray: bool, inputs: Sequence[Mapping[str, Any]],
              tray_values: Sequence[int], name_of: Callable[[int], str]) -> str:
    """The tray caption's head: "Cy's throw: " where `expect` is a decision with no dice to hold
    (`deciding`, the camera's tray shown: `live_tray`) over another player's whole throw, the
    last dice input of `inputs` (so a game resumed after a power cut says the same); else "Dice: "."""
    if not (deciding and live_tray and isinstance(expect, Decide) and expect.reroll is None):
        return "Dice: "
    last = next((d for d in reversed(inputs) if isinstance(d, Mapping) and d.get("type") == "dice"), None)
    if last is None:
        return "Dice: "
    thrower, values = last.get("player"), list(last.get("values") or ())
    if not isinstance(thrower, int) or isinstance(thrower, bool) or thrower == expect.player \
            or len(values) != WHOLE_THROW or Counter(values) != Counter(tray_values):
        return "Dice: "
    return f"{name_of(thrower)}'s throw: "
