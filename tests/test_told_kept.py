"""Staff notices told once across restarts (controller/told_kept.py).

The table told a knocked camera, and dice of another size than calibrated, once, but only for as
long as it ran: after each restart (a power cut, the service restarted after a crash, the table
switched off at night with the camera left knocked) the same knock was told again, a new warning
in the log and the staff's banner over the players' game. A knocked camera, the table started
four times: 4 warnings, 60 banner frames. Now what was told is kept beside the journal (a new
calibration starts afresh), and a file cut by a power cut or garbage costs at worst a notice told
once more, never the game nor the start.

Driven through the real table app (TableApp), each restart a new app on the same journal folder
and config, as systemd starts it (see test_knock_told_once.py)."""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from test_knock_told_once import KNOCK, STYLE, Table, calibrated_tray, calibration_warnings, warnings
from test_size_told_once import BIGGER, throw as throw_dice
from controller.calibrate import save_calibration
from vision.calibrate import calibrate
from vision.reader import read
from vision.synthetic import render_tray

KEPT = "told.json"
IGNORED = "ignored a bad file"


@pytest.fixture(scope="module")
def calibration():
    """The green tray with 50 px of table round it (test_knock_told_once.calibrated_tray)."""
    return calibrated_tray()



def banner_frames(tables: list[Table], words: str = "For the staff") -> int:
    return sum(words in b for t in tables for b in t.banners)


def restarted(folder: Path, calibration, tables: list[Table], kind: type[Table] = Table) -> Table:
    """The table (of `kind`) started again on the same folder (the power back, systemd's restart):
    the game on the table resumed from its journal."""
    before = tables[-1]
    state, played = before.app.flow.state.snapshot(), len(before.app.flow.log.inputs)
    table = kind(folder, calibration, new=False)
    assert table.app.flow is not None and table.app.flow.state.snapshot() == state, "the game was not resumed"
    assert len(table.app.flow.log.inputs) == played
    table.throws = before.throws
    tables.append(table)
    return table


def over_starts(folder: Path, calibration, starts: int, throw: Callable[[Table], None],
                kind: type[Table] = Table) -> list[Table]:
    """A game of Thirteen over `starts` starts of the table (each after the first `restarted`),
    two throws (`throw`) at each: the tables, one a start."""
    tables = [kind(folder, calibration)]
    for start in range(starts):
        if start:
            restarted(folder, calibration, tables, kind)
        for _ in range(2):
            throw(tables[-1])
    return tables


def test_a_knocked_camera_is_told_once_over_four_starts_of_the_table(tmp_path, calibration, caplog):
    """The camera knocked 10 px, the table restarted three times during the game (two throws
    each time): the knock was told at each start, 4 warnings and the staff's banner on 60 frames;
    now once, on 15 frames, and the game went on across the restarts."""
    with caplog.at_level(logging.INFO):
        tables = over_starts(tmp_path, calibration, 4, lambda table: table.throw(10))
    told = [m for m in warnings(caplog) if KNOCK in m]
    assert len(told) == 1 and "(moved 10 px right)" in told[0], told
    assert banner_frames(tables) <= 20, banner_frames(tables)
    assert len(tables[-1].app.flow.log.inputs) >= 12         # 8 throws read across the restarts, boxes chosen
    # the log after a restart says why nothing is told, in words `dicetable check` does not count again
    held = [r.getMessage() for r in caplog.records if "told before this start" in r.getMessage()]
    assert len(held) == 3 and all("camera knocked (10 px right)" in m for m in held), held
    # and `dicetable check` names the knock told once since the calibration (not "told 4 times")
    lines = [r.getMessage() for r in caplog.records]
    assert calibration_warnings(tmp_path / "config.toml", lines) == [
        "camera knocked since calibration: moved 10 px right; run dicetable calibrate"]


def test_big_dice_are_told_once_over_three_starts_of_the_table(tmp_path, calibration, caplog):
    """The café's own dice 1.5 times the calibrated size, the table restarted twice: told at each
    start (3 warnings); now once."""
    with caplog.at_level(logging.INFO):
        tables = over_starts(tmp_path, calibration, 3, lambda table: throw_dice(table, 1.5))
    told = [m for m in warnings(caplog) if BIGGER in m]
    assert len(told) == 1, told
    assert banner_frames(tables) <= 20, banner_frames(tables)


