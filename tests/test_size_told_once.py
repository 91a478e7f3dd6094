"""Dice or frames of another size than calibrated, told once (controller/size_notice.py, size_report.py).

The reader reads dice bigger or smaller than the calibrated ones at their own size, and frames of
another shape without the calibration, and tells the staff to calibrate again. The table said it
at every settled reading: a game of Thirteen with a café's own dice 1.5 times the calibrated size
logged the warning at every throw (12 in 12) and put the staff's banner over the players' game at
each. Now: once, again when the size changes, a line when it is gone, and `dicetable check` names
it from the log.

Driven through the real table app (TableApp) on frames rendered with `vision.synthetic`, the
calibration made as `dicetable calibrate` makes it (see test_knock_told_once.py)."""
from __future__ import annotations

import logging

import numpy as np
import pytest

from test_knock_told_once import STYLE, Table, calibration_warnings, recalibrate, warnings
from vision.calibrate import calibrate
from vision.reader import read
from vision.synthetic import render_tray

CALIBRATED = 50
BIGGER = "bigger than the ones calibrated"
SMALLER = "smaller than the ones calibrated"
FRAMES = "the calibration was taken on"


@pytest.fixture(scope="module")
def calibration():
    """The green tray with 50 px of table round it, calibrated with 50 px dice."""
    empty = [render_tray([], seed=i, style=STYLE, die_px=CALIBRATED).image for i in range(2)]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=STYLE, die_px=CALIBRATED).image for i in range(2)]
    return calibrate(empty, throws, reader=read)


