"""The dice's size and the frames' size against the calibration, told once (controller/table.py).

The reader names dice bigger or smaller than calibrated (`die_size`, vision/die_size.py: read at
their own size) and frames of another size than the calibration's (`calibration_size`: the
calibration is not used). The table said it, as a warning in the log and on the staff's banner,
at every settled reading: with a café's own dice 1.4 times the calibrated size, every throw of
the evening logged it and put the banner over the players' game. Now each is told once (a
`ToldOnce`), again when it changes (the dice another size again, other frames), and a line is
logged when it is gone (the dice read at the calibrated size, the frames the calibrated ones).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from vision.die_size import MIN_DICE, box_side
from vision.types import CALIBRATION_SIZE, DIE_SIZE, Reading

from .told_once import ToldOnce

#: how much the dice's size (times the calibrated one) must change from the size told to be told
#: again: above the measure's own jitter from throw to throw, under a set of dice changed
FURTHER_TIMES = 0.2
#: the log lines when a size told is gone
DICE_BACK_WORDS = "camera: the dice are read at the calibrated size again (the dice's size told before is gone)"
FRAMES_BACK_WORDS = "camera: the frames are the calibrated size again (the frames' size told before is gone)"

#: the dice are the calibrated size again when their boxes measure this many times it: 12 rendered
#: throws of dice of the calibrated size measured 0.97-1.11 times it; 0.85 and 1.15 times it,
#: 0.86-0.94 and 1.11-1.28; 0.7 and 1.4 times it (told on some throws), 0.72-0.81 and 1.29-1.49
GONE_BETWEEN = (0.85, 1.2)

_SIZES = re.compile(r"\((\d+) px, calibrated (\d+) px\)")
_FRAMES = re.compile(r"taken on (\d+x\d+) frames and the camera sends (\d+x\d+)")


@dataclass(frozen=True)
class DiceSize:
    """The dice's size as the reader's `die_size` notice names it: "bigger" or "smaller", and
    how many times the calibrated size (0: the notice's words did not say)."""

    way: str
    times: float

    def changed(self, told: "DiceSize") -> bool:
        """Are these dice another size than the ones told, by enough to be told again?"""
        return self.way != told.way or abs(self.times - told.times) >= FURTHER_TIMES


def dice_size_of(message: str) -> DiceSize:
    """The size a `die_size` message names ("the dice are bigger than the ones calibrated (70 px,
    calibrated 50 px): ...")."""
    sizes = _SIZES.search(message)
    times = int(sizes.group(1)) / int(sizes.group(2)) if sizes and int(sizes.group(2)) else 0.0
    return DiceSize("smaller" if "smaller" in message else "bigger", times)


def calibrated_px(message: str) -> float | None:
    """The calibrated die size (px of the camera's frame) a `die_size` message names."""
    sizes = _SIZES.search(message)
    return float(sizes.group(2)) if sizes else None


def dice_as_calibrated(reading: Reading, calibrated: float | None) -> bool | None:
    """Whether `reading` shows dice of the calibrated size: at least MIN_DICE dice whose boxes'
    median side (`box_side`, px of the camera's frame) is within GONE_BETWEEN times `calibrated`.
    None when it cannot tell (an empty tray, a lone die: a hand alone can look like one)."""
    if calibrated is None or len(reading.dice) < MIN_DICE:
        return None
    side = float(np.median([box_side(d.box) for d in reading.dice]))
    return GONE_BETWEEN[0] * calibrated < side < GONE_BETWEEN[1] * calibrated


def banner_words(message: str) -> str:
    """A size notice as the banner says it. The reader's words ("For the staff: the dice are bigger
    than the ones calibrated (76 px, calibrated 50 px): run dicetable calibrate again with the dice
    played. The game goes on.") took three pages at 320x240, and the first, cut after "calibrated
    (76", was all the players' throw left on screen: what to do was never read. Now it is on the
    first page; the log keeps the reader's words."""
    return f"For the staff: {short_words(message)}: calibrate again. The game goes on."


def short_words(message: str) -> str:
    """A size notice in a few words ("dice 1.5x the calibrated size", "another camera view
    (560x480)"): the banner's, and the log's line at a start that a size told before is not told
    again. They leave out the reader's words, which `dicetable check` counts as a size told."""
    frames = _FRAMES.search(message)
    if frames:
        return f"another camera view ({frames.group(2)})"
    size = dice_size_of(message)
    return f"dice {size.times:.1f}x the calibrated size" if size.times else f"dice {size.way} than calibrated"


class SizeWatch:
    """Decides, reading by reading, when the staff are told of dice or frames of another size than
    calibrated. `seen` gives the (what, message) pairs to say: "tell" with the reader's notice,
    "back" with the line that the size told is gone."""

    def __init__(self) -> None:
        self.dice: ToldOnce[DiceSize] = ToldOnce(DiceSize.changed)
        self.frames: ToldOnce[str] = ToldOnce(lambda now, told: now != told)
        self._dice_message = ""

    @property
    def dice_words(self) -> str:
        """The reader's words for the dice's size told ("" with none told)."""
        return self._dice_message if self.dice.told is not None else ""

    def restore(self, dice: DiceSize | None, dice_words: str, frames: str | None,
                dice_clear: int = 0, frames_clear: int = 0) -> None:
        """Take up the sizes told before a restart (controller/told_kept.py), and the readings
        since that showed each gone: the same size is not told again, another is, and the size
        gone is a line (`dice_words` name the calibrated size the dice are measured against)."""
        self.dice.restore(dice, dice_clear)
        self._dice_message = dice_words if dice is not None else ""
        self.frames.restore(frames, frames_clear)

    def seen(self, reading: Reading) -> list[tuple[str, str]]:
        """What to say of a settled `reading`'s size notices, in order."""
        said: list[tuple[str, str]] = []
        frames = next((p.message for p in reading.problems if p.code == CALIBRATION_SIZE), None)
        told = self.frames.seen(frames)
        if told == "tell":
            said.append(("tell", frames or ""))
        elif told == "back":
            said.append(("back", FRAMES_BACK_WORDS))
        dice = next((p.message for p in reading.problems if p.code == DIE_SIZE), None)
        if dice is None:
            gone = dice_as_calibrated(reading, calibrated_px(self._dice_message))
            if self.dice.seen(None, gone=gone) == "back":
                said.append(("back", DICE_BACK_WORDS))
        elif self.dice.seen(dice_size_of(dice)) == "tell":
            self._dice_message = dice
            said.append(("tell", dice))
        return said
