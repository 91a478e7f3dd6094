"""The table flow with real rules and hand-built readings: good input moves the game on, bad
input of every kind is explained and leaves the game exactly as it was."""
from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from controller.journal import Journal
from controller.rules import new_game
from controller.rules.base import choose_input, dice_input, reroll_input
from controller.table import CONFIRM, CORRECT, DECIDE, OVER, WAIT_DICE, TableFlow
from controller.tablelog import TableLog, replay
from table_helpers import Clock, Press
from vision.types import Die, Problem, Reading


_THROWS = itertools.count()


def reading(values, problems=(), confidence=0.95) -> Reading:
    """The dice in a row, a row lower at each call: dice thrown anew lie elsewhere (a tray whose
    dice lie just where the last accepted ones did was not thrown, and is not taken again)."""
    y = 40 + 60 * (next(_THROWS) % 5)
    dice = tuple(Die(v, (40 + 80 * i, y, 90 + 80 * i, y + 50), (65 + 80 * i, y + 25), confidence)
                 for i, v in enumerate(values))
    return Reading(dice, tuple(problems))


def make(game="thirteen", players=("Ann", "Bob"), options=None, tmp_path=None):
    state = new_game(game, list(players), options)
    log = TableLog(game, list(players), dict(options or {}))
    clock = Clock()
    journal = Journal(tmp_path / "journal.jsonl", log) if tmp_path else None
    flow = TableFlow(state, log, clock=clock, on_apply=journal.append if journal else None,
                     on_take_back=journal.take_back if journal else None)
    return flow, clock


def snap(flow):
    return json.dumps(flow.state.snapshot(), sort_keys=True), len(flow.log.inputs)


def settle_and_confirm(flow, clock, values):
    flow.on_reading(reading(values))
    assert flow.phase == CONFIRM, flow.message
    clock.t += 2.0
    flow.tick()


def test_a_fitting_reading_is_confirmed_then_applied(tmp_path):
    flow, clock = make(tmp_path=tmp_path)
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    assert flow.phase == CONFIRM
    assert flow.log.inputs == []            # not yet: players can still correct it
    clock.t += 2.0
    flow.tick()
    assert flow.phase == DECIDE
    assert flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 6, 2, 3, 5]}]
    # the journal has the header and the input; it replays to the same game
    assert Journal.load(tmp_path / "journal.jsonl").inputs == flow.log.inputs


def test_ok_accepts_the_reading_at_once():
    flow, clock = make()
    flow.on_reading(reading([1, 2, 3, 4, 5]))
    flow.on_button(Press("OK"))
    assert flow.phase == DECIDE and len(flow.log.inputs) == 1


@pytest.mark.parametrize("values", [[6, 6, 2, 3], [6, 6, 2, 3, 5, 1], []])
def test_wrong_number_of_dice_is_explained_and_changes_nothing(values):
    flow, clock = make()
    before = snap(flow)
    flow.on_reading(reading(values))
    assert flow.phase == WAIT_DICE
    assert flow.message and f"I see {len(values)} dice" in flow.message.text and "needs 5" in flow.message.text
    assert snap(flow) == before
    assert flow.view().message.level == "warning"


def test_unreadable_frame_is_explained_and_changes_nothing():
    flow, clock = make()
    before = snap(flow)
    flow.on_reading(Reading((), (Problem("bad_frame", "The camera image could not be read"),)))
    assert flow.phase == WAIT_DICE and snap(flow) == before
    flow.on_reading(reading([6, 6, None, 3, 5]))
    assert flow.phase == WAIT_DICE and snap(flow) == before
    assert "die 3" in flow.message.text


@pytest.mark.parametrize("notice", [
    Problem("camera_moved", "the tray is not where it was calibrated (its felt reaches past the left "
                            "side): run dicetable calibrate again"),
    Problem("calibration_size", "the calibration was taken on 1280x960 frames and the camera sends "
                                "1920x1080, another view: run dicetable calibrate again"),
    Problem("die_size", "the dice are bigger than the ones calibrated (81 px, calibrated 55 px): run dicetable "
                        "calibrate again with the dice played"),
])
def test_a_moved_camera_is_told_and_the_throw_still_counts(notice):
    """The reader read the whole view because the tray is not where it was calibrated (or the
    calibration is of another view): the players' throw is taken as it is, and the screen and
    the log say to calibrate again."""
    flow, clock = make()
    flow.on_reading(reading([6, 6, 2, 3, 5], problems=[notice]))
    assert flow.phase == CONFIRM
    assert flow.message.level == "warning" and "calibrate again" in flow.message.text
    # (for whom it is, and that the players carry on: it read as a problem of theirs)
    assert flow.message.text.startswith("For the staff: ") and flow.message.text.endswith("The game goes on.")


def test_a_doubtful_die_can_be_corrected_with_a_long_ok():
    flow, clock = make()
    flow.on_reading(reading([6, 6, None, 3, 5]))
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT and flow.correct_index == 2          # on the die not read
    for name in ("UP", "UP", "UP", "OK", "OK", "OK"):               # die 3: 1 -> 4
        flow.on_button(Press(name))
    assert flow.log.inputs[-1]["values"] == [6, 6, 4, 3, 5]
    assert flow.phase == DECIDE


def test_a_misread_die_is_corrected_during_confirmation():
    flow, clock = make()
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT
    flow.on_button(Press("HOLD3"))
    flow.on_button(Press("DOWN"))                # 2 -> 1
    flow.on_button(Press("OK", "hold"))          # accept all now
    assert flow.log.inputs[-1]["values"] == [6, 6, 1, 3, 5]


def test_back_drops_the_reading():
    flow, clock = make()
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    flow.on_button(Press("BACK"))
    assert flow.phase == WAIT_DICE and flow.log.inputs == []


def hold_and_rethrow(flow, positions):
    for p in positions:
        flow.on_button(Press(f"HOLD{p}"))
    entries = flow.menu()
    flow.cursor = next(i for i, e in enumerate(entries) if e.action == "reroll")
    flow.on_button(Press("OK"))


def test_hold_and_rethrow_then_a_held_die_that_changed_is_refused():
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    hold_and_rethrow(flow, [1, 2])
    assert flow.log.inputs[-1] == {"type": "reroll", "player": 0, "keep": [6, 6]}
    assert flow.phase == WAIT_DICE
    before = snap(flow)
    flow.on_reading(reading([6, 5, 1, 1, 4]))          # one held six became a five
    assert flow.phase == WAIT_DICE and snap(flow) == before
    assert "held die changed" in flow.message.text
    settle_and_confirm(flow, clock, [6, 1, 6, 1, 4])   # the held sixes are still there
    assert flow.log.inputs[-1] == {"type": "dice", "player": 0, "values": [1, 1, 4]}


def test_a_press_when_nothing_is_expected_is_explained():
    flow, clock = make()
    before = snap(flow)
    for name in ("OK", "UP", "HOLD2", "BACK"):
        flow.on_button(Press(name))
        assert snap(flow) == before
    assert "does nothing now" in flow.message.text


def test_reading_while_a_decision_is_pending_is_not_applied():
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    before = snap(flow)
    flow.on_reading(reading([1, 1, 1, 1, 1]))
    assert snap(flow) == before and flow.phase == DECIDE
    assert "decide first" in flow.message.text


def test_three_button_panel_scores_with_up_down_ok_only():
    flow, clock = make(players=("Ann",))
    settle_and_confirm(flow, clock, [2, 3, 4, 5, 6])
    entries = flow.menu()
    target = next(i for i, e in enumerate(entries) if e.key == "STRAIGHTS")
    while flow.cursor != target:
        flow.on_button(Press("DOWN"))
    flow.on_button(Press("OK"))
    assert flow.log.inputs[-1] == {"type": "choose", "player": 0, "option": "STRAIGHTS"}
    # and holding dice through the menu alone
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    entries = flow.menu()
    die1 = next(i for i, e in enumerate(entries) if e.action == "die" and e.index == 0)
    while flow.cursor != die1:
        flow.on_button(Press("UP"))
    flow.on_button(Press("OK"))
    assert flow.holds[0]
    reroll = next(i for i, e in enumerate(flow.menu()) if e.action == "reroll")
    while flow.cursor != reroll:
        flow.on_button(Press("DOWN"))
    flow.on_button(Press("OK"))
    assert flow.log.inputs[-1] == {"type": "reroll", "player": 0, "keep": [6]}


