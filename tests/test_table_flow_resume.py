"""A power cut after any line of the journal: the table comes back as the players left it.

A game is played at the real table flow, journaled as `dicetable run` journals it (moves, take-
backs, holds); the journal is then cut after each of its lines and the table started on it. After
each thing the players did, the resumed table must have the same moves, the same dice held (holds
used to be lost: *Hold again any dice you had held*) and the same dice a long OK would correct (it
could correct none after a cut) as the table had; a cut between the lines of one thing (HOLD
pressed twice, a take-back and the holds it gives back, dice taken back to correct them and put
back) must resume whole, with those moves."""
from __future__ import annotations

import json
from pathlib import Path

import pytest


from controller.config import parse_config
from controller.journal import Journal, load_any
from controller.rules import Decide, RerollSpec, new_game
from controller.table import DECIDE, TableFlow, holds_fit
from controller.table_app import TableApp
from controller.tablelog import TableLog
from display.screen import Screen
from table_helpers import Clock, Press
from test_table_e2e import FakeButtons, NoFrames
from test_table_flow import reading, settle_and_confirm


def live_table(journal_path: Path) -> tuple[TableFlow, Clock]:
    """A table flow journaled as TableApp journals it."""
    log = TableLog("thirteen", ["Ann", "Bob"], {})
    journal = Journal(journal_path, log)
    clock = Clock()
    flow = TableFlow(new_game("thirteen", ["Ann", "Bob"], {}), log, clock=clock, on_apply=journal.append,
                     on_take_back=journal.take_back, on_hold=journal.hold)
    return flow, clock


def hold_values(flow: TableFlow, *values: int) -> None:
    """HOLD the first dice of `values` not held yet, as a player would press them."""
    for v in values:
        i = next(i for i, (x, h) in enumerate(zip(flow.tray_values, flow.holds)) if x == v and not h)
        flow.on_button(Press(f"HOLD{i + 1}"))


def release(flow: TableFlow, value: int) -> None:
    """HOLD the die of `value` held, to release it (by its value: a resumed table numbers the dice
    as the camera finds them, which need not be the order they were read in)."""
    i = next(i for i, (x, h) in enumerate(zip(flow.tray_values, flow.holds)) if x == value and h)
    flow.on_button(Press(f"HOLD{i + 1}"))


def choose(flow: TableFlow, action: str, key: str = "") -> None:
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.action == action and e.key == key)
    flow.on_button(Press("OK"))


#: Ann's and Bob's first turns, with holds changed, cleared, made on the menu's die lines and
#: given back by a take-back, and dice corrected after they were accepted: each step a thing the
#: players do, at a table flow and its clock
STEPS = [
    lambda flow, clock: settle_and_confirm(flow, clock, [6, 6, 2, 3, 5]),
    lambda flow, clock: hold_values(flow, 6, 6),
    lambda flow, clock: hold_values(flow, 5),
    lambda flow, clock: release(flow, 5),                         # (the 5 released again)
    lambda flow, clock: choose(flow, "reroll"),                   # throw 2 3 5 again, keeping 6 6
    lambda flow, clock: settle_and_confirm(flow, clock, [6, 6, 6, 1, 1]),
    lambda flow, clock: hold_values(flow, 6, 6, 6),
    lambda flow, clock: flow.on_button(Press("BACK")),            # "Holds cleared"
    lambda flow, clock: (setattr(flow, "cursor", next(i for i, e in enumerate(flow.menu())
                                                      if e.action == "die" and flow.tray_values[e.index] == 1)),
                         flow.on_button(Press("OK"))),            # a 1 held on the menu's die line
    lambda flow, clock: choose(flow, "option", "ACES"),
    lambda flow, clock: (flow.on_button(Press("BACK")), flow.on_button(Press("BACK"))),  # taken back: 1 held again
    lambda flow, clock: choose(flow, "option", "THREE_KIND"),
    lambda flow, clock: settle_and_confirm(flow, clock, [4, 4, 4, 4, 2]),   # Bob
    lambda flow, clock: correct(flow, 4, 3),                      # misread: a long OK after it was accepted
    lambda flow, clock: hold_values(flow, 4, 4, 4),
]


