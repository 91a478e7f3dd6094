"""The table's own files where something else than a file lies under their name.

The table reads its config, its journal (`current.jsonl`), what it told the staff (`told.json`)
and its count of starts (`/run/dicetable/starts`) by name as it starts. A FIFO under one of those
names (a named pipe, left by a tool or a mistyped command) hung the start for good, opened to wait
for a writer that never comes: systemd's watchdog killed the table and started it into the same
wait, a black screen with no line saying which file (measured with `dicetable run`: config.toml,
current.jsonl and told.json each hung it; a link to /dev/zero read without end). A link to
/dev/null was read as an empty file (the config "empty (a save cut short?)", the journal
"damaged"), a link to a config file that is not there was "no config file", nothing on screen.

Now (controller/plain_file.py) none is opened to wait on nor read without end: the start goes
on, the game on the table resumes where it can, and the log and the screen name the file, what
lies there, and what to do. Each test is made of the bad file itself; a start that would hang is
caught by running it on a thread (`started`) and unblocking the FIFO after a generous wait, so
that the old code fails rather than hangs the suite."""
from __future__ import annotations

import logging
import os
import threading
from pathlib import Path
from typing import Any, Callable

import pytest

from controller import start_backoff
from controller.check import FAIL, check_config
from controller.config import load_config
from controller.setup_menu import SetupResult
from controller.table_app import config_message
from controller.table_lock import hold_table_lock
from controller.told_report import kept_said
from test_knock_told_once import KNOCK, Table, calibrated_tray, warnings
from test_told_kept import KEPT, restarted

#: far longer than any start takes, even on a loaded machine: a start still under way then waits on a FIFO
HUNG_AFTER_S = 120.0


@pytest.fixture(scope="module")
def calibration():
    return calibrated_tray()


