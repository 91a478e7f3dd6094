"""Dice or frames of another size than calibrated, as `dicetable check` reads them from the table's log.

The table tells them once (controller/size_notice.py): a warning naming the dice's size ("For the
staff: the dice are bigger than the ones calibrated (70 px, calibrated 50 px): ..."), or the
frames' ("... taken on 640x480 frames and the camera sends 800x600 ..."), again when it changes,
and a line when it is gone. While the table runs the camera is the table's: `dicetable check`
could not see the dice played (it looks at an empty tray, if it can look at all), and said the
calibration was ok while every throw of the evening had been read at another size.
"""
from __future__ import annotations

import re

from .correction_report import NEW_GAME
from .knock_notice import CALIBRATION_WORDS
from .size_notice import DICE_BACK_WORDS, FRAMES_BACK_WORDS, dice_size_of

DICE = "than the ones calibrated ("
FRAMES = "the calibration was taken on "
_FRAMES = re.compile(re.escape(FRAMES) + r"(\d+x\d+) frames and the camera sends (\d+x\d+)")


def sizes_in_log(lines: list[str]) -> list[str]:
    """The check's words for each size the table told since the calibration in use and still
    holds (not said gone since), dice first: "dice 1.4x the calibrated size since the game of
    Thirteen for Ann". A restart on the same calibration keeps them; another calibration clears."""
    told: dict[str, str] = {}        # "dice" / "frames": what was told
    since: dict[str, str] = {}       # ... and since which game (the first told of it, unbroken)
    calibration, game = None, "the table started"
    for line in lines:
        if CALIBRATION_WORDS in line:
            now = line.split(CALIBRATION_WORDS, 1)[1].strip()
            if now != calibration:
                told, since = {}, {}
            calibration, game = now, "the table started"
        elif NEW_GAME in line:
            game = "the game of " + line.split(NEW_GAME, 1)[1].strip()
        elif DICE_BACK_WORDS in line or FRAMES_BACK_WORDS in line:
            what = "dice" if DICE_BACK_WORDS in line else "frames"
            told.pop(what, None)
            since.pop(what, None)
        elif DICE in line and "dice are" in line:
            told["dice"] = dice_phrase(line)
            since.setdefault("dice", game)
        elif FRAMES in line:
            told["frames"] = frames_phrase(line)
            since.setdefault("frames", game)
    return [f"{told[what]} since {since[what]}" for what in ("dice", "frames") if what in told]


def dice_phrase(words: str) -> str:
    """The check's words for the reader's `die_size` words ("dice 1.5x the calibrated size")."""
    size = dice_size_of(words)
    return f"dice {size.times:.1f}x the calibrated size" if size.times else f"dice {size.way} than the calibrated ones"


def frames_phrase(words: str) -> str:
    """The check's words for the reader's `calibration_size` words ("frames of 560x480, calibrated
    on 640x480")."""
    frames = _FRAMES.search(words)
    return (f"frames of {frames.group(2)}, calibrated on {frames.group(1)}" if frames
            else "frames of another size than calibrated")


def fix_words(said: str) -> str:
    """What to do about a size told (`said` the check's words for it)."""
    return "with the dice that are played" if said.startswith("dice") else "with the camera as it is now"


def sizes_said(lines: list[str] | str) -> list[tuple[str, str]]:
    """(level, text) of the check's lines on sizes the table told (none when it told none, or its
    log could not be read: the corrections line says why)."""
    if isinstance(lines, str):
        return []
    out = []
    for said in sizes_in_log(lines):
        out.append(("warning", f"{said}: run dicetable calibrate {fix_words(said)}"))
    return out
