"""`dicetable check`: each part of a table's set-up, good and broken, said in the staff's words."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from controller import check
from controller.check import FAIL, OK, WARN, check_buttons, check_camera, check_journal, run_checks
from controller.cli import main
from controller.config import load_config
from controller.table_user import TableUser
from hardware.fakes import FakeVideoCapture, solid_image


@pytest.fixture(autouse=True)
def _no_table_user(monkeypatch):
    """These checks try the folders themselves, as on a machine without the kiosk's user (a Pi
    with one is tested below, with a user of its own)."""
    monkeypatch.setattr(check, "table_user", lambda: None, raising=False)


def _table(tmp_path, *, calibration: str = "", buttons: str = 'type = "keyboard"', frames: int = 2,
           journal: str | None = None):
    """A config whose camera is a folder of `frames` 640 x 480 images."""
    folder = tmp_path / "frames"
    folder.mkdir(exist_ok=True)
    for i in range(frames):
        cv2.imwrite(str(folder / f"{i}.png"), np.full((480, 640, 3), 60 + i, np.uint8))
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[table]\njournal_dir = "{journal or tmp_path / "games"}"\n\n'
                   f'[camera]\ntype = "folder"\npath = "{folder}"\n\n[buttons]\n{buttons}\n\n{calibration}')
    return cfg


CALIBRATED = '[vision]\ntray = [20, 20, 620, 460]\ndie_px = 48.0\nframe_size = [640, 480]\n'


def _levels(found) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in found:
        out.setdefault(f.part, []).append(f.level)
    return out


def test_a_table_set_up_right_is_ready(tmp_path, capsys):
    cfg = _table(tmp_path, calibration=CALIBRATED)
    assert main(["check", "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert "ok       camera: folder sends 640x480 frames" in out
    assert "ok       calibration: " in out and "die 48 px" in out
    assert "ok       journal: games are saved in" in out
    assert out.rstrip().endswith("ready")
    assert not (tmp_path / "games").exists()          # a check changes nothing


def test_each_broken_part_is_a_problem_with_what_to_do(tmp_path, capsys):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    other_shape = CALIBRATED.replace("frame_size = [640, 480]", "frame_size = [1920, 1080]")
    cfg = _table(tmp_path, calibration=other_shape, journal=str(blocker / "games"),
                 buttons='type = "serial"\nport = "/dev/no-such-box"')
    found = run_checks(cfg, buttons={"wait_s": 0.3})
    levels = _levels(found)
    assert levels["journal"] == [FAIL] and levels["calibration"] == [FAIL] and levels["buttons"] == [FAIL]
    assert levels["camera"] == [OK] and levels["config"] == [OK]
    text = {f.part: f.text for f in found}
    assert "power cut" in text["journal"]
    assert "1920x1080" in text["calibration"] and "640x480" in text["calibration"]
    assert "calibrate --camera" in text["calibration"]
    assert "/dev/no-such-box" in text["buttons"]
    assert main(["check", "--config", str(cfg)]) == 1
    assert "3 problems: see above" in capsys.readouterr().out


def test_a_webcam_giving_less_than_asked_is_a_warning(tmp_path):
    """Before, `dicetable check` said only "opencv sends 1280x720 frames": not that MJPG was asked
    and YUYV given, at 5 frames a second."""
    cfg = tmp_path / "config.toml"
    cfg.write_text('[camera]\ntype = "opencv"\ndevice = 0\nfourcc = "MJPG"\nwidth = 1280\nheight = 720\n')
    cap = FakeVideoCapture([solid_image(60, (1280, 720))] * 3, actual_size=(1280, 720), actual_fourcc="YUYV",
                           actual_fps=5)
    _, found = check_camera(load_config(cfg), capture_factory=lambda d, api: cap)
    assert [f.level for f in found] == [OK, WARN, WARN]
    assert found[0].text == "opencv sends 1280x720 frames"
    assert found[1].text == "opencv: asked for MJPG, the camera gives YUYV"
    assert found[2].text.startswith("opencv: the camera gives only 5 frames a second (1280x720 YUYV at 5 fps)")


def test_a_camera_that_cannot_open_says_to_stop_the_table(tmp_path):
    cfg = _table(tmp_path, frames=0)
    found = {f.part: f for f in run_checks(cfg)}
    assert found["camera"].level == FAIL and "sudo systemctl stop dicetable" in found["camera"].text
    assert found["calibration"].level == WARN and "calibrate --camera" in found["calibration"].text


def test_a_camera_library_not_installed_says_what_to_install_and_nothing_else(tmp_path, monkeypatch):
    """Before: "picamera2 is not installed (... apt install python3-picamera2 ...). If the table is
    running, stop it first (sudo systemctl stop dicetable); else check the cable": stopping the table
    or a cable does not install a library."""
    import importlib

    real = importlib.import_module

    def no_picamera2(name, *args, **kwargs):
        if name == "picamera2":
            raise ImportError("No module named 'picamera2'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(importlib, "import_module", no_picamera2)
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[table]\njournal_dir = "{tmp_path}"\n[camera]\ntype = "picamera2"\n'
                   '[buttons]\ntype = "keyboard"\n')
    found = {f.part: f for f in run_checks(cfg)}
    assert found["camera"].level == FAIL
    assert "apt install python3-picamera2" in found["camera"].text
    assert "cable" not in found["camera"].text and "systemctl stop" not in found["camera"].text


def test_no_camera_leaves_it_alone_and_still_checks_the_calibration(tmp_path):
    cfg = _table(tmp_path, frames=0, calibration=CALIBRATED)
    levels = _levels(run_checks(cfg, camera=False))
    assert levels["camera"] == [WARN] and levels["calibration"] == [OK]


def test_no_camera_still_checks_the_camera_and_button_settings(tmp_path):
    # a misspelt setting stops the table at its next start: staff checking a running table hear of it now
    cfg = _table(tmp_path, buttons='type = "keyboard"\nhold_tme = 0.8')
    cfg.write_text(cfg.read_text().replace('type = "folder"', 'type = "folder"\nlop = true'))
    found = {f.part: f for f in run_checks(cfg, camera=False)}
    assert found["camera"].level == FAIL and "lop" in found["camera"].text and "starts without the camera" in found["camera"].text
    assert found["buttons"].level == FAIL and "hold_tme" in found["buttons"].text


# Settings of the wrong kind: each went through int(), bool() or tuple() as it was written. The
# first eleven were tracebacks out of `dicetable check` (OverflowError, TypeError); the rest a
# message that did not name the key ("cannot convert float NaN to integer"), or no message at all
# (`loop = "no"` was true, `main_size = [0, 0]` and `width = -1` went to the camera).
BAD_SETTINGS = [
    ("camera", 'type = "folder"\npath = "{frames}"\nrepeat = inf', "[camera] repeat must be a whole number"),
    ("camera", 'type = "folder"\npath = "{frames}"\nrepeat = [1]', "[camera] repeat must be a whole number"),
    ("camera", 'type = "folder"\npath = 5', "[camera] path must be a file or folder in quotes"),
    ("camera", 'type = "folder"\nfiles = [1, 2]', "[camera] files must be a file or folder in quotes"),
    ("camera", 'type = "opencv"\nfourcc = 5', "[camera] fourcc must be a text in quotes"),
    ("camera", 'type = "opencv"\nmax_failures = inf', "[camera] max_failures must be a whole number"),
    ("camera", 'type = "picamera2"\nbuffer_count = inf', "[camera] buffer_count must be a whole number"),
    ("camera", 'type = "picamera2"\ncolour_gains = 5', "[camera] colour_gains must be [red, blue]"),
    ("buttons", 'type = "serial"\nbaudrate = inf', "[buttons] baudrate must be a whole number"),
    ("buttons", 'type = "gpio"\npins = [17]', "[buttons] pins must be a table"),
    ("buttons", 'type = "keyboard"\nkeys = 5', "[buttons] keys must be a table"),
    ("camera", 'type = "folder"\npath = "{frames}"\nrepeat = "abc"', "[camera] repeat must be a whole number"),
    ("camera", 'type = "folder"\npath = "{frames}"\nrepeat = nan', "[camera] repeat must be a whole number"),
    ("camera", 'type = "folder"\npath = "{frames}"\nloop = "no"', "[camera] loop must be true or false"),
    ("camera", 'type = "folder"\nfiles = "a.png"', "[camera] files must be a list of image files"),
    ("camera", 'type = "opencv"\ndevice = "²"', None),           # a path, refused when opened, not a crash
    ("camera", 'type = "opencv"\ndevice = [0]', "[camera] device must be an index or a path"),
    ("camera", 'type = "opencv"\nwidth = -1', "[camera] width must be from 1 to 10000"),
    ("camera", 'type = "opencv"\nfps = nan', "[camera] fps must be a finite number"),
    ("camera", 'type = "picamera2"\nmain_size = [0, 0]', "[camera] main_size width must be from 1 to 10000"),
    ("camera", 'type = "picamera2"\nmain_size = "big"', "[camera] main_size must be [width, height]"),
    ("camera", 'type = "picamera2"\ncamera_num = "x"', "[camera] camera_num must be a whole number"),
    ("camera", 'type = "picamera2"\nwarmup_frames = nan', "[camera] warmup_frames must be a whole number"),
    ("camera", 'type = "picamera2"\ncolour_gains = [nan, 1]', "[camera] colour_gains must be a finite number"),
    ("camera", 'type = "picamera2"\nexposure_time_us = -5', "[camera] exposure_time_us must be >= 1"),
    ("camera", 'type = "picamera2"\nlock_exposure = "yes"', "[camera] lock_exposure must be true or false"),
    ("buttons", 'type = "serial"\nbaudrate = "fast"', "[buttons] baudrate must be a whole number"),
    ("buttons", 'type = "serial"\nport = 5', "[buttons] port must be a text in quotes"),
    ("buttons", 'type = "gpio"\npins = { OK = 17 }\npull_up = "yes"', "[buttons] pull_up must be true or false"),
    ("buttons", 'type = "scripted"\nscript = 5', "[buttons] script must be a text or a list of lines"),
    ("buttons", 'type = "scripted"\nscript = "press OK"\nper_poll = inf', "[buttons] per_poll must be a whole"),
]


@pytest.mark.parametrize("part, setting, message", BAD_SETTINGS)
def test_a_setting_of_the_wrong_kind_is_a_problem_naming_its_key(tmp_path, part, setting, message):
    cfg = _table(tmp_path)
    table = f"[{part}]\n" + setting.replace("{frames}", str(tmp_path / "frames"))
    start = cfg.read_text().index(f"[{part}]")
    end = cfg.read_text().index("\n\n", start)
    cfg.write_text(cfg.read_text()[:start] + table + cfg.read_text()[end:])
    found = {f.part: f for f in run_checks(cfg, camera=False)}
    if message is None:
        assert found[part].level == WARN, found[part].text
        return
    assert found[part].level == FAIL
    assert message in found[part].text


def test_a_source_that_fails_to_build_in_a_way_nobody_foresaw_is_a_problem_not_a_traceback(tmp_path, monkeypatch):
    def broken(config, **inject):
        raise TypeError("an odd value")

    monkeypatch.setattr("hardware.make_frame_source", broken)
    monkeypatch.setattr("hardware.make_button_source", broken)
    cfg = _table(tmp_path)
    for camera in (False, True):
        found = {f.part: f for f in run_checks(cfg, camera=camera)}
        assert found["camera"].level == FAIL and "TypeError: an odd value" in found["camera"].text
        assert found["buttons"].level == FAIL and "TypeError: an odd value" in found["buttons"].text


def test_gpio_buttons_through_the_mock_pin_factory(tmp_path):
    cfg = _table(tmp_path, buttons='type = "gpio"\npins = { OK = 17, UP = 27, HINT = 25 }')
    found = run_checks(cfg, buttons={"pin_factory": MockFactory()})
    assert [(f.level, f.text) for f in found if f.part == "buttons"] == [(OK, "gpio ready")]


def test_a_broken_config_says_where_and_the_check_goes_on_as_the_table_starts(tmp_path, capsys):
    """The table starts without a line TOML cannot read (it stopped on an error screen before),
    so the check says what it leaves out and goes on with the rest, as the table does."""
    cfg = tmp_path / "config.toml"
    cfg.write_text("[camera\n")
    assert main(["check", "--no-camera", "--config", str(cfg)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("PROBLEM  config:") and "line 1" in out[0]
    assert out[1].strip().startswith("line 1: [camera")                 # the line itself, quoted
    assert out[2].strip().startswith("that line is left out")
    assert any(line.startswith("ok       reader:") for line in out)     # the rest is checked too


def test_without_a_config_file_the_defaults_are_named_as_a_warning(tmp_path):
    found = run_checks(tmp_path / "missing.toml", camera=False)
    assert found[0].level == WARN and "built-in defaults" in found[0].text


def test_the_press_test_names_each_button_pressed_and_those_never_pressed(tmp_path, capsys):
    """For whoever wires the buttons: every press is named with its panel, then what is missing."""
    script = "press OK\\nhold UP\\nwait 1\\npress HINT\\npress OK\\n"
    cfg = _table(tmp_path, calibration=CALIBRATED, buttons=f'type = "scripted"\nscript = "{script}"')
    assert main(["check", "--config", str(cfg), "--press-test", "0.3"]) == 0
    out = capsys.readouterr().out
    assert "  OK press (scripted)" in out and "  UP hold (scripted)" in out and "  HINT press (scripted)" in out
    assert "wait" not in out.split("ready", 1)[1]                   # a script's directive is not a button
    last = out.strip().splitlines()[-1]
    assert last == "never pressed: HOLD1, HOLD2, HOLD3, HOLD4, HOLD5, DOWN, BACK, ABANDON"


def test_the_press_test_expects_only_the_buttons_the_panel_has():
    """A three-button panel (docs/hardware.md) pressed in full: nothing is missing. Before, the test
    ended with "never pressed: HOLD1, HOLD2, HOLD3, HOLD4, HOLD5, BACK, ABANDON, HINT"."""
    from controller.check import press_test
    from controller.config import parse_config

    config = parse_config('[buttons]\ntype = "multi"\n[[buttons.sources]]\ntype = "gpio"\nname = "panel"\n'
                          'bounce_time = 0\n[buttons.sources.pins]\nUP = 27\nDOWN = 22\nOK = 17\n'
                          '[[buttons.sources]]\ntype = "keyboard"\n')
    factory = MockFactory()
    presses = iter([17, 27, 22])
    said: list[str] = []
    ticks = iter(range(10_000))

    def sleep(_s: float) -> None:      # between polls: the next button goes down and up
        number = next(presses, None)
        if number is not None:
            factory.pin(number).drive_low()
            factory.pin(number).drive_high()

    missing = press_test(config, 50, say=said.append, clock=lambda: next(ticks) * 0.5, sleep=sleep,
                         pin_factory=factory)
    assert missing == [] and said[-1] == "every button was pressed"
    assert "  OK press (panel)" in said and "  UP press (panel)" in said and "  DOWN press (panel)" in said
    assert any("keyboard is not tested here" in line for line in said)


def test_the_press_test_of_a_gpio_panel_names_its_own_buttons_never_pressed():
    from controller.check import press_test
    from controller.config import parse_config

    config = parse_config('[buttons]\ntype = "gpio"\n[buttons.pins]\nUP = 27\nDOWN = 22\nOK = 17\nHINT = 25\n')
    said: list[str] = []
    ticks = iter(range(10_000))
    missing = press_test(config, 2, say=said.append, clock=lambda: next(ticks) * 0.5, sleep=lambda s: None,
                         pin_factory=MockFactory())
    assert missing == ["OK", "UP", "DOWN", "HINT"] and said[-1] == "never pressed: OK, UP, DOWN, HINT"


def test_the_press_test_of_an_unavailable_panel_says_so_instead_of_never_pressed(capsys):
    """gpiozero without a pin library (python3-lgpio missing, or a venv without the system's
    packages): the test printed gpiozero's four fallback warnings, a log line, then "never pressed:
    OK, UP, DOWN", as if the wiring were wrong."""
    from gpiozero.exc import BadPinFactory

    from controller.check import press_test
    from controller.config import parse_config

    class NoPinLibrary:
        def __getattr__(self, name):
            raise BadPinFactory("Unable to load any default pin factory!")

    config = parse_config('[buttons]\ntype = "gpio"\nname = "panel"\n[buttons.pins]\nUP = 27\nDOWN = 22\nOK = 17\n')
    said: list[str] = []
    ticks = iter(range(10_000))
    missing = press_test(config, 2, say=said.append, clock=lambda: next(ticks) * 0.5, sleep=lambda s: None,
                         pin_factory=NoPinLibrary())
    assert missing == [] and said[-1] == "no button could be tested"
    assert any(line.startswith("  panel: not available (GPIO buttons unavailable: Unable to load any default pin "
                               "factory! (no library reaches the pins: on Raspberry Pi OS, apt install "
                               "python3-lgpio") and line.endswith("its buttons cannot be tested") for line in said)
    assert not any(line.startswith("never pressed") for line in said)
    found = check_buttons(config, wait_s=0.1, pin_factory=NoPinLibrary())
    assert [f.level for f in found] == [FAIL] and "apt install python3-lgpio" in found[0].text
    assert "wiring" not in found[0].text           # (a library, not a wire)


