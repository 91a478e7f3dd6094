"""Random legal play: the soak, property tests and benchmarks all drive games through this.

It only looks at `expects()`, so it plays every game the same way a table does.
"""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from .base import Decide, GameOver, GameState, Input, Throw, choose_input, dice_input, new_game, reroll_input


def random_keep(dice: Sequence[int], min_rethrow: int, max_rethrow: int, rng: random.Random) -> list[int]:
    """A random sub-multiset of `dice` to keep, leaving between min and max dice to rethrow."""
    n = len(dice)
    lo, hi = max(0, min_rethrow), min(n, max_rethrow)
    rethrow = rng.randint(lo, hi)
    order = list(dice)
    rng.shuffle(order)
    return order[rethrow:]


def random_input(state: GameState, rng: random.Random, reroll_bias: float = 0.5) -> Input:
    """A legal input for `state`, chosen at random."""
    exp = state.expects()
    if isinstance(exp, Throw):
        return dice_input(exp.player, [rng.randint(1, 6) for _ in range(exp.count)])
    if isinstance(exp, Decide):
        spec = exp.reroll
        if spec is not None and (not exp.options or rng.random() < reroll_bias):
            if spec.max_rethrow >= spec.min_rethrow and len(spec.dice) >= spec.min_rethrow:
                return reroll_input(exp.player, random_keep(spec.dice, spec.min_rethrow, spec.max_rethrow, rng))
        if not exp.options:
            raise AssertionError(f"{state.name}: a decision with no option and no legal reroll")
        return choose_input(exp.player, rng.choice(exp.options).key)
    raise ValueError("the game is over")


def play_random(game: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
                seed: int | None = None, max_inputs: int | None = None) -> tuple[GameState, list[Input]]:
    """Play one whole game at random. Returns the final state and the inputs that made it."""
    rng = random.Random(seed)
    state = new_game(game, players, options)
    limit = max_inputs or state.max_inputs_per_player * len(players)
    inputs: list[Input] = []
    while not isinstance(state.expects(), GameOver):
        if len(inputs) >= limit:
            raise AssertionError(f"{game}: no end after {limit} inputs")
        data = random_input(state, rng)
        state = state.apply(data)
        inputs.append(data)
    return state, inputs
