"""The table flow: camera readings and button presses in, game inputs out, for any game.

It only satisfies `expects()`. When the game waits for dice it takes the next *final* reading
(the settle tracker decides when the tray is still and readings agree), checks that the count
and the held dice match, shows the reading for a moment (a long press on OK corrects a misread
die) and applies it. When the game waits for a decision it offers the options on a menu
(UP/DOWN/OK) and the dice to hold (HOLD1..5, or the same menu on a three-button panel).

It never guesses: a reading that does not fit is explained on screen and the table waits.
Nothing here can change the game except `_apply`, which applies an input the rules accepted and
journals it. Bad input of any kind leaves the game state untouched.
"""
from __future__ import annotations

import logging
import random
import time
from collections import Counter
from functools import partial
from typing import Callable, Mapping, Protocol, Sequence

from display.view import HelpView, MessageView, TableView
from vision.types import CALIBRATION_SIZE, CAMERA_MOVED, DIE_SIZE, Reading

from .decision_menu import (MenuEntry, chosen_words, decision_menu, first_entry, holds_fit, holds_of, is_abandon,
                            is_final, secret_chosen_words)
from .dice_correcting import (amend, correction_button, count_throw, hold_again, left_out, resume_correction,
                              start_correction)
from .die_faces import face_name, sorted_faces
from .correction import OFFERED, SHOWN, Opened, Tally
from .draws import draw
from .knock_notice import KnockWatch
from .size_notice import SizeWatch
from .help_card import SMALLEST_SCREEN, help_card, hint_pressed
from .reading_intake import (dice_slid, hand_entry, places_at, take_found_tray, take_settled, tray_disturbed,
                             tray_emptied)
from .rules import Decide, GameOver, GameState, IllegalInput, Throw
from .rules.base import (Input, Sheet, choose_input, dice_input, multiset_contains, multiset_minus,
                         reroll_input)
from .short_panel import aliased, button_words, has_button, has_hold_buttons
# (the app and the tests import the phases from here)
from .table_phases import CONFIRM, CORRECT, DECIDE, MIN_CONFIDENCE, OVER, WAIT_DICE  # noqa: F401
from .table_screen import table_view
from .table_banner import Banner, new_notes
from .take_backs import AppliedChoice, AppliedReading, choice_offered, dice_offered, log_before
from .tablelog import LogError, TableLog
from .tray_places import row_boxes

log = logging.getLogger(__name__)

# Problems for the staff, not the players: the reading is still good (the reader read the whole
# view instead of the calibrated tray), so the game goes on with the notice on screen.
STAFF_NOTICES = {CAMERA_MOVED, CALIBRATION_SIZE, DIE_SIZE}
# A die read with a value but less surely than this is outlined for the players to check, and the
# reading waits longer before it counts (`check_seconds`). On the Byler photos the reader never
# trained on, 26 of 440 valued dice fall below 0.9, two of them among the four read wrong.
CHECK_BELOW = 0.9


class ButtonLike(Protocol):
    kind: str
    name: str


TAKE_BACK_SECONDS = 5.0   # the second BACK must follow the first within this (as for ABANDON)
# an OK this soon after a move is the move's OK pressed twice: waiting for a throw it does not
# open the card (a panel without HINT), which would hide the sheet just scored
DOUBLE_OK_SECONDS = 1.0


def final_line(state: GameState) -> str:
    """The log's line at a game's end: the staff asked about last night's game find it, and
    its scores, without the journal (before, a game's log ended at its last move's note)."""
    result = state.result()
    scores = ", ".join(f"{state.players[i]} {result.scores[i]}" for group in result.ranking for i in group)
    winners = " and ".join(state.players[i] for i in result.winners)
    won = f"{winners} {'win' if len(result.winners) > 1 else 'wins'}" if winners else "no winner"
    return f"game over: {state.title} for {', '.join(state.players)}: {scores}; {won}"


