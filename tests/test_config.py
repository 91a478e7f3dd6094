"""The config file: defaults when missing, warnings for unknown keys, errors naming file and key."""
from __future__ import annotations

import logging
from dataclasses import fields
from pathlib import Path

import pytest

from controller.config import (
    CALIBRATION_KEYS, DEFAULT_JOURNAL_DIR, Config, ConfigError, DisplayConfig, load_config, parse_config,
)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "systemd" / "config.example.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------------------ missing / empty
def test_missing_file_gives_defaults_and_a_log_line(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="controller.config"):
        config = load_config(tmp_path / "nope.toml")
    assert config == Config()
    assert config.path is None
    assert "no config file at" in caplog.text and "nope.toml" in caplog.text
    assert config.table.journal_dir == DEFAULT_JOURNAL_DIR == Path("/var/lib/dicetable")
    assert config.camera == {"type": "picamera2"}
    assert config.buttons == {"type": "keyboard"}


def test_empty_file_is_all_defaults(tmp_path):
    config = load_config(write(tmp_path, "# nothing yet\n"))
    assert config.table == Config().table
    assert config.display.size == (1280, 720) and config.display.fullscreen is False
    assert config.warnings == ()
    assert config.path == tmp_path / "config.toml"


def test_default_path_is_etc():
    from controller import config as module

    assert module.DEFAULT_PATH == Path("/etc/dicetable/config.toml")


# ------------------------------------------------------------------------------------ values
def test_full_table_section(tmp_path):
    config = load_config(write(tmp_path, """
[table]
game = "school"
players = ["Ann", " Bob "]
journal_dir = "/srv/dt"
confirm_seconds = 2
check_below = 0.8
check_seconds = 6
keep_games = 200
idle_minutes = 45

[table.options.thirteen]
two_pairs_value = 25
tie = "fewer_zeros"
"""))
    t = config.table
    assert t.game == "school"
    assert t.players == ("Ann", "Bob")
    assert t.journal_dir == Path("/srv/dt")
    assert t.confirm_seconds == 2.0 and isinstance(t.confirm_seconds, float)
    assert (t.check_below, t.check_seconds) == (0.8, 6.0)
    assert t.keep_games == 200
    assert t.idle_minutes == 45.0 and load_config(write(tmp_path, "")).table.idle_minutes == 30.0
    assert t.options == {"thirteen": {"two_pairs_value": 25, "tie": "fewer_zeros"}}


