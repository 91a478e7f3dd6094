"""The table flow's guards of trust, one behaviour a test: each of these was found missing by
mutation testing (the code could be broken there and every other test still passed).

A wrong value applied, a throw lost or a held die silently changed is the worst fault a dice
table can make: these tests script readings and presses as the players would (docs/table.md)
and check that the game is left exactly as it was whenever it should be."""
from __future__ import annotations

from dataclasses import replace

import pytest

from controller.rules import new_game
from controller.table import CONFIRM, CORRECT, DECIDE, OVER, WAIT_DICE, TableFlow
from controller.tablelog import TableLog
from table_helpers import Clock, Press
from test_table_flow import snap
from vision.types import Die, Problem, Reading


def die(i: int, value, confidence: float = 0.95, dx: int = 0) -> Die:
    x = 40 + 80 * i + dx
    return Die(value, (x, 40, x + 50, 90), (x + 25, 65), confidence)


def reading(values, problems=(), confidence=0.95) -> Reading:
    return Reading(tuple(die(i, v, confidence) for i, v in enumerate(values)), tuple(problems))


def make(game="thirteen", players=("Ann", "Bob"), options=None, **kw):
    clock = Clock()
    flow = TableFlow(new_game(game, list(players), options), TableLog(game, list(players), dict(options or {})),
                     clock=clock, **kw)
    return flow, clock


def settle_and_confirm(flow, clock, values):
    flow.on_reading(reading(values))
    assert flow.phase == CONFIRM, flow.message
    clock.t += 2.0
    flow.tick()


# ---------------------------------------------------------------- a reading that must not count
def test_a_die_read_with_a_value_but_hardly_sure_is_not_taken():
    """The reader may put a value on a die it is far from sure of: the table does not take that
    guess (`MIN_CONFIDENCE`), it names the die and waits, and a long OK starts the correction
    from the dice as read."""
    flow, clock = make()
    before = snap(flow)
    dice = list(reading([6, 6, 2, 3, 5]).dice)
    dice[2] = die(2, 2, confidence=0.3)
    flow.on_reading(Reading(tuple(dice)))
    assert flow.phase == WAIT_DICE and snap(flow) == before
    assert "I cannot read die 3 for sure" in flow.message.text
    clock.t += 10
    flow.tick()
    assert snap(flow) == before                         # nothing counts by itself
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT and flow.pending == [6, 6, 2, 3, 5]


@pytest.mark.parametrize("confidence, taken", [(0.5, True), (0.499, False)])
def test_a_die_exactly_half_sure_is_the_least_the_table_takes(confidence, taken):
    """`MIN_CONFIDENCE` is a floor the table takes (0.5 included): the reader gives a value
    that sure only when its classical face stage reads the same value on its own, and the
    table outlines such a die for the players to check. Just under it, the die is asked for."""
    flow, _clock = make()
    before = snap(flow)
    dice = list(reading([6, 6, 2, 3, 5]).dice)
    dice[2] = die(2, 2, confidence=confidence)
    flow.on_reading(Reading(tuple(dice)))
    if taken:
        assert flow.phase == CONFIRM and flow.pending == [6, 6, 2, 3, 5]
    else:
        assert flow.phase == WAIT_DICE and snap(flow) == before
        assert "I cannot read die 3 for sure" in flow.message.text


@pytest.mark.parametrize("code, said", [
    ("die_leaning", "A die is leaning (cocked), its top face unclear: throw again, or hold OK"),
    ("foreign_object", "something that is not a die is in the tray: take it out"),
    ("partly_out_of_view", "A die is partly out of the camera's view: throw again, or hold OK"),
    ("blurred", "The camera's picture is blurred: keep the table still"),
    ("too_dark", "Too dark to see the dice: is the light over the tray on?"),
])
def test_a_tray_with_a_blocking_problem_is_not_taken_even_with_every_die_read(code, said):
    """docs/table.md: a leaning die, a die partly out of view, something that is not a die in
    the tray: "throw again, or hold OK to enter the values by hand". Every die having a value
    does not make such a tray a throw. What is said is in the players' words (controller/tray_words.py),
    not the reader's ("frame too dark (98th percentile 17)")."""
    flow, clock = make()
    before = snap(flow)
    flow.on_reading(reading([6, 6, 2, 3, 5], problems=[Problem(code, "the reader's own words")]))
    assert flow.phase == WAIT_DICE and snap(flow) == before
    assert flow.message.level == "warning" and said in flow.message.text
    assert "reader's own words" not in flow.message.text
    clock.t += 10
    flow.tick()
    assert snap(flow) == before


