"""The rendered sweep: the reader over synthetic trays of every tray style and die colour.

Why: the labelled photos show few kinds of dice and trays, and a user's clone has none of them
(../shared is not in the repository). This sweep needs nothing but the code: every tray style of
`vision.synthetic` with every die colour, six dice a tray, two trays each (7 x 16 x 2 = 224 trays,
1,344 dice). It is deterministic, so a change's effect on dice the photos do not show can be
counted exactly, and it says what the photo benchmark cannot: how often a die of another look
is read wrong.

    python -m vision.render_bench [--seeds N] [--style S ...] [--colour C ...] [--die-px PX]
                                  [--touching N] [--models DIR] [--json]
    dicetable bench rendered [--json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from vision.bench import machine, machine_line, match, use_models
from vision.synthetic import DIE_COLOURS, STYLES, render_tray, truth_to_json

DICE_A_TRAY = 6
SEEDS = 2


@dataclass
class Tally:
    """What became of the rendered dice: each is right, wrong, unread (found, no value) or
    missed; extras are values or finds where no die is."""
    dice: int = 0
    right: int = 0
    wrong: int = 0
    unread: int = 0
    missed: int = 0
    extras: int = 0

    def add(self, other: Tally) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass
class SweepResult:
    total: Tally = field(default_factory=Tally)
    by_style: dict[str, Tally] = field(default_factory=dict)
    by_colour: dict[str, Tally] = field(default_factory=dict)
    ms: list[float] = field(default_factory=list)       # one a tray, as read

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total.as_dict(),
                "by_style": {k: v.as_dict() for k, v in self.by_style.items()},
                "by_colour": {k: v.as_dict() for k, v in self.by_colour.items()},
                "median_ms": round(statistics.median(self.ms), 2) if self.ms else None,
                "machine": machine()}


def tray_seed(style: str, colour: str, k: int) -> int:
    """The seed of the k-th tray of a style and colour: fixed by their places in STYLES and
    DIE_COLOURS, so a tray is the same whichever subset of the sweep is run."""
    return 1000 + 100 * DIE_COLOURS.index(colour) + 10 * list(STYLES).index(style) + k


def read_tray(style: str, colour: str, k: int, die_px: float | None = None, touching: int = 0
              ) -> tuple[Tally, float]:
    """Render one tray of the sweep (dice of the style's size unless `die_px`; `touching` of them
    pushed against others), read it, and count what became of its dice."""
    from vision.reader import read

    seed = tray_seed(style, colour, k)
    values = [int(v) for v in np.random.default_rng(seed).integers(1, 7, DICE_A_TRAY)]
    for n in range(DICE_A_TRAY, 0, -1):     # big dice: as many as the tray holds (four of 120 px)
        try:
            shot = render_tray(values[:n], seed=seed, style=STYLES[style], colours=(colour,), die_px=die_px,
                               touching=min(touching, n))
            break
        except ValueError:
            if n == 1:
                raise
    reading = read(shot.image)
    labels = [truth_to_json(d) for d in shot.truth]
    preds = [(d.centre[0], d.centre[1], d.value) for d in reading.dice]
    pairs, extras = match(preds, labels)
    t = Tally(dice=len(labels), extras=extras, missed=len(labels) - len(pairs))
    for li, pi in pairs:
        v = preds[pi][2]
        if v is None:
            t.unread += 1
        elif v == labels[li]["value"]:
            t.right += 1
        else:
            t.wrong += 1
    return t, reading.ms


def run(styles: list[str] | None = None, colours: list[str] | None = None, seeds: int = SEEDS,
        die_px: float | None = None, touching: int = 0) -> SweepResult:
    """The sweep over `styles` x `colours` (default: all) x `seeds` trays."""
    res = SweepResult()
    for style in styles or list(STYLES):
        for colour in colours or list(DIE_COLOURS):
            for k in range(seeds):
                t, ms = read_tray(style, colour, k, die_px, touching)
                res.total.add(t)
                res.by_style.setdefault(style, Tally()).add(t)
                res.by_colour.setdefault(colour, Tally()).add(t)
                res.ms.append(ms)
    return res


def _row(name: str, t: Tally) -> str:
    share = f"{100 * t.right / t.dice:.1f}%" if t.dice else "-"
    return f"| {name} | {t.dice} | {t.right} ({share}) | {t.wrong} | {t.unread} | {t.missed} | {t.extras} |"


def table(res: SweepResult) -> str:
    head = ["| trays of | dice | read right | wrong | unread | missed | extras |", "|---|---|---|---|---|---|---|"]
    lines = head + [_row(f"style {k}", v) for k, v in res.by_style.items()]
    lines += [_row(f"colour {k}", v) for k, v in res.by_colour.items()]
    lines.append(_row("**all**", res.total))
    if res.ms:
        lines.append(f"\nmedian {statistics.median(res.ms):.1f} ms a 640x480 tray, as read once "
                     f"({len(res.ms)} trays)")
    lines.append(machine_line())
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.render_bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--style", action="append", choices=list(STYLES), help="only this tray style (repeatable)")
    ap.add_argument("--colour", action="append", choices=list(DIE_COLOURS), help="only this die colour (repeatable)")
    ap.add_argument("--seeds", type=int, default=SEEDS, metavar="N", help=f"trays a style and colour ({SEEDS})")
    ap.add_argument("--die-px", type=float, default=None, metavar="PX",
                    help="every die this wide, in pixels of the 640x480 tray (default: each style's, 60)")
    ap.add_argument("--touching", type=int, default=0, metavar="N", help="dice pushed against another (0)")
    ap.add_argument("--models", type=Path, default=None, metavar="DIR",
                    help="read with the model files in DIR (e.g. newly trained nets)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.seeds < 1:
        ap.error("--seeds must be 1 or more")
    if args.die_px is not None and not 10 <= args.die_px <= 160:
        ap.error("--die-px must be between 10 and 160")
    if not 0 <= args.touching <= DICE_A_TRAY:
        ap.error(f"--touching must be between 0 and {DICE_A_TRAY}")
    if args.models is not None and not use_models(args.models):
        return 2
    t0 = time.perf_counter()
    res = run(args.style, args.colour, args.seeds, args.die_px, args.touching)
    if args.json:
        print(json.dumps(res.to_json()))
    else:
        print(table(res))
        print(f"({time.perf_counter() - t0:.0f} s in all, rendering included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
