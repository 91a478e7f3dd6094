"""Leaving a correction with BACK, as players do at the headless table (real images, settle
tracker, reader, flow): it goes back to where the correction started. A slow OK (held past the
panel's hold_time, 1 s) opens a correction of a reading that was right; BACK there dropped the
reading (*throw again*), the dice lying unread in the tray. And a refused tray's dice, entered
by hand, cancelled and opened again, came back as five 1s."""
from __future__ import annotations

from pathlib import Path

import cv2

from controller.table import CONFIRM, CORRECT, DECIDE, WAIT_DICE
from controller.table_cli import FixturePlayer
from hardware.button_scripted import parse_script
from test_tray_problems import SIZE, STYLE, show, table, tray
from vision.synthetic import render_tray

FRAMES = Path(__file__).parent / "fixtures" / "table"


def played(script: str) -> FixturePlayer:
    """Thirteen for Ann, `script` played on the committed trays."""
    p = FixturePlayer(FRAMES, parse_script(("game thirteen Ann\n" + script).splitlines(), "test"), None, None)
    p.run()
    return p


def test_a_right_reading_opened_by_a_slow_ok_and_left_with_back_still_counts():
    """d66235.jpg reads 6 5 2 3 6, right. Ann's OK lasted past a second: a correction. She
    presses BACK, as the prompt says, to get out: the reading is shown again as read and counts
    after its moment. Before: *Correction cancelled: throw again*, nothing applied, and the dice
    in the tray were not read again (the tray had not changed)."""
    p = played("throw d66235.jpg\nhold OK\n")
    p.press("BACK")
    assert p.flow.phase == CONFIRM and p.flow.pending == [6, 5, 2, 3, 6] and p.flow.log.inputs == []
    assert p.flow.message.text == "Correction cancelled: the dice as read. OK accepts, BACK to throw again."
    p = played("throw d66235.jpg\nhold OK\npress BACK\nwait\n")
    assert p.flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 5, 2, 3, 6]}]
    assert p.flow.phase == DECIDE


def test_a_value_changed_then_thought_better_of_is_left_as_read():
    """Ann sets die 2 from 5 to 6, then sees it was a 5 after all: BACK, the 5 is back."""
    p = played("throw d66235.jpg\nhold OK\npress OK\npress UP\npress BACK\npress OK\n")
    assert p.flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 5, 2, 3, 6]}]


def test_back_twice_still_drops_the_reading():
    """BACK once leaves the correction, BACK again drops the reading shown: throw again."""
    p = played("throw d66235.jpg\nhold OK\npress BACK\npress BACK\n")
    assert p.flow.phase == WAIT_DICE and p.flow.pending is None and p.flow.log.inputs == []
    assert p.flow.message.text == "Reading dropped: throw again."


def test_a_missing_die_entry_cancelled_and_opened_again_keeps_the_dice_read():
    """4dice.jpg: the camera sees 6 3 6 2 of Ann's five dice. She enters the fifth (a long OK
    starts on it), presses UP, changes her mind, BACK; then a long OK again. It starts again
    from the four dice read and the fifth, not from five 1s: two presses (DOWN, hold OK) give
    6 3 6 2 6, where before it took eleven (DOWN, OK, UP, UP, OK, DOWN, OK, UP, OK, DOWN, OK)."""
    p = played("throw 4dice.jpg\nhold OK\npress UP\npress BACK\n")
    flow = p.flow
    assert flow.phase == WAIT_DICE and flow.log.inputs == []
    assert flow.message.text == "Correction cancelled: nothing entered. Throw again, or hold OK to enter the values."
    p = played("throw 4dice.jpg\nhold OK\npress UP\npress BACK\nhold OK\n")
    assert p.flow.phase == CORRECT and p.flow.pending == [6, 3, 6, 2, 1] and p.flow.correct_index == 4
    p = played("throw 4dice.jpg\nhold OK\npress UP\npress BACK\nhold OK\npress DOWN\nhold OK\n")
    assert p.flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 3, 6, 2, 6]}]


def test_a_reading_in_the_glare_left_with_back_still_waits_for_ok(tmp_path):
    """A die in the lamp's glare read unsurely: the reading waits for OK. Opened to correct and
    left with BACK it still waits (it is not taken by itself a moment later), and OK takes it."""
    p = table(tmp_path)
    shot = tray(2, glare=True)
    show(p, render_tray([], seed=2, size=SIZE, style=STYLE).image, 12)
    show(p, shot)
    flow = p.flow
    assert flow.waits_for_ok and flow.pending == [6, 5, 2, 3, 3]
    p.press("OK", "hold")
    p.press("BACK", "press")
    assert flow.phase == CONFIRM and flow.waits_for_ok and flow.pending_check == [3]
    show(p, shot, 600)
    assert flow.phase == CONFIRM and flow.log.inputs == []
    p.press("OK", "press")
    assert flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 5, 2, 3, 3]}]


def test_the_prompt_says_how_to_finish_a_correction():
    """Correcting die 1, the prompt said only *OK next* and *BACK cancels*: players fixing the
    first die pressed OK through all five (7 presses on a three-button panel) or BACK (the
    throw lost). It names the long OK, and OK on the last die says it ends it."""
    p = played("throw d66235.jpg\nhold OK\n")
    prompt = p.flow.view().prompt
    assert prompt.text == "Correct die 1: UP/DOWN change it, OK next"
    assert prompt.hint == "hold OK: done · BACK: the dice as read"
    p = played("throw d66235.jpg\nhold OK\npress HOLD5\n")
    assert p.flow.view().prompt.text == "Correct die 5: UP/DOWN change it, OK: done"
    p = played("throw 4dice.jpg\nhold OK\n")
    assert p.flow.view().prompt.hint == "hold OK: done · BACK cancels"


def test_a_tray_fixed_during_an_entry_is_read_once_it_is_left():
    """4dice.jpg: a die is hidden under the rim. Ann starts entering the dice (a long OK), then
    pushes the die into view instead (the camera now sees d66235.jpg: 6 5 2 3 6) and leaves the
    entry with BACK. The tray as it lies is read and counts. Before, the reading that came during
    the entry was dropped and the table waited for a throw for good over five good dice."""
    p = played("throw 4dice.jpg\nhold OK\n")
    show(p, cv2.imread(str(FRAMES / "d66235.jpg")), 40)
    assert p.flow.phase == CORRECT and p.flow.pending == [6, 3, 6, 2, 1]     # (the camera does not overrule)
    p.press("BACK")
    assert p.flow.phase == CONFIRM and p.flow.pending == [6, 5, 2, 3, 6]
    assert p.flow.message.text == "Correction cancelled: the dice as the camera reads them now."
    show(p, cv2.imread(str(FRAMES / "d66235.jpg")), 20)
    assert p.flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 5, 2, 3, 6]}]