def test_a_camera_put_back_while_the_table_was_off_is_a_line_then_a_new_knock_is_told(tmp_path, calibration,
                                                                                       caplog):
    """Knocked and told; the table switched off for the night and the camera put back; the next
    day the tray is said back where it was calibrated (before: nothing, the knock was forgotten),
    and a knock after that is told again, once, across another restart."""
    with caplog.at_level(logging.INFO):
        tables = [Table(tmp_path, calibration)]
        tables[-1].throw(10)
        restarted(tmp_path, calibration, tables)          # the next day, the camera put back overnight
        for dx in (0, 0, 0, -10):
            tables[-1].throw(dx)
        restarted(tmp_path, calibration, tables).throw(-10)
    said = [r.getMessage() for r in caplog.records]
    told = [m for m in warnings(caplog) if KNOCK in m]
    assert len(told) == 2 and "(moved 10 px right)" in told[0] and "(moved 10 px left)" in told[1], told
    back = [i for i, m in enumerate(said) if "back where it was calibrated" in m]
    assert len(back) == 1 and said.index(told[0]) < back[0] < said.index(told[1]), said


def test_a_new_calibration_starts_afresh(tmp_path, calibration, caplog):
    """A knock told, the table restarted on the same calibration: not told again. Then `dicetable
    calibrate` saves a new calibration and the table is restarted: a knock told against the old
    one is not the new one's, so the camera seen knocked against the new one is told."""
    with caplog.at_level(logging.INFO):
        tables = [Table(tmp_path, calibration)]
        tables[-1].throw(10)
        restarted(tmp_path, calibration, tables).throw(10)
        assert len([m for m in warnings(caplog) if KNOCK in m]) == 1
        empty = [render_tray([], seed=7 + i, style=STYLE, die_px=50).image for i in range(2)]
        throws = [render_tray([6, 5, 4, 3, 2], seed=70 + i, style=STYLE, die_px=50).image for i in range(2)]
        save_calibration(calibrate(empty, throws, reader=read), tmp_path / "config.toml")
        restarted(tmp_path, calibration, tables).throw(10)
    told = [m for m in warnings(caplog) if KNOCK in m]
    assert len(told) == 2, told
    assert any("another calibration" in r.getMessage() for r in caplog.records)


#: a told.json as the table writes it, with a knock of 10 px right told
GOOD = json.dumps({"format": 1, "calibration": "0123456789ab",
                   "knock": {"dx": 10.0, "dy": 0.0, "turn": 0.0, "side": "",
                             "words": f"For the staff: {KNOCK} (moved 10 px right): run dicetable calibrate again. "
                                      "The game goes on."},
                   "dice": None, "frames": None}) + "\n"