class TableFlow:
    """The table's own state machine around one game."""

    def __init__(self, state: GameState, table_log: TableLog, *,
                 on_apply: Callable[[Input], None] | None = None,
                 on_take_back: Callable[[], None] | None = None,
                 on_hold: Callable[[int, list[int]], None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 confirm_seconds: float = 1.5, message_seconds: float = 6.0,
                 rng: random.Random | None = None, over_hint: str = "",
                 check_below: float = CHECK_BELOW, check_seconds: float = 4.0,
                 words: Mapping[str, str] | None = None, screen_size: tuple[int, int] = SMALLEST_SCREEN,
                 panel: frozenset[str] | None = None):
        self.state = state
        # what the screen calls BACK and ABANDON: a panel without them has long UP and DOWN
        self.words = dict(words) if words else button_words(None)
        # the buttons of a panel known to lack some (None: any): HOLD1..5 (the menu's die lines
        # hold the dice without them) and HINT are named only where they are
        self.hold_buttons = has_hold_buttons(panel)
        self.hint_button = has_button(panel, "HINT")
        # dice the table draws itself (Throw.drawn, controller.draws); the values are journaled
        # like any throw, so a resumed game replays them
        self.rng = rng
        self.log = table_log
        self.over_hint = over_hint    # what the buttons do after the final standings (the app's business)
        # the HINT button's card (how the game is played) over the sheet: the page shown, None when
        # closed; its pages are counted for the screen it is drawn on
        self.help_page: int | None = None
        self.on_apply = on_apply
        self.on_take_back = on_take_back
        # the dice held at a decision, journaled at each change (a power cut before the throw
        # must not lose them): the player deciding, and the values held
        self.on_hold = on_hold
        self.clock = clock
        self.confirm_seconds = confirm_seconds
        self.check_below = check_below
        self.check_seconds = check_seconds
        # what the table says and the notes of the moves, page by page, for this screen's size
        self.banner = Banner(clock, message_seconds, self.words, screen_size, lambda: self.phase == OVER)
        self.tray_values: list[int] = []              # dice on the tray, left to right (last accepted)
        self.tray_boxes: list[tuple[int, int, int, int]] = []
        # the dice last accepted from the tray, as they lay, held dice included (never trimmed
        # to the held ones): a tray that still shows them is not a new throw (see reading_intake.lying_as_played)
        self.played: list[tuple[int, tuple]] = []
        self.last_reading: Reading | None = None
        self.pending: list[int] | None = None         # full tray values awaiting confirmation
        self.pending_new: list[int] = []
        self.pending_boxes: list[tuple[int, int, int, int]] = []
        self.pending_check: list[int] = []            # positions of the dice read less surely (CHECK_BELOW)
        self.pending_sure: list[int] = []             # of those, the ones outlined only for the glare, read surely
        self._gathered_for: list[int] | None = None   # the pending values when they look gathered up (gathered.py)
        self._confirm_at = 0.0
        self.correct_index = 0
        self.holds: list[bool] = []
        self.cursor = 0
        self._open_for: int | None = None    # the player whose secret menu is open (see choices_shown)
        self._gate_message: MessageView | None = None
        self._abandon_armed_until = 0.0
        self._last_choice: AppliedChoice | None = None
        self._last_read: AppliedReading | None = None
        self._amending: AppliedReading | None = None  # the applied reading being corrected
        self._opened: Opened | None = None   # where the correction under way started (BACK goes back there)
        self.tally = Tally()      # this game's throws and the corrected ones (the staff told of many)
        # a knocked camera told once, again when it moves further (the app shares one between games)
        self.knocks = KnockWatch()
        # dice or frames of another size than calibrated told once too (controller/size_notice.py)
        self.sizes = SizeWatch()
        # called after each settled reading the staff notices saw (the app keeps what they hold across restarts)
        self.on_staff_told: Callable[[], None] = lambda: None
        self._seen_while_correcting: Reading | None = None   # the tray's last reading during a correction
        self._held_when_amended: tuple[list[int], list[bool]] = ([], [])   # the tray and holds a late correction found
        self._take_back_armed_until = 0.0
        self._take_back_armed_for: AppliedChoice | None = None   # the choice the first BACK named
        self._applied_at = float("-inf")     # when the game last changed (see DOUBLE_OK_SECONDS)
        self.abandoned = False
        # why this game is no longer journaled (see _journal): shown whenever nothing else is
        self.unsaved: MessageView | None = None
        # the config file's mistakes the table started without (set by the app): shown whenever
        # nothing else is, so that staff passing by see it during a game resumed at the start
        self.config_notice: MessageView | None = None
        # the dice reader reading less well (a model file missing or damaged: set by the app,
        # controller/reader_notice.py): shown whenever nothing else is, as the config's mistakes
        self.reader_notice: MessageView | None = None
        # the camera or the buttons down (set by the app at each pass): shown whenever no
        # message is, for as long as it lasts
        self.device_notice: MessageView | None = None
        self._said_of_tray: MessageView | None = None   # the message why the last tray was not taken
        self._left_told: list[tuple] = []     # the places of things left in the tray the players were told of
        self._correctable: tuple[list[int], list, list[int]] | None = None
        self._frame_size = (640, 480)     # the camera image's, as last shown (where dice entered by hand go)
        self._places_size: tuple[int, int] | None = None   # the frames the dice's places were read on
        # the values of the dice played whose places were forgotten for another view (see reading_intake.places_for)
        self._places_lost: Counter | None = None
        self._faces: tuple[str, ...] | None = _first_faces(table_log)
        self._sheet_of: GameState | None = None     # the state whose sheet is cached (see _sheet)
        self._sheet_focus: str | None = None       # and the option under the cursor it previews
        self._notes: tuple[str, ...] = tuple(self._sheet()[0].notes)
        self.phase = WAIT_DICE
        self._enter_phase()

    # ----------------------------------------------------------------------------- messages
    def say(self, text: str, level: str = "info", logged: bool = True, staff: bool | None = None) -> None:
        """Show `text` in the banner; `logged`: and in the log (False: a message said again at
        every frame while it lasts, logged once by its sayer). `staff`: whether it is for the
        staff, logged as a warning (`journalctl -p warning`); by default an "error" banner is (a
        device down, a move that could not be handled), a "warning" one is not: those are the
        players' (*I see 4 dice*, a cocked die, ABANDON to press again), a part of play, and as
        warnings they filled the staff's view of what is wrong (3 of a rough game's 7 lines)."""
        self.banner.say(text, level, logged, staff)

    @property
    def message(self) -> MessageView | None:
        """The message on the banner now (None: nothing said, or faded)."""
        return self.banner.message

    @message.setter
    def message(self, message: MessageView | None) -> None:
        self.banner.message = message

    @property
    def screen_size(self) -> tuple[int, int]:
        """The screen's size, in pixels: the banner's pages and the help card's are counted for it."""
        return self.banner.screen_size

    @screen_size.setter
    def screen_size(self, size: tuple[int, int]) -> None:
        self.banner.screen_size = size

    @property
    def message_seconds(self) -> float:
        """How long a message (a page of one) stays on the banner."""
        return self.banner.message_seconds

    @property
    def confirm_due(self) -> float:
        """When the reading being shown counts by itself (the clock's time)."""
        return self._confirm_at

    def tick(self) -> None:
        """Time passes: confirmations fall due, messages fade."""
        now = self.clock()
        self.banner.tick(now)
        if self.phase == CONFIRM and now >= self._confirm_at:
            self._commit_pending()

    # ------------------------------------------------------------------------------- phases
    @property
    def expect(self):
        return self.state.expects()

    def _enter_phase(self) -> None:
        exp = self.expect
        if self.abandoned or isinstance(exp, GameOver):
            self.phase = OVER
            if not self.abandoned and not self.banner.page_shown:
                # the standings speak for themselves; not for the last move's notes (School's
                # last entry: its awards were never on screen)
                self.message = None
        elif isinstance(exp, Throw):
            self.phase = WAIT_DICE
            self._correctable = None
            self._open_for = None
            if exp.faces:
                self._faces = exp.faces
            if exp.drawn:
                self._draw(exp)
        else:
            self.phase = DECIDE
            self._reset_decision(exp, keep_open=True)

    def _reset_decision(self, exp: Decide, keep_open: bool = False) -> None:
        if exp.reroll is not None:
            dice = list(exp.reroll.dice)
            if Counter(dice) != Counter(self.tray_values):
                self.tray_values, self.tray_boxes = dice, []
        self.holds = [False] * len(self.tray_values) if exp.reroll is not None else []
        # a secret menu closes unless this is its player's next secret choice (`keep_open`: two
        # cards in the 2-player variant follow on the menu they opened); BACK closes it too
        if not (keep_open and exp.secret):
            self._open_for = None
        self.cursor = first_entry(exp, self.menu())

    @property
    def choices_shown(self) -> bool:
        """Whether the decision's menu may be on screen. A secret decision (an objective card, a
        simultaneous abandon) is shown on the one screen everybody sees, so its menu, cursor and
        previews stay hidden until its player asks for them with OK."""
        exp = self.expect
        return not (isinstance(exp, Decide) and exp.secret) or self._open_for == exp.player

    def _draw(self, exp: Throw) -> None:
        """Dice with no physical counterpart: the table throws them itself and says what came up."""
        data = draw(exp, self.rng)
        values = data["values"]
        whose = (f"{self.state.player_name(exp.player)}'s" if exp.player is not None
                 else "the imaginary player's" if exp.purpose == "imaginary" else "its own")
        before = self.message
        if self._apply(data):
            drew = f"The table drew {whose} dice: {sorted_faces(values, exp)}."
            news = self.message if self.message is not before else None   # what the throw decided
            self.banner.page_done()      # (its page, if it is one, said with the draw: not again after it)
            self.say(f"{drew} {news.text}" if news else drew)

    def _apply(self, data: Input) -> bool:
        """The only place the game changes. Returns False (and says why) if the rules refuse.
        The move is journaled before it counts (see `_journal`)."""
        try:
            new_state = self.state.apply(data)
        except IllegalInput as exc:
            self.say(f"Not accepted: {exc}", "warning")
            return False
        self._journal(self.on_apply, data)
        self.state = new_state
        self.log.inputs.append(data)
        self._applied_at = self.clock()
        if self.message is not None and self.message.level == "warning":
            self.message = None    # (it was about what came before: "I see 4 dice", "Press BACK again...")
        self._announce()
        self._enter_phase()
        if self.phase == OVER:
            log.info("%s", final_line(new_state))
        return True

    def _announce(self) -> None:
        """Show what just happened (a round won, a showdown, cards resolved) in the banner:
        the games' sheet notes are public by contract, so this never leaks a secret. Every new
        note is shown: joined where they fit the banner of this screen, else on pages shown in
        turn (`tick`), each for `message_seconds` (the last two alone were shown, joined: School's
        last entry, with a row award, a column award and "Game over", never showed the row award).
        A move's notes are shown at once, from their first page: the pages of earlier moves still
        to come give way to them (Banner.add_notes). They waited behind those pages, and in fast play
        the banner fell moves behind the game: Bob's score was still reading "Ann scored ..."
        and his own note came long after, while Cy played."""
        notes = tuple(self._sheet()[0].notes)
        new = new_notes(self._notes, notes)
        self._notes = notes
        if not new:
            return
        self.banner.add_notes(new, "final" if isinstance(self.expect, GameOver) else "play", len(self.log.inputs))

    # ------------------------------------------------------------------------------ readings
    # (what each reading does: controller/reading_intake.py; the dice set by hand: dice_correcting.py)
    def on_reading(self, reading: Reading) -> None:
        """A final reading from the settle tracker (the tray is still and readings agree)."""
        take_settled(self, reading)

    def on_found_tray(self, reading: Reading) -> None:
        """The tray as the table found it on starting, nothing seen moving yet: not a throw."""
        take_found_tray(self, reading)

    def on_tray_empty(self) -> None:
        """The tray was seen empty: dice that lie there next were thrown (or put) anew."""
        tray_emptied(self)

    def on_dice_moved(self, reading: Reading, changed: Sequence[int]) -> None:
        """Dice were slid by hand, not thrown (a gentle throw while one is awaited)."""
        dice_slid(self, reading, changed)

    def on_tray_disturbed(self) -> None:
        """Something moves in the tray, or rests there, while a reading is shown: it waits."""
        tray_disturbed(self)

    @property
    def waits_for_ok(self) -> bool:
        """Whether the reading shown is taken only with the players' OK (never by itself)."""
        return self.phase == CONFIRM and self._confirm_at == float("inf")

    def _row_boxes(self, count: int, side: int | None = None) -> list[tuple[int, int, int, int]]:
        """Places for `count` dice the camera has no place for, along the bottom of the image last shown."""
        return row_boxes(count, self._frame_size, side)

    def _commit_pending(self, corrected: bool = False) -> None:
        """Apply the dice shown (or set by the players: `corrected`, counted and logged)."""
        exp = self.expect
        if self.pending is None or not isinstance(exp, Throw):
            self.phase = WAIT_DICE
            return
        values, boxes = self.pending, self.pending_boxes
        if not multiset_contains(values, exp.held):
            self.say(f"The held dice are {sorted_faces(exp.held, exp)}: the corrected values must include them. "
                     "Correct again, or BACK.", "warning")
            self.phase = CORRECT
            return
        new = multiset_minus(values, exp.held)
        self.pending = None
        late, self._amending = self._amending, None
        before, inputs = self.state, len(self.log.inputs) + 1
        if self._apply(dice_input(exp.player, new)):
            # (counted before the table's own draw that may follow at once: dice drawn after them
            # end the offer, or a long OK took back the draw and drew again, a second chance)
            self._last_read = AppliedReading(before, inputs, tuple(values), tuple(boxes))
            self.tray_values, self.tray_boxes = list(values), list(boxes)
            self.played = list(zip(values, boxes))
            if isinstance(self.expect, Decide):
                self._reset_decision(self.expect, keep_open=True)  # tray now known: holds line up with it
                if late is not None:
                    hold_again(self, late.values, values)
            count_throw(self, values, late if corrected else None, corrected, inputs)
        else:
            self.phase = WAIT_DICE

    # ------------------------------------------------------------------------------- buttons
    def on_button(self, event: ButtonLike) -> None:
        kind, name = aliased(event.kind, event.name)     # (a long UP is BACK, a long DOWN ABANDON)
        if kind not in ("press", "hold"):
            return
        if name == "HINT" or self._ok_turns_card(kind, name):
            # how the game is played, over the sheet; HINT again turns its page, or closes it after
            # the last; any other button closes it and does what it always does (the menu stays in
            # view beside the card)
            self._turn_card()
            return
        self.help_page = None
        if name == "ABANDON":
            self._abandon()
            return
        handler = {WAIT_DICE: self._button_wait, CONFIRM: self._button_confirm,
                   CORRECT: partial(correction_button, self),
                   DECIDE: self._button_decide, OVER: self._button_over}[self.phase]
        handler(kind, name)

    def _ok_turns_card(self, kind: str, name: str) -> bool:
        """Whether this press turns the card shown, as HINT would: a short OK on a panel without
        HINT (the card was opened with OK; a long OK still corrects the dice)."""
        return not self.hint_button and self.help_shown and kind == "press" and name == "OK"

    def _turn_card(self) -> None:
        """The card opened, its page turned, or closed after its last (HINT, or OK standing for it)."""
        self.help_page = hint_pressed(self._help(), "final" if self.phase == OVER else "play", self.screen_size)

    def _ok_pressed_twice(self) -> bool:
        """Whether an OK now is most likely the last move's OK pressed twice (DOUBLE_OK_SECONDS)."""
        return self.clock() - self._applied_at < DOUBLE_OK_SECONDS

    def _nothing_now(self, name: str) -> None:
        exp = self.expect
        who = self.state.player_name(getattr(exp, "player", None))
        what = f"throw {exp.count} dice" if isinstance(exp, Throw) else "act"
        self.say(f"{name} does nothing now: waiting for {who} to {what}.")

    def _button_wait(self, kind: str, name: str) -> None:
        if name == "OK" and kind == "hold" and self._correctable:
            (values, boxes, unsure), self._correctable = self._correctable, None
            start_correction(self, values, boxes, "Correcting: UP/DOWN change the die, OK next die, hold OK when "
                             "done.", unsure, origin=OFFERED, note=left_out(self, len(values)).strip())
            return
        if name == "OK" and kind == "hold" and self.correction_offered is not None:
            amend(self)
            return
        exp = self.expect
        if name == "OK" and kind == "hold" and isinstance(exp, Throw) and not exp.drawn:
            # nothing read at all (a camera that sees none of these dice, or no camera): the
            # players enter the whole throw, as they read it, rather than wait for ever
            values, boxes, _ = hand_entry(self, exp, ())
            start_correction(self, values, boxes,
                             "Enter the dice: UP/DOWN change the die, OK next die, hold OK when done.")
            return
        if name == "BACK" and self.take_back_offered is not None:
            self._take_back_choice()
            return
        if name == "OK" and kind == "press" and not self.hint_button and not self._ok_pressed_twice():
            # nothing else for OK to do until the dice are thrown: on a panel without HINT it shows
            # how the game is played (no menu is there to offer it)
            self._turn_card()
            return
        self._nothing_now(name)

    def _button_confirm(self, kind: str, name: str) -> None:
        if name == "OK" and kind == "hold":
            assert self.pending is not None
            start_correction(self, self.pending, self.pending_boxes, "Correcting: UP/DOWN change the die, OK next "
                             "die, hold OK when done.", self.pending_check, origin=SHOWN)
        elif name == "OK":
            self._commit_pending()
        elif name == "BACK":
            self.pending = None
            self.phase = WAIT_DICE
            self.say("Reading dropped: throw again.")
        else:
            self.say("Checking the reading: OK accepts, hold OK to correct, BACK to throw again.")

    @property
    def correction_offered(self) -> AppliedReading | None:
        """The dice last read, while a long OK can still correct them: nothing applied since."""
        return self._last_read if self._still_last(self._last_read) else None

    def menu(self) -> list[MenuEntry]:
        """The decision's menu as it stands (controller/decision_menu.py); none while no decision is awaited."""
        exp = self.expect
        if not isinstance(exp, Decide):
            return []
        return decision_menu(exp, self.tray_values, self.holds, self._faces, self.hint_button)

    def _button_decide(self, kind: str, name: str) -> None:
        exp = self.expect
        assert isinstance(exp, Decide)
        if not self.choices_shown:
            who = self.state.player_name(exp.player)
            if name == "OK":
                self._open_for = exp.player
                if self.message is not None and self.message is self._gate_message:
                    self.message = None      # (the reminder has done its job: room for the menu)
            else:
                self.say(f"{who}'s choice is secret: {who} presses OK to see it, the others look away.")
                self._gate_message = self.message
            return
        if name == "OK" and kind == "hold" and self.correction_offered is not None:
            amend(self)
            return
        entries = self.menu()
        if name.startswith("HOLD") and name[4:].isdigit():
            i = int(name[4:]) - 1
            if exp.reroll is None:
                self.say("No dice can be held now: choose on the menu.")
            elif not 0 <= i < len(self.tray_values):
                self.say(f"There is no die {i + 1}.")
            else:
                self.holds[i] = not self.holds[i]
                self._journal_holds()
            return
        if name == "UP":
            self.cursor = (self.cursor - 1) % len(entries)
        elif name == "DOWN":
            self.cursor = (self.cursor + 1) % len(entries)
        elif name == "BACK":
            if any(self.holds):
                self.holds = [False] * len(self.holds)
                self._journal_holds()
                self.say("Holds cleared.")
            elif not exp.secret and self.take_back_offered is not None:
                self._take_back_choice()
            else:
                self._reset_decision(exp)      # (a secret menu is hidden again)
        elif name == "OK":
            entry = entries[min(self.cursor, len(entries) - 1)]
            if entry.action == "die":
                self.holds[entry.index] = not self.holds[entry.index]
                self._journal_holds()
                return
            if entry.action == "help":
                self._turn_card()
                return
            self._choose(exp, entry)

    def _choose(self, exp: Decide, entry: MenuEntry) -> None:
        """The choice of the menu line `entry` made: OK on it, or the ABANDON button for a game's
        own abandon (Pok'n Roll's hand). Either way it is applied and kept to be taken back with
        BACK twice (unless final), as a restart offers it: the journal does not say which button
        made it. The ABANDON button's abandon was not kept, and a hand abandoned by a slip of
        that button could be taken back only after a power cut."""
        before = self.message
        choice = AppliedChoice(self.state, len(self.log.inputs) + 1, exp.player, self._chosen(entry),
                               tuple(self.tray_values), tuple(self.tray_boxes), tuple(self.holds), self.cursor)
        if entry.action == "reroll":
            keep = [v for v, h in zip(self.tray_values, self.holds) if h]
            kept_boxes = [b for b, h in zip(self.tray_boxes, self.holds) if h] if self.tray_boxes else []
            data = reroll_input(exp.player, keep)
            if not self._apply(data):
                return
            self.tray_values, self.tray_boxes = keep, kept_boxes
        else:
            data = choose_input(exp.player, entry.key)
            if not self._apply(data):
                return
            if exp.secret and self.message is before:
                self.say(secret_chosen_words(self.state.player_name(exp.player), exp, self.expect))
        self._last_choice = None if is_final(exp, data) else choice

    def _chosen(self, entry: MenuEntry) -> str:
        """A menu line as the choice it makes, for the take-back messages."""
        return chosen_words(entry, self.tray_values, self.holds, self._faces)

    def _button_over(self, kind: str, name: str) -> None:
        if name == "BACK" and self.take_back_offered is not None:
            self._take_back_choice()
            return
        if name == "OK" and kind == "hold" and self.correction_offered is not None:
            amend(self)
            return
        self.say("The game is over.")

    def offer_take_back(self, inputs: int, held: tuple[int, Sequence[int]] | None = None) -> None:
        """After a resume: the game's input number `inputs` (its last when it was resumed), if it was
        a choice BACK twice could take back, can be taken back again (controller/take_backs.py)."""
        offer = choice_offered(self, inputs, held)
        if offer is not None:
            self._last_choice = offer

    def offer_correction(self, inputs: int) -> None:
        """After a resume: the dice of the game's input number `inputs` (or of the input before,
        when that one is a choice made on them) can be corrected with a long OK again
        (controller/take_backs.py)."""
        offer = dice_offered(self.log, inputs)
        if offer is not None:
            self._last_read = offer

    def resume_correction(self, values: Sequence[int]) -> bool:
        """After a resume whose journal ends with these dice taken back by a long OK (the power went
        while the players corrected them): the table comes back correcting them, from the values as
        read (controller/dice_correcting.py). False where the game does not wait for such a throw."""
        return resume_correction(self, values)

    def _log_before(self, inputs: int) -> TableLog:
        """The game's log before its input number `inputs` (controller/take_backs.py)."""
        return log_before(self.log, inputs)

    @property
    def take_back_offered(self) -> AppliedChoice | None:
        """The last choice, while it can still be taken back: nothing has been applied since it
        (no dice read, nothing drawn by the table; a draw is not there to be tried again) and the
        game was not abandoned."""
        return self._last_choice if self._still_last(self._last_choice) else None

    def _still_last(self, applied: AppliedChoice | AppliedReading | None) -> bool:
        """Whether `applied` is still the game's last input (and the game goes on)."""
        return applied is not None and not self.abandoned and len(self.log.inputs) == applied.inputs

    def _undo_last_input(self, before: GameState) -> None:
        """The game as it was before its last input; the journal records the take-back."""
        self._journal(self.on_take_back)
        self.state = before
        self.log.inputs.pop()
        self._notes = tuple(self._sheet()[0].notes)
        self.banner.drop_pages_after(len(self.log.inputs))

    def _journal(self, write: Callable[..., None] | None, *args) -> None:
        """Save a move (or a take-back) to the journal. When the storage fails (a full or
        read-only card) the game goes on unsaved and the screen says so: journaling stops for
        the rest of the game, so that the journal stays the exact start of the game (a resume
        replays it; a journal with a move missing in the middle could not be replayed at all),
        and the players are never stuck with moves that cannot count."""
        if write is None:
            return
        try:
            write(*args)
        except OSError as exc:
            log.error("the journal could not be written, this game is no longer saved: %s", exc)
            self.on_apply = self.on_take_back = self.on_hold = None
            self.unsaved = MessageView(f"This game can no longer be saved ({exc.strerror or exc}): a power "
                                       "cut would lose the moves from now on. Please tell the staff.", "error")

    @property
    def held_values(self) -> list[int]:
        """The values of the dice held now, in the tray's order."""
        return [v for v, h in zip(self.tray_values, self.holds) if h]

    def _journal_holds(self) -> None:
        """Journal the dice held now (all of them), after each change. Not at a secret decision:
        a resume would show them before its player opened the menu."""
        exp = self.expect
        if isinstance(exp, Decide) and exp.reroll is not None and not exp.secret:
            self._journal(self.on_hold, exp.player, self.held_values)

    def restore_holds(self, player: int, values: Sequence[int]) -> bool:
        """After a resume: the dice held when the power went (the journal's last hold line) are
        held again, as the screen showed them. Before, they were lost, and a player who held two
        kings and did not look at the marks threw them again. Held by value, as the rules keep
        them: which of two alike dice is marked does not matter. False where they do not fit."""
        if self.phase != DECIDE or not holds_fit(self.expect, player, values):
            return False
        for i, held in enumerate(holds_of(self.tray_values, values)):
            self.holds[i] = held
        return any(self.holds)

    def held_text(self) -> str:
        """The dice held, as the menu names them ("K K")."""
        return " ".join(face_name(v, self._faces) for v in self.held_values)

    def _take_back_choice(self) -> None:
        """BACK, twice within a few seconds: the last choice is undone and the same player
        chooses again, with the dice, holds and cursor as they were. The journal records it."""
        undo = self.take_back_offered
        if undo is None:
            return
        who = self.state.player_name(undo.player)
        now = self.clock()
        # the second BACK confirms the choice the first one named: another player's choice made
        # in between is not taken back unasked
        if now >= self._take_back_armed_until or self._take_back_armed_for is not undo:
            self._take_back_armed_until = now + TAKE_BACK_SECONDS
            self._take_back_armed_for = undo
            self.say(f"Press BACK again within {TAKE_BACK_SECONDS:.0f} seconds to take back {who}'s choice "
                     f"({undo.label}).", "warning")
            return
        self._take_back_armed_until = 0.0
        self._undo_last_input(undo.state)
        self._last_choice = None
        self.tray_values, self.tray_boxes = list(undo.tray_values), list(undo.tray_boxes)
        self._enter_phase()
        if len(undo.holds) == len(self.holds):
            self.holds = list(undo.holds)
            if any(self.holds):
                self._journal_holds()      # (the take-back's line began the decision with none)
        self.cursor = min(undo.cursor, max(0, len(self.menu()) - 1))
        self.say(f"Taken back: {who}'s choice ({undo.label}). {who}: choose again.")

    def _abandon(self) -> None:
        exp = self.expect
        if isinstance(exp, Decide):
            opt = next((o for o in exp.options if is_abandon(o)), None)
            if opt is not None:
                if not self.choices_shown:
                    # anyone may press it: a secret choice is its player's, made on the opened menu
                    who = self.state.player_name(exp.player)
                    self.say(f"{who}'s choice is secret: {who} presses OK to see it, then chooses.")
                    return
                self._choose(exp, next(e for e in self.menu() if e.action == "option" and e.key == opt.key))
                return
        if self.phase == OVER:
            return
        now = self.clock()
        if now < self._abandon_armed_until:
            self.abandoned = True
            self.phase = OVER
            self.say("Game abandoned. The log keeps every move.", "warning")
        else:
            self._abandon_armed_until = now + 5.0
            self.say("Press ABANDON again within 5 seconds to abandon the whole game.", "warning")

    # ---------------------------------------------------------------------------------- view
    def view(self, image=None, camera_note: str = "", tray_advice: MessageView | None = None,
             things: tuple[tuple[int, int, int, int], ...] = ()) -> TableView:
        """What the screen shows now (controller/table_screen.py). `camera_note` (e.g. "Dice
        moving...") stands in the caption while there is no reading to show; `tray_advice` (what
        keeps the tray from being read, and what to do) in the banner while a throw is awaited or
        a reading shown (whose moment it holds) and nothing else is said; `things` (boxes in
        `image`'s pixels: a phone left in the tray, a hand) are outlined on the camera's picture."""
        if image is not None:
            self._frame_size = (int(image.shape[1]), int(image.shape[0]))
            if self._places_size is not None:
                places_at(self, self._frame_size)
        return table_view(self, image, camera_note, tray_advice, things)

    @property
    def help_shown(self) -> bool:
        """Whether the HINT card is on screen."""
        return self.help_page is not None

    def _help(self) -> HelpView | None:
        key = "HINT" if self.hint_button else "OK"
        return None if self.help_page is None else help_card(self.state, page=self.help_page, key=key)

    def _sheet(self, focus: str | None = None) -> tuple[Sheet, dict]:
        """The game's sheet and its JSON while the menu's cursor is on option `focus` (see
        `_focus`), worked out once a state and cursor option: states never change (`apply`
        returns a new one), and the screen asks for the sheet with every camera frame, where
        the previews of every option cost up to ~2 ms (School, six players)."""
        if self._sheet_of is not self.state or self._sheet_focus != focus:
            sheet = self.state.sheet_for(focus) if focus is not None else self.state.sheet()
            self._sheet_cache = (sheet, sheet.to_json())
            self._sheet_of, self._sheet_focus = self.state, focus
        return self._sheet_cache

def _first_faces(table_log: TableLog) -> tuple[str, ...] | None:
    """The faces of the game's dice if not pips, as its first throw names them. They were known
    only from a throw the table had asked for, so a game resumed at a decision named Classic's
    dice by their pips on the menu (*Die 1 (5)*) where the players had seen them as K."""
    try:
        exp = table_log.start().expects()
    except LogError:
        return None
    return exp.faces if isinstance(exp, Throw) else None
