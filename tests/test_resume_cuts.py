"""Power cuts in the table's newest flows: the game comes back as the players left it, and the
screen says it in words they read (brief: the resume of corrections, games put away and taken up,
BACK twice in loops, the *Resumed* notice)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.config import parse_config
from controller.table_app import TableApp
from display.screen import Screen
from test_table_e2e import FakeButtons, NoFrames

HEADER = {"format": "dicetable-log/2", "game": "thirteen", "players": ["Ann", "Bob"], "options": {}}
DICE = {"type": "dice", "player": 0, "values": [6, 6, 2, 3, 5]}


def journal(folder: Path, *lines: dict) -> Path:
    """A journal folder whose current.jsonl has these lines after its header."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "current.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in (HEADER, *lines)), encoding="utf-8")
    return path


def table(folder: Path, extra: str = "") -> TableApp:
    """The table started on `folder`, as `dicetable run` starts after a power cut."""
    return TableApp(parse_config(f'[table]\njournal_dir = "{folder}"\n{extra}'), Screen((800, 480), headless=True),
                    NoFrames(), FakeButtons())


def test_a_game_cut_after_its_first_move_says_one_move_replayed(tmp_path):
    """The screen said *(1 moves replayed)*; one move is "1 move", more are "moves"."""
    journal(tmp_path / "one", DICE)
    text = table(tmp_path / "one").flow.view().message.text
    assert text == "Resumed Thirteen for Ann, Bob after a restart (1 move replayed).", text
    journal(tmp_path / "two", DICE, {"type": "choose", "player": 0, "option": "SIXES"})
    assert "after a restart (2 moves replayed)." in table(tmp_path / "two").flow.view().message.text


def live_table(path: Path):
    """A table flow journaled as `dicetable run` journals it, Ann and Bob at Thirteen."""
    from controller.journal import Journal
    from controller.rules import new_game
    from controller.table import TableFlow
    from controller.tablelog import TableLog
    from table_helpers import Clock

    log = TableLog("thirteen", ["Ann", "Bob"], {}).with_every_option()
    journal = Journal(path, log)
    clock = Clock()
    flow = TableFlow(new_game("thirteen", ["Ann", "Bob"], log.options), log, clock=clock,
                     on_apply=journal.append, on_take_back=journal.take_back, on_hold=journal.hold)
    return flow, clock


def cut_while_correcting(folder: Path) -> list[dict]:
    """Ann's throw 6 6 2 3 5 accepted, a long OK to correct it, die 5 set to 4 (not yet accepted):
    the power goes. `folder` gets the journal as the cut left it; the moves before the cut."""
    from table_helpers import Press
    from test_table_flow import settle_and_confirm

    folder.mkdir(parents=True)
    flow, clock = live_table(folder / "current.jsonl")
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    read = list(flow.log.inputs)
    flow.on_button(Press("OK", "hold"))                  # correct the dice accepted
    for name in ("HOLD5", "DOWN"):                       # the 5 is a 4 ... and the power goes
        flow.on_button(Press(name))
    assert flow.pending == [6, 6, 2, 3, 4] and flow.log.inputs == []
    return read


def test_a_cut_while_dice_accepted_are_corrected_comes_back_correcting_them(tmp_path):
    """The journal had the dice and their take-back (the long OK): the game came back asking Ann
    to throw again, and the dice lying in the tray were "there before": a throw already read was
    thrown a second time, and a misread die could be had again by pulling the plug. It comes
    back correcting the dice as read, says why, and writes nothing until the players decide."""
    from controller.table import CORRECT
    from table_helpers import Press

    folder = tmp_path / "t"
    read = cut_while_correcting(folder)
    journaled = (folder / "current.jsonl").read_bytes()
    for cut in range(2):                                  # (cut again as it came back: the same)
        app = table(folder)
        flow = app.flow
        assert flow.phase == CORRECT and sorted(flow.pending) == [2, 3, 5, 6, 6], (cut, flow.phase)
        text = flow.view().message.text
        assert text.startswith("Resumed Thirteen for Ann, Bob after a restart (0 moves replayed). Ann's dice "
                               "were being corrected: they are back as read"), text
        assert "throw" not in flow.view().prompt.text.lower(), flow.view().prompt
        assert (folder / "current.jsonl").read_bytes().splitlines()[1:] == journaled.splitlines()[1:], cut
    flow.on_button(Press(f"HOLD{flow.pending.index(5) + 1}"))
    flow.on_button(Press("DOWN"))
    flow.on_button(Press("OK", "hold"))                   # the 4 accepted: Ann decides on her dice
    assert len(flow.log.inputs) == 1 and sorted(flow.log.inputs[0]["values"]) == [2, 3, 4, 6, 6], flow.log.inputs
    assert flow.state.expects().player == 0
    again = table(folder)                                 # (and a cut now: the corrected dice stand)
    assert sorted(again.flow.log.inputs[0]["values"]) == [2, 3, 4, 6, 6] and len(again.flow.log.inputs) == 1
    assert read != again.flow.log.inputs