@pytest.mark.parametrize("seconds, error", [
    ("-5", "takes a number of seconds above 0, e.g. 30, not '-5'"),   # printed "(-5 s)" and ran
    ("0", "takes a number of seconds above 0, e.g. 30, not '0'"),     # skipped without a word
    ("nan", "takes a number of seconds above 0, e.g. 30, not 'nan'"),
    ("inf", "takes a number of seconds above 0, e.g. 30, not 'inf'"),
    ("ten", "takes a number of seconds, not 'ten'"),
])
def test_the_press_test_takes_a_positive_number_of_seconds(tmp_path, capsys, seconds, error):
    with pytest.raises(SystemExit) as exc:
        main(["check", "--no-camera", "--config", str(tmp_path / "none.toml"), "--press-test", seconds])
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert err.splitlines()[-1] == f"dicetable check: error: argument --press-test: {error}"


def test_the_keyboard_is_a_spare_real_buttons_are_what_makes_a_table_ready(tmp_path):
    """[buttons] with the GPIO panel, the USB box and the keyboard (as config.example.toml):
    the table is ready when a panel of real buttons is; the keyboard alone does not make it so."""
    multi = ('type = "multi"\nsources = [\n  { type = "gpio", pins = { OK = 17 } },\n'
             '  { type = "serial", port = "/dev/no-such-box" },\n  { type = "keyboard" },\n]')
    cfg = _table(tmp_path, calibration=CALIBRATED, buttons=multi)
    found = [f for f in run_checks(cfg, buttons={"pin_factory": MockFactory(), "wait_s": 0.3}) if f.part == "buttons"]
    assert [f.level for f in found] == [OK, WARN, OK] and "a spare" in found[2].text
    no_panel = multi.replace('{ type = "gpio", pins = { OK = 17 } },\n', "")
    cfg = _table(tmp_path, calibration=CALIBRATED, buttons=no_panel)
    found = [f for f in run_checks(cfg, buttons={"wait_s": 0.3}) if f.part == "buttons"]
    assert [f.level for f in found] == [FAIL, OK]


