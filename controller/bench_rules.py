"""Rules benchmark: median apply() time and random complete games per second, per game.

A benchmark, not a test: it prints figures for the README and never fails on a slow machine.
"""
from __future__ import annotations

import json
import random
import statistics
import time

from .rules import GAMES, new_game
from .rules.random_play import play_random, random_input

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def bench_game(game: str, players: int, seconds: float) -> dict:
    names = PLAYERS[:players]
    # games per second, the driver included (that is what a soak run pays)
    games, start, seed = 0, time.perf_counter(), 0
    inputs = 0
    while time.perf_counter() - start < seconds:
        _, played = play_random(game, names, seed=seed)
        inputs += len(played)
        games += 1
        seed += 1
    elapsed = time.perf_counter() - start
    # apply() alone: time each call of one more batch of games
    rng = random.Random(99)
    times: list[float] = []
    for _ in range(max(3, min(50, games // 4))):
        state = new_game(game, names)
        while not state.is_over:
            data = random_input(state, rng)
            t0 = time.perf_counter_ns()
            state = state.apply(data)
            times.append(time.perf_counter_ns() - t0)
    return {
        "game": game, "players": players, "games_per_s": games / elapsed,
        "inputs_per_game": inputs / max(games, 1),
        "apply_median_us": statistics.median(times) / 1000 if times else float("nan"),
        "apply_p99_us": sorted(times)[int(len(times) * 0.99)] / 1000 if times else float("nan"),
    }


def run(seconds: float = 2.0, as_json: bool = False, games: list[str] | None = None) -> int:
    rows = []
    for game in games or sorted(GAMES):
        cls = GAMES[game]
        n = 4 if cls.min_players <= 4 <= cls.max_players else cls.min_players
        rows.append(bench_game(game, n, seconds))
    if as_json:
        print(json.dumps(rows, indent=1))
        return 0
    print("| game | players | random games/s | inputs/game | apply() median µs | apply() p99 µs |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['game']} | {r['players']} | {r['games_per_s']:.0f} | {r['inputs_per_game']:.0f} | "
              f"{r['apply_median_us']:.1f} | {r['apply_p99_us']:.1f} |")
    return 0
