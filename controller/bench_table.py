"""Table benchmark: screen render time, throw-to-sheet latency, demo peak memory.

A benchmark, not a test: it prints figures for the README and never fails on a slow machine.
  * render: median ms to draw the busiest screen of each game (max players, late in the game,
    tray image with dice outlined, a decision menu) at 1920x1080 and 800x480: the whole screen
    (when anything but the camera image changed) and a camera frame (only the tray redrawn, the
    common case: see `Screen.show`);
  * latency: a throw animation goes through the settle tracker, the reader and the table flow;
    from the first frame on which the dice are at rest until the sheet is redrawn with the
    throw applied, both the processing time (what this machine spends) and the camera time
    (the still frames the tracker waits for by design, at 10 and 30 fps);
  * camera frames: median ms of the settle tracker's update on a 640x480 frame (it sees every
    frame the camera sends), and of rendering one synthetic 640x480 tray (the demo's camera);
  * memory: peak resident memory of `dicetable demo --game thirteen --headless` (a subprocess);
  * a webcam that hangs: the table's loop run in real time on a webcam test double streaming at
    30 fps that hangs for a few seconds (as a webcam that stops streaming does, V4L2 waiting up
    to 10 s): the longest the screen and the buttons stood still, with the camera read on the loop
    (before) and on its own thread (now), and the frames per second taken and how old they were.
"""
from __future__ import annotations

import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import cv2

from display.screen import Screen

from .autoplay import AutoPlayer
from .rules import GAMES, new_game
from .runner import TableRunner, VirtualClock
from .table import DECIDE, TableFlow
from .tablelog import TableLog

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def late_game(game: str, fraction: float = 0.8, seed: int = 5, most: int = 6) -> tuple:
    """A game with the most players (up to `most`), played automatically to `fraction` of its
    inputs and then on to the next decision (the busiest screen: a full sheet plus previews)."""
    cls = GAMES[game]
    return played_to(game, NAMES[: min(cls.max_players, most)], fraction, seed)


def played_to(game: str, players: list[str], fraction: float, seed: int = 5) -> tuple:
    """(a table, the inputs left): `game` played by automatic players to `fraction` of the
    inputs of a whole game of theirs (seeded: the same game each time)."""
    bot = AutoPlayer(random.Random(seed))
    state = new_game(game, players)
    inputs = []
    while not state.is_over:
        data = bot.next_input(state)
        state = state.apply(data)
        inputs.append(data)
    target = int(len(inputs) * fraction)
    state = new_game(game, players)
    for data in inputs[:target]:
        state = state.apply(data)
    flow = TableFlow(state, TableLog(game, list(players)), clock=VirtualClock())
    return flow, inputs[target:]


def bench_render(size: tuple[int, int], repeats: int = 30) -> list[dict]:
    from vision.synthetic import TrayStyle, render_tray

    from display.render import render

    screen = Screen(size, headless=True)
    image = render_tray([3, 3, 5, 1, 6], seed=2, style=TrayStyle(border_px=28, die_px=50.0)).image
    rows = []
    for game in sorted(GAMES):
        flow, rest = late_game(game)
        while flow.phase != DECIDE and rest:  # walk on to a decision with previews
            flow.state = flow.state.apply(rest.pop(0))
            flow._enter_phase()
        from vision.types import Die, Reading

        flow.last_reading = Reading(tuple(Die(v, (60 + 90 * i, 200, 110 + 90 * i, 250), (85 + 90 * i, 225), 0.9)
                                          for i, v in enumerate([3, 3, 5, 1, 6])))
        whole, frame = [], []
        for k in range(repeats):
            view = flow.view(image)
            t0 = time.perf_counter()
            render(screen.surface, view)
            whole.append((time.perf_counter() - t0) * 1000)
            camera = image.copy()                # a new camera frame, the rest of the screen as it was
            t0 = time.perf_counter()
            screen.show(flow.view(camera))
            frame.append((time.perf_counter() - t0) * 1000)
        rows.append({"game": game, "size": f"{size[0]}x{size[1]}", "players": len(flow.state.players),
                     "median_ms": statistics.median(whole), "max_ms": max(whole),
                     "frame_median_ms": statistics.median(frame[1:]), "frame_max_ms": max(frame[1:])})
    screen.close()
    return rows


