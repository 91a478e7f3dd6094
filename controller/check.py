"""`dicetable check`: is this table ready? One line per part, each failure with what to do.

Café staff install the table once. After installing, after moving it or when it misbehaves,
one command goes over what the table needs at start and says, in their words, what is wrong:
the config, the reader's model files, the journal's folder, the service (its user, groups,
program and devices: controller/service_check.py), the camera (a frame, and its size
against the calibration's), the buttons, the clock (said, never to be set), and how often the
players corrected the dice in the last games (from the service's log). It changes
nothing; the camera is opened only for a frame and closed again (the table itself must be
stopped: one program at a time uses it).
"""
from __future__ import annotations

import argparse
import logging
import os
import shlex
import tempfile
import time
import warnings
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from .config import DEFAULT_PATH, Config, load_config
from .knock_report import knocks_said
from .size_report import sizes_said
from .told_report import kept_said
from .correction_report import corrections_said, read_service_log
from .service_check import check_service
from .table_user import (STATE_DIR, TableUser, blocked_inside, denied, describe_owner, sandbox_problem,
                         table_user)
from .wallclock import SystemWallClock, WallClock

OK, WARN, FAIL = "ok", "warning", "PROBLEM"


@dataclass(frozen=True)
class Finding:
    part: str          # "camera"
    level: str         # OK | WARN | FAIL
    text: str          # what was seen, and for a warning or a problem what to do

    def line(self) -> str:
        return f"{self.level:8} {self.part}: {self.text}"


#: where docs/install.md step 4 puts the program's source, and with it the example config
EXAMPLE = Path("/opt/dicetable/src/systemd/config.example.toml")


def copy_example(path: Path) -> str:
    """The command that makes the config at `path` from the example, as typed at the Pi. The check
    said "copy systemd/config.example.toml there": a folder of the source, not of the staff's
    login, where `sudo dicetable check` is typed (`dicetable calibrate` spells the command out)."""
    mkdir = "" if path.parent.is_dir() else f"sudo mkdir -p {shlex.quote(str(path.parent))} && "
    return f"{mkdir}sudo cp {EXAMPLE} {shlex.quote(str(path))}"


def check_config(path: Path, user: TableUser | None = None) -> tuple[Config | None, list[Finding]]:
    """Is the config read, and by the table's own user (`user`, when it exists and is not the one
    asking)? Root reads a file of mode 0600 that the table, run as `dicetable`, cannot: the check
    said "read" and the table stopped on its error screen. (The config root read is still
    returned, so that the other checks say what else to fix.)"""
    if not path.exists() and not path.is_symlink():     # (a link to no file: load_config says where it points)
        copy = copy_example(path)
        return Config(), [Finding("config", WARN, f"no file at {path}: the built-in defaults are used "
                                                  f"(copy the example there, docs/install.md step 5: {copy})")]
    # (read as the table reads it: each mistake left out, so that all of them are said at once,
    # and the other checks look at the camera and the panels the table will use)
    config = load_config(path, lenient=True)
    if user is not None and user.uid != os.geteuid():
        shown = denied(path, user, 4)
        if shown is not None:
            return config, [Finding("config", FAIL, f"the table's user {user.name} cannot read {path} "
                                                  f"({shown}: {describe_owner(shown.stat())}): the table starts "
                                                  "with the built-in defaults, not this file. Let it read the "
                                                  f"file: sudo chmod 644 {path}")]
    found = [Finding("config", FAIL, problem) for problem in config.problems] or [Finding("config", OK, f"{path} read")]
    found += [Finding("config", WARN, w) for w in config.warnings]
    return config, found


def check_models() -> list[Finding]:
    from vision import dicenet

    if not dicenet.available():
        return [Finding("reader", FAIL, "the detector or classifier model file is missing or broken "
                                        "(vision/models): dice are read by the classical stages alone, "
                                        "far less well. Reinstall the program.")]
    if not dicenet.verifier_available():
        return [Finding("reader", WARN, "the verifier model file is missing: unsure dice are read less well. "
                                        "Reinstall the program.")]
    # (each net run once: a file that loads but does not run, another net in its place, failed
    # only at the first throw, where every reading then failed)
    ran = [t.words.removeprefix("Dice reader: ").replace(" (dicetable check)", "") for t in dicenet.tried()]
    if ran:
        level = FAIL if not dicenet.available() else WARN
        return [Finding("reader", level, " ".join(ran))]
    from vision import net_runtime

    return [Finding("reader", OK, f"model files load (run by {net_runtime.describe()})")]


