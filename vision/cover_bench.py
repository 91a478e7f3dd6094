"""A dice cup put down over the dice just read: throws invented, throws missed, empty trays missed.

    python -m vision.cover_bench [--trays 40] [--json]

For each of `--trays` seeds (400x300, five felts by turn, dice 46 px): five dice lie still where a
throw left them, close enough for a dice cup (200 to 240 px across, at a random place) to cover
them all; rendered by vision.synthetic and fed, a frame a tenth of a second, to the real settle
tracker and reader. Three stories:

* *covered*: the cup is put down over the dice (3 s), then lifted, the dice unchanged: a second
  FinalReading with dice is a throw *invented* (the table took it for the next player's throw);
  "Tray empty" said while the cup lay there is counted apart (the table forgot the dice played);
* *thrown*: the same, but the dice are thrown again as the cup is lifted (other faces and places):
  no second FinalReading is a throw *missed*;
* *picked up*: the dice are taken out and the tray is bare: not called empty is an empty tray
  *missed* (the table would keep the dice played, and take nothing wrong, but say "take it out").

A seed whose dice are never read at all (before the cup) is counted apart and left out.

With `--partly`, the cup (100 to 150 px across) is put down over some of the dice of a throw, not
all (one to four of the five dice's centres under it, at a random die): *covered* and *thrown*
as above, any FinalReading or DiceMoved after the first counted as a throw *invented* while the
cup lay there (before: the table took the dice left in view for the next throw, "decide first")
or once it was lifted.

A benchmark, not a test.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
from typing import Sequence

import numpy as np

from .reader import read
from .settle import DiceMoved, FinalReading, SettleState, SettleTracker, StateChanged
from .synthetic import HandSpec, ThingSpec, TrayStyle, TrueDie, render_scene, render_tray
from .types import DICE_COVERED

FELTS = ("green", "light", "dark", "blue", "red")
SIZE = (400, 300)
DIE = 46.0


def clustered(seed: int) -> tuple[list[TrueDie], ThingSpec, TrayStyle] | None:
    """Five dice of a throw (seed) moved close together, under a cup that covers them all; None
    when they do not fit under it at this seed."""
    rng = np.random.default_rng(seed)
    style = TrayStyle.preset(FELTS[seed % len(FELTS)], die_px=DIE)
    cup = ThingSpec("cup", (float(rng.uniform(140, 260)), float(rng.uniform(125, 175))),
                    float(rng.uniform(200, 240)))
    values = [int(v) for v in rng.integers(1, 7, 5)]
    truth = render_tray(values, seed=seed, size=SIZE, style=style).truth
    reach = cup.length / 2 - DIE * 0.75          # a die's centre this near the cup's covers all of it
    spots: list[tuple[float, float]] = []
    for _ in range(400):
        a, r = rng.uniform(0, 2 * math.pi), reach * math.sqrt(rng.uniform(0, 1))
        p = (cup.centre[0] + r * math.cos(a), cup.centre[1] + r * math.sin(a))
        if all(math.dist(p, q) >= DIE * 1.2 for q in spots):
            spots.append(p)
            if len(spots) == len(truth):
                break
    if len(spots) < len(truth):
        return None
    return [dataclasses.replace(d, centre=s) for d, s in zip(truth, spots)], cup, style


def story(seed: int, ending: str) -> dict[str, int] | None:
    """One story ("covered", "thrown" or "picked up"): {"throws": FinalReadings with dice after
    the first, "empty": times the tray was called empty while covered, "bare": 1 when the bare
    tray at the end is called empty}; None when the dice do not fit under the cup at this seed."""
    made = clustered(seed)
    if made is None:
        return None
    truth, cup, style = made
    lying = render_scene(truth, seed=seed, size=SIZE, style=style).image
    bare = render_tray([], seed=seed, size=SIZE, style=style).image
    covered = render_tray([], seed=seed, size=SIZE, style=style, things=[cup]).image
    hand = render_scene(truth, seed=seed, size=SIZE, style=style,
                        hand=HandSpec(edge="right", pos=0.5, reach=150.0)).image
    again = render_tray([int(v) for v in np.random.default_rng(seed + 7).integers(1, 7, 5)],
                        seed=seed + 7, size=SIZE, style=style).image
    last = {"covered": lying, "thrown": again, "picked up": bare}[ending]
    frames = [(bare, 10), (hand, 4), (lying, 20), (hand, 3)]
    frames += [(covered, 30), (hand, 3)] if ending != "picked up" else []
    frames += [(last, 30)]
    tracker, t = SettleTracker(), 0.0
    out = {"throws": -1, "empty": 0, "bare": 0}
    for n, (image, count) in enumerate(frames):
        for _ in range(count):
            t += 0.1
            tracker.update(image, t)
            if tracker.wants_reading:
                tracker.offer(read(image), t)
            for e in tracker.drain_events():
                if isinstance(e, FinalReading) and e.reading.dice:
                    out["throws"] += 1
                elif isinstance(e, StateChanged) and e.new == SettleState.EMPTY and image is covered:
                    out["empty"] += 1
        if n == len(frames) - 1 and ending == "picked up":
            out["bare"] = int(tracker.state == SettleState.EMPTY)
    return out


def partly(seed: int) -> tuple[list[TrueDie], ThingSpec, TrayStyle] | None:
    """The five dice of a throw (seed) and a cup over one to four of them (the cup's centre near a
    die picked at random); None when it covers none or all at this seed."""
    rng = np.random.default_rng(seed + 1000)
    style = TrayStyle.preset(FELTS[seed % len(FELTS)], die_px=DIE)
    truth = render_tray([int(v) for v in rng.integers(1, 7, 5)], seed=seed, size=SIZE, style=style).truth
    at = truth[int(rng.integers(0, len(truth)))].centre
    cup = ThingSpec("cup", (at[0] + float(rng.uniform(-20, 20)), at[1] + float(rng.uniform(-20, 20))),
                    float(rng.uniform(100, 150)))
    under = sum(math.dist(d.centre, cup.centre) < cup.length / 2 for d in truth)
    return (truth, cup, style) if 1 <= under < len(truth) else None


def partly_story(seed: int, ending: str) -> dict[str, int] | None:
    """A cup over some of the dice ("covered": lifted, the dice unchanged; "thrown": thrown again
    as it is lifted): {"invented": FinalReadings or DiceMoved after the first while the cup lies
    there, "after": those once it is lifted, "said": 1 when a reading was called covered}."""
    made = partly(seed)
    if made is None:
        return None
    truth, cup, style = made
    lying = render_scene(truth, seed=seed, size=SIZE, style=style).image
    bare = render_tray([], seed=seed, size=SIZE, style=style).image
    covered = render_scene(truth, seed=seed, size=SIZE, style=style, over=[cup]).image
    hand = render_scene(truth, seed=seed, size=SIZE, style=style,
                        hand=HandSpec(edge="right", pos=0.5, reach=150.0)).image
    again = render_tray([int(v) for v in np.random.default_rng(seed + 7).integers(1, 7, 5)],
                        seed=seed + 7, size=SIZE, style=style).image
    frames = [(bare, 10), (hand, 4), (lying, 20), (hand, 3), (covered, 30), (hand, 3),
              (lying if ending == "covered" else again, 30)]
    tracker, t = SettleTracker(), 0.0
    out = {"first": 0, "invented": 0, "after": 0, "said": 0}
    for image, count in frames:
        for _ in range(count):
            t += 0.1
            tracker.update(image, t)
            if tracker.wants_reading:
                reading = tracker.read_around(read(image))
                out["said"] |= int(image is covered and DICE_COVERED in reading.problem_codes())
                tracker.offer(reading, t)
            for e in tracker.drain_events():
                if isinstance(e, (FinalReading, DiceMoved)) and e.reading.dice:
                    key = "first" if not out["first"] else "invented" if image is covered else "after"
                    out[key] += 1
    return out


def measure_partly(trays: int, start: int = 0) -> dict[str, int]:
    """Totals of `partly_story` over seeds start .. start + trays - 1 (a cup over some dice)."""
    r = {"stories": 0, "dice never read": 0, "said covered": 0, "covered: throws invented": 0,
         "lifted: throws invented": 0, "thrown: throws missed": 0}
    for seed in range(start, start + trays):
        got = {ending: partly_story(seed, ending) for ending in ("covered", "thrown")}
        if got["covered"] is None or got["thrown"] is None:
            continue
        if not got["covered"]["first"]:
            r["dice never read"] += 1
            continue
        r["stories"] += 1
        r["said covered"] += got["covered"]["said"]
        r["covered: throws invented"] += got["covered"]["invented"] + got["thrown"]["invented"]
        r["lifted: throws invented"] += got["covered"]["after"]
        r["thrown: throws missed"] += int(got["thrown"]["after"] < 1)
    return r


def measure(trays: int, start: int = 0) -> dict[str, int]:
    """Totals over seeds start .. start + trays - 1 (those whose dice fit under the cup)."""
    r = {"stories": 0, "dice never read": 0, "covered: throws invented": 0, "covered: called empty": 0,
         "thrown: throws missed": 0, "picked up: empty missed": 0}
    for seed in range(start, start + trays):
        got = {ending: story(seed, ending) for ending in ("covered", "thrown", "picked up")}
        if any(v is None for v in got.values()):
            continue
        if got["covered"]["throws"] < 0:                                           # type: ignore[index]
            r["dice never read"] += 1       # (nothing to cover: the reader's miss, not this bench's)
            continue
        r["stories"] += 1
        r["covered: throws invented"] += max(0, got["covered"]["throws"])          # type: ignore[index]
        r["covered: called empty"] += min(1, got["covered"]["empty"])               # type: ignore[index]
        r["thrown: throws missed"] += int(got["thrown"]["throws"] < 1)             # type: ignore[index]
        r["picked up: empty missed"] += 1 - got["picked up"]["bare"]               # type: ignore[index]
    return r


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.cover_bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trays", type=int, default=40, help="seeds (default 40)")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--partly", action="store_true", help="a cup over some of the dice, not all")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    r = (measure_partly if args.partly else measure)(max(1, args.trays), args.start)
    print(json.dumps(r) if args.json else "\n".join(f"{k}: {v}" for k, v in r.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
