"""What the table still holds as told (told.json), for `dicetable check` where its log is silent.

`dicetable check` names a knocked camera or dice of another size from the table's log
(knock_report.py, size_report.py: the last lines of `journalctl -u dicetable`,
correction_report.LOG_LINES). Before the table
kept what it told across restarts, each start told it again, so the log always held it. Now it is
told once (controller/told_kept.py): a camera left knocked for longer than those lines, or a
check run by a user who may not read the log, found no line and said the calibration was fine
while the table held the knock as told and said nothing more. The check now reads the table's
kept file too, for what the log says nothing of (neither told nor gone).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from .knock_notice import BACK_WORDS
from .knock_report import check_line, knock_phrase, knocks_in_log
from .size_notice import DICE_BACK_WORDS, FRAMES_BACK_WORDS
from .size_report import dice_phrase, fix_words, frames_phrase, sizes_in_log
from .told_kept import KEPT, BadFile, calibration_id, read_kept

#: said after what the check read from the kept file rather than from the log
HELD = "told earlier, still held by the table"


def kept_said(journal_dir: Path, calibration: Mapping[str, Any] | None,
              lines: list[str] | str) -> list[tuple[str, str]]:
    """(level, text) of the check's lines on what the table holds as told against the
    `calibration` in use, for each condition its log `lines` say nothing of (a str: the log
    could not be read). A missing or bad file, or one of another calibration, says nothing."""
    try:
        found = read_kept(Path(journal_dir) / KEPT)
    except (OSError, BadFile):
        return []
    if found is None or found.calibration != calibration_id(calibration):
        return []
    knock, knock_words, dice, dice_words, frames = found.knock, found.knock_said, found.dice, found.dice_said, \
        found.frames
    log = lines if isinstance(lines, list) else []
    sizes = sizes_in_log(log)
    out = []
    if knock is not None and not knocks_in_log(log) and not any(BACK_WORDS in line for line in log):
        out.append(("warning", check_line(knock_phrase(knock_words), f" ({HELD})")))
    for what, words, back in (("dice", dice_words if dice is not None else None, DICE_BACK_WORDS),
                              ("frames", frames, FRAMES_BACK_WORDS)):
        if not words or any(s.startswith(what) for s in sizes) or any(back in line for line in log):
            continue
        said = dice_phrase(words) if what == "dice" else frames_phrase(words)
        out.append(("warning", f"{said} ({HELD}): run dicetable calibrate {fix_words(said)}"))
    return out
