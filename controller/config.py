"""The table's config file (`/etc/dicetable/config.toml`), read once at start-up.

Café staff edit this file by hand, so reading it is forgiving where it can be and precise where
it cannot: a missing file means "all defaults" (and a log line saying so), an unknown key is a
warning naming it (a typo must not keep the table from starting), but a value of the wrong type
or out of its range (nan and inf included) is a `ConfigError` naming the file, the key and the
range, and a TOML syntax error names the line.

The `[camera]` and `[buttons]` tables are handed as dicts to `hardware.make_frame_source` /
`make_button_source`, which check their own keys; only their `type` is checked here, so that a
wrong type is reported before anything is opened. `[vision]` is written by `dicetable
calibrate` (it rewrites that one table, so hand-tuned settle parameters live in `[vision.settle]`).
"""
from __future__ import annotations

import codecs
import logging
import math
import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from .plain_file import NotAFile, TooBig, read_plain

log = logging.getLogger(__name__)

DEFAULT_PATH = Path("/etc/dicetable/config.toml")
DEFAULT_JOURNAL_DIR = Path("/var/lib/dicetable")
#: a config file is a few kB (a calibrated one 6 kB): one larger is not read into memory
MOST_BYTES = 1024 * 1024

#: keys `dicetable calibrate` writes into [vision] (see vision.calibrate.Calibration)
CALIBRATION_KEYS = ("tray", "die_px", "frame_size", "background_bgr", "background_std", "brightness",
                    "dice_seen", "advice", "calibrated_at", "walls", "wall_edges")
SECTIONS = ("table", "camera", "buttons", "vision", "display")
MAX_SHOW_SECONDS = 60       # the longest confirm_seconds / check_seconds: a minute
MAX_IDLE_MINUTES = 24 * 60  # the longest idle_minutes: a day


