"""Dice nobody throws: the table draws them (`Throw.drawn`, e.g. Pok'n Roll's imaginary cup with
`imaginary_dice_source = "engine_rng"`).

Why here and not in the rules: the engines have no randomness, so that a game is a pure function
of its inputs and a journal replays it exactly. The draw is made once, outside, and becomes an
input like any throw.
"""
from __future__ import annotations

import random

from .rules import Throw
from .rules.base import Input, dice_input

#: the system's randomness: no player can predict a draw from the earlier ones
SYSTEM_RANDOM = random.SystemRandom()


def draw(expect: Throw, rng: random.Random | None = None) -> Input:
    """The dice input for `expect`, its values drawn with `rng` (default: SYSTEM_RANDOM)."""
    rng = rng or SYSTEM_RANDOM
    return dice_input(expect.player, [rng.randint(1, 6) for _ in range(expect.count)])