def check_journal(folder: Path, user: TableUser | None = None) -> list[Finding]:
    """Can the games be journaled there (what a power cut needs)? For the table's own user when it
    exists and is not the one asking (staff with sudo, or from their login): from the folder's owner
    and mode and the service's sandbox (controller/table_user.py). Else tried: a file is written
    and removed."""
    if user is not None and user.uid != os.geteuid():
        return _journal_for(folder, user)
    probe = folder if folder.exists() else next((p for p in folder.parents if p.exists()), Path("/"))
    try:
        if not probe.is_dir():
            raise NotADirectoryError(f"{probe} is not a folder")
        with tempfile.NamedTemporaryFile(dir=probe, prefix=".dicetable-check-"):
            pass
    except OSError as exc:
        # (the card said as it is where it is the cause: "Check the card (full? read-only?) and the
        # folder's owner" left the staff to find out which of the three)
        card = card_space(probe, folder) if probe.is_dir() else None
        if card is not None and card.level == FAIL:
            return [card]
        if isinstance(exc, PermissionError):
            return [Finding("journal", FAIL, f"this user cannot write in {probe} ({describe_owner(probe.stat())}): "
                                             f"{LOST} if the table runs as this user. Give it the folder: sudo "
                                             f"chown -R $(id -un) {probe} (docs/install.md step 3).")]
        return [Finding("journal", FAIL, f"cannot write in {probe} ({exc.strerror or exc}): {LOST}. Check the card "
                                         "(full? read-only?) and the folder's owner (docs/install.md step 3).")]
    # (an empty file is made on a full card too: the check said "games are saved" and "ready" on a
    # card with no byte left, and the first move said "This game can no longer be saved")
    inside = blocked_inside(folder, None) if folder.is_dir() else []
    if inside:
        return [inside_finding(folder, inside, "this user", "$(id -un):")]
    where = folder if folder.exists() else f"{folder} (made at the first game, in {probe})"
    return [card_space(probe, where) or Finding("journal", OK, f"games are saved in {where}")]


def inside_finding(folder: Path, inside: list[Path], who: str, owner: str) -> Finding:
    """What is wrong with the files in the games folder `who` cannot use (`inside`), and the
    chown that gives them back (`owner`: user:group)."""
    def shown(path: Path) -> str:
        try:
            return f"{path} ({describe_owner(path.stat())})"
        except OSError:
            return str(path)
    what = ", ".join(shown(p) for p in inside)
    verb = "read" if all(p.name == "current.jsonl" for p in inside) else "write"
    harm = ("the game on the table cannot be taken up at the next start (it is kept aside as unreadable)"
            if verb == "read" else "finished games cannot be put away (each comes back at the next start) "
                                   "or games cannot be saved")
    who = "the table's user " + who if who != "this user" else who
    return Finding("journal", FAIL, f"{who} cannot {verb} {what}: {harm}. A table run with sudo leaves this "
                                    f"behind. Give it back: sudo chown -R {owner} {folder}")


LOST = "games would not survive a power cut"
#: free space on the games' card below which no game can be counted on to be saved (a game's
#: journal is 0.2-8 KB, written again beside itself at a resume; the log shares the card)
FULL_BYTES = 1 << 20
#: ... and below which it will be soon: 5,000 kept games take 49 MB (dicetable bench archive)
LOW_BYTES = 100 << 20
FREE_UP = ("Free space (docs/install.md section 10): sudo journalctl --vacuum-size=50M shrinks the system's "
           "log, and a lower keep_games in [table] has the oldest games removed at the next game's end; or use "
           "a bigger card.")