def play(flow: TableFlow, clock: Clock, steps: range = range(len(STEPS))):
    """The `steps` of STEPS; after each: what the table holds, its moves, and the dice a long OK
    would correct."""
    for step in steps:
        STEPS[step](flow, clock)
        yield sorted(flow.held_values) if flow.phase == DECIDE else [], list(flow.log.inputs), offered(flow)


def correct(flow: TableFlow, die: int, value: int) -> None:
    """A long OK on the dice accepted, die number `die` set to `value`, a long OK to accept."""
    flow.on_button(Press("OK", "hold"))
    flow.pending[die - 1] = value
    flow.on_button(Press("OK", "hold"))


def offered(flow: TableFlow) -> tuple:
    """The dice a long OK would correct now, and the choice BACK twice would take back with the
    dice it would hold again (None: none)."""
    last, choice = flow.correction_offered, flow.take_back_offered
    return (sorted(last.values) if last is not None else None,
            (choice.label, sorted(v for v, h in zip(choice.tray_values, choice.holds) if h)) if choice else None)


def resumed(folder: Path, lines: list[bytes]) -> TableFlow:
    folder.mkdir()
    (folder / "current.jsonl").write_bytes(b"".join(lines))
    app = TableApp(parse_config(f'[table]\njournal_dir = "{folder}"\n'), Screen((800, 480), headless=True),
                   NoFrames(), FakeButtons())
    assert app.flow is not None and not (folder / "games").exists()
    return app.flow


def test_a_cut_after_any_line_of_the_journal_resumes_the_moves_and_the_holds(tmp_path):
    live = tmp_path / "live.jsonl"
    flow, clock = live_table(live)
    steps = [(1, [], [], (None, None))] + [(len(live.read_bytes().splitlines()), *seen) for seen in play(flow, clock)]
    lines = live.read_bytes().splitlines(keepends=True)
    assert any(held for _, held, _, _ in steps) and any(json.loads(x) == {"undo": True} for x in lines)
    assert sum(dice is not None for *_, (dice, _) in steps) >= 4 and steps[-2][-1][0] == [2, 3, 4, 4, 4]
    assert ("Aces, 2 points", [1]) in [choice for *_, (_, choice) in steps]     # (a box scored with a 1 held)
    ends = {n: (held, inputs, dice) for n, held, inputs, dice in steps}
    assert len(ends) == len(steps)          # (each step wrote a line: none is lost in a cut)
    assert any(ends[n][0] for n in ends if json.loads(lines[n - 2]) == {"undo": True})   # (holds given back)
    assert any(ends[n][2][0] for n in ends if json.loads(lines[n - 2]) == {"undo": True})   # (dice corrected)
    for n in range(1, len(lines) + 1):
        back = resumed(tmp_path / f"cut{n}", lines[:n])
        held = sorted(back.held_values) if back.phase == DECIDE else []
        if n in ends:        # (between two things the players did: the table as they left it)
            assert (held, back.log.inputs, offered(back)) == ends[n], n
            text = back.view().message.text
            assert ("Dice still held: " in text) == bool(held), (n, text)
        else:                # (inside one: HOLD pressed twice, a take-back and the holds it gave back)
            line = json.loads(lines[n - 1])
            (tmp_path / "prefix.jsonl").write_bytes(b"".join(lines[:n]))
            assert back.log.inputs == Journal.load(tmp_path / "prefix.jsonl").inputs, n
            assert held == (sorted(line["hold"]) if "hold" in line else []), (n, line)


def test_holds_are_given_back_only_at_a_decision_in_the_open():
    """A secret decision's holds would be on the shared screen before its player opened the
    menu: none is journaled or given back (no game has one with dice to hold today)."""
    spec = RerollSpec((6, 6, 1, 2, 3))
    assert holds_fit(Decide(0, (), reroll=spec), 0, [6, 6])
    assert not holds_fit(Decide(0, (), reroll=spec, secret=True), 0, [6, 6])
    assert not holds_fit(Decide(0, (), reroll=spec), 1, [6, 6])           # another player's
    assert not holds_fit(Decide(0, (), reroll=spec), 0, [6, 6, 6])        # dice not thrown
    assert not holds_fit(Decide(0, ()), 0, [6])                            # nothing to throw again


