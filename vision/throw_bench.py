"""Careless throws through the settle tracker: what it takes, and when (`python -m vision.throw_bench`).

Players throw fast and carelessly: a die rests on an edge for a moment and falls over, one rolls
on slowly after the others, one spins where it lies, a hand stays in the tray, a second throw
comes while the first is shown, two dice are thrown again. Each sequence here is rendered frame
by frame (vision.synthetic, the dice placed by a function of time) at a camera's frame rate and
fed to the real settle tracker and reader, as the table does. Every throw in it has a moment
when its last die comes to rest; counted:

    premature   a reading made final (FinalReading or DiceMoved) before that moment: a die
                still had to move or fall over, and the players saw a reading that was not theirs
    missed      a throw with no final reading after it came to rest
    twice       more than one final reading for one throw at rest (nothing moved in between)
    wrong       the first final reading after the rest, with values other than the dice's
    latency     from the rest to that final reading, in frames and in ms of sequence time

Sequence time, not the machine's: the figures are the same on any machine. Rendered trays only;
the moments of rest are the sequences' own (see SEQUENCES).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
from dataclasses import dataclass, field
from typing import Callable, Sequence

import cv2
import numpy as np

from .settle import DiceMoved, FinalReading, SettleConfig, SettleTracker
from .synthetic import HandSpec, render_scene, render_tray
from .types import Reading, TrueDie

Scene = Callable[[float], tuple[list[TrueDie], HandSpec | None]]
HAND = HandSpec(edge="bottom", pos=0.5, reach=200.0, width=90.0)
TUMBLE_S = 0.5            # a throw's hand and tumbling dice, before any die lies still


@dataclass(frozen=True)
class ThrowTruth:
    """One throw of a sequence: it starts at `start`, its last die is at rest at `rest`, and the
    dice then show `values`."""

    start: float
    rest: float
    values: tuple[int, ...]


@dataclass(frozen=True)
class ThrowSequence:
    """A rendered sequence: `scene(t)` gives the dice and the hand at time t (seconds)."""

    name: str
    duration: float
    scene: Scene
    throws: tuple[ThrowTruth, ...]
    jpeg: int | None = None               # each frame compressed at this JPEG quality (a webcam's MJPG)

    def frames(self, fps: float, drop: float = 0.0, seed: int = 0) -> list[tuple[float, np.ndarray]]:
        """(timestamp, frame) at `fps`, a share `drop` of them left out at random (a camera or a
        loop that falls behind)."""
        rng = np.random.default_rng(seed)
        out = []
        for i in range(int(self.duration * fps)):
            if i and drop and rng.random() < drop:
                continue
            t = i / fps
            dice, hand = self.scene(t)
            img = render_scene(dice, seed=1000 + i, hand=hand).image
            if self.jpeg:
                ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(self.jpeg)])
                img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
            out.append((t, img))
        return out


def _at(d: TrueDie, dx: float = 0.0, dy: float = 0.0, turn: float = 0.0, value: int | None = None,
        leaning: bool = False) -> TrueDie:
    return dataclasses.replace(d, centre=(d.centre[0] + dx, d.centre[1] + dy), angle_deg=d.angle_deg + turn,
                               value=d.value if value is None else value, leaning=leaning)


def _tumbling(dice: Sequence[TrueDie], t: float) -> list[TrueDie]:
    """Dice in the air and rolling: each frame somewhere else, another face up."""
    rng = np.random.default_rng(int(round(t * 1000)))
    return [_at(d, float(rng.uniform(-60, 60)), float(rng.uniform(-60, 60)), float(rng.uniform(0, 90)),
                int(rng.integers(1, 7))) for d in dice]


def _other_face(v: int) -> int:
    return 7 - v if v != 7 - v else 1          # (the face opposite, as a die falling over shows)


def _values(dice: Sequence[TrueDie]) -> tuple[int, ...]:
    return tuple(sorted(d.value for d in dice))


def plain(seed: int = 11, jpeg: int | None = None) -> ThrowSequence:
    """Thrown, tumbling with the hand in view, at rest."""
    dice = render_tray([3, 5, 1, 6, 2], seed=seed).truth

    def scene(t: float):
        return (_tumbling(dice, t), HAND) if t < TUMBLE_S else (list(dice), None)
    name = "plain" + (f", JPEG {jpeg}" if jpeg else "")
    return ThrowSequence(name, TUMBLE_S + 2.0, scene, (ThrowTruth(0.0, TUMBLE_S, _values(dice)),), jpeg)


def _one_die_late(name: str, dice: Sequence[TrueDie], index: int, rest: float,
                  late: Callable[[float], TrueDie | None]) -> ThrowSequence:
    """Thrown (tumbling, the hand in view), then the dice at rest but die `index`, which is where
    `late(t)` puts it (None: at its rest) until `rest`; the throw true from 0 to `rest`."""
    def scene(t: float):
        if t < TUMBLE_S:
            return _tumbling(dice, t), HAND
        out = list(dice)
        out[index] = late(t) or out[index]
        return out, None
    return ThrowSequence(name, rest + 2.0, scene, (ThrowTruth(0.0, rest, _values(dice)),))


def tip_over(pause: float, seed: int = 11) -> ThrowSequence:
    """The others at rest, one die rolls on for 0.4 s, stops on an edge (cocked, another face up)
    for `pause` s, and falls over flat."""
    dice = render_tray([3, 5, 1, 6, 2], seed=seed).truth
    d = dice[0]
    rolled, fall = TUMBLE_S + 0.4, TUMBLE_S + 0.4 + pause
    rest = fall + 0.1

    def late(t: float) -> TrueDie | None:
        if t < rolled:
            u = (t - TUMBLE_S) / 0.4
            return _at(d, -50 * (1 - u), 0, -90 * (1 - u), _other_face(d.value), leaning=True)
        if t < fall:
            return _at(d, -12, 0, 0, _other_face(d.value), leaning=True)
        return _at(d, -6, 0, 20) if t < rest else None
    return _one_die_late(f"tip over after {pause:.2f} s on an edge", dice, 0, rest, late)


def stop_and_go(pause: float, seed: int = 12) -> ThrowSequence:
    """One die stops flat for `pause` s (the others at rest), is knocked by the last die in and
    rolls on to another face a die's width away."""
    dice = render_tray([4, 4, 2, 6, 1], seed=seed).truth
    d = dice[1]
    stop, go = TUMBLE_S + 0.3, TUMBLE_S + 0.3 + pause
    rest = go + 0.3

    def late(t: float) -> TrueDie | None:
        if t < stop:
            u = (t - TUMBLE_S) / 0.3
            return _at(d, -120 + 50 * u, 0, 90 * u, _other_face(d.value))
        if t < go:
            return _at(d, -70, 0, 90, _other_face(d.value))
        if t < rest:
            u = (t - go) / 0.3
            return _at(d, -70 * (1 - u), 0, 90 * (1 - u), int(1 + (int(t * 30) % 6)))
        return None
    return _one_die_late(f"stops {pause:.2f} s, rolls on", dice, 1, rest, late)