def bench_latency(throws: int = 12) -> dict:
    """First still frame -> updated sheet, through the real tracker, reader, flow and screen."""
    from vision import reader
    from vision.settle import SettleConfig, SettleTracker
    from vision.synthetic import ThrowAnimation, TrayStyle

    cv2.setNumThreads(1)
    screen = Screen((1920, 1080), headless=True)
    style = TrayStyle(border_px=28, die_px=50.0)
    reader.read(render_first := ThrowAnimation([1], seed=1, style=style, still_frames=1).final.image)  # warm-up
    del render_first
    process_ms, frames_waited = [], []
    config = SettleConfig()
    for k in range(throws):
        clock = VirtualClock()
        state = new_game("thirteen", ["Ann"])
        flow = TableFlow(state, TableLog("thirteen", ["Ann"]), clock=clock, confirm_seconds=0.0)
        runner = TableRunner(flow, SettleTracker(config), reader.read, screen)
        anim = ThrowAnimation([1 + k % 6, 2, 3, 4, 5], seed=100 + k, style=style, still_frames=12)
        frames = list(anim.frames_with_phase())
        spent, waited, started = 0.0, 0, False
        for i, (phase, image) in enumerate(frames):
            if phase == "still":
                started = True
            t0 = time.perf_counter()
            runner.feed_frame(image, i * 0.1)
            flow.tick()
            applied = bool(flow.log.inputs)
            if applied:
                runner.draw()
            if started:
                spent += time.perf_counter() - t0
                waited += 1
            if applied:
                break
        if flow.log.inputs:
            process_ms.append(spent * 1000)
            frames_waited.append(waited)
    screen.close()
    waited = statistics.median(frames_waited) if frames_waited else float("nan")
    processing = statistics.median(process_ms) if process_ms else float("nan")
    # at 30 fps the tracker waits as many frames, or `still_seconds` if that is longer (it was
    # taken as the same frames: 185 ms, while the tracker now waits half a second at any rate)
    waited_30 = max(waited, math.ceil(config.still_seconds * 30 - 1e-6) + 1)
    return {"throws": len(process_ms), "processing_ms_median": processing,
            "processing_ms_max": max(process_ms) if process_ms else float("nan"),
            "still_frames_waited": waited,
            "latency_ms_at_10fps": (waited - 1) * 100 + processing / max(waited, 1),
            "latency_ms_at_30fps": (waited_30 - 1) * 1000 / 30 + processing / max(waited, 1)}