def test_a_secret_decision_journals_no_holds(tmp_path):
    journal = tmp_path / "live.jsonl"
    flow, _ = live_table(journal)
    exp = Decide(0, (), reroll=RerollSpec((6, 6, 1, 2, 3)), secret=True)
    flow.state = type("Secret", (), {"expects": lambda self: exp, "player_name": lambda self, p: "Ann"})()
    flow.phase, flow.tray_values, flow.holds, flow._open_for = DECIDE, [6, 6, 1, 2, 3], [False] * 5, 0
    flow.on_button(Press("HOLD1"))
    assert flow.holds[0] and b'"hold"' not in journal.read_bytes()


def started(folder: Path) -> TableFlow:
    """The real table started on the journal in `folder` (as `dicetable run` after a cut)."""
    app = TableApp(parse_config(f'[table]\njournal_dir = "{folder}"\n'), Screen((800, 480), headless=True),
                   NoFrames(), FakeButtons())
    assert app.flow is not None
    return app.flow


def seen(flow: TableFlow) -> tuple:
    """All a player can find of the table after a resume: the moves, the dice held, what a long
    OK and BACK twice would offer, and what the screen says."""
    held = sorted(flow.held_values) if flow.phase == DECIDE else []
    return flow.phase, flow.log.inputs, held, offered(flow), flow.view().message.text


def cut_again_and_again(folder: Path, lines: list[bytes], cuts: tuple[int, ...]) -> TableFlow:
    """The table cut after line cuts[0] of the game's journal, started, then cut after line
    cuts[1] (the lines between written as the table writes them after what it found), and so
    on: the table as it came back from the last cut."""
    folder.mkdir()
    journal = folder / "current.jsonl"
    journal.write_bytes(b"".join(lines[:cuts[0]]))
    flow = started(folder)
    for before, at in zip(cuts, cuts[1:]):
        with journal.open("ab") as fh:
            fh.write(b"".join(lines[before:at]))
        flow = started(folder)
    return flow


def scripted_journal(tmp_path: Path) -> list[bytes]:
    live = tmp_path / "live.jsonl"
    flow, clock = live_table(live)
    for _ in play(flow, clock):
        pass
    return live.read_bytes().splitlines(keepends=True)


def test_a_table_cut_twice_comes_back_as_if_cut_once_at_the_second_cut(tmp_path):
    """Two cuts at any two lines (the same line too: a cut as the table came back) leave the
    table as one cut at the second: a resume rewrites the journal, and what the rewrite lost
    (a take-back, the holds of a choice, ...) changed what the next resume offered."""
    lines = scripted_journal(tmp_path)
    once = {n: seen(resumed(tmp_path / f"once{n}", lines[:n])) for n in range(1, len(lines) + 1)}
    wrong = []
    for first in range(1, len(lines) + 1):
        for second in range(first, len(lines) + 1):
            back = cut_again_and_again(tmp_path / f"cut{first}-{second}", lines, (first, second))
            if seen(back) != once[second]:
                wrong.append((first, second, seen(back), once[second]))
    assert not wrong, wrong[:3]


def test_a_table_cut_three_times_comes_back_as_if_cut_once_at_the_third_cut(tmp_path):
    """A sample of three cuts (every fourth line for the first two, every line for the last)."""
    lines = scripted_journal(tmp_path)
    once = {n: seen(resumed(tmp_path / f"once{n}", lines[:n])) for n in range(1, len(lines) + 1)}
    wrong = []
    for first in range(1, len(lines) + 1, 4):
        for second in range(first, len(lines) + 1, 4):
            for third in range(second, len(lines) + 1):
                back = cut_again_and_again(tmp_path / f"cut{first}-{second}-{third}", lines, (first, second, third))
                if seen(back) != once[third]:
                    wrong.append((first, second, third))
    assert not wrong, (len(wrong), wrong[:10])


DAMAGE = {"not-json": b"garbage\n", "not-an-object": b"[1]\n",
          "refused": b'{"type": "dice", "player": 5, "values": [1]}\n'}


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_table_cut_again_after_resuming_a_damaged_journal_comes_back_as_it_did(tmp_path, damage):
    """The damage at each line of the scripted game. The first start resumes up to it, offers no
    move back and names the damage; the journal it rewrote had no damage left in it, so a cut
    before the next move offered back with BACK twice and a long OK the moves after which moves
    were lost, and the screen said nothing of the damage. `dicetable replay` reads its moves."""
    lines = scripted_journal(tmp_path)
    for n in range(2, len(lines)):      # (a line not JSON as the last is a torn one, not damage)
        folder = tmp_path / f"damaged{n}"
        folder.mkdir()
        (folder / "current.jsonl").write_bytes(b"".join(lines[:n]) + damage + b"".join(lines[n:]))
        first = seen(started(folder))
        assert first[3] == (None, None) and "the rest of the journal was damaged" in first[4], n
        assert seen(started(folder)) == first, n
        assert load_any(folder / "current.jsonl").inputs == first[1], n