def slow_roll(seed: int = 13) -> ThrowSequence:
    """One die rolls on slowly after the others stopped, slowing to a halt over 1.5 s."""
    dice = render_tray([6, 2, 2, 5, 3], seed=seed).truth
    d = dice[2]

    def late(t: float) -> TrueDie:
        left = (1 - min(1.0, (t - TUMBLE_S) / 1.5)) ** 2
        return _at(d, -90 * left, 0, -180 * left)
    return _one_die_late("one die rolls on 1.5 s", dice, 2, TUMBLE_S + 1.5, late)


def spinning(seed: int = 14) -> ThrowSequence:
    """One die spins where it lies after the others stopped, slowing over 1 s."""
    dice = render_tray([1, 1, 3, 4, 6], seed=seed).truth
    d = dice[3]

    def late(t: float) -> TrueDie:
        return _at(d, turn=-200 * (1 - min(1.0, (t - TUMBLE_S) / 1.0)) ** 2)
    return _one_die_late("one die spins 1 s", dice, 3, TUMBLE_S + 1.0, late)


def hand_lingers(seed: int = 15) -> ThrowSequence:
    """The thrower's hand rests in the tray 0.8 s after the dice stopped, then goes."""
    dice = render_tray([5, 5, 5, 2, 1], seed=seed).truth
    gone = TUMBLE_S + 0.8

    def scene(t: float):
        if t < TUMBLE_S:
            return _tumbling(dice, t), HAND
        return list(dice), (HAND if t < gone else None)
    return ThrowSequence("hand rests 0.8 s", gone + 2.0, scene, (ThrowTruth(0.0, gone, _values(dice)),))