class ConfigError(ValueError):
    """The config file cannot be used as written; the message names the file and the key.

    `place`: the keys that lead to the setting at fault in the parsed file (("table",
    "confirm_seconds"), ("buttons", "sources", 1)), for the table to start without it; () when the
    fault is not one setting's."""

    def __init__(self, message: str, place: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.place = place


@dataclass(frozen=True)
class TableConfig:
    """`[table]`: what the setup menu preselects and where games are journaled."""

    game: str | None = None                         # preselected game (registry name)
    players: tuple[str, ...] = ()                   # seat names, clockwise
    options: dict[str, dict[str, Any]] = field(default_factory=dict)  # house rules per game name
    journal_dir: Path = DEFAULT_JOURNAL_DIR
    confirm_seconds: float = 1.5                    # a reading is shown this long before it counts
    check_below: float = 0.9                        # dice read less surely than this are outlined to check
    check_seconds: float = 4.0                      # ... and such a reading is shown this long
    keep_games: int = 5000                          # finished games' journals kept (oldest go first); 0: all
    idle_minutes: float = 30.0                      # a table left alone this long asks "Still playing?"; 0: never


@dataclass(frozen=True)
class VisionConfig:
    """`[vision]`: the calibration written by `dicetable calibrate`, and settle tuning."""

    calibration: dict[str, Any] = field(default_factory=dict)   # passed to vision.reader.read
    settle: dict[str, Any] = field(default_factory=dict)        # SettleConfig(**settle)

    def settle_config(self) -> Any:
        from vision.settle import SettleConfig

        return SettleConfig(**self.settle)


#: The smallest screen whose type can still be read across a table: below 320x240 the score
#: sheet's cells and the prompt shrink to dots or are cut to nothing. Larger than 8000 a side is a
#: typo (an 8K TV is 7680x4320) that would only cost memory.
MIN_SCREEN = (320, 240)
MAX_SCREEN_SIDE = 8000


def screen_size_problem(width: int, height: int) -> str | None:
    """Why a window of this size cannot be used (None: it can); shared by [display] size and
    the --size options, so both refuse the same sizes with the same reason."""
    if width < MIN_SCREEN[0] or height < MIN_SCREEN[1]:
        return (f"{width}x{height} is too small to read across a table: at least "
                f"{MIN_SCREEN[0]}x{MIN_SCREEN[1]}")
    if width > MAX_SCREEN_SIDE or height > MAX_SCREEN_SIDE:
        return f"{width}x{height} is larger than any screen: at most {MAX_SCREEN_SIDE} a side"
    return None


@dataclass(frozen=True)
class DisplayConfig:
    size: tuple[int, int] = (1280, 720)             # window size; fullscreen uses the screen's own
    fullscreen: bool = False


@dataclass(frozen=True)
class Config:
    table: TableConfig = field(default_factory=TableConfig)
    camera: dict[str, Any] = field(default_factory=lambda: {"type": "picamera2"})
    buttons: dict[str, Any] = field(default_factory=lambda: {"type": "keyboard"})
    vision: VisionConfig = field(default_factory=VisionConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    path: Path | None = None                        # the file read; None when defaults were used
    warnings: tuple[str, ...] = ()                  # unknown keys and the like, already logged
    #: mistakes the table started without (load_config(lenient=True)): each a ConfigError's words
    #: and what was used instead, already logged as errors; () when read strictly
    problems: tuple[str, ...] = ()


def load_config(path: str | Path | None = None, *, lenient: bool = False) -> Config:
    """Read the config at `path` (default /etc/dicetable/config.toml); defaults if it is missing.

    `lenient` (the table's own start): a mistake is not a ConfigError but left out, the table
    using the default in its place (Config.problems says which): a café's table edited with a
    typo must still start and say what to fix, not wait on an error screen until someone does."""
    path = Path(path) if path is not None else DEFAULT_PATH
    if not path.exists() and not path.is_symlink():
        log.warning("no config file at %s: using the built-in defaults", path)
        return Config()
    try:
        text, not_utf8 = read_config_text(path)
    except OSError as exc:
        error = ConfigError(f"{path}: cannot read the config file: {unreadable_words(path, exc)}")
        if not lenient:
            raise error from None
        return _all_defaults(path, [], error)
    problems = [not_utf8_problem(path, number, line) for number, line in not_utf8]
    if problems and not lenient:
        raise ConfigError(problems[0])
    return parse_config_leniently(text, path, problems) if lenient else parse_config(text, path)


def read_config_text(path: str | Path) -> tuple[str, list[tuple[int, str]]]:
    """The config file's text, and each line that is not UTF-8 (its number, and the line with '�'
    for what could not be read), blank in the text.

    Without the byte order mark Windows' Notepad and some other editors put first (UTF-8 "with
    BOM"): TOML does not allow it, and tomllib refused the file's first line ("Invalid statement
    (at line 1, column 1)", the line looking right on screen): its `[table]` header left out,
    every setting of the table ignored as an unknown top-level key.

    A file saved in another encoding (Windows' "ANSI", Latin-1: a name such as Zoë is one byte
    UTF-8 does not have) was not read at all: the table started with the built-in defaults, its
    camera and buttons too, and the staff read "'utf-8' codec can't decode byte 0xeb in position
    39". Only the lines with such bytes are left out now, each said."""
    data = read_plain(path, MOST_BYTES)      # (a FIFO hung the start, a link to /dev/zero never ended)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        # (Notepad's "Unicode": UTF-16, said by its mark; each line of it was "not valid TOML")
        try:
            return data.decode("utf-16"), []
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    lines, bad = [], []
    for number, line in enumerate(data.split(b"\n"), 1):
        try:
            lines.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            lines.append("")        # (blank, not removed: the other lines keep their numbers)
            bad.append((number, line.decode("utf-8", "replace").rstrip("\r")))
    return "\n".join(lines), bad


def unreadable_words(path: Path, exc: OSError) -> str:
    """Why the config file could not be read, and what to do, in the staff's words. A FIFO, a
    folder or a device where the file belongs hung or ended the start, or was read as an empty
    file (a link to /dev/null: the defaults, nothing said); a link to a file that is not there
    was "no config file", the table on its defaults with nothing on screen."""
    if isinstance(exc, NotAFile):
        return f"it is {exc.kind}, not a file: put the config file there in its place (docs/install.md, step 5)"
    if isinstance(exc, TooBig):
        return f"{exc.strerror}: put the config file there in its place (docs/install.md, step 5)"
    if isinstance(exc, FileNotFoundError) and path.is_symlink():
        return (f"it is a link to {os.readlink(path)}, which is not there: link it to the config file, or put "
                "the file there in its place (docs/install.md, step 5)")
    return str(exc.strerror or exc)


def not_utf8_problem(path: Path, number: int, line: str) -> str:
    """A line of the config that is not UTF-8, in the staff's words."""
    return (f"{path}: line {number} is not UTF-8 text (the file was saved in another encoding, such as "
            f"Windows' \"ANSI\"): save it as UTF-8 (nano does; Notepad: Save as, Encoding UTF-8)\n"
            f"  line {number}: {line.strip()}\n  that line is left out: {INSTEAD}")


def parse_config(text: str, path: str | Path = "<config>") -> Config:
    """Parse config text; `path` is only used in messages."""
    path = Path(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_syntax_message(path, text, exc)) from None
    config = _build(data, path)
    for warning in config.warnings:
        log.warning("%s", warning)
    log.info("config read from %s", path)
    return config


#: the most mistakes left out before the whole file is (a file that is not a config at all)
MAX_MISTAKES = 50
INSTEAD = "the table starts without it (its default) until it is fixed"


def parse_config_leniently(text: str, path: str | Path = "<config>", problems: list[str] | None = None) -> Config:
    """Parse config text as the table starts with it: a line TOML cannot read is left out (its
    settings take their defaults), then each setting with a wrong value, one by one, until the
    rest reads; every one left out is a problem, logged as an error. The table keeps what was
    right (its camera, its panels, its players) rather than all of it for one typo. `problems`:
    those found before (lines that were not UTF-8, blank in `text`)."""
    path = Path(path)
    problems = list(problems or [])
    if not text.strip():
        # (nano writes a file in place: a power cut as it saves leaves it empty, and the table
        # started as if the café had set nothing: no panel, the wrong camera, without a word)
        why = "no line of it is UTF-8 text" if problems else "the file is empty (a save cut short?)"
        return _all_defaults(path, problems, ConfigError(f"{path}: {why}"))
    lines = text.split("\n")
    for _ in range(MAX_MISTAKES):
        try:
            data = tomllib.loads("\n".join(lines))
            break
        except tomllib.TOMLDecodeError as exc:
            error = ConfigError(_syntax_message(path, "\n".join(lines), exc))
            number = _error_line(exc)
            if number is None or not 1 <= number <= len(lines) or not lines[number - 1].strip():
                return _all_defaults(path, problems, error)
            problems.append(f"{error}\n  that line is left out: {INSTEAD}")
            lines[number - 1] = ""          # (blank, not removed: the next errors keep their line numbers)
    else:
        return _all_defaults(path, problems, ConfigError(f"{path}: more than {MAX_MISTAKES} mistakes"))
    for _ in range(MAX_MISTAKES):
        try:
            config = _build(data, path)
            break
        except ConfigError as exc:
            if not _leave_out(data, exc.place):
                return _all_defaults(path, problems, exc)
            problems.append(f"{exc}\n  {_left_out(exc.place)}")
    else:
        return _all_defaults(path, problems, ConfigError(f"{path}: more than {MAX_MISTAKES} mistakes"))
    for warning in config.warnings:
        log.warning("%s", warning)
    for problem in problems:
        log.error("%s", problem)
    log.info("config read from %s", path)
    return replace(config, problems=tuple(problems))


def _all_defaults(path: Path, problems: list[str], error: ConfigError) -> Config:
    """The built-in defaults, for a file nothing can be kept of."""
    problems = [*problems, f"{error}\n  the whole file is left out: the table starts with the built-in defaults"]
    for problem in problems:
        log.error("%s", problem)
    return Config(path=path, problems=tuple(problems))


def _error_line(exc: tomllib.TOMLDecodeError) -> int | None:
    match = re.search(r"line (\d+)", str(exc))
    return int(match.group(1)) if match else None


def _leave_out(data: dict[str, Any], place: tuple[str | int, ...]) -> bool:
    """Remove the setting at `place` from the parsed file; False if it is not there to remove."""
    if not place:
        return False
    holder: Any = data
    for key in place[:-1]:
        try:
            holder = holder[key]
        except (KeyError, IndexError, TypeError):
            return False
    try:
        del holder[place[-1]]
    except (KeyError, IndexError, TypeError):
        return False
    return True


def _left_out(place: tuple[str | int, ...]) -> str:
    """What the table does without the setting at `place`, in the staff's words."""
    if len(place) == 3 and place[:2] == ("buttons", "sources"):
        return f"that panel ([[buttons.sources]] #{int(place[2]) + 1}) is left out until it is fixed"
    if len(place) == 1:
        return f"[{place[0]}] is left out: the table starts with its defaults until it is fixed"
    return f"left out: {INSTEAD}"


def _build(data: dict[str, Any], path: Path) -> Config:
    """The Config of a parsed file; ConfigError (with its place) at the first mistake. Warnings
    are collected, not logged: a lenient start builds the same file again after each mistake."""
    reader = _Reader(path)
    reader.unknown(data, SECTIONS, "")
    config = Config(
        table=reader.table(reader.section(data, "table")),
        camera=reader.camera(reader.section(data, "camera", None)),
        buttons=reader.buttons(reader.section(data, "buttons", None)),
        vision=reader.vision(reader.section(data, "vision")),
        display=reader.display(reader.section(data, "display")),
        path=path,
        warnings=tuple(reader.warnings),
    )
    return config


def _syntax_message(path: Path, text: str, exc: tomllib.TOMLDecodeError) -> str:
    """tomllib says "(at line N, column M)"; add the line itself so staff see what to fix."""
    message = f"{path}: not valid TOML: {exc}"
    match = re.search(r"line (\d+)", str(exc))
    if match:
        number = int(match.group(1))
        lines = text.splitlines()
        if 1 <= number <= len(lines):
            message += f"\n  line {number}: {lines[number - 1].strip()}"
    if any(said in str(exc) for said in ("Invalid value", "Expected newline or end of document after a statement")):
        message += f"\n  {VALUE_HINT}"
    return message


# What tomllib's "Invalid value" and "Expected newline ... after a statement" mean to someone who is
# not a programmer: `fullscreen = True` (as Python writes it), `game = thirteen` and `size = 1280x720`
# (text without quotes), `confirm_seconds = 1.5 seconds` are the likely slips.
VALUE_HINT = ('values are written like this: true or false in small letters (fullscreen = true), text in '
              '"quotes" (game = "thirteen"), numbers as they are (idle_minutes = 30)')


_TYPE_NAMES = {bool: "true or false", int: "a whole number", float: "a number", str: "a text in quotes",
               list: "a list [...]", dict: "a table"}


class _Reader:
    """Type checks that name the file and the key, and collects warnings."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.warnings: list[str] = []

    # -- generic checks
    def error(self, where: str, key: str, message: str, place: tuple[str | int, ...] | None = None) -> ConfigError:
        """`place`: where the setting is (default: `where`'s tables, then `key`)."""
        place = (*where.split("."), key) if place is None else place
        return ConfigError(f"{self.path}: [{where}] {key}: {message}", place)

    def warn(self, message: str) -> None:
        self.warnings.append(f"{self.path}: {message}")

    def unknown(self, table: Mapping[str, Any], known: tuple[str, ...] | set[str], where: str) -> None:
        extra = sorted(set(table) - set(known))
        if extra:
            place = f"[{where}]" if where else "top level"
            self.warn(f"{place}: unknown key(s) {', '.join(extra)} ignored (known: {', '.join(sorted(known))})")

    def section(self, data: Mapping[str, Any], name: str, default: Any = ...) -> Any:
        if name not in data:
            return {} if default is ... else default
        value = data[name]
        if not isinstance(value, dict):
            raise ConfigError(f"{self.path}: {name} must be a table [{name}], not {_describe(value)}", (name,))
        return value

    def value(self, table: Mapping[str, Any], where: str, key: str, kind: type, default: Any) -> Any:
        if key not in table:
            return default
        value = table[key]
        ok = isinstance(value, kind) and not (kind in (int, float) and isinstance(value, bool))
        if kind is float:
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not ok:
            raise self.error(where, key, f"must be {_TYPE_NAMES.get(kind, kind.__name__)}, not {_describe(value)}")
        return float(value) if kind is float else value

    def number(self, table: Mapping[str, Any], where: str, key: str, kind: type, default: Any,
               low: float, high: float, unit: str = "") -> Any:
        """A number within [low, high]: TOML also writes nan, inf and negatives, which passed the
        type check and left a table that never accepted a reading, without a word."""
        value = self.value(table, where, key, kind, default)
        if key in table and not (math.isfinite(value) and low <= value <= high):
            raise self.error(where, key, f"must be from {low} to {high}{unit}, not {value}")
        return value

    # -- sections
    def table(self, section: dict[str, Any]) -> TableConfig:
        self.unknown(section, ("game", "players", "options", "journal_dir", "confirm_seconds", "check_below",
                               "check_seconds", "keep_games", "idle_minutes"), "table")
        game = self.value(section, "table", "game", str, None)
        players = self.value(section, "table", "players", list, [])
        from .names import clean_name, shown_name, undrawable

        names = []
        for seat, name in enumerate(players, 1):
            if not isinstance(name, str) or not clean_name(name):
                raise self.error("table", "players", f"each seat needs a name in quotes, not {_describe(name)}")
            names.append(clean_name(name))      # (a tab or a line break in it: one space)
            missing = undrawable(names[-1])
            if missing:
                offered = repr(shown_name(names[-1])) if shown_name(names[-1]) else f"Player {seat}"
                self.warn(f"[table] players: the screen cannot draw {' '.join(missing)} (seat {seat}, "
                          f"{names[-1]!r}): the menu offers that seat as {offered} (or the next free number); "
                          "write it in letters the screen has, or install a font that has these (docs/table.md)")
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise self.error("table", "players", f"names must be different: {', '.join(map(repr, twice))} twice")
        journal = self.value(section, "table", "journal_dir", str, str(DEFAULT_JOURNAL_DIR))
        # (a reading shown longer than a minute before it counts is a typo, not a house rule)
        confirm = self.number(section, "table", "confirm_seconds", float, 1.5, 0, MAX_SHOW_SECONDS, " seconds")
        check_below = self.number(section, "table", "check_below", float, 0.9, 0, 1, " (0: never)")
        check_seconds = self.number(section, "table", "check_seconds", float, 4.0, 0, MAX_SHOW_SECONDS, " seconds")
        keep_games = self.value(section, "table", "keep_games", int, 5000)
        if keep_games < 0:
            raise self.error("table", "keep_games", f"must be 0 (keep all) or more, not {keep_games}")
        # (a day at most: beyond it "never" is 0, and a typo of hours for minutes is caught)
        idle = self.number(section, "table", "idle_minutes", float, 30.0, 0, MAX_IDLE_MINUTES, " minutes (0: never)")
        options = self.value(section, "table", "options", dict, {})
        from .rules import GAMES

        if game is not None and game not in GAMES:
            self.warn(f"[table] game: unknown game {game!r} ignored (known: {', '.join(GAMES)})")
            game = None
        return TableConfig(game=game, players=tuple(names), options=self.game_options(options),
                           journal_dir=Path(journal), confirm_seconds=confirm, check_below=check_below,
                           check_seconds=check_seconds, keep_games=keep_games, idle_minutes=idle)

    def game_options(self, options: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """Check house rules against each game's OptionSpecs: bad values are errors, unknown names warnings."""
        from .rules import GAMES, RulesError

        out: dict[str, dict[str, Any]] = {}
        for game, given in options.items():
            where = f"table.options.{game}"
            if game not in GAMES:
                self.warn(f"[table.options]: unknown game {game!r} ignored (known: {', '.join(GAMES)})")
                continue
            if not isinstance(given, dict):
                raise ConfigError(f"{self.path}: {where} must be a table [{where}], not {_describe(given)}",
                                  ("table", "options", game))
            specs = {spec.name: spec for spec in GAMES[game].OPTIONS}
            self.unknown(given, set(specs), where)
            checked = {}
            for name, value in given.items():
                if name in specs:
                    try:
                        checked[name] = specs[name].check(value)
                    except RulesError as exc:
                        raise self.error(where, name, str(exc)) from None
            out[game] = checked
        return out

    def camera(self, section: dict[str, Any] | None) -> dict[str, Any]:
        if section is None:
            return dict(Config().camera)
        config = {"type": "picamera2", **section}
        self.source_type(config, "camera", _frame_types())
        return config

    def buttons(self, section: dict[str, Any] | None) -> dict[str, Any]:
        """One source (`type = "gpio"`), or several: `[[buttons.sources]]` entries (type "multi")."""
        if section is None:
            return dict(Config().buttons)
        config = dict(section)
        if "sources" in config:
            config.setdefault("type", "multi")
            sources = config["sources"]
            if not isinstance(sources, list) or not sources or not all(isinstance(s, dict) for s in sources):
                raise self.error("buttons", "sources", "must be one or more [[buttons.sources]] tables")
            for i, source in enumerate(sources):
                self.source_type(source, f"buttons.sources #{i + 1}", _button_types(), ("buttons", "sources", i))
        if "type" not in config:
            raise self.error("buttons", "type", f"missing: say which buttons, one of {', '.join(_button_types())}",
                             ("buttons",))
        self.source_type(config, "buttons", _button_types() + ["multi"])
        return config

    def source_type(self, config: Mapping[str, Any], where: str, known: list[str],
                    place: tuple[str | int, ...] | None = None) -> None:
        """`place`: what is left out when the type is wrong (default: the whole section: a camera
        or a panel of another type takes other settings)."""
        place = (where,) if place is None else place
        kind = config.get("type")
        if not isinstance(kind, str):
            raise self.error(where, "type", f"must be one of {', '.join(known)} in quotes, not {_describe(kind)}",
                             place)
        if kind not in known:
            raise self.error(where, "type", f"unknown type {kind!r}; known: {', '.join(known)}", place)

    def vision(self, section: dict[str, Any]) -> VisionConfig:
        calibration = {k: v for k, v in section.items() if k != "settle"}
        self.unknown(calibration, CALIBRATION_KEYS, "vision")
        tray = calibration.get("tray")
        if tray is not None and not (isinstance(tray, list) and len(tray) == 4
                                     and all(_is_number(v) and 0 <= v < 1e6 for v in tray)
                                     and tray[0] < tray[2] and tray[1] < tray[3]):
            raise self.error("vision", "tray", f"must be [x0, y0, x1, y1] in pixels, x0 < x1 and y0 < y1, "
                                               f"not {_describe(tray)}")
        self.number(calibration, "vision", "die_px", float, None, 1, 1e5, " pixels")
        settle = self.value(section, "vision", "settle", dict, {})
        return VisionConfig(calibration=calibration, settle=self.settle(settle))

    def settle(self, settle: dict[str, Any]) -> dict[str, Any]:
        from dataclasses import fields

        from vision.settle import SETTLE_RANGES, SettleConfig

        kinds = {f.name: (int if f.type in (int, "int") else float) for f in fields(SettleConfig)}
        self.unknown(settle, set(kinds), "vision.settle")
        checked = {k: self.number(settle, "vision.settle", k, kinds[k], None, *SETTLE_RANGES[k])
                   for k in settle if k in kinds}
        try:
            SettleConfig(**checked)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"{self.path}: [vision.settle] {exc}", ("vision", "settle")) from None
        return checked

    def display(self, section: dict[str, Any]) -> DisplayConfig:
        self.unknown(section, ("size", "fullscreen"), "display")
        size: Any = section.get("size", "1280x720")
        if isinstance(size, str) and re.fullmatch(r"\s*\d+\s*[xX]\s*\d+\s*", size):
            size = [int(v) for v in re.split(r"[xX]", size)]
        if not (isinstance(size, list) and len(size) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)):
            raise self.error("display", "size", f'must be like "1280x720" or [1280, 720], not {_describe(size)}')
        problem = screen_size_problem(size[0], size[1])
        if problem:
            raise self.error("display", "size", problem)
        fullscreen = self.value(section, "display", "fullscreen", bool, False)
        return DisplayConfig(size=(size[0], size[1]), fullscreen=fullscreen)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _describe(value: Any) -> str:
    for kind, name in ((bool, "true/false"), (int, "a number"), (float, "a number"), (str, "a text"),
                       (list, "a list"), (dict, "a table")):
        if isinstance(value, kind):
            return f"{value!r} ({name})" if kind is not dict else "a table"
    return repr(value)


def _frame_types() -> list[str]:
    from hardware import frame_source_types

    return frame_source_types()


def _button_types() -> list[str]:
    from hardware import button_source_types

    return [t for t in button_source_types() if t != "multi"]