def test_abandon_needs_a_second_press_and_keeps_the_log():
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    flow.on_button(Press("ABANDON"))
    assert flow.phase != OVER and "again" in flow.message.text
    clock.t += 10
    flow.on_button(Press("ABANDON"))
    assert flow.phase != OVER                           # too late: armed again instead
    flow.on_button(Press("ABANDON"))
    assert flow.phase == OVER and flow.abandoned
    assert flow.view().mode == "final"
    assert replay(flow.log).snapshot() == flow.state.snapshot()


def test_an_abandoned_games_scores_so_far_show_no_previews_as_scores():
    """Abandoned at a decision, the sheet under 'the scores so far' still showed what each box
    would have scored with the last dice, drawn like scores, in the player's lit column."""
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 6, 3, 3])
    kinds = {c["kind"] for t in flow.view().sheet["tables"] for r in t["rows"] for c in r["cells"]}
    assert "preview" in kinds
    flow.on_button(Press("ABANDON"))
    flow.on_button(Press("ABANDON"))
    sheet = flow.view().sheet
    kinds = {c["kind"] for t in sheet["tables"] for r in t["rows"] for c in r["cells"]}
    assert flow.abandoned and "preview" not in kinds
    assert all(t["active_column"] is None for t in sheet["tables"])
    assert sheet["tables"][0]["rows"][-1]["cells"][0]["text"] == "0"       # (the totals stay)


def test_view_names_the_player_and_shows_previews():
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 6, 3, 3])
    view = flow.view()
    assert view.mode == "play"
    assert view.prompt.player == "Ann" and "Ann" in view.prompt.text
    assert any(o.points == 40 for o in view.prompt.options)     # full house after throw 1: 30 + 10
    kinds = {c["kind"] for t in view.sheet["tables"] for r in t["rows"] for c in r["cells"]}
    assert "preview" in kinds


def test_round_results_are_announced():
    flow, clock = make(game="classic", players=("Ann", "Bob"))
    settle_and_confirm(flow, clock, [6, 6, 6, 6, 6])
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == "STAND")
    flow.on_button(Press("OK"))
    settle_and_confirm(flow, clock, [1, 2, 3, 4, 6])
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == "STAND")
    flow.on_button(Press("OK"))
    assert flow.message is not None and "Ann wins" in flow.message.text


def test_a_secret_choice_stays_hidden_on_the_shared_screen_until_its_player_opens_it():
    flow, clock = make(game="objective-cards", players=("Ann", "Bob"))
    settle_and_confirm(flow, clock, [3, 3, 3, 5, 5])
    assert flow.expect.secret and flow.expect.player == 0
    gate = flow.view().prompt
    assert gate.options == () and "secret" in gate.text and "look away" in gate.text
    assert "OK" in gate.hint
    before, cursor = snap(flow), flow.cursor
    for name in ("DOWN", "UP", "HOLD1", "BACK"):
        flow.on_button(Press(name))
        assert flow.cursor == cursor and snap(flow) == before and flow.view().prompt.options == ()
        assert "secret" in flow.message.text and "Ann presses OK" in flow.message.text
    flow.on_button(Press("OK"))                       # Ann opens her menu: nothing chosen yet
    assert flow.message is None                       # (the reminder gives the menu its room)
    shown = flow.view().prompt
    assert len(shown.options) == len(flow.expect.options) and sum(o.selected for o in shown.options) == 1
    assert snap(flow) == before and "BACK hides" in shown.hint
    flow.on_button(Press("BACK"))                     # someone peeks: hidden again
    assert flow.view().prompt.options == () and snap(flow) == before
    flow.on_button(Press("OK"))
    target = next(i for i, e in enumerate(flow.menu()) if e.key == "FULL_HOUSE")
    while flow.cursor != target:
        flow.on_button(Press("DOWN"))
    flow.on_button(Press("OK"))
    assert flow.log.inputs[-1] == {"type": "choose", "player": 0, "option": "FULL_HOUSE"}
    # the table confirms without naming the card, and Bob's choice is behind its own gate
    assert flow.message.text == "Ann has chosen (kept secret)."
    assert "Full house" not in flow.message.text
    assert flow.expect.player == 1 and flow.expect.secret and flow.view().prompt.options == ()


def test_a_public_decision_shows_its_menu_at_once():
    flow, clock = make(game="objective-cards", players=("Ann", "Bob"))
    settle_and_confirm(flow, clock, [3, 3, 3, 5, 5])
    for _ in range(2):                                  # both commit their cards
        flow.on_button(Press("OK"))
        flow.on_button(Press("OK"))
    exp = flow.expect                                   # Ann's stop-or-throw-again: public
    assert not exp.secret and flow.view().prompt.options


def test_simultaneous_abandon_decisions_are_kept_secret_one_player_after_another():
    flow, clock = make(game="poknroll", players=("Ann", "Bob", "Cy"))
    settle_and_confirm(flow, clock, [6, 1, 1])
    for seat, key in ((0, "ABANDON"), (1, "CONTINUE")):
        assert flow.expect.player == seat and flow.expect.secret
        assert flow.view().prompt.options == ()
        flow.on_button(Press("OK"))
        flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == key)
        flow.on_button(Press("OK"))
        assert flow.log.inputs[-1] == {"type": "choose", "player": seat, "option": key}
    assert flow.expect.player == 2 and flow.view().prompt.options == ()


def play_steps(flow, clock, *steps):
    """Dice (a list: the new values; the held dice are on the tray too) or a choice (a key),
    through the table's real paths: readings and button presses."""
    for step in steps:
        exp = flow.expect
        if isinstance(step, list):
            settle_and_confirm(flow, clock, list(exp.held) + step)
        else:
            if not flow.choices_shown:
                flow.on_button(Press("OK"))
            flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == step)
            flow.on_button(Press("OK"))


def test_dice_the_players_leave_to_the_table_are_drawn_by_it_and_journaled(tmp_path):
    import random

    game, players, options = "poknroll", ["Ann", "Bob", "Cy"], {"imaginary_dice_source": "engine_rng"}
    log = TableLog(game, players, options)
    flow = TableFlow(new_game(game, players, options), log, clock=(clock := Clock()), rng=random.Random(7))
    play_steps(flow, clock, [5, 5, 2], "CONTINUE", "CONTINUE", "ABANDON", [6, 6], [2], "CONTINUE", "CONTINUE",
               [1], [3, 1], [4, 6])
    # the imaginary cup was not waited for: the table drew it, said so, and the next hand began
    drawn = log.inputs[-1]
    assert drawn["player"] is None and len(drawn["values"]) == 2 and all(1 <= v <= 6 for v in drawn["values"])
    assert "The table drew the imaginary player's dice" in flow.message.text
    assert flow.state.hand == 2 and flow.phase == WAIT_DICE and flow.expect.purpose == "white"
    assert replay(log).snapshot() == flow.state.snapshot()       # resume replays the same draw



def test_a_long_ok_after_the_last_cup_does_not_take_back_the_table_s_draw(tmp_path):
    """The last cup read, the table drew the imaginary cup at once. A long OK offered to correct
    that cup took back the draw instead (the last input), drew the imaginary cup again (a second
    chance at it) and journaled the cup twice: a journal no resume could replay to the end."""
    import random

    from controller.journal import recover

    game, players, options = "poknroll", ["Ann", "Bob", "Cy"], {"imaginary_dice_source": "engine_rng"}
    flow, clock = make(game, players, options, tmp_path=tmp_path)
    flow.rng = random.Random(7)
    play_steps(flow, clock, [5, 5, 2], "CONTINUE", "CONTINUE", "ABANDON", [6, 6], [2], "CONTINUE", "CONTINUE",
               [1], [3, 1], [4, 6])
    drawn = flow.log.inputs[-1]
    assert drawn["player"] is None
    assert flow.correction_offered is None and "correct" not in flow.view().prompt.hint
    flow.on_button(Press("OK", "hold"))           # enters the next hand's white dice, nothing else
    flow.on_button(Press("OK", "hold"))
    found = recover(tmp_path / "journal.jsonl")
    assert found.damage is None and found.log.inputs[11] == drawn and found.log.inputs == flow.log.inputs

