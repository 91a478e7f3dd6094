"""What a calibrated reading costs at the table (`python -m vision.calcost_bench`).

`vision.bench` reads the labelled photos without a calibration, so its ms per frame leaves out
everything the table does with one: the moved-tray checks (felt_past_tray, tray_shift), the
bigger / smaller dice re-reads (die_size), the glare second look, and, around the reader, the
settle tracker's per-frame motion check and its covered / left-things checks on each reading.
This benchmark times `read(frame, calibration)` on rendered calibrated trays (several styles,
dice counts, with and without glare, things and a hand) and on Byler photos (as 640 x 480
frames) with a calibration found for each, one OpenCV thread, and breaks it down per stage
(exclusive time: a stage's own time, less the stages it calls). Each pass reads every frame;
the fastest of the passes is kept per frame (other work on the machine only adds time).
Timings only: no test depends on them.
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import json
import statistics
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import cv2
import numpy as np

from vision import dicenet, net_runtime, reader, segment
from vision.bench import as_vga, default_photos_dir, machine_line
from vision.calibrate import calibrate, find_tray
from vision.die_size import box_side
from vision.settle import SettleTracker
from vision.synthetic import STYLES, ThingSpec, render_tray
from vision.tray_moved import walled_sides

# (module, attribute, stage name): the reader's stages that cost something with a calibration
STAGES: tuple[tuple[Any, str, str], ...] = (
    (reader, "felt_past_tray", "felt_past_tray"),
    (reader, "tray_shift", "tray_shift"),
    (reader, "tray_zoom", "tray_zoom"),
    (reader, "bigger_dice", "bigger_dice"),
    (reader, "smaller_size", "smaller_size"),
    (reader, "glare_looked_again", "glare_look"),
    (reader, "_second_look", "second_look"),
    (segment, "segment", "segment"),
    (dicenet, "find_dice", "detector"),
    (dicenet, "classify", "classifier"),
)
BENCH_STYLES = ("green", "light", "dark", "blue", "red")


class StageTimer:
    """Exclusive ms per stage for one frame (a stage's time less the wrapped stages it calls)."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self._children: list[float] = []

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._children.append(0.0)
            self.calls[name] = self.calls.get(name, 0) + 1
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                took = (time.perf_counter() - t0) * 1000
                inner = self._children.pop()
                self.ms[name] = self.ms.get(name, 0.0) + took - inner
                if self._children:
                    self._children[-1] += took
        return timed


@contextlib.contextmanager
def _patched(timer: StageTimer) -> Iterator[None]:
    """The reader's stages timed by `timer` while inside."""
    saved = [(mod, attr, getattr(mod, attr)) for mod, attr, _n in STAGES]
    try:
        for mod, attr, name in STAGES:
            setattr(mod, attr, timer.wrap(name, getattr(mod, attr)))
        yield
    finally:
        for mod, attr, fn in saved:
            setattr(mod, attr, fn)


def rendered_frames(styles: tuple[str, ...] = BENCH_STYLES) -> list[tuple[str, np.ndarray, dict]]:
    """(what, frame, calibration) for rendered trays with a wooden border (walls watched): each
    style calibrated as `dicetable calibrate` does, then 2, 5 and 6 dice, glare, a coin and a
    phone, and a hand reaching in."""
    out = []
    for name in styles:
        style = dataclasses.replace(STYLES[name], border_px=40)
        empty = render_tray([], seed=1, style=style).image
        throw = render_tray([1, 2, 3, 4, 5], seed=2, style=style).image
        cal = calibrate([empty], [throw], reader=reader.read).to_dict()
        scenes = {"2 dice": dict(values=[3, 5]), "5 dice": dict(values=[1, 2, 3, 4, 5]),
                  "6 dice": dict(values=[6, 5, 4, 3, 2, 1]),
                  "glare": dict(values=[2, 4, 6, 1, 3], glare=True),
                  "things": dict(values=[6, 6, 1, 2], things=(ThingSpec("coin", (200.0, 180.0), 50.0),
                                                                ThingSpec("phone", (420.0, 300.0), 150.0, 20.0))),
                  "hand": dict(values=[5, 5, 2, 1], hands=True)}
        for i, (what, kw) in enumerate(scenes.items()):
            try:
                img = render_tray(seed=10 + i, style=style, **kw).image
            except ValueError:
                continue                    # (a thing that left no room for the dice)
            out.append((f"{name} {what}", img, cal))
    return out


def photo_frames(root: Path, limit: int) -> list[tuple[str, np.ndarray, dict]]:
    """Byler photos as 640 x 480 frames, each with a plausible calibration: the tray as
    calibration finds it, and the dice's size as `dicetable calibrate` measures the dice the
    reader finds uncalibrated (by their boxes: `die_size.box_side`; the photos have no empty
    tray to find the dice's blobs against).

    (Measured by the boxes' long side, as before 2026-11-27, the size was 1.2-1.3 times the
    dice's top face: 38-52 px for 30-42 px dice. Segmented at that size, dice in a heap stayed
    one blob, and the size checks segmented 38 of 40 frames again: a cost the table's
    calibration does not cause, and a "smaller than calibrated" notice for the dice calibrated.)"""
    folder = root / "nellbyler_d6"
    try:
        entries = json.loads((folder / "labels.json").read_text())
    except (OSError, ValueError):
        return []
    entries = entries.get("images", entries) if isinstance(entries, dict) else entries
    out = []
    for e in entries[:limit]:
        img = cv2.imread(str(folder / e["image"]), cv2.IMREAD_COLOR)
        if img is None:
            continue
        vga = as_vga(img)
        sides = [box_side(d.box) for d in reader.read(vga).dice]
        if not sides:
            continue
        tray = find_tray(vga)
        cal = {"tray": list(tray), "die_px": float(np.median(sides)), "frame_size": [640, 480],
               "walls": walled_sides(vga, tray)}
        out.append((f"byler {e['image']}", vga, cal))
    return out


def measure(frames: list[tuple[str, np.ndarray, dict]], passes: int
            ) -> tuple[list[float], list[dict[str, float]], list[dict[str, int]]]:
    """Per frame: the fastest total ms of `passes`, that pass's ms per stage, and how many times
    each stage ran (the same every pass: a cost that other work on the machine cannot blur)."""
    best: list[float] = [float("inf")] * len(frames)
    stages: list[dict[str, float]] = [{} for _ in frames]
    calls: list[dict[str, int]] = [{} for _ in frames]
    for _p in range(passes):
        for i, (_what, img, cal) in enumerate(frames):
            timer = StageTimer()
            with _patched(timer):
                t0 = time.perf_counter()
                reader.read(img, cal)
                took = (time.perf_counter() - t0) * 1000
            if took < best[i]:
                best[i] = took
                stages[i] = dict(timer.ms, other=took - sum(timer.ms.values()))
                calls[i] = timer.calls
    return best, stages, calls


def tracker_ms(frames: list[tuple[str, np.ndarray, dict]], passes: int) -> list[float]:
    """ms of the settle tracker's per-frame update (every camera frame pays it), tray given."""
    best = []
    for _what, img, cal in frames:
        tracker = SettleTracker(tray=tuple(cal["tray"]))
        tracker.update(img, 0.0)
        times = []
        for p in range(max(3, passes)):
            t0 = time.perf_counter()
            tracker.update(img, 0.1 * (p + 1))
            times.append((time.perf_counter() - t0) * 1000)
        best.append(min(times))
    return best


def _p90(v: list[float]) -> float:
    return float(np.percentile(v, 90)) if v else 0.0


def report(name: str, best: list[float], stages: list[dict[str, float]], calls: list[dict[str, int]]) -> str:
    lines = [f"{name}: {len(best)} frames, read(frame, calibration) median {statistics.median(best):.1f} ms, "
             f"p90 {_p90(best):.1f} ms, max {max(best):.1f} ms",
             f"  {'stage':<16}{'median':>8}{'p90':>8}{'mean':>8}{'runs':>8}  (ms a frame, exclusive; 0 where not "
             f"run; runs: mean times run a frame)"]
    names = sorted({k for s in stages for k in s}, key=lambda k: -sum(s.get(k, 0.0) for s in stages))
    for k in names:
        v = [s.get(k, 0.0) for s in stages]
        n = statistics.mean(c.get(k, 0) for c in calls) if k != "other" else float("nan")
        lines.append(f"  {k:<16}{statistics.median(v):>8.2f}{_p90(v):>8.2f}{statistics.mean(v):>8.2f}{n:>8.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.calcost_bench", description=__doc__.split("\n")[0])
    ap.add_argument("--passes", type=int, default=3, metavar="N", help="passes; the fastest is kept per frame")
    ap.add_argument("--photos", type=Path, default=None, metavar="DIR", help="labelled photos (default: shared)")
    ap.add_argument("--limit", type=int, default=40, metavar="N", help="Byler photos read (0: none)")
    ap.add_argument("--threads", type=int, default=1, help="OpenCV threads (the table's budget is one core)")
    ap.add_argument("--runtime", choices=net_runtime.RUNTIMES, default=None,
                    help="run the nets on this runtime (default: onnxruntime where installed, else opencv)")
    args = ap.parse_args(argv)
    net_runtime.use(args.runtime)
    cv2.setNumThreads(args.threads)
    print(machine_line())
    print("(others may be running on this machine: the fastest of the passes is kept per frame)")
    sets = [("rendered calibrated trays", rendered_frames())]
    if args.limit > 0:
        sets.append(("Byler photos as 640x480, calibration found", photo_frames(args.photos or default_photos_dir(),
                                                                              args.limit)))
    for name, frames in sets:
        if not frames:
            print(f"{name}: none")
            continue
        measure(frames[:2], 1)                      # (warm up: the nets' first run plans their layers)
        best, stages, calls = measure(frames, max(1, args.passes))
        print(report(name, best, stages, calls))
        trk = tracker_ms(frames, args.passes)
        print(f"  settle tracker update (every camera frame): median {statistics.median(trk):.2f} ms, "
              f"p90 {_p90(trk):.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
