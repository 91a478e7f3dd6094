"""A camera knocked by a little since calibration: `python -m vision.knock_bench [--seeds N]`.

Each tray style with a table round its tray (not the dim one: its tray fills the view) is
calibrated as `dicetable calibrate` would (two empty frames, two throws, 50 px dice, 50 px of
table round the tray); seeded throws of six dice are then seen with the camera moved by 0 to 40 px
(up to 6% of 640) along x or y, and read with that calibration; half the throws have their dice
by the walls (one against each, two in corners), where a shift cuts them. Per shift: throws read
right, taken with a wrong value (must stay 0), asked again, and frames said moved (`camera_moved`).
"""
from __future__ import annotations

import argparse
import collections
import dataclasses

import cv2
import numpy as np

from vision.calibrate import calibrate
from vision.reader import read
from vision.size_bench import verdict
from vision.synthetic import STYLES, render_scene, render_tray

SHIFTS = ((0, 0), (10, 0), (-10, 0), (0, 10), (0, -10), (20, 0), (0, -20), (-30, 0), (0, 30), (40, 0), (0, -40))


def shifted(img: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """The frame as a camera moved by (-dx, -dy) sees it: the tray moved by (dx, dy)."""
    return cv2.warpAffine(img, np.float32([[1, 0, dx], [0, 1, dy]]), (img.shape[1], img.shape[0]),
                          borderMode=cv2.BORDER_REPLICATE)


def by_the_walls(values: list[int], seed: int, style, tray: list[int]):
    """Six dice against the calibrated tray's walls (a die's half side and 3 px from each)."""
    shot = render_tray(values, seed=seed, style=style, die_px=50)
    x0, y0, x1, y1 = tray
    m = 0.5 * 50 * 1.15 + 3
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    spots = [(x0 + m, cy), (x1 - m, cy - 60), (cx - 80, y0 + m), (cx + 60, y1 - m), (x0 + m, y0 + m), (x1 - m, y1 - m)]
    dice = [dataclasses.replace(d, centre=spot, angle_deg=float(a))
            for d, spot, a in zip(shot.truth, spots, (0, 5, 10, 0, 3, 8))]
    return render_scene(dice, seed=seed, style=style).image


def run(styles: list[str], seeds: int = 6, first: int = 700) -> dict[tuple[int, int], collections.Counter]:
    """The counts per shift over `styles` and `seeds` throws each."""
    out: dict[tuple[int, int], collections.Counter] = {s: collections.Counter() for s in SHIFTS}
    for name in styles:
        style = dataclasses.replace(STYLES[name], border_px=50)
        empty = [render_tray([], seed=i, style=style, die_px=50).image for i in range(2)]
        throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=style, die_px=50).image for i in range(2)]
        cal = calibrate(empty, throws, reader=read).to_dict()
        for seed in range(first, first + seeds):
            values = [int(v) for v in np.random.default_rng(seed).integers(1, 7, 6)]
            image = (by_the_walls(values, seed, style, cal["tray"]) if seed % 2 else
                     render_tray(values, seed=seed, style=style, die_px=50).image)
            for dx, dy in SHIFTS:
                reading = read(shifted(image, dx, dy), calibration=cal)
                out[(dx, dy)][verdict(reading, values)] += 1
                out[(dx, dy)]["told"] += "camera_moved" in reading.problem_codes()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--styles", default=",".join(n for n in STYLES if n != "dim"), help="comma separated")
    ap.add_argument("--seeds", type=int, default=6, help="throws a style")
    args = ap.parse_args(argv)
    for (dx, dy), c in run(args.styles.split(","), args.seeds).items():
        print(f"shift {dx:4d},{dy:4d}  right {c['right']:3d}  wrong {c['wrong']:2d}  asked {c['asked']:3d}  "
              f"told moved {c['told']:3d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
