"""The text demo: one complete game of each game, simulated dice, automatic players.

It goes through the same rules engines and the same table log as the real table; only the dice
and the players are simulated. `dicetable demo --text` runs it.
"""
from __future__ import annotations

import random
from typing import TextIO

from .autoplay import AutoPlayer
from .rules import GAMES, OptionError, new_game
from .tablelog import TableLog, replay

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def demo_names(n: int) -> list[str]:
    """n distinct player names (classic takes up to 8 players)."""
    return NAMES[:n] + [f"Player {i}" for i in range(len(NAMES) + 1, n + 1)]


def play_auto(game: str, players: list[str], seed: int, options: dict | None = None) -> tuple:
    rng = random.Random(seed)
    bot = AutoPlayer(rng)
    state = new_game(game, players, options)
    log = TableLog(game, players, dict(options or {})).with_every_option()
    while not state.is_over:
        data = bot.next_input(state)
        state = state.apply(data)
        log.inputs.append(data)
    return state, log


def check_player_count(games: list[str], players: int | None, *, one_game: bool = True) -> None:
    """A count asked for is played as asked or refused, as `dicetable play` refuses it: the demo
    once played 3 players for `--players 0` and 6 for 99. OptionError with the game's range."""
    if players is None:
        return
    classes = [GAMES[game] for game in games]
    if not one_game and not any(cls.min_players <= players <= cls.max_players for cls in classes):
        raise OptionError(f"the games take {min(c.min_players for c in classes)} to "
                          f"{max(c.max_players for c in classes)} players, not {players}")
    for game in games:
        cls = GAMES[game]
        if not cls.min_players <= players <= cls.max_players:
            hint = "" if one_game else " (name one game with --game)"
            raise OptionError(f"{cls.title} takes {cls.min_players} to {cls.max_players} players, "
                              f"not {players}{hint}")


def run_text_demo(out: TextIO, games: list[str] | None = None, players: int | None = None, seed: int = 1) -> int:
    games = games or sorted(GAMES)
    check_player_count(games, players)
    for game in games:
        cls = GAMES[game]
        n = min(max(cls.min_players, 3), cls.max_players) if players is None else players
        state, log = play_auto(game, demo_names(n), seed)
        assert replay(log).snapshot() == state.snapshot(), "a replayed log must rebuild the game"
        print(f"\n{'=' * 72}\n{cls.title}: {n} players, {len(log.inputs)} inputs\n{'=' * 72}", file=out)
        print(state.sheet().to_text(), file=out)
        print("", file=out)
        print(state.result().to_text(), file=out)
    return 0
