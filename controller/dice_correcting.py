"""Dice set by the players with the buttons: entered by hand, a reading corrected, dice already accepted corrected.

Three ways in (controller/correction.py names them): a long OK on the reading shown, on a tray
the table refused (its dice read, the rest stand-ins), or after the dice were accepted (a late
correction, until the next choice, also after a power cut). UP/DOWN set the die under the cursor,
OK passes to the next, a long OK (or OK on the last die) accepts, BACK goes back where the
correction started. Each correction is counted and logged with the dice read and set, and a
table whose players keep correcting is named for the staff (controller.correction.Tally).

Functions of the flow (controller/table.py), as reading_intake.py's are: the state stays on
`TableFlow`; the dice set are applied by its `_commit_pending`, the only way into the game. They
log under the flow's logger name, `controller.table`, which the staff filter on.
"""
from __future__ import annotations

import logging
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from .correction import BLANK, OFFERED, SHOWN, Opened, changed_dice, holds_kept
from .reading_intake import pending_gathered, take_reading
from .rules import Throw
from .rules.base import multiset_contains
from .short_panel import reworded
from .table_phases import CONFIRM, CORRECT, DECIDE, WAIT_DICE
from .take_backs import AppliedReading
from .tray_words import staff_notice_words

if TYPE_CHECKING:
    from .table import TableFlow

log = logging.getLogger("controller.table")

CORRECTED_WORDS = "Corrected values accepted."
#: what the screen says as dice already accepted are corrected (a long OK, or a resume in the middle of it)
CORRECTING_READ = ("Correcting the dice read: UP/DOWN change the die, OK next die, hold OK when done, "
                   "BACK leaves them as read.")


def correction_takeable(flow: TableFlow) -> bool:
    """Whether the dice set now would be taken: they keep the dice held. The table said
    *Corrected values accepted.* before refusing a held die set to another value, and the log
    the staff read had the correction accepted and refused at once."""
    exp = flow.expect
    return flow.pending is not None and isinstance(exp, Throw) and multiset_contains(flow.pending, exp.held)


def left_out(flow: TableFlow, kept: int) -> str:
    """What the entry of a tray with more dice than the game needs leaves out (the surest are
    kept): the players saw a die unmarked on the tray, and nothing said it did not count."""
    extra = len(flow.last_reading.dice) - kept if flow.last_reading is not None else 0
    if extra <= 0:
        return ""
    return (" The die not outlined does not count." if extra == 1
            else f" The {extra} dice not outlined do not count.")


def correction_button(flow: TableFlow, kind: str, name: str) -> None:
    assert flow.pending is not None
    n = len(flow.pending)
    if name.startswith("HOLD") and name[4:].isdigit() and 1 <= int(name[4:]) <= n:
        flow.correct_index = int(name[4:]) - 1
    elif name in ("UP", "DOWN"):
        step = 1 if name == "UP" else -1
        flow.pending[flow.correct_index] = (flow.pending[flow.correct_index] - 1 + step) % 6 + 1
        checked_by_players(flow)
    elif name == "OK":
        checked_by_players(flow)      # (passed with OK: the players say its value is right)
        if kind == "hold" or flow.correct_index >= n - 1:
            if correction_takeable(flow):   # (else _commit_pending says why not: not both)
                flow.say(CORRECTED_WORDS)
            flow._confirm_at = flow.clock()
            flow.phase = CONFIRM
            flow._commit_pending(corrected=True)
        else:
            flow.correct_index += 1
    elif name == "BACK":
        if flow._amending is not None:      # the dice go back in as they were read
            flow.pending, flow.pending_boxes = list(flow._amending.values), list(flow._amending.boxes)
            flow._commit_pending()
            flow.say("Correction cancelled: the dice stay as they were read.")
            return
        leave_correction(flow)


