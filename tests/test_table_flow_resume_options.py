"""Power cuts under the house rules that change a game's flow the most, as data: option sets x games.

Each game is played at the real table (TableApp, its journal, a first player left to the table
drawn as the game is set up) by a seeded player: dice thrown, dice held with the HOLD buttons,
secret menus opened with OK, choices taken back with BACK twice now and then. The journal is then
cut after every line (and at pairs of lines, sampled) and the table started on it. The table that
comes back must be the one the players left: the same moves (none lost, none applied twice), the
same prompt and menu, the same dice held, the same take-back and correction offered; a secret
decision's menu closed again (never shown or offered back after a restart); and no draw of the
table's made again once its line is in the journal.

The table's draws (Pok'n Roll's imaginary cup) are made with a seeded stand-in keyed by the game's
position, so that a table that draws again after a cut before the draw's line draws the same dice
and the game goes on as it did (a draw made twice where its line was kept is counted)."""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import controller.table as table_module
from controller.config import parse_config
from controller.journal import Journal
from controller.powercut import player_input
from controller.rules import Decide, Throw
from controller.rules.base import dice_input
from controller.setup_menu import SetupResult
from controller.table import DECIDE, OVER, TableFlow
from controller.table_app import TableApp
from display.screen import Screen
from table_helpers import Clock, Press
from test_table_e2e import FakeButtons, NoFrames
from test_table_flow import reading

#: the option sets: (game, players, house rules, moves played (None: the whole game))
OPTION_SETS: dict[str, tuple[str, list[str], dict[str, Any], int | None]] = {
    "classic-betting": ("classic", ["Ann", "Bob", "Cy"],
                        {"variant": "betting", "rounds": 4, "ante": 1, "first_player": "drawn"}, None),
    "classic-betting-keep-declared": ("classic", ["Ann", "Bob"],
                                      {"variant": "betting", "rounds": 4, "keep_declared_in_phase1": True,
                                       "betting_model": "simple_pot"}, None),
    "classic-first-to-roll-off": ("classic", ["Ann", "Bob", "Cy"],
                                  {"match_length": "first_to", "first_to": 3, "round_tie": "roll_off",
                                   "match_tie": "sudden_death", "rotate_first_player": False,
                                   "first_player": "drawn"}, None),
    "poknroll-drawn-simultaneous": ("poknroll", ["Ann", "Bob", "Cy"],
                                    {"imaginary_dice_source": "engine_rng", "reveal_on_abandon": "end_of_hand",
                                     "boxes_per_line": 3, "first_player": "drawn"}, 90),
    "poknroll-drawn-sequential": ("poknroll", ["Ann", "Bob", "Cy"],
                                  {"imaginary_dice_source": "engine_rng", "decision_order": "sequential",
                                   "end_timing": "immediate", "boxes_per_line": 3, "mode": "expert",
                                   "imaginary_player_dice": "same_as_mode", "must_mark_best": False}, 90),
    "poknroll-sequential-four": ("poknroll", ["Ann", "Bob", "Cy", "Dee"],
                                 {"decision_order": "sequential", "reveal_on_abandon": "end_of_hand",
                                  "abandon_without_combination": "nothing", "boxes_per_line": 2}, 80),
    "objective-cards-two-player-variant": ("objective-cards", ["Ann", "Bob"],
                                           {"two_player_strategic_variant": True, "tie_break": "shared"}, 70),
    "objective-cards-three": ("objective-cards", ["Ann", "Bob", "Cy"],
                              {"allow_duplicate_objective_in_round": False, "start_seat": 2,
                               "full_house_accepts_five_of_a_kind": True}, 70),
    "school-any-column": ("school", ["Ann", "Bob"],
                          {"row_fill_order": "any_free_column", "school_reserve_mode": "fixed_three",
                           "voluntary_cross_allowed": False, "first_player": "drawn"}, 50),
    "school-reserve": ("school", ["Ann"],
                       {"unused_reserve_at_end": "scored", "award_block_scope": "row_cells_too",
                        "double_on_first_throw": False, "school_cross_penalty": "erase_earned_only"}, 50),
    "thirteen-forced-joker": ("thirteen", ["Ann", "Bob"],
                              {"joker_forced_order": True, "tie": "fewer_zeros", "first_player": "drawn",
                               "extra_five_eligibility": "first_five_in_box", "early_close_on_zero": True}, 60),
}
SEED = 5


