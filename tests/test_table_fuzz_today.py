"""Random players against the table's newer ways: tests/test_table_fuzz.py's players (every rule
of theirs) and more, on what landed since it was written:

- leaving a correction with BACK (a reading shown is shown again as read; a late one goes back in
  as read), a long OK on dice already accepted while dice are held (the holds kept), the power
  cut while correcting (the table comes back correcting the dice as read);
- games put away by *Still playing?* taken up from the menu, and the power cut as one is taken up;
- BACK twice over and over (the journal compacts what was taken back: journal_compact);
- a cup over some of the dice, a thing left in the tray, a playing card (a thing that is not a
  die), a lamp's glare on some dice (read unsurely: taken only with the players' OK);
- players with names in accents and other scripts (drawn on an 800x480 and a 320x240 screen).

Invariants, after every step, beside the first machine's: every dice move in the game is dice the
camera read whole, dice the players set in a correction, or dice the table drew; holds only where
the rules let the player throw again, on dice of theirs; a game taken up is the game put away,
move for move; a correction cut by the power comes back correcting the dice as read. In CI: a
few derandomized examples (seconds); `DICETABLE_FUZZ=N` hunts with N random ones of 80 steps.
"""
from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, precondition, rule, run_state_machine_as_test

from controller.journal import Journal
from controller.rules import Decide, Throw
from controller.table import CONFIRM, CORRECT, DECIDE, OVER
from controller.table_app import CURRENT
from test_table_fuzz import SETS, RandomPlayers
from vision.types import Die, Problem, Reading

#: the newer sets: names typed with accents, in Cyrillic, Greek, Hebrew, Arabic, Chinese
TODAY_SETS: dict[str, tuple[str, list[str], dict[str, Any]]] = {
    **SETS,
    "thirteen-names": ("thirteen", ["Zoë", "Łukasz", "Ярослава"], {}),
    "classic-names": ("classic", ["José-María", "שרה", "محمد"], {}),
    "poknroll-names": ("poknroll", ["Søren", "Ελένη", "李雷"], {"boxes_per_line": 2}),
}
#: what the camera may say of a tray today besides its dice
TODAY_PROBLEMS = ["dice_covered", "foreign_object", "left_in_tray", "glare"]


def sorted_values(values) -> tuple[int, ...]:
    return tuple(sorted(int(v) for v in values))


