"""A camera knocked since calibration, as `dicetable check` reads it from the table's log.

The table tells a knock once (controller/knock_notice.py): a warning naming how far the tray moved
("For the staff: the tray is not where it was calibrated (moved 10 px right): ..."), another only
when the camera moved further, a line when the tray is back where it was calibrated, and a line
naming the calibration in use at each start. While the table runs, the camera is the table's:
`dicetable check` could not look through it (or looked at a moment with the walls hidden), and
said the calibration was ok while every throw of the evening had been read off a knocked camera.
A camera raised or lowered is named so ("camera raised since calibration: the tray looks 10%
smaller").
"""
from __future__ import annotations

import re

from .knock_notice import BACK_WORDS, CALIBRATION_WORDS

KNOCK = "the tray is not where it was calibrated"
_HOW = re.compile(re.escape(KNOCK) + r" \((.+?)\)")
#: a camera raised or lowered since calibration (vision.tray_moved.moved_words)
_ZOOM = re.compile(r"the camera was (raised|lowered) since calibration \((.+?)\)")


def knocks_in_log(lines: list[str]) -> list[str]:
    """How far each knock told since the calibration in use moved the camera ("moved 10 px
    right"), oldest first: none after the tray was said back, or after the table started with
    another calibration (a restart with the same one keeps them: the camera was not put right)."""
    told: list[str] = []
    calibration = None
    for line in lines:
        if CALIBRATION_WORDS in line:
            now = line.split(CALIBRATION_WORDS, 1)[1].strip()
            if now != calibration:
                told = []
            calibration = now
        elif BACK_WORDS in line:
            told = []
        elif KNOCK in line or _ZOOM.search(line):
            told.append(knock_phrase(line))
    return told


def knock_phrase(words: str) -> str:
    """How far the reader's knock `words` say the camera moved ("moved 10 px right"), or how
    its height changed ("raised: the tray looks 10% smaller")."""
    how = _HOW.search(words)
    if how:
        return how.group(1)
    zoom = _ZOOM.search(words)
    return f"{zoom.group(1)}: {zoom.group(2)}" if zoom else "its felt past the calibrated box"


def check_line(phrase: str, note: str = "") -> str:
    """The check's words for the knock `phrase` (of `knock_phrase`), `note` after what it says:
    from the log or from what the table holds as told (controller/told_report.py)."""
    height = re.match(r"(raised|lowered): (.+)", phrase)
    if height:     # "camera raised since calibration: the tray looks 10% smaller; run dicetable calibrate"
        return f"camera {height.group(1)} since calibration: {height.group(2)}{note}; run dicetable calibrate"
    return f"camera knocked since calibration: {phrase}{note}; run dicetable calibrate"


def knocks_said(lines: list[str] | str) -> tuple[str, str] | None:
    """(level, text) of the check's line on knocks the table told, None when it told none (or
    its log could not be read: the corrections line says why)."""
    if isinstance(lines, str):
        return None
    told = knocks_in_log(lines)
    if not told:
        return None
    times = f" (told {len(told)} times: it moved further)" if len(told) > 1 else ""
    return "warning", check_line(told[-1], times)