def test_back_after_a_cut_while_correcting_leaves_the_dice_as_read(tmp_path):
    """BACK during the correction resumed: the dice stand as read, as BACK does at a table that
    never went off; the game goes on from them, journaled once."""
    from controller.table import DECIDE
    from table_helpers import Press

    folder = tmp_path / "t"
    read = cut_while_correcting(folder)
    flow = table(folder).flow
    flow.on_button(Press("BACK"))
    assert flow.phase == DECIDE and flow.log.inputs == read, flow.log.inputs
    assert table(folder).flow.log.inputs == read


def _lines(*data) -> list[bytes]:
    return [json.dumps(x).encode() if isinstance(x, dict) else x for x in data]


def _hold(*values: int) -> dict:
    return {"hold": list(values), "player": 0}


UNDO = {"undo": True}
TWOS, SIXES = ({"type": "choose", "player": 0, "option": k} for k in ("TWOS", "SIXES"))
REROLL = {"type": "reroll", "player": 0, "keep": [6, 6]}
FIXED = {"type": "dice", "player": 0, "values": [6, 6, 2, 3, 4]}
# a journal with choices and dice taken back over and over -> the lines a resume reads the same from
TAKEN_BACK = {
    "boxes-taken-back-then-one-scored": ((DICE, *[_hold(6), TWOS, UNDO] * 300, _hold(6, 6), SIXES),
                                         (DICE, _hold(6, 6), SIXES)),
    "the-last-taken-back-stays": ((DICE, *[TWOS, UNDO] * 300, _hold(6)), (DICE, TWOS, UNDO, _hold(6))),
    "dice-corrected-over-and-over": ((*[DICE, UNDO] * 300, FIXED, _hold(6)), (FIXED, _hold(6))),
    "a-choice-then-its-dice-taken-back": ((DICE, _hold(6, 6), REROLL, UNDO, UNDO), (DICE, UNDO)),
    "holds-of-a-choice-taken-back-go-with-it": ((DICE, _hold(6, 6), REROLL, UNDO, SIXES), (DICE, SIXES)),
}


@pytest.mark.parametrize("lines, counted", TAKEN_BACK.values(), ids=TAKEN_BACK.keys())
def test_a_journal_of_choices_taken_back_resumes_as_the_lines_that_count(tmp_path, lines, counted):
    """Resumed, it is the same table as the lines that count make (moves, holds, the take-back
    and correction offered, what the screen says), and it is written again as those lines."""
    big, small = journal(tmp_path / "big", *lines), journal(tmp_path / "small", *counted)
    a, b = table(tmp_path / "big"), table(tmp_path / "small")
    assert seen(a) == seen(b)
    assert [json.loads(x) for x in big.read_bytes().splitlines()[1:]] == list(counted)
    assert seen(table(tmp_path / "big")) == seen(b)                  # (cut again: the same)
    assert small.read_bytes() == big.read_bytes()


def seen(app: TableApp) -> dict:
    """What the players see and can do after a resume."""
    from controller.table import DECIDE

    flow = app.flow
    offered = flow.take_back_offered
    return {"inputs": flow.log.inputs, "phase": flow.phase, "holds": flow.holds if flow.phase == DECIDE else None,
            "said": flow.view().message.text, "prompt": flow.view().prompt.hint, "pending": flow.pending,
            "take_back": offered and (offered.label, offered.holds), "correction": flow.correction_offered is not None}