def test_the_imaginary_cup_on_the_table_is_read_by_the_camera():
    game, players = "poknroll", ["Ann", "Bob", "Cy"]
    flow, clock = make(game=game, players=players)
    play_steps(flow, clock, [5, 5, 2], "CONTINUE", "CONTINUE", "ABANDON", [6, 6], [2], "CONTINUE", "CONTINUE",
               [1], [3, 1], [4, 6])
    assert flow.phase == WAIT_DICE and flow.expect.purpose == "imaginary" and not flow.expect.drawn
    play_steps(flow, clock, [5, 2])
    assert flow.log.inputs[-1] == {"type": "dice", "player": None, "values": [5, 2]}


def test_keeping_every_die_is_shown_greyed_where_the_rules_want_a_throw():
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    assert flow.view().prompt.options[0].enabled            # "Throw 5 again"
    for i in range(1, 6):
        flow.on_button(Press(f"HOLD{i}"))
    first = flow.view().prompt.options[0]
    assert first.label == "Keep all" and not first.enabled
    before = snap(flow)
    flow.cursor = 0
    flow.on_button(Press("OK"))                              # still explained, nothing changes
    assert snap(flow) == before and "at least 1" in flow.message.text


def test_a_players_second_secret_card_follows_on_the_menu_they_opened_and_no_other():
    flow, clock = make(game="objective-cards", players=("Ann", "Bob"), options={"two_player_strategic_variant": True})
    for _round in range(2):
        settle_and_confirm(flow, clock, [3, 3, 3, 5, 5])
        active = flow.expect.player
        for seat in (active, 1 - active):
            n = len(flow.log.inputs)
            assert flow.expect.player == seat and flow.view().prompt.options == ()   # a gate for each player
            flow.on_button(Press("OK"))
            flow.on_button(Press("OK"))                                            # first card
            assert flow.expect.player == seat and flow.expect.secret
            assert flow.view().prompt.options                                      # the second: no new gate
            flow.on_button(Press("OK"))
            assert len(flow.log.inputs) == n + 2
        assert not flow.expect.secret and flow.expect.player == active             # public: stop or throw
        flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == "STOP")
        flow.on_button(Press("OK"))
    # (the throw between the rounds closed the last open menu: round 2 began behind a gate again)


def test_a_game_of_card_faces_tells_the_players_how_pip_dice_count():
    flow, clock = make(game="classic", players=("Ann", "Bob"))
    assert flow.view().prompt.text.endswith(". Pips count as 1=9 2=10 3=J 4=Q 5=K 6=A")
    reversed_faces = {"face_mapping": ["A", "K", "Q", "J", "10", "9"]}
    flow, clock = make(game="classic", players=("Ann", "Bob"), options=reversed_faces)
    assert flow.view().prompt.text.endswith(". Pips count as 1=A 2=K 3=Q 4=J 5=10 6=9")
    flow, clock = make()
    assert "Pips" not in flow.view().prompt.text


def test_a_game_resumed_where_the_table_must_draw_draws_at_once(tmp_path):
    import random

    from controller.rules.base import choose_input, dice_input

    game, players, options = "poknroll", ["Ann", "Bob", "Cy"], {"imaginary_dice_source": "engine_rng"}
    state = new_game(game, players, options)
    log = TableLog(game, players, options)
    # the journal of a hand cut off by a power cut just before the imaginary cup was drawn
    for step in ([5, 5, 2], "CONTINUE", "CONTINUE", "ABANDON", [6, 6], [2], "CONTINUE", "CONTINUE", [1], [3, 1],
                 [4, 6]):
        exp = state.expects()
        data = dice_input(exp.player, step) if isinstance(step, list) else choose_input(exp.player, step)
        state = state.apply(data)
        log.inputs.append(data)
    assert state.expects().drawn
    journal = Journal(tmp_path / "journal.jsonl", log)
    flow = TableFlow(state, log, clock=Clock(), on_apply=journal.append, rng=random.Random(1))
    assert flow.log.inputs[-1]["player"] is None and flow.state.hand == 2
    assert Journal.load(tmp_path / "journal.jsonl").inputs[-1] == flow.log.inputs[-1]


# ----------------------------------------------------------------------- taking a choice back

def score(flow, key):
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == key)
    flow.on_button(Press("OK"))


def test_a_box_scored_by_mistake_is_taken_back_with_back_twice(tmp_path):
    flow, clock = make(tmp_path=tmp_path)
    settle_and_confirm(flow, clock, [6, 6, 6, 3, 3])
    before = snap(flow)
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == "THREES")   # meant FULL_HOUSE
    cursor = flow.cursor
    flow.on_button(Press("OK"))
    assert flow.log.inputs[-1]["option"] == "THREES" and flow.phase == WAIT_DICE
    assert "BACK twice: undo Ann's choice" in flow.view().prompt.hint
    flow.on_button(Press("BACK"))                      # one press only asks
    assert len(flow.log.inputs) == 2 and flow.phase == WAIT_DICE
    assert flow.message.text == "Press BACK again within 5 seconds to take back Ann's choice (Threes, 6 points)."
    clock.t += 6
    flow.on_button(Press("BACK"))                      # too late: it asks again
    assert len(flow.log.inputs) == 2
    flow.on_button(Press("BACK"))
    assert snap(flow) == before and flow.phase == DECIDE and flow.expect.player == 0
    assert flow.cursor == cursor                       # on the line chosen: one press from the right one
    assert flow.message.text == "Taken back: Ann's choice (Threes, 6 points). Ann: choose again."
    assert flow.tray_values == [6, 6, 6, 3, 3]
    score(flow, "FULL_HOUSE")
    # the journal says what happened and replays to the game as it now is
    lines = (tmp_path / "journal.jsonl").read_text().splitlines()
    assert [json.loads(x) for x in lines[2:]] == [
        {"type": "choose", "player": 0, "option": "THREES"}, {"undo": True},
        {"type": "choose", "player": 0, "option": "FULL_HOUSE"}]
    assert Journal.load(tmp_path / "journal.jsonl").inputs == flow.log.inputs
    assert replay(flow.log).snapshot() == flow.state.snapshot()


def test_a_rethrow_with_the_wrong_die_held_is_taken_back_with_its_holds():
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    before = snap(flow)
    hold_and_rethrow(flow, [1, 3])                     # meant to hold the two sixes
    assert flow.log.inputs[-1] == {"type": "reroll", "player": 0, "keep": [2, 6]}
    flow.on_button(Press("BACK"))
    assert "(Throw 3 again, keeping 6 2)" in flow.message.text
    flow.on_button(Press("BACK"))
    assert snap(flow) == before and flow.phase == DECIDE
    assert flow.holds == [True, False, True, False, False] and flow.tray_values == [6, 6, 2, 3, 5]
    flow.on_button(Press("HOLD3"))
    flow.on_button(Press("HOLD2"))
    flow.on_button(Press("OK"))                        # the cursor is still on "Throw 3 again"
    assert flow.log.inputs[-1] == {"type": "reroll", "player": 0, "keep": [6, 6]}


def test_nothing_is_taken_back_once_the_next_dice_are_read():
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 6, 3, 3])
    score(flow, "THREES")
    flow.on_reading(reading([1, 2, 3, 4, 5]))          # Bob's throw, being shown: still time
    flow.on_button(Press("BACK"))                      # (this drops the reading shown)
    assert flow.phase == WAIT_DICE and "throw again" in flow.message.text
    settle_and_confirm(flow, clock, [1, 2, 3, 4, 5])   # Bob's throw applied: too late now
    before = snap(flow)
    for _ in range(2):
        flow.on_button(Press("BACK"))
        assert snap(flow) == before and flow.phase == DECIDE
    assert "Undo" not in flow.view().prompt.hint and "undo" not in flow.view().prompt.hint