def leave_correction(flow: TableFlow) -> None:
    """BACK while correcting (not a late correction): back where the correction started. A
    reading shown is shown again as read, counting as it would have (BACK again drops it); a
    refused tray's dice stay offered to a long OK; else nothing is left. It was "throw again"
    for all: a right reading opened by a slow OK and left with BACK was lost, the dice lying
    unread in the tray, and a refused tray's dice came back at a second long OK as five 1s.
    A tray read while they corrected is taken instead, as it would have been: a die pushed
    into view during the entry was never read, the table waiting for a throw over five dice."""
    opened, flow._opened = flow._opened, None
    seen, flow._seen_while_correcting = flow._seen_while_correcting, None
    if seen is not None:
        flow.pending = None
        flow.phase = WAIT_DICE
        take_reading(flow, seen)
        if flow.message is None:
            flow.say("Correction cancelled: the dice as the camera reads them now.")
        return
    if opened is not None and opened.origin == SHOWN:
        flow.pending, flow.pending_boxes = list(opened.values), list(opened.boxes)
        flow.pending_check = list(opened.doubtful)
        flow._gathered_for = flow.pending if opened.gathered else None
        flow.phase = CONFIRM
        if opened.confirm_at != float("inf"):      # (its moment again: they looked at it for a while)
            wait = max(flow.confirm_seconds, flow.check_seconds) if flow.pending_check else flow.confirm_seconds
            flow._confirm_at = flow.clock() + wait
        else:
            flow._confirm_at = opened.confirm_at
        flow.say("Correction cancelled: the dice as read. OK accepts, BACK to throw again.")
        return
    flow.pending = None
    flow.phase = WAIT_DICE
    if opened is not None and opened.origin == OFFERED:
        flow._correctable = (list(opened.values), list(opened.boxes), list(opened.doubtful))
        flow.say("Correction cancelled: nothing entered. Throw again, or hold OK to enter the values.")
        return
    flow.say("Correction cancelled: throw again.")


def hold_again(flow: TableFlow, read: Sequence[int], final: Sequence[int]) -> None:
    """After a late correction (or one left as read), the dice the player had held before it
    are held again (controller.correction.holds_kept), journaled and named."""
    tray, holds = flow._held_when_amended
    flow._held_when_amended = ([], [])
    if not any(holds) or len(flow.holds) != len(final):
        return
    flow.holds = holds_kept(tray, holds, read, final)
    if any(flow.holds):
        flow._journal_holds()
        if flow.message is not None and flow.message.text.startswith(CORRECTED_WORDS):
            flow.say(f"{CORRECTED_WORDS} Still held: {flow.held_text()}.")


def count_throw(flow: TableFlow, values: Sequence[int], late: AppliedReading | None, corrected: bool,
                 at: int | None = None) -> None:
    """Count a throw applied in the game's tally; a correction is logged with the dice read and
    set, and the staff are told when the players keep correcting (controller.correction.Tally)."""
    misread: list[int] = []
    if corrected:
        read, stand_ins = ((late.values, ()) if late is not None
                           else flow._opened.read() if flow._opened is not None else ((), ()))
        misread = changed_dice(read, stand_ins, values)
        log.info("dice corrected by hand: read %s, set %s (%s)",
                 " ".join("?" if i in stand_ins else str(v) for i, v in enumerate(read)) or "nothing",
                 " ".join(map(str, values)),
                 ", ".join(f"die {i + 1}: {read[i]} -> {values[i]}" for i in misread) or "no die read changed")
    words = flow.tally.add(new_throw=late is None, misread=bool(misread), at=at)
    if words is None:
        return
    text = staff_notice_words(words)
    if flow.message is None or flow.message.text.startswith(CORRECTED_WORDS):
        flow.say(text, "warning", staff=True)
    else:       # (what the move said, a draw or a box's note, first: the notice as the page after it)
        log.warning("%s", text)
        flow.banner.add_after(text, len(flow.log.inputs))


def checked_by_players(flow: TableFlow) -> None:
    """The die under the cursor was set or passed by the players: no longer in doubt (its
    outline and "?" go)."""
    if flow.correct_index in flow.pending_check:
        flow.pending_check.remove(flow.correct_index)