def test_back_twice_over_and_over_keeps_the_journal_small(tmp_path):
    """At the table: a box scored and taken back with BACK twice, 600 times, left 1,202 lines and
    growing (2,000 times: 130 KB, the start on it 101 ms, written again whole at each start).
    The journal now holds at most HOLDS_BEFORE_COMPACTING of them, and a cut after the last
    comes back as after one: the box taken back, not offered back again."""
    from controller.journal_compact import HOLDS_BEFORE_COMPACTING
    from table_helpers import Press

    path = journal(tmp_path / "t", DICE)
    app = table(tmp_path / "t")
    most = 0
    for i in range(600):
        app.flow.cursor = next(k for k, e in enumerate(app.flow.menu())
                               if e.action == "option" and e.key == ("TWOS" if i % 2 else "SIXES"))
        for press in ("OK", "BACK", "BACK"):
            app.on_button(Press(press))
        most = max(most, len(path.read_bytes().splitlines()))
    assert app.flow.log.inputs == [DICE] and app.flow.take_back_offered is None
    assert most <= 3 + 2 * HOLDS_BEFORE_COMPACTING, most
    again = table(tmp_path / "t")
    assert again.flow.log.inputs == [DICE] and again.flow.take_back_offered is None
    assert len(path.read_bytes().splitlines()) == 4            # header, dice, the last box and its take-back


class PowerCut(BaseException):
    """The power going: nothing after it runs (not an error the table could catch)."""


def test_a_cut_as_a_game_put_away_is_taken_up_does_not_ask_still_playing(tmp_path, monkeypatch):
    """Ann and Bob come back from the bar 35 minutes after their last move and take up their
    Thirteen; the power goes as it is taken up (its journal back on the table, not yet resumed).
    The journal still had the time of its last move, so the table that came back took the game
    for one left alone 35 minutes: *Still playing?* at once, and two minutes later put away
    again, under the players' noses. Taken up is played: it comes back as a game just played."""
    import controller.table_app as table_app
    from controller.idle import STILL_PLAYING_SECONDS
    from test_between_games import Evening, _left_alone, _throw

    evening = Evening(tmp_path, 'idle_minutes = 30\nplayers = ["Ann", "Bob"]\n')
    evening.press("OK")
    evening.hold()                                          # Thirteen, Ann and Bob
    _throw(evening, [6, 6, 6, 3, 3])
    inputs = list(evening.app.flow.log.inputs)
    _left_alone(evening)
    evening.wall.t += 35 * 60                               # (back from the bar)
    evening.down_to("Take up Thirteen")

    def cut(folder):
        raise PowerCut
    monkeypatch.setattr(table_app, "sync_folder", cut)
    try:
        evening.press("OK")
    except PowerCut:
        pass
    monkeypatch.undo()
    assert (tmp_path / "current.jsonl").exists() and not list((tmp_path / "games").glob("*-put-away.jsonl"))
    evening.power_on()
    app = evening.app
    assert app.flow is not None and app.flow.log.inputs == inputs
    app.step()
    assert not app.idle.left, app.flow.view().message.text
    evening.clock.t += STILL_PLAYING_SECONDS + 60
    app.step()
    assert app.flow is not None and app.flow.log.inputs == inputs    # (not put away again)


def test_a_game_put_away_while_correcting_is_taken_up_correcting_and_no_power_cut_is_named(tmp_path):
    """Ann's dice accepted, a long OK to correct them, and the group went to the bar: the game is
    put away. Taken up, it comes back correcting them, in words true of a game put away (the
    table said "The power went" of it)."""
    from controller.table import CORRECT
    from test_between_games import Evening, _left_alone, _throw

    evening = Evening(tmp_path, 'idle_minutes = 30\nplayers = ["Ann", "Bob"]\n')
    evening.press("OK")
    evening.hold()                                          # Thirteen, Ann and Bob
    _throw(evening, [6, 6, 6, 3, 3])
    evening.clock.t += 2
    evening.hold()                                          # a long OK: correct them
    assert evening.app.flow.phase == CORRECT
    _left_alone(evening)
    evening.down_to("Take up Thirteen")
    evening.press("OK")
    flow = evening.app.flow
    assert flow is not None and flow.phase == CORRECT and sorted(flow.pending) == [3, 3, 6, 6, 6]
    text = flow.view().message.text
    assert text.startswith("Thirteen (Ann, Bob) taken up where it was left (0 moves replayed). Ann's dice were "
                           "being corrected: they are back as read"), text
    assert "power" not in text.lower()