def second_throw(shown: float = 0.9, seed: int = 16) -> ThrowSequence:
    """Thrown; `shown` s later, while the reading is shown, all thrown again."""
    first = render_tray([3, 5, 1, 6, 2], seed=seed).truth
    again = render_tray([4, 4, 2, 6, 1], seed=seed + 100).truth
    start2 = TUMBLE_S + shown

    def scene(t: float):
        if t < TUMBLE_S:
            return _tumbling(first, t), HAND
        if t < start2:
            return list(first), None
        if t < start2 + TUMBLE_S:
            return _tumbling(again, t), HAND
        return list(again), None
    return ThrowSequence(f"thrown again after {shown:.1f} s", start2 + TUMBLE_S + 2.0, scene,
                         (ThrowTruth(0.0, TUMBLE_S, _values(first)),
                          ThrowTruth(start2, start2 + TUMBLE_S, _values(again))))


def partial_rethrow(seed: int = 18) -> ThrowSequence:
    """Thrown; 1.5 s later two of the dice are picked up and thrown again, the others left."""
    first = render_tray([3, 5, 1, 6, 2], seed=seed).truth
    spots = render_tray([4, 4, 2, 6, 1], seed=seed + 100).truth
    second = list(first)
    for k in (0, 3):          # (two new places clear of the dice left: those of another tray's dice)
        far = max(spots, key=lambda s: min(np.hypot(s.centre[0] - o.centre[0], s.centre[1] - o.centre[1])
                                           for i, o in enumerate(second) if i != k))
        second[k] = dataclasses.replace(first[k], centre=far.centre, angle_deg=far.angle_deg,
                                        value=_other_face(first[k].value))
        spots = [s for s in spots if s is not far]
    start2 = TUMBLE_S + 1.5

    def scene(t: float):
        if t < TUMBLE_S:
            return _tumbling(first, t), HAND
        if t < start2:
            return list(first), None
        if t < start2 + TUMBLE_S:
            moving = _tumbling([second[0], second[3]], t)
            return [moving[0], first[1], first[2], moving[1], first[4]], HAND
        return list(second), None
    return ThrowSequence("two of five thrown again", start2 + TUMBLE_S + 2.0, scene,
                         (ThrowTruth(0.0, TUMBLE_S, _values(first)),
                          ThrowTruth(start2, start2 + TUMBLE_S, _values(second))))


def sequences() -> list[ThrowSequence]:
    """Every careless throw the benchmark plays."""
    return ([plain(), plain(jpeg=50)] + [tip_over(p) for p in (0.2, 0.35, 0.5)]
            + [stop_and_go(p) for p in (0.2, 0.35)]
            + [slow_roll(), spinning(), hand_lingers(), second_throw(), partial_rethrow()])


@dataclass
class Outcome:
    """What the tracker made of one sequence at one frame rate."""

    name: str
    fps: float
    premature: list[tuple[float, tuple[int | None, ...]]] = field(default_factory=list)  # (t, values)
    missed: int = 0
    twice: int = 0
    wrong: int = 0
    latency_frames: list[int] = field(default_factory=list)
    latency_ms: list[float] = field(default_factory=list)