def started(start: Callable[[], Any], *fifos: Path) -> Any:
    """What `start()` returns, run on a thread; fails the test if it waits on one of `fifos` (a
    writer, or a reader, opened then closed on each after HUNG_AFTER_S lets it go, so the suite
    goes on)."""
    done: dict[str, Any] = {}

    def run() -> None:
        try:
            done["value"] = start()
        except BaseException as exc:        # (raised again in the test's own thread)
            done["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(HUNG_AFTER_S)
    if thread.is_alive():
        for fifo in fifos:             # (a reader waits for a writer, a writer for a reader)
            for way in (os.O_WRONLY, os.O_RDONLY):
                try:
                    os.close(os.open(fifo, way | os.O_NONBLOCK))
                except OSError:
                    pass
        thread.join(30)
        pytest.fail(f"it hung on {', '.join(map(str, fifos))}: a FIFO opened, waiting for its other end")
    if "error" in done:
        raise done["error"]
    return done["value"]


def put(path: Path, what: str) -> None:
    """Something else than a file under `path`'s name."""
    if path.is_dir() and not path.is_symlink():
        path.rmdir()
    elif path.exists() or path.is_symlink():
        path.unlink()
    if what == "a FIFO":
        os.mkfifo(path)
    elif what == "a folder":
        path.mkdir()
    elif what == "a link to /dev/null":
        path.symlink_to("/dev/null")
    elif what == "a link to nowhere":
        path.symlink_to(path.parent / "gone" / "config.toml")
    else:
        raise AssertionError(what)


KINDS = {"a FIFO": "a FIFO (named pipe), not a file", "a link to /dev/null": "a device, not a file",
         "a folder": "a folder, not a file"}


# ------------------------------------------------------------------------------------ told.json
@pytest.mark.parametrize("what", list(KINDS))
def test_told_json_that_is_not_a_file_does_not_stop_the_table_nor_its_game(tmp_path, calibration, caplog, what):
    """A game under way, the knock told; told.json made a FIFO, a link to a device or a folder, and
    the table restarted. Before: the FIFO hung the start (the game never came back); the device was
    "a bad file", the folder "Is a directory", neither saying what to do. Now the game resumes, the
    log names the file, what lies there and what to do, and the table's own file is written in
    its place (the folder: it cannot be, said once): the knock told once more at worst."""
    tables = [Table(tmp_path, calibration)]
    tables[-1].throw(10)
    put(tmp_path / KEPT, what)
    with caplog.at_level(logging.INFO):
        table = started(lambda: restarted(tmp_path, calibration, tables), tmp_path / KEPT)
        table.throw(10)
        table.throw(10)
    said = [m for m in warnings(caplog) if str(tmp_path / KEPT) in m]
    assert said and KINDS[what] in said[0], said
    if what == "a folder":
        assert f"sudo rm -r {tmp_path / KEPT}" in said[0]
        assert len([m for m in warnings(caplog) if "cannot keep what the staff were told" in m]) == 1
    else:
        assert (tmp_path / KEPT).is_file() and not (tmp_path / KEPT).is_symlink()
        assert '"knock": {' in (tmp_path / KEPT).read_text(encoding="utf-8")
    assert len([m for m in warnings(caplog) if KNOCK in m]) <= 2       # (told before the restart, and once more)
    assert len(table.app.flow.log.inputs) >= 3           # the game went on


def test_dicetable_check_does_not_wait_on_a_told_json_fifo(tmp_path):
    """`dicetable check` reads told.json for the notices the log no longer holds: a FIFO there hung
    the check. Now it is passed over (the table's own start says what it is)."""
    os.mkfifo(tmp_path / KEPT)
    assert started(lambda: kept_said(tmp_path, {"die_px": 50}, []), tmp_path / KEPT) == []


# ---------------------------------------------------------------------------------- config.toml
CONFIG_KINDS = {**KINDS, "a link to nowhere": "it is a link to {path}, which is not there"}


@pytest.mark.parametrize("what", list(CONFIG_KINDS))
def test_a_config_that_is_not_a_file_is_named_on_screen_with_what_to_do(tmp_path, what):
    """/etc/dicetable/config.toml made a FIFO, a link to /dev/null, a folder, or a link to a file
    that is not there. Before: the FIFO hung the start (and `dicetable check`); /dev/null was read
    as an empty file ("a save cut short?") and the link to nowhere as no file, the table on its
    defaults (another camera, the keyboard) with nothing on screen; the folder was "Is a
    directory". Now each starts the table on its defaults with the file named on screen, in the
    log and by the check, and what to do."""
    config = tmp_path / "config.toml"
    put(config, what)
    read = started(lambda: load_config(config, lenient=True), config)
    words = CONFIG_KINDS[what].format(path=tmp_path / "gone" / "config.toml")
    assert len(read.problems) == 1 and read.problems[0].startswith(f"{config}: cannot read the config file")
    assert words in read.problems[0] and "in its place (docs/install.md, step 5)" in read.problems[0], read.problems
    shown = config_message(read.problems)
    assert shown is not None and shown.level == "error" and words.split(" {")[0] in shown.text
    _, found = started(lambda: check_config(config), config)
    assert [f.level for f in found] == [FAIL] and words in found[0].text and str(config) in found[0].text


# -------------------------------------------------------------------------------- current.jsonl
JOURNAL_KINDS = {"a FIFO": "a FIFO (named pipe), not a file", "a link to /dev/null": "a device, not a file"}


@pytest.mark.parametrize("what", list(JOURNAL_KINDS))
def test_a_journal_that_is_not_a_file_is_set_aside_and_the_next_game_is_saved(tmp_path, calibration, what):
    """current.jsonl made a FIFO or a link to /dev/null, the table restarted. Before: the FIFO hung
    the start; /dev/null was "its journal is damaged" (the staff sent to look at a failing card).
    Now it is set aside saying what lay there, and the next game is journaled as ever."""
    Table(tmp_path, calibration).throw(0)
    journal = tmp_path / "current.jsonl"
    put(journal, what)
    table = started(lambda: Table(tmp_path, calibration, new=False), journal)
    said = table.app.menu.message
    assert said is not None and f"its journal is {JOURNAL_KINDS[what]}" in said.text, said
    assert "damaged" not in said.text
    table.app.menu.done = SetupResult("thirteen", ("Ann",), {})
    table.app.start_new()
    table.throw(0)
    assert journal.is_file() and not journal.is_symlink()
    assert len(table.app.flow.log.inputs) >= 1 and '"thirteen"' in journal.read_text(encoding="utf-8")


# ------------------------------------------------------------------------- /run/dicetable/starts
def test_a_starts_record_that_is_a_fifo_is_a_first_start(tmp_path):
    """The count of quick restarts (controller/start_backoff.py), read before anything else of the
    program: a FIFO there hung every start before its first line. Now it counts as a first start,
    and the record is written in its place."""
    os.mkfifo(tmp_path / start_backoff.RECORD)
    starts = started(lambda: start_backoff.before_start(tmp_path, clock=lambda: 100.0, sleep=lambda s: None),
                     tmp_path / start_backoff.RECORD)
    assert starts.streak == 0
    assert start_backoff.load(tmp_path / start_backoff.RECORD) == starts


# ------------------------------------------------------------------------------ the journal folder
FOLDER_KINDS = {"a file": "is a file, not a folder", "a link to nowhere": "is a link to {usb}, which is not there"}


@pytest.mark.parametrize("what", list(FOLDER_KINDS))
def test_a_journal_folder_that_is_a_file_is_named_on_screen(tmp_path, calibration, caplog, what):
    """journal_dir names a file (a backup copied over the folder's name), or a link to a folder
    that is not there (a USB stick not mounted). Before: the players were told "This game cannot
    be saved (File exists)", the log "cannot lock ...: File exists", nothing the staff could act
    on. Now the screen and the log say what lies there, and the log what to do; the game is
    played all the same."""
    from controller.calibrate import save_calibration

    usb = tmp_path / "usb" / "games"
    if what == "a file":
        (tmp_path / "games").write_text("a backup\n", encoding="utf-8")
    else:
        (tmp_path / "games").symlink_to(usb)
    config = tmp_path / "config.toml"
    config.write_text(f'[table]\njournal_dir = "{tmp_path / "games"}"\n', encoding="utf-8")
    save_calibration(calibration, config)
    with caplog.at_level(logging.INFO):
        assert hold_table_lock(tmp_path / "games") is None          # (as `dicetable run` starts)
        table = Table(tmp_path, calibration)
        table.throw(0)
    words = f"{tmp_path / 'games'} {FOLDER_KINDS[what].format(usb=usb)}"
    assert table.app.flow.unsaved is not None and words in table.app.flow.unsaved.text, table.app.flow.unsaved
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any(words in m and "set journal_dir in the config to a folder" in m for m in said), said
    assert any("cannot lock the journal folder" in m and FOLDER_KINDS[what].format(usb=usb) in m for m in said), said
    assert len(table.app.flow.log.inputs) >= 1


def test_a_journal_the_table_may_not_read_is_not_called_damaged(tmp_path, calibration, monkeypatch):
    """current.jsonl that the table's user may not read (copied back by root, mode 0600): the menu
    said "its journal is damaged", sending the staff to look at a failing card. Now it says the
    journal cannot be read, and why. (The refusal is injected: the tests may run as root.)"""
    import errno

    import controller.journal as journal_module

    Table(tmp_path, calibration).throw(0)

    def refusing(read: Callable[..., bytes]) -> Callable[..., bytes]:
        def refused(path, *args, **kwargs) -> bytes:
            if Path(path).name == "current.jsonl":
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
            return read(path, *args, **kwargs)
        return refused

    # (however the journal is read: Path.read_bytes before plain_file, read_plain now)
    monkeypatch.setattr(Path, "read_bytes", refusing(Path.read_bytes))
    if hasattr(journal_module, "read_plain"):
        monkeypatch.setattr(journal_module, "read_plain", refusing(journal_module.read_plain))
    table = Table(tmp_path, calibration, new=False)
    said = table.app.menu.message
    assert said is not None and "its journal cannot be read (Permission denied)" in said.text, said
    assert "damaged" not in said.text



# ------------------------------------------------------------- the files written whole, then renamed
def test_a_fifo_left_where_the_journal_is_written_whole_does_not_hang_the_resume(tmp_path, calibration):
    """A resume writes the journal whole beside it (current.jsonl.tmp) and renames it over: a FIFO
    under that name was opened to write and waited for a reader for ever (the table hung as it
    resumed). Now the name is made a new file: the game resumes, its journal whole."""
    table = Table(tmp_path, calibration)
    table.throw(0)
    before = table.app.flow.state.snapshot()
    os.mkfifo(tmp_path / "current.jsonl.tmp")
    again = started(lambda: Table(tmp_path, calibration, new=False), tmp_path / "current.jsonl.tmp")
    assert again.app.flow is not None and again.app.flow.state.snapshot() == before
    assert not (tmp_path / "current.jsonl.tmp").exists() and (tmp_path / "current.jsonl").is_file()


def test_a_fifo_left_where_told_json_is_written_whole_does_not_hang_the_table(tmp_path, calibration, caplog):
    """told.json is written beside as told.json.tmp and renamed over: a FIFO there hung the table
    at the first knock it told (in the middle of a game). Now the knock is told and kept."""
    os.mkfifo(tmp_path / (KEPT + ".tmp"))
    table = Table(tmp_path, calibration)
    with caplog.at_level(logging.INFO):
        started(lambda: table.throw(10), tmp_path / (KEPT + ".tmp"))
    assert len([m for m in warnings(caplog) if KNOCK in m]) == 1
    assert '"knock": {' in (tmp_path / KEPT).read_text(encoding="utf-8")


def test_fifos_left_where_the_starts_and_a_table_log_are_written_do_not_hang(tmp_path):
    """The same for the count of starts (starts.part) and `dicetable play --log` (LOG.json.tmp)."""
    from controller.tablelog import TableLog

    os.mkfifo(tmp_path / (start_backoff.RECORD + ".part"))
    started(lambda: start_backoff.before_start(tmp_path, clock=lambda: 5.0, sleep=lambda s: None),
            tmp_path / (start_backoff.RECORD + ".part"))
    assert start_backoff.load(tmp_path / start_backoff.RECORD) == start_backoff.Starts(0, 5.0)
    os.mkfifo(tmp_path / "game.json.tmp")
    table_log = TableLog("thirteen", ["Ann"]).with_every_option()
    started(lambda: table_log.save(tmp_path / "game.json"), tmp_path / "game.json.tmp")
    assert TableLog.load(tmp_path / "game.json").players == ["Ann"]


def test_an_archive_folder_that_is_a_file_is_named_as_a_game_is_put_away(tmp_path, calibration, caplog):
    """games/ (the archive) a file: a game ended could not be put away, and the menu said "(File
    exists)". Now it names the folder that is a file, and the log what to do; the game stays on
    the card (it comes back as finished at the next start, as the menu says)."""
    table = Table(tmp_path, calibration)
    table.throw(0)
    archive = tmp_path / "games"
    if archive.is_dir():
        archive.rmdir()
    archive.write_text("not a folder\n", encoding="utf-8")
    with caplog.at_level(logging.INFO):
        said = table.app.finish_game()
    assert said is not None and f"({archive} is a file, not a folder)" in said.text, said
    assert any("move it away" in m for m in warnings(caplog))
    assert (tmp_path / "current.jsonl").is_file()


def test_a_fifo_among_the_screenshots_does_not_hang_play(tmp_path):
    """`dicetable play --fixtures ... --screenshots DIR` with a FIFO named final.png in DIR (a
    folder reused): the PNG's write waited for a reader for ever (in pygame, holding Python's
    lock: run as its own program here, so that a hang is caught), and the game's result was never
    printed. Now that screenshot is left out, said on stderr, and the game is played to its end."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    fixtures = root / "tests" / "fixtures"
    shots = tmp_path / "shots"
    shots.mkdir()
    os.mkfifo(shots / "final.png")
    try:
        done = subprocess.run([sys.executable, "-m", "controller.cli", "play", "--fixtures", str(fixtures / "table"),
                               "--script", str(fixtures / "scripts" / "thirteen.txt"), "--screenshots", str(shots)],
                              cwd=root, capture_output=True, text=True, timeout=HUNG_AFTER_S,
                              env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    except subprocess.TimeoutExpired:
        pytest.fail(f"dicetable play hung on {shots / 'final.png'}: a FIFO opened, waiting for its other end")
    assert done.returncode == 0 and "Winner: Ann" in done.stdout, done.stderr
    assert f"screenshot {shots / 'final.png'} not written: it is a FIFO (named pipe), not a file" in done.stderr


# ------------------------------------------------------------------ a journal that changes under the table
@pytest.mark.parametrize("what", ["removed", "a FIFO"])
def test_a_journal_removed_or_replaced_while_the_game_is_played_keeps_the_game(tmp_path, calibration, caplog, what):
    """current.jsonl removed during a game (a staff "clean-up", a sync tool), or a FIFO put in its
    place. Before: the next move's append made a file without its header, and the next start
    called the game's journal damaged and set it aside (measured: 6 moves, the game lost); the
    FIFO hung the table at the next move. Now the journal is written again whole, said in the
    log, and the game resumes after a restart with every move."""
    tables = [Table(tmp_path, calibration)]
    tables[-1].throw(0)
    journal = tmp_path / "current.jsonl"
    journal.unlink()
    if what == "a FIFO":
        os.mkfifo(journal)
    with caplog.at_level(logging.INFO):
        started(lambda: tables[-1].throw(0), journal)
    again = restarted(tmp_path, calibration, tables)          # (the same game, every move: see restarted)
    assert again.app.menu.message is None and len(again.app.flow.log.inputs) >= 3
    said = [m for m in warnings(caplog) if "while the game was played" in m]
    assert len(said) == 1 and str(journal) in said[0], warnings(caplog)