# ---------------------------------------------------------------------------------- the table's draws
def seeded_draw(exp: Throw, rng: random.Random | None = None) -> dict[str, Any]:
    """A draw of the table's as a function of what it is for (DRAWS counts them): the same after
    a cut as before it, so that a game cut before a draw's line goes on as it did."""
    DRAWS.append(exp)
    values = random.Random(f"{SEED}:{exp!r}").choices(range(1, 7), k=exp.count)
    return dice_input(exp.player, values)


DRAWS: list[Throw] = []


@pytest.fixture(autouse=True)
def _seeded_draws(monkeypatch):
    monkeypatch.setattr(table_module, "draw", seeded_draw)
    DRAWS.clear()


# ------------------------------------------------------------------------------------ the table
def config(folder: Path):
    return parse_config(f'[table]\njournal_dir = "{folder}"\nidle_minutes = 0\n')


def new_table(folder: Path, game: str, players: list[str], options: dict, clock: Clock) -> TableApp:
    """A table whose players chose `game` on the setup menu (a first player left to the table is
    drawn here, once, and journaled in the header)."""
    app = TableApp(config(folder), Screen((800, 480), headless=True), NoFrames(), FakeButtons(), clock=clock,
                   rng=random.Random(SEED))
    app.menu.done = SetupResult(game, tuple(players), dict(options))
    app.start_new()
    return app


def started(folder: Path, clock: Clock | None = None) -> TableFlow:
    """The real table started on the journal in `folder` (as `dicetable run` after a cut)."""
    app = TableApp(config(folder), Screen((800, 480), headless=True), NoFrames(), FakeButtons(),
                   clock=clock or Clock())
    assert app.flow is not None
    return app.flow


# ----------------------------------------------------------------------------------- the player
@dataclass(frozen=True)
class Step:
    """One thing the players do: "throw" the dice of move `move`, "hold" the dice its reroll keeps,
    "choose" its option (a secret menu opened with OK first), "take back" the choice just made,
    "correct" the dice just accepted (reopened with a long OK, accepted as read)."""

    kind: str
    move: int


#: the choices that end a player's round or hand at once (a game of them is over in a few moves)
QUITS = {"FOLD", "ABANDON"}


def move_for(flow: TableFlow, move: int) -> dict[str, Any]:
    """The seeded player's move number `move` (powercut.player_input), who folds or abandons
    only one time in five that it would: hands reach their showdowns and the table's draws."""
    data = player_input(flow.state, move, SEED)
    exp = flow.expect
    if data["type"] == "choose" and data["option"] in QUITS:
        rng = random.Random(f"{SEED}:{move}:stays")
        others = [o.key for o in exp.options if o.key not in QUITS]
        if others and rng.random() < 0.8:
            data = dict(data, option=rng.choice(others))
    return data


def act(flow: TableFlow, clock: Clock, step: Step) -> None:
    """Do `step` at the table, as players would with its buttons."""
    if step.kind == "take back":         # (the next move's turn already: BACK twice)
        clock.t += 1.0
        flow.on_button(Press("BACK"))
        flow.on_button(Press("BACK"))
        return
    if step.kind == "correct":           # (the dice just accepted reopened, and accepted as read)
        flow.on_button(Press("OK", "hold"))
        flow.on_button(Press("OK", "hold"))
        return
    data = move_for(flow, step.move)
    exp = flow.expect
    if step.kind == "throw":
        assert isinstance(exp, Throw) and not exp.drawn, (step, exp)
        flow.on_reading(reading(list(exp.held) + list(data["values"])))
        clock.t += 5.0
        flow.tick()
        return
    assert isinstance(exp, Decide), (step, exp)
    if not flow.choices_shown:
        flow.on_button(Press("OK"))
    if step.kind == "hold":
        left = list(data["keep"])
        for i, (value, held) in enumerate(zip(flow.tray_values, flow.holds)):
            if value in left:
                left.remove(value)
                if not held:
                    flow.on_button(Press(f"HOLD{i + 1}"))
        return
    wanted = ("reroll", "") if data["type"] == "reroll" else ("option", data["option"])
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if (e.action, e.key) == wanted)
    flow.on_button(Press("OK"))
    clock.t += 2.0
    flow.tick()


