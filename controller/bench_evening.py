"""Evening benchmark: a café's evening at the real table app, on a simulated clock.

`dicetable bench soak` plays demo games through the flow alone; a café's table is the whole app:
the setup menu between groups, games put away by *Still playing?* and taken up again, power cuts
(the app started again on its games folder), HINT on the menu and during games, corrections with a
long OK, dice read in a lamp's glare, names in other scripts, the log at INFO and every game
archived. This drives `TableApp` through all of that, game after game, its clocks simulated (a
game takes seconds, not half an hour), and prints after each game what could grow without bound:
resident memory, open files, Python objects alive, the games folder (files, bytes), the log's
bytes, and the work a screen pass does (median ms, and the Python function calls a pass makes:
unlike the ms, these do not depend on the machine's load). A benchmark, not a test.
"""
from __future__ import annotations

import gc
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .peak_memory import resident_mb

ROTATION = ("thirteen", "classic", "objective-cards", "poknroll", "school")
#: each group's names: accents, Cyrillic, Hebrew and Arabic, Greek and Chinese, Japanese
GROUPS = (("Ann", "Bob"), ("Zoë", "Łukasz", "Ярослава"), ("José-María", "שרה", "محمد"),
          ("Søren", "Ελένη", "李雷"), ("Amit", "さくら", "Noor"))
STEP_S = 0.05               # a pass of the table's loop (20 a second)
PAUSE_S = 120.0             # between two groups, at the menu


@dataclass
class Press:
    """A button event as the button sources make them."""

    name: str
    kind: str = "press"


class Clocks:
    """The monotonic clock and the wall clock of the evening, moved together."""

    def __init__(self) -> None:
        self.t = 0.0
        self.wall = 1_790_000_000.0     # (a clock the network set)

    def __call__(self) -> float:
        return self.t

    def now(self) -> float:
        return self.wall

    def synced(self) -> bool:
        return True

    def advance(self, seconds: float) -> None:
        self.t += seconds
        self.wall += seconds


class NoCamera:
    """A camera that sends nothing: the evening feeds the flow the readings itself."""

    error = None

    def read(self) -> None:
        return None

    def close(self) -> None:
        pass


class NoButtons:
    """A button source with nothing of its own: the evening presses through the app."""

    status = type("Status", (), {"connected": True, "message": "", "warning": ""})()

    def feed(self, event: Any) -> bool:
        return False

    def poll(self) -> list:
        return []

    def stop(self) -> None:
        pass