# ------------------------------------------------------------- the journal, for the table's user
# Staff run `dicetable check` with sudo (root may write anywhere) or from their own login (in the
# dicetable group: it may read the games, not write them). The answer must be the table's.
def _as(uid: int, gids: set[int]) -> TableUser:
    return TableUser("dicetable", uid, frozenset(gids))


@pytest.fixture
def outside_sandbox(monkeypatch):
    """tmp_path lies in /tmp, the service's private one: these tests are about owners and modes."""
    monkeypatch.setattr(check, "sandbox_problem", lambda folder: None)


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="gives folders to other users")


@pytest.fixture
def open_dir():
    """A folder other users may go through (pytest's own tmp_path is its owner's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="dicetable-check-"))
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder)


@needs_root
def test_staff_login_checking_the_tables_folder_is_not_a_problem(open_dir):
    """docs/install.md step 3: /var/lib/dicetable is the table's (0750), the staff's login is in
    its group and may read it, not write it. Before, their `dicetable check` said PROBLEM ("cannot
    write in ...: check the card and the folder's owner") of a folder the table writes every day."""
    table, staff, group = 4242, 4244, 4343
    games = open_dir / "games"
    games.mkdir()
    os.chown(games, table, group)
    os.chmod(games, 0o750)
    cfg = open_dir / "config.toml"
    cfg.write_text(f'[table]\njournal_dir = "{games}"\n[camera]\ntype = "folder"\npath = "{games}"\n'
                   '[buttons]\ntype = "keyboard"\n')
    os.chmod(cfg, 0o644)
    script = ("import sys, os\n"
              "from controller import check\n"
              "from controller.table_user import TableUser\n"
              "check.run_checks(check.Path(sys.argv[1]), camera=False, table_user=None)\n"  # (imports all, as root)
              "check.sandbox_problem = lambda folder: None\n"   # (open_dir is in /tmp)
              f"os.setgroups([{group}]); os.setgid({staff}); os.setuid({staff})\n"
              f"user = TableUser('dicetable', {table}, frozenset([{group}]))\n"
              "found = check.run_checks(check.Path(sys.argv[1]), camera=False, table_user=user)\n"
              "print([f.line() for f in found if f.part == 'journal'])\n")
    done = subprocess.run([sys.executable, "-c", script, str(cfg)], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "ok       journal: games are saved in" in out, out


@needs_root
@pytest.mark.usefixtures("outside_sandbox")
def test_the_table_writes_its_own_folder(open_dir):
    games = open_dir / "games"
    games.mkdir()
    os.chown(games, 4242, 4343)
    os.chmod(games, 0o750)
    [found] = check_journal(games, _as(4242, {4343}))
    assert found.level == OK and str(games) in found.text


@pytest.mark.usefixtures("outside_sandbox")
def test_a_folder_the_table_cannot_write_is_a_problem_even_for_root(open_dir):
    games = open_dir / "games"
    games.mkdir()
    os.chmod(games, 0o755)                           # root's, as `sudo mkdir` leaves it
    [found] = check_journal(games, _as(4242, {4343}))
    assert found.level == FAIL
    assert "the table's user dicetable cannot write in" in found.text
    assert "mode 0755" in found.text and f"sudo chown -R dicetable:dicetable {games}" in found.text


@needs_root
@pytest.mark.usefixtures("outside_sandbox")
def test_a_folder_behind_a_closed_one_is_a_problem(open_dir):
    inner = open_dir / "closed" / "games"
    inner.mkdir(parents=True)
    os.chmod(open_dir / "closed", 0o700)
    os.chown(inner, 4242, 4343)
    [found] = check_journal(inner, _as(4242, {4343}))
    assert found.level == FAIL and f"{open_dir / 'closed'}: owner" in found.text


@needs_root
@pytest.mark.usefixtures("outside_sandbox")
def test_a_missing_folder_is_made_in_a_parent_the_table_can_write(open_dir):
    [found] = check_journal(open_dir / "games", _as(4242, {4343}))
    assert found.level == FAIL and "sudo mkdir -p" in found.text
    os.chown(open_dir, 4242, 4343)
    [found] = check_journal(open_dir / "games", _as(4242, {4343}))
    assert found.level == OK and "made at the first game" in found.text


@pytest.mark.parametrize("folder, why", [
    ("/home/pi/games", "cannot see /home"),
    ("/etc/dicetable/games", "read-only"),
    ("/tmp/games", "emptied whenever the table stops"),
])
def test_a_folder_outside_the_services_sandbox_is_a_problem(folder, why):
    [found] = check_journal(Path(folder), _as(4242, {4343}))
    assert found.level == FAIL and why in found.text and '"/var/lib/dicetable"' in found.text


@pytest.mark.usefixtures("outside_sandbox")
def test_the_state_folder_before_the_first_start_is_made_by_systemd(monkeypatch, tmp_path):
    state = tmp_path / "var-lib-dicetable"
    monkeypatch.setattr(check, "STATE_DIR", state)
    [found] = check_journal(state, _as(4242, {4343}))
    assert found.level == OK and "systemd makes it" in found.text


@pytest.mark.usefixtures("outside_sandbox")
def test_run_checks_answers_for_the_table_user_it_finds(tmp_path, monkeypatch):
    cfg = _table(tmp_path)
    os.chmod(tmp_path, 0o755)
    monkeypatch.setattr(check, "table_user", lambda: _as(4242, {4343}))
    found = {f.part: f for f in run_checks(cfg)}
    assert found["journal"].level == FAIL and "the table's user dicetable" in found["journal"].text


@needs_root
@pytest.mark.parametrize("mode, folder_mode, readable", [(0o644, 0o755, True), (0o600, 0o755, False),
                                                         (0o640, 0o755, True), (0o644, 0o700, False)])
def test_a_config_the_tables_user_cannot_read_is_a_problem_though_root_reads_it(open_dir, mode, folder_mode,
                                                                                readable):
    """`sudo dicetable check` read a config of mode 0600 (root reads anything) and said it was
    read, while the table, run as `dicetable`, stopped on "cannot read the config file". The
    check now answers for the table's user: the file's mode, and the folders above it."""
    table, group = 4242, 4343
    etc = open_dir / "etc"
    etc.mkdir()
    cfg = etc / "config.toml"
    cfg.write_text('[table]\ngame = "thirteen"\n')
    os.chown(cfg, 0, group)
    os.chmod(cfg, mode)
    os.chmod(etc, folder_mode)
    config, found = check.check_config(cfg, _as(table, {group}))
    assert config is not None and config.table.game == "thirteen"      # (the other checks go on)
    if readable:
        assert [f.level for f in found] == [OK]
    else:
        assert [f.level for f in found] == [FAIL]
        assert "dicetable cannot read" in found[0].text and "starts with the built-in defaults" in found[0].text



def test_the_press_test_names_a_chattering_switch_and_a_stuck_button():
    """A worn OK that bounces (the panel takes it as one press, but it will get worse), a worn UP
    whose chatter got through as a second press 30 ms after the first, and a DOWN jammed from
    before the test: before, the test named the presses and nothing else ("every button was
    pressed" but for DOWN, as if it were a wire)."""
    from gpiozero.pins.mock import MockPin

    from controller.check import press_test
    from controller.config import parse_config

    class Jammed(MockPin):
        def _set_pull(self, value):      # (the pull-up does not lift a pin held down)
            self._pull = value

    config = parse_config('[buttons]\ntype = "gpio"\nname = "panel"\n[buttons.pins]\nUP = 27\nDOWN = 22\nOK = 17\n')
    factory = MockFactory()
    factory.pin(22, pin_class=Jammed)
    now = [0.0]
    ok, up = factory.pin(17), factory.pin(27)
    steps = iter([
        lambda: ok.drive_low(), lambda: (ok.drive_high(), ok.drive_low()), lambda: ok.drive_high(),
        lambda: up.drive_low(), lambda: up.drive_high(), None, lambda: up.drive_low(), lambda: up.drive_high(),
    ])

    def sleep(_s: float) -> None:        # 15 ms between polls: a switch's chatter, not a hand's pace
        now[0] += 0.015
        step = next(steps, None)
        if step is not None:
            step()

    said: list[str] = []
    missing = press_test(config, 12, say=said.append, clock=lambda: now[0], sleep=sleep, pin_factory=factory)
    factory.reset()
    assert "  panel: DOWN down as the test starts: stuck? (let go, or call for repair)" in said
    assert any(line.startswith("  OK chatters: its contact bounced") for line in said)
    assert any(line.startswith("  UP chatters: pressed again") for line in said)
    assert "  panel: DOWN button stuck (down for seconds): free it, or clean or replace its switch" in said
    assert "chattering: OK, UP" in said and missing == ["DOWN"]


def test_check_names_every_mistake_of_the_file_and_checks_the_rest(tmp_path):
    """The check stopped at the first mistake ("the table will not start until it is fixed"): staff
    fixed it, checked again, found the next. Now it says each one and what the table does without
    it (it starts), and goes on to the reader, the journal, the camera and the buttons."""
    cfg = _table(tmp_path)
    cfg.write_text(cfg.read_text().replace("[table]\n", '[table]\nconfirm_seconds = "2"\nidle_minutes = 30 min\n'))
    found = run_checks(cfg, camera=False)
    config = [f for f in found if f.part == "config"]
    assert [f.level for f in config] == [FAIL, FAIL]
    assert "line 3: idle_minutes = 30 min" in config[0].text and "that line is left out" in config[0].text
    assert "[table] confirm_seconds: must be a number" in config[1].text and "left out" in config[1].text
    assert {f.part for f in found} >= {"reader", "journal", "camera", "buttons"}


def test_a_panel_with_a_mistake_is_named_and_the_other_panels_are_checked(tmp_path):
    """The table leaves out a [[buttons.sources]] panel it cannot build and starts with the others;
    the check said only 'fix [buttons]' and never looked at them."""
    cfg = _table(tmp_path, buttons='[[buttons.sources]]\ntype = "keyboard"\nname = "spare"\n'
                                   '[[buttons.sources]]\ntype = "serial"\nport = "/dev/null"\nbaudrat = 9600\n')
    found = [f for f in run_checks(cfg, camera=False) if f.part == "buttons"]
    assert found[0].level == FAIL and found[0].text.startswith("[[buttons.sources]] #2: [buttons] unknown key(s) "
                                                               "['baudrat']")
    assert "that panel is left out until it is fixed: fix it in the config" in found[0].text
    assert [(f.level, f.text) for f in found[1:]] == [(OK, "spare ready")]


def test_the_commands_help_names_every_part_the_check_goes_over(tmp_path, capsys):
    """`dicetable --help` lists what `check` looks at: the service and the clock lines came later
    and the help did not name them."""
    cfg = _table(tmp_path, calibration=CALIBRATED)
    parts = {f.part for f in check.run_checks(cfg)}
    assert {"config", "reader", "journal", "service", "camera", "calibration", "buttons", "clock",
            "corrections"} <= parts
    with pytest.raises(SystemExit):
        main(["--help"])
    line = " ".join(capsys.readouterr().out.split()).split("check is this table ready?")[1].split(" read ")[0]
    assert sorted(part for part in parts if part not in line) == []


def test_without_a_config_file_the_check_gives_the_command_that_copies_the_example(tmp_path):
    """It said "copy systemd/config.example.toml there": a folder of the source, which is not where
    staff type `sudo dicetable check`. Now the command of docs/install.md step 5, to paste."""
    [first, *_] = run_checks(tmp_path / "missing.toml", camera=False)
    assert first.text.endswith(f"sudo cp /opt/dicetable/src/systemd/config.example.toml {tmp_path}/missing.toml)")
    [first, *_] = run_checks(tmp_path / "etc" / "dicetable" / "config.toml", camera=False)
    assert f"sudo mkdir -p {tmp_path}/etc/dicetable && sudo cp " in first.text