def steps_for(flow: TableFlow) -> list[Step]:
    """The steps of the move the game is at (its next input): a throw; or the holds, then the choice."""
    move = len(flow.log.inputs)
    if isinstance(flow.expect, Throw):
        return [Step("throw", move)]
    data = move_for(flow, move)
    return ([Step("hold", move)] if data["type"] == "reroll" and data["keep"] else []) + [Step("choose", move)]


def takes_back(flow: TableFlow, move: int, taken_back: set[int]) -> bool:
    """Whether the player takes the choice just made (move `move`) back, to make it again: every
    fifth move, where BACK twice can (not once a secret menu of the next player is up)."""
    exp = flow.expect
    shut = isinstance(exp, Decide) and not flow.choices_shown
    if move % 5 != 2 or move in taken_back or flow.take_back_offered is None or shut or any(flow.holds):
        return False
    taken_back.add(move)
    return True


def corrects(flow: TableFlow, move: int, done: set[int]) -> bool:
    """Whether the players reopen the dice just accepted (move `move`) with a long OK, to accept
    them as read: every seventh move, where a long OK can (not under a secret menu still shut,
    which OK opens)."""
    exp = flow.expect
    shut = isinstance(exp, Decide) and not flow.choices_shown
    if move % 7 != 3 or move in done or flow.correction_offered is None or shut:
        return False
    done.add(move)
    return True


def seen(flow: TableFlow) -> tuple:
    """All a player can find of the table: the moves, the phase, the dice held, what a long OK and
    BACK twice would offer, the sheet, and the prompt with its menu (the menu's lines, not where
    the cursor is: a restart puts it back on the first real choice). At a secret decision the
    menu is shut, as it is after a restart (its player opens it again)."""
    view = flow.view()
    held = sorted(flow.held_values) if flow.phase == DECIDE else []
    last, choice = flow.correction_offered, flow.take_back_offered
    offered = (sorted(last.values) if last is not None else None,
               (choice.label, sorted(v for v, h in zip(choice.tray_values, choice.holds) if h)) if choice else None)
    prompt = view.prompt
    menu = None
    if prompt is not None:
        exp = flow.expect
        secret = isinstance(exp, Decide) and exp.secret
        menu = "(secret)" if secret else (HELD_WHERE.sub("", prompt.text), prompt.hint, menu_lines(prompt.options))
    if flow.phase == OVER:
        # a game found over at start is shown as finished before the restart, and offers nothing
        # back (its players may have put it away already): the standings and sheet are the same
        offered, menu = (None, None), None
    if offered[1] is not None:
        offered = (offered[0], (KEEPING.sub(lambda m: " ".join(sorted(m[0].split())), offered[1][0]), offered[1][1]))
    # (the sheet as with the cursor on no option: School's previews the cursor's option, and a
    # restart puts the cursor back, as said above)
    sheet = flow.state.sheet().to_json() if flow.phase == DECIDE else view.sheet
    return flow.phase, list(flow.log.inputs), held, offered, json.dumps(sheet, sort_keys=True), menu


def menu_lines(options) -> tuple:
    """The menu's lines; its die lines as the dice they name, in no order (a restart numbers the
    dice as they lie in the tray, or in order of value while it has not seen them)."""
    lines = [(o.label, o.points, o.enabled) for o in options if not DIE_LINE.match(o.label)]
    dice = sorted(DIE_LINE.match(o.label).group(1) for o in options if DIE_LINE.match(o.label))
    return tuple(lines), tuple(dice)