def card_space(probe: Path, where: object) -> Finding | None:
    """The card holding `probe` (games saved in `where`) read-only or (nearly) full, in the
    staff's words; None if fine.
    Free space is what a user other than root may use (root's reserved blocks do not count: the
    table runs as its own user)."""
    try:
        space = os.statvfs(probe)
    except OSError:
        return None
    free = space.f_bavail * space.f_frsize
    if space.f_flag & os.ST_RDONLY:
        return Finding("journal", FAIL, f"the card holding {probe} is read-only (a failing SD card is often "
                                        f"remounted so): {LOST}. Replace the card (docs/install.md section 10).")
    if free < FULL_BYTES:
        return Finding("journal", FAIL, f"the card holding {probe} is full ({_size(free)} free): {LOST}. {FREE_UP}")
    if free < LOW_BYTES:
        return Finding("journal", WARN, f"games are saved in {where}, but its card is nearly full ({_size(free)} "
                                        f"free): they stop being saved when it is. {FREE_UP}")
    return None


def _size(n: int) -> str:
    """`0 bytes`, `12 KB`, `3.4 MB`: a size staff can read."""
    if n < 1000:
        return f"{n} bytes"
    return f"{n / 1000:.0f} KB" if n < 1_000_000 else f"{n / 1_000_000:.1f} MB"


def _journal_for(folder: Path, user: TableUser) -> list[Finding]:
    """check_journal for the table's user, asked by someone else: nothing is written."""
    why = sandbox_problem(folder)
    if why:
        return [Finding("journal", FAIL, f"{folder}: {why}: {LOST}. Set journal_dir in [table] back to "
                                         f"\"{STATE_DIR}\".")]
    if folder == STATE_DIR and not folder.exists():
        return [Finding("journal", OK, f"games are saved in {folder} (systemd makes it when the table starts)")]
    probe = folder if folder.exists() else next((p for p in folder.parents if p.exists()), Path("/"))
    if not probe.is_dir():
        return [Finding("journal", FAIL, f"cannot write in {probe} (not a folder): {LOST}. "
                                         "Fix journal_dir in [table].")]
    shown = denied(probe, user, 3)
    if shown is not None:
        give = (f"sudo chown -R {user.name}:{user.name} {folder}" if folder.exists()
                else f"sudo mkdir -p {folder} && sudo chown {user.name}:{user.name} {folder}")
        return [Finding("journal", FAIL, f"the table's user {user.name} cannot write in {probe} "
                                         f"({shown}: {describe_owner(shown.stat())}): {LOST}. Give it the folder: "
                                         f"{give}")]
    inside = blocked_inside(folder, user)
    if inside:
        return [inside_finding(folder, inside, user.name, f"{user.name}:{user.name}")]
    where = folder if folder.exists() else f"{folder} (made at the first game, in {probe})"
    return [card_space(probe, where) or Finding("journal", OK, f"games are saved in {where}")]


def check_camera(config: Config, *, timeout_s: float = 10.0, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, **inject: Any) -> tuple[Any, list[Finding]]:
    """One frame from the config's camera (None if none came) and what was seen."""
    from hardware import make_frame_source
    from hardware.frames import FrameSourceError

    kind = config.camera.get("type", "?")
    try:
        source = make_frame_source(config.camera, **inject)
        source.open()
    except Exception as exc:  # noqa: BLE001 - a setting no check foresaw: said, not a traceback
        why = getattr(exc, "reason", _said(exc))
        if isinstance(exc.__cause__, ImportError):    # (the reason says what to install)
            return None, [Finding("camera", FAIL, f"{kind}: {why}")]
        return None, [Finding("camera", FAIL, f"{kind}: {why}. If the table is running, stop it first "
                                              "(sudo systemctl stop dicetable); else check the cable and "
                                              "[camera] in the config.")]
    try:
        deadline = clock() + timeout_s
        while clock() <= deadline:
            frame = source.read()
            if frame is not None:
                h, w = frame.image.shape[:2]
                notes = [Finding("camera", WARN, f"{kind}: {note}") for note in getattr(source, "notes", [])]
                return frame.image, [Finding("camera", OK, f"{kind} sends {w}x{h} frames")] + notes
            if getattr(source, "finished", False):
                break
            sleep(0.05)
        return None, [Finding("camera", FAIL, f"{kind} opened but sent no frame in {timeout_s:.0f} s")]
    except FrameSourceError as exc:
        return None, [Finding("camera", FAIL, f"{kind}: {exc.reason}")]
    finally:
        source.close()


