"""The HINT cards at their longest, shared by the screen, flow and setup-menu tests."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterator

from controller.rules import GAMES, GameState
from controller.rules.base import OptionSpec


def _values(spec: OptionSpec) -> Iterator[Any]:
    """The values of a house rule that can change the card's length: every choice, yes and no,
    and for a number 1 (a singular), 99 (two digits) and its largest."""
    if spec.choices is not None:
        yield from spec.choices
    elif isinstance(spec.default, bool):
        yield from (False, True)
    elif isinstance(spec.default, int):
        for value in (1, 99, spec.maximum):
            if value is not None and (spec.minimum is None or value >= spec.minimum) and \
                    (spec.maximum is None or value <= spec.maximum):
                yield value


def longest_rules(game: str) -> dict[str, Any]:
    """The house rules that make `game`'s card longest, all set at once (several rules changed
    together made Pok'n Roll's card a line longer than its panel at 800x480, where each alone
    fit): from every single rule's every value, each rule in turn set to the value that
    lengthens the card most until none does; the longest of those (started from the standard
    rules alone, Classic stayed in the base game, whose card is shorter than the betting one's)."""
    return dict(_longest_rules(game))


@lru_cache(maxsize=None)
def _longest_rules(game: str) -> tuple[tuple[str, Any], ...]:
    """`longest_rules`, worked out once a game (the tests ask for it often)."""
    cls = GAMES[game]
    standard = {spec.name: spec.default for spec in cls.OPTIONS}
    starts = [standard] + [{**standard, spec.name: v} for spec in cls.OPTIONS for v in _values(spec)]
    chosen = max((_lengthened(cls, start) for start in starts), key=lambda o: _length(cls, o))
    return tuple((spec.name, chosen[spec.name]) for spec in cls.OPTIONS if chosen[spec.name] != spec.default)


def _length(cls: type[GameState], options: dict[str, Any]) -> int:
    return sum(len(p) for p in cls.rules_card(options))


def _lengthened(cls: type[GameState], options: dict[str, Any]) -> dict[str, Any]:
    """`options` with each rule in turn set to the value that lengthens the card most, until none does."""
    chosen = dict(options)
    longer = True
    while longer:
        longer = False
        for spec in cls.OPTIONS:
            best = max(_values(spec), key=lambda v: _length(cls, {**chosen, spec.name: v}), default=chosen[spec.name])
            if _length(cls, {**chosen, spec.name: best}) > _length(cls, chosen):
                chosen[spec.name] = best
                longer = True
    return chosen