def test_a_secret_choice_is_not_offered_back():
    flow, clock = make(game="objective-cards", players=("Ann", "Bob"))
    settle_and_confirm(flow, clock, [3, 3, 3, 5, 5])
    flow.on_button(Press("OK"))                        # Ann opens her secret menu
    flow.on_button(Press("OK"))                        # and commits a card
    assert flow.message.text == "Ann has chosen (kept secret)."
    before = snap(flow)
    for _ in range(2):
        flow.on_button(Press("BACK"))                  # anybody might press it: nothing happens
        assert snap(flow) == before
    assert "undo" not in flow.view().prompt.hint


def test_a_stop_that_turned_the_cards_over_is_not_taken_back(tmp_path):
    """Objective cards: STOP shows every player's card (Bob's Full house, met). Taken back with
    BACK twice, it put Ann at her rethrow again knowing Bob's card (spec §2: "he must guess what
    they chose"): she could throw the pair again and capture it. A rethrow is still taken back."""
    flow, clock = make(game="objective-cards", players=("Ann", "Bob"), tmp_path=tmp_path)
    settle_and_confirm(flow, clock, [3, 3, 3, 5, 5])
    for card in ("ONE_PAIR", "FULL_HOUSE"):
        flow.on_button(Press("OK"))                    # the player opens the secret menu
        flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == card)
        flow.on_button(Press("OK"))
    hold_and_rethrow(flow, [1, 2, 3, 4])              # a rethrow: still taken back
    assert "BACK twice: undo Ann's choice" in flow.view().prompt.hint
    flow.on_button(Press("BACK"))
    flow.on_button(Press("BACK"))
    assert flow.state.phase == "reroll" and flow.message.text.startswith("Taken back")
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == "STOP")
    flow.on_button(Press("OK"))
    assert "Bob met Full house +5" in flow.state.sheet().notes[-1]
    before = snap(flow)
    assert "undo" not in flow.view().prompt.hint
    for _ in range(2):
        flow.on_button(Press("BACK"))
        assert snap(flow) == before
    # nor after a restart, rebuilt from the journal
    flow.offer_take_back(len(flow.log.inputs))
    assert flow.take_back_offered is None


def test_the_last_box_of_the_game_can_be_taken_back_from_the_final_standings():
    flow, clock = make(players=("Ann",))
    # play Ann's whole sheet quickly: every round one throw, the first open box
    while flow.phase != OVER:
        settle_and_confirm(flow, clock, [1, 2, 3, 4, 6])
        last = flow.state
        flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.action == "option")
        flow.on_button(Press("OK"))
    assert flow.view().mode == "final"
    flow.over_hint = "OK: a new game"
    hint = flow.view().prompt.hint
    assert hint.startswith("OK: a new game") and "BACK twice: undo Ann's choice" in hint
    flow.on_button(Press("BACK"))
    flow.on_button(Press("BACK"))
    assert flow.phase == DECIDE and flow.state is last and not flow.state.is_over
    assert flow.view().mode == "play"
    assert replay(flow.log).snapshot() == flow.state.snapshot()


def test_an_abandoned_game_is_not_taken_back_and_names_no_winner():
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 6, 3, 3])
    score(flow, "THREES")
    flow.on_button(Press("ABANDON"))
    flow.on_button(Press("ABANDON"))
    assert flow.phase == OVER
    # it names no winner, and its header asks for no next move
    view = flow.view()
    assert view.title == "Game abandoned" and not any(s.winner for s in view.standings)
    assert view.status == "Thirteen abandoned: the scores so far"
    flow.on_button(Press("BACK"))
    flow.on_button(Press("BACK"))
    assert flow.phase == OVER and flow.view().prompt is None
    assert flow.message.text == "The game is over."


def test_a_journal_that_takes_back_what_is_not_there_is_refused(tmp_path):
    from controller.tablelog import LogError
    path = tmp_path / "journal.jsonl"
    path.write_text(json.dumps({"format": "dicetable-log/1", "game": "thirteen", "players": ["Ann"],
                                "options": {}}) + "\n" + json.dumps({"undo": True}) + "\n")
    with pytest.raises(LogError, match="line 2 takes back an input that is not there"):
        Journal.load(path)


# ------------------------------------------------------- a misread noticed after it was accepted

def test_a_misread_noticed_after_it_was_accepted_is_corrected_with_a_long_ok(tmp_path):
    flow, clock = make(tmp_path=tmp_path)
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])   # accepted by itself; the last die shows a 6
    assert flow.phase == DECIDE and "hold OK: correct the dice" in flow.view().prompt.hint
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT and flow.log.inputs == [] and flow.pending == [6, 6, 2, 3, 5]
    assert flow.view().prompt.hint == "hold OK: done · BACK leaves the dice as read"
    flow.on_button(Press("HOLD5"))
    flow.on_button(Press("UP"))
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == DECIDE and flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 6, 2, 3, 6]}]
    assert flow.tray_values == [6, 6, 2, 3, 6]
    assert any(o.points == 18 for o in flow.view().prompt.options)    # the sixes now count three
    lines = (tmp_path / "journal.jsonl").read_text().splitlines()
    assert [json.loads(x) for x in lines[1:]] == [
        {"type": "dice", "player": 0, "values": [6, 6, 2, 3, 5]}, {"undo": True},
        {"type": "dice", "player": 0, "values": [6, 6, 2, 3, 6]}]
    assert Journal.load(tmp_path / "journal.jsonl").inputs == flow.log.inputs


def test_a_late_correction_cancelled_leaves_the_dice_as_read(tmp_path):
    flow, clock = make(tmp_path=tmp_path)
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    before = snap(flow)
    flow.on_button(Press("OK", "hold"))
    flow.on_button(Press("DOWN"))
    flow.on_button(Press("BACK"))
    assert snap(flow) == before and flow.phase == DECIDE
    assert flow.message.text == "Correction cancelled: the dice stay as they were read."
    assert Journal.load(tmp_path / "journal.jsonl").inputs == flow.log.inputs


def test_a_late_correction_keeps_the_held_dice():
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    hold_and_rethrow(flow, [1, 2])
    settle_and_confirm(flow, clock, [6, 6, 1, 1, 4])
    flow.on_button(Press("OK", "hold"))
    flow.on_button(Press("DOWN"))                      # a held six made a five: refused, still correcting
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT and "held dice are 6 6" in flow.message.text
    flow.on_button(Press("UP"))                        # put it back; the 4 was a 5
    flow.on_button(Press("HOLD5"))
    flow.on_button(Press("UP"))
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == DECIDE and flow.log.inputs[-1] == {"type": "dice", "player": 0, "values": [1, 1, 5]}
    assert replay(flow.log).snapshot() == flow.state.snapshot()


def test_a_long_ok_corrects_nothing_once_a_choice_was_made():
    """After the choice, a long OK no longer reopens the dice it was made with: it starts
    entering the next throw by hand (BACK leaves that, and nothing changed)."""
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 6, 3, 3])
    score(flow, "THREES")
    before = snap(flow)
    flow.on_button(Press("OK", "hold"))
    assert snap(flow) == before and flow.phase == CORRECT and flow.pending == [1, 1, 1, 1, 1]
    assert flow.view().prompt.text.startswith("Enter die 1:")      # (not a reading corrected)
    flow.on_button(Press("BACK"))
    assert snap(flow) == before and flow.phase == WAIT_DICE


