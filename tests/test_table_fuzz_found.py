"""What the random players of tests/test_table_fuzz.py found, each as the plain scenario that
met it (shrunk by hypothesis, then written out as the players would do it)."""
from __future__ import annotations

import random
from pathlib import Path

from controller.config import parse_config
from controller.setup_menu import SetupResult
from controller.table import CORRECT, DECIDE
from controller.table_app import TableApp
from display.screen import Screen
from table_helpers import Clock, Press
from test_table_e2e import FakeButtons, NoFrames
from test_table_flow import reading


def table(folder: Path, clock: Clock) -> TableApp:
    """The real table on the journal folder `folder` (switched on: it resumes what is there)."""
    return TableApp(parse_config(f'[table]\njournal_dir = "{folder}"\n'), Screen((800, 480), headless=True),
                    NoFrames(), FakeButtons(), clock=clock, rng=random.Random(1))


def thirteen_read(folder: Path, clock: Clock, values: list[int]) -> TableApp:
    """Thirteen for Ann and Bob, Ann's first dice read and accepted (shown, then their moment past)."""
    app = table(folder, clock)
    app.menu.done = SetupResult("thirteen", ("Ann", "Bob"), {})
    app.start_new()
    app.flow.on_reading(reading(values))
    clock.t += 2.0
    app.step()
    return app


def test_dice_before_a_choice_taken_back_after_a_restart_can_be_corrected(tmp_path):
    """Ann's dice read, Ann scores a box, the power goes; back on, Ann takes the box back (BACK
    twice) and sees that a die was misread. At a table that never went off a long OK corrects
    them (they are the last move again), and after one more cut it does too; the table that came
    back offered nothing: *hold OK: correct the dice* was not in the hint, and a long OK opened an
    empty entry of the whole throw by hand."""
    clock = Clock()
    app = thirteen_read(tmp_path, clock, [6, 6, 2, 3, 5])
    assert app.flow.phase == DECIDE
    app.flow.cursor = next(i for i, e in enumerate(app.flow.menu()) if e.key == "SIXES")
    app.on_button(Press("OK"))
    assert len(app.flow.log.inputs) == 2

    back = table(tmp_path, clock)             # the power cut
    clock.t += 3.0
    back.on_button(Press("BACK"))
    back.on_button(Press("BACK"))
    flow = back.flow
    assert flow.phase == DECIDE and len(flow.log.inputs) == 1, flow.message
    assert flow.correction_offered is not None and sorted(flow.correction_offered.values) == [2, 3, 5, 6, 6]
    assert "hold OK: correct the dice" in flow.view().prompt.hint
    back.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT and sorted(flow.pending) == [2, 3, 5, 6, 6]
    assert flow.log.inputs == []              # (taken out of the game to be corrected, as at the table)


def poknroll_at_its_first_choice(tmp_path: Path, clock: Clock, options: dict) -> TableApp:
    """Pok'n Roll for Ann, Bob and Cy (the imaginary cup drawn by the table), Ann's white dice read."""
    app = table(tmp_path, clock)
    app.menu.done = SetupResult("poknroll", ("Ann", "Bob", "Cy"), dict(options, imaginary_dice_source="engine_rng"))
    app.start_new()
    app.flow.on_reading(reading([2, 4, 4]))
    clock.t += 2.0
    app.step()
    assert app.flow.phase == DECIDE and "abandon" in app.flow.expect.prompt, app.flow.expect
    return app


def test_a_hand_abandoned_with_the_abandon_button_can_be_taken_back_as_on_the_menu(tmp_path):
    """Pok'n Roll, decisions in turn: Ann abandons the hand with the ABANDON button (a slip: she
    meant to go on). Chosen on the menu (*Abandon*, OK) BACK twice takes it back; with the button
    it could not (BACK said nothing of it), though after a power cut it could: the journal does
    not say which button chose."""
    clock = Clock()
    app = poknroll_at_its_first_choice(tmp_path, clock, {"decision_order": "sequential"})
    flow = app.flow
    app.on_button(Press("ABANDON"))
    assert flow.log.inputs[-1] == {"type": "choose", "player": 0, "option": "ABANDON"}
    assert flow.take_back_offered is not None and flow.take_back_offered.label == "Abandon"
    assert "BACK twice: undo Ann's choice" in flow.view().prompt.hint
    clock.t += 1.0
    app.on_button(Press("BACK"))
    app.on_button(Press("BACK"))
    assert len(flow.log.inputs) == 1 and flow.phase == DECIDE, flow.message
    assert flow.expect.player == 0 and "abandon" in flow.expect.prompt


def test_a_secret_abandon_made_with_the_abandon_button_is_said_kept_secret(tmp_path):
    """Pok'n Roll, decisions at once (secret): Ann opens her menu and presses ABANDON. Chosen on
    the menu, the banner says *Ann has chosen (kept secret)*, and nothing is offered back; the
    button's choice said nothing, and the next player did not know Ann had chosen."""
    clock = Clock()
    app = poknroll_at_its_first_choice(tmp_path, clock, {})
    flow = app.flow
    assert flow.expect.secret and not flow.choices_shown
    who = flow.state.player_name(flow.expect.player)
    app.on_button(Press("OK"))                  # (her menu opened)
    app.on_button(Press("ABANDON"))
    assert flow.log.inputs[-1]["option"] == "ABANDON"
    assert flow.view().message.text == f"{who} has chosen (kept secret).", flow.view().message
    assert flow.take_back_offered is None


def late_correction(app: TableApp, clock: Clock) -> None:
    """A long OK on the dice accepted, die 1 one pip up, a long OK (a misread put right)."""
    clock.t += 3.0
    app.on_button(Press("OK", "hold"))
    assert app.flow.phase == CORRECT
    app.on_button(Press("UP"))
    app.on_button(Press("OK", "hold"))


def test_a_throw_corrected_again_and_again_is_one_corrected_throw(tmp_path):
    """Ann's one throw, accepted, then corrected late three times over (she kept changing her
    mind about die 1). The staff were told *the players corrected 3 of the 1 throws read in this
    game: clean the camera's lens*: one throw, misread at most once, counted three times."""
    clock = Clock()
    app = thirteen_read(tmp_path, clock, [6, 5, 2, 3, 6])
    for _ in range(3):
        late_correction(app, clock)
    flow = app.flow
    assert len(flow.log.inputs) == 1
    assert (flow.tally.throws, flow.tally.corrected) == (1, 1)
    assert "For the staff" not in flow.view().message.text, flow.view().message.text


def test_dice_corrected_after_a_restart_are_not_more_than_the_throws(tmp_path):
    """Ann's dice read and accepted; the power goes; back on, Ann corrects them late (a long OK,
    as the table offers), then twice more. The staff were told *the players corrected 3 of the 0
    throws read in this game*: the resumed table had counted no throw."""
    clock = Clock()
    _before_the_cut = thirteen_read(tmp_path, clock, [6, 5, 2, 3, 6])
    back = table(tmp_path, clock)             # the power cut
    for _ in range(3):
        late_correction(back, clock)
    flow = back.flow
    assert len(flow.log.inputs) == 1
    assert flow.tally.corrected <= flow.tally.throws, (flow.tally.corrected, flow.tally.throws)
    assert "of the 0 throws" not in flow.view().message.text, flow.view().message.text