def started_with_clock(folder: Path, clock: Clock) -> TableFlow:
    """As `started`, the table's time a test clock (the scripted steps move it)."""
    app = TableApp(parse_config(f'[table]\njournal_dir = "{folder}"\n'), Screen((800, 480), headless=True),
                   NoFrames(), FakeButtons(), clock=clock)
    assert app.flow is not None
    return app.flow


def test_the_presses_made_between_cuts_at_the_resumed_table_end_as_with_one_cut(tmp_path):
    """Cut after step i of the scripted game, the same presses made at the table that came back
    up to step j, cut again (and again after step k): the table comes back as it did from one
    cut after step j (k). The lines written in between are the resumed table's own, not copies."""
    live, clock = live_table(tmp_path / "live.jsonl")
    for _ in play(live, clock):
        pass
    boundaries = []
    live2, clock2 = live_table(tmp_path / "live2.jsonl")
    for k, _ in enumerate(play(live2, clock2)):
        boundaries.append(len((tmp_path / "live2.jsonl").read_bytes().splitlines(keepends=True)))
    lines = (tmp_path / "live.jsonl").read_bytes().splitlines(keepends=True)
    once = [seen(resumed(tmp_path / f"once{j}", lines[:n])) for j, n in enumerate(boundaries)]
    wrong = []
    for cuts in [(i, j) for i in range(len(STEPS)) for j in range(i, len(STEPS))] + [
            (i, j, k) for i in range(0, len(STEPS), 4) for j in range(i, len(STEPS), 3) for k in range(j, len(STEPS))]:
        folder = tmp_path / "-".join(map(str, cuts))
        folder.mkdir()
        (folder / "current.jsonl").write_bytes(b"".join(lines[:boundaries[cuts[0]]]))
        clock = Clock()
        flow = started_with_clock(folder, clock)
        for before, at in zip(cuts, cuts[1:]):
            for _ in play(flow, clock, range(before + 1, at + 1)):
                pass
            flow = started_with_clock(folder, clock)
        if seen(flow) != once[cuts[-1]]:
            wrong.append(cuts)
    assert not wrong, wrong


def fixture_journals() -> dict[str, list[bytes]]:
    """The fixture games of all five kinds as the table journals them, Pok'n Roll also with its
    imaginary cup drawn by the table."""
    from controller.tablelog import FORMAT

    journals = {}
    for path in sorted((Path(__file__).parent / "fixtures" / "logs").glob("*.json")):
        game = TableLog.load(path)
        variants = {path.stem: dict(game.options)}
        if game.game == "poknroll":
            variants[path.stem + "-drawn"] = dict(game.options, imaginary_dice_source="engine_rng")
        for name, options in variants.items():
            header = {"format": FORMAT, "game": game.game, "players": game.players, "options": options}
            journals[name] = [json.dumps(line).encode() + b"\n" for line in [header, *game.inputs]]
    return journals


@pytest.mark.parametrize("name", fixture_journals().keys())
def test_every_game_cut_again_as_it_came_back_comes_back_the_same(tmp_path, name):
    """Each game of the fixtures cut after every fifth line and at its end (a finished game), and
    cut again as the table came back: the same moves, holds, offers and words. Only where the
    first start drew the imaginary cup does the second say less: the draw is then a move
    replayed, as after a cut just after the table drew it in play."""
    lines = fixture_journals()[name]
    for n in sorted({*range(2, len(lines) + 1, 5), len(lines)}):
        folder = tmp_path / f"cut{n}"
        folder.mkdir()
        (folder / "current.jsonl").write_bytes(b"".join(lines[:n]))
        first = started(folder)
        drew = len(first.log.inputs) > n - 1
        again = seen(started(folder))
        assert again[:4] == seen(first)[:4], (name, n)
        assert drew or again[4] == seen(first)[4], (name, n)
        assert first.state.is_over == (n == len(lines)) or name.endswith("-drawn"), (name, n)
