"""The demo table: automatic players throw dice in front of a synthetic camera and press buttons.

Everything after the camera and the buttons is the real table: the settle tracker, the pip
reader, the table flow, the rules and the screen. The director only plays the players' part:
it throws (renders a throw animation of the values it rolled), looks at what the table read,
and corrects a misread die with the buttons as a player would (long OK, UP/DOWN, OK).
"""
from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

from vision.synthetic import ThrowAnimation, TrayStyle, render_tray
from vision.types import TrueDie

from .autoplay import AutoPlayer
from .rules import Decide, Throw
from .table import CONFIRM, DECIDE, WAIT_DICE, TableFlow

log = logging.getLogger(__name__)


@dataclass
class Press:
    """A button event as the hardware sources make them."""

    name: str
    kind: str = "press"
    source: str = "demo"
    timestamp: float = 0.0


@dataclass
class DemoStats:
    throws: int = 0
    rethrows: int = 0          # the table could not use a throw and the player threw again
    misreads: int = 0          # readings the director had to correct by hand
    dice_read: int = 0
    frames: int = 0
    notes: list[str] = field(default_factory=list)


def _left_to_right(dice: list[TrueDie]) -> list[TrueDie]:
    return sorted(dice, key=lambda d: (d.centre[0], d.centre[1]))


