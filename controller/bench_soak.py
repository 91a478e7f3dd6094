"""Soak benchmark: demo games back to back in one process, as a café's table plays them for days.

A benchmark, not a test: it prints the resident memory after each game, so that growth (a cache
without a bound, frames kept alive by a reference) shows before a kiosk runs out of memory, and
the open files, threads and the text kept for the screen. The games are the demo's (synthetic
camera, the real settle tracker, reader, table flow, rules and a headless 1280x720 screen), each
frame drawn and each game journaled as at the table (before, neither was: the screen's text,
80 MB a day, was not measured); the first few grow while caches fill, then it should stay flat.
"""
from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Sequence

from .peak_memory import resident_mb

ROTATION = ("thirteen", "classic", "objective-cards", "poknroll", "school")


def soak(games: Sequence[str]) -> list[dict]:
    """Play `games` in turn on one headless screen; a row per game with the memory after it."""
    import cv2

    from display.screen import Screen

    from .table_cli import demo_players, play_demo_game

    from display.draw import _TEXT_CACHE

    cv2.setNumThreads(1)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    screen = Screen((1280, 720), headless=True)
    rows = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for i, game in enumerate(games):
            report = play_demo_game(game, demo_players(game, None), screen, seed=i, shots=None, realtime=False,
                                    draw=True, journal_dir=Path(folder))
            rows.append({"game": game, "throws": report.throws, "rss_mb": resident_mb(),
                         "open_files": open_files(), "threads": threading.active_count(),
                         "text_mb": _TEXT_CACHE.bytes / 1e6, "seconds": time.perf_counter() - t0})
    screen.close()
    return rows


def open_files() -> int:
    """This process's open file descriptors (-1 where /proc is absent)."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return -1


def run(count: int = 10, as_json: bool = False, games: Sequence[str] | None = None) -> int:
    games = list(games) if games else [ROTATION[i % len(ROTATION)] for i in range(count)]
    rows = soak(games)
    rss = [r["rss_mb"] for r in rows]
    summary = {"games": len(rows), "rss_after_first_mb": rss[0], "rss_max_mb": max(rss),
               "rss_last_mb": rss[-1], "growth_after_half_mb": rss[-1] - rss[len(rss) // 2]}
    if as_json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=1))
        return 0
    print("| # | game | throws | resident MB after it | open files | threads | screen text MB | s since the start |")
    print("|---|---|---|---|---|---|---|---|")
    for i, r in enumerate(rows, 1):
        print(f"| {i} | {r['game']} | {r['throws']} | {r['rss_mb']:.1f} | {r['open_files']} | {r['threads']} | "
              f"{r['text_mb']:.1f} | {r['seconds']:.0f} |")
    print(f"\n{summary['games']} games in one process: {summary['rss_after_first_mb']:.0f} MB after the first, "
          f"{summary['rss_max_mb']:.0f} MB at most, {summary['rss_last_mb']:.0f} MB after the last "
          f"({summary['growth_after_half_mb']:+.1f} MB over the second half)")
    return 0
