"""The real table (`dicetable run`): setup menu, game, final standings, again; forever.

Café staff install it once and forget it, so it must survive everything: an unplugged camera or
button box is a message on screen while it retries; a power cut is survived by the journal, and
on start an unfinished game is resumed by replaying it (resume = replay).

`TableApp` runs the loop and says when; its parts do the rest (docs/table.md, Resume):
controller/game_archive.py the journals put away, controller/camera_watch.py the camera's
health, controller/journal_times.py how long a journal was left, controller/menu_memory.py the
game the menu keeps for *play again*.
"""
from __future__ import annotations

import argparse
import errno
import logging
import os
import random
import time
from pathlib import Path
from typing import Any, Callable

from display.screen import Screen
from display.view import MessageView
from hardware import make_button_source
from hardware.frame_reader import table_frames
from vision import dicenet
from vision import reader as vision_reader
from vision.height_check import unchecked
from vision.settle import SettleTracker

from .config import Config, load_config
from .table_lock import hold_table_lock
from .table_user import refuse_root_in
from .usable import usable_hardware
from .draws import draw_first_player, first_player_words
from .idle import IdleWatch, left_message
from .knock_notice import CALIBRATION_WORDS, KnockWatch
from .size_notice import SizeWatch
from .camera_watch import CAMERA_QUIET_SECONDS, CameraWatch  # noqa: F401  (the constant: was here)
from .slow_camera import SlowCameraWatch
from .told_kept import ToldKept, calibration_id
from .reader_notice import ReaderNotices
from .plain_file import not_a_folder
from .game_archive import GameArchive
# (the archive's helpers lived here: still imported from here by tests and benchmarks)
from .game_archive import NUMBERED, archive_order, archived_journals, copy_file, free_name, next_number  # noqa: F401
from .kept_games import offered, put_away_label
from .resumed_names import drawable_game
from .resume_words import correction_lost, correction_resumed, moves_replayed
from . import journal_times
from .journal import Held, Journal, NotAJournal, damaged_line, recover, sync_folder
from .menu_memory import configured_rules, recent_game
from .runner import TableRunner
from .setup_menu import SetupDefaults, SetupMenu, SetupResult
from .short_panel import aliased, button_words, panel_buttons
from .table import DECIDE, OVER, WAIT_DICE, TableFlow, holds_fit
from .tablelog import LogError, OtherVersion, RefusedGame, TableLog
from .wallclock import SystemWallClock, WallClock
from .watchdog import Watchdog

log = logging.getLogger(__name__)

CURRENT = "current.jsonl"
#: an OK this soon after the game ended is the last choice's OK pressed twice (an impatient or
#: bouncing press), not a request for the next game: it would wipe the standings unseen
STANDINGS_SECONDS = 2.0
#: what the final standings of a game over found at start say for as long as they are shown
FINISHED_BEFORE = "Finished before the restart"


def unresumable(exc: Exception) -> str:
    """Why a journal could not be resumed, in the staff's words: after an update that renamed a
    game's option, "damaged" sent them looking for a failing card; and a header the rules refuse
    (9 players, a name twice: edited by hand) was said to be of another version."""
    if isinstance(exc, NotAJournal):
        return exc.words
    if isinstance(exc, OtherVersion):
        return "it was saved by another version of the program"
    if isinstance(exc, RefusedGame):
        return f"the rules refuse its game ({exc})"
    return "its journal is damaged"


def config_message(problems: tuple[str, ...], warnings: tuple[str, ...] = ()) -> MessageView | None:
    """What the screen says of a config file the table started without parts of: the first
    mistake, how many more, and that `dicetable check` lists them (the staff may not read the log).
    A misspelt setting (an unknown key: a house rule the café set and the table does not play)
    is said too; the config's other warnings are the menu's own to say."""
    unknown = tuple(w for w in warnings if "unknown" in w)
    said = problems + unknown
    if not said:
        return None
    lines = said[0].split("\n")
    first = lines[0].split(": ", 1)[-1].split(" (known: ")[0]   # (the file's path: the staff know which file)
    if first.startswith("not valid TOML") and len(lines) > 1:
        first = lines[1].strip()                   # ("line 4: confirm_seconds = 1.5 s")
    first = first.split(" (the file was saved in another encoding")[0]    # ("line 3 is not UTF-8 text")
    more = f" (and {len(said) - 1} more)" if len(said) > 1 else ""
    what = "mistakes" if more else "mistake"
    return MessageView(f"Config file {what}, left out: {first}{more}. The table uses the defaults for them. "
                       "Staff: dicetable check says what to fix.", "error" if problems else "warning")


