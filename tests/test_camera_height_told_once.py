"""A camera raised or lowered since calibration, told to the staff once (controller/knock_notice.py,
knock_report.py).

The reader now names it in its `camera_moved` notice ("the camera was raised since calibration (the
tray looks 10% smaller): run dicetable calibrate again", tests/test_vision_camera_height.py); before,
a game played with the camera raised 10% told the staff nothing, and `dicetable check` said the
calibration was fine. Now it is told once (a `ToldOnce`, as a knock), again when the height changes
by 3% more, the banner says what to do on its first page at 320x240, and check names it from the
table's log. Played through the real table app (TableApp) as in test_knock_told_once."""
from __future__ import annotations

import logging

import pytest

from controller.knock_notice import KnockWatch, banner_words
from test_knock_told_once import Table, calibrated_tray, calibration_warnings, warnings
from test_told_kept import over_starts
from test_vision_camera_height import zoomed


@pytest.fixture(scope="module")
def calibration():
    """The green tray with 50 px of table round it (test_knock_told_once.calibrated_tray)."""
    return calibrated_tray()


def test_knock_watch_tells_a_height_once_and_again_when_it_changes_by_3_percent():
    """The reader's words at every reading: told at 10%, not at 11% (the measure's jitter, or an
    arm sagging), told again at 14%, and a camera put back then raised is told again."""
    watch = KnockWatch()

    def words(percent: int) -> str:
        return (f"the camera was raised since calibration (the tray looks {percent}% smaller): run dicetable "
                "calibrate again")

    assert [watch.seen(words(p)) for p in (10, 10, 11, 14, 14)] == ["tell", "", "", "tell", ""]
    assert [watch.seen(None) for _ in range(3)] == ["", "", "back"]
    assert watch.seen(words(14)) == "tell"


class RaisedTable(Table):
    """The test_knock_told_once table, its camera raised or lowered (`throw(scale)`)."""

    def throw(self, scale: float) -> None:      # type: ignore[override]
        self.throw_seen(lambda image: zoomed(image, scale))



def test_a_game_with_the_camera_raised_tells_the_staff_once_and_check_names_it(tmp_path, calibration, caplog):
    """Six throws of Thirteen with the camera raised 10% (at 320x240): the staff were told nothing,
    and `dicetable check` said the calibration was fine. Now one warning in the reader's words, the
    banner saying what to do on its first page, the game played throw after throw, and check names
    the camera raised from the table's log."""
    with caplog.at_level(logging.INFO):
        table = RaisedTable(tmp_path, calibration, size=(320, 240))
        for _ in range(6):
            table.throw(0.9)
    assert len(table.app.flow.log.inputs) >= 8, table.app.flow.log.inputs
    told = [m for m in warnings(caplog) if "camera was raised" in m]
    assert told == ["For the staff: the camera was raised since calibration (the tray looks 10% smaller): run "
                    "dicetable calibrate again. The game goes on."], warnings(caplog)
    shown = {b for b in table.banners if "For the staff" in b}
    first_page = "For the staff: camera raised (10% smaller): calibrate again."
    assert shown and all(b.startswith(first_page) for b in shown), shown
    lines = [r.getMessage() for r in caplog.records]
    assert calibration_warnings(tmp_path / "config.toml", lines) == [
        "camera raised since calibration: the tray looks 10% smaller; run dicetable calibrate"]


def test_the_banner_names_a_camera_lowered_and_moved_by_its_height_alone():
    """The banner's first page at 320x240 holds what happened and what to do; the log keeps the move."""
    assert banner_words("the camera was lowered since calibration (the tray looks 8% bigger, moved 6 px right): run "
                        "dicetable calibrate again") == ("For the staff: camera lowered (8% bigger): calibrate again. "
                                                         "The game goes on.")


def test_a_camera_lowered_past_the_edges_reach_is_told_as_lowered():
    """Lowered ~20% (its felt past both side walls): the banner said "camera knocked (its felt
    reaches past the left side)"; the staff would look for a knock. Now it says lowered, and a
    knock told once stays told once."""
    words = ("the camera was lowered since calibration (its felt reaches past the left and right sides): run "
             "dicetable calibrate again")
    assert banner_words(words) == "For the staff: camera lowered (the tray fills the view): calibrate again. " \
                                  "The game goes on."
    watch = KnockWatch()
    assert [watch.seen(words) for _ in range(3)] == ["tell", "", ""]


def test_a_camera_raised_is_told_once_across_restarts_and_check_names_it_from_what_the_table_holds(
        tmp_path, calibration, caplog):
    """Two changes of the same evening met: the height told once (fix-camscale) and what was told
    kept across restarts (told.json, fix-toldpersist). The kept knock had no height: after each
    restart the raised camera was a change from the kept 'no height', told again (3 warnings over 3
    starts), and `dicetable check`, reading the kept file with the log silent, said "camera knocked
    since calibration: its felt past the calibrated box". Now once, and named as raised."""
    with caplog.at_level(logging.INFO):
        over_starts(tmp_path, calibration, 3, lambda table: table.throw(0.9), RaisedTable)   # (the game resumed)
    told = [m for m in warnings(caplog) if "camera was raised" in m]
    assert len(told) == 1, told
    assert calibration_warnings(tmp_path / "config.toml", []) == [
        "camera raised since calibration: the tray looks 10% smaller (told earlier, still held by the table); "
        "run dicetable calibrate"]