def check_camera_settings(config: Config) -> list[Finding]:
    """The camera's settings alone (the source is built, not opened): for a table that is running.

    A misspelt `[camera]` setting stops the table at its next start; staff who check with
    `--no-camera` while it runs must hear of it now, not after a power cut.
    """
    from hardware import make_frame_source

    kind = config.camera.get("type", "?")
    try:
        make_frame_source(config.camera)
    except Exception as exc:  # noqa: BLE001 - a setting no check foresaw: said, not a traceback
        return [Finding("camera", FAIL, f"{_said(exc)}: the table starts without the camera until it is fixed. "
                                        "Fix it in the config.")]
    return [Finding("camera", WARN, f"{kind}: settings fine, no frame taken (--no-camera)")]


def _said(exc: Exception) -> str:
    """A settings error in words, as the table's start says it (usable.words)."""
    from .usable import words

    return words(exc)


def calibrate_again(path: Path | None) -> str:
    """The commands that calibrate the config file checked. `dicetable check --config FILE` advised
    a bare `dicetable calibrate --camera`, which saves into /etc/dicetable/config.toml: followed
    word for word, it calibrated the table's file (or stopped at *no config file*), not FILE."""
    mine = path is None or Path(path).resolve() == DEFAULT_PATH.resolve()
    named = "" if mine else f" --config {shlex.quote(str(path))}"
    return (f"run: sudo systemctl stop dicetable; sudo dicetable calibrate --camera{named}; "
            "sudo systemctl start dicetable")


def check_calibration(config: Config, frame: Any) -> list[Finding]:
    from vision.height_check import unchecked
    from vision.reader import calibration_scale

    cal = dict(config.vision.calibration)
    again = calibrate_again(config.path)
    if not cal.get("tray") and not cal.get("die_px"):
        return [Finding("calibration", WARN, f"none: the whole view is read and the die size guessed; {again}")]
    when = f" on {cal['calibrated_at']}" if cal.get("calibrated_at") else ""
    seen = f"die {float(cal['die_px']):.0f} px" if cal.get("die_px") else "no die size"
    if frame is not None:
        h, w = frame.shape[:2]
        if calibration_scale(cal, (w, h)) is None:
            fw, fh = cal["frame_size"]
            return [Finding("calibration", FAIL, f"taken{when} on {fw}x{fh} frames, but the camera sends {w}x{h}, "
                                                 f"another view: it is not used; {again}")]
        told = _what_the_table_would_say(cal, frame)
        if told is not None:
            level, said = told
            return [Finding("calibration", level, f"taken{when}, {seen}; on the camera's frame {said}; {again}")]
    advice = cal.get("advice") or []
    # (an older calibration: the camera's height and small knocks go unnoticed: vision/height_check.py)
    old = unchecked(cal)
    if old is not None:
        return [Finding("calibration", WARN, f"taken{when}, {seen}; {old}; {again}")]
    if advice:
        return [Finding("calibration", WARN, f"taken{when}, {seen}; its advice still stands: {advice[0]}")]
    return [Finding("calibration", OK, f"taken{when}, {seen}")]


def _what_the_table_would_say(cal: dict[str, Any], frame: Any) -> tuple[str, str] | None:
    """The staff notice the table would show for this frame read with this calibration, and
    how bad it is for the check: the tray not where it was calibrated (the calibration's box is
    not used: PROBLEM), dice bigger or smaller than the calibrated ones (a warning: other dice may be in
    the tray now). Before, the check said "ok" while every throw showed "For the staff: the tray
    is not where it was calibrated"."""
    from vision.reader import read
    from vision.types import CAMERA_MOVED, DIE_SIZE

    problems = {p.code: p.message for p in read(frame, calibration=cal).problems}
    if CAMERA_MOVED in problems:
        return FAIL, problems[CAMERA_MOVED].split(": run dicetable calibrate")[0]
    if DIE_SIZE in problems:
        return WARN, problems[DIE_SIZE].split(": run dicetable calibrate")[0]
    return None