def test_the_dice_that_ended_a_game_can_be_corrected_from_the_final_standings():
    from controller.rules.random_play import play_random

    # a Classic game whose last input is a throw: the table gets there, then reads that throw
    inputs = next(ins for seed in range(50) for _, ins in [play_random("classic", ["Ann", "Bob"], seed=seed)]
                  if ins[-1]["type"] == "dice")
    log = TableLog("classic", ["Ann", "Bob"], {}, list(inputs[:-1]))
    clock = Clock()
    flow = TableFlow(replay(log), log, clock=clock, over_hint="OK: a new game")
    exp = flow.expect
    settle_and_confirm(flow, clock, list(exp.held) + inputs[-1]["values"])
    thrower = ("Ann", "Bob")[exp.player]             # (named: the game is over, nobody's turn)
    assert flow.phase == OVER and flow.view().prompt.hint == f"OK: a new game · hold OK: correct {thrower}'s dice"
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT and not flow.state.is_over
    flow.on_button(Press(f"HOLD{len(flow.pending)}"))  # a die just thrown (the held ones come first)
    flow.on_button(Press("UP"))
    flow.on_button(Press("OK", "hold"))
    assert flow.phase in (OVER, DECIDE, WAIT_DICE)
    assert flow.log.inputs[:-1] == inputs[:-1] and flow.log.inputs[-1] != inputs[-1]
    assert replay(flow.log).snapshot() == flow.state.snapshot()


def test_a_die_read_less_surely_is_outlined_and_the_reading_waits_longer():
    flow, clock = make()
    sure = reading([6, 6, 2, 3, 5])
    unsure = Reading(sure.dice[:2] + (Die(2, sure.dice[2].box, sure.dice[2].centre, 0.8),) + sure.dice[3:], ())
    flow.on_reading(unsure)
    assert flow.phase == CONFIRM
    assert [m.doubtful for m in flow.view().tray.dice] == [False, False, True, False, False]
    assert [m.position for m in flow.view().tray.dice] == [0, 0, 3, 0, 0]     # the die named, numbered
    assert "Check die 3 (outlined): I am not sure of it." in flow.view().prompt.text
    clock.t += 2.0
    flow.tick()
    assert flow.phase == CONFIRM and flow.log.inputs == []          # the sure reading would count by now
    clock.t += 2.1
    flow.tick()
    assert flow.phase == DECIDE and flow.log.inputs[-1]["values"] == [6, 6, 2, 3, 5]
    # a sure reading counts after the usual moment, nothing outlined
    flow2, clock2 = make()
    flow2.on_reading(sure)
    assert not any(m.doubtful for m in flow2.view().tray.dice) and "Check" not in flow2.view().prompt.text
    clock2.t += 1.6
    flow2.tick()
    assert flow2.phase == DECIDE
    # OK accepts a checked reading at once; with check_below 0 nothing is ever outlined
    flow3, _ = make()
    flow3.on_reading(unsure)
    flow3.on_button(Press("OK"))
    assert flow3.phase == DECIDE
    flow4 = TableFlow(new_game("thirteen", ["Ann"]), TableLog("thirteen", ["Ann"]), clock=Clock(), check_below=0)
    flow4.on_reading(unsure)
    assert not any(m.doubtful for m in flow4.view().tray.dice)


def test_two_dice_to_check_are_named_together():
    flow, clock = make()
    dice = tuple(Die(v, (40 + 80 * i, 40, 90 + 80 * i, 90), (65 + 80 * i, 65), c)
                 for i, (v, c) in enumerate(zip([6, 6, 2, 3, 5], [0.95, 0.7, 0.95, 0.85, 0.99])))
    flow.on_reading(Reading(dice, ()))
    assert "Check dice 2 and 4 (outlined): I am not sure of them." in flow.view().prompt.text


def test_while_dice_can_be_held_each_die_shows_its_hold_button_number():
    flow, clock = make()
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    assert [m.position for m in flow.view().tray.dice] == [0] * 5       # being confirmed: no numbers
    flow.on_button(Press("OK", "hold"))
    assert [m.position for m in flow.view().tray.dice] == [1, 2, 3, 4, 5]   # correcting: HOLD1..5 pick one
    flow.on_button(Press("OK", "hold"))
    clock.t += 2.0
    flow.tick()
    assert [m.position for m in flow.view().tray.dice] == [1, 2, 3, 4, 5]
    hold_and_rethrow(flow, [1, 2])
    settle_and_confirm(flow, clock, [6, 6, 1, 1, 4])
    hold_and_rethrow(flow, [1, 2])
    settle_and_confirm(flow, clock, [6, 6, 1, 1, 4])  # the third throw: only a box to choose, no holds
    assert flow.expect.reroll is None and [m.position for m in flow.view().tray.dice] == [0] * 5


# ----------------------------------------------------------------- the journal cannot be written

class FailingJournal(Journal):
    """The real journal, with storage that fails while `failing` is set (a full or read-only card)."""

    failing = False

    def append(self, data):
        if self.failing:
            raise OSError(28, "No space left on device")
        super().append(data)


def test_when_the_journal_cannot_be_written_the_game_goes_on_unsaved_and_says_so(tmp_path, caplog):
    flow, clock = make()
    journal = FailingJournal(tmp_path / "journal.jsonl", flow.log)
    flow.on_apply, flow.on_take_back = journal.append, journal.take_back
    settle_and_confirm(flow, clock, [6, 6, 6, 3, 3])
    saved = replay(Journal.load(journal.path)).snapshot()
    journal.failing = True
    score(flow, "FULL_HOUSE")                                       # the move counts: nobody is stuck
    assert flow.log.inputs[-1]["option"] == "FULL_HOUSE" and flow.phase == WAIT_DICE
    assert "no longer saved" in caplog.text
    clock.t += 10
    flow.tick()                                                     # the round's news fades; the notice stays
    notice = flow.view().message
    assert notice.level == "error" and "No space left on device" in notice.text
    assert "can no longer be saved" in notice.text
    journal.failing = False                                         # the storage back: still nothing
    settle_and_confirm(flow, clock, [1, 2, 3, 4, 5])                # written, so that the journal stays
    flow.on_button(Press("BACK"))                                   # the exact start of the game
    flow.on_button(Press("BACK"))
    assert len(flow.log.inputs) == 3
    assert replay(Journal.load(journal.path)).snapshot() == saved   # a resume: the game up to the failure


def test_hint_shows_how_the_game_is_played_and_changes_nothing(tmp_path):
    """HINT puts the game's card over the sheet and takes it away again; it is not an input:
    the game, its log and its journal stay as they were. Any other button closes the card and
    does what it always does."""
    flow, clock = make(tmp_path=tmp_path)
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    before, journal = snap(flow), (tmp_path / "journal.jsonl").read_text()
    assert flow.view().help is None
    flow.on_button(Press("HINT"))
    shown = flow.view()
    assert shown.help is not None and shown.help.title == "How to play Thirteen"
    assert shown.help.paragraphs == type(flow.state).how_to_play
    assert shown.prompt.options and shown.sheet          # the menu stays; the sheet is still there under it
    flow.on_button(Press("HINT"))
    assert flow.view().help is None
    assert snap(flow) == before and (tmp_path / "journal.jsonl").read_text() == journal
    flow.on_button(Press("HINT"))
    cursor = [o.selected for o in flow.view().prompt.options].index(True)
    flow.on_button(Press("DOWN"))
    assert flow.view().help is None
    assert [o.selected for o in flow.view().prompt.options].index(True) == cursor + 1


def test_the_card_is_offered_while_waiting_for_a_throw_and_shown_at_the_final_standings():
    flow, clock = make(players=("Ann",))
    assert "HINT: how to play" in flow.view().prompt.hint
    flow.on_button(Press("ABANDON"))
    flow.on_button(Press("ABANDON"))
    assert flow.phase == OVER
    flow.on_button(Press("HINT"))
    final = flow.view()
    assert final.mode == "final" and final.help.title == "How to play Thirteen"


# ------------------------------------------------------------- dice the camera does not see


