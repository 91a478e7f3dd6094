"""A table its players keep correcting (a smudged lens, a poor light) is told to the staff, on
screen and in the log at WARNING; each correction is logged with the dice read and set. Played at
the headless table on the committed trays (real settle tracker, reader and flow)."""
from __future__ import annotations

import logging
from pathlib import Path

from controller.table_cli import FixturePlayer
from hardware.button_scripted import parse_script

FRAMES = Path(__file__).parent / "fixtures" / "table"
# d66235.jpg reads 6 5 2 3 6; the players say die 2 is a 6 (hold OK, OK, UP, hold OK)
CORRECTED = "throw d66235.jpg\nhold OK\npress OK\npress UP\nhold OK\n"
BOXES = ["CHANCE", "SIXES", "FIVE_KIND", "FOUR_KIND", "THREE_KIND", "TWO_PAIRS"]


def played(script: str) -> FixturePlayer:
    p = FixturePlayer(FRAMES, parse_script(("game thirteen Ann\n" + script).splitlines(), "test"), None, None)
    p.run()
    return p


def test_a_correction_is_logged_with_the_dice_read_and_set(caplog):
    """Before, the log said *Corrected values accepted.*: neither what was read nor what set."""
    with caplog.at_level(logging.INFO, logger="controller.table"):
        p = played(CORRECTED)
    assert p.flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 6, 2, 3, 6]}]
    assert "dice corrected by hand: read 6 5 2 3 6, set 6 6 2 3 6 (die 2: 5 -> 6)" in caplog.messages


def test_the_staff_are_told_when_the_players_keep_correcting_the_camera(caplog):
    """Three throws in a row read wrong and corrected: the third is told on screen, for the staff,
    and logged at WARNING (journalctl -p warning). Before: nothing but *Corrected values accepted.*"""
    script = "".join(CORRECTED + f"choose {box}\n" for box in BOXES[:2]) + CORRECTED
    with caplog.at_level(logging.INFO, logger="controller.table"):
        p = played(script)
    said = ("For the staff: the players corrected 3 of the 3 throws read in this game: clean the camera's lens "
            "and check the light over the tray (dicetable calibrate). The game goes on.")
    assert p.flow.message.text == said and p.flow.message.level == "warning"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [said]
    assert len(p.flow.log.inputs) == 5         # (the game goes on: three throws, two boxes)


def test_dice_right_or_only_entered_by_hand_are_no_misread(caplog):
    """A correction left as read, and a die the camera did not see entered by hand (4dice.jpg:
    6 3 6 2 seen), are not the camera's misreads: three of them tell the staff nothing."""
    right = "throw d66235.jpg\nhold OK\nhold OK\n"
    missing = "throw 4dice.jpg\nhold OK\npress DOWN\nhold OK\n"
    script = f"{right}choose CHANCE\n{missing}choose SIXES\n{right}"
    with caplog.at_level(logging.INFO, logger="controller.table"):
        p = played(script)
    assert p.flow.tally.throws == 3 and p.flow.tally.corrected == 0
    assert not [m for m in caplog.messages if "For the staff" in m]
    assert "dice corrected by hand: read 6 3 6 2 ?, set 6 3 6 2 6 (no die read changed)" in caplog.messages


def test_a_few_corrections_in_a_long_game_are_not_a_dirty_lens():
    """The reader misreads about one throw in twenty: three corrected in 40 throws tell nobody;
    three in ten do."""
    from controller.correction import Tally
    tally = Tally()
    said = [tally.add(new_throw=True, misread=i % 13 == 0) for i in range(40)]
    assert tally.corrected == 4 and not any(said)
    tally = Tally()
    said = [tally.add(new_throw=True, misread=i in (2, 5, 9)) for i in range(10)]
    assert said[9] is not None and not any(said[:9])


def test_a_late_correction_is_logged_and_counted_once(caplog):
    """Dice accepted by themselves, then corrected with a long OK: logged as read and set, one
    throw in the tally (the same throw, not a second)."""
    with caplog.at_level(logging.INFO, logger="controller.table"):
        p = played("throw d66235.jpg\nwait\nhold OK\npress OK\npress UP\nhold OK\n")
    assert p.flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 6, 2, 3, 6]}]
    assert "dice corrected by hand: read 6 5 2 3 6, set 6 6 2 3 6 (die 2: 5 -> 6)" in caplog.messages
    assert (p.flow.tally.throws, p.flow.tally.corrected) == (1, 1)