def check_buttons(config: Config, *, wait_s: float = 2.0, clock: Callable[[], float] = time.monotonic,
                  sleep: Callable[[float], None] = time.sleep, **inject: Any) -> list[Finding]:
    """Start the config's button sources and report each one's state after `wait_s` (a serial
    box connects in the background)."""
    from hardware import make_button_source
    from hardware.button_gpio import NO_PIN_LIBRARY

    from .usable import usable_panels

    left_out: list[Finding] = []
    try:
        source = make_button_source(config.buttons, **inject)
    except Exception as exc:  # noqa: BLE001 - a setting no check foresaw: said, not a traceback
        # the table leaves out a panel it cannot build and starts with the others: said each, the
        # others checked (a misspelt box's setting hid whether the GPIO panel was wired right)
        buttons, said = usable_panels(config, exc)
        left_out = [Finding("buttons", FAIL, f"{text.split(': ', 1)[-1] if config.path else text}: fix it in "
                                             "the config") for text in said]
        if buttons == config.buttons or not said or "sources" not in buttons:
            return left_out
        try:
            source = make_button_source(buttons, **inject)
        except Exception:  # noqa: BLE001  (said above)
            return left_out
    from hardware.button_keyboard import KeyboardButtonSource

    parts = list(getattr(source, "sources", [source]))
    # the keyboard of the screen's window is a spare, not what players press: the table is ready
    # when at least one panel of real buttons is (or when the keyboard is all it was given)
    panels = [p for p in parts if not isinstance(p, KeyboardButtonSource)] or parts
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # (gpiozero lists every pin library it tried)
            source.start()
        deadline = clock() + wait_s
        while clock() < deadline and not all(p.status.connected for p in parts):
            sleep(0.05)
        some_panel = any(p.status.connected for p in panels)
        found = []
        for p in parts:
            st = p.status
            if st.connected:
                spare = " (a spare: the keyboard of the screen's window)" if p not in panels else ""
                found.append(Finding("buttons", OK, f"{p.name} ready{spare}"))
            else:
                level = WARN if some_panel or p not in panels else FAIL
                advice = "" if NO_PIN_LIBRARY in st.message else (
                    " (if the table is running it holds the buttons: stop it first; else check the wiring or the "
                    "cable, and [buttons] in the config)")
                found.append(Finding("buttons", level, f"{p.name}: {st.message or 'not connected'}{advice}"))
        return left_out + found
    finally:
        source.stop()


#: the same button pressed again sooner than this is its switch chattering, not a hand (a hand takes
#: 80 ms or more to press a button twice, see hardware.button_serial.FloodGuard)
CHATTER_S = 0.08


class PressWatch:
    """What the press test says beyond the buttons' names: a switch that chatters (pressed again
    sooner than a hand can, or bounces the panel took as part of a press) and a button stuck down.
    Before, the test named each press and nothing else: a worn switch looked like a keen tester, and
    a jammed one like a button never pressed."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.last_press: dict[str, float] = {}
        self.chattering: set[str] = set()
        self.held: set[str] = set()
        self._said: dict[str, str] = {}       # per panel, the warning last said
        self._bounces: dict[tuple[str, str], int] = {}

    def event(self, event: Any) -> None:
        """One button event: a press too soon after the last of its button is chatter."""
        if event.kind == "press":
            last = self.last_press.get(event.name)
            self.last_press[event.name] = event.timestamp
            if last is not None and event.timestamp - last < CHATTER_S:
                self._chatters(event.name, f"pressed again {1000 * (event.timestamp - last):.0f} ms later")
        elif event.kind == "hold":
            self.held.add(event.name)
        elif event.kind == "release":
            self.held.discard(event.name)

    def panels(self, panels: list[Any]) -> None:
        """A panel's stuck buttons and the bounces it took as one press, each said once."""
        for panel in panels:
            warning = panel.status.warning
            if warning and warning != self._said.get(panel.name):
                stuck = warning.replace(": call staff", "")
                self.say(f"  {panel.name}: {stuck} (down for seconds): free it, or clean or replace its switch")
            self._said[panel.name] = warning
            for name, count in getattr(panel, "bounces", {}).items():
                if count > self._bounces.get((panel.name, name), 0):
                    self._bounces[(panel.name, name)] = count
                    self._chatters(name, f"its contact bounced ({count} in all, each taken as part of one press)")

    def _chatters(self, name: str, how: str) -> None:
        if name not in self.chattering:
            self.chattering.add(name)
            self.say(f"  {name} chatters: {how}; a worn or dirty switch: clean or replace it")

    def started(self, panels: list[Any]) -> None:
        """Buttons already down as the test starts (a jammed switch gives no press to see)."""
        for panel in panels:
            down = panel.pressed() if hasattr(panel, "pressed") else []
            if down:
                self.say(f"  {panel.name}: {', '.join(down)} down as the test starts: stuck? (let go, or call for repair)")

    def ended(self) -> None:
        if self.held:
            self.say(f"still held down at the end: {', '.join(sorted(self.held))}: a stuck button?")
        if self.chattering:
            self.say(f"chattering: {', '.join(sorted(self.chattering))}")