def test_a_die_the_camera_does_not_see_can_be_entered_by_hand(tmp_path):
    """A die the reader cannot find (a colour it does not know, a die under the rim) held the
    game up for good: "I see 4 dice" at every throw. Now a long OK enters the throw: the four
    read, and one more, drawn along the bottom of the camera image, for the players to set."""
    flow, clock = make(tmp_path=tmp_path)
    flow.view(np.zeros((480, 640, 3), np.uint8))
    before = snap(flow)
    flow.on_reading(reading([6, 6, 2, 3]))
    assert flow.phase == WAIT_DICE and snap(flow) == before
    assert "I see 4 dice; the game needs 5" in flow.message.text and "hold OK to enter" in flow.message.text
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT and flow.pending == [6, 6, 2, 3, 1]
    x0, y0, x1, y1 = flow.pending_boxes[-1]
    assert (x1 - x0, y1) == (50, 474) and x0 >= 0                 # the size of the dice read, at the bottom
    marks = flow.view(np.zeros((480, 640, 3), np.uint8)).tray.dice
    assert len(marks) == 5 and marks[4].position == 5
    assert marks[4].selected and marks[4].doubtful                   # the one to set, selected first
    flow.on_button(Press("HOLD5"))
    for _ in range(4):
        flow.on_button(Press("UP"))                                  # the unseen die shows a 5
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == DECIDE and flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 6, 2, 3, 5]}]
    assert Journal.load(tmp_path / "journal.jsonl").inputs == flow.log.inputs


def test_a_tray_with_more_dice_than_the_game_needs_starts_from_the_surest():
    flow, clock = make()
    six = reading([6, 6, 2, 3, 5, 4])
    dice = list(six.dice)
    dice[1] = Die(6, dice[1].box, dice[1].centre, 0.4)                # the least sure: a mark on the felt?
    flow.on_reading(Reading(tuple(dice), ()))
    assert "I see 6 dice; the game needs 5" in flow.message.text
    flow.on_button(Press("OK", "hold"))
    assert flow.pending == [6, 2, 3, 5, 4]
    assert flow.pending_boxes == [d.box for i, d in enumerate(dice) if i != 1]


def test_an_unseen_held_die_is_entered_with_its_held_value():
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    hold_and_rethrow(flow, [1, 2])
    flow.on_reading(reading([6, 1, 4, 5]))                        # a held six the camera missed
    assert "(2 held + 3 thrown)" in flow.message.text
    flow.on_button(Press("OK", "hold"))
    assert flow.pending == [6, 1, 4, 5, 6]
    flow.on_button(Press("OK", "hold"))
    assert flow.log.inputs[-1] == {"type": "dice", "player": 0, "values": [1, 4, 5]}


def test_a_held_die_read_wrong_can_be_corrected_instead_of_waited_on():
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    hold_and_rethrow(flow, [1, 2])
    flow.on_reading(reading([6, 5, 1, 1, 4]))                     # a held six read as a five
    assert "hold OK to enter the values" in flow.message.text
    flow.on_button(Press("OK", "hold"))
    flow.on_button(Press("HOLD2"))
    flow.on_button(Press("UP"))
    flow.on_button(Press("OK", "hold"))
    assert flow.log.inputs[-1] == {"type": "dice", "player": 0, "values": [1, 1, 4]}


def test_with_nothing_read_a_long_ok_enters_the_whole_throw_and_back_changes_nothing():
    """A camera that sees none of the dice (or none at all): the wait's hint says how to go on."""
    flow, clock = make()
    assert "hold OK: enter the dice" in flow.view().prompt.hint
    before = snap(flow)
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT and flow.pending == [1, 1, 1, 1, 1]
    assert len(set(flow.pending_boxes)) == 5                       # side by side, not on one another
    flow.on_button(Press("BACK"))
    assert flow.phase == WAIT_DICE and snap(flow) == before
    flow.on_button(Press("OK", "hold"))
    for name in ("UP", "OK", "UP", "UP", "OK", "OK", "OK", "OK"):
        flow.on_button(Press(name))
    assert flow.log.inputs == [{"type": "dice", "player": 0, "values": [2, 3, 1, 1, 1]}]


def test_a_newer_reading_drops_an_older_readings_offer():
    flow, clock = make()
    flow.on_reading(reading([6, 6, 2, 3]))                        # wrong count: an offer
    flow.on_reading(reading([5, 5, 2, 3, 1]))                     # then a good reading
    flow.on_button(Press("BACK"))                                  # dropped: throw again
    flow.on_button(Press("OK", "hold"))
    assert flow.pending == [1, 1, 1, 1, 1]                         # a fresh entry, not the old four


# --------------------------------------------------- found by playing every game at the screen
def test_a_second_back_confirms_only_the_choice_the_first_one_named():
    """Ann continues, BACK once (asks about Ann), Bob continues: BACK again asks about Bob
    instead of taking Bob's choice back unasked; the stale question about Ann is gone."""
    flow, clock = make("poknroll", ("Ann", "Bob", "Cy"), {"decision_order": "sequential"})
    settle_and_confirm(flow, clock, [1, 3, 5])
    score(flow, "CONTINUE")                                  # Ann
    flow.on_button(Press("BACK"))
    assert "take back Ann's choice" in flow.message.text
    score(flow, "CONTINUE")                                  # Bob, within the 5 seconds
    assert flow.message is None or "Ann" not in flow.message.text
    inputs = len(flow.log.inputs)
    flow.on_button(Press("BACK"))
    assert len(flow.log.inputs) == inputs and "take back Bob's choice" in flow.message.text
    flow.on_button(Press("BACK"))
    assert len(flow.log.inputs) == inputs - 1 and flow.state.expects().player == 1


def test_a_fitting_reading_clears_the_warning_about_the_tray_before_it():
    flow, clock = make()
    flow.on_reading(reading([6, 6, 2, 3]))
    assert "I see 4 dice" in flow.message.text
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    assert flow.phase == CONFIRM and flow.message is None


def test_abandon_at_a_closed_secret_menu_chooses_nothing_and_the_cursor_never_starts_on_abandon():
    flow, clock = make("poknroll", ("Ann", "Bob", "Cy"))
    settle_and_confirm(flow, clock, [1, 3, 5])
    before = snap(flow)
    flow.on_button(Press("ABANDON"))                 # anyone's press, before Ann has opened her menu
    assert snap(flow) == before and "Ann's choice is secret" in flow.message.text
    flow.on_button(Press("OK"))                      # Ann opens her menu
    assert flow.menu()[flow.cursor].key == "CONTINUE"    # a quick double OK does not give up the hand
    flow.on_button(Press("ABANDON"))
    assert flow.log.inputs[-1] == {"type": "choose", "player": 0, "option": "ABANDON"}


def test_betting_classic_draws_the_dice_decided_on_not_another_players_tray():
    """In betting Classic everyone throws before the bets; Ann's second throw is decided on her
    recorded dice while the tray still shows Cy's. Before, Cy's dice were numbered for Ann's HOLD
    buttons and one of Cy's kings was tagged HELD; then Cy's tray was shown with no marks under
    Ann's name and menu. Now Ann's recorded dice are drawn in its place, numbered, and named."""
    flow, clock = make("classic", ("Ann", "Bob", "Cy"), {"variant": "betting"})
    for values in ([5, 5, 5, 1, 2], [4, 4, 3, 2, 1], [6, 5, 3, 2, 1]):
        settle_and_confirm(flow, clock, values)

    def choose(label):
        flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.label.startswith(label))
        flow.on_button(Press("OK"))

    for label in ("Bet 2", "Call", "Raise to 4", "Call", "Fold"):
        choose(label)
    assert flow.phase == DECIDE and flow.state.expects().player == 0 and flow.tray_values
    camera = np.full((480, 640, 3), 90, np.uint8)          # Cy's dice, as the camera sees them
    view = flow.view(camera)
    assert view.tray.image is not camera
    assert [m.label for m in view.tray.dice] == ["K", "K", "K", "9", "10"]
    assert [m.position for m in view.tray.dice] == [1, 2, 3, 4, 5]
    assert view.tray.caption == "Ann's throw, as recorded: K K K 9 10"
    for i in (1, 2, 3):
        flow.on_button(Press(f"HOLD{i}"))
    assert [m.held for m in flow.view(camera).tray.dice] == [True, True, True, False, False]
    choose("Throw 2")
    assert flow.view(camera).tray.image is camera            # her throw: the tray again
    view = flow.view()
    assert "with your held K K K back in the tray" in view.prompt.text
    assert not any(m.held for m in view.tray.dice)          # Cy's dice, still on the tray


def test_the_held_dice_note_goes_inside_the_prompts_own_brackets():
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    hold_and_rethrow(flow, [1, 2])
    assert flow.view().prompt.text == "Ann: throw 3 dice again (throw 2 of 3, 2 held stay)"