def test_the_camera_does_not_overrule_players_correcting_by_hand():
    """While the players correct a die with the buttons, a new still reading of the tray (the
    same misread) must not replace what they are entering."""
    flow, clock = make()
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    flow.on_button(Press("OK", "hold"))                 # correct: die 3 is really a 1
    flow.on_button(Press("HOLD3"))
    flow.on_button(Press("DOWN"))
    assert flow.pending == [6, 6, 1, 3, 5]
    flow.on_reading(reading([6, 6, 2, 3, 5]))           # the camera reads the tray again
    clock.t += 10
    flow.tick()
    assert flow.phase == CORRECT and flow.pending == [6, 6, 1, 3, 5] and flow.log.inputs == []
    flow.on_button(Press("OK", "hold"))
    assert flow.log.inputs[-1]["values"] == [6, 6, 1, 3, 5]


def test_a_newer_tray_that_does_not_fit_drops_the_reading_being_shown():
    """A newer still tray replaces the one being shown: if the dice are picked up or one falls
    off the tray while "Read: ..." is on screen, that reading must not count a moment later."""
    flow, clock = make()
    before = snap(flow)
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    assert flow.phase == CONFIRM
    flow.on_reading(reading([6, 6, 2, 3]))             # a die went off the tray
    assert flow.phase == WAIT_DICE and "I see 4 dice" in flow.message.text
    clock.t += 10
    flow.tick()
    assert flow.phase == WAIT_DICE and snap(flow) == before


# ------------------------------------------------------------ dice slid or turned, not thrown
def moved(values, dx: int = 0, confidence: float = 0.95) -> Reading:
    """The tray after a slide: the same places shifted by `dx` px (a die pushed, the others kept)."""
    return Reading(tuple(die(i, v, confidence, dx=dx) for i, v in enumerate(values)))


def test_a_die_turned_while_the_reading_is_shown_replaces_the_reading_shown():
    """The reading is on screen for a moment before it counts; a die turned in that moment (the
    tracker reports it moved and changed) is read again: the dice that count are the ones on
    the tray, not the ones first shown."""
    flow, clock = make()
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    assert flow.phase == CONFIRM
    flow.on_dice_moved(moved([6, 6, 4, 3, 5]), changed=[2])
    assert flow.phase == CONFIRM and flow.pending == [6, 6, 4, 3, 5]
    clock.t += 10
    flow.tick()
    assert flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 6, 4, 3, 5]}]


def test_a_die_turned_during_a_decision_is_refused_and_the_game_keeps_its_dice():
    """While a player decides, a die turned over is not a new value: the game keeps the dice it
    applied, says to put the die back, and nothing changes (docs/table.md: the game never
    guesses, a held die is never silently changed)."""
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    flow.on_button(Press("HOLD1"))
    flow.on_button(Press("HOLD2"))
    before = snap(flow)
    flow.on_dice_moved(moved([6, 6, 4, 3, 5]), changed=[2])
    assert flow.tray_values == [6, 6, 2, 3, 5] and flow.holds == [True, True, False, False, False]
    assert snap(flow) == before
    assert flow.message.level == "warning" and "Die 3 was turned over" in flow.message.text