def press_test(config: Config, seconds: float, *, say: Callable[[str], None] = print,
               clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
               **inject: Any) -> list[str]:
    """For whoever wires the buttons: for `seconds`, say each button event as it comes (which
    button, which panel), a button that chatters or is stuck down, then name the buttons never
    pressed. Returns those names.

    Only the buttons the panels have count as never pressed: a GPIO panel's are its pins', a box
    may have any. A keyboard is left out: its keys reach the table through the table's window,
    and there is none here. Before, a three-button panel pressed in full ended with "never pressed:
    HOLD1, ..., HINT", eight buttons it does not have, read as eight wiring faults."""
    from hardware import BUTTON_NAMES, DIRECTIVE, make_button_source
    from hardware.button_gpio import GpioButtonSource
    from hardware.button_keyboard import KeyboardButtonSource

    source = make_button_source(config.buttons, clock=clock, **inject)   # (the panels time presses by it)
    parts = list(getattr(source, "sources", [source]))
    panels = [p for p in parts if not isinstance(p, KeyboardButtonSource)]
    expected = {name for p in panels for name in (p.pins if isinstance(p, GpioButtonSource) else BUTTON_NAMES)}
    seen: set[str] = set()
    watch = PressWatch(say)
    say(f"Press each button in turn ({seconds:.0f} s)...")
    if len(panels) < len(parts):
        say("  (the keyboard is not tested here: its keys only reach the table in its own window)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # (gpiozero lists every pin library it tried: said above)
        logging.disable(logging.ERROR)
        try:
            source.start()
        finally:
            logging.disable(logging.NOTSET)
    for panel in panels:
        if isinstance(panel, GpioButtonSource) and not panel.status.connected:
            say(f"  {panel.name}: not available ({panel.status.message}): its buttons cannot be tested")
            expected -= set(panel.pins)
    watch.started(panels)
    try:
        deadline = clock() + seconds
        while expected and clock() < deadline:       # (nothing to wait for when no panel works)
            for event in source.poll():
                if event.kind == DIRECTIVE:
                    continue
                seen.add(event.name)
                say(f"  {event.name} {event.kind} ({event.source})")
                watch.event(event)
            watch.panels(panels)
            sleep(0.02)
    finally:
        source.stop()
    missing = [name for name in BUTTON_NAMES if name in expected and name not in seen]
    watch.ended()
    if not expected:
        say("no button could be tested")
    else:
        say("every button was pressed" if not missing else f"never pressed: {', '.join(missing)}")
    return missing


def check_clock(wall: WallClock) -> list[Finding]:
    """What the table's clock says, and whether the network set it: a Pi has no clock battery, and
    after a power cut it says 1970 or an hour early until the network sets it. Never a warning
    (nobody needs to set it), but it tells the staff why a date they read may be wrong."""
    said = datetime.fromtimestamp(wall.now()).strftime("%Y-%m-%d %H:%M")
    if wall.synced():
        return [Finding("clock", OK, f"{said}, set by the network")]
    return [Finding("clock", OK, f"{said}, not set by the network (none, or not yet): the dates of archived games and "
                                 "of the calibration are what it said then; nothing else depends on it "
                                 "(docs/table.md, The table's clock)")]


def run_checks(config_path: Path, *, camera: bool = True, **inject: Any) -> list[Finding]:
    user = inject.get("table_user", table_user())
    config, found = check_config(config_path, user)
    if config is None:
        return found
    found += check_models()
    found += check_journal(Path(config.table.journal_dir), user)
    found += [Finding("service", level, text) for level, text in check_service(**inject.get("service", {}))]
    frame = None
    if camera:
        frame, seen = check_camera(config, **inject.get("camera", {}))
        found += seen
    else:
        found += check_camera_settings(config)
    found += check_calibration(config, frame)
    found += check_buttons(config, **inject.get("buttons", {}))
    found += check_clock(inject.get("wall", SystemWallClock()))
    lines = inject.get("service_log", read_service_log)()      # (journalctl read once)
    found += check_knocks(lines)
    found += [Finding("calibration", level, text) for level, text in sizes_said(lines)]
    # (what the table holds as told and its log does not say: told before the log's last lines read)
    found += [Finding("calibration", level, text)
              for level, text in kept_said(Path(config.table.journal_dir), config.vision.calibration, lines)]
    found += check_corrections(Path(config.table.journal_dir), lambda: lines)
    return found


def check_knocks(lines: list[str] | str) -> list[Finding]:
    """A camera knocked since calibration, as the table told it in its log (controller/knock_report.py):
    while the table runs the check cannot look through its camera."""
    said = knocks_said(lines)
    return [] if said is None else [Finding("calibration", said[0], said[1])]


def check_corrections(journal_dir: Path, read: Callable[[], list[str] | str] = read_service_log) -> list[Finding]:
    """How often the players corrected the dice in the last games (controller/correction_report.py):
    what staff look for after a complaint of misreadings. A warning where they kept correcting."""
    level, text = corrections_said(read(), journal_dir)
    return [Finding("corrections", level, text)]


def cmd_check(args: argparse.Namespace) -> int:
    """0 when nothing is a problem (warnings allowed), 1 otherwise."""
    logging.disable(logging.ERROR)       # (each finding says it; the devices' own log lines would repeat it)
    try:
        found = run_checks(Path(args.config), camera=not args.no_camera)
    finally:
        logging.disable(logging.NOTSET)
    for finding in found:
        print(finding.line())
    problems = sum(f.level == FAIL for f in found)
    print("ready" if not problems else f"{problems} problem{'s' if problems > 1 else ''}: see above")
    if args.press_test:     # (the panels the table uses: a mistake in the file is left out, as it does)
        press_test(load_config(args.config, lenient=True) if Path(args.config).exists() else Config(),
                   args.press_test)
    return 1 if problems else 0


def positive_seconds(text: str) -> float:
    """--press-test SECONDS: '-5' once printed 'Press each button in turn (-5 s)' and '0' skipped
    the test without a word; argparse now refuses both with this message."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes a number of seconds, not {text!r}") from None
    if not (0 < seconds < float("inf")):
        raise argparse.ArgumentTypeError(f"takes a number of seconds above 0, e.g. 30, not {text!r}")
    return seconds


def register(sub: Any) -> None:
    p = sub.add_parser("check", help="is this table ready? config, reader, journal, service, camera, calibration, "
                                     "buttons, clock, corrections",
                       description="Go over what the table needs and say what to fix. Stop the table first "
                                   "(sudo systemctl stop dicetable): the camera serves one program at a time.")
    p.add_argument("--config", default=str(DEFAULT_PATH), metavar="PATH",
                   help=f"config file (default {DEFAULT_PATH})")
    p.add_argument("--no-camera", action="store_true", help="leave the camera alone (the table is running)")
    p.add_argument("--press-test", type=positive_seconds, default=None, metavar="SECONDS",
                   help="then, for SECONDS, name every button pressed (to check the wiring), and those never pressed")
    p.set_defaults(func=cmd_check)

