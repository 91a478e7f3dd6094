"""Automatic players for the demo and soak runs: simple, plausible, game-agnostic.

They only read `expects()`: take the best-scoring option when the dice are good enough, else
keep the most common face and throw the rest. Good enough to make a demo game look like people
playing; a real hint engine would do expectimax over the same interface.
"""
from __future__ import annotations

import random
from collections import Counter

from .rules import Decide, GameState, Throw
from .rules.base import Input, choose_input, dice_input, reroll_input


class AutoPlayer:
    """Plays any game. `rng` makes it reproducible; dice are thrown with the same rng."""

    def __init__(self, rng: random.Random, greed: float = 0.6):
        self.rng = rng
        self.greed = greed  # fraction of the best possible points at which it stops throwing

    def throw(self, expect: Throw) -> list[int]:
        return [self.rng.randint(1, 6) for _ in range(expect.count)]

    def decide(self, state: GameState, expect: Decide) -> Input:
        scored = [o for o in expect.options if o.points is not None]
        spec = expect.reroll
        if spec is not None and spec.min_rethrow <= len(spec.dice):
            best = max((o.points for o in scored), default=0)
            ceiling = max(30, len(spec.dice) * 6)
            if not scored or best < self.greed * ceiling:
                keep = self.keep_most_common(spec.dice)
                rethrow = len(spec.dice) - len(keep)
                if spec.min_rethrow <= rethrow <= spec.max_rethrow:
                    return reroll_input(expect.player, keep)
        if scored:
            top = max(o.points for o in scored)
            # prefer a real score over a cross/zero when one exists
            best_opts = [o for o in scored if o.points == top]
            return choose_input(expect.player, self.rng.choice(best_opts).key)
        if expect.options:
            preferred = [o for o in expect.options if o.key in ("CONTINUE", "CALL", "CHECK", "STOP")]
            pool = preferred if preferred and self.rng.random() < 0.7 else list(expect.options)
            return choose_input(expect.player, self.rng.choice(pool).key)
        assert spec is not None
        return reroll_input(expect.player, self.keep_most_common(spec.dice)[: len(spec.dice) - spec.min_rethrow])

    @staticmethod
    def keep_most_common(dice: tuple[int, ...]) -> list[int]:
        if not dice:
            return []
        face, n = max(Counter(dice).items(), key=lambda kv: (kv[1], kv[0]))
        return [face] * n if n >= 2 else []

    def next_input(self, state: GameState) -> Input:
        exp = state.expects()
        if isinstance(exp, Throw):
            return dice_input(exp.player, self.throw(exp))
        if isinstance(exp, Decide):
            return self.decide(state, exp)
        raise ValueError("the game is over")
