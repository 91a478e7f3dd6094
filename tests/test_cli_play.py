"""`dicetable play --game G --players Ann,Bob`: a game played in the terminal by typing the dice.

`input` is replaced by a scripted keyboard: each call returns the next typed line, and EOFError
when the script runs out (like Ctrl-D). Everything goes through `controller.cli.main`.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import controller.cli as cli
from controller.tablelog import TableLog, replay
from controller.terminal import HELP




class Keyboard:
    """A scripted player at the terminal."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.asked = 0

    def __call__(self, prompt: str = "") -> str:
        self.asked += 1
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


@pytest.fixture
def play(monkeypatch, capsys):
    """play(lines, *argv) -> (exit code, stdout, stderr, keyboard)."""

    def _play(lines, *argv):
        keyboard = Keyboard(lines)
        monkeypatch.setattr("builtins.input", keyboard)
        try:
            code = cli.main(["play", *[str(a) for a in argv]])
        except SystemExit as exc:
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err, keyboard

    return _play


def dice(p, *v):
    return {"type": "dice", "player": p, "values": list(v)}


def choose(p, key):
    return {"type": "choose", "player": p, "option": key}


def reroll(p, *keep):
    return {"type": "reroll", "player": p, "keep": sorted(keep)}


def logged(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["inputs"]


# A whole one-player game of Thirteen, typed the many ways a player may type it, and its log.
# Totals: upper 4+6+12+16+20+24 = 82 (+20 bonus); 2 pairs 20+10, 3 kind 25+10 (throw 1),
# 4 kind 35 (throw 3, no early-close bonus), straights 30+10, full house 30+10, 5 kind 50+10,
# chance 19; bottom bonus 30.  102 + 259 + 30 = 391.
THIRTEEN_TYPED = [
    ("1 2 3 4 6", dice(0, 1, 2, 3, 4, 6)), ("k 1", reroll(0, 1)), ("1112", dice(0, 1, 1, 1, 2)),
    ("Aces", choose(0, "ACES")),
    ("2,2,2,3,3", dice(0, 2, 2, 2, 3, 3)), ("twos", choose(0, "TWOS")),
    ("33331", dice(0, 3, 3, 3, 3, 1)), ("1", choose(0, "THREES")),          # option 1 = first open row
    ("4 4 4 4 1", dice(0, 4, 4, 4, 4, 1)), ("FOURS", choose(0, "FOURS")),
    ("  5 5 5 5 1  ", dice(0, 5, 5, 5, 5, 1)), ("Fives", choose(0, "FIVES")),
    ("6;6;6;6;1", dice(0, 6, 6, 6, 6, 1)), ("sixes", choose(0, "SIXES")),
    ("2 2 3 3 5", dice(0, 2, 2, 3, 3, 5)), ("2 pairs", choose(0, "TWO_PAIRS")),
    ("4 4 4 1 2", dice(0, 4, 4, 4, 1, 2)), ("3 of a kind", choose(0, "THREE_KIND")),
    ("5 5 1 2 3", dice(0, 5, 5, 1, 2, 3)), ("k 5 5", reroll(0, 5, 5)), ("5 5 3", dice(0, 5, 5, 3)),
    ("k5555", reroll(0, 5, 5, 5, 5)), ("2", dice(0, 2)), ("4 of a kind", choose(0, "FOUR_KIND")),
    ("1 2 3 4 5", dice(0, 1, 2, 3, 4, 5)), ("straights", choose(0, "STRAIGHTS")),
    ("3 3 3 6 6", dice(0, 3, 3, 3, 6, 6)), ("Full house", choose(0, "FULL_HOUSE")),
    ("66666", dice(0, 6, 6, 6, 6, 6)), ("5 of a kind", choose(0, "FIVE_KIND")),
    ("6 5 4 3 1", dice(0, 6, 5, 4, 3, 1)), ("1", choose(0, "CHANCE")),
]


def test_a_whole_thirteen_game_typed_end_to_end(play, tmp_path):
    log = tmp_path / "game.json"
    code, out, err, keyboard = play([line for line, _ in THIRTEEN_TYPED],
                                    "--game", "thirteen", "--players", "Ann", "--log", log)
    assert (code, err) == (0, "")
    assert keyboard.lines == [] and keyboard.asked == len(THIRTEEN_TYPED)   # one question per line
    assert "Try again" not in out
    assert "Game over: Ann wins with 391" in out
    assert out.rstrip().endswith("1. Ann  391\nWinner: Ann")
    assert "End of input" not in out
    assert logged(log) == [data for _, data in THIRTEEN_TYPED]
    state = replay(TableLog.load(log))
    assert state.is_over and state.result().scores == (391,)


def test_bad_typing_gets_a_message_and_the_question_again(play, tmp_path):
    log = tmp_path / "game.json"
    lines = [
        # first throw: 5 dice expected
        "abc", "7", "1 2 3 4 5 6", "1 2 3", "", "6 6 x 3 5", "6 6 2 3 5",
        # decision after throw 1
        "99", "0", "", "k 9", "k 6 6 6", "k 6 6 2 3 5", "6 6", "nonsense", "k 6 6",
        # rethrow of 3 dice
        "1 1 1 1", "1 1", "6 1 1",
        # decision after throw 2
        "Full house",
    ]
    code, out, err, keyboard = play(lines, "--game", "thirteen", "--players", "Ann,Bob", "--log", log)
    assert (code, err) == (0, "")
    expected_messages = [
        "  ! 'abc' is not a die face (faces: 1 2 3 4 5 6). Try again.",
        "  ! '7' is not a die face (faces: 1 2 3 4 5 6). Try again.",
        "  ! expected 5 dice, got 6. Try again.",
        "  ! expected 5 dice, got 3. Try again.",
        "  ! type the dice values, e.g. 3 3 5 2 6. Try again.",
        "  ! 'x' is not a die face (faces: 1 2 3 4 5 6). Try again.",
        "  ! choose a number from 1 to 13. Try again.",
        "  ! choose a number from 1 to 13. Try again.",
        "  ! choose a number from the list. Try again.",
        "  ! '9' is not a die face (faces: 1 2 3 4 5 6). Try again.",
        "  ! cannot keep 6 6 6: the dice are 2 3 5 6 6. Try again.",
        "  ! throw at least 1 die again (or choose another option). Try again.",
        "  ! to keep dice and throw the others again, type 'k' and the dice, e.g. k 6 6. Try again.",
        "  ! 'nonsense' is not one of the choices. Try again.",
        "  ! expected 3 dice, got 4. Try again.",
        "  ! expected 3 dice, got 2. Try again.",
    ]
    messages = [line for line in out.splitlines() if line.startswith("  !")]
    assert messages == expected_messages
    # every refusal asks the same question again
    assert out.count("type the 5 value(s) you read off the new dice:") == 1 + 6 + 1   # + Bob's turn
    assert out.count("k <dice to keep>: keep those and throw the others again (dice: 2 3 5 6 6)") == 1 + 8
    assert out.count("type the 3 value(s) you read off the new dice:") == 1 + 2
    assert "Traceback" not in out
    # only the good inputs reach the log, and the game went on to Bob
    assert logged(log) == [dice(0, 6, 6, 2, 3, 5), reroll(0, 6, 6), dice(0, 6, 1, 1), choose(0, "FULL_HOUSE")]
    assert "Bob: throw all 5 dice" in out
    assert replay(TableLog.load(log)).sheet().totals == (35, 0)   # full house after throw 2: 30 + 5


def test_dice_typed_bare_are_never_answered_with_a_keep_that_is_refused(play, tmp_path):
    """All five dice typed again at a decision got 'e.g. k 4 4 4 4 1', which the game then refuses
    (keeping all five is not a throw); dice not on the table got 'e.g. k 6 6', refused as well."""
    log = tmp_path / "game.json"
    code, out, err, keyboard = play(["4 4 1 4 4", "4 4 4 4 1", "6 6", "4 4", "Chance"],
                                    "--game", "thirteen", "--players", "Ann", "--log", log)
    assert (code, err) == (0, "")
    advice = ("  ! to score the dice, choose a number from the list; to throw some again, type 'k' and the "
              "dice to keep, from 1 4 4 4 4. Try again.")
    assert [line for line in out.splitlines() if line.startswith("  !")] == [
        advice, advice, "  ! to keep dice and throw the others again, type 'k' and the dice, e.g. k 4 4. Try again."]
    assert logged(log) == [dice(0, 4, 4, 1, 4, 4), choose(0, "CHANCE")]


# Digits str.isdigit() takes and int() refuses: '²' sits beside the 1 on a French keyboard, '¹'
# and '⁴' come from a phone's keyboard; past 4,300 digits int() refuses any number. Typed at a
# decision, each was a ValueError traceback that ended the game.
@pytest.mark.parametrize("typed", ["²", "¹", "4¹", "⁴", "9" * 5000])
def test_a_number_int_cannot_read_is_a_message_not_a_traceback(play, tmp_path, typed):
    log = tmp_path / "game.json"
    code, out, err, keyboard = play(["6 6 2 3 5", typed, "Chance"], "--game", "thirteen", "--players", "Ann,Bob",
                                    "--log", log)
    assert (code, err) == (0, "")
    messages = [line for line in out.splitlines() if line.startswith("  !")]
    assert len(messages) == 1 and messages[0].endswith("Try again.")
    assert logged(log) == [dice(0, 6, 6, 2, 3, 5), choose(0, "CHANCE")]


# (any text, and words of ASCII digits and the digits of other scripts and superscripts, where
# str.isdigit() and int() disagree)
TYPED = st.text(max_size=8) | st.text(st.sampled_from("0123456789²³¹⁴٣१ kK,"), min_size=1, max_size=6)


@settings(derandomize=True, max_examples=200, deadline=None)
@given(text=TYPED)
def test_any_text_typed_at_a_decision_is_a_choice_or_a_message(text):
    from controller.rules import IllegalInput, new_game
    from controller.terminal import InputError, parse_decision

    state = new_game("thirteen", ["Ann", "Bob"]).apply(dice(0, 6, 6, 2, 3, 5))
    try:
        data = parse_decision(text, state.expects(), [str(v) for v in range(1, 7)])
    except InputError:
        return
    try:
        state.apply(data)
    except IllegalInput:
        pass


def test_forced_decision_after_the_third_throw_refuses_a_keep(play, tmp_path):
    lines = ["1 2 3 4 6", "k 1", "1 1 1 2", "k 1 1 1 1", "1", "k 1", "Aces"]
    code, out, err, keyboard = play(lines, "--game", "thirteen", "--players", "Ann", "--log", tmp_path / "g.json")
    assert code == 0
    messages = [line for line in out.splitlines() if line.startswith("  !")]
    assert len(messages) == 1 and "'k 1' is not one of the choices" in messages[0]
    assert logged(tmp_path / "g.json")[-1] == choose(0, "ACES")


def test_sheet_help_and_quit(play, tmp_path):
    log = tmp_path / "game.json"
    lines = ["6 6 2 3 5", "sheet", "help", "?", "SHEET", "Chance", "quit", "1 1 1 1 1"]
    code, out, err, keyboard = play(lines, "--game", "thirteen", "--players", "Ann,Bob", "--log", log)
    assert (code, err) == (0, "")
    assert keyboard.lines == ["1 1 1 1 1"]          # nothing is read after quit
    assert out.count("== Thirteen ==") == 2        # 'sheet' and 'SHEET'
    assert out.count(HELP) == 2                    # 'help' and '?'
    assert "Upper total" in out and "Chance" in out
    assert f"Stopped. The log keeps every input so far: dicetable play --resume {log} goes on with it." in out
    assert "Try again" not in out
    assert logged(log) == [dice(0, 6, 6, 2, 3, 5), choose(0, "CHANCE")]
    assert "Winner" not in out                      # no result for a stopped game


@pytest.mark.parametrize("word", ["quit", "QUIT", "exit", "q"])
def test_quit_words(play, word):
    code, out, err, keyboard = play([word, "1 2 3 4 5"], "--game", "school", "--players", "Ann")
    assert code == 0
    assert "Stopped." in out
    assert keyboard.lines == ["1 2 3 4 5"]


def test_ctrl_c_says_what_is_kept(tmp_path, monkeypatch, capsys):
    """Ctrl-C ended the game without a word: whether the game was kept, and how to go on with
    it, the players could not tell. It says so as 'quit' does, and exits 130 as interrupted."""
    log = tmp_path / "game.json"
    typed = iter(["6 6 2 3 5"])

    def keyboard(prompt=""):
        for line in typed:
            return line
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", keyboard)
    code = cli.main(["play", "--game", "thirteen", "--players", "Ann", "--log", str(log)])
    out = capsys.readouterr().out
    assert code == 130
    assert f"Interrupted: the game stops here. The log keeps every input so far: dicetable play --resume {log} " \
           "goes on with it." in out
    assert logged(log) == [dice(0, 6, 6, 2, 3, 5)]


def test_end_of_input_keeps_the_log_and_resume_finishes_the_game(play, tmp_path, capsys):
    log = tmp_path / "game.json"
    cut = 21   # in the middle of turn 9, at the decision after its second throw
    first = [line for line, _ in THIRTEEN_TYPED[:cut]]
    code, out, err, keyboard = play(first, "--game", "thirteen", "--players", "Ann", "--log", log)
    assert (code, err) == (0, "")
    assert f"End of input: the game stops here. The log keeps every input so far: dicetable play --resume {log} " \
           "goes on with it." in out
    assert keyboard.asked == cut + 1
    assert logged(log) == [data for _, data in THIRTEEN_TYPED[:cut]]

    # the log replays, and the game is not over
    assert cli.main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("(the game is not over yet)")
    assert "Round 9 of 13: Ann, choose a category (throw 2 of 3)" in out

    # resume: the same question again, then the rest of the game; the resumed log goes on
    rest = [line for line, _ in THIRTEEN_TYPED[cut:]]
    code, out, err, keyboard = play(rest, "--resume", log)
    assert (code, err) == (0, "")
    assert out.lstrip().startswith("Round 9 of 13: Ann, choose a category (throw 2 of 3)")
    assert keyboard.lines == []
    assert "Game over: Ann wins with 391" in out
    assert logged(log) == [data for _, data in THIRTEEN_TYPED]


def test_replay_of_an_interrupted_game_says_it_is_not_over(play, tmp_path, capsys):
    log = tmp_path / "game.json"
    play(["6 6 2 3 5", "Chance"], "--game", "thirteen", "--players", "Ann,Bob", "--log", log)
    code = cli.main(["replay", str(log)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.rstrip().endswith("(the game is not over yet)")
    assert "Round 1 of 13: Bob, throw 1 of 3" in out


def test_resume_with_log_writes_the_new_file_and_leaves_the_old_one(play, tmp_path):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    play(["6 6 2 3 5"], "--game", "thirteen", "--players", "Ann", "--log", old)
    before = old.read_text()
    code, out, err, _ = play(["Chance"], "--resume", old, "--log", new)
    assert code == 0
    assert old.read_text() == before
    assert logged(new) == [dice(0, 6, 6, 2, 3, 5), choose(0, "CHANCE")]


def _journal(tmp_path: Path) -> Path:
    """A table's journal (as /var/lib/dicetable/current.jsonl), its game at Ann's first decision."""
    from controller.journal import Journal

    path = tmp_path / "current.jsonl"
    journal = Journal(path, TableLog("thirteen", ["Ann", "Bob"], {}), fsync=False)
    journal.append(dice(0, 6, 6, 2, 3, 5))
    return path


def test_resume_goes_on_with_a_tables_journal_into_a_log(play, tmp_path):
    """It said "not valid JSON: Extra data at line 2" of the journal `dicetable replay` reads."""
    journal, new = _journal(tmp_path), tmp_path / "new.json"
    before = journal.read_bytes()
    code, out, err, _ = play(["Chance"], "--resume", journal, "--log", new)
    assert (code, err) == (0, "")
    assert out.lstrip().startswith("Round 1 of 13: Ann, choose a category (throw 1 of 3)")
    assert logged(new) == [dice(0, 6, 6, 2, 3, 5), choose(0, "CHANCE")]
    assert journal.read_bytes() == before          # the table's journal is the table's


def test_resume_of_a_journal_without_log_says_where_the_game_would_go(play, tmp_path):
    journal = _journal(tmp_path)
    before = journal.read_bytes()
    code, out, err, keyboard = play(["Chance"], "--resume", journal)
    assert code == 2 and out == "" and keyboard.asked == 0
    assert err == (f"dicetable play: {journal} is a table's journal, which is read, not written: add "
                   "--log GAME.json to go on with its game in a table log\n")
    assert journal.read_bytes() == before


@pytest.mark.parametrize("argv", [["--game", "thirteen", "--players", "Cid,Dan"], ["--resume", "other.json"]])
def test_a_log_that_holds_another_game_is_not_written_over(play, tmp_path, monkeypatch, argv):
    """--log named last night's unfinished game: it was written over before the first question."""
    monkeypatch.chdir(tmp_path)
    kept = tmp_path / "game.json"
    play(["6 6 2 3 5"], "--game", "thirteen", "--players", "Ann,Bob", "--log", kept)
    play(["1 1 1 1 1"], "--game", "thirteen", "--players", "Eve,Fay", "--log", tmp_path / "other.json")
    before = kept.read_bytes()
    code, out, err, keyboard = play(["1 2 3 4 5"], *argv, "--log", kept)
    assert code == 2 and out == "" and keyboard.asked == 0
    assert err == (f"dicetable play: {kept} already holds a game, which this one would be written over: "
                   f"go on with it with --resume {kept}, or give another --log\n")
    assert kept.read_bytes() == before


def test_a_log_resumed_into_itself_or_an_empty_file_is_written(play, tmp_path):
    log, empty = tmp_path / "game.json", tmp_path / "empty.json"
    empty.write_text("")
    play(["6 6 2 3 5"], "--game", "thirteen", "--players", "Ann,Bob", "--log", log)
    assert play(["Chance"], "--resume", log, "--log", log)[0] == 0
    assert logged(log) == [dice(0, 6, 6, 2, 3, 5), choose(0, "CHANCE")]
    assert play(["1 2 3 4 5"], "--game", "thirteen", "--players", "Ann,Bob", "--log", empty)[0] == 0
    assert logged(empty) == [dice(0, 1, 2, 3, 4, 5)]


def test_without_log_nothing_is_written(play, tmp_path, monkeypatch):
    """...and the stop says so: it said "the log keeps every input so far", and the players
    looked for a log to go on with."""
    monkeypatch.chdir(tmp_path)
    code, out, err, _ = play(["1 2 3 4 5", "Chance"], "--game", "thirteen", "--players", "Ann")
    assert (code, err) == (0, "")
    assert "Round 1 of 13: Ann, choose a category (throw 1 of 3)" in out
    assert list(tmp_path.iterdir()) == []
    assert out.rstrip().endswith("End of input: the game stops here. This game was not saved (a game started "
                                 "with --log FILE is kept, to go on with later).")
    code, out, err, _ = play(["quit"], "--game", "thirteen", "--players", "Ann")
    assert "Stopped. This game was not saved" in out and "log keeps" not in out


# ---------------------------------------------------------------------- classic: poker faces
def test_classic_accepts_face_labels(play, tmp_path):
    log = tmp_path / "classic.json"
    lines = [
        "K K 9 J A",        # P1 throws: faces 5 5 1 3 6
        "K K",              # ambiguous with the 'k' command: refused with a hint, nothing logged
        "keep K K",
        "Q K 10",           # the three rethrown dice: K K K Q 10
        "5 5 1 3 6",        # pips are not the faces of poker dice
        "a k q j 10",       # P2, any case
        "sheet",
        "Keep all 5",       # STAND by its label
    ]
    code, out, err, keyboard = play(lines, "--game", "classic", "--players", "P1,P2", "--log", log)
    assert (code, err) == (0, "")
    assert keyboard.lines == []
    messages = [line for line in out.splitlines() if line.startswith("  !")]
    assert messages == [
        "  ! to keep dice and throw the others again, type 'keep' and the dice, e.g. keep K K. Try again.",
        "  ! '5' is not a die face (faces: 9 10 J Q K A; on ordinary dice 1=9 2=10 3=J 4=Q 5=K 6=A). Try again.",
    ]
    assert "keep <dice to keep>: keep those and throw the others again (dice: K K 9 J A)" in out
    assert "held on the table: K K" in out
    assert "K K K Q 10 · Three K" in out
    assert logged(log) == [dice(0, 5, 5, 1, 3, 6), reroll(0, 5, 5), dice(0, 4, 5, 2),
                           dice(1, 6, 5, 4, 3, 2), choose(1, "STAND")]
    state = replay(TableLog.load(log))
    assert state.sheet().totals == (0, 1)      # the straight beats three Kings


def test_a_keep_of_dice_not_on_the_table_is_refused_in_the_games_faces(play, tmp_path):
    """Classic's dice K K 9 J A: 'keep A A' was refused as "cannot keep [6, 6]: the dice are
    [1, 3, 5, 5, 6]" (the rules' numbers, which nobody typed nor sees on a poker die)."""
    log = tmp_path / "classic.json"
    code, out, err, _ = play(["K K 9 J A", "keep A A", "keep K K K", "keep K K", "quit"], "--game", "classic",
                             "--players", "P1,P2", "--log", log)
    assert (code, err) == (0, "")
    assert [line for line in out.splitlines() if line.startswith("  !")] == [
        "  ! cannot keep A A: the dice are K K 9 J A. Try again.",
        "  ! cannot keep K K K: the dice are K K 9 J A. Try again."]
    assert logged(log) == [dice(0, 5, 5, 1, 3, 6), reroll(0, 5, 5)]


@pytest.mark.parametrize("game", ["thirteen", "classic", "school", "poknroll", "objective-cards"])
def test_a_very_long_line_is_refused_in_a_line_not_echoed_whole(play, tmp_path, game):
    """A line of 100,000 letters (a cat on the keyboard, a file piped in by mistake) was quoted
    back whole in its refusal: 100,000 characters of terminal for one typo, at a throw and at a
    decision. The refusal now quotes its start."""
    first = {"classic": "K K 9 J A", "poknroll": "1 2 3"}.get(game, "1 2 3 4 6")
    lines = ["x" * 100_000, first, "y" * 100_000, "k " + "z" * 100_000, "quit"]
    code, out, err, _ = play(lines, "--game", game, "--players", "Ann,Bob,Cy", "--log", tmp_path / "g.json")
    assert (code, err) == (0, "")
    refusals = [line for line in out.splitlines() if line.startswith("  !")]
    assert len(refusals) == 3 and all(len(line) < 120 for line in refusals), [line[:120] for line in refusals]
    assert "'xxxxxxxxxx" in refusals[0] and "'yyyyyyyyyy" in refusals[1]


def test_classic_asks_for_its_faces_and_gives_the_key_of_ordinary_dice(play, tmp_path):
    """A new player of Classic was asked to "type the 5 value(s) you read off the new dice",
    told "e.g. 3 3 5" at an empty line (3 is no face of Classic's, and 3 dice of 5), and refused
    '5' read off an ordinary die with the faces alone: the table's prompt gives the key (1=9 ...
    6=A), the terminal did not. Pok'n Roll's one white die was answered "e.g. 3 3 5" too."""
    log = tmp_path / "classic.json"
    code, out, err, _ = play(["", "5 5 1 3 6", "K K 9 J A", "quit"], "--game", "classic", "--players", "P1,P2",
                             "--log", log)
    assert (code, err) == (0, "")
    assert "type the 5 value(s) you read off the new dice (9 10 J Q K A):" in out
    assert [line for line in out.splitlines() if line.startswith("  !")] == [
        "  ! type the dice values, e.g. J J K 10 A. Try again.",
        "  ! '5' is not a die face (faces: 9 10 J Q K A; on ordinary dice 1=9 2=10 3=J 4=Q 5=K 6=A). Try again."]
    assert logged(log) == [dice(0, 5, 5, 1, 3, 6)]
    code, out, err, _ = play(["5 5 2", "continue", "continue", "continue", "", "quit"], "--game", "poknroll",
                             "--players", "Ann,Bob,Cy")
    assert "Ann: throw white die 4 of 5" in out and "  ! type the dice values, e.g. 3. Try again." in out


def test_classic_resumed_at_a_decision_still_speaks_poker_faces(play, tmp_path):
    """Found by this test: a game resumed at a decision showed pips and refused 'K'."""
    log = tmp_path / "classic.json"
    TableLog("classic", ["P1", "P2"], {}, [dice(0, 5, 5, 1, 3, 6)]).save(log)
    code, out, err, keyboard = play(["keep K K", "Q K 10"], "--resume", log)
    assert (code, err) == (0, "")
    assert "(dice: K K 9 J A)" in out
    assert "Try again" not in out
    assert logged(log) == [dice(0, 5, 5, 1, 3, 6), reroll(0, 5, 5), dice(0, 4, 5, 2)]


def test_classic_with_a_custom_face_mapping(play, tmp_path):
    log = tmp_path / "classic.json"
    mapping = '["A","K","Q","J","10","9"]'    # face 1 is the Ace
    code, out, err, _ = play(["A A K Q J", "keep A A"], "--game", "classic", "--players", "P1,P2",
                             "--option", f"face_mapping={mapping}", "--log", log)
    assert (code, err) == (0, "")
    assert logged(log) == [dice(0, 1, 1, 2, 3, 4), reroll(0, 1, 1)]


# ----------------------------------------------------- the other games, typed from their docs
def test_poknroll_doc_example_typed(play, tmp_path):
    log = tmp_path / "p.json"
    lines = ["5 3 6", "continue", "ABANDON", "2", "2 6", "1", "abandon", "Abandon", "3 4", "2 4", "5 1 5"]
    code, out, err, _ = play(lines, "--game", "poknroll", "--players", "Ann,Bob,Cy", "--log", log)
    assert (code, err) == (0, "")
    assert "Try again" not in out
    assert logged(log) == [
        dice(0, 5, 3, 6), choose(0, "CONTINUE"), choose(1, "ABANDON"), choose(2, "CONTINUE"), dice(1, 2, 6),
        dice(0, 1), choose(0, "ABANDON"), choose(2, "ABANDON"), dice(0, 3, 4), dice(2, 2, 4), dice(1, 5, 1, 5),
    ]
    assert replay(TableLog.load(log)).sheet().totals == (1, 2, 5)


def test_school_doc_example_typed(play, tmp_path):
    log = tmp_path / "s.json"
    lines = ["2 4 5 5 6", "pair", "6 6 6 6 1", "S6_BANK1", "1 3 3 5 6", "k 3 3", "3 2 2", "s3"]
    code, out, err, _ = play(lines, "--game", "school", "--players", "A,B", "--log", log)
    assert (code, err) == (0, "")
    assert "Try again" not in out
    assert logged(log) == [dice(0, 2, 4, 5, 5, 6), choose(0, "PAIR"), dice(1, 6, 6, 6, 6, 1), choose(1, "S6_BANK1"),
                           dice(0, 1, 3, 3, 5, 6), reroll(0, 3, 3), dice(0, 3, 2, 2), choose(0, "S3")]
    assert replay(TableLog.load(log)).sheet().totals == (29, 18)


def test_objective_cards_doc_example_typed(play, tmp_path):
    log = tmp_path / "o.json"
    lines = ["6 6 2 3 5", "two_pairs", "One pair (1)", "full_house", "k 6 6", "3 3 1", "stop", "1 2 3 4 4"]
    code, out, err, _ = play(lines, "--game", "objective-cards", "--players", "Ann,Bob,Cy", "--log", log)
    assert (code, err) == (0, "")
    assert "Try again" not in out
    assert logged(log) == [dice(0, 6, 6, 2, 3, 5), choose(0, "TWO_PAIRS"), choose(1, "ONE_PAIR"),
                           choose(2, "FULL_HOUSE"), reroll(0, 6, 6), dice(0, 3, 3, 1), choose(0, "STOP"),
                           dice(1, 1, 2, 3, 4, 4)]
    assert replay(TableLog.load(log)).sheet().totals == (4, 1, 0)


def test_a_name_with_a_tab_or_a_line_break_is_played_on_one_line(play, tmp_path):
    """A name pasted with a tab ("Ann\tLee") was kept, and broke the columns of the sheet."""
    log = tmp_path / "g.json"
    code, out, err, _ = play(["sheet"], "--game", "thirteen", "--players", "Ann\tLee,Bob\n", "--log", log)
    assert TableLog.load(log).players == ["Ann Lee", "Bob"]
    assert "\t" not in out


# --------------------------------------------------------------------- a game that cannot start
@pytest.mark.parametrize("argv, message", [
    ([], "dicetable play: name a game with --game (see 'dicetable games')"),
    (["--game", "thirteen"], "dicetable play: name the players with --players, e.g. --players Ann,Bob"),
    (["--game", "thirteen", "--players", " , "], "dicetable play: name the players with --players"),
    (["--game", "thirteen", "--players", "Ann,Ann"], "dicetable play: player names must be different: Ann twice"),
    (["--game", "thirteen", "--players", ",Bob"], "dicetable play: --players ',Bob': an empty name between"),
    (["--game", "thirteen", "--players", "Ann,,Bob"], "dicetable play: --players 'Ann,,Bob': an empty name"),
    (["--game", "classic", "--players", "Ann"], "dicetable play: Classic poker dice takes 2 to 8 players, not 1"),
    (["--game", "thirteen", "--players", "Ann", "--option", "bogus=1"],
     "dicetable play: unknown option 'bogus' for game 'thirteen'"),
    (["--game", "thirteen", "--players", "Ann", "--option", "upper_bonus=lots"],
     "dicetable play: option 'upper_bonus': 'lots' is not a"),
    (["--game", "thirteen", "--players", "Ann", "--option", "upper_bonus"],
     "dicetable play: --option takes name=value, not 'upper_bonus'"),
    (["--resume", "/nonexistent/game.json"], "dicetable play: cannot read /nonexistent/game.json"),
    (["--game", "thirteen", "--players", "Ann", "--log", "/nonexistent/dir/game.json"],
     "dicetable play: cannot write the log /nonexistent/dir/game.json"),
], ids=["no-game", "no-players", "blank-players", "same-names", "empty-first-name", "empty-name",
        "too-few", "unknown-option", "bad-value",
        "no-equals", "resume-missing", "log-unwritable"])
def test_a_game_that_cannot_start_exits_2(play, argv, message):
    code, out, err, keyboard = play(["1 2 3 4 5"], *argv)
    assert code == 2
    assert keyboard.asked == 0
    assert "Traceback" not in err
    assert err.startswith(message), err
    assert err.count("\n") == 1


# a resumed game keeps its log's game, players and options: saying otherwise is refused, not ignored
RESUME_CONFLICTS = [
    (["--game", "classic"], "--game classic does not match {log}, a thirteen game "
                            "(a resumed game keeps its game: leave --game out)"),
    (["--players", "X,Y"], "--players X,Y does not match {log}, whose players are Ann,Bob "
                           "(a resumed game keeps its players: leave --players out)"),
    (["--players", "Bob,Ann"], "--players Bob,Ann does not match {log}, whose players are Ann,Bob"),
    (["--option", "two_pairs_value=20"], "--option two_pairs_value=20 does not match {log}, "
                                         "where two_pairs_value is 25 (a resumed game keeps its options"),
    (["--option", "tie=upper_total"], '--option tie="upper_total" does not match {log}, where tie is "shared"'),
    (["--fixtures", "DIR", "--script", "FILE"], "--resume continues a game typed at the terminal; "
                                                "it does not go with --fixtures and --script"),
]


@pytest.mark.parametrize("argv, message", RESUME_CONFLICTS)
def test_resume_refuses_a_game_players_or_options_its_log_does_not_have(play, tmp_path, argv, message):
    log = tmp_path / "game.json"
    play(["6 6 2 3 5"], "--game", "thirteen", "--players", "Ann,Bob", "--option", "two_pairs_value=25", "--log", log)
    before = log.read_text()
    code, out, err, keyboard = play(["Chance"], "--resume", log, *argv)
    assert (code, out, keyboard.asked) == (2, "", 0)
    assert err.startswith("dicetable play: " + message.format(log=log)) and err.count("\n") == 1, err
    assert log.read_text() == before


def test_resume_accepts_the_game_players_and_options_of_its_log(play, tmp_path):
    log = tmp_path / "game.json"
    play(["6 6 2 3 5"], "--game", "thirteen", "--players", "Ann,Bob", "--option", "two_pairs_value=25", "--log", log)
    code, out, err, keyboard = play(["Chance"], "--resume", log, "--game", "thirteen", "--players", "Ann, Bob",
                                    "--option", "two_pairs_value=25")
    assert (code, err) == (0, "")
    assert logged(log)[-1] == choose(0, "CHANCE")


def test_an_unknown_game_is_an_argparse_error(play):
    code, out, err, keyboard = play([], "--game", "yahtzee", "--players", "Ann")
    assert code == 2 and keyboard.asked == 0
    assert "invalid choice: 'yahtzee'" in err and "Traceback" not in err


def test_resuming_a_finished_game_prints_the_result(play, tmp_path):
    log = tmp_path / "done.json"
    TableLog("thirteen", ["Ann"], {}, [d for _, d in THIRTEEN_TYPED]).save(log)
    code, out, err, keyboard = play(["1 2 3 4 5"], "--resume", log)
    assert code == 0 and keyboard.asked == 0
    assert out.rstrip().endswith("1. Ann  391\nWinner: Ann")


def test_dice_nobody_throws_are_drawn_by_the_program_and_logged(play, tmp_path):
    # Pok'n Roll for three with the imaginary cup left to the program: at the showdown nobody is
    # asked to type its dice; they are drawn, shown, logged, and the next hand begins
    log = tmp_path / "log.json"
    lines = ["5 5 2", "continue", "continue", "abandon", "6 6", "2", "continue", "continue", "1", "3 1", "4 6"]
    code, out, err, kb = play(lines, "--game", "poknroll", "--players", "Ann,Bob,Cy",
                              "--option", "imaginary_dice_source=engine_rng", "--log", log)
    assert code == 0 and err == ""
    assert "Imaginary player's cup, left to the table (2 dice): drawn " in out
    inputs = logged(log)
    assert len(inputs) == len(lines) + 1 and inputs[-1]["player"] is None and len(inputs[-1]["values"]) == 2
    assert kb.asked == len(lines) + 1            # (the last question is hand 2's white dice: end of input)
    assert replay(TableLog.load(log)).snapshot()["hand"] == 2


def test_undo_takes_back_what_was_typed_one_input_at_a_time(play, tmp_path):
    log = tmp_path / "game.json"
    lines = ["undo", "6 6 2 3 5", "Chance", "undo", "undo", "6 6 2 3 6", "keep 6 6 6", "undo", "Sixes", "quit"]
    code, out, err, keyboard = play(lines, "--game", "thirteen", "--players", "Ann,Bob", "--log", log)
    assert (code, err) == (0, "")
    assert out.count("! Nothing to undo") == 1                       # at the start: nothing typed yet
    assert "Undone: the choice Chance." in out
    assert "Undone: the dice 6 6 2 3 5." in out
    assert "Undone: keep 6 6 6 and throw the others again." in out
    assert logged(log) == [dice(0, 6, 6, 2, 3, 6), choose(0, "SIXES")]
    assert "undo" in HELP


def test_undo_stops_at_the_objective_cards_turned_over(play, tmp_path):
    """STOP shows every card: undone, it let Ann throw again knowing Cy's Full house. A rethrow
    before it is undone as ever."""
    log = tmp_path / "o.json"
    lines = ["6 6 2 3 5", "two_pairs", "one_pair", "full_house", "k 6 6", "undo", "k 6 6", "3 3 1", "stop",
             "undo", "keep 6 6", "quit"]
    code, out, err, _ = play(lines, "--game", "objective-cards", "--players", "Ann,Bob,Cy", "--log", log)
    assert (code, err) == (0, "")
    assert "Undone: keep 6 6 and throw the others again." in out
    assert "! Ann's choice 'Stop: the dice are final' stands: it turned the cards over" in out
    assert logged(log)[-1] == choose(0, "STOP") and len(logged(log)) == 7


def test_undo_refuses_a_secret_choice_and_says_why(play, tmp_path):
    """At the table a secret choice is never taken back (anyone may press BACK, and only its
    player knows whether it was a slip). The terminal's undo took it back, naming the card
    ("Undone: the choice Full house (5)": Cy's secret card, and after Ann's was revealed), and
    went on past it to Bob's and Ann's. Now it says why it stands; a rethrow after it is undone
    as ever, and a resumed game offers nothing back."""
    log = tmp_path / "o.json"
    lines = ["6 6 2 3 5", "two_pairs", "undo", "one_pair", "full_house", "undo", "k 6 6", "undo", "undo", "quit"]
    code, out, err, _ = play(lines, "--game", "objective-cards", "--players", "Ann,Bob,Cy", "--log", log)
    assert (code, err) == (0, "")
    said = [line.strip() for line in out.splitlines() if line.strip().startswith(("!", "Undone"))]
    assert said == ["! Ann's secret choice stands: only Ann knows whether it was a slip (undo takes back "
                    "nothing from before it).",
                    "! Cy's secret choice stands: only Cy knows whether it was a slip (undo takes back "
                    "nothing from before it).",
                    "Undone: keep 6 6 and throw the others again.",
                    "! Cy's secret choice stands: only Cy knows whether it was a slip (undo takes back "
                    "nothing from before it)."]
    assert "Undone: the choice" not in out                  # (no secret card named by an undo)
    assert logged(log) == [dice(0, 6, 6, 2, 3, 5), choose(0, "TWO_PAIRS"), choose(1, "ONE_PAIR"),
                           choose(2, "FULL_HOUSE")]
    code, out, err, _ = play(["undo", "quit"], "--resume", log)
    assert (code, err) == (0, "") and "! Nothing to undo since the game was resumed." in out
    assert len(logged(log)) == 4


def test_rules_prints_how_the_game_is_played_and_changes_nothing(play, tmp_path):
    log = tmp_path / "game.json"
    code, out, err, _ = play(["rules", "6 6 2 3 5", "rules", "quit"], "--game", "school", "--players", "Ann",
                             "--log", log)
    assert (code, err) == (0, "")
    assert out.count("How to play School:") == 2 and "Awards: the first to fill a row" in out
    assert logged(log) == [dice(0, 6, 6, 2, 3, 5)]
    assert "'rules'" in HELP


def test_undo_stops_at_dice_the_program_drew(play, tmp_path):
    # the imaginary cup is drawn after the last "continue" of hand 1's showdown: undoing past it
    # would let the table draw again
    log = tmp_path / "log.json"
    lines = ["5 5 2", "continue", "continue", "abandon", "6 6", "2", "continue", "continue", "1", "3 1", "4 6",
             "undo", "undo", "quit"]
    code, out, err, kb = play(lines, "--game", "poknroll", "--players", "Ann,Bob,Cy",
                              "--option", "imaginary_dice_source=engine_rng", "--log", log)
    assert code == 0 and err == ""
    assert out.count("! Nothing to undo") == 2
    inputs = logged(log)
    assert len(inputs) == 12 and inputs[-1]["player"] is None       # the draw is still the last input


def test_what_a_choice_did_is_printed_at_once(play):
    """The table's banner says what an entry did (a score doubled, an award won, a School cross's
    penalty); the terminal printed none of it: a player who crossed a School row lost every award
    without a word, unless they typed 'sheet'. School, one player: a Pair row completed without a
    cross wins its award, then a cross in School 1 loses it."""
    lines = ["2 4 5 5 6", "pair", "5 5 1 2 3", "pair", "6 6 1 2 3", "pair", "1 2 3 4 6", "x_s1"]
    code, out, err, _ = play(lines, "--game", "school", "--players", "Ann")
    assert (code, err) == (0, "")
    said = [line.strip() for line in out.splitlines() if line.strip().startswith("note:")]
    assert said == ["note: Ann wrote 20 in Pair (column 1, doubled)",
                    "note: Ann wrote 20 in Pair (column 2, doubled)",
                    "note: Ann wrote 24 in Pair (column 3, doubled)", "note: Ann won the Pair award: 24",
                    "note: Ann crossed School 1 (column 1)",
                    "note: School cross: Ann loses 24 award points and can win no more awards"]


# ------------------------------------------------------------ the terminal itself, in its own process
ROOT = Path(__file__).resolve().parents[1]


def typed_in_a_terminal(typed: bytes, *argv, encoding: str = "utf-8:strict") -> subprocess.CompletedProcess:
    """`dicetable play` in its own process, `typed` piped in, its terminal's encoding as Python
    takes it from the locale (`utf-8:strict`: a UTF-8 one other than C.UTF-8, a Pi's en_GB.UTF-8)."""
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    env.update(PYTHONIOENCODING=encoding, SDL_VIDEODRIVER="dummy")
    return subprocess.run([sys.executable, "-m", "controller.cli", "play", *map(str, argv)], input=typed,
                          capture_output=True, timeout=60, cwd=ROOT, env=env)


def test_a_line_that_is_not_utf8_is_refused_as_a_typo_not_a_traceback(tmp_path):
    """Bytes that are not UTF-8 (a terminal set to Latin-1, a file piped in) raised
    UnicodeDecodeError out of input(): the game ended with a traceback."""
    log = tmp_path / "t.json"
    run = typed_in_a_terminal(b"\xff\xfe 6 6\n1 2 3 4 5\nquit\n", "--game", "thirteen", "--players", "Ann",
                              "--log", log)
    out = run.stdout.decode()
    assert (run.returncode, run.stderr) == (0, b""), run.stderr.decode()
    assert "! '\ufffd\ufffd' is not a die face (faces: 1 2 3 4 5 6). Try again." in out
    assert logged(log) == [dice(0, 1, 2, 3, 4, 5)]


def test_a_terminal_that_cannot_show_a_dash_still_plays(tmp_path):
    """Objective cards' status line ("Round 1 of 10 — active: Ann") raised UnicodeEncodeError on
    an ASCII or Latin-1 terminal before the first question."""
    log = tmp_path / "o.json"
    for encoding in ("ascii", "latin-1"):
        run = typed_in_a_terminal(b"1 2 3 4 5\nquit\n", "--game", "objective-cards", "--players", "Ann,Bob",
                                  "--log", log, encoding=encoding)
        assert (run.returncode, run.stderr) == (0, b""), run.stderr.decode()
        assert b"Round 1 of 10 ? active: Ann" in run.stdout
        assert logged(log) == [dice(0, 1, 2, 3, 4, 5)]
        log.unlink()


def test_the_terminal_game_begins_with_the_game_not_with_pygames_greeting(tmp_path):
    """`dicetable play` (and every command: `games --options`, whose lines are copied into the
    config) printed "pygame 2.6.1 (SDL 2.28.4 ...) Hello from the pygame community" first: the
    seat names' check imports pygame before main() could hide its banner."""
    run = typed_in_a_terminal(b"quit\n", "--game", "thirteen", "--players", "Ann")
    assert run.returncode == 0
    assert run.stdout.decode().lstrip().startswith("Round 1 of 13: Ann")
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    games = subprocess.run([sys.executable, "-m", "controller.cli", "games", "--options"], capture_output=True,
                           text=True, timeout=60, cwd=ROOT, env=env)
    assert games.stdout.startswith("classic: ")


def test_a_choice_typed_as_its_words_is_taken(play, tmp_path):
    """Betting Classic at the terminal: 'bet 2' was taken (its label is "Bet 2") but 'raise 4' was
    refused as 'not one of the choices', its label being "Raise to 4"; Thirteen's 'two pairs' too
    (labelled "2 pairs"). An option's key is also taken written with spaces."""
    log = tmp_path / "game.json"
    code, out, err, _ = play(["K K K 9 10", "Q Q J 10 9", "A K J 10 9", "bet 2", "call", "raise 4", "call", "fold"],
                             "--game", "classic", "--players", "A,B,C", "--option", "variant=betting",
                             "--option", "rounds=1", "--log", log)
    assert (code, err) == (0, "") and "  !" not in out
    assert [d["option"] for d in logged(log) if d["type"] == "choose"] == ["BET_2", "CALL", "RAISE_4", "CALL",
                                                                          "FOLD"]
    log = tmp_path / "thirteen.json"
    code, out, err, _ = play(["2 2 5 5 6", "two  pairs"], "--game", "thirteen", "--players", "Ann", "--log", log)
    assert (code, err) == (0, "") and "  !" not in out
    assert logged(log)[-1] == choose(0, "TWO_PAIRS")