def resumed_message(state, replayed: int, flow: TableFlow, taken_up: bool = False) -> str:
    """What the screen says of a game resumed: the moves replayed (not those the table drew as
    it took the game up, which it said it drew: the draw's words were hidden under this); at a
    decision where dice can be held, the dice held again as they were before the cut (the
    journal keeps the holds: a player who saw no word took them for lost, or threw them).
    `taken_up`: a game put away, taken up from the menu: no restart to speak of (the log said
    *after a restart* at every take-up, and staff counting the table's restarts counted those)."""
    players = ", ".join(state.players)
    text = (f"{state.title} ({players}) taken up where it was left ({moves_replayed(replayed)})." if taken_up else
            f"Resumed {state.title} for {players} after a restart ({moves_replayed(replayed)}).")
    drawn = first_player_words(state)
    if drawn and not replayed:
        text += " " + drawn                    # (the game had not begun: who starts is still news)
    if flow.phase == DECIDE and any(flow.holds):
        text += f" Dice still held: {flow.held_text()}."
    if flow.message is not None:
        text += " " + flow.message.text        # (the dice the table drew as it took the game up)
    return text


class TableApp:
    def __init__(self, config: Config, screen: Screen, frames: Any, buttons: Any, *,
                 clock: Callable[[], float] = time.monotonic, reader=None, fps: float = 20.0,
                 rng: random.Random | None = None, wall: WallClock | None = None):
        """`rng`: what the table draws with (the first player; None: the system's randomness).
        `clock` measures durations (monotonic); `wall` is the date and time of day (controller.wallclock)."""
        self.config = config
        self.rng = rng
        self.screen = screen
        self.frames = frames
        self.buttons = buttons
        self.clock = clock
        self.wall = wall or SystemWallClock()
        self.fps = fps
        self.read = reader or self._reader_with_calibration()
        self.knocks = KnockWatch()       # a knocked camera told once for the table, not once a game
        self.sizes = SizeWatch()         # (so are dice or frames of another size than calibrated)
        # motion is watched on the low-resolution stream where the camera has one (picamera2);
        # a full frame is taken only when the tray is still and a reading is wanted
        # (the wrapper's own read_lores is not enough: a webcam has one stream, read on a thread)
        self.two_streams = hasattr(frames, "read_lores") and hasattr(getattr(frames, "source", frames), "read_lores")
        self.journal_dir = Path(config.table.journal_dir)
        # (what they told before this start, kept beside the journal: not told again at each restart)
        self.told_kept = ToldKept(self.journal_dir, config.vision.calibration, self.knocks, self.sizes)
        self.told_kept.take_up()
        self.panel = panel_buttons(config.buttons)     # (None: any button may come)
        self.menu = SetupMenu(defaults=SetupDefaults(config.table.game, config.table.players,
                                                     config.table.options),
                              screen_size=screen.size, buttons=self.panel)
        self.flow: TableFlow | None = None
        self.runner: TableRunner | None = None
        self.journal: Journal | None = None
        self.lock: Any = None                  # the journal folder's lock (from_args: the real table)
        self.running = True
        self.camera = CameraWatch()        # its error, its pictures stopped, black or slow (camera_watch.py)
        self._buttons_error = ""
        self._buttons_warning = ""      # a button stuck down, or a panel down: the others work
        self._last_failure = ""
        self._over_at: float | None = None     # when the game on the table ended (see _note_over)
        self.idle = IdleWatch(config.table.idle_minutes * 60, clock)
        self._left_at: tuple[int, int] | None = None     # see _learn_how_long_left
        self._menu_used = False                # the setup menu shows someone's choices, not the café's
        # (the folder's names synced through this module's sync_folder: where a power cut is simulated)
        self.archive = GameArchive(self.journal_dir, self.wall, config.table.keep_games,
                                   sync=lambda folder: sync_folder(folder))
        self.reader_notices = ReaderNotices()   # the nets' troubles said (controller/reader_notice.py)
        self.resume()
        archived = self.archive.names()
        self._offer_kept(archived)
        self._remember_last_played(archived)
        self._say_config_problems()
        # (the detector and classifier loaded now, not at the first throw: a model file missing or
        # damaged is said at the start, and the first throw is not read late)
        if vision_reader.USE_LEARNED:
            dicenet.available()
        self._say_reader_troubles(at_start=True)

    def _say_config_problems(self) -> None:
        """The config's mistakes on screen at the start: on the menu (after what it says of the
        last game), and on a game resumed whenever it says nothing else."""
        said = config_message(self.config.problems, self.config.warnings)
        if said is None:
            return
        if self.flow is not None:
            self.flow.config_notice = said
        elif self.menu.message is None:
            self.menu.message = said
        else:
            self.menu.message = MessageView(f"{self.menu.message.text} {said.text}", "error")

    def _say_reader_troubles(self, at_start: bool = False) -> None:
        """The dice reader's troubles not said yet, each once as it comes (vision.dicenet logged
        them): in the banner, and the lasting ones kept as the game's notice shown whenever
        nothing else is. At the start, after what the menu or a resumed game says."""
        fresh = self.reader_notices.new()
        if not fresh:
            return
        text = " ".join(t.words for t in fresh)
        if self.flow is not None:
            self.flow.reader_notice = self.reader_notices.lasting()
            if not at_start:
                self.flow.say(text, "error", logged=False)
        elif self.menu.message is None:
            self.menu.message = MessageView(text, "error")
        else:
            self.menu.message = MessageView(f"{self.menu.message.text} {text}", "error")

    # ---------------------------------------------------------------------------- building
    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "TableApp":
        # (which logs its own warnings and problems, each once; a mistake is left out, not fatal)
        config, camera = usable_hardware(load_config(args.config, lenient=True))
        refuse_root_in(Path(config.table.journal_dir))             # (sudo on the service's folder)
        lock = hold_table_lock(Path(config.table.journal_dir))     # (TableBusy: another table runs)
        size = config.display.size
        screen = Screen(size, fullscreen=args.fullscreen or config.display.fullscreen, headless=args.headless)
        frames = table_frames(camera)           # (a webcam on its own thread: see hardware.frame_reader)
        frames.open()
        buttons = make_button_source(config.buttons)
        buttons.start()
        app = cls(config, screen, frames, buttons)
        app.lock = lock                        # (held while the app lives)
        return app

    def _reader_with_calibration(self):
        calibration = dict(self.config.vision.calibration) or None
        if calibration:      # (`dicetable check` counts the knocks told since: see knock_notice)
            log.info("%s: tray %s, dice %s px (calibration %s)", CALIBRATION_WORDS, calibration.get("tray"),
                     calibration.get("die_px"), calibration_id(calibration))
            old = unchecked(calibration)      # (an older calibration: vision/height_check.py)
            if old is not None:
                log.warning("camera: this calibration was %s: run dicetable calibrate again", old)

        def read(image):
            return vision_reader.read(image, calibration)

        return read

    # ------------------------------------------------------------------------------ games
    def resume(self, taken_up: bool = False) -> None:
        """Continue an unfinished game from its journal, if there is one (`taken_up`: one put away,
        taken up from the menu). A damaged journal
        costs only the moves from the damage on: the game resumes before it, the journal as it
        was is kept aside, and the screen says so (the staff do not read the log every day)."""
        path = self.journal_dir / CURRENT
        try:
            if not path.exists():
                return
            found = recover(path)
        except Exception as exc:  # LogError, or anything else: a journal must not stop the table
            why = unresumable(exc)
            (log.error if isinstance(exc, LogError) else log.exception)(
                "cannot resume %s: %s; %s; it is kept aside", path, exc, why)
            kept = self.archive.put(path, "unreadable")
            self.menu.message = MessageView(f"The last game could not be resumed: {why}"
                                            + (f" (kept in {kept})." if kept else "."), "warning")
            return
        # (how long the journal was left, read before it is kept aside or written again)
        written_at = journal_times.written_at(path)
        untouched = self._age(written_at)
        kept: Path | str | None = found.after_damage or None
        damaged = found.damage is not None or found.after_damage is not None
        if found.damage:
            log.error("journal %s is damaged (%s): the game resumes after move %d; the journal is kept aside",
                      path, found.damage, len(found.log.inputs))
            # (a copy, the journal left in place until the fresh one is renamed over it: moved, a
            # power cut before the fresh one was written left no game to resume)
            kept = self.archive.put(path, "damaged", copy=not found.state.is_over)
        if found.state.is_over and found.damage:
            self.menu.message = MessageView("The last game was over; its journal had damage after the end"
                                            + (f" (kept in {kept})." if kept else "."), "warning")
            return
        # a game over comes back at its final standings, as any game comes back where it was: it
        # was archived at once, and the players who were reading their scores when the power
        # went found the setup menu, without a word; OK puts it away as usual (see _start)
        moves = len(found.log.inputs)
        # (a damaged journal's fresh one says so, for a second cut to do as this resume does)
        lines = [*found.log.inputs, damaged_line(kept)] if found.damage else found.lines
        self._start(found.state, found.log, resumed=True, held=found.held, lines=lines, taken_up=taken_up)
        if self.journal is not None:
            journal_times.keep_written_at(path, written_at)
        # BACK twice takes back the choice made just before the cut, as it could before: not a
        # choice after which the journal lost moves (damage) or one already taken back from
        # (the table offers one take-back at a time), nor the choice that ended a game found
        # over (its players may have put it away already: OK puts it away)
        if not (damaged or found.taken_back or found.state.is_over):
            try:
                self.flow.offer_take_back(moves, found.held_before)
            except Exception:  # (a take-back not offered must not keep the game from resuming)
                log.exception("cannot offer the last choice of the resumed game back")
        # and a long OK corrects the dice read just before it, as it could before: also once a
        # choice after them was taken back (they are the last move again, as at the table)
        if not (damaged or found.state.is_over):
            try:
                self.flow.offer_correction(moves)
            except Exception:  # (nor a correction)
                log.exception("cannot offer the last dice of the resumed game for correction")
        # and dice taken back by a long OK to correct them, the journal's last line: the power went
        # as they were corrected, and the table comes back correcting them (not asking the throw again)
        if not (damaged or found.state.is_over) and (found.undone or {}).get("type") == "dice":
            self._resume_correction(found.undone)
        # (the menu that follows the game keeps it, as it keeps one chosen on it; under the house
        # rules the config sets now, where it sets them: the game goes on under its own, but the
        # staff who changed the config and restarted mid-game had the old ones on the menu after it,
        # where docs/install.md promises the new values)
        self.menu.played(SetupResult(found.log.game, tuple(self.flow.state.players),
                                     {**found.log.options, **configured_rules(self.config, found.log.game)}))
        self.idle.left_before(untouched)
        if written_at and not self.wall.synced():
            # (a journal written on a clock the network had set, found before it set this boot's:
            # how long it was left is known once it does, unless someone plays meanwhile)
            self._left_at = (written_at, self.idle.touches)
        if damaged:
            self.flow.say(f"Resumed {found.state.title} for {', '.join(self.flow.state.players)} after a restart, "
                          f"up to move {len(found.log.inputs)}: the rest of the journal was damaged"
                          + (f" (kept in {kept})." if kept else "."), "warning")

    def _resume_correction(self, undone: dict[str, Any]) -> None:
        """The game resumed with these dice taken back to be corrected: the flow corrects them
        again, and the screen says why it asks (after what it said of the resume)."""
        assert self.flow is not None
        said = self.flow.message.text if self.flow.message is not None else ""
        try:
            values = undone.get("values")
            if not self.flow.resume_correction(values if isinstance(values, list) else []):
                if self.flow.phase == WAIT_DICE:       # (the players asked to throw: say why)
                    self.flow.say(f"{said} {correction_lost(self.flow.state, undone)}".strip(), "warning")
                return
        except Exception:  # (the correction not offered again must not keep the game from resuming)
            log.exception("cannot correct the dice of the resumed game again")
            return
        self.flow.say(f"{said} {correction_resumed(self.flow.state, undone)}".strip())

    def _age(self, written_at: int | None) -> float:
        """Seconds the journal written at `written_at` (ns) was left, by this table's wall clock
        (0: not known; controller/journal_times.py)."""
        return journal_times.journal_age(self.wall, written_at)

    def _journal_time(self) -> int:
        """The time (ns) the journal gets as it is written (0: the clock is not set yet)."""
        return journal_times.journal_time(self.wall)

    def start_new(self) -> None:
        """Start the game chosen on the menu; a first player left to the table is drawn here, once:
        `_start` journals the seat drawn (the header's options) before the screen names it."""
        result = self.menu.done
        assert result is not None
        options = draw_first_player(result.players, result.options, self.rng)
        table_log = TableLog(result.game, list(result.players), options).with_every_option()
        self._start(table_log.start(), table_log, resumed=False)
        self._say_first_player()

    def _say_first_player(self) -> None:
        """Name the first player the table drew, before anything the flow already said (dice it
        drew at once)."""
        assert self.flow is not None
        words = first_player_words(self.flow.state)
        if words:
            said = self.flow.message
            self.flow.say(f"{words} {said.text}" if said is not None else words)

    def _start(self, state, table_log: TableLog, resumed: bool, held: Held | None = None,
               lines: list[dict[str, Any]] | None = None, taken_up: bool = False) -> None:
        """Play `state` (a new game, or one resumed with the dice `held` at its decision, from a
        whole journal of these `lines`, which its journal keeps; `taken_up`: a game put away).
        Players' names this screen cannot draw are played under the menu's stand-ins
        (`drawable_game`), said once, to the staff too; the journal keeps them as typed."""
        unsaved = ""
        if held is not None and not (held[1] and holds_fit(state.expects(), *held)):
            held = None       # (a hold line that does not fit the game as replayed: nothing held)
        try:
            self.journal_dir.mkdir(parents=True, exist_ok=True)
            self.journal = Journal(self.journal_dir / CURRENT, table_log, held=held, lines=lines,
                                   stamp=self._journal_time)
        except OSError as exc:
            # no storage for the journal (a full, read-only or missing card): the players may
            # still play, told that a power cut would lose the game, rather than face a table
            # that does nothing when they press OK
            # (journal_dir a file, not a folder: "File exists" said nothing the staff could act on)
            lies = not_a_folder(self.journal_dir)
            why = f"{self.journal_dir} is {lies}" if lies else exc.strerror or exc
            fix = "mount or make that folder" if lies and lies.startswith("a link") else "move it away"
            todo = f": {fix}, or set journal_dir in the config to a folder" if lies else ""
            log.error("cannot journal games in %s: %s%s", self.journal_dir, why, todo)
            self.journal = None
            # (a game resumed keeps what its journal has: only the moves from now on are at risk)
            unsaved = (f"The journal cannot be written ({why}): this finished game cannot be put away, and "
                       "new games cannot be saved. Please tell the staff." if resumed and state.is_over else
                       f"This game can no longer be saved ({why}): a power cut would lose the "
                       "moves from now on. Please tell the staff." if resumed else
                       f"This game cannot be saved ({why}): a power cut would lose it. "
                       "Please tell the staff.")
        replayed = len(table_log.inputs)      # (before the flow, which may draw dice at once)
        table_log, state, renamed = drawable_game(table_log, state)
        self.flow = TableFlow(state, table_log, clock=self.clock,
                              on_apply=self.journal.append if self.journal else None,
                              on_take_back=self.journal.take_back if self.journal else None,
                              on_hold=self.journal.hold if self.journal else None,
                              over_hint="OK: a new game",
                              confirm_seconds=self.config.table.confirm_seconds,
                              check_below=self.config.table.check_below,
                              check_seconds=self.config.table.check_seconds,
                              words=button_words(self.panel), screen_size=self.screen.size, panel=self.panel)
        self.flow.knocks = self.knocks      # (a knock told in the last game is not told again in this one)
        self.flow.sizes = self.sizes
        self.flow.reader_notice = self.reader_notices.lasting()     # (a model file still missing)
        self.flow.on_staff_told = self.told_kept.save     # (kept across restarts: controller/told_kept.py)
        if held is not None:
            self.flow.restore_holds(*held)
        tracker = SettleTracker(self.config.vision.settle_config())
        self.runner = TableRunner(self.flow, tracker, self.read, self.screen)
        if resumed and state.is_over:
            # a game over found at start: the power went at its final standings, or its journal
            # could not be put away when it ended (a read-only card), and the card was mended
            # since. Either way the players have finished it: "Resumed" read as a game to go on
            # with, a ghost of one already played. It is shown as what it is; OK puts it away.
            self.flow.over_hint = f"{FINISHED_BEFORE} · {self.flow.over_hint}"
            self.flow.say(f"{state.title} for {', '.join(state.players)} was {FINISHED_BEFORE.lower()}: "
                          f"its final standings ({moves_replayed(len(table_log.inputs))})."
                          + (f" {renamed}" if renamed else ""), "warning" if renamed else "info", staff=bool(renamed))
        elif resumed:
            self.flow.say(resumed_message(state, replayed, self.flow, taken_up) + (f" {renamed}" if renamed else ""),
                          "warning" if renamed else "info", staff=bool(renamed))
        else:       # (the log said nothing of a game until its first move's note, nor whose it was)
            log.info("new game: %s for %s", state.title, ", ".join(state.players))
            if renamed:
                self.flow.say(renamed, "warning", staff=True)
        if unsaved:
            self.flow.unsaved = MessageView(unsaved, "error")    # shown whenever nothing else is

    def finish_game(self) -> MessageView | None:
        """After the final standings: archive the journal, back to the setup menu. A journal that
        could not be put away (a read-only card) stays, and the game comes back at the next start:
        the menu says so now (what it says is returned), not only the log."""
        kept = None
        if self.flow is not None and self.journal is not None:
            if self.archive.put(self.journal_dir / CURRENT, self.flow.log.game) is None:
                kept = MessageView(f"The game just played could not be put away ({self.archive.error}): it "
                                   "will come back, as finished, at the next start. Please tell the staff.", "error")
        self.flow = self.runner = self.journal = None
        self.menu.reset()
        self._offer_kept()
        if kept is not None:
            self.menu.message = kept
        self._menu_used = True                 # (it keeps the last game's choices for a game again)
        return kept

    # ------------------------------------------------------------------------------- loop
    def step(self) -> None:
        """One pass: a frame, the buttons, the clock, the screen. Never raises.

        Each part goes on when another fails: a camera whose every read raised used to stop
        the pass before the buttons were read and the screen drawn, so the table froze with
        nothing on screen to say why."""
        failed = False
        for part in (self._step_camera, self._step_buttons, self._step_screen):
            try:
                part()
            except Exception as exc:  # the table keeps running whatever happens
                self._part_failed(part.__name__, exc)
                failed = True
        if not failed:
            self._last_failure = ""

    def _part_failed(self, part: str, exc: Exception) -> None:
        what = f"{part}: {type(exc).__name__}: {exc}"
        if what != self._last_failure:    # (once, not at every pass of a loop that runs 20 times a second)
            log.exception("unexpected error in the table loop (%s)", part)
            self._last_failure = what
            if self.flow:
                self.flow.say("Something went wrong; the game is safe. Carry on.", "error")

    def _step_camera(self) -> None:
        frame = self.frames.read_lores() if self.two_streams else self.frames.read()
        # (looked at once: the camera's thread may clear it between two looks, and the screen said
        # "Camera: None. Retrying...")
        error = self.camera.error_changed(getattr(self.frames, "error", None))
        if error and self.flow:
            self.flow.say(f"Camera: {error}. Retrying...", "error")
        elif error is not None and self.flow:
            self.flow.say("Camera back.")
        if frame is not None:
            self.camera.picture(frame.image, self.clock)
        if frame is not None and self.runner is not None:
            full = (lambda: getattr(self.frames.read(), "image", None)) if self.two_streams else None
            settled = self.runner.settled
            self.runner.feed_frame(frame.image, frame.timestamp, full)
            if self.runner.settled != settled:
                self.idle.touch()              # (dice thrown and at rest: the players are there,
                                               # where a noisy camera's frame of "motion" is not)

    @property
    def _last_frame_at(self) -> float | None:
        """When the last picture came (None: none yet): tests wait for the camera's first."""
        return self.camera.last_frame_at

    @property
    def slow_camera(self) -> SlowCameraWatch:
        """The camera's pace (kept by `camera`; the name callers knew)."""
        return self.camera.slow

    def _step_buttons(self) -> None:
        self._fit_to_screen()
        for event in self.screen.events():
            if getattr(event, "type", None) == self.screen.pygame.QUIT:
                self.running = False
            self.buttons.feed(event)
        status = self.buttons.status
        message = "" if status.connected else (status.message or "disconnected")
        if message != self._buttons_error:
            self._buttons_error = message
            if message and self.flow:
                self.flow.say(f"Buttons: {message}. Retrying...", "error")
        warning = getattr(status, "warning", "")
        if warning != self._buttons_warning:
            self._buttons_warning = warning
            if warning and self.flow:
                self.flow.say(self._warning_text(), "error")
        for event in self.buttons.poll():
            self.on_button(event)

    def _fit_to_screen(self) -> None:
        """Give the menu and the flow the screen's size as it is now. A display opened again after it
        was lost may have another size (another monitor, the HDMI mode negotiated again at 640x480),
        and they counted the HINT card's pages for the size they were built with: at a bigger
        screen HINT turned to pages that were not there (the card said *HINT again: close* and
        stayed), at a smaller one it closed the card before its last page."""
        size = self.screen.size
        self.menu.screen_size = size
        if self.flow is not None:
            self.flow.screen_size = size

    def _step_screen(self) -> None:
        self._check_idle()
        self._say_reader_troubles()
        notice = self._still_playing_notice() or self.device_notice()
        self._note_over()
        if self.flow is not None:
            self.flow.device_notice = notice
            self.flow.tick()
            self.runner.draw()
        else:
            self.menu.notice = notice
            self.screen.show(self.menu.view())

    def device_notice(self) -> MessageView | None:
        """What stays on screen while the camera or the buttons are down (a message said once
        fades after a few seconds; players would then throw dice that are never read)."""
        camera = self.camera.notice(self.clock)
        if camera is not None:
            return camera
        if self._buttons_error:
            return MessageView(f"Buttons: {self._buttons_error}. Retrying...", "error")
        if self._buttons_warning:
            return MessageView(self._warning_text(), "error")
        return None

    def _warning_text(self) -> str:
        return f"Buttons: {self._buttons_warning}. The other buttons work."

    def on_button(self, event: Any) -> None:
        self._note_over()
        if event.kind in ("press", "hold"):
            asked = self._still_playing_asked()
            self.idle.touch()
            if asked and aliased(event.kind, event.name)[1] != "ABANDON":
                self.flow.say("Carry on: the game goes on.")    # (a passer-by's OK must not score a box)
                return
        if self.flow is None:
            self._menu_used = True
            self.menu.on_button(event.kind, event.name)
            if self.menu.done is not None:
                self.start_new()
            elif self.menu.take_up is not None:
                self.take_up()
        elif self.flow.phase == OVER and event.kind == "press" and event.name == "OK":
            self._leave_standings()
        elif self.runner is not None:
            self.runner.feed_button(event)
            if self.flow.abandoned and self.journal is not None:
                self._end_abandoned()
        self._note_over()

    def _note_over(self) -> None:
        """Remember when the game on the table ended (None while it goes on: a choice taken back
        at the standings brings it back)."""
        if self.flow is None or self.flow.phase != OVER:
            self._over_at = None
        elif self._over_at is None:
            self._over_at = self.clock()

    def _leave_standings(self) -> None:
        """OK at the final standings: a new game, unless the game ended a moment ago."""
        assert self.flow is not None and self._over_at is not None
        if self.clock() - self._over_at < STANDINGS_SECONDS:
            self.flow.say("The game is over: these are the scores. Press OK again for a new game.")
            return
        self.finish_game()

    # ------------------------------------------------------------------------------- idle
    def _still_playing_asked(self) -> bool:
        """Whether "Still playing?" is on screen: a game in progress left alone for idle_minutes."""
        return self.flow is not None and self.flow.phase != OVER and self.idle.left

    def _still_playing_notice(self) -> MessageView | None:
        if not self._still_playing_asked():
            return None
        assert self.flow is not None
        return MessageView(self.idle.still_playing(), "warning")

    def _learn_how_long_left(self) -> None:
        """A game resumed before the network set the clock, from a journal written on a set clock:
        once the clock is set, how long the journal was left is known, and a game left overnight
        is asked about then, as it would have been at the start (the table starts before the
        network has set the clock on most mornings). Not once someone has played, nor for a game
        no longer on the table."""
        if self._left_at is None:
            return
        written_at, touches = self._left_at
        if self.flow is None or self.idle.touches != touches:
            self._left_at = None
        elif self.wall.synced():
            self._left_at = None
            self.idle.left_before(self._age(written_at))

    def _check_idle(self) -> None:
        """A table left alone goes back to the café's setup menu (see controller.idle)."""
        self._learn_how_long_left()
        if not self.idle.left:
            return
        if self.flow is None:
            if self._menu_used:
                self._fresh_menu()
        elif self.flow.phase == OVER:
            self._fresh_menu(self.finish_game())
        elif self.idle.given_up:
            self._put_away_left_game()

    def _put_away_left_game(self) -> None:
        """Nobody answered "Still playing?": the game is kept as abandoned, the menu comes back."""
        assert self.flow is not None
        state = self.flow.state
        log.info("%s (%s) left alone for %.0f minutes: put away", state.title, ", ".join(state.players),
                 self.idle.alone_for / 60)
        put = self.journal is not None and self.archive.put(self.journal_dir / CURRENT,
                                                          put_away_label(self.flow.log.game)) is not None
        alone_for = self.idle.alone_for        # (before the fresh menu starts the watch again)
        self.flow = self.runner = self.journal = None
        self._fresh_menu()
        offered = put and any(k.game == state.name and k.players == tuple(state.players) for k in self.menu.kept)
        self.menu.message = MessageView(left_message(state.title, state.players, alone_for, offered), "info")

    def _fresh_menu(self, message: MessageView | None = None) -> None:
        """The setup menu as the café set it up (not the last group's names and rules)."""
        self.menu = SetupMenu(defaults=self.menu.defaults, screen_size=self.screen.size, buttons=self.panel)
        self._offer_kept()
        if message is not None:
            self.menu.message = message
        self._menu_used = False
        self.idle.touch()

    def _offer_kept(self, archived: list[str] | None = None) -> None:
        """Give the menu the games put away by "Still playing?" that it offers to take up, of the
        archive's names `archived` (None: listed now)."""
        names = self.archive.names() if archived is None else archived
        self.menu.offer(offered(self.journal_dir / "games", names))

    def _remember_last_played(self, archived: list[str]) -> None:
        """A table started at its setup menu (the power went there, or as a group played again):
        the games page keeps the game just played, its players and house rules (*hold OK: play
        again*), as it did before the cut, when that game's last move was less than idle_minutes
        ago (30 when 0) by a clock the network set. Before, the group found the café's setup and
        typed its names again. Not last night's game (the clock not set: not known; the café's
        setup), and the menu goes back to the café's after idle_minutes as after any game."""
        if self.flow is not None or self.menu.last is not None:
            return
        found = recent_game(self.journal_dir / "games", archived,
                            lambda path: self._age(journal_times.written_at(path)), self.config)
        if found is None:
            return
        self.menu.played(found)
        self._menu_used = True

    def take_up(self) -> None:
        """Take up the put-away game chosen on the menu: its journal back to current.jsonl, then
        resumed as after a power cut (its house rules its own, its dice held, ...). A journal that
        cannot be moved, or not resumed, leaves the menu saying why; the game stays in the archive
        (or is kept aside as unreadable, as at a start)."""
        kept, self.menu.take_up = self.menu.take_up, None
        assert kept is not None
        self.archive.forget_listing()     # (a journal moves out of the archive: listed again after)
        source, current = self.journal_dir / "games" / kept.name, self.journal_dir / CURRENT
        what = f"{kept.title} ({', '.join(kept.players)})"
        try:
            if current.exists():      # (a game whose journal could not be put away: it comes first)
                raise FileExistsError(errno.EEXIST, "the last game's journal is still in the way")
            # taken up is played: the journal gets the time of a move before it is on the table. It
            # had its last move's, and a power cut before the resume below finished brought back a
            # game "left alone" since then: *Still playing?* at once, put away again two minutes later
            journal_times.keep_written_at(source, self._journal_time())
            os.replace(source, current)
            sync_folder(self.journal_dir)
            sync_folder(source.parent)   # (its name gone from the archive too: not offered again)
        except OSError as exc:
            log.error("cannot take up the put-away game %s: %s", source, exc)
            self.menu.message = MessageView(f"{what} cannot be taken up ({exc.strerror or exc}). "
                                            "Please tell the staff.", "error")
            self._offer_kept()
            return
        log.info("put-away game %s taken up", source)
        self.resume(taken_up=True)
        self.idle.touch()             # (it was left alone, and now it is not: no "Still playing?")
        if self.flow is None:         # (resume said why on the menu, and kept the journal aside)
            self._offer_kept()
            return
        journal_times.keep_written_at(current, self._journal_time())
        self._offer_kept()

    def _end_abandoned(self) -> None:
        """ABANDON twice ends the game for good. The journal has no line for it, so it is archived
        at once (as <game>-abandoned): a power cut before OK must not bring the game back. Nothing
        is journaled after it (an abandoned game takes no more input)."""
        assert self.flow is not None
        if self.archive.put(self.journal_dir / CURRENT, f"{self.flow.log.game}-abandoned") is not None:
            self.flow.on_apply = self.flow.on_take_back = self.flow.on_hold = None
            self.journal = None

    def run_forever(self) -> int:
        import signal

        def stop(signum, frame):  # systemctl stop: finish the loop, close devices, exit 0
            log.info("signal %s: stopping", signum)
            self.running = False

        signal.signal(signal.SIGTERM, stop)
        period = 1.0 / self.fps
        watchdog = Watchdog()           # systemd restarts a loop that stops coming round
        watchdog.ready()
        try:
            while self.running:
                t0 = time.monotonic()
                watchdog.ping()
                try:
                    self.step()
                except Exception as exc:  # (step guards each of its parts; this is the last net)
                    self._part_failed("step", exc)
                time.sleep(max(0.0, period - (time.monotonic() - t0)))
        except KeyboardInterrupt:
            pass
        finally:
            self.buttons.stop()
            self.frames.close()
            self.screen.close()
        return 0