DIE_LINE = re.compile(r"Die \d+ (\(.*)$")
KEEPING = re.compile(r"(?<=keeping ).*$")


#: where the held dice are (the table knows after it read them, not after a restart: "with your
#: held K K back in the tray" in place of "(2 held stay)"), the one way a prompt may differ
HELD_WHERE = re.compile(r", with your held [^.]* back in the tray|, \d held stay(?=\))| \(\d held stay\)")


@dataclass
class Played:
    """A game played at the table: its journal's lines, and after each step the line count and
    what the table showed."""

    lines: list[bytes]
    steps: list[Step]
    ends: list[tuple[int, tuple]] = field(default_factory=list)
    #: after each step: the dice lying in the tray (the last accepted), and those decided on
    trays: list[tuple[list[int], list[int]]] = field(default_factory=list)


def play(folder: Path, name: str) -> Played:
    game, players, options, moves = OPTION_SETS[name]
    clock = Clock()
    app = new_table(folder, game, players, options, clock)
    flow = app.flow
    journal = folder / "current.jsonl"
    played = Played([], [], [(len(journal.read_bytes().splitlines()), seen(flow))], [([], [])])
    taken_back: set[int] = set()
    while not flow.state.is_over and (moves is None or len(flow.log.inputs) < moves):
        steps = steps_for(flow)
        while steps:
            step = steps.pop(0)
            act(flow, clock, step)
            played.steps.append(step)
            played.ends.append((len(journal.read_bytes().splitlines()), seen(flow)))
            played.trays.append(([v for v, _ in flow.played], list(flow.tray_values)))
            if step.kind == "choose" and takes_back(flow, step.move, taken_back):
                steps.append(Step("take back", step.move))
            if step.kind == "throw" and corrects(flow, step.move, taken_back):
                steps.append(Step("correct", step.move))
    played.lines = journal.read_bytes().splitlines(keepends=True)
    return played


_PLAYED: dict[str, Played] = {}


def played_once(tmp_path_factory, name: str) -> Played:
    """The game of option set `name`, played once for the tests of this module (it is the same
    game each time: the player and the table's draws are seeded)."""
    if name not in _PLAYED:
        _PLAYED[name] = play(tmp_path_factory.mktemp(name) / "live", name)
    return _PLAYED[name]


def cut_at(folder: Path, lines: list[bytes]) -> TableFlow:
    folder.mkdir()
    (folder / "current.jsonl").write_bytes(b"".join(lines))
    return started(folder)


def secret_kept(flow: TableFlow) -> bool:
    """A secret decision comes back with its menu shut: none of its choices on screen."""
    exp = flow.expect
    if not (isinstance(exp, Decide) and exp.secret):
        return True
    prompt = flow.view().prompt
    return not flow.choices_shown and prompt is not None and prompt.options == ()


# ------------------------------------------------------------------------------------ the tests
@pytest.mark.parametrize("name", OPTION_SETS)
def test_a_cut_after_any_line_gives_back_the_same_game(tmp_path, tmp_path_factory, name):
    """The table started on the journal cut after each of its lines: the moves journaled, no
    more (but a draw the journal does not have yet) and no fewer; a secret menu shut; and after
    each thing the players did, the table as they left it."""
    played = played_once(tmp_path_factory, name)
    header = json.loads(played.lines[0])
    assert header["options"] == {**OPTION_SETS[name][2], **header["options"]}
    if OPTION_SETS[name][2].get("first_player") == "drawn":
        assert "start_seat" in header["options"]        # (drawn once, as the game was set up)
    ends = dict(played.ends)
    wrong = []
    for n in range(1, len(played.lines) + 1):
        DRAWS.clear()
        back = cut_at(tmp_path / f"cut{n}", played.lines[:n])
        prefix = tmp_path / f"prefix{n}.jsonl"
        prefix.write_bytes(b"".join(played.lines[:n]))
        journaled = Journal.load(prefix).inputs
        exp_after = started_state_expect(prefix)
        # no move lost or applied twice; the table draws only where the journal has no draw yet
        drew = len(DRAWS)
        if back.log.inputs[:len(journaled)] != journaled or len(back.log.inputs) != len(journaled) + drew:
            wrong.append((n, "moves", back.log.inputs[len(journaled) - 2:], journaled[-2:]))
        if drew and not (isinstance(exp_after, Throw) and exp_after.drawn):
            wrong.append((n, "drew again", DRAWS))
        if not secret_kept(back):
            wrong.append((n, "secret shown", back.view().prompt))
        if n in ends and seen(back) != ends[n]:
            wrong.append((n, "not as left", diff(seen(back), ends[n])))
    assert not wrong, wrong[:4]


