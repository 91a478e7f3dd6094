"""The table's log as staff read it after an evening (`journalctl -u dicetable`): each move said
once, in order, and `journalctl -p warning` kept for what the staff must look at."""
from __future__ import annotations

import logging

import pygame
import pytest

from controller.rules import new_game
from controller.rules.base import choose_input, dice_input
from controller.table import TableFlow
from controller.tablelog import TableLog
from table_helpers import Clock, Press
from test_table_flow import reading
from test_table_notes import banners as shown_until_quiet, flow_of


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


def said(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "controller.table"]


def test_a_note_shown_again_after_a_message_about_the_dice_is_logged_once(caplog):
    """Before: Ann's score, cut short on the banner by Bob's tray of 4 dice, was shown again after
    it, and logged again: "Ann scored 22 in Chance" twice, as if she had scored twice (measured
    with a script of 3 scores and 3 such trays: 5 score lines)."""
    flow = flow_of("thirteen", ["Ann", "Bob"])
    with caplog.at_level(logging.INFO, logger="controller.table"):
        flow._apply(dice_input(0, [6, 6, 2, 3, 5]))
        flow._apply(choose_input(0, "CHANCE"))
        note = flow.message.text
        assert note.startswith("Ann scored 22 in Chance")
        flow.clock.t += 1
        flow.on_reading(reading([1, 2, 3, 4]))           # Bob's tray: a die fell off
        assert "4 dice" in flow.message.text
        assert shown_until_quiet(flow)[1:] == [note]     # (the note is back on the banner)
    assert said(caplog).count(note) == 1
    assert len([line for line in said(caplog) if "4 dice" in line]) == 1


def test_a_move_taken_back_and_made_again_is_logged_again(caplog):
    """Each move made is a line, a move made again after BACK too: only a repeat of the same
    showing is left out."""
    flow = flow_of("thirteen", ["Ann", "Bob"])
    with caplog.at_level(logging.INFO, logger="controller.table"):
        flow._apply(dice_input(0, [6, 6, 2, 3, 5]))
        before = flow.state
        flow._apply(choose_input(0, "CHANCE"))
        note = flow.message.text
        shown_until_quiet(flow)
        flow._undo_last_input(before)
        flow._apply(choose_input(0, "CHANCE"))
        shown_until_quiet(flow)
    assert said(caplog).count(note) == 2


def levels(caplog) -> dict[str, str]:
    return {r.getMessage(): r.levelname for r in caplog.records if r.name == "controller.table"}


def test_the_players_own_troubles_are_not_warnings_for_the_staff(caplog):
    """`journalctl -u dicetable -p warning` is where staff look for what is wrong (docs/install.md
    section 10). A die off the tray, a hand knocking the dice, ABANDON to be pressed again were
    logged there as warnings: a rough game's script of 3 scores had 3 warnings, none for the staff."""
    flow = flow_of("thirteen", ["Ann", "Bob"])
    with caplog.at_level(logging.INFO, logger="controller.table"):
        flow.clock.t += 1
        flow.on_reading(reading([1, 2, 3, 4]))
        flow.clock.t += 10
        flow.on_button(Press("ABANDON"))
    said = levels(caplog)
    assert said and all(level == "INFO" for level in said.values()), said
    assert any("4 dice" in text for text in said)


def test_what_the_staff_must_see_is_still_a_warning(caplog):
    """The camera moved off its calibration (for the staff to recalibrate), a device down."""
    from vision.types import CAMERA_MOVED, Problem

    flow = flow_of("thirteen", ["Ann", "Bob"])
    with caplog.at_level(logging.INFO, logger="controller.table"):
        flow.clock.t += 1
        flow.on_reading(reading([6, 6, 2, 3, 5], [Problem(CAMERA_MOVED, "the tray is not where it was calibrated")]))
        flow.say("Camera: no picture for 5 s. Retrying...", "error")
    said = levels(caplog)
    assert [level for text, level in said.items() if text.startswith("For the staff:")] == ["WARNING"]
    assert said["Camera: no picture for 5 s. Retrying..."] == "WARNING"


def test_a_games_end_is_a_line_with_its_scores(caplog):
    """Before, a game's log ended at its last move's note: staff asked about last night's game
    could not tell from the log where it ended, nor its result."""
    players = ["Ann", "Bob"]
    flow = TableFlow(new_game("classic", players, {"rounds": 1}), TableLog("classic", players, {"rounds": 1}),
                     clock=Clock(), screen_size=(800, 480))
    with caplog.at_level(logging.INFO, logger="controller.table"):
        for data in (dice_input(0, [6, 6, 6, 6, 6]), choose_input(0, "STAND"), dice_input(1, [1, 2, 3, 4, 6]),
                     choose_input(1, "STAND")):
            flow._apply(data)
    assert flow.state.is_over
    over = [line for line in said(caplog) if line.startswith("game over")]
    assert over == ["game over: Classic poker dice for Ann, Bob: Ann 1, Bob 0; Ann wins"]


def test_a_new_game_is_a_line_naming_it_and_its_players(tmp_path, caplog):
    """Before, nothing: the first line of a game was its first move's note, whose game unsaid."""
    from test_table_e2e import FakeButtons, NoFrames, table_app

    with caplog.at_level(logging.INFO, logger="controller.table_app"):
        app = table_app(tmp_path, NoFrames(), FakeButtons(), game="thirteen")
    assert "new game: Thirteen for Ann" in [r.getMessage() for r in caplog.records]
    assert app.flow is not None
