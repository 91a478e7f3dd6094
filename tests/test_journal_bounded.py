"""A journal's size is bounded by the game's moves, not by how often HOLD is pressed.

Every HOLD press appends a line with all the dice held; only the last of a run counts. Before,
every such line stayed: 100,000 presses in one game made a 2.65 MB journal, read at every
restart and written again whole by every resume. Now superseded hold lines are dropped when the
journal is written whole (a resume) and every HOLDS_BEFORE_COMPACTING holds while a game goes on,
and a resume reads the same game, the same holds, take-back and correction from what is left.
"""
from __future__ import annotations

import json
import logging
import os

import pytest
from test_journal import CHOOSE, DICE, HEADER, REROLL, hold, press, table, write

from controller.journal import Journal
from controller.journal_compact import HOLDS_BEFORE_COMPACTING

UNDO = json.dumps({"undo": True}).encode()
TOGGLES = 10_000


def toggles(n: int = TOGGLES) -> list[bytes]:
    """`n` hold lines as a player pressing HOLD 1 and HOLD 4 over and over leaves them (dice 3 and 6)."""
    cycle = [hold(3), hold(3, 6), hold(6), hold()]
    return [cycle[i % 4] for i in range(n)]


# a pathological journal (as a build before this one wrote it) -> the same journal with only
# the hold lines that count: both must resume to the same table
JOURNALS = {
    "held-at-the-decision": ((HEADER, DICE, *toggles(), hold(3, 3)), (HEADER, DICE, hold(3, 3))),
    "released-at-the-end": ((HEADER, DICE, *toggles(), hold()), (HEADER, DICE, hold())),
    "dice-kept-then-cut": ((HEADER, DICE, *toggles(), hold(6, 6, 6), REROLL),
                           (HEADER, DICE, hold(6, 6, 6), REROLL)),
    "a-box-scored-with-dice-held": ((HEADER, DICE, *toggles(), hold(3, 3), CHOOSE),
                                    (HEADER, DICE, hold(3, 3), CHOOSE)),
    "taken-back-and-held-again": ((HEADER, DICE, *toggles(), hold(6, 6, 6), REROLL, UNDO, *toggles(), hold(3)),
                                  (HEADER, DICE, hold(6, 6, 6), REROLL, UNDO, hold(3))),
    "a-last-hold-line-not-usable": ((HEADER, DICE, *toggles(), b'{"hold": "six", "player": 0}'),
                                    (HEADER, DICE, b'{"hold": "six", "player": 0}')),
}


def seen(app) -> dict:
    """What the players see and can do after a resume."""
    flow = app.flow
    offered = flow.take_back_offered
    return {"inputs": flow.log.inputs, "tray": flow.tray_values, "holds": flow.holds,
            "said": flow.view().message.text, "prompt": flow.view().prompt.hint,
            "take_back": offered and (offered.label, offered.holds), "correction": flow.correction_offered is not None}


@pytest.mark.parametrize("lines, counted", JOURNALS.values(), ids=JOURNALS.keys())
def test_a_journal_of_ten_thousand_hold_toggles_resumes_as_the_journal_of_the_holds_that_count(
        tmp_path, lines, counted):
    """Resumed, it is the same table as its few lines that count make, and it is written again
    as those lines: a second cut reads 3 to 6 lines, not 10,000."""
    (tmp_path / "big").mkdir(), (tmp_path / "small").mkdir()
    write(tmp_path / "big" / "current.jsonl", *lines)
    write(tmp_path / "small" / "current.jsonl", *counted)
    big, small = table(tmp_path / "big"), table(tmp_path / "small")
    assert seen(big) == seen(small)
    rewritten = (tmp_path / "big" / "current.jsonl").read_bytes().splitlines()[1:]
    assert [json.loads(x) for x in rewritten] == [json.loads(x) for x in counted[1:]]
    again = table(tmp_path / "big")                     # a second cut: the same again
    assert seen(again) == seen(small)
    for app in (again, small):                          # and BACK twice gives back the same
        press(app, "BACK")
        press(app, "BACK")
    assert seen(again) == seen(small)


def test_hold_pressed_thousands_of_times_in_a_game_keeps_its_journal_small(tmp_path):
    """At the table: 2,000 HOLD presses at one decision left 2,002 lines (54 KB) and growing.
    The journal now never has more than HOLDS_BEFORE_COMPACTING hold lines beyond those that
    count, and a power cut after the last press holds the dice held then again."""
    path = write(tmp_path / "current.jsonl", HEADER, DICE)
    app = table(tmp_path)
    most = 0
    for i in range(2_000):
        press(app, "HOLD1" if i % 3 else "HOLD4")
        most = max(most, len(path.read_bytes().splitlines()))
    assert most <= 3 + HOLDS_BEFORE_COMPACTING
    assert app.flow.holds == [True, False, False, True, False]     # (HOLD1 1,333 times, HOLD4 667)
    again = table(tmp_path)
    # (held again by value: which of the alike sixes is marked does not matter)
    assert again.flow.held_values == app.flow.held_values == [3, 6]
    assert "Dice still held: 3 6." in again.flow.view().message.text
    assert len(path.read_bytes().splitlines()) == 3                 # header, dice, the holds that count


def test_a_journal_that_cannot_be_written_again_is_appended_to_as_it_was(tmp_path, caplog, monkeypatch):
    """Dropping the superseded lines writes the journal beside and renames it over: on a card
    that refuses that (full), the hold line is already saved, so the game goes on appended to,
    saved, with a line in the log and nothing on screen, and the journal still resumes."""
    path = write(tmp_path / "current.jsonl", HEADER, DICE)
    app = table(tmp_path)

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with caplog.at_level(logging.WARNING):
        for _ in range(HOLDS_BEFORE_COMPACTING):
            press(app, "HOLD1")
    assert "cannot drop its superseded hold lines (No space left on device)" in caplog.text
    assert app.flow.unsaved is None and app.flow.on_hold is not None         # still saved
    assert len(path.read_bytes().splitlines()) == 2 + HOLDS_BEFORE_COMPACTING
    assert not (tmp_path / "current.jsonl.tmp").exists()
    monkeypatch.undo()
    assert table(tmp_path).flow.holds == app.flow.holds == [False] * 5      # (an even number of presses)
    assert Journal.load(path).inputs == [json.loads(DICE)]


def test_bench_journal_measures_the_bound(capsys):
    """`dicetable bench journal --limit N`: an older build's journal of N toggles is left small by
    the start on it, and N presses at the table never make a journal of more than the bound."""
    from controller.bench_journal import run

    assert run(count=600, as_json=True) == 0
    out = capsys.readouterr().out
    figures = json.loads(out[out.index("{"):])
    assert figures["old_journal_bytes"] > 600 * 20 and figures["start_on_old_journal"]["held"] == [3, 3]
    assert figures["start_on_old_journal"]["bytes_after"] == figures["start_without_holds"]["bytes_after"]
    assert figures["at_table"]["largest_bytes"] < 200 + 40 * HOLDS_BEFORE_COMPACTING
    assert figures["start_after_presses"]["held"] == []          # (600 presses: each die pressed 300 times)
    # (600 boxes taken back: 39 KB and 1,202 lines before take-backs were dropped as hold lines are)
    assert figures["taken_back"]["largest_bytes"] < 200 + 80 * HOLDS_BEFORE_COMPACTING
    assert figures["taken_back"]["lines_after_a_start"] == 4    # (header, dice, the last box and its take-back)