def started_state_expect(prefix: Path):
    """What the game expects after the journal's inputs (before the table does anything)."""
    from controller.tablelog import replay

    return replay(Journal.load(prefix)).expects()


def diff(a: tuple, b: tuple) -> list:
    names = ("phase", "inputs", "held", "offered", "sheet", "menu")
    return [(k, x, y) for k, x, y in zip(names, a, b) if x != y]


@pytest.mark.parametrize("name", OPTION_SETS)
def test_the_game_goes_on_after_cuts_at_any_two_moments_as_with_none(tmp_path, tmp_path_factory, name):
    """Cut after step i, the same steps played at the table that came back up to step j, cut
    again (sampled pairs, each step a first cut): the table as it was after step j uncut."""
    played = played_once(tmp_path_factory, name)
    count = len(played.steps)
    rng = random.Random(name)
    pairs = sorted({(i, min(count, i + rng.randint(0, 12))) for i in range(0, count + 1, 2)})
    wrong = []
    for i, j in pairs:
        folder = tmp_path / f"cut{i}-{j}"
        folder.mkdir()
        end_i = played.ends[i][0]
        (folder / "current.jsonl").write_bytes(b"".join(played.lines[:end_i]))
        clock = Clock()
        flow = started(folder, clock)
        for step in played.steps[i:j]:
            act(flow, clock, step)
        back = started(folder, Clock())
        if seen(back) != seen_once(tmp_path, played, j):
            wrong.append((i, j, diff(seen(back), seen_once(tmp_path, played, j))))
        if not secret_kept(back):
            wrong.append((i, j, "secret shown"))
    assert not wrong, wrong[:4]


_ONCE: dict[tuple[str, int], tuple] = {}


def seen_once(tmp_path: Path, played: Played, j: int) -> tuple:
    key = (str(tmp_path), j)
    if key not in _ONCE:
        _ONCE[key] = seen(cut_at(tmp_path / f"once{j}", played.lines[:played.ends[j][0]]))
    return _ONCE[key]


@pytest.mark.parametrize("name", OPTION_SETS)
def test_the_dice_found_in_the_tray_at_a_decision_are_not_taken_for_a_throw(tmp_path, tmp_path_factory, name):
    """The table comes back at a decision and its camera finds the dice lying as they were: they
    are the dice decided on, or (betting Classic) the last thrower's, never a throw. At a decision
    with no dice to throw again (Pok'n Roll's abandon and line, Objective cards' cards, Classic's
    bets, Thirteen's and School's last throw) the table had no dice decided on after a restart, and
    said *Ann: decide first (OK on the menu), then throw.* at once, and showed no dice."""
    played = played_once(tmp_path_factory, name)
    wrong = []
    for k, ((n, live), (lying, decided)) in enumerate(zip(played.ends, played.trays)):
        if live[0] != DECIDE or not lying:
            continue
        back = cut_at(tmp_path / f"cut{k}", played.lines[:n])
        said = back.message
        back.on_found_tray(reading(lying))
        # (the dice decided on as the table had them; at a decision after a keep declared before
        # the bets, those it shows: the kept ones and those to throw again, as they lie)
        if back.message is not said or sorted(back.tray_values) not in (sorted(decided), sorted(lying)) \
                or seen(back) != live:
            wrong.append((k, back.message.text if back.message else None, back.tray_values, decided))
    assert not wrong, wrong[:3]