def test_a_late_correction_offered_during_the_next_players_throw_names_whose_dice():
    """In betting Classic everyone throws in turn before the bets: while Bob is asked to throw,
    a long OK still reopens Ann's throw, and the hint says it is Ann's."""
    flow, clock = make("classic", ("Ann", "Bob"), {"variant": "betting"})
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    assert flow.state.expects().player == 1
    assert "hold OK: correct Ann's dice" in flow.view().prompt.hint
    settle_and_confirm(flow, clock, [4, 4, 3, 2, 1])
    assert flow.state.expects().player == 0               # the bets open with Ann
    assert "hold OK: correct Bob's dice" in flow.view().prompt.hint


def test_the_final_standings_say_why_equal_scores_are_placed_apart():
    """Objective cards: Ann and Bob end on 37 each; Bob, active last, wins. The standings place
    them 1 and 2, and the screen says which rule did it."""
    from controller.rules import choose_input, dice_input

    meets = [("JOKER", [1, 2, 3, 4, 6]), ("ONE_PAIR", [1, 1, 2, 3, 4]), ("THREE_OF_A_KIND", [1, 1, 1, 2, 3]),
             ("TWO_PAIRS", [1, 1, 2, 2, 3]), ("SMALL_STRAIGHT", [1, 2, 3, 4, 6]), ("NO_EVENS", [1, 1, 3, 3, 5]),
             ("NO_ODDS", [2, 2, 4, 4, 6]), ("FULL_HOUSE", [2, 2, 3, 3, 3]), ("LONG_STRAIGHT", [1, 2, 3, 4, 5]),
             ("FOUR_OF_A_KIND", [1, 1, 1, 1, 2])]

    def final_view(options):
        state = new_game("objective-cards", ["Ann", "Bob"], options)
        for r, (card, dice) in enumerate(meets):
            active = r % 2
            for data in (dice_input(active, dice), choose_input(active, card), choose_input(1 - active, card),
                         choose_input(active, "STOP")):
                state = state.apply(data)
        assert state.scores == (37, 37)
        return state, TableFlow(state, TableLog("objective-cards", ["Ann", "Bob"], options), clock=Clock()).view()

    state, view = final_view({})
    assert view.mode == "final"
    assert [(st.name, st.place, st.winner) for st in view.standings] == [("Bob", 1, True), ("Ann", 2, False)]
    assert view.message is not None and view.message.text == f"Tie-break: {state.result().tie_break}"
    assert "Bob round 10 > Ann round 9" in view.message.text
    _, shared = final_view({"tie_break": "shared"})          # a shared place needs no words
    assert [st.place for st in shared.standings] == [1, 1] and shared.message is None


def test_a_doubtful_die_passed_with_ok_during_a_correction_is_no_longer_in_doubt():
    """The screen review: a die the camera could not read, passed with OK (its stand-in value is
    right), kept its "?" and outline, as if nobody had looked at it."""
    flow, clock = make()
    sure = reading([5, 6, 1, 6, 2])
    unread = Reading(sure.dice[:2] + (Die(None, sure.dice[2].box, sure.dice[2].centre, 0.0),) + sure.dice[3:], ())
    flow.on_reading(unread)
    flow.on_button(Press("OK", "hold"))
    assert flow.correct_index == 2 and [m.doubtful for m in flow.view().tray.dice][2]
    flow.on_button(Press("OK"))                                       # it is a 1: next die
    assert flow.correct_index == 3 and not any(m.doubtful for m in flow.view().tray.dice)
    flow.on_button(Press("OK", "hold"))
    assert flow.log.inputs == [{"type": "dice", "player": 0, "values": [5, 6, 1, 6, 2]}]


def test_correcting_a_die_the_camera_could_not_read_starts_on_that_die():
    """A reading with die 3 unread: a long OK opens the correction on die 3, outlined, its
    stand-in value not called a reading. Before, the cursor sat on die 1 under "Read: 5 6 1 6 2"
    (the unread die shown as a 1), and one more long OK took it for a 1."""
    flow, clock = make()
    sure = reading([5, 6, 3, 6, 2])
    unread = Reading(sure.dice[:2] + (Die(None, sure.dice[2].box, sure.dice[2].centre, 0.0),) + sure.dice[3:], ())
    flow.on_reading(unread)
    assert flow.phase == WAIT_DICE and "die 3" in flow.message.text
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT and flow.correct_index == 2
    view = flow.view()
    assert view.prompt.text.startswith("Correct die 3:")
    assert [m.doubtful for m in view.tray.dice] == [False, False, True, False, False]
    assert view.tray.caption.startswith("Setting: ")
    flow.on_button(Press("UP"))
    flow.on_button(Press("UP"))
    assert not any(m.doubtful for m in flow.view().tray.dice)     # set by the players
    flow.on_button(Press("OK", "hold"))
    assert flow.log.inputs == [{"type": "dice", "player": 0, "values": [5, 6, 3, 6, 2]}]
    hold_and_rethrow(flow, [1])                                    # then the next throw, as usual
    settle_and_confirm(flow, clock, [5, 1, 1, 4, 4])
    assert flow.log.inputs[-1] == {"type": "dice", "player": 0, "values": [1, 1, 4, 4]}


def test_held_dice_taken_out_of_the_tray_are_asked_back_not_thrown_again():
    """Ann keeps her sixes out of the tray while she throws the other three. Before, the table
    said "Fix the tray or throw again": a second try at the throw. It asks for the held dice."""
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    hold_and_rethrow(flow, [1, 2])
    before = snap(flow)
    flow.on_reading(reading([1, 4, 4]))
    assert flow.phase == WAIT_DICE and snap(flow) == before
    text = flow.message.text
    assert "Put the held 6 6 back in the tray beside them, or hold OK to enter the values." in text
    assert "throw again" not in text
    settle_and_confirm(flow, clock, [1, 4, 4, 6, 6])
    assert flow.log.inputs[-1] == {"type": "dice", "player": 0, "values": [1, 4, 4]}


def test_while_a_throw_is_awaited_the_caption_names_only_the_held_dice():
    """Under "Bob: throw all 5 dice", beside the four dice of his throw that the table refused,
    the caption said "Dice: 6 6 2 3 5": Ann's dice, as if they were Bob's."""
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    hold_and_rethrow(flow, [1, 2])
    assert flow.view().tray.caption == "Held: 6 6"
    settle_and_confirm(flow, clock, [6, 6, 1, 4, 4])
    assert flow.view().tray.caption == "Dice: 6 6 1 4 4"          # deciding: the dice decided on
    score(flow, "CHANCE")
    flow.on_reading(reading([1, 1, 4, 4]))
    assert flow.state.expects().player == 1 and flow.view().tray.caption == ""


def test_a_game_resumed_at_a_decision_draws_the_dice_until_it_finds_them_on_the_tray():
    """After a power cut at Ann's decision the table knows her dice, not where they lie: they
    are drawn (numbered for the HOLD buttons) until the camera's first reading of them, then
    marked on the tray itself, holds kept."""
    from controller.rules.base import dice_input

    state = new_game("thirteen", ["Ann", "Bob"], None)
    log = TableLog("thirteen", ["Ann", "Bob"], {})
    data = dice_input(0, [6, 6, 2, 3, 5])
    state = state.apply(data)
    log.inputs.append(data)
    flow = TableFlow(state, log, clock=Clock())
    camera = np.full((480, 640, 3), 90, np.uint8)
    view = flow.view(camera)
    assert view.tray.image is not camera and view.tray.caption == "Ann's throw, as recorded: 2 3 5 6 6"
    assert [m.position for m in view.tray.dice] == [1, 2, 3, 4, 5]
    flow.on_button(Press("HOLD4"))                                 # a six
    flow.on_reading(reading([2, 6, 5, 3, 6]))                      # the tray, still after the restart
    view = flow.view(camera)
    assert view.tray.image is camera and [m.label for m in view.tray.dice] == ["2", "6", "5", "3", "6"]
    assert sorted(v for v, h in zip(flow.tray_values, flow.holds) if h) == [6]
    assert flow.log.inputs == [data]