class TodaysPlayers(RandomPlayers):
    """RandomPlayers with the newer rules and invariants (see the module's doc)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen_values: set[tuple[int, ...]] = set()     # dice the camera read whole, or players set
        self.known_inputs = 0                               # the inputs checked so far
        self._flow_seen = None                              # the game they are of

    # -------------------------------------------------------------------- what counts as read
    def feed(self, reading: Reading) -> None:
        if reading.dice and all(d.value is not None for d in reading.dice):
            self.seen_values.add(sorted_values(d.value for d in reading.dice))
        super().feed(reading)
        self._note_pending()

    def _note_pending(self) -> None:
        """Dice set by the players (a correction) or shown as read: values the game may take."""
        flow = self.flow
        if flow is not None and flow.pending is not None:
            self.seen_values.add(sorted_values(flow.pending))

    def press(self, name: str, kind: str = "press") -> None:
        self._note_pending()
        super().press(name, kind)
        self._note_pending()

    def start(self):
        app = super().start()
        self._note_pending()
        self.known_inputs = len(app.flow.log.inputs) if app.flow is not None else 0
        self._flow_seen = app.flow
        return app

    # ---------------------------------------------------------------------------- readings
    @precondition(lambda self: self.flow is not None)
    @rule(data=st.data(), sure=st.sampled_from([0.6, 0.95, 0.995]))
    def throw_in_glare(self, data, sure: float) -> None:
        """The right dice, some in a lamp's glare read with `sure` confidence: one read under
        0.99 is not taken by itself, whatever time passes (only the players' OK takes it)."""
        held, count = self.wanted() or ([], 5)
        dice = list(self.dice(held + [data.draw(st.integers(1, 6)) for _ in range(count)]))
        if not dice:
            return
        for i in data.draw(st.sets(st.integers(0, len(dice) - 1), min_size=1)):
            dice[i] = Die(dice[i].value, dice[i].box, dice[i].centre, sure, ("glare",))
        self.feed(Reading(tuple(dice), (), size=self.size))
        flow = self.flow
        if flow.phase == CONFIRM and flow.waits_for_ok:
            inputs = len(flow.log.inputs)
            for _ in range(3):
                self.clock.t += 30.0
                self.app.step()
            assert self.flow is not flow or len(flow.log.inputs) == inputs, \
                "dice in the glare read unsurely were taken without the players' OK"

    @precondition(lambda self: self.flow is not None)
    @rule(code=st.sampled_from(TODAY_PROBLEMS), data=st.data(), some=st.integers(0, 4))
    def throw_with_todays_problem(self, code: str, data, some: int) -> None:
        """A cup over some of the dice (those in view, the tray covered), a thing in the tray (a
        playing card), a glare spot: with `some` dice of the throw in view."""
        held, count = self.wanted() or ([], 5)
        values = held + [data.draw(st.integers(1, 6)) for _ in range(count)]
        dice = self.dice(values[:some] if code == "dice_covered" else values)
        box = (300, 200, 420, 380)
        self.feed(Reading(dice, (Problem(code, code.replace("_", " "), box),), size=self.size))

    # -------------------------------------------------------------------------- corrections
    @precondition(lambda self: self.flow is not None and self.flow.phase == CORRECT)
    @rule(ups=st.integers(0, 7))
    def leave_correction_with_back(self, ups: int) -> None:
        """Some dice changed, then BACK: a late correction puts the dice back in as read, a
        reading shown is shown again as read (nothing the players set stays)."""
        flow = self.flow
        amending = flow._amending
        opened = flow._opened
        seen_meanwhile = flow._seen_while_correcting
        inputs = list(flow.log.inputs)
        if self.app._still_playing_asked():
            self.press("OK")            # (Still playing? takes the first press: "Carry on")
        for _ in range(ups):
            self.press("UP")
        self.press("UP", "hold") if self.panel == "three" else self.press("BACK")
        if self.flow is not flow:
            return
        if amending is not None:
            assert flow.log.inputs[:len(inputs)] == inputs and len(flow.log.inputs) == len(inputs) + 1, \
                "a late correction left with BACK did not put the dice back"
            assert flow.phase != CORRECT
        elif opened is not None and opened.origin == "shown" and seen_meanwhile is None:
            assert flow.phase == CONFIRM and list(flow.pending) == list(opened.values), \
                "a reading left with BACK was not shown again as read"

    @precondition(lambda self: self.flow is not None and self.flow.phase == CONFIRM)
    @rule(ups=st.integers(0, 7))
    def correct_shown_then_back(self, ups: int) -> None:
        """The dice shown as read, a long OK to correct them, some changed, then BACK: the
        reading is shown again as read (leave_correction_with_back's check)."""
        self.press("OK", "hold")
        if self.flow is not None and self.flow.phase == CORRECT:
            self.leave_correction_with_back(ups)

    @precondition(lambda self: self.flow is not None and self.flow.phase == DECIDE
                  and self.flow.correction_offered is not None)
    @rule(data=st.data(), holds=st.sets(st.integers(1, 5), max_size=3))
    def hold_then_correct_late(self, data, holds: set[int]) -> None:
        """Dice held, then a long OK on the dice accepted: some changed (or not), a long OK."""
        if self.flow.choices_shown:
            for i in sorted(holds):
                self.press(f"HOLD{i}")
        self.press("OK", "hold")
        for _ in range(data.draw(st.integers(0, 3))):
            self.press(data.draw(st.sampled_from(["UP", "DOWN", "OK"])))
        if data.draw(st.booleans()):
            self.press("OK", "hold")

    # -------------------------------------------------------------------------- the power
    @rule()
    def power_cut(self) -> None:
        """As the first machine's, and a correction cut comes back correcting the dice as read
        (a late correction's: the values taken back; a first one's: the throw asked again or the
        dice shown, never dice the players did not accept)."""
        before = self.flow
        amending = before._amending if before is not None and before.phase == CORRECT else None
        if amending is None:
            super().power_cut()
            self._after_cut()
            return
        inputs = list(before.log.inputs)
        self.start()
        after = self.flow
        assert after is not None and list(after.log.inputs) == inputs, "a correction cut lost the game's moves"
        assert after.phase == CORRECT, f"a correction cut came back in {after.phase}"
        assert sorted_values(after.pending) == sorted_values(amending.values), \
            f"a correction cut came back with {after.pending}, read {amending.values}"
        self._after_cut()

    def _after_cut(self) -> None:
        self._note_pending()

    # ------------------------------------------------------------------------- taking up
    @precondition(lambda self: self.flow is not None and self.flow.phase != OVER)
    @rule()
    def leave_the_table(self) -> None:
        """Everybody goes for a drink: *Still playing?* after half an hour, unanswered; the game
        is put away (and offered to be taken up)."""
        for seconds in (1801.0, 121.0, 1.0):
            self.wait(seconds)
            self.a_game_put_away_is_kept()      # (a reading shown is accepted as time passes)
            self.only_dice_read_or_set()

    @precondition(lambda self: self.app is not None and self.flow is None and bool(self.app.menu.kept))
    @rule(data=st.data(), cut=st.booleans())
    def take_up(self, data, cut: bool) -> None:
        """A game put away taken up from the menu (`cut`: the power goes as its journal is back
        on the table, before the table resumed it): the game comes back with every move."""
        kept = data.draw(st.sampled_from(list(self.app.menu.kept)))
        moves = Journal.load(self.folder / "games" / kept.name).inputs
        self.app.menu.take_up = kept
        if cut:
            self.app.resume = lambda **_: None      # (the journal moved back, then the power went)
            self.app.take_up()
            assert (self.folder / CURRENT).exists()
            self.start()
        else:
            self.app.take_up()
        assert self.flow is not None, f"a game put away could not be taken up: {self.app.menu.message}"
        assert list(self.flow.log.inputs) == list(moves), "a game taken up is not the game put away"
        assert not self.app.idle.left, "a game just taken up was asked Still playing?"
        self.known_inputs = len(self.flow.log.inputs)
        self._flow_seen = self.flow
        self._note_pending()

    # ------------------------------------------------------------------------ take-backs
    @precondition(lambda self: self.flow is not None and self.flow.take_back_offered is not None)
    @rule(times=st.sampled_from([1, 3, 130, 300]))
    def choose_and_take_back_again(self, times: int) -> None:
        """The last choice taken back with BACK twice, chosen again, over and over (past the
        journal's compaction): the journal stays the game (the invariants)."""
        flow = self.flow
        for _ in range(times):
            if flow.take_back_offered is None or self.flow is not flow:
                return
            self.clock.t += 3.0
            self.back_twice()
            if flow.phase != DECIDE or not flow.choices_shown:
                return
            cursor = flow.cursor
            entries = flow.menu()
            if not (0 <= cursor < len(entries)) or entries[cursor].action not in ("option", "reroll") \
                    or not entries[cursor].enabled:
                return
            self.clock.t += 3.0
            self.press("OK")

    # ------------------------------------------------------------------------ invariants
    @invariant()
    def only_dice_read_or_set(self) -> None:
        """Every dice move since the last look: dice the camera read whole, dice shown or set by
        the players, or dice the table drew."""
        flow = self.flow
        if flow is None:
            self.known_inputs = 0
            return
        inputs = flow.log.inputs
        if flow is not self._flow_seen:
            # another game on the table, since the last look: a new one (nothing played, or only
            # dice the table drew) or one taken up on the menu, whose moves were played before
            self._flow_seen = flow
            self.known_inputs = len(inputs)
        start = min(self.known_inputs, len(inputs))
        if start < len(inputs):
            before = flow._log_before(start + 1)
            from controller.tablelog import replay
            state = replay(before)
            for data in inputs[start:]:
                exp = state.expects()
                if data.get("type") == "dice" and isinstance(exp, Throw) and not exp.drawn:
                    whole = sorted_values(list(exp.held) + list(data["values"]))
                    assert whole in self.seen_values, \
                        f"dice {whole} went into the game, neither read nor set (seen {sorted(self.seen_values)})"
                state = state.apply(data)
        self.known_inputs = len(inputs)

    @invariant()
    def the_tally_counts_throws(self) -> None:
        """The staff's tally never has more throws corrected than throws."""
        flow = self.flow
        if flow is not None:
            assert flow.tally.corrected <= flow.tally.throws, (flow.tally.corrected, flow.tally.throws)

    @invariant()
    def holds_only_where_allowed(self) -> None:
        flow = self.flow
        if flow is None or flow.phase != DECIDE or not any(flow.holds):
            return      # (holds kept aside while a late correction is made: not drawn, given back after)
        exp = flow.expect
        assert isinstance(exp, Decide) and exp.reroll is not None, f"dice held at {exp!r}"
        assert len(flow.holds) == len(flow.tray_values), (flow.holds, flow.tray_values)
        left = list(exp.reroll.dice)
        for v in flow.held_values:
            assert v in left, f"held {flow.held_values}, the player's dice are {exp.reroll.dice}"
            left.remove(v)


def todays_machine(set_name: str, panel: str, size: tuple[int, int]) -> type[TodaysPlayers]:
    return type(f"TodaysPlayers_{set_name}_{panel}_{size[0]}", (TodaysPlayers,),
                {"set_name": set_name, "panel": panel, "screen_size": size})


HUNT = int(os.environ.get("DICETABLE_FUZZ", "0"))
EXAMPLES, STEPS = (HUNT, 80) if HUNT else (20, 30)
CASES = ([("thirteen-names", "any", (800, 480)), ("classic-names", "three", (320, 240)),
          ("poknroll-names", "any", (320, 240))]
         + ([(name, "any", (800, 480)) for name in SETS] if HUNT else []))


@pytest.fixture(autouse=True)
def _sets(monkeypatch):
    import test_table_fuzz
    monkeypatch.setattr(test_table_fuzz, "SETS", TODAY_SETS)


@pytest.mark.parametrize("set_name,panel,size", CASES, ids=[f"{n}-{p}-{s[0]}" for n, p, s in CASES])
def test_todays_random_players(set_name, panel, size, _seeded_draws):
    run_state_machine_as_test(todays_machine(set_name, panel, size), settings=settings(
        max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None, derandomize=not HUNT,
        suppress_health_check=list(HealthCheck)))


@pytest.fixture
def _seeded_draws(monkeypatch):
    import controller.table as table_module
    from test_table_fuzz import seeded_draw
    monkeypatch.setattr(table_module, "draw", seeded_draw)
