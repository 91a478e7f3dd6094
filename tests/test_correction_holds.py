"""Dice held, then a misread noticed: the late correction (a long OK) keeps the holds. It
dropped them all: Ann held 6 6, fixed her misread third 6, and found nothing held (two presses
to hold them again, and a player who did not look threw her sixes again). Played at the headless
table on the committed trays, and journaled: a power cut after the correction keeps the holds."""
from __future__ import annotations

from pathlib import Path

from controller.journal import Journal
from controller.table import DECIDE
from controller.table_cli import FixturePlayer
from hardware.button_scripted import parse_script

FRAMES = Path(__file__).parent / "fixtures" / "table"
# d66235.jpg reads 6 5 2 3 6 and is accepted; Ann holds her two sixes (dice 1 and 5)
HELD = "throw d66235.jpg\nwait\npress HOLD1\npress HOLD5\n"


def played(script: str, journal: Path | None = None) -> FixturePlayer:
    p = FixturePlayer(FRAMES, parse_script(("game thirteen Ann\n" + script).splitlines(), "test"), None, None)
    if journal is None:
        p.run()
        return p
    steps = p.steps
    p.steps = steps[:1]
    p.run()                                   # (the game started: journal it from here, as the table does)
    j = Journal(journal, p.flow.log)
    p.flow.on_apply, p.flow.on_take_back, p.flow.on_hold = j.append, j.take_back, j.hold
    p.steps = steps[1:]
    p.run()
    return p


def test_holds_stay_on_the_dice_after_a_late_correction(tmp_path):
    """Die 2 was a 6 read 5: corrected with a long OK, OK, UP, long OK. Dice 1 and 5 stay held,
    the screen says so, and the journal's last hold line has them (a resume holds them again)."""
    journal = tmp_path / "current.jsonl"
    p = played(HELD + "hold OK\npress OK\npress UP\nhold OK\n", journal)
    flow = p.flow
    assert flow.phase == DECIDE and flow.tray_values == [6, 6, 2, 3, 6]
    assert flow.holds == [True, False, False, False, True]
    assert flow.message.text == "Corrected values accepted. Still held: 6 6."
    ending = Journal.read_ending(journal)
    assert ending.log.inputs == [{"type": "dice", "player": 0, "values": [6, 6, 2, 3, 6]}]
    assert ending.held == (0, [6, 6])
    # one press more holds the third six (before: three)
    p.press("HOLD2")
    assert flow.held_values == [6, 6, 6]


def test_a_held_die_whose_value_is_corrected_is_no_longer_held():
    """Ann held dice 1 and 2 (6 and a 5 that is really a 6): the corrected die is hers to decide
    on again; the other keeps its hold."""
    p = played("throw d66235.jpg\nwait\npress HOLD1\npress HOLD2\nhold OK\npress OK\npress UP\nhold OK\n")
    assert p.flow.holds == [True, False, False, False, False]


def test_a_late_correction_left_with_back_keeps_the_holds():
    """Opened by a long OK, left with BACK (the dice as read): the holds are as they were."""
    p = played(HELD + "hold OK\npress BACK\n")
    assert p.flow.tray_values == [6, 5, 2, 3, 6] and p.flow.holds == [True, False, False, False, True]
    assert p.flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 5, 2, 3, 6]}]


def test_holds_are_given_back_by_value_on_a_tray_rebuilt_in_another_order():
    """After a resume the decision's tray is in the rules' order, the dice corrected in the
    camera's: the holds follow the values (the sixes), not the places."""
    from controller.correction import holds_kept
    assert holds_kept([6, 2, 6, 3, 5], [True, False, True, False, False],
                      read=[6, 6, 2, 3, 5], final=[6, 6, 2, 3, 6]) == [True, True, False, False, False]
    assert holds_kept([6, 2, 6, 3, 5], [True, False, True, False, False],
                      read=[6, 6, 2, 3, 5], final=[6, 5, 2, 3, 5]) == [True, False, False, False, False]
