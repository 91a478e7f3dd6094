"""What the table draws itself: dice nobody throws (`Throw.drawn`, e.g. Pok'n Roll's imaginary cup
with `imaginary_dice_source = "engine_rng"`), and the first player (`first_player = "drawn"`).

Why here and not in the rules: the engines have no randomness, so that a game is a pure function
of its inputs and a journal replays it exactly. The draw is made once, outside, and becomes an
input like any throw (the first player: the `start_seat` of the journal's header).
"""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from .rules import GameState, Throw
from .rules.base import FIRST_DRAWN, Input, dice_input

#: the system's randomness: no player can predict a draw from the earlier ones
SYSTEM_RANDOM = random.SystemRandom()


def draw(expect: Throw, rng: random.Random | None = None) -> Input:
    """The dice input for `expect`, its values drawn with `rng` (default: SYSTEM_RANDOM)."""
    rng = rng or SYSTEM_RANDOM
    return dice_input(expect.player, [rng.randint(1, 6) for _ in range(expect.count)])


def draw_first_player(players: Sequence[str], options: Mapping[str, Any],
                      rng: random.Random | None = None) -> dict[str, Any]:
    """The options a new game starts with: with `first_player = "drawn"`, `start_seat` set to a
    seat drawn with `rng` (default: SYSTEM_RANDOM); else `options` as given.

    Called once, when a game is set up, and never on a resume or a replay: the seat drawn is in
    the options of the journal's header (written before the screen names it), so the game after a
    power cut starts where it started, and a replay starts there too."""
    chosen = dict(options)
    if chosen.get("first_player") == FIRST_DRAWN and players:
        chosen["start_seat"] = (rng or SYSTEM_RANDOM).randrange(len(players))
    return chosen


def first_player_words(state: GameState) -> str | None:
    """What the screen says of a first player the table drew ("Drawn by the table: Bob starts."),
    None when the players chose the seat."""
    if state.options.get("first_player") != FIRST_DRAWN:
        return None
    seat = state.options.get("start_seat", 0)
    return f"Drawn by the table: {state.player_name(seat)} starts (seat {seat + 1})."
