"""Random players at the real table: a hypothesis state machine over TableApp, for each of the
five games and a few house-rule sets, on a button box and a three-button panel, on an 800x480
screen drawn with SDL's dummy driver (two cases on the smallest supported, 320x240).

The players press any button at any moment (short or long, BACK twice, ABANDON, HINT's pages,
the menu's lines, a secret menu opened and shut), the camera sends any settled reading (the
right count, a die too many or too few, a held die changed, dice it cannot read, a die read
unsurely, a problem such as leaning, glare, a hand, the dark; an empty tray, the same tray again,
dice slid, a tray found lying there, a camera plugged back with another picture size), time
passes (a reading's moment, a message's, *Still playing?* and its two minutes), and the power
goes at any moment: the table is started again on the journal written so far.

After every step: nothing raised (nor was logged with a traceback); the journal holds every
move applied, once, and replays to the game on the table; a reading with a die the camera could
not read never goes into the game as read (only a player's correction enters it); the game
always offers a way forward. After every restart the table is the one the players left: the
same moves, sheet, player to act, prompt and menu, dice held, take-back and correction offered
(tests/test_table_flow_resume_options.py's `seen`). Now and then the table is played forward by
a player who only wants to get on: each of their moves must count.

A game starts at a random point of a seeded game (its first moves written into the journal and
resumed from it), so that late turns, the table's draws, game ends and final standings are met
too. In CI the runs are derandomized (the same each time: no flake), 20 examples of 30 steps per
case; `DICETABLE_FUZZ=300 pytest tests/test_table_fuzz.py` hunts with 300 random ones of 80 steps.
"""
from __future__ import annotations

import json
import logging
import os
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, \
    run_state_machine_as_test

import controller.table as table_module
from controller.config import parse_config
from controller.journal import Journal
from controller.powercut import player_input
from controller.rules import Decide, Throw
from controller.rules.base import dice_input
from controller.setup_menu import SetupResult
from controller.table import CONFIRM, CORRECT, DECIDE, OVER, WAIT_DICE
from controller.tray_places import same_spot as _same_spot
from controller.table_app import CURRENT, TableApp, archive_order
from controller.tablelog import TableLog, replay
from display.screen import Screen
from hardware.buttons import BUTTON_NAMES
from table_helpers import Clock, Press
from test_table_e2e import FakeButtons, NoFrames
from test_table_flow_resume_options import seen
from vision.types import Die, Problem, Reading

#: the games and house rules played: (game, players, options)
SETS: dict[str, tuple[str, list[str], dict[str, Any]]] = {
    "thirteen": ("thirteen", ["Ann", "Bob"], {}),
    "thirteen-forced-joker": ("thirteen", ["Ann", "Bob", "Cy"],
                              {"joker_forced_order": True, "first_player": "drawn", "early_close_on_zero": True}),
    "classic": ("classic", ["Ann", "Bob"], {}),
    "classic-betting": ("classic", ["Ann", "Bob", "Cy"], {"variant": "betting", "rounds": 2, "first_player": "drawn"}),
    "school": ("school", ["Ann", "Bob"], {}),
    "poknroll": ("poknroll", ["Ann", "Bob", "Cy"], {"boxes_per_line": 2}),
    "poknroll-drawn-sequential": ("poknroll", ["Ann", "Bob", "Cy"],
                                  {"imaginary_dice_source": "engine_rng", "decision_order": "sequential",
                                   "boxes_per_line": 2}),
    "objective-cards": ("objective-cards", ["Ann", "Bob", "Cy"], {}),
    "objective-cards-two-player-variant": ("objective-cards", ["Ann", "Bob"],
                                           {"two_player_strategic_variant": True}),
}
#: the panels: any button may come (a button box), or a GPIO panel of UP, DOWN and OK alone
PANELS = {"any": "", "three": '[buttons]\ntype = "gpio"\n[buttons.pins]\nUP = 27\nDOWN = 22\nOK = 17\n'}
SEED = 11
#: what the camera may say of a tray besides its dice (blocking or not: the table decides)
PROBLEMS = ["die_leaning", "unsure_value", "dice_touching", "glare", "partly_out_of_view", "foreign_object",
            "too_dark", "too_bright", "blurred", "bad_frame", "camera_moved", "calibration_size", "die_size"]