class DemoDirector:
    def __init__(self, flow: TableFlow, rng: random.Random, *, size: tuple[int, int] = (640, 480),
                 fps: float = 10.0, style: TrayStyle | None = None, patience_frames: int = 30,
                 brisk: bool = False):
        self.flow = flow
        self.rng = rng
        self.bot = AutoPlayer(rng)
        self.size = size
        self.fps = fps
        # the camera frames the whole tray with a margin, as a real rig should
        self.style = style or TrayStyle(border_px=28, die_px=50.0)
        self.patience = patience_frames
        self.brisk = brisk  # headless: a shorter wind-up before each throw (nobody is watching)
        self.truth: list[TrueDie] = []          # resting dice, left to right
        self.stats = DemoStats()
        self._thrown_for: int | None = None
        self._idle = 0
        self._last = self._empty_frame()
        self._queue: list[Press] = []
        self._handled: tuple | None = None

    def calibrate(self) -> dict:
        """Calibrate the synthetic camera the way an installer does: a few frames of the empty
        tray and of one throw. The reader then knows the tray region and the die size."""
        from vision.calibrate import calibrate
        from vision.reader import read

        empty = [render_tray([], seed=s, size=self.size, style=self.style).image for s in (1, 2, 3)]
        thrown = [render_tray([1, 2, 3, 4, 5], seed=s, size=self.size, style=self.style).image for s in (4, 5, 6)]
        return calibrate(empty, thrown, reader=read).to_dict()   # as `dicetable calibrate` does

    def _empty_frame(self) -> np.ndarray:
        return next(iter(ThrowAnimation([], seed=self.rng.randrange(2**31), size=self.size, fps=self.fps,
                                        style=self.style, idle_frames=1, still_frames=1)))

    # ------------------------------------------------------------------------------ camera
    def frames(self) -> Iterator[np.ndarray]:
        """The synthetic camera: still frames, and a throw whenever the game waits for one."""
        while True:
            flow = self.flow
            key = len(flow.log.inputs)
            if flow.phase == WAIT_DICE and isinstance(flow.expect, Throw):
                if self._thrown_for != key or self._idle > self.patience:
                    if self._thrown_for == key:
                        self.stats.rethrows += 1
                        log.info("demo: the table could not use the throw; throwing again")
                    yield from self._throw(flow.expect)
                    self._thrown_for = key
                    self._idle = 0
                    continue
                self._idle += 1
            else:
                self._idle = 0
            self.stats.frames += 1
            yield self._last

    def _throw(self, exp: Throw) -> Iterator[np.ndarray]:
        held = self._held_dice(exp)
        values = self.bot.throw(exp)
        anim = ThrowAnimation(values, held=held, seed=self.rng.randrange(2**31), size=self.size, fps=self.fps,
                              style=self.style, still_frames=8, idle_frames=1 if self.brisk else None)
        self.stats.throws += 1
        self.truth = _left_to_right(list(anim.final.truth))  # known before the dice come to rest
        for frame in anim:
            self.stats.frames += 1
            self._last = frame
            yield frame

    def _held_dice(self, exp: Throw) -> list[TrueDie]:
        """The dice that stay on the tray: those the flow held, matched by value."""
        want = list(exp.held)
        if not want:
            return []
        held_positions = [i for i, h in enumerate(self.flow.holds) if h] if self.flow.holds else []
        order = held_positions + [i for i in range(len(self.truth)) if i not in held_positions]
        chosen: list[TrueDie] = []
        for i in order:
            if i < len(self.truth) and self.truth[i].value in want:
                want.remove(self.truth[i].value)
                chosen.append(self.truth[i])
        return chosen + [v for v in want]  # values not on the tray yet are placed fresh

    # ----------------------------------------------------------------------------- buttons
    def presses(self) -> list[Press]:
        """Buttons to press now (one at a time, so the screen shows each step)."""
        if self._queue:
            return [self._queue.pop(0)]
        flow = self.flow
        stamp = (flow.phase, len(flow.log.inputs), flow.pending is not None)
        if flow.phase == CONFIRM and flow.pending is not None and stamp != self._handled:
            self._handled = stamp
            self._queue = self._check_reading()
        elif flow.phase == DECIDE and stamp != self._handled:
            self._handled = stamp
            exp = flow.expect
            assert isinstance(exp, Decide)
            self._queue = self._decision_presses(self.bot.decide(flow.state, exp))
        return [self._queue.pop(0)] if self._queue else []

    def _check_reading(self) -> list[Press]:
        """Compare the reading on screen with the dice really thrown; correct it if wrong."""
        flow = self.flow
        truth_values = self._truth_for(flow.pending_boxes)
        self.stats.dice_read += len(truth_values)
        if truth_values == list(flow.pending):
            return [Press("OK")]
        self.stats.misreads += 1
        note = f"misread {list(flow.pending)} (true {truth_values}): corrected with the buttons"
        self.stats.notes.append(note)
        log.warning("demo: %s", note)
        presses = [Press("OK", "hold")]
        for i, (seen, true) in enumerate(zip(flow.pending, truth_values)):
            presses += [Press("UP")] * ((true - seen) % 6)
            if i < len(truth_values) - 1:
                presses.append(Press("OK"))
        presses.append(Press("OK", "hold"))
        return presses

    def _truth_for(self, boxes) -> list[int]:
        out = []
        for box in boxes:
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            nearest = min(self.truth, key=lambda d: (d.centre[0] - cx) ** 2 + (d.centre[1] - cy) ** 2)
            out.append(nearest.value)
        return out

    def _decision_presses(self, data: dict) -> list[Press]:
        flow = self.flow
        entries = flow.menu()
        # a secret choice: the player first opens it (the others look away)
        presses: list[Press] = [] if flow.choices_shown else [Press("OK")]
        if data["type"] == "reroll":
            keep = list(data["keep"])
            want = [False] * len(flow.tray_values)
            for i, v in enumerate(flow.tray_values):
                if v in keep:
                    keep.remove(v)
                    want[i] = True
            presses += [Press(f"HOLD{i + 1}") for i, w in enumerate(want) if w != flow.holds[i]]
            target = next(i for i, e in enumerate(entries) if e.action == "reroll")
        else:
            target = next(i for i, e in enumerate(entries) if e.action == "option" and e.key == data["option"])
        steps = target - flow.cursor
        presses += [Press("DOWN" if steps > 0 else "UP")] * abs(steps)
        presses.append(Press("OK"))
        return presses
