"""Whole games at the table, headless: frames from committed image fixtures go through the real
settle tracker and pip reader, presses from scripts go through the table flow, the rules score.

The expected results were worked out by hand and agree with the rules engine fed directly.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from controller.table import CONFIRM, DECIDE, OVER, WAIT_DICE
from controller.table_app import archive_order
from controller import table_cli
from controller.table_cli import FixturePlayer
from controller.tablelog import TableLog, replay
from display.screen import Screen
from hardware.button_scripted import parse_script
from table_helpers import Clock, WallClock

FIX = Path(__file__).parent / "fixtures"
FRAMES = FIX / "table"
SCRIPTS = FIX / "scripts"

GAMES = [
    ("thirteen", {"Ann": 381}),
    ("classic", {"Ann": 3, "Bob": 1}),
    ("objective-cards", {"Ann": 27, "Bob": 26}),
    ("poknroll", {"Ann": 24, "Bob": 36, "Cy": 24}),
    ("school", {"Ann": 1696}),
]


def player(script: str, shots: Path | None = None) -> FixturePlayer:
    steps = parse_script(script.splitlines(), "test")
    screen = Screen((800, 480), headless=True) if shots else None
    return FixturePlayer(FRAMES, steps, screen, shots)


@pytest.mark.parametrize("game,scores", GAMES, ids=[g for g, _ in GAMES])
def test_a_whole_game_from_fixtures_and_scripted_presses(game, scores, tmp_path):
    shots = tmp_path / "shots"
    p = player((SCRIPTS / f"{game}.txt").read_text(), shots)
    flow = p.run()
    assert p.errors == []
    assert flow.state.is_over, flow.state.sheet().status
    result = flow.state.result()
    assert dict(zip(result.players, result.scores)) == scores
    # every reading went through the camera path: the log is exactly the dice thrown, and replays
    assert replay(flow.log).snapshot() == flow.state.snapshot()
    p.screenshot("final")
    final = shots / "final.png"
    assert final.stat().st_size > 10_000

    image = cv2.imread(str(final))
    assert image.shape[:2] == (480, 800)
    assert image.std() > 20, "the screenshot must not be blank"


def test_cli_play_fixtures_end_to_end(tmp_path, capsys):
    log = tmp_path / "log.json"
    code = main(["play", "--fixtures", str(FRAMES), "--script", str(SCRIPTS / "classic.txt"), "--headless",
                 "--screenshots", str(tmp_path / "shots"), "--log", str(log)])
    out = capsys.readouterr().out
    assert code == 0
    assert "Winner: Ann" in out
    assert (tmp_path / "shots" / "final.png").exists()
    assert replay(TableLog.load(log)).is_over



# a script step that does not fit the game: the game goes on, and the reason is printed (exit 3)
SOFT_ERRORS = [
    ("game classic Ann,Bob\nthrow nothere.jpg\n", f"script line 2: no image nothere.jpg in {FRAMES}"),
    ("game classic Ann,Bob\nthrow d66666.jpg\nchoose NOPE\n", "script line 3: not on the menu now: NOPE"),
    ("game classic Ann,Bob\nthrow d66666.jpg\nchoose STAND\nkeep 6\n",
     "script line 4: keep when no dice can be held"),
]
# a script that cannot mean anything: one line naming the script line, exit 2, nothing played
BAD_SCRIPTS = [
    ("", "the script names no game (give --game, or begin it with 'game GAME NAME,NAME')"),
    ("# only a comment\n\n", "the script names no game (give --game, or begin it with 'game GAME NAME,NAME')"),
    ("game\n", "script line 1: 'game' takes GAME [NAME,NAME] [name=value ...], e.g. 'game classic Ann,Bob'"),
    ("game classic Ann,Bob\nthrow d66666.jpg\nchoose\n", "script line 3: 'choose' takes one menu KEY"),
    ("game classic Ann,Bob\nthrow d66666.jpg\nchoose A B\n", "script line 3: 'choose' takes one menu KEY"),
    ("game classic Ann,Bob\nthrow d66235.jpg\nkeep x 6\n", "script line 3: 'keep' takes dice values 1 to 6"),
    ("game classic Ann,Bob\nthrow a.jpg b.jpg\n", "script line 2: 'throw' takes at most one image FILE"),
    ("game classic Ann,Bob\nwait 2\n", "script line 2: 'wait' takes nothing"),
    ("game classic Ann,Bob\nwait-throw\n", "script line 2: unknown directive 'wait-throw' (known: game, "),
    ("game bogus Ann,Bob\n", "script line 1: unknown game 'bogus'"),
    ("game classic Ann\n", "script line 1: Classic poker dice takes 2 to 8 players, not 1"),
    ("game classic Ann,Bob rounds\n", "script line 1: an option is name=value, not 'rounds'"),
    ("# no game yet\nthrow d66666.jpg\n", "script line 2: no game yet"),
]


def _play_script(tmp_path, capsys, script: str) -> tuple[int, str, str]:
    path = tmp_path / "script.txt"
    path.write_text(script)
    code = main(["play", "--fixtures", str(FRAMES), "--script", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("script,error", SOFT_ERRORS)
def test_a_step_that_does_not_fit_the_game_is_printed(tmp_path, capsys, script, error):
    code, out, err = _play_script(tmp_path, capsys, script)
    assert code == 3 and "The script ended before the game did" in out
    assert err == f"dicetable play: {error}\n"


@pytest.mark.parametrize("script,error", BAD_SCRIPTS)
def test_a_script_that_cannot_be_played_is_one_line_and_exit_2(tmp_path, capsys, script, error):
    code, out, err = _play_script(tmp_path, capsys, script)
    assert code == 2 and out == ""
    assert err.startswith(f"dicetable play: {error}") and err.count("\n") == 1, err



@pytest.mark.parametrize("name", ["../x", "sub/x", "/tmp/x", "..", "a\\b"])
def test_a_screenshot_name_with_a_folder_in_it_is_refused_before_anything_is_written(tmp_path, capsys, name):
    """Found in review: `screenshot ../x` wrote x.png outside the --screenshots folder (and
    `screenshot /some/where` anywhere). Refused, naming the line, before the game is played."""
    shots = tmp_path / "shots"
    path = tmp_path / "script.txt"
    path.write_text(f"game classic Ann,Bob\nthrow d66666.jpg\nscreenshot fine\nscreenshot {name}\n")
    code = main(["play", "--fixtures", str(FRAMES), "--script", str(path), "--screenshots", str(shots)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == (f"dicetable play: script line 4: 'screenshot' takes a NAME without a folder in it, not {name!r} "
                   "(the picture goes in the --screenshots folder)\n")
    assert list(tmp_path.rglob("*.png")) == []


# A script file that is no script: said naming the file. A file not in UTF-8 said only "'utf-8'
# codec can't decode byte 0xff in position 0", a missing one "[Errno 2] No such file or directory:
# 'x'"; and a script saved by a Windows editor, with a byte-order mark first, was refused at line 1
# for a character nobody can see.
@pytest.mark.parametrize("content, error", [
    (b"\xff\xfegame thirteen Ann,Bob\n", "cannot read button script {path}: not a text file (a script is UTF-8 text)"),
    (None, "cannot read button script {path}: No such file or directory"),
])
def test_a_script_file_that_cannot_be_read_is_named(tmp_path, capsys, content, error):
    path = tmp_path / "script.txt"
    if content is not None:
        path.write_bytes(content)
    code = main(["play", "--fixtures", str(FRAMES), "--script", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == f"dicetable play: {error.format(path=path)}\n"


def test_a_script_saved_with_a_byte_order_mark_plays(tmp_path, capsys):
    path = tmp_path / "script.txt"
    path.write_bytes("game thirteen Ann,Bob\n".encode("utf-8-sig"))
    code = main(["play", "--fixtures", str(FRAMES), "--script", str(path)])
    out, err = capsys.readouterr()
    assert code == 3 and err == ""            # a game, started, that the script leaves unfinished
    assert "The script ended before the game did (0 inputs applied)." in out


def test_the_play_script_of_docs_hardware_md_plays_its_game(tmp_path, capsys):
    """The example under 'Headless play' is read from the doc itself, so the doc cannot drift
    (it once used a `wait-throw` that `play --fixtures` refuses)."""
    doc = (Path(__file__).parents[1] / "docs" / "hardware.md").read_text()
    section = doc.split("### Headless play: `dicetable play --fixtures DIR --script FILE`", 1)[1].split("\n## ", 1)[0]
    script = section.split("\n```\n", 1)[1].split("\n```", 1)[0]
    documented = {row.split("`")[1].split()[0] for row in section.splitlines() if row.startswith("| `")}
    assert documented == set(table_cli.DIRECTIVES)
    code, out, err = _play_script(tmp_path, capsys, script + "\n")
    assert (code, err) == (0, "")
    assert "Winner: Ann" in out and "Winner: Ann" in section


def snapshot(flow) -> tuple:
    return json.dumps(flow.state.snapshot(), sort_keys=True), len(flow.log.inputs)


START = "game thirteen Ann\n"

class FakeButtons:
    """A button source with nothing pressed; `status` can be switched to 'unplugged'."""

    def __init__(self, connected: bool = True, message: str = ""):
        self.status = type("Status", (), {"connected": connected, "message": message})()

    def feed(self, event):
        return False

    def poll(self):
        return []

    def stop(self):
        pass


class NoFrames:
    """A camera that delivers nothing; `fail` makes it report being unplugged."""

    def __init__(self):
        self.error = None
        self.fail = False

    def read(self):
        from hardware import FrameSourceError

        self.error = FrameSourceError("camera unplugged", "test") if self.fail else None
        return None

    def close(self):
        pass


def table_app(tmp_path, frames, buttons, game="thirteen", table="", **kw):
    from controller.config import parse_config
    from controller.setup_menu import SetupResult
    from controller.table_app import TableApp

    app = TableApp(parse_config(f'[table]\njournal_dir = "{tmp_path}"\n{table}'), Screen((800, 480), headless=True),
                   frames, buttons, **kw)
    app.menu.done = SetupResult(game, ("Ann",), {})
    app.start_new()
    return app



def test_wrong_number_of_dice_is_shown_and_changes_nothing():
    p = player(START + "throw 4dice.jpg\n")
    p.run()
    flow = p.flow
    assert flow.phase == WAIT_DICE and flow.log.inputs == []
    assert "I see 4 dice" in flow.message.text
    assert flow.view().message.level == "warning"


def test_wait_lets_a_reading_with_a_die_to_check_count_too(monkeypatch):
    """Accepting by time in a script (`wait`, and the script's end) lets the reading count even
    when a die is outlined to check (it then waits check_seconds, longer than the usual moment)."""
    from dataclasses import replace

    from vision import reader

    real = reader.read

    def unsure_third_die(image, *args, **kw):
        r = real(image, *args, **kw)
        dice = list(r.dice)
        if len(dice) == 5:
            dice[2] = replace(dice[2], confidence=0.8)
        return replace(r, dice=tuple(dice))

    monkeypatch.setattr(reader, "read", unsure_third_die)
    p = player(START + "throw d12345.jpg\n")   # the end of a script accepts by time, as `wait` does
    flow = p.run()
    assert flow.phase == DECIDE and sorted(flow.log.inputs[0]["values"]) == [1, 2, 3, 4, 5]
    assert p.errors == []


def test_unreadable_frame_is_shown_and_the_game_goes_on():
    p = player(START + "throw corrupt.jpg\nthrow d12345.jpg\nchoose STRAIGHTS\n")
    flow = p.run()
    assert p.errors == ["script line 2: unreadable fixture corrupt.jpg"]
    assert flow.log.inputs[-1] == {"type": "choose", "player": 0, "option": "STRAIGHTS"}


def test_a_hand_in_the_tray_is_not_read_as_dice():
    p = player(START + "throw hand.jpg\n")
    flow = p.run()
    assert flow.log.inputs == [] and flow.phase == WAIT_DICE


def test_a_held_die_that_changed_is_refused_then_the_right_tray_is_accepted():
    p = player(START + "throw d66235.jpg\nkeep 6 6\nthrow d12345.jpg\n")
    flow = p.run()
    before = snapshot(flow)
    assert "held die changed" in flow.message.text
    assert flow.phase == WAIT_DICE
    p.throw("d66611.jpg")
    p.settle_confirmation()
    assert snapshot(flow) != before
    last = flow.log.inputs[-1]
    assert last["type"] == "dice" and sorted(last["values"]) == [1, 1, 6]


def test_a_press_when_nothing_is_expected_changes_nothing():
    p = player(START + "press OK\npress HOLD3\npress UP\n")
    flow = p.run()
    assert flow.log.inputs == [] and "does nothing now" in flow.message.text


def test_a_misread_is_corrected_with_a_long_ok():
    # d12345.jpg reads, left to right, 2 5 3 4 1. The players say the leftmost die is really a 6:
    # hold OK to correct, UP four times turns the 2 into a 6, hold OK accepts.
    p = player(START + "throw d12345.jpg\nhold OK\npress UP\npress UP\npress UP\npress UP\nhold OK\n")
    flow = p.run()
    assert flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 5, 3, 4, 1]}]


def test_camera_unplugged_and_back_keeps_the_game(tmp_path):
    """The real-table loop with a camera that fails, then comes back, then a power cut."""
    from controller.table_app import TableApp
    from vision.types import Die, Reading

    frames = NoFrames()
    app = table_app(tmp_path, frames, FakeButtons())
    app.flow.on_reading(Reading(tuple(Die(v, (50 * i, 0, 50 * i + 40, 40), (50 * i + 20, 20), 0.95)
                                      for i, v in enumerate([1, 2, 3, 4, 5]))))
    app.flow.on_button(type("P", (), {"kind": "press", "name": "OK"})())
    before = snapshot(app.flow)
    frames.fail = True
    app.step()
    assert app.flow.message.level == "error" and "unplugged" in app.flow.message.text
    assert snapshot(app.flow) == before
    frames.fail = False
    app.step()
    assert "back" in app.flow.message.text.lower()
    # a power cut now: a new app resumes the same game from the journal
    again = TableApp(app.config, app.screen, NoFrames(), FakeButtons())
    assert again.flow is not None and snapshot(again.flow) == before
    assert "Resumed" in again.flow.message.text


def _kiosk_after_a_throw(tmp_path, **kw):
    """The kiosk's app with Ann's first throw (6 6 6 3 3) read and accepted, and `push(name)`,
    a button press through the app."""
    from vision.types import Die, Reading

    app = table_app(tmp_path, NoFrames(), FakeButtons(), **kw)

    def push(name):
        app.on_button(type("P", (), {"kind": "press", "name": name})())

    app.flow.on_reading(Reading(tuple(Die(v, (50 * i, 0, 50 * i + 40, 40), (50 * i + 20, 20), 0.95)
                                      for i, v in enumerate([6, 6, 6, 3, 3]))))
    push("OK")
    return app, push


def test_the_final_standings_survive_the_last_choices_ok_pressed_twice(tmp_path):
    """The last box's OK pressed twice (impatience, a bouncing button) went on to the setup menu
    at once: the standings were never seen, and the last choice could no longer be taken back.
    An OK within a moment of the end says what the screen is; a later one starts a new game."""
    from controller.setup_menu import SetupResult
    from vision.types import Die, Reading

    clock = Clock()
    app = table_app(tmp_path, NoFrames(), FakeButtons(), clock=clock)
    app.menu.done = SetupResult("classic", ("Ann", "Bob"), {"rounds": 1})
    app.start_new()

    def push(name):
        app.on_button(type("P", (), {"kind": "press", "name": name})())
        clock.t += 0.1

    def throw_and_keep(values):
        app.flow.on_reading(Reading(tuple(Die(v, (50 * i, 0, 50 * i + 40, 40), (50 * i + 20, 20), 0.95)
                                          for i, v in enumerate(values))))
        push("OK")                                          # the reading
        while not app.flow.menu()[app.flow.cursor].label.startswith("Keep all"):
            push("DOWN")
        push("OK")

    throw_and_keep([6, 6, 6, 6, 6])
    throw_and_keep([1, 2, 3, 4, 6])
    assert app.flow.phase == OVER
    push("OK")                                              # the same OK, pressed twice
    assert app.flow is not None and app.flow.phase == OVER
    assert "Press OK again for a new game" in app.flow.view().message.text
    push("BACK")
    push("BACK")                                            # the last choice can still be taken back
    assert app.flow.phase == DECIDE and len(app.flow.log.inputs) == 3
    push("OK")                                              # chosen again
    clock.t += 3
    push("OK")                                              # seen: a new game
    assert app.flow is None and app.menu.page == "game"


def test_a_game_left_alone_asks_still_playing_then_is_put_away_and_kept(tmp_path):
    """Players walk off mid-game: the table used to keep their game for ever, and the next group
    had to guess ABANDON twice (no screen of a game names it; long DOWN twice on three buttons).
    Now after idle_minutes it asks; a press answers (and does nothing else); unanswered, the game
    is archived as abandoned and the café's setup menu comes back, even after a restart."""
    from controller.idle import STILL_PLAYING_SECONDS
    from controller.table_app import TableApp

    clock = Clock()
    app, push = _kiosk_after_a_throw(tmp_path, clock=clock, table="idle_minutes = 20\n")
    before = snapshot(app.flow)
    clock.t += 19 * 60
    app.step()
    assert app.flow.view().message is None
    clock.t += 60
    app.step()
    asked = app.flow.view().message
    assert asked.text.startswith("Still playing? Press any button to carry on") and "2 minutes" in asked.text
    push("OK")                                            # answered: the OK scores nothing
    assert snapshot(app.flow) == before and "Carry on" in app.flow.view().message.text
    clock.t += 20 * 60 + STILL_PLAYING_SECONDS - 1
    app.step()
    assert app.flow is not None and app.flow.view().message.text.startswith("Still playing?")
    clock.t += 2
    app.step()
    assert app.flow is None and app.menu.page == "game"
    assert app.menu.view().message.text.startswith("Nobody played Thirteen (Ann) for 22 minutes")
    [kept] = (tmp_path / "games").iterdir()
    assert kept.name.endswith("-thirteen-put-away.jsonl") and not (tmp_path / "current.jsonl").exists()
    again = TableApp(app.config, app.screen, NoFrames(), FakeButtons())   # a restart: nothing to resume
    assert again.flow is None


def test_a_throw_is_someone_playing_a_camera_frame_alone_is_not(tmp_path):
    clock = Clock()
    camera = TrayCamera(None)
    app = table_app(tmp_path, camera, FakeButtons(), clock=clock, table="idle_minutes = 30\n")
    for _ in range(10):
        app.step()                                          # (frames of the empty tray)
    clock.t += 25 * 60
    camera.show("d12345.jpg")                               # a throw, 25 minutes in
    for _ in range(40):
        app.step()
    assert app.flow.phase == CONFIRM                        # (read, shown)
    clock.t += 10 * 60
    app.step()
    assert app.flow.view().message is None                  # 10 minutes after the throw: not asked
    clock.t += 20 * 60
    app.step()
    assert app.flow.view().message.text.startswith("Still playing?")


def test_a_game_resumed_from_last_nights_journal_asks_still_playing_at_once(tmp_path):
    """The café closed with a game on the table: at opening the table resumed it, and the first
    group had to wait idle_minutes (or guess ABANDON twice) for the menu. A journal untouched
    for idle_minutes or more is asked about at once; a recent one (a power cut) is not."""
    import os
    import time

    from controller.table_app import TableApp

    clock, wall = Clock(), WallClock(time.time())              # (the clock set by the network)
    app, push = _kiosk_after_a_throw(tmp_path, clock=clock, wall=wall, table="idle_minutes = 30\n")
    journal = tmp_path / "current.jsonl"
    os.utime(journal, (time.time() - 10 * 60,) * 2)           # a power cut ten minutes ago
    again = TableApp(app.config, app.screen, NoFrames(), FakeButtons(), clock=clock, wall=wall)
    clock.t += 10                                               # (the "Resumed" notice has faded)
    again.step()
    assert again.flow is not None and again.flow.view().message is None
    os.utime(journal, (time.time() - 12 * 3600,) * 2)          # last night
    again = TableApp(app.config, app.screen, NoFrames(), FakeButtons(), clock=clock, wall=wall)
    clock.t += 10
    again.step()
    assert again.flow.view().message.text.startswith("Still playing?")
    clock.t += 120
    again.step()
    assert again.flow is None
    assert again.menu.view().message.text.startswith("Nobody played Thirteen (Ann) for 12 hours: it was put away")


def test_the_standings_and_a_half_set_menu_left_alone_go_back_to_the_cafes_menu(tmp_path):
    """The final standings, or the last group's names and rules on the menu, are not what the
    next group should find: after idle_minutes the table shows the setup menu as configured."""
    clock = Clock()
    app, push = _kiosk_after_a_throw(tmp_path, clock=clock, table='idle_minutes = 5\n')
    push("ABANDON")
    push("ABANDON")
    assert app.flow.phase == OVER
    clock.t += 5 * 60
    app.step()
    assert app.flow is None and app.menu.page == "game"
    for name in ("DOWN", "OK", "DOWN", "OK"):                 # Classic, 3 players, on the names page
        push(name)
    assert app.menu.page == "names" and app.menu.count == 3
    clock.t += 5 * 60
    app.step()
    assert app.menu.page == "game" and app.menu.game.name == "thirteen" and app.menu.count == 2


def test_idle_minutes_0_keeps_a_game_for_ever(tmp_path):
    clock = Clock()
    app, push = _kiosk_after_a_throw(tmp_path, clock=clock, table="idle_minutes = 0\n")
    clock.t += 7 * 24 * 3600
    app.step()
    assert app.flow is not None and app.flow.view().message is None


def test_a_choice_taken_back_stays_taken_back_after_a_power_cut(tmp_path):
    """The kiosk journals a take-back: a resumed table does not replay the choice undone."""
    from controller.table_app import TableApp

    app, push = _kiosk_after_a_throw(tmp_path)
    before = snapshot(app.flow)
    push("OK")                                         # a box scored (the cursor's best one)
    assert len(app.flow.log.inputs) == 2
    push("BACK")
    push("BACK")
    assert snapshot(app.flow) == before and "Taken back" in app.flow.message.text
    again = TableApp(app.config, app.screen, NoFrames(), FakeButtons())
    assert again.flow is not None and snapshot(again.flow) == before


def test_a_table_whose_games_cannot_be_saved_still_plays_and_says_so(tmp_path, caplog):
    """No storage for the journal (here its folder would be inside a file): the game starts,
    the screen and the log say it cannot be saved, the buttons work, and the end goes back to
    the menu without a crash."""
    from vision.types import Die, Reading

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    app = table_app(blocker / "journals", NoFrames(), FakeButtons())
    assert app.flow is not None and app.journal is None
    notice = app.flow.view().message
    assert notice.level == "error" and "cannot be saved" in notice.text
    assert "cannot journal games" in caplog.text
    app.flow.on_reading(Reading(tuple(Die(v, (50 * i, 0, 50 * i + 40, 40), (50 * i + 20, 20), 0.95)
                                      for i, v in enumerate([6, 6, 6, 3, 3]))))
    press = type("P", (), {"kind": "press", "name": "OK"})
    app.on_button(press())
    app.on_button(press())                              # a box scored: the game goes on
    assert len(app.flow.log.inputs) == 2
    app.step()
    app.finish_game()                                   # (nothing to archive)
    assert app.flow is None


def test_the_kiosk_watches_motion_on_the_lores_stream_and_reads_full_frames(tmp_path):
    """picamera2 (a fake module, as in the hardware tests): settle detection gets the 320x240
    stream every frame, the reader gets a full frame only once the tray is still."""

    full = cv2.imread(str(FRAMES / "d12345.jpg"))
    lores = cv2.resize(full, (200, 150))
    felt = np.empty_like(lores)
    felt[:] = np.median(lores[0], axis=0).astype(np.uint8)       # the tray empty, then the throw
    calls = {"lores": 0, "full": 0}

    class TwoStreamCamera:
        error = None

        def read_lores(self):
            calls["lores"] += 1
            image = felt if calls["lores"] <= 2 else lores
            return type("F", (), {"image": image, "timestamp": calls["lores"] * 0.1})()

        def read(self):
            calls["full"] += 1
            return type("F", (), {"image": full, "timestamp": calls["lores"] * 0.1})()

        def close(self):
            pass

    from vision.reader import read

    sizes = []

    def reader(image):
        sizes.append(image.shape[:2])
        return read(image)

    app = table_app(tmp_path, TwoStreamCamera(), FakeButtons(), reader=reader)
    for _ in range(20):
        app.step()
    assert calls["lores"] == 20 and 0 < calls["full"] < 20
    assert sizes and all(s == full.shape[:2] for s in sizes)
    assert app.flow.phase in (CONFIRM, "decide")
    assert sorted(app.flow.pending or app.flow.tray_values) == [1, 2, 3, 4, 5]


class TrayCamera(NoFrames):
    """A camera that sees `image` (a fixture's name, None: bare felt), one frame a tenth of a second."""

    def __init__(self, image: str | None = None):
        super().__init__()
        self.n = 0
        self.show(image)

    def show(self, image: str | None) -> None:
        self.image = np.full((480, 640, 3), 60, np.uint8) if image is None else cv2.imread(str(FRAMES / image))

    def read(self):
        self.n += 1
        return type("F", (), {"image": self.image, "timestamp": self.n * 0.1})()


def test_dice_left_in_the_tray_are_not_the_new_games_first_throw(tmp_path):
    """The staff review, on the kiosk itself: the last group's dice lie still in the tray when a
    game starts; they were read and taken as the first player's throw within two seconds. Now the
    screen says they do not count, and the next throw is read."""
    camera = TrayCamera("d66235.jpg")
    app = table_app(tmp_path, camera, FakeButtons())
    for _ in range(40):
        app.step()
    assert app.flow.phase == WAIT_DICE and app.flow.log.inputs == []
    assert "were there before: they do not count" in app.flow.view().message.text
    camera.show(None)                                  # picked up...
    for _ in range(5):
        app.step()
    camera.show("d12345.jpg")                          # ...and thrown
    for _ in range(40):
        app.step()
    assert app.flow.phase in (CONFIRM, DECIDE)
    assert sorted(app.flow.pending or app.flow.tray_values) == [1, 2, 3, 4, 5]


def test_after_a_restart_the_dice_in_the_tray_are_not_the_awaited_throw(tmp_path):
    """Ann kept 6 6 6 and is to throw two dice when the table restarts: the five dice lying in
    the tray (her three and two from before) were read and applied as her throw."""
    from controller.table_app import TableApp

    app, push = _kiosk_after_a_throw(tmp_path)
    for name in ("HOLD1", "HOLD2", "HOLD3", "OK"):           # keep 6 6 6, throw 2 again
        push(name)
    assert app.flow.phase == WAIT_DICE and len(app.flow.log.inputs) == 2
    again = TableApp(app.config, app.screen, TrayCamera("d66611.jpg"), FakeButtons())
    for _ in range(40):
        again.step()
    assert again.flow.phase == WAIT_DICE and len(again.flow.log.inputs) == 2


def test_button_box_unplugged_is_shown_and_the_game_waits(tmp_path):
    box = FakeButtons()
    app = table_app(tmp_path, NoFrames(), box)
    before = snapshot(app.flow)
    box.status = FakeButtons(False, "serial port /dev/ttyACM0 unplugged").status
    app.step()
    assert app.flow.message.level == "error" and "unplugged" in app.flow.message.text
    assert snapshot(app.flow) == before


def test_a_button_jammed_down_is_named_on_the_screen_until_it_comes_up(tmp_path):
    """A spilt drink holds OK down: the screen says so (staff are called), the game is untouched,
    and the notice goes once OK is up. Before, OK did nothing and nothing said why."""
    from gpiozero.pins.mock import MockFactory

    from hardware.button_gpio import GpioButtonSource
    from hw_helpers import FakeClock
    from table_helpers import Clock

    factory, pins_clock = MockFactory(), FakeClock(0.0)
    panel = GpioButtonSource({"OK": 17, "UP": 27, "DOWN": 22}, pin_factory=factory, clock=pins_clock)
    panel.start()
    try:
        clock = Clock()
        app = table_app(tmp_path, NoFrames(), panel, clock=clock)
        before = snapshot(app.flow)
        factory.pin(17).drive_low()
        for _ in range(12):
            pins_clock.advance(1.0)
            app.step()
        assert "Buttons: OK button stuck: call staff" in app.flow.view().message.text
        clock.t += 30                                       # said once, and still there after
        app.step()
        assert app.device_notice().text == "Buttons: OK button stuck: call staff. The other buttons work."
        factory.pin(17).drive_high()
        pins_clock.advance(1.5)
        app.step()
        app.step()
        assert app.device_notice() is None
        assert snapshot(app.flow) == before                 # (its one long OK opened the entry by hand)
    finally:
        panel.stop()
        factory.reset()


def test_a_device_down_stays_on_screen_for_as_long_as_it_lasts_on_the_menu_too(tmp_path):
    """A message said once fades after a few seconds; players would then throw dice that are
    never read with nothing on screen to say why."""
    from table_helpers import Clock

    clock, frames, box = Clock(), NoFrames(), FakeButtons()
    app = table_app(tmp_path, frames, box, clock=clock)
    frames.fail = True
    app.step()
    clock.t += 30
    app.step()
    assert app.flow.message is None                              # the message said has faded
    assert "Camera: test: camera unplugged" in app.flow.view().message.text   # the notice has not
    frames.fail = False
    box.status = FakeButtons(False, "serial port /dev/ttyACM0 unplugged").status
    app.step()
    clock.t += 30
    app.step()
    assert "Buttons: serial port /dev/ttyACM0 unplugged" in app.flow.view().message.text
    box.status = FakeButtons().status
    app.step()
    clock.t += 30
    app.step()
    assert app.flow.view().message is None
    # on the setup menu (no game yet)
    shown = []
    app.screen.show = shown.append
    app.flow = app.runner = None
    frames.fail = True
    app.step()
    assert shown[-1].mode == "setup" and "Camera: test: camera unplugged" in shown[-1].message.text


class _DriverFails(NoFrames):
    """A camera driver raising its own error at every read (picamera2's RuntimeError when the
    camera has gone away while its exposure is set)."""

    def read(self):
        raise RuntimeError("Failed to set controls: camera has gone away")


@pytest.mark.parametrize("wrapped", [True, False], ids=["through the retrying wrapper", "bare"])
def test_a_camera_raising_its_own_error_leaves_the_buttons_and_the_screen_working(tmp_path, wrapped, caplog):
    """Before, every pass raised before the buttons were read and the screen drawn: the table
    froze, and the log had a traceback 20 times a second."""
    from hardware import RetryingFrameSource

    class Hint(FakeButtons):
        def __init__(self):
            super().__init__()
            self.queue = []

        def poll(self):
            out, self.queue = self.queue, []
            return out

    frames = RetryingFrameSource(_DriverFails()) if wrapped else _DriverFails()
    buttons = Hint()
    app = table_app(tmp_path, frames, buttons)
    shown = []
    app.screen.show = shown.append
    before = snapshot(app.flow)
    for _ in range(5):
        buttons.queue = [type("P", (), {"kind": "press", "name": "HINT"})()]
        app.step()
    assert app.flow.help_shown                      # five HINT presses handled: open, shut, ..., open
    assert len(shown) == 5                          # the screen drawn at every pass
    assert shown[-1].message.level == "error"
    assert "camera has gone away" in shown[-1].message.text or "Something went wrong" in shown[-1].message.text
    assert snapshot(app.flow) == before
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1                     # logged once, not at every pass


def test_finished_games_are_archived_and_only_the_newest_kept(tmp_path):
    """A kiosk runs for years: beyond `keep_games` the oldest archived journals go."""
    from controller.config import parse_config
    from controller.setup_menu import SetupResult
    from controller.table_app import TableApp

    games = tmp_path / "games"
    games.mkdir()
    for day in range(1, 5):                          # four older games, named by date as archived
        (games / f"2026010{day}-120000-thirteen.jsonl").write_text("{}\n")
    config = parse_config(f'[table]\njournal_dir = "{tmp_path}"\nkeep_games = 3\n')
    app = TableApp(config, Screen((800, 480), headless=True), NoFrames(), FakeButtons())
    app.menu.done = SetupResult("thirteen", ("Ann",), {})
    app.start_new()
    assert (tmp_path / "current.jsonl").exists()
    app.finish_game()
    kept = sorted((p.name for p in games.iterdir()), key=archive_order)
    assert len(kept) == 3 and not (tmp_path / "current.jsonl").exists()
    assert kept[:2] == ["20260103-120000-thirteen.jsonl", "20260104-120000-thirteen.jsonl"]
    assert kept[2].startswith("000001-") and kept[2].endswith("-thirteen.jsonl")


def test_the_demo_shows_the_how_to_play_card_first_and_plays_the_same_game(tmp_path):
    """With screenshots, the demo presses HINT on its first frame (its first screenshot is the
    card) and again to close it: the game played is the same as without."""
    from controller.table_cli import play_demo_game

    screen = Screen((800, 480), headless=True)
    shown = play_demo_game("classic", ["Ann", "Bob"], screen, seed=3, shots=tmp_path, realtime=False)
    plain = play_demo_game("classic", ["Ann", "Bob"], screen, seed=3, shots=None, realtime=False)
    assert Path(shown.screenshots[0]).name == "classic-01-how-to-play.png"
    assert (shown.result, shown.inputs, shown.throws) == (plain.result, plain.inputs, plain.throws)
    card = cv2.imread(shown.screenshots[0])
    final = cv2.imread(shown.screenshots[-1])
    assert card.shape == (480, 800, 3) and not np.array_equal(card[:, 400:], final[:, 400:])


def test_a_table_that_cannot_start_says_why_on_its_screen_until_the_config_changes(tmp_path, monkeypatch):
    """A start that fails (here a part of the table raising as it is built): before, the kiosk's
    screen stayed black while systemd restarted the program every two seconds. Now the error is on
    the screen, and the program waits there until the config file is saved again, then ends
    (systemd starts it with the new file). (A mistake in the file itself no longer stops the
    table: see test_a_config_with_mistakes_starts_the_table_and_says_what_was_left_out.)"""
    import argparse

    import controller.table_app as table_app_module
    import controller.table_cli as table_cli

    def fails(config):
        raise ValueError(f"{tmp_path / 'config.toml'}: not valid TOML (at line 1)\n  line 1: [camera")

    monkeypatch.setattr(table_app_module, "usable_hardware", fails)
    config = tmp_path / "config.toml"
    config.write_text("[camera\n")
    shown = []
    real_show = Screen.show
    monkeypatch.setattr(Screen, "show", lambda self, view: (shown.append(view), real_show(self, view))[1])
    sleeps = []

    def sleep(seconds):
        sleeps.append(seconds)
        if len(sleeps) == 3:
            config.write_text('[table]\ngame = "school"\n')       # the staff fix the file

    args = argparse.Namespace(config=str(config), fullscreen=False, headless=True)
    assert table_cli.run_table(args, sleep=sleep) == 2
    assert len(sleeps) == 3                                         # waited until the file changed
    assert len(shown) == 1 and shown[0].title == "The table cannot start"
    assert shown[0].message.level == "error" and "not valid TOML" in shown[0].message.text
    assert "line 1: [camera" in shown[0].message.text and str(config) in shown[0].prompt.hint


def _start_from(tmp_path, text):
    """The kiosk's TableApp built from a config file of `text` (its camera a folder of one tray)."""
    import argparse

    from controller.table_app import TableApp

    (tmp_path / "cam").mkdir(exist_ok=True)
    (tmp_path / "cam" / "d12345.jpg").write_bytes((FIX / "table" / "d12345.jpg").read_bytes())
    config = tmp_path / "config.toml"
    config.write_text(text.format(tmp=tmp_path), encoding="utf-8")
    return TableApp.from_args(argparse.Namespace(config=str(config), fullscreen=False, headless=True))


# a café's file with a mistake in each part; the table must start with what is right in it
MISTAKES = """[table]
journal_dir = "{tmp}/games"
game = "classic"
players = ["Window", "Bar"]
confirm_seconds = 1.5 s
[table.options.classic]
first_to = "three"
rounds = 2
[display]
fullscreen = True
[camera]
type = "folder"
path = "{tmp}/cam"
[[buttons.sources]]
type = "keyboard"
[[buttons.sources]]
type = "serial"
port = "/dev/null"
baudrat = 9600
"""


def test_a_config_with_mistakes_starts_the_table_and_says_what_was_left_out(tmp_path):
    """Before, one typo anywhere in the file kept the table on "The table cannot start" until the
    staff came and fixed it (a café's evening without its table). Now each mistake is left out,
    the rest used, and the menu says the first and how many more."""
    app = _start_from(tmp_path, MISTAKES)
    config = app.config
    assert (config.table.game, config.table.players, config.table.options) == (
        "classic", ("Window", "Bar"), {"classic": {"rounds": 2}})
    assert config.table.journal_dir == tmp_path / "games" and config.camera["type"] == "folder"
    assert config.buttons == {"type": "multi", "sources": [{"type": "keyboard"}]}      # (the box left out)
    assert len(config.problems) == 4 and "baudrat" in config.problems[-1]
    message = app.menu.view().message
    assert message.level == "error" and message.text.startswith(
        "Config file mistakes, left out: line 5: confirm_seconds = 1.5 s (and 3 more).")
    assert "dicetable check" in message.text
    app.frames.close()


def test_a_game_resumed_with_a_config_mistake_says_it_whenever_it_says_nothing_else(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    (games / "current.jsonl").write_text(json.dumps({"format": "dicetable-log/1", "game": "classic",
                                                     "players": ["Ann", "Bob"], "options": {}}) + "\n")
    app = _start_from(tmp_path, MISTAKES.replace('confirm_seconds = 1.5 s', 'confirm_seconds = "1.5"'))
    assert app.flow is not None and app.flow.view().message.text.startswith("Resumed")
    app.flow.message = None                                         # (the notice of the resume has faded)
    assert app.flow.view().message.text.startswith(
        "Config file mistakes, left out: line 10: fullscreen = True (and 3 more).")
    app.frames.close()


def test_a_camera_section_with_a_mistake_leaves_the_camera_unused_and_the_screen_says_why(tmp_path):
    app = _start_from(tmp_path, '[table]\njournal_dir = "{tmp}/games"\n[camera]\ntype = "folder"\n'
                                'path = "{tmp}/cam"\nlop = true\n[buttons]\ntype = "keyboard"\n')
    assert app.frames.read() is None and "not set up, fix [camera] in the config file" in str(app.frames.error)
    assert "lop" in str(app.frames.error) and "lop" in app.config.problems[0]


def test_if_the_screen_itself_cannot_open_the_table_ends_at_once(tmp_path, monkeypatch):
    import argparse

    import controller.table_cli as table_cli

    def no_screen(*a, **k):
        raise RuntimeError("kmsdrm not available")

    import controller.table_app as table_app_module

    monkeypatch.setattr(table_cli, "Screen", no_screen)
    monkeypatch.setattr(table_app_module, "Screen", no_screen)
    config = tmp_path / "config.toml"
    config.write_text("[camera\n")
    args = argparse.Namespace(config=str(config), fullscreen=True, headless=False)
    assert table_cli.run_table(args, sleep=lambda s: pytest.fail("must not wait")) == 2


def test_the_kiosk_loop_tells_systemd_it_is_alive_and_survives_an_error_in_a_step(tmp_path, monkeypatch):
    """run_forever: READY, then a watchdog ping from the loop; a step that raises is logged and
    the loop goes on; when it stops, the devices are closed."""
    import socket

    path = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(path)
    listener.settimeout(1.0)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "60000000")
    closed = []
    buttons = FakeButtons()
    monkeypatch.setattr(buttons, "stop", lambda: closed.append("buttons"), raising=False)
    app = table_app(tmp_path, NoFrames(), buttons)
    monkeypatch.setattr(app.frames, "close", lambda: closed.append("camera"), raising=False)
    steps = []

    def step():
        steps.append(1)
        if len(steps) == 2:
            raise RuntimeError("a driver went wrong")
        if len(steps) == 4:
            app.running = False

    monkeypatch.setattr(app, "step", step)
    import signal

    handler = signal.getsignal(signal.SIGTERM)        # (run_forever installs its own)
    try:
        assert app.run_forever() == 0
        got = [listener.recv(64).decode(), listener.recv(64).decode()]
    finally:
        listener.close()
        signal.signal(signal.SIGTERM, handler)
    assert got == ["READY=1", "WATCHDOG=1"] and len(steps) == 4
    assert closed == ["buttons", "camera"]
    assert "Something went wrong; the game is safe" in app.flow.message.text


def test_pruning_skips_a_folder_kept_aside_and_goes_on_past_an_error(tmp_path, caplog, monkeypatch):
    """A `current.jsonl` that was a folder is kept aside as games/<n>-<date>-unreadable.jsonl, a
    folder: pruning used to stop there (IsADirectoryError) and never removed anything again.
    Now it counts only files, and one that cannot be removed does not stop the others."""
    from controller.config import parse_config
    from controller.setup_menu import SetupResult
    from controller.table_app import TableApp

    games = tmp_path / "games"
    games.mkdir()
    (games / "20200101-000000-unreadable.jsonl").mkdir()
    for day in range(1, 6):
        (games / f"2026010{day}-120000-thirteen.jsonl").write_text("{}\n")
    config = parse_config(f'[table]\njournal_dir = "{tmp_path}"\nkeep_games = 2\n')
    app = TableApp(config, Screen((800, 480), headless=True), NoFrames(), FakeButtons())
    stuck = games / "20260101-120000-thirteen.jsonl"
    unlink = Path.unlink

    def failing_unlink(self, *args, **kw):
        if self == stuck:
            raise PermissionError(13, "Permission denied", str(self))
        return unlink(self, *args, **kw)

    monkeypatch.setattr(Path, "unlink", failing_unlink)
    app.menu.done = SetupResult("thirteen", ("Ann",), {})
    app.start_new()
    app.finish_game()
    files = sorted((p.name for p in games.iterdir() if p.is_file()), key=archive_order)
    assert (games / "20200101-000000-unreadable.jsonl").is_dir()     # kept aside, never pruned
    assert files[0] == stuck.name and len(files) == 3                 # the newest 2, and the stuck one
    assert files[1] == "20260105-120000-thirteen.jsonl"
    assert "cannot remove old journal" in caplog.text and stuck.name in caplog.text


def test_an_abandoned_game_stays_abandoned_after_a_power_cut(tmp_path, capsys):
    """ABANDON twice was not journaled: a power cut before OK (the next game) resumed the game
    the players had abandoned. Now its journal is archived at once as <game>-abandoned, and it
    still replays."""
    from controller.table_app import TableApp

    clock = Clock()
    app, push = _kiosk_after_a_throw(tmp_path, clock=clock)
    push("ABANDON")
    assert (tmp_path / "current.jsonl").exists()         # once: only a warning
    push("ABANDON")
    assert app.flow.abandoned and not (tmp_path / "current.jsonl").exists()
    [kept] = (tmp_path / "games").iterdir()
    assert kept.name.endswith("-thirteen-abandoned.jsonl")
    again = TableApp(app.config, app.screen, NoFrames(), FakeButtons())   # the power cut
    assert again.flow is None and again.menu.view().message is None
    clock.t += 3
    push("OK")                                           # the players go on: back to the menu
    assert app.flow is None and list((tmp_path / "games").iterdir()) == [kept]
    assert main(["replay", str(kept)]) == 0
    assert "not over" in capsys.readouterr().out


def test_archiving_a_game_beside_5000_others_reads_no_file_but_the_folder(tmp_path, monkeypatch):
    """At `keep_games = 5000` (the default), every game's end listed the archive with Path.glob and
    is_file: one stat, so one inode read, per archived game (0.1-0.2 s here, longer on a Pi's SD
    card just after a boot) while the screen waits. The folder's entries say which are files."""
    import os

    from controller.config import parse_config
    from controller.setup_menu import SetupResult
    from controller.table_app import TableApp

    games = tmp_path / "games"
    games.mkdir()
    for n in range(5000):
        (games / f"2025{n:04d}-120000-thirteen.jsonl").write_text("{}\n")
    config = parse_config(f'[table]\njournal_dir = "{tmp_path}"\n')
    app = TableApp(config, Screen((800, 480), headless=True), NoFrames(), FakeButtons())
    app.menu.done = SetupResult("thirteen", ("Ann",), {})
    app.start_new()
    stats = []
    real_stat = os.stat

    def counting_stat(path, *args, **kw):
        stats.append(path)
        return real_stat(path, *args, **kw)

    monkeypatch.setattr(os, "stat", counting_stat)
    app.finish_game()
    monkeypatch.undo()
    names = sorted((p.name for p in games.iterdir()), key=archive_order)
    assert len(names) == 5000 and names[0] == "20250001-120000-thirteen.jsonl"     # the oldest went
    assert names[-1].startswith("000001-") and names[-1].endswith("-thirteen.jsonl")
    assert len(stats) < 10


def test_a_misspelt_setting_is_logged_once_when_the_table_starts(tmp_path, caplog):
    """The config's reader logs each warning; `dicetable run` logged them all a second time."""
    import argparse
    import logging

    from controller.table_app import TableApp

    config = tmp_path / "config.toml"
    config.write_text(f'[table]\njournal_dir = "{tmp_path}"\nconfrim_seconds = 2\n'
                      f'[camera]\ntype = "folder"\npath = "{tmp_path}"\n')
    caplog.set_level(logging.INFO)
    app = TableApp.from_args(argparse.Namespace(config=str(config), fullscreen=False, headless=True))
    app.buttons.stop()
    app.frames.close()
    said = [r for r in caplog.records if "confrim_seconds" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING


class _Pictures(NoFrames):
    """A camera sending `image` at every read while it is set, nothing (and no error) while None."""

    def __init__(self, image):
        super().__init__()
        self.image = image
        self.t = 0.0

    def read(self):
        if self.image is None:
            return None
        self.t += 0.05
        return type("Frame", (), {"image": self.image, "timestamp": self.t})()


def test_a_camera_that_stops_sending_pictures_is_said_until_they_come_back(tmp_path):
    """A camera driver that hangs (or repeats a frame the source drops as not new) sends no
    picture and no error: before, the screen kept its last picture as if live and dice thrown
    meanwhile went unread without a word."""
    from table_helpers import Clock

    from vision.synthetic import render_tray

    clock = Clock()
    tray = render_tray([], seed=3).image
    frames = _Pictures(tray)
    app = table_app(tmp_path, frames, FakeButtons(), clock=clock)
    for _ in range(3):
        clock.t += 0.05
        app.step()
    frames.image = None
    clock.t += 1.0
    app.step()
    assert app.flow.view().message is None                       # a frame or two late: nothing to say
    clock.t += 2.5
    app.step()
    notice = app.flow.view().message
    assert notice.level == "error" and "Camera: no new picture" in notice.text
    frames.image = tray
    clock.t += 0.05
    app.step()
    assert app.flow.view().message is None


def test_the_table_counts_the_cards_pages_for_its_own_screen(tmp_path):
    """HINT turns a long card's pages as the table's own screen draws them: on a 1920x1080 screen
    Pok'n Roll's longest card is one page, and HINT again closes it (counted for the smallest
    screen, it would have taken a press that changes nothing)."""
    from card_helpers import longest_rules
    from controller.config import parse_config
    from controller.setup_menu import SetupResult
    from controller.table_app import TableApp

    app = TableApp(parse_config(f'[table]\njournal_dir = "{tmp_path}"\n'), Screen((1920, 1080), headless=True),
                   NoFrames(), FakeButtons())
    assert app.menu.screen_size == (1920, 1080)
    app.menu.done = SetupResult("poknroll", ("Ann", "Bob", "Cy"), longest_rules("poknroll"))
    app.start_new()
    assert app.flow.screen_size == (1920, 1080)
    app.on_button(type("P", (), {"kind": "press", "name": "HINT"})())
    assert app.flow.help_shown
    app.on_button(type("P", (), {"kind": "press", "name": "HINT"})())
    assert not app.flow.help_shown
    app.finish_game()
    app._fresh_menu()                     # (the menu a table left alone goes back to)
    assert app.menu.screen_size == (1920, 1080)


def test_a_game_left_overnight_is_still_asked_about_at_once_after_a_second_cut(tmp_path):
    """The power flickered at opening: the first start resumed last night's game and asked
    *Still playing?*; it wrote the journal again, and the second start took that for a move and
    did not ask (the game stayed on the table for another idle_minutes). Also after damage."""
    import os
    import time

    from controller.table_app import TableApp

    clock, wall = Clock(), WallClock(time.time())              # (the clock set by the network)
    app, push = _kiosk_after_a_throw(tmp_path, clock=clock, wall=wall, table="idle_minutes = 30\n")
    journal = tmp_path / "current.jsonl"
    for damage in (b"", b"garbage\n" + journal.read_bytes().splitlines(keepends=True)[-1]):
        with journal.open("ab") as fh:
            fh.write(damage)
        os.utime(journal, (time.time() - 12 * 3600,) * 2)          # last night
        for cut in range(3):
            again = TableApp(app.config, app.screen, NoFrames(), FakeButtons(), clock=clock, wall=wall)
            clock.t += 20     # (after the resumed message's pages: the kept journal's path is one of its own)
            again.step()
            assert again.flow.view().message.text.startswith("Still playing?"), (damage, cut)


def test_a_misspelt_house_rule_is_said_on_the_menu_not_only_in_the_log(tmp_path):
    """[table.options.classic] first_too = 5: the café's house rule was not played (Classic to 3
    wins) and only the log said so; the players trust the table's rules, the staff read its screen."""
    app = _start_from(tmp_path, '[table]\njournal_dir = "{tmp}/games"\ngame = "classic"\n'
                                '[table.options.classic]\nfirst_too = 5\n[camera]\ntype = "folder"\n'
                                'path = "{tmp}/cam"\n[buttons]\ntype = "keyboard"\n')
    message = app.menu.view().message
    assert message.level == "warning" and message.text.startswith(
        "Config file mistake, left out: [table.options.classic]: unknown key(s) first_too ignored. ")
    app.frames.close()


def test_a_second_table_on_the_same_journal_folder_is_refused_and_touches_nothing(tmp_path, monkeypatch, capsys):
    """Staff checking the table by hand (`dicetable run` in a shell) while the service ran: both
    resumed the same journal, and the one in the shell, seeing no press, put the game away after
    idle_minutes, moving the journal the real table was writing. The second now stops at once,
    saying which process holds the folder, and leaves the journal as it was."""
    import argparse
    import os

    from controller.table_app import TableApp
    from controller.table_lock import hold_table_lock

    monkeypatch.setattr(TableApp, "run_forever", lambda self: 0)
    games = tmp_path / "games"
    games.mkdir()
    journal = games / "current.jsonl"
    journal.write_text(json.dumps({"format": "dicetable-log/1", "game": "classic", "players": ["Ann", "Bob"],
                                   "options": {}}) + "\n" + json.dumps({"type": "dice", "player": 0,
                                                                         "values": [6, 6, 6, 6, 6]}) + "\n")
    before = journal.stat().st_ino, journal.read_text()
    config = tmp_path / "config.toml"
    config.write_text(f'[table]\njournal_dir = "{games}"\n[camera]\ntype = "folder"\npath = "{FIX / "table"}"\n'
                      '[buttons]\ntype = "keyboard"\n')
    args = argparse.Namespace(config=str(config), fullscreen=False, headless=True)
    held = hold_table_lock(games)                                   # the table already running
    assert table_cli.run_table(args, sleep=lambda s: pytest.fail("no error screen")) == 2
    assert f"another table is running on {games} (process {os.getpid()})" in capsys.readouterr().err
    assert (journal.stat().st_ino, journal.read_text()) == before   # not resumed, not written again
    held.close()                                                    # (that table stopped)
    assert table_cli.run_table(args) == 0                           # the next start takes it up


def test_the_journal_folders_lock_writes_nothing_in_it(tmp_path):
    """The lock was a file written in the journal folder: on a full card it took the last free
    block, and the journal had none (`dicetable bench powercut`'s full card: the game never saved,
    its setup never done); held open for writing, it kept a failing card from being remounted
    read-only (mount: busy). The lock is on the folder itself: nothing is made in it."""
    from controller.table_lock import TableBusy, hold_table_lock

    games = tmp_path / "games"
    held = hold_table_lock(games)
    assert held is not None and list(games.iterdir()) == []
    with pytest.raises(TableBusy, match=f"process {os.getpid()}"):
        hold_table_lock(games)
    held.close()
    hold_table_lock(games).close()                                  # let go: taken again
