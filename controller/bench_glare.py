"""Dice in a lamp's glare: how often the table takes a wrong value, and how often it asks for an
OK needlessly: before GLARE_SURE (controller/tray_words.py), with it on the first read alone, and
with the reader's second look at a die in the glare (vision/glare_look.py).

    python -m controller.bench_glare [--trays 250] [--json]

Rendered trays (vision.synthetic: five felts, 400x300, dice of 46 and 52 px; a lamp's spot on or
near one die, of random strength and size, in two trays of three; anywhere in the third), read by
the real reader. Before: every valued die in the glare was taken by itself after check_seconds
(outlined only). One look: one read less than GLARE_SURE waits for the players' OK (each tray read
with vision.reader.GLARE_LOOK off). After: the same, once the second look has confirmed what it
can. Times: the reader's median ms a frame over the trays with a die in the glare, both ways. A
benchmark, not a test: it prints figures for docs/table.md and never fails.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
from typing import Sequence

import numpy as np

from vision import reader
from vision.synthetic import TrayStyle, render_scene, render_tray
from vision.types import Die, TrueDie

from .tray_words import GLARE_SURE, asked_in_glare, glared

FELTS = ("green", "light", "dark", "blue", "red")


def tray(seed: int) -> tuple[np.ndarray, list[TrueDie]]:
    """One rendered tray of five dice with a lamp's spot (see the module's docstring)."""
    rng = np.random.default_rng(seed)
    style = TrayStyle.preset(FELTS[seed % len(FELTS)], die_px=(46.0, 52.0)[seed % 2])
    values = [int(v) for v in rng.integers(1, 7, 5)]
    if seed % 3 == 0:
        shot = render_tray(values, seed=seed, size=(400, 300), style=style, glare=True)
        return shot.image, shot.truth
    shot = render_tray(values, seed=seed, size=(400, 300), style=style)
    die = shot.truth[int(rng.integers(0, 5))]
    dx, dy = rng.uniform(-0.7, 0.7, 2) * die.size_px
    lamp = dataclasses.replace(style, glare=float(rng.uniform(0.9, 1.6)), glare_radius=float(rng.uniform(0.05, 0.1)))
    image = render_scene(shot.truth, seed=seed, size=(400, 300), style=lamp,
                         glare_centre=(die.centre[0] + dx, die.centre[1] + dy)).image
    return image, shot.truth


def truth_of(die: Die, truth: Sequence[TrueDie]) -> int | None:
    """The value of the rendered die under `die` (its centre within half a die), else None."""
    near = min(truth, key=lambda t: math.hypot(t.centre[0] - die.centre[0], t.centre[1] - die.centre[1]))
    far = math.hypot(near.centre[0] - die.centre[0], near.centre[1] - die.centre[1])
    return near.value if far < near.size_px / 2 else None


def measure(trays: int, start: int = 0) -> dict:
    """The figures over `trays` rendered trays (seeds start, start + 1, ...)."""
    out = {"trays": trays, "glare_sure": GLARE_SURE, "glared_dice": 0, "glared_wrong": 0,
           "wrong_taken_before": 0, "wrong_taken_one_look": 0, "wrong_taken_after": 0,
           "throws_asked_one_look": 0, "throws_asked_needlessly_one_look": 0,
           "throws_asked": 0, "throws_asked_needlessly": 0}
    ms: dict[bool, list[float]] = {False: [], True: []}
    for seed in range(start, start + trays):
        image, truth = tray(seed)
        looks = {}
        for look in (False, True):
            reader.GLARE_LOOK = look
            try:
                looks[look] = reader.read(image)
            finally:
                reader.GLARE_LOOK = True
        dice = looks[True].dice
        glare = glared(dice)
        wrong = {i for i in glare if truth_of(dice[i], truth) not in (None, dice[i].value)}
        out["glared_dice"] += len(glare)
        out["glared_wrong"] += len(wrong)
        out["wrong_taken_before"] += len(wrong)
        for look, key in ((False, "_one_look"), (True, "")):
            asked = set(asked_in_glare(looks[look].dice))
            out["wrong_taken" + (key or "_after")] += len(wrong - asked)
            out["throws_asked" + key] += bool(asked)
            out["throws_asked_needlessly" + key] += bool(asked) and not wrong
            if glare:
                ms[look].append(looks[look].ms)
    out["ms_one_look"] = round(float(np.median(ms[False])), 2) if ms[False] else 0.0
    out["ms"] = round(float(np.median(ms[True])), 2) if ms[True] else 0.0
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m controller.bench_glare", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trays", type=int, default=250, help="rendered trays to read (default 250)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    r = measure(max(1, args.trays))
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"{r['trays']} rendered trays with a lamp's spot: {r['glared_dice']} valued dice in the glare, "
          f"{r['glared_wrong']} read wrong")
    print(f"wrong values taken by themselves: before {r['wrong_taken_before']}, one look "
          f"{r['wrong_taken_one_look']}, after {r['wrong_taken_after']} (GLARE_SURE {r['glare_sure']})")
    print(f"throws that wait for OK: before 0, one look {r['throws_asked_one_look']} "
          f"({r['throws_asked_needlessly_one_look']} needlessly), after {r['throws_asked']} "
          f"({r['throws_asked_needlessly']} needlessly: every die in the glare read right)")
    print(f"median ms a frame with a die in the glare: one look {r['ms_one_look']}, after {r['ms']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