def test_dice_slid_during_a_decision_move_with_the_tray_and_their_holds_follow_them():
    """A slide keeps the values but may change the dice's order left to right: the hold marks
    must follow the dice held (the two 6s), not stay on the places that now hold other dice;
    the dice on screen follow the tray."""
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    flow.on_button(Press("HOLD1"))
    flow.on_button(Press("HOLD2"))
    before = snap(flow)
    slid = Reading((die(0, 2), die(1, 6), die(2, 6), die(3, 3), die(4, 5)))   # the 2 pushed to the left
    flow.on_dice_moved(slid, changed=[])
    assert snap(flow) == before
    assert flow.tray_values == [2, 6, 6, 3, 5] and flow.tray_boxes == [d.box for d in slid.dice]
    assert flow.holds == [False, True, True, False, False]
    assert flow.message.text == "Dice moved: the dice held stay held."


# --------------------------------------------------------------- journaled before it counts
class FlakyJournal:
    """A journal whose storage breaks once with an error the table does not expect (not a full
    card: a driver fault), as a power cut at that moment would leave it: nothing written."""

    def __init__(self):
        self.lines: list = []
        self.fail_next = False

    def _write(self, line):
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("the storage driver failed")
        self.lines.append(line)

    def append(self, data):
        self._write(data)

    def take_back(self):
        self._write({"undo": True})


def replayed(journal: FlakyJournal) -> list:
    out: list = []
    for line in journal.lines:
        if line == {"undo": True}:
            out.pop()
        else:
            out.append(line)
    return out


def test_a_move_that_could_not_be_journaled_never_counts():
    """The move is journaled before it counts: when the journal write fails (the runner turns
    the error into a message), the game is as it was and the journal and the game agree; the
    next OK applies it, journaled."""
    from controller.runner import TableRunner
    from vision.settle import SettleTracker

    journal = FlakyJournal()
    flow, clock = make(on_apply=journal.append, on_take_back=journal.take_back)
    runner = TableRunner(flow, SettleTracker(), read=lambda frame: Reading(()))
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    before = snap(flow)
    journal.fail_next = True
    runner.feed_button(Press("OK"))
    assert snap(flow) == before and flow.log.inputs == replayed(journal) == []
    assert flow.message.level == "error"
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    runner.feed_button(Press("OK"))
    assert flow.log.inputs == replayed(journal) == [{"type": "dice", "player": 0, "values": [6, 6, 2, 3, 5]}]


def test_a_take_back_that_could_not_be_journaled_is_not_taken_back():
    """Taking a choice back is journaled before the game goes back: if that write fails, the
    choice stands, as the journal says (a resume would replay it)."""
    from controller.runner import TableRunner
    from vision.settle import SettleTracker

    journal = FlakyJournal()
    flow, clock = make(on_apply=journal.append, on_take_back=journal.take_back)
    runner = TableRunner(flow, SettleTracker(), read=lambda frame: Reading(()))
    settle_and_confirm(flow, clock, [6, 6, 6, 3, 3])
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == "THREES")
    flow.on_button(Press("OK"))
    chosen = snap(flow)
    runner.feed_button(Press("BACK"))
    journal.fail_next = True
    runner.feed_button(Press("BACK"))
    assert snap(flow) == chosen and flow.log.inputs == replayed(journal)
    assert flow.log.inputs[-1] == {"type": "choose", "player": 0, "option": "THREES"}


