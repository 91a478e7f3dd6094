"""Journal benchmark: what a game whose players press HOLD (or BACK twice) without end costs the table.

A benchmark, not a test. Two figures: a journal of N hold toggles as a build before the journal
dropped superseded hold lines wrote it (size, the table's start on it: time and peak memory, and
the journal it leaves), and N HOLD presses through the real table (the journal's largest size,
ms a press, a start after them). Each start runs in a fresh process, so that its peak memory is
its own.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEADER = {"format": "dicetable-log/2", "game": "thirteen", "players": ["Ann"], "options": {}}
DICE = {"type": "dice", "player": 0, "values": [6, 6, 6, 3, 3]}
CYCLE = ([3], [3, 6], [6], [])          # HOLD 1 and HOLD 4 pressed over and over (dice 3 and 6)


def _table(folder: Path):
    """The table started on `folder`'s journal, headless, without camera or buttons."""
    from display.screen import Screen
    from hardware.fakes import NoDevice

    from .config import parse_config
    from .table_app import TableApp

    config = parse_config(f'[table]\njournal_dir = "{folder}"\n')
    return TableApp(config, Screen((800, 480), headless=True), NoDevice(), NoDevice())


def start_once(folder: Path) -> dict:
    """Start the table on `folder` (in this process): ms, peak MB, the journal's size after."""
    from .peak_memory import peak_rss_mb

    t0 = time.perf_counter()
    app = _table(folder)
    ms = (time.perf_counter() - t0) * 1000
    return {"ms": ms, "peak_mb": peak_rss_mb(), "held": app.flow.held_values if app.flow else None,
            "bytes_after": (folder / "current.jsonl").stat().st_size}


def _start_in_a_fresh_process(folder: Path) -> dict:
    out = subprocess.run([sys.executable, "-m", "controller.bench_journal", "--start", str(folder)],
                         capture_output=True, text=True, check=True, env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def old_journal(folder: Path, toggles: int) -> int:
    """A journal of `toggles` hold lines at one decision, as builds before wrote it; its size."""
    holds = [{"hold": CYCLE[i % 4], "player": 0} for i in range(toggles)]
    lines = [HEADER, DICE, *holds, {"hold": [3, 3], "player": 0}]
    path = folder / "current.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path.stat().st_size


def presses(folder: Path, count: int) -> dict:
    """`count` HOLD presses at the table (in this process): the journal's largest size, ms a press."""
    (folder / "current.jsonl").write_text(json.dumps(HEADER) + "\n" + json.dumps(DICE) + "\n", encoding="utf-8")
    app = _table(folder)
    press = type("P", (), {"kind": "press", "name": "HOLD1"})
    largest, t0 = 0, time.perf_counter()
    for i in range(count):
        press.name = "HOLD1" if i % 2 else "HOLD4"
        app.on_button(press())
        largest = max(largest, (folder / "current.jsonl").stat().st_size)
    return {"ms_a_press": (time.perf_counter() - t0) * 1000 / count, "largest_bytes": largest,
            "bytes": (folder / "current.jsonl").stat().st_size}


def take_backs(folder: Path, count: int) -> dict:
    """`count` boxes scored and taken back with BACK twice at the table (in this process), two boxes
    in turn: the journal's largest size, ms a score and its take-back, the lines left after a start."""
    (folder / "current.jsonl").write_text(json.dumps(HEADER) + "\n" + json.dumps(DICE) + "\n", encoding="utf-8")
    app = _table(folder)
    press = type("P", (), {"kind": "press", "name": "OK"})
    boxes = [i for i, e in enumerate(app.flow.menu()) if e.action == "option" and e.key in ("TWOS", "SIXES")]
    largest, t0 = 0, time.perf_counter()
    for i in range(count):
        app.flow.cursor = boxes[i % 2]
        for press.name in ("OK", "BACK", "BACK"):
            app.on_button(press())
        largest = max(largest, (folder / "current.jsonl").stat().st_size)
    ms = (time.perf_counter() - t0) * 1000 / count
    _table(folder)                              # (a restart: the journal written again whole)
    return {"ms_a_take_back": ms, "largest_bytes": largest,
            "lines_after_a_start": len((folder / "current.jsonl").read_bytes().splitlines())}


def run(count: int = 100_000, as_json: bool = False) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        base, old, pressed, backs = Path(tmp, "none"), Path(tmp, "old"), Path(tmp, "pressed"), Path(tmp, "backs")
        for folder in (base, old, pressed, backs):
            folder.mkdir()
        old_journal(base, 0)
        baseline = _start_in_a_fresh_process(base)
        size = old_journal(old, count)
        first = _start_in_a_fresh_process(old)
        second = _start_in_a_fresh_process(old)
        at_table = presses(pressed, min(count, 5_000))
        after = _start_in_a_fresh_process(pressed)
        taken_back = take_backs(backs, min(count, 2_000))
    figures = {"take_backs": min(count, 2_000), "taken_back": taken_back,
               "toggles": count, "old_journal_bytes": size, "start_without_holds": baseline,
               "start_on_old_journal": first, "start_after_it": second,
               "presses": min(count, 5_000), "at_table": at_table, "start_after_presses": after}
    if as_json:
        print(json.dumps(figures, indent=1))
        return 0
    print(f"a start with no hold line: {baseline['ms']:.0f} ms, peak {baseline['peak_mb']:.0f} MB")
    print(f"a journal of {count:,} hold toggles written by an older build: {size:,} bytes; the start on it "
          f"{first['ms']:.0f} ms, peak {first['peak_mb']:.0f} MB; it leaves a journal of {first['bytes_after']:,} "
          f"bytes, and the next start takes {second['ms']:.0f} ms, peak {second['peak_mb']:.0f} MB")
    print(f"{figures['presses']:,} HOLD presses at the table: {at_table['ms_a_press']:.2f} ms a press, the journal "
          f"{at_table['largest_bytes']:,} bytes at most ({at_table['bytes']:,} after the last); a start after them "
          f"{after['ms']:.0f} ms, peak {after['peak_mb']:.0f} MB")
    print(f"{figures['take_backs']:,} boxes scored and taken back with BACK twice: {taken_back['ms_a_take_back']:.2f} "
          f"ms each, the journal {taken_back['largest_bytes']:,} bytes at most, {taken_back['lines_after_a_start']} "
          "lines after a start")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--start"]:
        print(json.dumps(start_once(Path(sys.argv[2]))))
    else:
        sys.exit(run(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000))