def _sorted_values(reading: Reading) -> tuple[int | None, ...]:
    return tuple(sorted((d.value for d in reading.dice), key=lambda v: (v is None, v or 0)))


def play(seq: ThrowSequence, fps: float, read: Callable[[np.ndarray], Reading], *,
         config: SettleConfig | None = None, drop: float = 0.0) -> Outcome:
    """Feed `seq` at `fps` to a fresh tracker (reading each frame it wants read) and count."""
    tracker = SettleTracker(config or SettleConfig())
    out = Outcome(seq.name + (f", {drop:.0%} of frames dropped" if drop else ""), fps)
    seen: dict[int, int] = {}           # throw index -> final readings after its rest
    frames = seq.frames(fps, drop)
    times = [t for t, _img in frames]
    for t, img in frames:
        tracker.update(img, t)
        if tracker.wants_reading:
            tracker.offer(read(img), t)
        for ev in tracker.drain_events():
            if not isinstance(ev, (FinalReading, DiceMoved)):
                continue
            k = max(i for i, th in enumerate(seq.throws) if th.start <= t or i == 0)
            th = seq.throws[k]
            values = _sorted_values(ev.reading)
            if t < th.rest:
                out.premature.append((t, values))
                continue
            seen[k] = seen.get(k, 0) + 1
            if seen[k] > 1:
                out.twice += 1
                continue
            if values != th.values:
                out.wrong += 1
            out.latency_frames.append(sum(1 for x in times if th.rest <= x <= t))
            out.latency_ms.append((t - th.rest) * 1000)
    out.missed = sum(1 for k in range(len(seq.throws)) if k not in seen)
    return out


def run(fps_list: Sequence[float] = (10, 15, 20, 30), config: SettleConfig | None = None,
        drop: float = 0.0) -> list[Outcome]:
    from .reader import read
    cv2.setNumThreads(1)
    return [play(seq, fps, read, config=config, drop=drop) for fps in fps_list for seq in sequences()]


def table(outcomes: Sequence[Outcome]) -> str:
    lines = [f"{'sequence':58} {'fps':>4} {'premature':>9} {'missed':>6} {'twice':>5} {'wrong':>5} "
             f"{'frames':>6} {'ms':>6}"]
    for o in outcomes:
        frames = "/".join(str(f) for f in o.latency_frames) or "-"
        ms = "/".join(f"{m:.0f}" for m in o.latency_ms) or "-"
        lines.append(f"{o.name:58} {o.fps:4.0f} {len(o.premature):9d} {o.missed:6d} {o.twice:5d} {o.wrong:5d} "
                     f"{frames:>6} {ms:>6}")
    for fps in sorted({o.fps for o in outcomes}):
        some = [o for o in outcomes if o.fps == fps]
        ms = [m for o in some for m in o.latency_ms]
        lines.append(f"{fps:.0f} fps: {sum(len(o.premature) for o in some)} premature, "
                     f"{sum(o.missed for o in some)} missed, {sum(o.twice for o in some)} twice, "
                     f"{sum(o.wrong for o in some)} wrong; latency median {statistics.median(ms):.0f} ms, "
                     f"max {max(ms):.0f} ms" if ms else f"{fps:.0f} fps: nothing final")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.throw_bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fps", type=float, action="append", help="camera frame rate (repeatable; 10, 15, 20, 30)")
    ap.add_argument("--drop", type=float, default=0.0, help="share of frames left out at random (0)")
    ap.add_argument("--settle", action="append", default=[], metavar="KNOB=VALUE",
                    help="a settle tracker knob (as in [vision.settle]), e.g. still_frames=3")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    knobs = {}
    for item in args.settle:
        name, _, value = item.partition("=")
        knobs[name] = float(value) if "." in value else int(value)
    outcomes = run(args.fps or (10, 15, 20, 30), SettleConfig(**knobs), args.drop)
    if args.json:
        print(json.dumps([dataclasses.asdict(o) for o in outcomes]))
    else:
        print(table(outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