# ------------------------------------------------------------------ whose dice are decided on
def test_after_one_players_throw_the_next_decides_on_their_own_dice_not_the_tray():
    """Betting Classic: after the bets Ann throws two dice again, and at once Cy decides what to
    throw again from *his* recorded dice, while the tray shows Ann's. Cy's HOLD buttons number
    his dice, nothing on the tray is marked as his, and what he keeps is his."""
    flow, clock = make("classic", ("Ann", "Bob", "Cy"), {"variant": "betting"})
    for values in ([5, 5, 5, 1, 2], [4, 4, 3, 2, 1], [6, 5, 3, 2, 1]):
        flow.on_tray_empty()                  # each picks the dice up (else 3 2 1 lying where
        settle_and_confirm(flow, clock, values)   # Bob's lay are his dice, only moved)

    def choose(label):
        flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.label.startswith(label))
        flow.on_button(Press("OK"))

    for label in ("Bet 2", "Call", "Raise to 4", "Call", "Fold"):
        choose(label)
    for i in (1, 2, 3):
        flow.on_button(Press(f"HOLD{i}"))
    choose("Throw 2")
    settle_and_confirm(flow, clock, [5, 5, 5, 3, 4])               # Ann's throw, on the tray
    assert flow.expect.player == 2 and flow.phase == DECIDE
    assert sorted(flow.tray_values) == [1, 2, 3, 5, 6]
    tray = flow.view().tray                 # his recorded dice drawn and numbered, not Ann's tray
    assert tray.caption.startswith("Cy's throw, as recorded") and len(tray.dice) == 5
    ace = flow.tray_values.index(6)
    flow.on_button(Press(f"HOLD{ace + 1}"))
    choose("Throw 4")
    assert flow.log.inputs[-1] == {"type": "reroll", "player": 2, "keep": [6]}


# ------------------------------------------------------------- what BACK and ABANDON may undo
def test_a_secret_card_is_not_taken_back_from_the_next_players_public_menu():
    """docs/table.md: taking a choice back is not offered for a secret choice (anyone could
    press BACK, and only its player knows whether it was a slip), on whichever menu comes next."""
    flow, clock = make(game="objective-cards", players=("Ann", "Bob"))
    settle_and_confirm(flow, clock, [3, 3, 3, 5, 5])
    for _ in range(2):                                  # Ann's then Bob's secret card
        flow.on_button(Press("OK"))
        flow.on_button(Press("OK"))
    assert not flow.expect.secret and flow.phase == DECIDE     # Ann's public stop-or-throw-again
    before = snap(flow)
    assert "undo" not in flow.view().prompt.hint
    for _ in range(2):
        flow.on_button(Press("BACK"))
        assert snap(flow) == before and flow.log.inputs[-1]["player"] == 1


def test_abandon_at_the_final_standings_does_not_turn_a_finished_game_into_an_abandoned_one():
    """ABANDON ends a game being played; a game over has its winner, whatever is pressed."""
    flow, clock = make(players=("Ann",))
    while flow.phase != OVER:
        flow.on_tray_empty()                  # the dice picked up and thrown, the same each time
        settle_and_confirm(flow, clock, [1, 2, 3, 4, 6])
        flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.action == "option")
        flow.on_button(Press("OK"))
    for _ in range(2):
        flow.on_button(Press("ABANDON"))
    assert not flow.abandoned
    view = flow.view()
    assert view.title != "Game abandoned" and any(s.winner for s in view.standings)


# ------------------------------------------------------------------- the moment to look again
def test_a_reading_counts_by_itself_only_after_a_second_and_a_half():
    """docs/table.md: the reading shown is accepted by itself after about a second and a half:
    a second after it appears the players can still drop it with BACK."""
    flow, clock = make()
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    clock.t += 1.0
    flow.tick()
    assert flow.phase == CONFIRM and flow.log.inputs == []
    flow.on_button(Press("BACK"))
    assert flow.phase == WAIT_DICE and flow.log.inputs == []
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    clock.t += 1.5
    flow.tick()
    assert flow.phase == DECIDE and len(flow.log.inputs) == 1


def test_after_a_late_correction_the_next_correction_cancelled_applies_nothing():
    """BACK while correcting leaves late-corrected dice "as they were read", but only those: the
    next player's reading corrected and then cancelled must not bring the earlier dice back."""
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    flow.on_button(Press("OK", "hold"))                 # late correction of Ann's dice
    flow.on_button(Press("HOLD5"))
    flow.on_button(Press("UP"))
    flow.on_button(Press("OK", "hold"))
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == "SIXES")
    flow.on_button(Press("OK"))
    assert flow.expect.player == 1
    before = snap(flow)
    flow.on_reading(reading([1, 2, 3, 4, 5]))           # Bob's throw, shown
    flow.on_button(Press("OK", "hold"))                 # corrected, then cancelled: Bob's dice as read
    flow.on_button(Press("BACK"))
    assert flow.phase == CONFIRM and flow.pending == [1, 2, 3, 4, 5] and snap(flow) == before
    flow.on_button(Press("BACK"))                       # and dropped: throw again
    assert flow.phase == WAIT_DICE and snap(flow) == before
    assert flow.message.text == "Reading dropped: throw again."