class LogBytes(logging.Handler):
    """The bytes the table's log would write at INFO (one line each, as journald keeps them)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.bytes = 0
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.bytes += len(self.format(record).encode()) + 1


class CallCount:
    """Python function calls made while it is on (sys.setprofile): the work, whatever the load."""

    def __init__(self) -> None:
        self.calls = 0

    def _count(self, frame: Any, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            self.calls += 1

    def __enter__(self) -> "CallCount":
        sys.setprofile(self._count)
        return self

    def __exit__(self, *exc: Any) -> None:
        sys.setprofile(None)


class Evening:
    """The table app on one games folder and one screen, and the groups that play at it."""

    def __init__(self, folder: Path, size: tuple[int, int] = (800, 480)) -> None:
        from controller.config import parse_config
        from display.screen import Screen

        self.folder = folder
        self.config = parse_config(f'[table]\njournal_dir = "{folder}"\nidle_minutes = 30\n')
        self.clock = Clocks()
        self.screen = Screen(size, headless=True)
        self.throws = 0
        self.app = self.power_on()

    def power_on(self) -> Any:
        """The table started (again, after a power cut): what it knows is on its card."""
        from controller.table_app import TableApp

        self.app = TableApp(self.config, self.screen, NoCamera(), NoButtons(), clock=self.clock,
                            wall=self.clock, rng=random.Random(1))   # type: ignore[arg-type]
        return self.app

    def press(self, name: str, kind: str = "press") -> None:
        self.app.on_button(Press(name, kind))
        self.clock.advance(0.4)

    def step(self, times: list[float] | None = None) -> None:
        t0 = time.perf_counter()
        self.app.step()
        if times is not None:
            times.append(time.perf_counter() - t0)
        self.clock.advance(STEP_S)

    def reading(self, values: list[int], glare: bool) -> Any:
        """Dice thrown anew (elsewhere in the tray each throw), one in a lamp's glare if `glare`."""
        from vision.types import Die, Reading

        self.throws += 1
        y, x = 30 + 55 * (self.throws % 7), 20 + 17 * (self.throws % 3)
        dice = [Die(v, (x + 60 * i, y, x + 60 * i + 48, y + 48), (x + 60 * i + 24, y + 24), 0.95)
                for i, v in enumerate(values)]
        if glare and dice:
            d = dice[-1]
            dice[-1] = Die(d.value, d.box, d.centre, 0.9, ("glare",))
        return Reading(tuple(dice), (), size=(640, 480))

    def play(self, index: int, rng: random.Random) -> dict[str, Any]:
        """One group's game: chosen (or taken up, or played again), played to its end, left alone,
        or cut by the power; then the menu for a while. What it measured."""
        from controller.demo import DemoDirector
        from controller.rules import Throw
        from controller.setup_menu import SetupResult
        from controller.table import CONFIRM, CORRECT, DECIDE, OVER, WAIT_DICE

        app = self.app
        game, players = ROTATION[index % len(ROTATION)], list(GROUPS[index % len(GROUPS)])
        if game == "poknroll" and len(players) < 3:
            players.append("Cy")
        if game == "school":
            players = players[:1]
        self.press("HINT")                       # the menu's how-to-play card, turned and closed
        self.press("HINT")
        self.press("UP")
        taken = False
        if app.menu.kept and index % 3 == 0:     # a put-away game taken up from the menu
            app.menu.take_up = app.menu.kept[0]
            app.take_up()
            taken = app.flow is not None
        if app.flow is None:
            app.menu.done = SetupResult(game, tuple(players), {})
            app.start_new()
        director = DemoDirector(app.flow, random.Random(index), brisk=True)
        leave = index % 7 == 3                   # the group goes to the bar: put away
        cut = index % 11 == 5                    # the power goes mid-game
        times: list[float] = []
        counted, sampled = CallCount(), 0
        if True:
            passes = 0
            while self.app.flow is not None and self.app.flow.phase != OVER and passes < 40_000:
                passes += 1
                flow = self.app.flow
                director.flow = flow
                if leave and len(flow.log.inputs) > 3:
                    self.clock.advance(31 * 60 + 130)
                    self.step(times)
                    break
                if cut and len(flow.log.inputs) == 4:
                    cut = False
                    self.power_on()
                    continue
                if flow.phase == WAIT_DICE and isinstance(flow.expect, Throw):
                    exp = flow.expect
                    flow.on_reading(self.reading(list(exp.held) + director.bot.throw(exp), rng.random() < 0.1))
                    self.app.idle.touch()
                elif flow.phase == CONFIRM:
                    if rng.random() < 0.05:
                        self.press("HINT")
                        self.press("HINT")
                    if rng.random() < 0.05:         # a die corrected: long OK, UP, long OK
                        self.press("OK", "hold")
                        self.press("UP")
                        self.press("OK", "hold")
                    else:
                        self.press("OK")
                elif flow.phase == CORRECT:      # (a held die set to another value: refused)
                    self.press("BACK")
                elif flow.phase == DECIDE:
                    for press in director.presses():
                        self.app.on_button(press)
                        self.clock.advance(0.3)
                if passes % 10 == 1:           # (the profile hook slows the pass it counts: not timed)
                    sampled += 1
                    with counted:
                        self.step()
                else:
                    self.step(times)
            calls = counted.calls
        over = self.app.flow is not None and self.app.flow.phase == OVER
        if over:
            self.clock.advance(10)
            self.press("OK")
        for _ in range(int(PAUSE_S)):            # the menu between two groups, a pass a second
            self.clock.advance(1.0 - STEP_S)
            self.step()
        return {"how": "taken up" if taken else "put away" if leave else "played",
                "passes": passes, "step_ms": statistics.median(times) * 1000 if times else 0.0,
                "calls_per_pass": calls / max(1, sampled),
                "game": self.app.menu.last.game if taken and self.app.menu.last else game}


