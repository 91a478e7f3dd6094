"""A camera knocked by a little since calibration: `python -m vision.knock_bench [--seeds N]`.

Each tray style with a table round its tray (not the dim one: its tray fills the view) is
calibrated as `dicetable calibrate` would (two empty frames, two throws, 50 px dice, 50 px of
table round the tray); seeded throws of six dice are then seen with the camera moved by 5 to 40 px
(up to 6% of 640) along x or y, turned by 1 or 2 degrees about the frame's centre, or scaled
about it by 0.85-1.2 (a camera raised or lowered on its arm), and read with that calibration;
half the throws have their dice by the walls (one against each, two in corners), where a shift
cuts them. Per knock: throws read right, taken with a wrong value (must stay 0), asked again, and
frames said moved (`camera_moved`; a scale: and how many of them named the camera raised or
lowered). Then the still frames: every style (the dim one too) with 30 and 50 px of table,
calibrated the same way, and frames of a camera that did not move (throws, dice by the walls, a
hand, a leaning die, a phone left in the tray, the empty tray): how many are said moved (must stay
0).
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
from vision.synthetic import STYLES, HandSpec, ThingSpec, render_scene, render_tray

# (dx, dy) px the tray moves in the view, or ("turn", degrees) about the frame's centre
SHIFTS: tuple[tuple, ...] = (
    (0, 0), (5, 0), (-5, 0), (0, 5), (0, -5), (10, 0), (-10, 0), (0, 10), (0, -10),
    (15, 0), (-15, 0), (0, 15), (0, -15), (20, 0), (0, -20), (-30, 0), (0, 30), (40, 0), (0, -40),
    ("turn", 1.0), ("turn", -1.0), ("turn", 2.0), ("turn", -2.0),
    ("scale", 0.85), ("scale", 0.9), ("scale", 0.95), ("scale", 1.05), ("scale", 1.1), ("scale", 1.15),
    ("scale", 1.2))


def shifted(img: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """The frame as a camera moved by (-dx, -dy) sees it: the tray moved by (dx, dy)."""
    return cv2.warpAffine(img, np.float32([[1, 0, dx], [0, 1, dy]]), (img.shape[1], img.shape[0]),
                          borderMode=cv2.BORDER_REPLICATE)


def turned(img: np.ndarray, degrees: float) -> np.ndarray:
    """The frame as a camera turned by `degrees` about its axis sees it (the tray turned about
    the frame's centre, anticlockwise for positive degrees)."""
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    return cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def scaled(img: np.ndarray, scale: float) -> np.ndarray:
    """The frame as a camera raised (`scale` under 1: the tray smaller) or lowered (over 1) on its
    arm sees it: the whole view scaled about the frame's centre."""
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), 0.0, scale)
    return cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def knocked(img: np.ndarray, knock: tuple) -> np.ndarray:
    """`img` seen after `knock` (a SHIFTS entry)."""
    if knock[0] == "turn":
        return turned(img, float(knock[1]))
    if knock[0] == "scale":
        return scaled(img, float(knock[1]))
    return shifted(img, int(knock[0]), int(knock[1]))


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


def _calibration(style) -> dict:
    empty = [render_tray([], seed=i, style=style, die_px=50).image for i in range(2)]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=style, die_px=50).image for i in range(2)]
    return calibrate(empty, throws, reader=read).to_dict()


def run(styles: list[str], seeds: int = 6, first: int = 700) -> dict[tuple, collections.Counter]:
    """The counts per knock over `styles` and `seeds` throws each."""
    out: dict[tuple, collections.Counter] = {s: collections.Counter() for s in SHIFTS}
    for name in styles:
        style = dataclasses.replace(STYLES[name], border_px=50)
        cal = _calibration(style)
        for seed in range(first, first + seeds):
            values = [int(v) for v in np.random.default_rng(seed).integers(1, 7, 6)]
            image = (by_the_walls(values, seed, style, cal["tray"]) if seed % 2 else
                     render_tray(values, seed=seed, style=style, die_px=50).image)
            for knock in SHIFTS:
                reading = read(knocked(image, knock), calibration=cal)
                out[knock][verdict(reading, values)] += 1
                out[knock]["told"] += "camera_moved" in reading.problem_codes()
                if knock[0] == "scale":
                    way = "raised" if knock[1] < 1 else "lowered"
                    out[knock]["height"] += any(p.code == "camera_moved" and f"camera was {way}" in p.message
                                                for p in reading.problems)
    return out


def still_frames(style, tray: list[int], n: int = 20) -> list[np.ndarray]:
    """`n` frames of a camera that did not move since calibration: throws, dice by the walls, a
    hand reaching in, a leaning die, a phone left in the tray, the empty tray."""
    frames = []
    for i in range(n):
        seed = 900 + i
        values = [int(v) for v in np.random.default_rng(seed).integers(1, 7, 5 + i % 2)]
        kind = i % 10
        if kind in (0, 1, 2, 3):
            frames.append(render_tray(values, seed=seed, style=style, die_px=50).image)
        elif kind in (4, 5):
            frames.append(by_the_walls(values + [1] * (6 - len(values)), seed, style, tray))
        elif kind == 6:
            edge = ("left", "top", "right", "bottom")[i % 4]
            frames.append(render_tray(values, seed=seed, style=style, die_px=50,
                                      hands=HandSpec(edge, 0.5, 160, 90)).image)
        elif kind == 7:
            frames.append(render_tray(values, seed=seed, style=style, die_px=50, leaning=[0]).image)
        elif kind == 8:
            frames.append(render_tray(values[:5], seed=seed, style=style, die_px=50,
                                      things=[ThingSpec("phone", (150, 150), 170, 20)]).image)
        else:
            frames.append(render_tray([], seed=seed, style=style, die_px=50).image)
    return frames


def still_notices(styles: list[str], per_style: int = 20) -> tuple[int, int]:
    """(frames said moved, frames) over `styles` x 30 and 50 px of table, the camera still."""
    told = total = 0
    for name in styles:
        for border in (30, 50):
            style = dataclasses.replace(STYLES[name], border_px=border)
            cal = _calibration(style)
            for image in still_frames(style, cal["tray"], per_style):
                told += "camera_moved" in read(image, calibration=cal).problem_codes()
                total += 1
    return told, total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--styles", default=",".join(n for n in STYLES if n != "dim"), help="comma separated")
    ap.add_argument("--seeds", type=int, default=6, help="throws a style")
    ap.add_argument("--stills", type=int, default=20, help="still frames a style and table width (0: none)")
    args = ap.parse_args(argv)
    for knock, c in run(args.styles.split(","), args.seeds).items():
        name = (f"turn {knock[1]:+.0f} deg" if knock[0] == "turn" else f"scale x{knock[1]:.2f}" if knock[0] == "scale"
                else f"shift {knock[0]:4d},{knock[1]:4d}")
        height = f"  (as {'raised' if knock[1] < 1 else 'lowered'} {c['height']:3d})" if knock[0] == "scale" else ""
        print(f"{name:<16} right {c['right']:3d}  wrong {c['wrong']:2d}  asked {c['asked']:3d}  "
              f"told moved {c['told']:3d}{height}")
    if args.stills:
        told, total = still_notices(list(STYLES), args.stills)
        print(f"still frames said moved: {told} of {total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
