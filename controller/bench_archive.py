"""Archive benchmark: the table's start, `dicetable check` and a game's end with a full archive.

A benchmark, not a test: after months a café's table keeps `keep_games` (5,000) finished games in
journal_dir/games. This makes such an archive from whole random games of the five kinds, then
prints what it costs: the disk it takes, and the time and peak memory of the table's start (the
real TableApp, with a game to resume), of `dicetable check --no-camera`, each in a process of its
own, with an empty archive and a full one, and of the archiving and pruning at a game's end.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from .rules import GAMES
from .rules.random_play import play_random
from .tablelog import FORMAT, TableLog

PLAYERS = ("Ann", "Bob", "Cid", "Dee")
#: distinct games made; the archive cycles through them under other names (what is measured is
#: the number and size of the files, not their moves)
POOL = 40

# The table's start in a process of its own: the real TableApp (config read, setup menu, the
# journal in the folder resumed), with no camera or buttons; prints seconds and peak MB.
START = """
import sys, time
t0 = time.perf_counter()
from controller.config import load_config
from controller.peak_memory import peak_rss_mb
from controller.table_app import TableApp
from display.screen import Screen
from hardware.fakes import NoDevice
app = TableApp(load_config(sys.argv[1]), Screen((800, 480), headless=True), NoDevice(), NoDevice())
assert app.flow is not None, "the game in the folder was not resumed"
print(time.perf_counter() - t0, peak_rss_mb())
"""

# `dicetable check --no-camera` in a process of its own; prints seconds and peak MB.
CHECK = """
import sys, time
t0 = time.perf_counter()
from controller.cli import main
from controller.peak_memory import peak_rss_mb
code = main(["check", "--no-camera", "--config", sys.argv[1]])
print(time.perf_counter() - t0, peak_rss_mb(), code, file=sys.stderr)
"""


def journal_lines(game: str, seed: int) -> list[str]:
    """A whole game played at random, as the lines of its journal."""
    rng = random.Random(seed)
    kind = GAMES[game]
    players = list(PLAYERS[:rng.randint(max(1, kind.min_players), min(len(PLAYERS), kind.max_players))])
    _state, inputs = play_random(game, players, seed=seed)
    options = TableLog(game, players).with_every_option().options     # (as the table journals them)
    header = {"format": FORMAT, "game": game, "players": players, "options": options}
    return [json.dumps(header)] + [json.dumps(i) for i in inputs]


def make_archive(folder: Path, count: int, seed: int = 1) -> int:
    """`count` finished games in `folder` (games/), named as the table names them, an hour apart;
    the bytes written."""
    folder.mkdir(parents=True, exist_ok=True)
    games = list(GAMES)
    pool = [("\n".join(journal_lines(games[i % len(games)], seed + i)) + "\n", games[i % len(games)])
            for i in range(POOL)]
    start = datetime(2026, 1, 1, 10, 0, 0)
    written = 0
    for i in range(count):
        text, game = pool[i % POOL]
        stamp = (start + timedelta(hours=i)).strftime("%Y%m%d-%H%M%S")
        (folder / f"{i + 1:06d}-{stamp}-{game}.jsonl").write_text(text, encoding="utf-8")
        written += len(text.encode())
    return written


def disk_use(folder: Path) -> tuple[int, int, int]:
    """Files, their bytes, and the bytes the filesystem gives them (whole blocks)."""
    files = sizes = blocks = 0
    with os.scandir(folder) as entries:
        for e in entries:
            st = e.stat()
            files += 1
            sizes += st.st_size
            blocks += st.st_blocks * 512
    return files, sizes, blocks


def _in_process(code: str, config: Path, stderr: bool = False) -> tuple[float, float]:
    """Run `code` in a fresh Python from the project's folder; its seconds and peak MB."""
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    done = subprocess.run([sys.executable, "-c", code, str(config)], cwd=root, env=env,
                          capture_output=True, text=True, check=False)
    out = (done.stderr if stderr else done.stdout).strip().splitlines()
    if not out:
        raise RuntimeError(f"measure failed: {done.stderr[-2000:]}")
    seconds, mb = out[-1].split()[:2]
    return float(seconds), float(mb)


def _current_game(folder: Path) -> None:
    """A game in progress (the first moves of one), for the start to resume."""
    lines = journal_lines("thirteen", 99)
    (folder / "current.jsonl").write_text("\n".join(lines[:12]) + "\n", encoding="utf-8")


def _end_of_game(config_path: Path) -> float:
    """Seconds of the archiving and pruning at a game's end (TableApp.finish_game)."""
    from display.screen import Screen
    from hardware.fakes import NoDevice

    from .config import load_config
    from .table_app import TableApp

    app = TableApp(load_config(config_path), Screen((800, 480), headless=True), NoDevice(), NoDevice())
    t0 = time.perf_counter()
    app.finish_game()
    return time.perf_counter() - t0


def run(count: int = 5000, repeat: int = 3, as_json: bool = False) -> int:
    """Print the archive's figures: as lines, or (`dicetable bench archive --json`, as every other
    benchmark takes) as one JSON object. Before, --json was taken and the lines printed."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    say = (lambda text: None) if as_json else print
    figures: dict = {"count": count, "repeat": repeat}
    with tempfile.TemporaryDirectory(prefix="dicetable-archive-") as tmp:
        root = Path(tmp)
        config = root / "config.toml"
        config.write_text(f'[table]\njournal_dir = "{root}"\nkeep_games = {count}\n', encoding="utf-8")
        _current_game(root)
        rows = []
        for key, label, games in (("empty", "empty archive", 0), ("full", f"{count:,} archived games", count)):
            if games:
                t0 = time.perf_counter()
                make_archive(root / "games", games)
                made = time.perf_counter() - t0
                files, sizes, blocks = disk_use(root / "games")
                figures["archive"] = {"files": files, "journal_bytes": sizes, "disk_bytes": blocks,
                                      "bytes_a_game": sizes / max(files, 1), "made_s": made}
                say(f"archive: {files:,} files, {sizes / 1e6:.1f} MB of journals, {blocks / 1e6:.1f} MB on disk "
                    f"(whole blocks), {sizes / max(files, 1) / 1e3:.1f} KB a game; made in {made:.0f} s")
            starts = [_in_process(START, config) for _ in range(repeat)]
            checks = [_in_process(CHECK, config, stderr=True) for _ in range(repeat)]
            rows.append((label, starts, checks))
            figures[key] = {"start_s": [s for s, _ in starts], "start_peak_mb": max(m for _, m in starts),
                            "check_s": [s for s, _ in checks], "check_peak_mb": max(m for _, m in checks)}
        for label, starts, checks in rows:
            say(f"{label}: table start {min(s for s, _ in starts):.2f}-{max(s for s, _ in starts):.2f} s, "
                f"peak {max(m for _, m in starts):.0f} MB; dicetable check --no-camera "
                f"{min(s for s, _ in checks):.2f}-{max(s for s, _ in checks):.2f} s, "
                f"peak {max(m for _, m in checks):.0f} MB ({repeat} runs each)")
        ends = []
        for _ in range(repeat):
            _current_game(root)
            ends.append(_end_of_game(config))
        files, _, _ = disk_use(root / "games")
        figures["game_end_ms"] = [e * 1000 for e in ends]
        figures["files_kept"] = files
        say(f"a game's end at the limit (archive one, prune the oldest): {min(ends) * 1000:.0f}-"
            f"{max(ends) * 1000:.0f} ms; {files:,} files kept")
    shutil.rmtree(root, ignore_errors=True)
    if as_json:
        print(json.dumps(figures))
    return 0
