"""Dice helpers shared by the games. Only what means the same in every game lives here.

Straights, "two pairs" and friends mean different things in different games (see the specs'
README, section 2.2), so their predicates live in each game's module, never here.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

FACES = (1, 2, 3, 4, 5, 6)


def counts(dice: Iterable[int]) -> Counter[int]:
    """face -> how many dice show it."""
    return Counter(dice)


def signature(dice: Iterable[int]) -> tuple[int, ...]:
    """Face counts sorted high to low: [4,4,4,2,2] -> (3, 2)."""
    return tuple(sorted(Counter(dice).values(), reverse=True))


def faces(dice: Iterable[int]) -> frozenset[int]:
    return frozenset(dice)


def max_count(dice: Iterable[int]) -> int:
    c = Counter(dice)
    return max(c.values()) if c else 0


def faces_with_at_least(dice: Iterable[int], n: int) -> list[int]:
    """Faces appearing at least n times, highest face first."""
    return sorted((f for f, k in Counter(dice).items() if k >= n), reverse=True)


def total(dice: Sequence[int]) -> int:
    return sum(dice)
