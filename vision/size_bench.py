"""Dice of another size than the calibrated ones: `python -m vision.size_bench [--seeds N]`.

Each tray style of `vision.synthetic` is calibrated as `dicetable calibrate` would (two empty
frames, two throws of 55 px dice), then read with that calibration: seeded throws of five dice
of 22, 28, 34, 40, 45 and 55 px, and 55 px dice leaning, touching or under a hand. Per case:
throws the table would take as read and right, taken with a wrong value (must stay 0), asked
again (a problem that stops the throw, a die unread or missing), and the `die_size` notices.
"""
from __future__ import annotations

import argparse
import collections

import numpy as np

from vision.calibrate import calibrate
from vision.reader import read
from vision.synthetic import STYLES, HandSpec, TrayStyle, render_tray
from vision.types import Reading

# what the table will not take as it is (controller.table.BLOCKING; no controller import here)
STOPS = {"die_leaning", "foreign_object", "dice_covered", "partly_out_of_view", "bad_frame", "too_dark",
         "too_bright", "blurred", "unsure_value"}
CASES = ("22", "28", "34", "40", "45", "55", "55 leaning", "55 touching", "55 hand")


def verdict(reading: Reading, values: list[int]) -> str:
    """"right", "wrong" (taken, a value off) or "asked" for `reading` of a throw of `values`."""
    got = [d.value for d in reading.dice]
    if reading.problem_codes() & STOPS or None in got or len(got) != len(values):
        return "asked"
    return "right" if sorted(got) == sorted(values) else "wrong"  # type: ignore[type-var]


def run(styles: list[str], seeds: int = 10, first: int = 500) -> dict[str, collections.Counter]:
    """The counts per case, over `styles` and `seeds` throws each (seeds `first`...)."""
    out: dict[str, collections.Counter] = {case: collections.Counter() for case in CASES}
    for name in styles:
        style = TrayStyle.preset(name, border_px=40)
        empty = [render_tray([], seed=i, style=style, die_px=55).image for i in range(2)]
        throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=style, die_px=55).image for i in range(2)]
        cal = calibrate(empty, throws, reader=read).to_dict()
        if not cal.get("die_px"):
            continue
        for case in CASES:
            px, _, how = case.partition(" ")
            for seed in range(first, first + seeds):
                values = [int(v) for v in np.random.default_rng(seed).integers(1, 7, 5)]
                extra = {"leaning": {"leaning": [0]}, "touching": {"touching": 1},
                         "hand": {"hands": HandSpec("left", 0.5, 160, 90)}}.get(how, {})
                shot = render_tray(values, seed=seed, style=style, die_px=float(px), **extra)
                reading = read(shot.image, calibration=cal)
                out[case][verdict(reading, values)] += 1
                out[case]["told"] += "die_size" in reading.problem_codes()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--styles", default=",".join(STYLES), help="tray styles, comma separated")
    ap.add_argument("--seeds", type=int, default=10, help="throws a style and case")
    args = ap.parse_args(argv)
    for case, c in run(args.styles.split(","), args.seeds).items():
        print(f"{case:12s} right {c['right']:4d}  wrong {c['wrong']:3d}  asked {c['asked']:4d}  told {c['told']:4d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
