"""The table flow under random input: any presses, readings and pauses, in any order, for every
game. Whatever happens, the table never raises, the game only ever changes by inputs the rules
accepted (the log and the journal, take-backs and late corrections included, replay to the same
state), the screen's view can always be built, a secret choice's menu is never in that view
before its player opened it, and a secret choice is never taken back."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import tempfile
from pathlib import Path

from controller.journal import Journal
from controller.rules import GAMES, Decide, Throw, new_game
from controller.table import CORRECT, TableFlow
from controller.tablelog import TableLog, replay
from hardware.buttons import BUTTON_NAMES
from table_helpers import Clock, Press
from vision.types import Die, Problem, Reading

PLAYERS = {"thirteen": 2, "classic": 2, "school": 2, "poknroll": 3, "objective-cards": 2}
PROBLEMS = ["die_leaning", "unsure_value", "dice_touching", "glare", "camera_moved", "blurred"]


def a_reading(values: list[int | None], problem: str | None) -> Reading:
    dice = tuple(Die(v, (40 + 70 * i, 40, 90 + 70 * i, 90), (65 + 70 * i, 65), 0.95 if v else 0.0)
                 for i, v in enumerate(values))
    problems = (Problem(problem, problem),) if problem else ()
    return Reading(dice, problems)


presses = st.builds(Press, st.sampled_from(BUTTON_NAMES + ("HOLD9", "NOPE")), st.sampled_from(["press", "hold"]))
readings = st.builds(a_reading, st.lists(st.one_of(st.integers(1, 6), st.none()), max_size=8),
                     st.one_of(st.none(), st.sampled_from(PROBLEMS)))
# fitting throws make the games move on; the rest is noise around them
fitting = st.just("fit")
pauses = st.floats(0.0, 8.0)
# (weighted towards what moves a game on, fitting throws and OK, so that games get deep enough
# to reach their decisions, secret ones included, with noise of every kind between)
onward = st.sampled_from(["fit", "fit", Press("OK"), Press("OK"), Press("DOWN"), 2.0, "back twice"])
events = st.lists(st.one_of(onward, onward, onward, presses, readings, pauses), min_size=30, max_size=200)


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), events=events, seed=st.integers(0, 2**16))
def test_random_input_never_breaks_the_table_nor_the_game(game, events, seed):
    import random

    players = [f"P{i}" for i in range(PLAYERS[game])]
    log = TableLog(game, players, {})
    clock = Clock()
    folder = tempfile.TemporaryDirectory()
    journal = Journal(Path(folder.name) / "journal.jsonl", log, fsync=False)
    flow = TableFlow(new_game(game, players, {}), log, clock=clock, rng=random.Random(seed),
                     on_apply=journal.append, on_take_back=journal.take_back)
    rng = random.Random(seed)
    for ev in events:
        applied = len(log.inputs)
        if isinstance(ev, Press):
            flow.on_button(ev)
        elif ev == "back twice":
            flow.on_button(Press("BACK"))
            flow.on_button(Press("BACK"))
        elif isinstance(ev, Reading):
            flow.on_reading(ev)
        elif ev == "fit":
            exp = flow.expect
            if hasattr(exp, "count") and hasattr(exp, "held"):
                new = [rng.randint(1, 6) for _ in range(exp.count)]
                flow.on_reading(a_reading(list(exp.held) + new, None))
        else:
            clock.t += ev
            flow.tick()
        view = flow.view()
        exp = flow.expect
        if isinstance(exp, Decide) and exp.secret and not flow.choices_shown:
            assert view.prompt is None or view.prompt.options == ()
        if len(log.inputs) < applied:     # a choice taken back (never a secret one), or dice to correct
            assert len(log.inputs) == applied - 1
            assert (isinstance(exp, Decide) and not exp.secret) or (flow.phase == CORRECT and isinstance(exp, Throw))
    assert replay(log).snapshot() == flow.state.snapshot()
    assert Journal.load(journal.path).inputs == log.inputs
    folder.cleanup()