def throw(table: Table, times: float, cut: int = 0) -> None:
    """The dice, `times` the calibrated size, picked up and thrown (the camera's frames `cut` px
    narrower: another crop of the sensor), and the throw taken with OK."""
    def seen(image: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(image[:, : image.shape[1] - cut]) if cut else image

    table.throw_seen(seen, CALIBRATED, CALIBRATED * times)


def told(caplog, words: str) -> list[str]:
    return [m for m in warnings(caplog) if words in m]


def test_a_game_with_dice_1_5x_the_calibrated_size_tells_the_staff_once(tmp_path, calibration, caplog):
    """Twelve throws of 75 px dice on a 50 px calibration: the warning was logged at each (12), and
    the staff's banner shown over 182 of the game's 636 frames; now once, and the game played on."""
    table = Table(tmp_path, calibration)
    with caplog.at_level(logging.INFO):
        for _ in range(12):
            throw(table, 1.5)
    assert len(table.app.flow.log.inputs) >= 20, table.app.flow.log.inputs      # 12 throws read, boxes chosen
    said = told(caplog, BIGGER)
    assert len(said) == 1 and "calibrated 50 px" in said[0], said
    assert sum(BIGGER in b for b in table.banners) <= 20, "the staff's banner stayed over the game"


def test_a_game_with_dice_much_smaller_than_calibrated_tells_the_staff_once(tmp_path, calibration, caplog):
    """22 px dice on a 50 px calibration: the reader reads them at their size when the calibrated
    reading asks (5 of 12 throws), and each was a warning; now one."""
    table = Table(tmp_path, calibration)
    with caplog.at_level(logging.INFO):
        for _ in range(12):
            throw(table, 0.44)
    said = told(caplog, SMALLER)
    assert len(said) == 1, said
    assert len(table.app.flow.log.inputs) >= 20, table.app.flow.log.inputs


def test_dice_put_back_to_the_calibrated_ones_is_a_line_and_bigger_ones_are_told_again(tmp_path, calibration,
                                                                                        caplog):
    """The players' big dice for three throws, the café's for three, the big ones again: told, a
    line that the dice are read at the calibrated size again (before: nothing), told again."""
    table = Table(tmp_path, calibration)
    with caplog.at_level(logging.INFO):
        for times in (1.5, 1.5, 1.5, 1.0, 1.0, 1.0, 1.5, 1.5):
            throw(table, times)
    said = [r.getMessage() for r in caplog.records]
    bigger = [i for i, r in enumerate(caplog.records) if r.levelno >= logging.WARNING and BIGGER in said[i]]
    assert len(bigger) == 2, said
    back = [i for i, m in enumerate(said) if "read at the calibrated size again" in m]
    assert len(back) == 1 and bigger[0] < back[0] < bigger[1], said


def test_dice_a_little_bigger_again_are_not_told_again_but_much_bigger_ones_are(tmp_path, calibration, caplog):
    """75 px dice, then 90 px ones (another set brought): told for each set, not at each throw."""
    table = Table(tmp_path, calibration)
    with caplog.at_level(logging.INFO):
        for times in (1.5, 1.5, 1.5, 1.8, 1.8, 1.8):
            throw(table, times)
    said = told(caplog, BIGGER)
    assert len(said) == 2 and ("(76 px" in said[0] or "(75 px" in said[0]), said
    assert "(9" in said[1], said


def test_frames_of_another_size_than_calibrated_are_told_once(tmp_path, calibration, caplog):
    """The camera sends frames 80 px narrower than the calibration's (another crop): the
    calibration is not used and the staff were told at every throw; now once, and a line when
    the frames are the calibrated ones again."""
    table = Table(tmp_path, calibration)
    with caplog.at_level(logging.INFO):
        for cut in (80, 80, 80, 80, 0, 0, 0):
            throw(table, 1.0, cut=cut)
    said = told(caplog, FRAMES)
    assert len(said) == 1, said
    assert any("frames are the calibrated size again" in r.getMessage() for r in caplog.records)


def test_dicetable_check_names_the_dice_size_the_table_logged(tmp_path, calibration, caplog):
    """While the table runs the camera is its own: `dicetable check` said nothing of the dice
    the table had read at another size all evening. It reads it from the log now; a restart on
    the same calibration keeps it, a new calibration clears it, and so do the dice said back."""
    with caplog.at_level(logging.INFO):
        table = Table(tmp_path, calibration)
        for _ in range(3):
            throw(table, 1.5)
    lines = [r.getMessage() for r in caplog.records]

    def calibration_lines(log: list[str]) -> list[str]:
        return calibration_warnings(tmp_path / "config.toml", log)

    assert calibration_lines(lines) == ["dice 1.5x the calibrated size since the game of Thirteen for Ann: run "
                                        "dicetable calibrate with the dice that are played"]
    started = [m for m in lines if m.startswith("camera: calibration in use")]
    assert len(started) == 1
    assert calibration_lines(lines + started) != []                              # restarted, not calibrated
    back = "camera: the dice are read at the calibrated size again (the dice's size told before is gone)"
    assert calibration_lines(lines + [back]) == []
    recalibrate(calibration, tmp_path / "config.toml")       # (the table keeps what it told: told_kept.py)
    assert calibration_lines(lines + [started[0].replace("dice ", "dice 1")]) == []


def test_big_dice_while_a_game_is_resumed_after_a_power_cut(tmp_path, calibration, caplog):
    """The power went during a game with big dice: the game resumes where it was, the throws go on
    being read, and the dice's size is told once over the evening (it was told once more after
    each restart: the table kept it only in memory; controller/told_kept.py)."""
    with caplog.at_level(logging.INFO):
        table = Table(tmp_path, calibration)
        throw(table, 1.5)
        throw(table, 1.5)
        played = len(table.app.flow.log.inputs)
        state = table.app.flow.state.snapshot()
        again = Table(tmp_path, calibration, new=False)
        assert again.app.flow.state.snapshot() == state and len(again.app.flow.log.inputs) == played
        again.throws = 2
        for _ in range(4):
            throw(again, 1.5)
    assert len(again.app.flow.log.inputs) > played
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert sum(BIGGER in m for m in said) == 1, said


@pytest.mark.parametrize("times, cut, words", [(1.5, 0, "dice 1.5x the calibrated size: calibrate again"),
                                               (1.0, 80, "another camera view (560x480): calibrate again")])
def test_at_320x240_the_banner_says_what_to_do_on_the_page_shown(tmp_path, calibration, times, cut, words):
    """The small screen's banner held the reader's words in three pages, and the throw's own
    message came before the second: the staff read "the dice are bigger than the ones calibrated
    (76 ..." and never what to do. Now the first page says it (the log keeps the reader's words)."""
    table = Table(tmp_path, calibration, size=(320, 240))
    throw(table, times, cut=cut)
    shown = [b for b in table.banners if "For the staff" in b]
    assert shown and all(words in b for b in shown), sorted(set(shown))