#: pauses: a press's gap, a reading's moment, a message's, Still playing? (30 min), its 2 minutes
PAUSES = [0.2, 1.0, 2.0, 4.5, 6.5, 1801.0, 121.0]
#: the camera's picture sizes: the same view at another size, or another view (a 16:10 mode)
SIZES = [(640, 480), (640, 480), (1280, 960), (800, 600), (800, 500)]


def seeded_draw(exp: Throw, rng: random.Random | None = None) -> dict[str, Any]:
    """The table's own draws as a function of what they are for (a run that can be shrunk)."""
    return dice_input(exp.player, random.Random(f"{SEED}:{exp!r}").choices(range(1, 7), k=exp.count))


def seeded_game(game: str, players: list[str], options: dict[str, Any],
                limit: int = 400) -> tuple[list[dict[str, Any]], list[int]]:
    """The inputs of a game played by the seeded player of `dicetable bench powercut` (its table's
    draws seeded too), as far as it goes within `limit` moves; and where the table drew dice."""
    log = TableLog(game, list(players), dict(options)).with_every_option()
    state = log.start()
    inputs: list[dict[str, Any]] = []
    draws: list[int] = []
    while not state.is_over and len(inputs) < limit:
        exp = state.expects()
        if isinstance(exp, Throw) and exp.drawn:
            draws.append(len(inputs))
            data = seeded_draw(exp)
        else:
            data = player_input(state, len(inputs), SEED)
        state = state.apply(data)
        inputs.append(data)
    return inputs, draws


_GAMES: dict[str, tuple[list[dict[str, Any]], list[int]]] = {}


def game_of(name: str) -> list[dict[str, Any]]:
    if name not in _GAMES:
        _GAMES[name] = seeded_game(*SETS[name])
    return _GAMES[name][0]


