"""Things left in the tray: how often a throw around one is read right, asked for, or never read.

    python -m vision.left_bench [--trays 40] [--json]

For each kind of thing (a phone, a playing card, a dice cup, a coin) and each of `--trays` seeds:
the thing lies in the empty tray (1.5 s of frames), a hand throws five dice around it, and the
dice lie still (2 s), rendered by vision.synthetic (400x300, five felts, the thing at a random
place and turn) and fed to the real settle tracker and reader. The last final reading with dice
is *right* (the thrown values), *wrong* (as many dice, a value wrong: the table would take it),
or *asked* (a die unread or the count off: the table asks); *never read* when no reading with
dice became final (the table says "take it out" for good). A benchmark, not a test.
"""
from __future__ import annotations

import argparse
import json
from typing import Sequence

import numpy as np

from .reader import read
from .settle import FinalReading, SettleTracker
from .synthetic import HandSpec, ThingSpec, TrayStyle, render_scene, render_tray

FELTS = ("green", "light", "dark", "blue", "red")
LENGTHS = {"phone": 170.0, "card": 120.0, "cup": 140.0, "coin": 40.0}
SIZE = (400, 300)


def throw_around(kind: str, seed: int) -> str | None:
    """One throw around a thing of `kind`: "right", "wrong", "asked" or "never read" (None:
    the dice do not fit around it at this seed)."""
    rng = np.random.default_rng(seed)
    style = TrayStyle.preset(FELTS[seed % len(FELTS)], die_px=46.0)
    thing = ThingSpec(kind, (float(rng.uniform(90, 310)), float(rng.uniform(90, 210))), LENGTHS[kind],
                      float(rng.uniform(0, 90)))
    values = [int(v) for v in rng.integers(1, 7, 5)]
    try:
        shot = render_tray(values, seed=seed, size=SIZE, style=style, things=[thing])
    except ValueError:
        return None
    empty = render_tray([], seed=seed, size=SIZE, style=style, things=[thing]).image
    hand = render_scene(shot.truth, seed=seed, size=SIZE, style=style, things=[thing],
                        hand=HandSpec(edge="right", pos=0.5, reach=150.0)).image
    tracker, t, finals = SettleTracker(), 0.0, []
    for image, frames in ((empty, 15), (hand, 4), (shot.image, 20)):
        for _ in range(frames):
            t += 0.1
            tracker.update(image, t)
            if tracker.wants_reading:
                tracker.offer(read(image), t)
            finals += [e.reading for e in tracker.drain_events() if isinstance(e, FinalReading) and e.reading.dice]
    if not finals:
        return "never read"
    got = finals[-1].values
    if None in got or len(got) != len(values):
        return "asked"
    return "right" if sorted(got) == sorted(values) else "wrong"    # type: ignore[type-var]


def measure(trays: int, kinds: Sequence[str] = tuple(LENGTHS), start: int = 0) -> dict[str, dict[str, int]]:
    """{kind: {outcome: throws}} over seeds start .. start + trays - 1."""
    out: dict[str, dict[str, int]] = {}
    for kind in kinds:
        counts = {"right": 0, "wrong": 0, "asked": 0, "never read": 0}
        for seed in range(start, start + trays):
            outcome = throw_around(kind, seed)
            if outcome is not None:
                counts[outcome] += 1
        out[kind] = counts
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.left_bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trays", type=int, default=40, help="throws per kind of thing (default 40)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    r = measure(max(1, args.trays))
    if args.json:
        print(json.dumps(r))
        return 0
    for kind, counts in r.items():
        print(f"{kind:6} " + ", ".join(f"{name} {n}" for name, n in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