def test_hint_turns_the_pages_of_a_long_card_and_closes_it_after_the_last():
    """Pok'n Roll with every house rule at its longest does not fit the sheet's place at 800x480:
    HINT opens its first page, HINT again turns to the next, and after the last closes it. The
    same card fits a 1920x1080 screen whole: HINT again closes it, as always."""
    from card_helpers import longest_rules
    from display.render import help_pages

    flow, _ = make("poknroll", ("Ann", "Bob", "Cy"), longest_rules("poknroll"))
    assert flow.screen_size == (800, 480)                  # the smallest screen, unless told its own
    flow.on_button(Press("HINT"))
    pages = help_pages(flow.view().help, "play", flow.screen_size)
    assert pages > 1
    for page in range(pages):
        assert flow.view().help.page == page
        flow.on_button(Press("HINT"))
    assert flow.view().help is None
    flow.screen_size = (1920, 1080)
    flow.on_button(Press("HINT"))
    assert flow.view().help.page == 0
    flow.on_button(Press("HINT"))
    assert flow.view().help is None


def test_another_button_closes_a_card_on_any_page_and_still_acts():
    """On a long card's second page a player who wants to go on playing presses the button they
    need: the card goes and the button does what it always does."""
    from card_helpers import longest_rules

    flow, clock = make("classic", options=longest_rules("classic"))
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    assert flow.phase == CONFIRM
    flow.on_button(Press("HINT"))
    flow.on_button(Press("HINT"))
    assert flow.view().help.page == 1
    flow.on_button(Press("OK"))                             # accepts the reading shown
    assert flow.view().help is None and flow.phase != CONFIRM and flow.log.inputs


@pytest.mark.parametrize("code", ["EIO", "ENOSPC", "EDQUOT"])
def test_a_journal_whose_fsync_fails_is_a_game_no_longer_saved(tmp_path, monkeypatch, caplog, code):
    """A failing SD card reports EIO at fsync (and a full one may report ENOSPC only there): the
    error was logged as a warning and the game went on as if saved, with nothing on screen, so a
    power cut then lost moves the players believed safe. It is a failed write now."""
    import errno
    import os

    import controller.journal as journal_module

    flow, clock = make(tmp_path=tmp_path)
    settle_and_confirm(flow, clock, [6, 6, 6, 3, 3])
    assert flow.unsaved is None

    def failing(fd):
        raise OSError(getattr(errno, code), os.strerror(getattr(errno, code)))

    monkeypatch.setattr(journal_module.os, "fsync", failing)
    score(flow, "FULL_HOUSE")
    assert flow.unsaved is not None and "can no longer be saved" in flow.unsaved.text
    assert "no longer saved" in caplog.text


def test_a_filesystem_without_fsync_still_journals(tmp_path, monkeypatch):
    import errno

    import controller.journal as journal_module

    flow, clock = make(tmp_path=tmp_path)

    def unsupported(fd):
        raise OSError(errno.EINVAL, "Invalid argument")

    monkeypatch.setattr(journal_module.os, "fsync", unsupported)
    settle_and_confirm(flow, clock, [6, 6, 6, 3, 3])
    assert flow.unsaved is None and len(Journal.load(tmp_path / "journal.jsonl").inputs) == 1


def abandoned_at(game: str, players: list[str], options: dict, steps: list, **board) -> TableFlow:
    """A game played by `steps` (a list: dice of whoever is expected; ("keep", list): a reroll
    keeping those; a str: that player's choice), then abandoned with ABANDON twice. `board`:
    attributes of the state to set before (ticks written in earlier hands)."""
    state, log = new_game(game, players, options), TableLog(game, players, options)
    for name, value in board.items():
        setattr(state, name, value)
    for x in steps:
        p = state.expects().player
        data = (reroll_input(p, x[1]) if isinstance(x, tuple) else
                choose_input(p, x) if isinstance(x, str) else dice_input(p, x))
        state = state.apply(data)
        log.inputs.append(data)
    flow = TableFlow(state, log, clock=Clock())
    assert flow.phase == DECIDE
    flow.on_button(Press("ABANDON"))
    flow.on_button(Press("ABANDON"))
    assert flow.phase == OVER and flow.abandoned
    return flow


def final_cells(flow: TableFlow, row_key: str) -> list[dict]:
    return next(r["cells"] for t in flow.view().sheet["tables"] for r in t["rows"] if r["key"] == row_key)


def test_a_game_abandoned_at_a_second_joker_shows_only_the_extra_earned():
    """Thirteen's Extra-5 line during a second joker decision reads "40 +40" (an award cell: the
    40 earned, the +40 pending); abandoned then, the final sheet showed "40 +40" as if scored."""
    five = lambda v: [[v] * 5, ("keep", [v] * 4), [v], ("keep", [v] * 4), [v]]   # five of a kind at throw 3
    flow = abandoned_at("thirteen", ["Ann"], {}, five(1) + ["FIVE_KIND"] + five(2) + ["TWOS"] + [[3] * 5])
    assert flow.state.sheet().tables[0].rows[-1].cells[0].text            # (the game's own sheet unchanged)
    extra = final_cells(flow, "EXTRA_FIVE")[0]
    assert (extra["text"], extra["kind"], extra.get("value")) == ("40", "award", 40)
    texts = [c["text"] for t in flow.view().sheet["tables"] for r in t["rows"] for c in r["cells"]]
    assert not any("+" in t for t in texts)


def test_a_game_abandoned_while_choosing_a_line_shows_only_the_ticks_written():
    """Pok'n Roll's preview cell holds the ticks already written and the one a choice would add
    ("■▣□□□□ +4"): abandoned at that choice, the final sheet blanked the whole cell, its ticks
    written with it; it now shows the ticks written alone."""
    written = ((0, 0, 1, 0, 0, 0, 0, 1, 0),) + ((0,) * 9,) * 3      # Ann: a Brelan, an abandon in turn 1
    flow = abandoned_at("poknroll", ["Ann", "Bob", "Cy", "Dee"], {"must_mark_best": False},
                        [[6, 1, 1], "ABANDON", "CONTINUE", "CONTINUE", "CONTINUE", [6, 6]], boxes=written)
    live = {r.key: r.cells[0] for r in flow.state.sheet().tables[0].rows}
    assert live["BRELAN"].kind == "preview" and live["BRELAN"].text.startswith("■▣")     # (the choice again)
    final = {key: final_cells(flow, key)[0] for key in ("BRELAN", "FULL", "YAMS", "ABANDON_T1")}
    assert final["BRELAN"] == {"text": "■□□□□□", "kind": "tick", "value": 3}
    assert final["FULL"]["text"] == "□□□□□□" and final["ABANDON_T1"]["text"] == "■□□□□□"
    assert all(c["kind"] == "tick" for c in final.values())


@pytest.mark.parametrize("steps,seat,expected", [
    pytest.param([], 0, "in hand", id="at-a-card-choice"),          # Ann's "in hand: +1 now"
    pytest.param(["ONE_PAIR"], 1, "committed", id="at-the-reroll"),  # Bob's "committed: +1 now"
])
def test_a_game_abandoned_at_objective_cards_shows_the_cards_without_what_the_dice_would_score(steps, seat,
                                                                                                expected):
    """Objective cards' preview cells hold the card's standing ("in hand", "committed") with
    what the dice now would score: abandoned there, the final sheet blanked the card's cell as
    if the player had never held it; it now shows the card without the points."""
    flow = abandoned_at("objective-cards", ["Ann", "Bob"], {},
                        [[1, 2, 3, 4, 6], "JOKER", "JOKER", "STOP", [1, 1, 2, 3, 4], "ONE_PAIR"] + steps)
    assert flow.state.sheet().tables[0].rows[1].cells[seat].text.endswith("+1 now")
    assert final_cells(flow, "ONE_PAIR")[seat]["text"] == expected
    assert final_cells(flow, "JOKER")[0]["text"] == "won 1"
    texts = [c["text"] for t in flow.view().sheet["tables"] for r in t["rows"] for c in r["cells"]]
    assert not any("now" in t for t in texts)