def bench_frames(repeats: int = 50) -> dict:
    """Per-frame costs outside the reader: the settle tracker's update (every camera frame goes
    through it, the reader only runs on still ones) and the synthetic tray renderer."""
    from vision.settle import SettleTracker
    from vision.synthetic import render_tray

    cv2.setNumThreads(1)
    render_tray([1, 2, 3, 4, 5], seed=0)              # warm-up
    render_ms = []
    for i in range(max(repeats // 5, 3)):
        t0 = time.perf_counter()
        render_tray([1, 2, 3, 4, 5], seed=i, size=(640, 480))
        render_ms.append((time.perf_counter() - t0) * 1000)
    frames = [render_tray([1, 2, 3], seed=i, size=(640, 480)).image for i in range(5)]
    tracker = SettleTracker()
    update_ms = []
    for i in range(repeats):
        t0 = time.perf_counter()
        tracker.update(frames[i % 5], i / 10)
        update_ms.append((time.perf_counter() - t0) * 1000)
    return {"tracker_update_ms_median": statistics.median(update_ms),
            "render_tray_ms_median": statistics.median(render_ms)}


def bench_memory() -> dict:
    """Peak memory of the thirteen demo, as the demo itself reports it (its own VmHWM: this
    process's getrusage figure for the child would include our own peak, see peak_memory)."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "controller.cli", "demo", "--game", "thirteen", "--headless",
               "--screenshots", tmp]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
        seconds = time.perf_counter() - t0
    m = re.search(r"peak memory (\d+(?:\.\d+)?) MB", proc.stdout)
    return {"command": "dicetable demo --game thirteen --headless", "exit": proc.returncode,
            "peak_rss_mb": float(m.group(1)) if m else float("nan"), "seconds": seconds}


def bench_stall(hang_s: float = 3.0, run_s: float = 6.0, threaded: bool = True, fps: float = 20.0) -> dict:
    """The table's loop (as run_forever paces it) on a webcam double that streams at 30 fps and
    hangs for `hang_s` one second in: the longest pass (the screen and the buttons dead meanwhile),
    the frames taken per second and their age when taken. `threaded`: the camera read as the table
    reads it now (hardware.frame_reader); else on the loop, as before."""
    from controller.config import parse_config
    from controller.setup_menu import SetupResult
    from controller.table_app import TableApp
    from hardware import RetryingFrameSource, SourceStatus
    from hardware.fakes import HangingCapture, NoDevice
    from hardware.frame_opencv import OpenCVFrameSource
    from hardware.frame_reader import FrameReader
    from vision.types import Reading

    capture = HangingCapture(fps=30.0, size=(640, 480))
    camera = OpenCVFrameSource("/dev/video0", capture_factory=lambda device, api: capture, by_id_dir="/nonexistent")
    frames = FrameReader(RetryingFrameSource(camera)) if threaded else RetryingFrameSource(camera)
    frames.open()
    taken_ages: list[float] = []

    class Taking:
        """The frames as the table takes them, with their age."""

        error = property(lambda self: frames.error)

        def read(self):
            frame = frames.read()
            if frame is not None:
                taken_ages.append(time.monotonic() - frame.timestamp)
            return frame

    class Buttons(NoDevice):
        """Buttons nobody presses (polled at every pass: their time between two polls is how long
        a press would have waited)."""

        status = SourceStatus(True, "")

    with tempfile.TemporaryDirectory() as tmp:
        app = TableApp(parse_config(f'[table]\njournal_dir = "{tmp}"\n'), Screen((800, 480), headless=True),
                       Taking(), Buttons(), reader=lambda image: Reading((), ()))
        app.menu.done = SetupResult("thirteen", ("Ann",), {})
        app.start_new()                         # (a game under way: every frame goes to the tracker)
        passes: list[float] = []
        started = time.monotonic()
        timers = [threading.Timer(1.0, capture.hang), threading.Timer(1.0 + hang_s, capture.answer)]
        for timer in timers:            # (the camera's own time: a loop held up by it cannot time it)
            timer.start()
        while (now := time.monotonic()) - started < run_s:
            app.step()
            passes.append(time.monotonic() - now)
            time.sleep(max(0.0, 1.0 / fps - (time.monotonic() - now)))
        for timer in timers:
            timer.join()
        t0 = time.perf_counter()
        frames.close()
        close_ms = (time.perf_counter() - t0) * 1000
        app.screen.close()
    streaming_s = run_s - hang_s
    return {"threaded": threaded, "hang_s": hang_s, "longest_pass_ms": max(passes) * 1000,
            "passes": len(passes), "frames_per_s": len(taken_ages) / streaming_s,
            "age_ms_median": statistics.median(taken_ages) * 1000 if taken_ages else float("nan"),
            "age_ms_max": max(taken_ages) * 1000 if taken_ages else float("nan"), "close_ms": close_ms,
            "frames_never_taken": getattr(frames, "replaced", 0)}


def run(as_json: bool = False, quick: bool = False) -> int:
    render = bench_render((1920, 1080), 10 if quick else 30) + bench_render((800, 480), 10 if quick else 30)
    latency = bench_latency(4 if quick else 12)
    frames = bench_frames(20 if quick else 50)
    memory = None if quick else bench_memory()
    hang = {"hang_s": 1.0, "run_s": 2.5} if quick else {}
    stall = [bench_stall(threaded=False, **hang), bench_stall(threaded=True, **hang)]
    if as_json:
        print(json.dumps({"render": render, "latency": latency, "frames": frames, "memory": memory,
                          "stall": stall}, indent=1))
        return 0
    print("Screen render (busiest screen of each game: most players, late game, a decision with previews)")
    print("| game | size | players | whole screen: median ms | max ms | a camera frame: median ms | max ms |")
    print("|---|---|---|---|---|---|---|")
    for r in render:
        print(f"| {r['game']} | {r['size']} | {r['players']} | {r['median_ms']:.1f} | {r['max_ms']:.1f} "
              f"| {r['frame_median_ms']:.1f} | {r['frame_max_ms']:.1f} |")
    print("\nFirst still frame -> sheet updated (settle tracker + reader + flow + 1920x1080 render)")
    print(f"  processing on this machine: median {latency['processing_ms_median']:.1f} ms, "
          f"max {latency['processing_ms_max']:.1f} ms over {latency['throws']} throws")
    print(f"  the tracker waits for {latency['still_frames_waited']:.0f} still frames at 10 fps by design "
          "(and half a second at any rate): "
          f"{latency['latency_ms_at_10fps']:.0f} ms in all at 10 fps, "
          f"{latency['latency_ms_at_30fps']:.0f} ms at 30 fps")
    print(f"\nEvery camera frame: settle tracker update {frames['tracker_update_ms_median']:.2f} ms median "
          f"(640x480); a synthetic 640x480 tray renders in {frames['render_tray_ms_median']:.1f} ms")
    before, now = stall
    print(f"\nA webcam hanging for {now['hang_s']:g} s (30 fps double, the loop at 20 passes a second): the screen "
          f"and the buttons stood still {before['longest_pass_ms']:.0f} ms with the camera read on the loop, "
          f"{now['longest_pass_ms']:.0f} ms (the longest pass) read on its own thread; frames taken "
          f"{now['frames_per_s']:.1f} a second ({before['frames_per_s']:.1f} on the loop), "
          f"{now['age_ms_median']:.0f} ms old (median; max {now['age_ms_max']:.0f}; on the loop "
          f"{before['age_ms_median']:.0f}, max {before['age_ms_max']:.0f}); {now['frames_never_taken']} read and "
          f"replaced by newer ones; the thread stopped in {now['close_ms']:.0f} ms")
    if memory:
        print(f"\nPeak memory of `{memory['command']}`: {memory['peak_rss_mb']:.0f} MB "
              f"(exit {memory['exit']}, {memory['seconds']:.0f} s)")
    return 0