def starts(name: str) -> list[int]:
    """Where a game of set `name` may start (the moves already played): none (twice as likely), a
    fifth, half, most, all but the last few, all (the final standings); and where the table draws
    dice, just before (the draw due as it comes back) and a move before (the last cup read)."""
    inputs = game_of(name)
    n = len(inputs)
    points = [0, 0, n // 5, n // 2, 4 * n // 5, 19 * n // 20, n]
    for at in _GAMES[name][1][:3]:
        points += [at, max(0, at - 1)]
    return points


def picture(size: tuple[int, int]) -> np.ndarray:
    """A camera picture of `size` (felt green): the tray drawn under the marks."""
    image = np.zeros((size[1], size[0], 3), np.uint8)
    image[:] = (40, 110, 60)
    return image


class Traceback(logging.Handler):
    """Every record logged with a traceback: the table caught something it did not expect."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.records.append(record)


class RandomPlayers(RuleBasedStateMachine):
    """The table and what is done to it. Subclassed per game and panel (`machine_for`)."""

    set_name = "thirteen"
    panel = "any"
    screen_size = (800, 480)

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="fuzz-"))
        self.config = parse_config(f'[table]\njournal_dir = "{self.folder}"\n' + PANELS[self.panel])
        self.clock = Clock()
        self.screen = Screen(self.screen_size, headless=True)
        self.app: TableApp | None = None
        self.throws = 0                   # where the next throw lands (dice thrown anew lie elsewhere)
        self.last: Reading | None = None
        self.size = (640, 480)
        self.playing: list[dict[str, Any]] | None = None     # the moves of the game on the table
        self.tracebacks = Traceback()
        logging.getLogger().addHandler(self.tracebacks)

    def teardown(self) -> None:
        logging.getLogger().removeHandler(self.tracebacks)
        shutil.rmtree(self.folder, ignore_errors=True)

    # ------------------------------------------------------------------------------ the table
    def start(self) -> TableApp:
        """The table switched on: it resumes what the journal holds."""
        self.app = TableApp(self.config, self.screen, NoFrames(), FakeButtons(), clock=self.clock,
                            rng=random.Random(SEED))
        return self.app

    @property
    def flow(self):
        return self.app.flow if self.app is not None else None

    @initialize(data=st.data())
    def set_up(self, data) -> None:
        """A game of this set, its first moves (some of a seeded game: `starts`) already played."""
        game, players, options = SETS[self.set_name]
        moves = game_of(self.set_name)[:data.draw(st.sampled_from(starts(self.set_name)), label="moves played")]
        if moves:
            header = TableLog(game, list(players), dict(options)).with_every_option()
            lines = [{"format": "dicetable-log/2", "game": header.game, "players": header.players,
                      "options": header.options}, *moves]
            (self.folder / CURRENT).write_text("".join(json.dumps(x) + "\n" for x in lines))
            self.start()
        else:
            self.start()
            self.new_game()

    def new_game(self) -> None:
        game, players, options = SETS[self.set_name]
        self.app.menu.done = SetupResult(game, tuple(players), dict(options))
        self.app.start_new()

    # ------------------------------------------------------------------------------ readings
    def dice(self, values: list[int | None], confidence: float = 0.95) -> tuple[Die, ...]:
        """Dice thrown anew: in a row, a row lower (and a little to the right) at each throw."""
        self.throws += 1
        y = 30 + 55 * (self.throws % 7)
        x = 20 + 17 * (self.throws % 3)
        w, h = self.size
        k = w / 640
        return tuple(Die(v, tuple(int(c * k) for c in (x + 60 * i, y, x + 60 * i + 48, y + 48)),
                         ((x + 60 * i + 24) * k, (y + 24) * k), confidence if v is not None else 0.0)
                     for i, v in enumerate(values))

    def feed(self, reading: Reading) -> None:
        self.last = reading
        self.flow.on_reading(reading)
        self.app.idle.touch()            # (dice come to rest: someone is playing, as the runner says)

    def wanted(self) -> tuple[list[int], int] | None:
        exp = self.flow.expect if self.flow is not None else None
        if isinstance(exp, Throw):
            return list(exp.held), exp.count
        if isinstance(exp, Decide) and exp.reroll is not None:
            return [], len(exp.reroll.dice)      # (a throw before the choice: the table refuses it)
        return None

    @precondition(lambda self: self.flow is not None)
    @rule(data=st.data())
    def throw(self, data) -> None:
        """The dice the game asks for, all read surely (or, a time in four, one read less surely)."""
        want = self.wanted() or ([], 5)
        values = want[0] + [data.draw(st.integers(1, 6)) for _ in range(want[1])]
        dice = list(self.dice(values))
        if dice and data.draw(st.integers(0, 3)) == 0:
            i = data.draw(st.integers(0, len(dice) - 1))
            dice[i] = Die(dice[i].value, dice[i].box, dice[i].centre, 0.7)
        self.feed(Reading(tuple(dice), (), size=self.size))

    @precondition(lambda self: self.flow is not None and isinstance(self.flow.expect, Throw)
                  and bool(self.flow.expect.held) and bool(self.flow.played))
    @rule(data=st.data(), unread=st.booleans())
    def throw_beside_held(self, data, unread: bool) -> None:
        """The held dice left lying where they lay, the others thrown beside them; a held die the
        camera cannot read (`unread`): the table gives it the value it was set to, outlined."""
        held, count = self.wanted()
        lying, left = [], list(held)
        for value, box in self.flow.played:
            if value in left:
                left.remove(value)
                lying.append(Die(None if unread and not lying else value, tuple(box),
                                 ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), 0.0 if unread and not lying else 0.95))
        thrown = self.dice([data.draw(st.integers(1, 6)) for _ in range(count + len(left))])
        self.feed(Reading(tuple(lying) + thrown, (), size=self.size))

    @precondition(lambda self: self.flow is not None)
    @rule(extra=st.sampled_from([-2, -1, 1, 2]), data=st.data())
    def throw_wrong_count(self, extra: int, data) -> None:
        held, count = self.wanted() or ([], 5)
        n = max(0, len(held) + count + extra)
        self.feed(Reading(self.dice([data.draw(st.integers(1, 6)) for _ in range(n)]), (), size=self.size))

    @precondition(lambda self: self.flow is not None and isinstance(self.flow.expect, Throw) and self.flow.expect.held)
    @rule(data=st.data())
    def throw_held_changed(self, data) -> None:
        held, count = self.wanted()
        changed = [(v % 6) + 1 for v in held]
        self.feed(Reading(self.dice(changed + [data.draw(st.integers(1, 6)) for _ in range(count)]), (),
                          size=self.size))

    @precondition(lambda self: self.flow is not None)
    @rule(data=st.data(), unsure=st.booleans())
    def throw_unreadable(self, data, unsure: bool) -> None:
        """The right count, some dice unread (no value) or read too unsurely to be taken: never
        staged nor applied as read (a player enters them with a long OK)."""
        held, count = self.wanted() or ([], 5)
        values: list[int | None] = held + [data.draw(st.integers(1, 6)) for _ in range(count)]
        if not values:
            return
        bad = data.draw(st.sets(st.integers(0, len(values) - 1), min_size=1))
        dice = list(self.dice(values))
        for i in bad:
            dice[i] = Die(values[i] if unsure else None, dice[i].box, dice[i].centre, 0.3 if unsure else 0.0,
                          ("unsure_value",))
        reading = Reading(tuple(dice), (), size=self.size)
        flow = self.flow
        # (a held die set by hand, lying where it lay, keeps its value: docs/table.md; not here)
        refilled = any(_same_spot(box, dice[i].box) for i in bad for _, box in flow.played)
        inputs, phase = len(flow.log.inputs), flow.phase
        self.feed(reading)
        if not refilled and phase != CORRECT:
            assert len(flow.log.inputs) == inputs, "a die the camera could not read went into the game"
            assert flow.phase != CONFIRM, f"a die the camera could not read was staged as read: {flow.pending}"

    @precondition(lambda self: self.flow is not None)
    @rule(code=st.sampled_from(PROBLEMS), data=st.data())
    def throw_with_problem(self, code: str, data) -> None:
        held, count = self.wanted() or ([], 5)
        dice = self.dice(held + [data.draw(st.integers(1, 6)) for _ in range(count)])
        box = dice[0].box if dice and data.draw(st.booleans()) else None
        self.feed(Reading(dice, (Problem(code, code.replace("_", " "), box),), size=self.size))

    @precondition(lambda self: self.flow is not None)
    @rule()
    def empty_tray(self) -> None:
        self.feed(Reading((), (), size=self.size))
        self.flow.on_tray_empty()

    @precondition(lambda self: self.flow is not None and self.last is not None)
    @rule(how=st.sampled_from(["again", "moved", "found", "slid"]))
    def same_tray(self, how: str) -> None:
        """The last tray again: read again, its dice slid a little (one or all), found lying there."""
        last = self.last
        if how == "again":
            self.flow.on_reading(last)
        elif how == "found":
            self.flow.on_found_tray(last)
        else:
            dx = 9 if how == "moved" else 70
            moved = tuple(Die(d.value, (d.box[0] + dx, d.box[1], d.box[2] + dx, d.box[3]),
                              (d.centre[0] + dx, d.centre[1]), d.confidence, d.problems) for d in last.dice)
            self.last = Reading(moved, last.problems, size=last.size)
            self.flow.on_dice_moved(self.last, list(range(len(moved))))

    @precondition(lambda self: self.flow is not None)
    @rule()
    def hand_in_tray(self) -> None:
        self.flow.on_tray_disturbed()

    @precondition(lambda self: self.flow is not None)
    @rule(size=st.sampled_from(SIZES))
    def camera_plugged_back(self, size: tuple[int, int]) -> None:
        self.size = size

    # ------------------------------------------------------------------------------- buttons
    def press(self, name: str, kind: str = "press") -> None:
        self.app.on_button(Press(name, kind))

    @rule(name=st.sampled_from(BUTTON_NAMES), kind=st.sampled_from(["press", "press", "hold", "release"]))
    def button(self, name: str, kind: str) -> None:
        """Any button, short or long (a three-button panel sends only its three)."""
        if self.panel == "three" and name not in ("UP", "DOWN", "OK"):
            name = {"BACK": "UP", "ABANDON": "DOWN"}.get(name, "OK")
        self.press(name, kind)

    @precondition(lambda self: self.flow is not None)
    @rule(gap=st.sampled_from([0.5, 6.0]))
    def abandon_twice(self, gap: float) -> None:
        """ABANDON twice, within its 5 seconds or not (Pok'n Roll: the hand, on an opened menu)."""
        abandon = ("DOWN", "hold") if self.panel == "three" else ("ABANDON", "press")
        self.press(*abandon)
        self.clock.t += gap
        self.press(*abandon)

    @precondition(lambda self: self.flow is not None)
    @rule()
    def back_twice(self) -> None:
        back = ("UP", "hold") if self.panel == "three" else ("BACK", "press")
        self.press(*back)
        self.press(*back)

    @precondition(lambda self: self.flow is not None)
    @rule(data=st.data())
    def correct_with_long_ok(self, data) -> None:
        """A long OK, some UP presses on some dice, a long OK: the players' own values."""
        self.press("OK", "hold")
        for _ in range(data.draw(st.integers(0, 3))):
            self.press(data.draw(st.sampled_from(["UP", "UP", "OK"])))
        self.press("OK", "hold")

    # ---------------------------------------------------------------------------------- time
    @rule(seconds=st.sampled_from(PAUSES))
    def wait(self, seconds: float) -> None:
        """Time passes; the table goes round its loop once, drawing the screen."""
        self.clock.t += seconds
        if self.app.runner is not None:
            self.app.runner.last_image = picture(self.size)
        self.app.step()

    # ----------------------------------------------------------------------------- the power
    @rule()
    def power_cut(self) -> None:
        """The table switched off and on: it comes back as the players left it."""
        before = self.flow
        if before is not None and before.abandoned:
            self.start()
            assert self.flow is None, "a game abandoned came back after a restart"
            return
        if before is None:
            self.start()
            return
        steady = before.phase in (WAIT_DICE, DECIDE, OVER)
        was = seen(before) if steady else None
        state, inputs = json.dumps(before.state.snapshot(), sort_keys=True), list(before.log.inputs)
        self.start()
        after = self.flow
        assert after is not None, "the game on the table was lost in a restart"
        assert list(after.log.inputs) == inputs, "the moves changed in a restart"
        assert json.dumps(after.state.snapshot(), sort_keys=True) == state
        if was is not None:
            assert seen(after) == was, "the table came back otherwise than the players left it"

    @precondition(lambda self: self.flow is None)
    @rule()
    def next_game(self) -> None:
        """After a game put away: the same game again, set up on the menu."""
        self.new_game()

    # ------------------------------------------------------------------------- getting on
    @precondition(lambda self: self.flow is not None and self.flow.phase != OVER)
    @rule(data=st.data())
    def play_on(self, data) -> None:
        """A player who only wants to get on: each move they make must count (within a few
        presses): the game is never stuck."""
        flow = self.flow
        inputs = list(flow.log.inputs)
        for _ in range(12):
            if self.flow is None or self.flow is not flow or flow.phase == OVER or flow.log.inputs != inputs:
                return
            self.clock.t += 2.5            # (past a double OK, a message's moment is not waited for)
            self.app.step()
            if self.app.flow is not flow:
                return
            if flow.help_shown:
                self.press("DOWN" if self.panel == "three" else "HINT")
            elif flow.phase == CORRECT:
                self.press("OK", "hold")
                if flow.phase == CORRECT:
                    self.press("UP", "hold") if self.panel == "three" else self.press("BACK")
            elif flow.phase == CONFIRM:
                self.press("OK")
            elif flow.phase == WAIT_DICE:
                held, count = self.wanted()
                self.feed(Reading(self.dice(held + [data.draw(st.integers(1, 6)) for _ in range(count)]), (),
                                  size=self.size))
            elif flow.phase == DECIDE:
                self.choose_something(data)
        assert flow.log.inputs != inputs or flow.phase == OVER or self.app.flow is not flow, \
            f"the game is stuck at {flow.phase}: {flow.expect!r}; says {flow.view().message}"

    def choose_something(self, data) -> None:
        flow = self.flow
        if not flow.choices_shown:
            self.press("OK")
            return
        entries = flow.menu()
        choices = [i for i, e in enumerate(entries) if e.enabled and e.action in ("option", "reroll")]
        assert choices, f"no way forward on the menu: {[e.label for e in entries]}"
        target = data.draw(st.sampled_from(choices))
        for _ in range(len(entries) + 1):
            if flow.cursor == target or flow.phase != DECIDE:
                break
            self.press("DOWN")
        self.press("OK")

    # ---------------------------------------------------------------------------- invariants
    @invariant()
    def nothing_raised(self) -> None:
        if self.tracebacks.records:
            record = self.tracebacks.records[0]
            raise AssertionError(f"logged with a traceback: {record.getMessage()}") from record.exc_info[1]

    @invariant()
    def the_journal_is_the_game(self) -> None:
        """Every move applied is in the journal, once, and it replays to the game on the table."""
        app = self.app
        if app is None or app.flow is None:
            return
        flow = app.flow
        assert json.dumps(replay(flow.log).snapshot(), sort_keys=True) == \
            json.dumps(flow.state.snapshot(), sort_keys=True)
        if app.journal is not None and not flow.abandoned and flow.unsaved is None:
            assert Journal.load(app.journal.path).inputs == flow.log.inputs

    @invariant()
    def the_screen_says_nothing_half_made(self) -> None:
        """The words on screen are the table's, filled in (no "None", no Python object); a secret
        menu is not on screen before its player opened it."""
        flow = self.flow
        if flow is None:
            return
        view = flow.view()
        texts = [view.title, view.status]
        if view.message is not None:
            texts.append(view.message.text)
        if view.prompt is not None:
            texts += [view.prompt.text, view.prompt.hint, *(o.label for o in view.prompt.options)]
        if view.tray is not None:
            texts.append(view.tray.caption)
        for text in texts:
            assert not any(bad in text for bad in ("None", "{", "<", "[")), text
        exp = flow.expect
        if isinstance(exp, Decide) and exp.secret and not flow.choices_shown and view.prompt is not None:
            assert view.prompt.options == (), view.prompt

    @invariant()
    def a_game_put_away_is_kept(self) -> None:
        """A game that leaves the table (finished and OK pressed, abandoned, left alone) is kept in
        the archive with every move it had."""
        flow = self.flow
        if flow is not None and self.playing is not None:
            self.playing = list(flow.log.inputs)
            if not flow.abandoned:
                return
        elif flow is not None:
            if not flow.abandoned:
                self.playing = list(flow.log.inputs)
            return
        if self.playing is None:
            return
        archived = sorted((self.folder / "games").glob("*.jsonl"), key=lambda p: archive_order(p.name))
        assert archived, "a game left the table without its journal kept"
        assert Journal.load(archived[-1]).inputs == self.playing
        self.playing = None

    @invariant()
    def a_way_forward(self) -> None:
        flow = self.flow
        if flow is None or flow.phase == OVER:
            return
        exp = flow.expect
        assert isinstance(exp, (Throw, Decide)), exp
        if flow.phase == DECIDE:
            assert isinstance(exp, Decide)
            assert any(e.enabled and e.action in ("option", "reroll") for e in flow.menu()), \
                [e.label for e in flow.menu()]
        if flow.phase in (CONFIRM, CORRECT):
            assert flow.pending is not None and isinstance(exp, Throw)
            assert len(flow.pending) == len(exp.held) + exp.count
            assert all(isinstance(v, int) and 1 <= v <= 6 for v in flow.pending), flow.pending


def machine_for(set_name: str, panel: str, size: tuple[int, int] = (800, 480)) -> type[RandomPlayers]:
    return type(f"RandomPlayers_{set_name}_{panel}_{size[0]}", (RandomPlayers,),
                {"set_name": set_name, "panel": panel, "screen_size": size})


#: examples and steps per case: bounded in CI (derandomized: the same runs each time, no flake);
#: DICETABLE_FUZZ=N hunts with N random examples of 80 steps each
HUNT = int(os.environ.get("DICETABLE_FUZZ", "0"))
EXAMPLES, STEPS = (HUNT, 80) if HUNT else (20, 30)
#: (set, panel, screen): every set on an 800x480 screen with any buttons; three of them on a
#: three-button panel; two on the smallest screen supported (320x240), where most is left off
CASES = ([(name, "any", (800, 480)) for name in SETS]
         + [(name, "three", (800, 480)) for name in ("thirteen", "poknroll", "objective-cards-two-player-variant")]
         + [("school", "any", (320, 240)), ("classic-betting", "three", (320, 240))])


@pytest.fixture(autouse=True)
def _seeded_draws(monkeypatch):
    monkeypatch.setattr(table_module, "draw", seeded_draw)


@pytest.mark.parametrize("set_name,panel,size", CASES, ids=[f"{n}-{p}-{s[0]}" for n, p, s in CASES])
def test_random_players_never_break_the_table_nor_lose_the_game(set_name, panel, size):
    run_state_machine_as_test(machine_for(set_name, panel, size), settings=settings(
        max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None, derandomize=not HUNT,
        suppress_health_check=list(HealthCheck)))


def test_the_seeded_games_get_somewhere():
    """The games the machine starts inside are long enough to start deep in them, and some end
    (the machine then meets the final standings)."""
    lengths = {name: len(game_of(name)) for name in SETS}
    assert min(lengths.values()) >= 15, lengths
    ended = [name for name, (game, players, options) in SETS.items()
             if replay(TableLog(game, players, options, game_of(name)).with_every_option()).is_over]
    assert len(ended) >= 3, ended