def test_players_correcting_take_their_time():
    """While correcting, nothing counts by itself: the values count when the players accept
    them (OK on the last die, or a long OK)."""
    flow, clock = make()
    flow.on_reading(reading([6, 6, None, 3, 5]))
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT
    clock.t += 60
    flow.tick()
    assert flow.phase == CORRECT and flow.log.inputs == []
    flow.on_button(Press("HOLD3"))
    flow.on_button(Press("UP"))                                  # (an unread die starts at 1)
    flow.on_button(Press("OK", "hold"))
    assert flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 6, 2, 3, 5]}]


def test_dice_read_in_a_lamps_glare_are_checked_however_sure_and_named():
    """A die the reader saw in a glare is outlined to check and the reading waits check_seconds,
    even read 0.995 sure; several are named together. Nothing is applied before that time."""
    flow, clock = make(check_seconds=4.0)
    before = snap(flow)
    dice = [replace(die(i, v, 0.995), problems=("glare",) if i in (0, 1, 4) else ())
            for i, v in enumerate([6, 6, 2, 3, 5])]
    flow.on_reading(Reading(tuple(dice), (Problem("glare", "glare on a die face", dice[0].box),)))
    assert flow.phase == CONFIRM and flow.pending_check == [0, 1, 4]
    assert "Dice 1, 2 and 5 are in the lamp's glare: check their values." == flow.message.text
    clock.t += 2.0
    flow.tick()
    assert flow.phase == CONFIRM and snap(flow) == before
    clock.t += 2.5
    flow.tick()
    assert flow.phase == DECIDE and flow.log.inputs[-1]["values"] == [6, 6, 2, 3, 5]


def test_dice_read_unsurely_in_a_lamps_glare_wait_for_the_players_ok():
    """Read 0.95 sure in the glare (which hides pips: a 6 is read 3): never taken by itself, the
    dice named; OK takes the reading as it is."""
    flow, clock = make(check_seconds=4.0)
    before = snap(flow)
    dice = [replace(die(i, v), problems=("glare",) if i in (1, 4) else ()) for i, v in enumerate([6, 6, 2, 3, 5])]
    flow.on_reading(Reading(tuple(dice), (Problem("glare", "glare on a die face", dice[1].box),)))
    assert flow.phase == CONFIRM and flow.pending_check == [1, 4] and flow.waits_for_ok
    assert flow.message.text == "Dice 2 and 5 are in the lamp's glare: check them, then OK."
    clock.t += 3600
    flow.on_tray_disturbed()
    flow.tick()
    assert flow.phase == CONFIRM and snap(flow) == before
    flow.on_button(Press("OK"))
    assert flow.phase == DECIDE and flow.log.inputs[-1]["values"] == [6, 6, 2, 3, 5]


def test_a_die_on_its_edge_is_named_by_its_number_and_a_throw_again_asked():
    """A die the reader found on its edge (unread, leaning): "Die 2 is leaning (cocked)", not the
    reader's "die leaning: top face unclear", nor "I cannot read die 2" (which hides why)."""
    flow, clock = make()
    before = snap(flow)
    dice = [die(i, v) for i, v in enumerate([6, None, 2, 3, 5])]
    dice[1] = replace(dice[1], confidence=0.0, problems=("die_leaning", "unsure_value"))
    flow.on_reading(Reading(tuple(dice), (Problem("die_leaning", "die leaning: top face unclear", dice[1].box),
                                          Problem("unsure_value", "die found but value unsure", dice[1].box))))
    assert flow.phase == WAIT_DICE and snap(flow) == before
    assert flow.message.text == ("Die 2 is leaning (cocked), its top face unclear: throw again, "
                                 "or hold OK to enter the values.")