def amend(flow: TableFlow) -> None:
    """A long OK after the dice were accepted: they are taken out of the game again (and the
    journal says so) and corrected as during the confirmation. BACK puts them back as read."""
    last = flow.correction_offered
    assert last is not None
    last = placed(flow, last)
    flow._held_when_amended = (list(flow.tray_values), list(flow.holds)) if flow.phase == DECIDE else ([], [])
    flow._undo_last_input(last.state)
    flow._last_read = flow._last_choice = None
    flow._amending = last
    flow.tray_values, flow.tray_boxes = list(last.values), list(last.boxes)
    start_correction(flow, last.values, last.boxes, CORRECTING_READ)


def placed(flow: TableFlow, last: AppliedReading) -> AppliedReading:
    """`last` with the places of its dice. Dice offered again after a resume have none (the
    journal keeps values, not places): they are the dice the camera found on the tray if
    those are the same, else set in a row along the bottom of the image, as dice entered by
    hand are."""
    if last.boxes:
        return last
    if Counter(v for v, _ in flow.played) == Counter(last.values):
        return replace(last, values=tuple(v for v, _ in flow.played), boxes=tuple(b for _, b in flow.played))
    return replace(last, boxes=tuple(flow._row_boxes(len(last.values))))


def start_correction(flow: TableFlow, values: Sequence[int], boxes: Sequence, message: str, unsure: Sequence[int] = (),
             origin: str = BLANK, note: str = "") -> None:
    """Players set the dice with the buttons, from `values` (CORRECT). The first of the
    `unsure` dice (outlined) is selected, else the first die: an unread die stood in as a 1,
    captioned "Read: ... 1 ..." under die 1's cursor, and one long OK took it for a 1.
    `origin`: where BACK goes back to (controller.correction). `message` (what the buttons
    do) goes to the log; the banner shows only `note`, what the prompt does not say."""
    flow._seen_while_correcting = None
    flow._opened = Opened(origin, tuple(values), tuple(boxes), tuple(unsure), flow._confirm_at,
                          gathered=origin == SHOWN and pending_gathered(flow))
    flow.pending, flow.pending_boxes = list(values), list(boxes)
    flow.pending_check = list(unsure)
    if origin != SHOWN:
        flow.pending_sure = []      # (those of a reading shown before: not these dice)
    flow.correct_index = unsure[0] if unsure else 0
    flow.phase = CORRECT
    log.info("%s", reworded(message, flow.words))
    show_only(flow, note)


def show_only(flow: TableFlow, note: str) -> None:
    """The banner during a correction: `note` alone (the die left out of an entry), else
    none. It said again what the prompt says ("Correcting: UP/DOWN change the die, OK next
    die, hold OK when done."): at 320x240 that took the prompt's room, which then showed
    "Correct die 1: UP..." and never its hint (hold OK: done, what BACK does); at 480x320
    the late correction's banner lost its end ("BACK leaves them as")."""
    if note:
        flow.say(note, logged=False)
        return
    flow.banner.clear()      # (a move's note cut short comes back after it, as it does after a message)


def resume_correction(flow: TableFlow, values: Sequence[int]) -> bool:
    """After a resume whose journal ends with these dice (`values`, the input's: held dice not
    in them) taken back by a long OK: the power went while the players corrected them. The
    table comes back correcting them, from the values as read (what they had changed is
    lost; BACK leaves them as read, as before the cut). Before, the game came back asking for
    the throw again: dice already thrown and read were thrown a second time, and the dice in
    the tray were "there before". The journal already says they were taken back: nothing is
    written until the players accept or cancel. False where the game does not wait for such
    a throw (dice the table draws, secret ones): the throw is then asked again."""
    exp = flow.expect
    if flow.phase != WAIT_DICE or not isinstance(exp, Throw) or exp.drawn or exp.secret:
        return False
    if len(values) != exp.count or not all(type(v) is int and 1 <= v <= 6 for v in values):
        return False
    read = placed(flow, AppliedReading(flow.state, len(flow.log.inputs) + 1,
                                       tuple(exp.held) + tuple(values), ()))
    flow._amending = read
    flow.tray_values, flow.tray_boxes = list(read.values), list(read.boxes)
    start_correction(flow, read.values, read.boxes, CORRECTING_READ)
    return True
