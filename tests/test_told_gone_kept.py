"""A staff notice said gone after three settled readings without it, counted across restarts.

told.json kept what was told across restarts (controller/told_kept.py), but not the readings
since that showed it gone: the count began again at each start. A camera put back on a table
restarted every throw or two (power cuts on a bad socket, a crash loop, staff switching it off and
on) was never said back: measured, the knock told, then six throws with the camera back and a
restart before each, no line; the file and `dicetable check` held the knock as told all along
("told earlier, still held by the table"), sending staff to calibrate a camera already put right.
Staff expect the line after the same three readings as without the restarts: the count is kept
with what was told (a reading showing the condition again starts it afresh, as it always did).

Driven through the real table app (TableApp), each restart a new app on the same journal folder
and config, as systemd starts it (see test_told_kept.py)."""
from __future__ import annotations

import json
import logging

import pytest

from test_knock_told_once import KNOCK, Table, calibrated_tray, calibration_warnings, warnings
from test_size_told_once import BIGGER, throw as throw_dice
from test_told_kept import GOOD, IGNORED, KEPT, over_starts, restarted

BACK = "back where it was calibrated"
DICE_BACK = "the dice are read at the calibrated size again"


@pytest.fixture(scope="module")
def calibration():
    return calibrated_tray()


def throws_until_said(caplog, words: str) -> list[int]:
    """The throws (counted from 1) after which a log line with `words` was said."""
    return [r.throw for r in caplog.records if words in r.getMessage() and hasattr(r, "throw")]


class Numbered(logging.Filter):
    """Tags each log record with the throw under way (the test's own count)."""

    def __init__(self) -> None:
        super().__init__()
        self.throw = 0

    def filter(self, record: logging.LogRecord) -> bool:
        record.throw = self.throw
        return True


@pytest.mark.parametrize("restart_each_throw", [False, True], ids=["one start", "restarted at every throw"])
def test_a_camera_put_back_is_said_back_after_three_throws_however_often_the_table_restarts(
        tmp_path, calibration, caplog, restart_each_throw):
    """The knock told; the camera put back, then six throws. Without restarts the tray is said back
    at the third; with a restart before each throw it never was (each start counted from 0, one
    reading a start): now at the third too, once, and told.json and `dicetable check` let it go."""
    numbered = Numbered()
    with caplog.at_level(logging.INFO):
        caplog.handler.addFilter(numbered)
        tables = [Table(tmp_path, calibration)]
        tables[-1].throw(10)
        for n in range(1, 7):
            if restart_each_throw:
                restarted(tmp_path, calibration, tables)
            numbered.throw = n
            tables[-1].throw(0)
    assert len([m for m in warnings(caplog) if KNOCK in m]) == 1
    assert throws_until_said(caplog, BACK) == [3], [r.getMessage() for r in caplog.records if BACK in r.getMessage()]
    kept = json.loads((tmp_path / KEPT).read_text(encoding="utf-8"))
    assert kept["knock"] is None, kept
    assert calibration_warnings(tmp_path / "config.toml", []) == []     # the check names no knock held
    assert len(tables[-1].app.flow.log.inputs) >= 8                   # the game went on across the starts


def test_a_camera_put_back_is_said_back_over_starts_of_two_throws(tmp_path, calibration, caplog):
    """A game over three starts of two throws each (test_told_kept.over_starts): knocked for the
    first start's two, put back for the next four. Before: two readings a start, never three in a
    row, never said back; now once, at the third throw put back (the next start's first)."""
    numbered = Numbered()
    with caplog.at_level(logging.INFO):
        caplog.handler.addFilter(numbered)

        def throw(table: Table) -> None:
            numbered.throw = table.throws + 1
            table.throw(10 if table.throws < 2 else 0)

        tables = over_starts(tmp_path, calibration, 3, throw)
    assert len([m for m in warnings(caplog) if KNOCK in m]) == 1
    assert throws_until_said(caplog, BACK) == [5]
    assert len(tables) == 3


def test_a_knock_seen_again_between_starts_starts_the_count_afresh(tmp_path, calibration, caplog):
    """Put back for two throws, the power cut, knocked the same way again: nothing is told (the
    same knock), and the count starts afresh: put back again, said back after three more throws,
    not at the first after the restart."""
    numbered = Numbered()
    with caplog.at_level(logging.INFO):
        caplog.handler.addFilter(numbered)
        tables = [Table(tmp_path, calibration)]
        tables[-1].throw(10)
        for n, (dx, restart) in enumerate([(0, False), (0, False), (10, True), (0, False), (0, True), (0, False)], 1):
            if restart:
                restarted(tmp_path, calibration, tables)
            numbered.throw = n
            tables[-1].throw(dx)
    assert len([m for m in warnings(caplog) if KNOCK in m]) == 1
    assert throws_until_said(caplog, BACK) == [6]


def test_dice_put_back_to_the_calibrated_size_are_said_so_across_restarts(tmp_path, calibration, caplog):
    """The café's own dice 1.5 times the calibrated size, told; the calibrated dice back in the
    tray, the table restarted before each throw: said at the third throw (before: never)."""
    numbered = Numbered()
    with caplog.at_level(logging.INFO):
        caplog.handler.addFilter(numbered)
        tables = [Table(tmp_path, calibration)]
        throw_dice(tables[-1], 1.5)
        for n in range(1, 6):
            restarted(tmp_path, calibration, tables)
            numbered.throw = n
            throw_dice(tables[-1], 1.0)
    assert len([m for m in warnings(caplog) if BIGGER in m]) == 1
    assert throws_until_said(caplog, DICE_BACK) == [3]


KNOCK_KEPT = json.loads(GOOD)
BAD_COUNTS = {"three or more": 3, "under none": -1, "text": "2", "true": True, "a fraction": 1.5}


@pytest.mark.parametrize("count", list(BAD_COUNTS), ids=list(BAD_COUNTS))
def test_a_count_the_table_would_not_write_is_a_bad_file(tmp_path, calibration, caplog, count):
    """A kept count that cannot be right is not taken up as one: the file is ignored as any bad
    one (a notice still true told again at worst), and the table starts."""
    from controller.told_kept import BadFile, parse

    text = json.dumps({**KNOCK_KEPT, "knock": {**KNOCK_KEPT["knock"], "gone": BAD_COUNTS[count]}})
    with pytest.raises(BadFile, match="gone"):
        parse(text)
    tables = [Table(tmp_path, calibration)]
    tables[-1].throw(0)
    (tmp_path / KEPT).write_text(text, encoding="utf-8")
    with caplog.at_level(logging.INFO):
        restarted(tmp_path, calibration, tables).throw(10)
    assert len([r for r in caplog.records if IGNORED in r.getMessage()]) == 1


def test_a_table_that_told_nothing_writes_no_kept_file(tmp_path, calibration):
    """Kept at every settled reading now (the count toward 'gone'), the file was written at the
    first reading of every start with nothing in it (d9df3d1: a write and an fsync a start, a
    file on tables never told anything; caught by test_bench_evening's count of files). Nothing
    told is no file, as before."""
    table = Table(tmp_path, calibration)
    for _ in range(3):
        table.throw(0)
    restarted(tmp_path, calibration, [table]).throw(0)
    assert not (tmp_path / KEPT).exists()