BAD_FILES = {
    "empty": b"",
    "cut by a power cut": GOOD.encode()[: len(GOOD) // 2],
    "zeros (a cut before the data were written)": b"\0" * 4096,
    "garbage": bytes(range(256)) * 3,
    "a JSON list": b"[1, 2, 3]\n",
    "a knock of text": GOOD.replace("10.0", '"ten"').encode(),
    "a knock of NaN": GOOD.replace("10.0", "NaN").encode(),
    "another version's": GOOD.replace('"format": 1', '"format": 7').encode(),
    "nested too deep": b"[" * 50000,
}


@pytest.mark.parametrize("bad", list(BAD_FILES), ids=list(BAD_FILES))
def test_a_bad_kept_file_costs_at_most_a_notice_told_again(tmp_path, calibration, caplog, bad):
    """The kept file cut by a power cut, zeroed, garbage, another version's: the table starts,
    the game resumes untouched, the log says the file was ignored, the knock is told (once), and
    the file written again whole: the next start is quiet. (Before, nothing was kept: the knock
    told at each start, nothing said of the file.)"""
    tables = [Table(tmp_path, calibration)]
    tables[-1].throw(0)
    (tmp_path / KEPT).write_bytes(BAD_FILES[bad])
    (tmp_path / (KEPT + ".tmp")).write_bytes(b'{"format": 1, "calib')      # a write cut before its rename
    with caplog.at_level(logging.INFO):
        restarted(tmp_path, calibration, tables).throw(10)
        ignored = [r for r in caplog.records if IGNORED in r.getMessage()]
        assert len(ignored) == 1 and ignored[0].levelno == logging.WARNING and KEPT in ignored[0].getMessage()
        restarted(tmp_path, calibration, tables).throw(10)
    told = [m for m in warnings(caplog) if KNOCK in m]
    assert len(told) == 1, told
    assert len([r for r in caplog.records if IGNORED in r.getMessage()]) == 1, "the bad file was left for next time"
    assert len(tables[-1].app.flow.log.inputs) >= 4


def test_a_kept_file_that_cannot_be_written_costs_a_warning_not_the_game(tmp_path, calibration, caplog):
    """Where the file goes there is a folder of that name (nothing can be written there, as on a
    card gone read-only): the table says once that it cannot keep what it told, tells the knock,
    and the game goes on."""
    (tmp_path / KEPT).mkdir()
    with caplog.at_level(logging.INFO):
        tables = [Table(tmp_path, calibration)]
        for dx in (10, 10, 0, 0, 0, 10):
            tables[-1].throw(dx)
    cannot = [m for m in warnings(caplog) if "cannot keep what the staff were told" in m]
    assert len(cannot) == 1, warnings(caplog)
    assert len([m for m in warnings(caplog) if KNOCK in m]) == 2
    assert len(tables[-1].app.flow.log.inputs) >= 8


def test_dicetable_check_names_a_knock_told_before_the_log_it_reads(tmp_path, calibration, caplog):
    """Told once now, the knock is in the log once: a camera left knocked past the 30 days of log
    `dicetable check` reads (or a check by a user who may not read the log) found no line and
    said nothing of it, while the table held it as told and said nothing more (each start told it
    again before). The check reads what the table holds; once the tray is said back, nothing."""
    with caplog.at_level(logging.INFO):
        tables = [Table(tmp_path, calibration)]
        tables[-1].throw(10)
        start = len(caplog.records)
        restarted(tmp_path, calibration, tables).throw(10)       # a month later: the log holds this start only
        recent = [r.getMessage() for r in caplog.records[start:]]
        config = tmp_path / "config.toml"
        held = "camera knocked since calibration: moved 10 px right (told earlier, still held by the table); " \
               "run dicetable calibrate"
        assert calibration_warnings(config, "the log could not be read") == [held]      # type: ignore[arg-type]
        assert calibration_warnings(config, recent) == [held]
        start = len(caplog.records)
        for _ in range(3):
            tables[-1].throw(0)                                  # the camera put back
        recent = [r.getMessage() for r in caplog.records[start:]]
    assert any("back where it was calibrated" in m for m in recent)
    assert calibration_warnings(config, recent) == []
    assert calibration_warnings(config, []) == []


def test_dicetable_check_names_sizes_the_table_holds_as_told(tmp_path, calibration):
    """Dice and frames of another size held as told, the log silent about them (rolled past, or
    unreadable): named from the table's file; said gone in the log, or told against another
    calibration: not named."""
    from controller.config import load_config
    from controller.told_kept import calibration_id

    config = tmp_path / "config.toml"
    Table(tmp_path, calibration, new=False)                         # (the config, calibrated)
    held = {"format": 1, "calibration": calibration_id(load_config(config).vision.calibration), "knock": None,
            "dice": {"way": "bigger", "times": 1.52, "words": "For the staff: the dice are bigger than the ones "
                     "calibrated (76 px, calibrated 50 px): run dicetable calibrate again with the dice played."},
            "frames": "For the staff: the calibration was taken on 640x480 frames and the camera sends 560x480: "
                      "run dicetable calibrate again."}
    (tmp_path / KEPT).write_text(json.dumps(held), encoding="utf-8")
    assert calibration_warnings(config, []) == [
        "dice 1.5x the calibrated size (told earlier, still held by the table): run dicetable calibrate with the "
        "dice that are played",
        "frames of 560x480, calibrated on 640x480 (told earlier, still held by the table): run dicetable calibrate "
        "with the camera as it is now"]
    back = "camera: the dice are read at the calibrated size again (the dice's size told before is gone)"
    left = [w.split(" (")[0] for w in calibration_warnings(config, [back])]
    assert left == ["frames of 560x480, calibrated on 640x480"], left
    (tmp_path / KEPT).write_text(json.dumps({**held, "calibration": "another"}), encoding="utf-8")
    assert calibration_warnings(config, []) == []