def folder_size(folder: Path) -> tuple[int, int]:
    """Files and bytes under `folder`."""
    files = [p for p in folder.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def open_files() -> int:
    """This process's open file descriptors (-1 where /proc is absent)."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return -1


def evening(count: int, seed: int = 7) -> list[dict[str, Any]]:
    """`count` groups' games at one table app; a row per game with what it left behind."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from display.draw import _TEXT_CACHE

    log_bytes = LogBytes()
    root = logging.getLogger()
    level = root.level
    root.addHandler(log_bytes)
    root.setLevel(logging.INFO)
    quiet = [(h, h.level) for h in root.handlers if h is not log_bytes]   # (the bench's table on the terminal)
    for handler, _ in quiet:
        handler.setLevel(logging.WARNING)
    rng = random.Random(seed)
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="dicetable-evening-") as tmp:
            table = Evening(Path(tmp))
            for i in range(count):
                row = table.play(i, rng)
                gc.collect()
                files, size = folder_size(Path(tmp))
                row.update(rss_mb=resident_mb(), open_files=open_files(), objects=len(gc.get_objects()),
                           folder_files=files, folder_kb=size / 1024, log_kb=log_bytes.bytes / 1024,
                           text_mb=_TEXT_CACHE.bytes / 1e6, hours=table.clock.t / 3600)
                rows.append(row)
            table.screen.close()
    finally:
        root.removeHandler(log_bytes)
        root.setLevel(level)
        for handler, was in quiet:
            handler.setLevel(was)
    return rows


def run(count: int = 100, as_json: bool = False) -> int:
    rows = evening(count)
    half = rows[len(rows) // 2]
    last = rows[-1]
    summary = {"games": len(rows), "hours": last["hours"], "rss_after_first_mb": rows[0]["rss_mb"],
               "rss_max_mb": max(r["rss_mb"] for r in rows),
               "rss_growth_second_half_mb": last["rss_mb"] - half["rss_mb"],
               "objects_growth_second_half": last["objects"] - half["objects"],
               "open_files_first_last": (rows[0]["open_files"], last["open_files"]),
               "log_kb_an_hour": last["log_kb"] / max(last["hours"], 1e-9),
               "folder_kb_a_game": last["folder_kb"] / len(rows)}
    if as_json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=1))
        return 0
    print("| # | game | how | passes | ms a pass (median) | calls a pass | resident MB | open files | objects | "
          "games folder files / KB | log KB | screen text MB | hours |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for i, r in enumerate(rows, 1):
        print(f"| {i} | {r['game']} | {r['how']} | {r['passes']} | {r['step_ms']:.2f} | {r['calls_per_pass']:.0f} | "
              f"{r['rss_mb']:.1f} | {r['open_files']} | {r['objects']} | {r['folder_files']} / {r['folder_kb']:.0f} | "
              f"{r['log_kb']:.1f} | {r['text_mb']:.1f} | {r['hours']:.1f} |")
    print(f"\n{summary['games']} games in {summary['hours']:.1f} simulated hours: resident "
          f"{summary['rss_after_first_mb']:.0f} MB after the first, {summary['rss_max_mb']:.0f} MB at most "
          f"({summary['rss_growth_second_half_mb']:+.1f} MB, {summary['objects_growth_second_half']:+d} objects over "
          f"the second half); open files {rows[0]['open_files']} -> {last['open_files']}; "
          f"log {summary['log_kb_an_hour']:.1f} KB an hour; games folder {summary['folder_kb_a_game']:.1f} KB a game")
    return 0