@pytest.mark.parametrize("size, problem", [
    ('"1280x72"', "1280x72 is too small to read across a table: at least 320x240"),   # a typo for 1280x720
    ("[240, 240]", "240x240 is too small"),
    ('"160x120"', "160x120 is too small"),
    ('"1x1"', "1x1 is too small"),
    ("[320, 239]", "320x239 is too small"),
    ('"12800x720"', "at most 8000 a side"),
])
def test_display_size_too_small_to_read_is_refused_naming_the_key(tmp_path, size, problem):
    """Such sizes were taken: 160x120 and 240x240 with eight players hung the table for ever,
    1280x72 raised on every frame."""
    path = write(tmp_path, f"[display]\nsize = {size}\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value).startswith(f"{path}: [display] size: ")
    assert problem in str(err.value)


def test_display_size_of_the_smallest_readable_screen_is_taken(tmp_path):
    assert load_config(write(tmp_path, '[display]\nsize = "320x240"\n')).display.size == (320, 240)


def test_display_size_string_or_list(tmp_path):
    assert load_config(write(tmp_path, '[display]\nsize = "800x480"\n')).display.size == (800, 480)
    assert load_config(write(tmp_path, "[display]\nsize = [1920, 1080]\nfullscreen = true\n")).display \
        .size == (1920, 1080)


def test_single_button_source_and_camera_are_passed_through(tmp_path):
    config = load_config(write(tmp_path, """
[camera]
type = "opencv"
device = "/dev/video2"

[buttons]
type = "gpio"
[buttons.pins]
OK = 17
"""))
    assert config.camera == {"type": "opencv", "device": "/dev/video2"}
    assert config.buttons == {"type": "gpio", "pins": {"OK": 17}}


def test_several_button_sources_imply_multi(tmp_path):
    config = load_config(write(tmp_path, """
[[buttons.sources]]
type = "keyboard"
[[buttons.sources]]
type = "serial"
port = "/dev/ttyACM0"
"""))
    assert config.buttons["type"] == "multi"
    assert [s["type"] for s in config.buttons["sources"]] == ["keyboard", "serial"]


def test_vision_calibration_and_settle(tmp_path):
    config = load_config(write(tmp_path, """
[vision]
tray = [10, 20, 600, 460]
die_px = 48.5
calibrated_at = "2024-05-01"
[vision.settle]
still_frames = 7
motion_fraction = 0.004
"""))
    assert config.vision.calibration == {"tray": [10, 20, 600, 460], "die_px": 48.5, "calibrated_at": "2024-05-01"}
    settle = config.vision.settle_config()
    assert settle.still_frames == 7 and settle.motion_fraction == 0.004


def test_calibration_keys_match_what_calibrate_writes():
    from vision.calibrate import Calibration

    assert set(CALIBRATION_KEYS) == {f.name for f in fields(Calibration)}


# ----------------------------------------------------------------------------- unknown keys
def test_unknown_keys_warn_with_their_names(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="controller.config"):
        config = load_config(write(tmp_path, """
colour = "red"
[table]
gmae = "thirteen"
[table.options.thirteen]
two_pair_value = 25
[table.options.yahtzee]
x = 1
[display]
fulscreen = true
[vision]
tray = [0, 0, 100, 100]
frobnicate = 1
"""))
    text = "\n".join(config.warnings)
    for name in ("colour", "gmae", "two_pair_value", "yahtzee", "fulscreen", "frobnicate"):
        assert name in text
        assert name in caplog.text
    assert str(tmp_path / "config.toml") in text
    # nothing unknown was used
    assert config.table.game is None
    assert config.table.options == {"thirteen": {}}
    assert config.display.fullscreen is False


def test_unknown_default_game_is_a_warning(tmp_path):
    config = load_config(write(tmp_path, '[table]\ngame = "yahtzee"\n'))
    assert config.table.game is None
    assert any("yahtzee" in w for w in config.warnings)


# ------------------------------------------------------------------------------- wrong types
@pytest.mark.parametrize("text, key", [
    ('[table]\nconfirm_seconds = "soon"\n', "confirm_seconds"),
    ("[table]\nconfirm_seconds = -1\n", "confirm_seconds"),
    ("[table]\nconfirm_seconds = true\n", "confirm_seconds"),
    ("[table]\ncheck_below = 90\n", "check_below"),
    ('[table]\ncheck_below = "sure"\n', "check_below"),
    ("[table]\ncheck_seconds = -4\n", "check_seconds"),
    ("[table]\nkeep_games = -1\n", "keep_games"),
    ("[table]\nidle_minutes = -5\n", "idle_minutes"),
    ("[table]\nidle_minutes = 1800\n", "idle_minutes"),
    ("[table]\nkeep_games = 2.5\n", "keep_games"),
    ('[table]\nplayers = "Ann, Bob"\n', "players"),
    ("[table]\nplayers = [1, 2]\n", "players"),
    ('[table]\nplayers = ["\\u200b", "Bob"]\n', "players"),          # a zero-width space: no name to show
    ('[table]\nplayers = ["\\u00ad\\ufeff", "Bob"]\n', "players"),   # a soft hyphen and a BOM
    ('[table]\nplayers = ["Ann", "Ann"]\n', "players"),
    ("[table]\ngame = 3\n", "game"),
    ("[table]\njournal_dir = 1\n", "journal_dir"),
    ('[table.options.thirteen]\ntwo_pairs_value = "20"\n', "two_pairs_value"),
    ("[table.options.thirteen]\ntwo_pairs_value = -5\n", "two_pairs_value"),
    ('[table.options.classic]\nmatch_length = "forever"\n', "match_length"),
    ("[table.options.classic]\nrotate_first_player = 1\n", "rotate_first_player"),
    # (lists and tables of options: only their type was checked, and the game refused them when
    # players chose it, after `dicetable check` had said the config was fine)
    ("[table.options.classic]\nface_mapping = [9, 9, 9, 9, 9, 9]\n", "face_mapping"),
    ('[table.options.classic]\nface_mapping = { "²" = 9 }\n', "face_mapping"),
    ("[table.options.poknroll]\nline_values = { beginner = { PAIRE = 0 } }\n", "line_values"),
    ("[table.options.poknroll]\nline_values = { novice = {} }\n", "line_values"),
    ('[display]\nfullscreen = "yes"\n', "fullscreen"),
    ('[display]\nsize = "big"\n', "size"),
    ("[display]\nsize = [0, 480]\n", "size"),
    ('[camera]\ntype = "webcam"\n', "type"),
    ("[camera]\ntype = 1\n", "type"),
    ('[buttons]\npins = { OK = 17 }\n', "type"),
    ('[buttons]\ntype = "joystick"\n', "type"),
    ('[[buttons.sources]]\ntype = "joystick"\n', "type"),
    ('[buttons]\nsources = "gpio"\n', "sources"),
    ("[vision]\ntray = [1, 2, 3]\n", "tray"),
    ('[vision]\ndie_px = "big"\n', "die_px"),
    ('[vision.settle]\nstill_frames = 2.5\n', "still_frames"),
    ('[vision.settle]\nstill_frames = 0\n', "still_frames"),
    ("table = 3\n", "table"),
])
def test_wrong_types_raise_naming_key_and_file(tmp_path, text, key):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    message = str(err.value)
    assert key in message
    assert str(path) in message


def test_toml_syntax_error_names_the_line(tmp_path):
    path = write(tmp_path, '[table]\ngame = "thirteen"\nplayers = ["Ann", "Bob"\n\n[display]\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    message = str(err.value)
    assert str(path) in message and "not valid TOML" in message
    assert "line 5" in message          # where tomllib noticed the unclosed list


@pytest.mark.parametrize("line", ["fullscreen = True", 'size = 1280x720', "fullscreen = yes"])
def test_an_invalid_value_says_how_values_are_written(tmp_path, line):
    """tomllib's "Invalid value (at line 2, column 14)" alone did not tell staff that TOML wants
    true in small letters, or text in quotes."""
    path = write(tmp_path, f"[display]\n{line}\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    message = str(err.value)
    assert f"line 2: {line}" in message
    assert 'true or false in small letters (fullscreen = true), text in "quotes"' in message


def test_other_syntax_errors_do_not_get_the_value_hint(tmp_path):
    path = write(tmp_path, '[table]\nplayers = ["Ann", "Bob"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert "small letters" not in str(err.value)


def test_syntax_error_quotes_the_offending_line(tmp_path):
    path = write(tmp_path, '[table]\nconfirm_seconds = 1.5 seconds\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert "line 2" in str(err.value)
    assert "confirm_seconds = 1.5 seconds" in str(err.value)


def test_unreadable_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path)          # a directory


def test_parse_config_without_file():
    assert parse_config('[table]\ngame = "classic"\n').table.game == "classic"


# ------------------------------------------------------------------------------- the example
def test_example_config_loads_without_warnings():
    config = load_config(EXAMPLE)
    assert config.warnings == ()
    assert config.camera["type"] == "picamera2"
    assert config.buttons["type"] == "multi"
    assert {s["type"] for s in config.buttons["sources"]} >= {"gpio", "serial"}
    assert config.display.fullscreen is True
    assert config.table.game == "thirteen"


def test_example_config_builds_the_hardware_sources():
    """The hardware package checks its own keys: the example must pass them (nothing is opened)."""
    from hardware import make_button_source, make_frame_source

    config = load_config(EXAMPLE)
    buttons = make_button_source(config.buttons)
    assert [s.name for s in buttons.sources] == ["panel", "box", "keyboard"]
    make_frame_source(config.camera)
    config.vision.settle_config()


def test_example_options_start_a_game():
    from controller.rules import new_game

    config = load_config(EXAMPLE)
    for game, options in config.table.options.items():
        new_game(game, ["Ann", "Bob", "Cid"], options)


def test_example_survives_calibrate_rewriting_vision():
    from controller.calibrate import replace_section

    before = load_config(EXAMPLE)
    text = replace_section(EXAMPLE.read_text(encoding="utf-8"), "vision",
                           {"tray": [10, 10, 600, 400], "die_px": 52.0, "advice": []})
    after = parse_config(text, EXAMPLE)
    assert after.vision.calibration["die_px"] == 52.0
    assert after.vision.settle == before.vision.settle
    assert (after.table, after.buttons, after.display) == (before.table, before.buttons, before.display)
    assert after.warnings == ()


# ---------------------------------------------------------------------------- the systemd unit
def test_unit_runs_the_kiosk_as_specified():
    unit = (ROOT / "systemd" / "dicetable.service").read_text(encoding="utf-8")
    lines = {line.strip() for line in unit.splitlines() if line.strip() and not line.startswith("#")}
    for expected in (
        "ExecStart=/opt/dicetable/venv/bin/dicetable run --fullscreen --config /etc/dicetable/config.toml",
        "User=dicetable", "Restart=always", "RestartSec=2", "Environment=SDL_VIDEODRIVER=kmsdrm",
        "WorkingDirectory=/var/lib/dicetable", "StateDirectory=dicetable", "StandardOutput=journal",
        "StartLimitIntervalSec=0", "WantedBy=multi-user.target",
    ):
        assert expected in lines, expected
    groups = next(line for line in lines if line.startswith("SupplementaryGroups=")).split("=", 1)[1].split()
    assert set(groups) == {"video", "gpio", "dialout", "input", "render"}
    assert str(load_config(EXAMPLE).table.journal_dir) == "/var/lib/dicetable"


# ------------------------------------------------------------------- numbers out of their range
# Every number of the file has a range; TOML also writes nan, inf and negatives, which passed the
# type checks and left a table that never took a reading ("Tray empty" / "Dice moving..." for ever).
NUMBERS = {   # section, key: (a value below the range, one above it), besides nan, inf and -inf
    ("table", "confirm_seconds"): ("-1", "61"),
    ("table", "check_seconds"): ("-1", "61"),
    ("table", "check_below"): ("-0.1", "1.1"),
    ("vision", "die_px"): ("0", "1e9"),
    ("vision.settle", "still_frames"): ("0", "100000"),
    ("vision.settle", "still_seconds"): ("-0.1", "11"),
    ("vision.settle", "agree_readings"): ("0", "21"),
    ("vision.settle", "box_tolerance"): ("0.0", "3.0"),
    ("vision.settle", "work_width"): ("8", "20000"),
    ("vision.settle", "pixel_threshold"): ("-5", "255"),
    ("vision.settle", "motion_fraction"): ("-1.0", "0.9"),
    ("vision.settle", "occupancy_threshold"): ("0", "300"),
    ("vision.settle", "occupancy_fraction"): ("0.0", "2.0"),
    ("vision.settle", "large_motion_fraction"): ("0.0", "1.5"),
    ("vision.settle", "max_moved_fraction"): ("-0.5", "1.5"),
    ("vision.settle", "unsure_after"): ("-1", "100000"),
}
WHOLE = {"still_frames", "agree_readings", "work_width", "pixel_threshold", "occupancy_threshold", "unsure_after"}


def test_every_number_of_the_file_has_a_range_here():
    from vision.settle import SettleConfig

    settle = {("vision.settle", f.name) for f in fields(SettleConfig)}
    table = {("table", k) for k in ("confirm_seconds", "check_seconds", "check_below")}
    assert set(NUMBERS) == settle | table | {("vision", "die_px")}


@pytest.mark.parametrize("where, key, value", [
    (where, key, value) for (where, key), (low, high) in NUMBERS.items()
    for value in (low, high) + (() if key in WHOLE else ("nan", "inf", "-inf"))
])
def test_a_number_out_of_its_range_is_refused_naming_key_and_range(tmp_path, where, key, value):
    path = write(tmp_path, f"[{where}]\n{key} = {value}\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value).startswith(f"{path}: [{where}] {key}: must be from ")
    assert str(err.value).endswith(f", not {float(value) if key not in WHOLE else int(value)}")


def test_the_ends_of_each_range_and_the_defaults_are_taken(tmp_path):
    from controller.config import MAX_SHOW_SECONDS
    from vision.settle import SETTLE_RANGES, SettleConfig

    assert load_config(write(tmp_path, f"[table]\nconfirm_seconds = 0\ncheck_seconds = {MAX_SHOW_SECONDS}\n"))
    for key, (low, high, _) in SETTLE_RANGES.items():
        for value in (low, high):
            if key == "unsure_after" and value:
                text = f"[vision.settle]\nunsure_after = {value}\n"
            elif key == "agree_readings":
                text = f"[vision.settle]\nagree_readings = {value}\nunsure_after = 0\n"
            else:
                text = f"[vision.settle]\n{key} = {value}\n"
            assert load_config(write(tmp_path, text)).vision.settle_config()
    assert SettleConfig() == load_config(write(tmp_path, "")).vision.settle_config()


@pytest.mark.parametrize("tray", ["[0, 0, nan, 100]", "[0, 0, inf, 100]", "[-5, 0, 100, 100]",
                                  "[100, 0, 50, 100]", "[0, 100, 100, 100]"])
def test_a_calibrated_tray_that_is_no_box_is_refused(tmp_path, tray):
    path = write(tmp_path, f"[vision]\ntray = {tray}\n")
    with pytest.raises(ConfigError, match=r"\[vision\] tray: must be \[x0, y0, x1, y1\]"):
        load_config(path)


@pytest.mark.parametrize("written, name", [
    ('"A\\tB"', "A B"), ('"Li\\nne"', "Li ne"), ('"  Jean \\t Luc "', "Jean Luc"), ('"Bell\\u0007"', "Bell"),
    ('"Zoe\\u0308"', "Zo\u00eb"),          # typed decomposed (an e and a combining diaeresis): one letter
])
def test_a_seat_name_is_one_line(written, name):
    """A tab or a line break in a seat's name (TOML writes them "\\t", "\\n") was kept, and drawn
    as a box on the screen: it is one space, as the staff meant."""
    assert parse_config(f"[table]\nplayers = [{written}, \"Bob\"]\n").table.players == (name, "Bob")


def test_a_seat_name_the_screen_cannot_draw_is_warned_of():
    """日本 and 한국 were both drawn as two empty boxes: `dicetable check` now says which seat
    and what to write (the menu offers that seat under a free name)."""
    config = parse_config('[table]\nplayers = ["Zoë", "日本", "Ελένη"]\n')
    assert config.table.players == ("Zoë", "日本", "Ελένη")
    assert len(config.warnings) == 1 and "seat 2" in config.warnings[0] and "日 本" in config.warnings[0]


def test_names_twice_in_the_seats_are_named():
    """"names must be different" said neither which names, in a list of eight seats."""
    with pytest.raises(ConfigError, match="'Ann' twice"):
        parse_config('[table]\nplayers = ["Ann", "Bob", "Ann\\t"]\n')


# ------------------------------------------------------------------ the table's start: lenient
# A café's table whose file was edited with a mistake must still start, with that one setting at
# its default, and say what to fix (it stayed on "The table cannot start" until someone did).
# (the mistake's line, what it is called in the message, the config read then: what must be kept)
GOOD = '[table]\ngame = "classic"\nconfirm_seconds = 2.0\n'
MISTAKES = [
    ('idle_minutes = 1.5 s', "line 4: idle_minutes = 1.5 s", lambda c: c.table.idle_minutes == 30.0),
    ('check_seconds = "4"', "[table] check_seconds", lambda c: c.table.check_seconds == 4.0),
    ('idle_minutes = -3', "[table] idle_minutes", lambda c: c.table.idle_minutes == 30.0),
    ('keep_games = -1', "[table] keep_games", lambda c: c.table.keep_games == 5000),
    ('players = ["Ann", "Ann"]', "[table] players", lambda c: c.table.players == ()),
    ('[display]\nfullscreen = True', "line 5: fullscreen = True", lambda c: not c.display.fullscreen),
    ('[display]\nsize = "100x100"\nfullscreen = true', "[display] size",
     lambda c: c.display == DisplayConfig((1280, 720), True)),
    ('[table.options.classic]\nfirst_to = "three"\nrounds = 2', "[table.options.classic] first_to",
     lambda c: c.table.options == {"classic": {"rounds": 2}}),
    ('[table.options.classic]\nfirst_to = 3\n[table.options.thirteen]\ntwo_pairs_accepts_full_house = "yes"',
     "two_pairs_accepts_full_house", lambda c: c.table.options == {"classic": {"first_to": 3}, "thirteen": {}}),
    ('[vision.settle]\nstill_frames = 0\nagree_readings = 2', "[vision.settle] still_frames",
     lambda c: c.vision.settle == {"agree_readings": 2}),
    ('[vision]\ntray = [10, 10, 5, 5]\ndie_px = 40.0', "[vision] tray",
     lambda c: c.vision.calibration == {"die_px": 40.0}),
    ('[camera]\ntype = "webcam"\ndevice = 0', "[camera] type", lambda c: c.camera == {"type": "picamera2"}),
    ('[buttons]\n[[buttons.sources]]\ntype = "keyboard"\n[[buttons.sources]]\ntype = "gpoi"', "#2",
     lambda c: c.buttons == {"type": "multi", "sources": [{"type": "keyboard"}]}),
    ('[camera\ntype = "opencv"', "line 4: [camera", lambda c: c.camera == {"type": "picamera2"}),
]


@pytest.mark.parametrize("mistake, named, kept", MISTAKES, ids=[m[1] for m in MISTAKES])
def test_a_mistake_is_left_out_at_the_tables_start_and_the_rest_is_kept(tmp_path, mistake, named, kept):
    path = write(tmp_path, GOOD + mistake + "\n")
    with pytest.raises(ConfigError):
        load_config(path)                                   # (read strictly, it is still an error)
    config = load_config(path, lenient=True)
    assert len(config.problems) == 1 and named in config.problems[0] and str(path) in config.problems[0]
    assert "left out" in config.problems[0]
    assert kept(config) and config.table.game == "classic"


def test_every_mistake_is_said_not_only_the_first(tmp_path, caplog):
    path = write(tmp_path, GOOD + 'players = ["Window", "Bar"]\ncheck_seconds = "4"\nidle_minutes = -3\n'
                                  '[display]\nfullscreen = True\n[vision.settle]\nstill_frames = 0\n')
    with caplog.at_level(logging.ERROR, logger="controller.config"):
        config = load_config(path, lenient=True)
    assert [p.split("\n")[0].split(": ", 1)[1][:28] for p in config.problems] == [
        "not valid TOML: Invalid valu", "[table] check_seconds: must ", "[table] idle_minutes: must b",
        "[vision.settle] still_frames"]
    assert len([r for r in caplog.records if r.levelno == logging.ERROR]) == 4     # each logged once
    assert config.table.confirm_seconds == 2.0 and config.table.players == ("Window", "Bar")


@pytest.mark.parametrize("text, problems", [("\x00\x01 not a config\n" * 3, 3), ('a = "\n' * 60, 51)])
def test_a_file_of_no_settings_is_the_defaults(tmp_path, text, problems):
    config = load_config(write(tmp_path, text), lenient=True)
    assert len(config.problems) == problems
    assert (config.table, config.camera, config.buttons) == (Config().table, Config().camera, Config().buttons)
    if problems > 50:       # (a file that is not a config at all: not 60 lines of advice)
        assert "the whole file is left out: the table starts with the built-in defaults" in config.problems[-1]


def test_a_section_that_is_not_a_table_is_left_out_whole(tmp_path):
    config = load_config(write(tmp_path, 'display = "big"\n' + GOOD), lenient=True)
    assert config.problems == (f"{tmp_path / 'config.toml'}: display must be a table [display], not 'big' (a text)"
                               "\n  [display] is left out: the table starts with its defaults until it is fixed",)
    assert config.display == DisplayConfig() and config.table.confirm_seconds == 2.0


def test_a_file_the_table_cannot_read_is_the_defaults_at_its_start(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xff\xfe not utf-8")       # (read as UTF-16 by its mark: a line of no TOML)
    config = load_config(path, lenient=True)
    assert len(config.problems) == 1 and "line 1" in config.problems[0] and config.table == Config().table
    path.write_bytes(b"\x80\x81 not utf-8\n\xfe")
    config = load_config(path, lenient=True)
    assert [p.split(": ", 1)[1][:28] for p in config.problems] == [
        "line 1 is not UTF-8 text (th", "line 2 is not UTF-8 text (th", "no line of it is UTF-8 text\n"]
    assert config.table == Config().table


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_an_empty_file_at_the_tables_start_is_a_problem_not_the_cafes_settings(tmp_path, text):
    """An editor saving in place leaves the file empty when the power goes as it saves: the table
    started with the built-in camera and keyboard, no panel, and said nothing. (A file of only
    comments is someone's choice: the defaults, no problem.)"""
    config = load_config(write(tmp_path, text), lenient=True)
    assert len(config.problems) == 1 and "the file is empty" in config.problems[0]
    assert "built-in defaults" in config.problems[0] and config.table == Config().table
    assert load_config(write(tmp_path, "# nothing yet\n"), lenient=True).problems == ()