def test_a_correction_resumed_marks_the_dice_where_the_camera_finds_them(tmp_path):
    """The journal keeps values, not places: the dice being corrected were numbered in a row along
    the bottom of the picture. Once the camera finds the same dice lying in the tray, they are
    marked where they lie, and the correction goes on from them."""
    from test_table_flow import reading

    folder = tmp_path / "t"
    cut_while_correcting(folder)
    flow = table(folder).flow
    row = list(flow.pending_boxes)
    found = reading([5, 3, 2, 6, 6])
    flow.on_found_tray(found)
    assert flow.pending == [5, 3, 2, 6, 6] and flow.pending_boxes == [d.box for d in found.dice] != row
    marks = flow.view().tray.dice
    assert [tuple(m.box) for m in marks] == [tuple(d.box) for d in found.dice], marks
    flow.on_found_tray(reading([5, 3, 2, 6, 1]))          # (other dice: the marks stay as they are)
    assert flow.pending == [5, 3, 2, 6, 6] and flow.pending_boxes == [d.box for d in found.dice]


@pytest.mark.parametrize("values", [[9, 9, 9, 9, 9], [6, 6], "66666", 5, None, [6, 6, True, 6, 6], [6.0] * 5],
                         ids=["nines", "two-dice", "a-string", "a-number", "none", "a-bool", "floats"])
def test_dice_taken_back_that_cannot_be_put_back_are_asked_again_and_said(tmp_path, values):
    """A journal edited by hand (or written by something else) whose last line takes back dice the
    throw cannot have: the table resumes, asks for the throw again and says why; nothing crashes."""
    from controller.table import WAIT_DICE

    journal(tmp_path / "t", {"type": "dice", "player": 0, "values": values}, UNDO)
    flow = table(tmp_path / "t").flow
    assert flow is not None and flow.phase == WAIT_DICE and flow.log.inputs == []
    assert flow.view().message.text.endswith("Ann's dice were being corrected, and cannot be put back: "
                                             "throw them again."), flow.view().message.text


def _put_away_and_take_up(tmp_path: Path, monkeypatch, cut_at: int | None) -> tuple[object, list, int]:
    """Ann and Bob's Thirteen put away by *Still playing?*, taken up 35 minutes after its last move;
    the power goes at the `cut_at`-th write of a name on the card (a rename, a folder synced; None:
    never). The table started again (or not cut), its inputs, and the writes counted."""
    import os

    import controller.journal as journal_module
    import controller.table_app as table_app
    from test_between_games import Evening, _left_alone, _throw

    evening = Evening(tmp_path, 'idle_minutes = 30\nplayers = ["Ann", "Bob"]\n')
    evening.press("OK")
    evening.hold()
    _throw(evening, [6, 6, 6, 3, 3])
    inputs = list(evening.app.flow.log.inputs)
    writes = [0]

    def counted(real):
        def write(*args, **kwargs):
            writes[0] += 1
            if writes[0] == cut_at:
                raise PowerCut
            return real(*args, **kwargs)
        return write
    monkeypatch.setattr(os, "replace", counted(os.replace))
    monkeypatch.setattr(table_app, "sync_folder", counted(table_app.sync_folder))
    monkeypatch.setattr(journal_module, "sync_folder", counted(journal_module.sync_folder))
    try:
        _left_alone(evening)
        evening.wall.t += 35 * 60
        evening.down_to("Take up Thirteen")
        evening.press("OK")
    except PowerCut:
        monkeypatch.undo()
        evening.power_on()
    monkeypatch.undo()
    return evening.app, inputs, writes[0]


def test_a_cut_at_every_write_of_putting_away_and_taking_up_keeps_the_game_once(tmp_path, monkeypatch):
    """Wherever the power goes as a game is put away and taken up again, the table comes back
    with that game once: on the table with its moves, or offered to be taken up, never lost, never
    both; and once it is back on the table for the players who took it up, not asked *Still
    playing?* at once."""
    from controller.kept_games import offered

    app, inputs, writes = _put_away_and_take_up(tmp_path / "whole", monkeypatch, None)
    assert app.flow is not None and app.flow.log.inputs == inputs and writes >= 6
    for cut_at in range(1, writes + 1):
        folder = tmp_path / f"cut{cut_at}"
        app, inputs, _ = _put_away_and_take_up(folder, monkeypatch, cut_at)
        games = folder / "games"
        kept = offered(games, sorted(p.name for p in games.glob("*.jsonl"))) if games.exists() else ()
        on_table = app.flow is not None and app.flow.log.inputs == inputs
        assert on_table != bool(kept), (cut_at, on_table, kept)
        assert on_table or [k.row() for k in app.menu.kept] == ["Take up Thirteen"], cut_at
        if on_table and not list(games.glob("*")):            # (taken up: its players are there)
            app.step()
            assert not app.idle.left, (cut_at, app.flow.view().message.text)
