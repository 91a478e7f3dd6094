"""Two rules the specs state for every game at once (shared/rules/README.md §2), as properties.

- §2.1: "A roll result is a multiset of faces. Order is irrelevant to every rule in every game."
  A game played with every throw's dice (and every keep) typed in another order offers the same
  choices at the same points and ends with the same scores and ranking.
- §2.2: in the three games where a roll "qualifies" for a box (Objective cards, School, Thirteen)
  the rule is "at least": five of a kind meets every box that four of that face and another die
  meet, but those that depend on the fifth die (straights, no evens / no odds). Thirteen took
  its 2 pairs under `two_pairs_accepts_four_of_a_kind` from (4,1) only: 6 6 6 6 6 scored 0 there
  where 6 6 6 6 2 scored 20.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import Decide, GameOver
from controller.rules.base import find_game, new_game
from controller.rules.objective_cards import satisfied
from controller.rules.random_play import random_input
from controller.rules.school import figure_scores
from controller.rules.thirteen import KEYS as TH_KEYS, th_natural_fits

GAMES = ("thirteen", "school", "poknroll", "classic", "objective-cards")
PROPS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def house_rules(game: str, rng: random.Random) -> dict:
    """Some of the game's enumerated and true/false rules at random values (the others default)."""
    out = {}
    for spec in find_game(game).OPTIONS:
        if spec.name == "first_player" or rng.random() < 0.5:
            continue
        if spec.choices is not None:
            out[spec.name] = rng.choice(spec.choices)
        elif isinstance(spec.default, bool):
            out[spec.name] = rng.random() < 0.5
    return out


def menu(state) -> object:
    """What the players are offered now: the options and their points, or the dice asked for."""
    exp = state.expects()
    if isinstance(exp, Decide):
        return ("decide", exp.player, tuple((o.key, o.points) for o in exp.options),
                None if exp.reroll is None else sorted(exp.reroll.dice))
    if isinstance(exp, GameOver):
        return ("over",)
    return ("throw", exp.player, exp.count, sorted(exp.held))


@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
@PROPS
def test_the_order_of_the_dice_changes_nothing(game, seed):
    rng = random.Random(seed)
    cls = find_game(game)
    options = house_rules(game, rng)
    n = 2 if options.get("two_player_strategic_variant") else rng.randint(cls.min_players, min(cls.max_players, 5))
    players = [f"P{i}" for i in range(n)]
    played, shuffled = new_game(game, players, options), new_game(game, players, options)
    while not isinstance(played.expects(), GameOver):
        assert menu(shuffled) == menu(played)
        data = random_input(played, rng)
        other = dict(data)
        for key in ("values", "keep"):
            if key in other:
                other[key] = rng.sample(list(other[key]), len(other[key]))
        played, shuffled = played.apply(data), shuffled.apply(other)
    assert isinstance(shuffled.expects(), GameOver)
    a, b = played.result(), shuffled.result()
    assert (a.scores, a.ranking, a.winners) == (b.scores, b.ranking, b.winners)
    assert played.sheet().totals == shuffled.sheet().totals


def _thirteen_met(dice: tuple[int, ...], opts: dict) -> set[str]:
    return {TH_KEYS[c] for c, ok in th_natural_fits(tuple(sorted(dice)), opts).items() if ok}


def _school_met(dice: tuple[int, ...], opts: dict) -> set[str]:
    return set(figure_scores(dice, opts["two_pairs_same_face_allowed"], opts["full_house_accepts_poker"]))


FIFTH_DIE_BOXES = {"STRAIGHTS", "SMALL_STRAIGHT", "LARGE_STRAIGHT", "LONG_STRAIGHT", "NO_EVENS", "NO_ODDS",
                   "CHANCE"}


@given(face=st.integers(1, 6), other=st.integers(1, 6), a=st.booleans(), b=st.booleans())
@settings(max_examples=200, deadline=None)
def test_five_of_a_kind_meets_what_four_of_its_face_meet(face, other, a, b):
    if other == face:
        other = face % 6 + 1
    four, five = (face,) * 4 + (other,), (face,) * 5
    games = (
        (lambda d: satisfied(d, {"two_pairs_same_face_allowed": a, "full_house_accepts_five_of_a_kind": b})),
        (lambda d: _school_met(d, {"two_pairs_same_face_allowed": a, "full_house_accepts_poker": b})),
        (lambda d: _thirteen_met(d, {"two_pairs_accepts_four_of_a_kind": a, "two_pairs_accepts_full_house": b})),
    )
    for met in games:
        assert met(four) - met(five) - FIFTH_DIE_BOXES == set(), (four, a, b)
