"""`dicetable replay LOG.json [--json]`: committed game logs of all five games, hand-written logs
from the docs, illegal inputs (exit 2 naming the input) and broken files (exit 2, one line, no
traceback). Run in-process through `controller.cli.main` and once as the real console script.

The logs in tests/fixtures/logs/<game>.json were made with
`controller.demo_text.play_auto(game, players, seed)` (players and seed in FIXTURES below) and
saved one input per line; `thirteen-handwritten.json` was written by hand (its total is worked out
in test_handwritten_thirteen_log).
"""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

import controller.cli as cli
from controller.demo_text import play_auto
from controller.rules import GAMES
from controller.tablelog import FORMAT, TableLog, replay

LOGS = Path(__file__).parent / "fixtures" / "logs"
REPO = Path(__file__).resolve().parents[1]

# game -> (players, seed used with play_auto, final scores, winners)
FIXTURES = {
    "thirteen": (["Ann"], 14, {"Ann": 345}, ["Ann"]),
    "classic": (["Ann", "Bob"], 1, {"Ann": 2, "Bob": 2}, ["Ann", "Bob"]),
    "objective-cards": (["Ann", "Bob"], 8, {"Ann": 12, "Bob": 14}, ["Bob"]),
    "poknroll": (["Ann", "Bob", "Cy"], 24, {"Ann": 42, "Bob": 18, "Cy": 11}, ["Ann"]),
    "school": (["Ann"], 16, {"Ann": 708}, ["Ann"]),
}




@pytest.fixture
def run(monkeypatch, capsys):
    """`dicetable ARGS...` in-process -> (exit code, stdout, stderr)."""

    def _run(*argv: str) -> tuple[int, str, str]:
        try:
            code = cli.main([str(a) for a in argv])
        except SystemExit as exc:   # argparse errors
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err

    return _run


def write_log(path: Path, data) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def load_raw(game: str) -> dict:
    return json.loads((LOGS / f"{game}.json").read_text(encoding="utf-8"))


def assert_one_line_error(err: str, prefix: str = "dicetable replay: ") -> str:
    assert "Traceback" not in err
    line = err.strip()
    assert line.startswith(prefix), err
    assert "\n" not in line, err
    return line


# ------------------------------------------------------------------ complete games of each game
def test_a_fixture_per_game_and_they_are_small():
    assert set(FIXTURES) == set(GAMES)
    for game in FIXTURES:
        path = LOGS / f"{game}.json"
        assert path.stat().st_size < 16_000, f"{path.name} should stay a small fixture"
        assert load_raw(game)["format"] == FORMAT


@pytest.mark.parametrize("game", sorted(FIXTURES))
def test_replay_prints_final_sheet_and_result(run, game):
    players, _seed, scores, winners = FIXTURES[game]
    code, out, err = run("replay", LOGS / f"{game}.json")
    assert (code, err) == (0, "")
    state = replay(TableLog.load(LOGS / f"{game}.json"))
    assert state.is_over
    assert state.sheet().to_text() in out
    assert "Game over" in state.sheet().status and state.sheet().status in out
    assert out.rstrip().endswith(state.result().to_text())
    assert "not over" not in out
    for name, score in scores.items():
        assert f". {name}  {score}\n" in out
    label = "Winners: " if len(winners) > 1 else "Winner: "
    assert label + ", ".join(winners) in out


@pytest.mark.parametrize("game", sorted(FIXTURES))
def test_replay_json_has_sheet_and_result(run, game):
    players, _seed, scores, winners = FIXTURES[game]
    code, out, err = run("replay", LOGS / f"{game}.json", "--json")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert doc["game"] == game and doc["over"] is True
    assert doc["sheet"]["game"] == game
    assert doc["sheet"]["players"] == players
    assert doc["sheet"]["totals"] == [scores[p] for p in players]
    assert doc["result"]["scores"] == scores
    assert doc["result"]["winners"] == winners
    assert doc["sheet"]["tables"] and all(t["rows"] for t in doc["sheet"]["tables"])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_freshly_played_and_saved_game_replays_to_the_same_sheet(run, tmp_path, game):
    """play_auto -> TableLog.save -> `dicetable replay --json` rebuilds exactly the played game."""
    cls = GAMES[game]
    players = ["Ann", "Bob", "Cy"][: max(cls.min_players, 2)]
    state, log = play_auto(game, players, seed=7)
    log.save(tmp_path / "game.json")
    code, out, err = run("replay", tmp_path / "game.json", "--json")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert doc["over"] is True
    assert doc["sheet"] == state.sheet().to_json()
    assert doc["result"] == state.result().to_json()


# ------------------------------------------------------------------------- hand-written logs
def test_handwritten_thirteen_log(run):
    """13 turns typed from the rules in docs/games/thirteen.md, totals worked out by hand:
    upper 4+6+12+16+20+24 = 82, +20 bonus; 2 pairs 20+10, 3 kind 25+10, 4 kind 35+10,
    straights 30+10, full house 30+10 (all after throw 1), 5 kind 50+5 (after throw 2),
    chance 19; bottom bonus 30.  102 + 264 + 30 = 396."""
    path = LOGS / "thirteen-handwritten.json"
    code, out, err = run("replay", path)
    assert (code, err) == (0, "")
    assert "Game over: Ann wins with 396" in out
    assert "1. Ann  396\nWinner: Ann" in out
    code, out, err = run("replay", path, "--json")
    doc = json.loads(out)
    rows = {r["key"]: r["cells"][0] for r in doc["sheet"]["tables"][0]["rows"]}
    assert rows["UPPER_SUM"]["value"] == 82
    assert rows["UPPER_BONUS"]["value"] == 20
    assert rows["FIVE_KIND"]["value"] == 55
    assert rows["BOTTOM_BONUS"]["value"] == 30
    assert rows["TOTAL"]["value"] == 396
    assert doc["result"]["scores"] == {"Ann": 396}


# The first inputs of a game, exactly as docs/table-log.md and docs/games/*.md print them, and what
# the docs say they lead to: (log, totals after them).
DOC_EXAMPLES = {
    "table-log.md": ({"format": "dicetable-log/1", "game": "thirteen", "players": ["Ann", "Bob"],
                      "options": {"two_pairs_value": 25}, "inputs": [
                          {"type": "dice", "player": 0, "values": [6, 6, 2, 3, 5]},
                          {"type": "reroll", "player": 0, "keep": [6, 6]},
                          {"type": "dice", "player": 0, "values": [6, 1, 1]},
                          {"type": "choose", "player": 0, "option": "FULL_HOUSE"}]},
                     [35, 0]),   # full house after throw 2: 30 + 5
    "thirteen.md": ({"format": "dicetable-log/1", "game": "thirteen", "players": ["Ann", "Bob"], "options": {},
                     "inputs": [
                         {"type": "dice", "player": 0, "values": [6, 2, 6, 3, 1]},
                         {"type": "reroll", "player": 0, "keep": [6, 6]},
                         {"type": "dice", "player": 0, "values": [6, 4, 1]},
                         {"type": "reroll", "player": 0, "keep": [6, 6, 6]},
                         {"type": "dice", "player": 0, "values": [6, 5]},
                         {"type": "choose", "player": 0, "option": "FOUR_KIND"},
                         {"type": "dice", "player": 1, "values": [2, 3, 4, 5, 6]},
                         {"type": "choose", "player": 1, "option": "STRAIGHTS"}]},
                    [35, 40]),
    "classic.md": ({"game": "classic", "players": ["P1", "P2", "P3"], "options": {}, "inputs": [
                       {"type": "dice", "player": 0, "values": [5, 5, 1, 3, 6]},
                       {"type": "reroll", "player": 0, "keep": [5, 5]},
                       {"type": "dice", "player": 0, "values": [4, 5, 2]},
                       {"type": "dice", "player": 1, "values": [6, 5, 4, 3, 1]},
                       {"type": "reroll", "player": 1, "keep": [3, 4, 5, 6]},
                       {"type": "dice", "player": 1, "values": [2]},
                       {"type": "dice", "player": 2, "values": [4, 4, 4, 4, 1]},
                       {"type": "choose", "player": 2, "option": "STAND"}]},
                   [0, 0, 1]),   # P3 wins round 1 with Four Q
    "school.md": ({"format": "dicetable-log/1", "game": "school", "players": ["A", "B"], "options": {}, "inputs": [
                      {"type": "dice", "player": 0, "values": [2, 4, 5, 5, 6]},
                      {"type": "choose", "player": 0, "option": "PAIR"},
                      {"type": "dice", "player": 1, "values": [6, 6, 6, 6, 1]},
                      {"type": "choose", "player": 1, "option": "S6_BANK1"},
                      {"type": "dice", "player": 0, "values": [1, 3, 3, 5, 6]},
                      {"type": "reroll", "player": 0, "keep": [3, 3]},
                      {"type": "dice", "player": 0, "values": [3, 2, 2]},
                      {"type": "choose", "player": 0, "option": "S3"}]},
                  [20 + 9, 18]),
    "poknroll.md": ({"game": "poknroll", "players": ["Ann", "Bob", "Cy"], "options": {}, "inputs": [
                        {"type": "dice", "player": 0, "values": [5, 3, 6]},
                        {"type": "choose", "player": 0, "option": "CONTINUE"},
                        {"type": "choose", "player": 1, "option": "ABANDON"},
                        {"type": "choose", "player": 2, "option": "CONTINUE"},
                        {"type": "dice", "player": 1, "values": [2, 6]},
                        {"type": "dice", "player": 0, "values": [1]},
                        {"type": "choose", "player": 0, "option": "ABANDON"},
                        {"type": "choose", "player": 2, "option": "ABANDON"},
                        {"type": "dice", "player": 0, "values": [3, 4]},
                        {"type": "dice", "player": 2, "values": [2, 4]},
                        {"type": "dice", "player": 1, "values": [5, 1, 5]}]},
                    [1, 1 + 1, 5]),   # Ann Paire; Bob Paire + abandon in turn 1; Cy Grande suite
    "objective-cards.md": ({"game": "objective-cards", "players": ["Ann", "Bob", "Cy"], "options": {}, "inputs": [
                               {"type": "dice", "player": 0, "values": [6, 6, 2, 3, 5]},
                               {"type": "choose", "player": 0, "option": "TWO_PAIRS"},
                               {"type": "choose", "player": 1, "option": "ONE_PAIR"},
                               {"type": "choose", "player": 2, "option": "FULL_HOUSE"},
                               {"type": "reroll", "player": 0, "keep": [6, 6]},
                               {"type": "dice", "player": 0, "values": [3, 3, 1]},
                               {"type": "choose", "player": 0, "option": "STOP"},
                               {"type": "dice", "player": 1, "values": [1, 2, 3, 4, 4]}]},
                           [3 + 1, 1, 0]),
}


@pytest.mark.parametrize("name", sorted(DOC_EXAMPLES))
def test_doc_examples_replay_to_what_the_docs_say(run, tmp_path, name):
    data, totals = DOC_EXAMPLES[name]
    path = write_log(tmp_path / "doc.json", data)
    code, out, err = run("replay", path)
    assert (code, err) == (0, "")
    assert out.rstrip().endswith("(the game is not over yet)")
    assert f"== {GAMES[data['game']].title} ==" in out
    code, out, err = run("replay", path, "--json")
    doc = json.loads(out)
    assert doc["over"] is False
    assert doc["sheet"]["totals"] == totals
    assert doc["result"]["players"] == data["players"]


# ----------------------------------------------------------------------------- illegal inputs
def _first_index(inputs, kind, start=5):
    return next(i for i, d in enumerate(inputs) if i >= start and d["type"] == kind)


@pytest.mark.parametrize("game", sorted(FIXTURES))
def test_a_die_of_7_stops_the_replay_at_that_input(run, tmp_path, game):
    data = load_raw(game)
    index = _first_index(data["inputs"], "dice")
    data["inputs"][index]["values"][0] = 7
    path = write_log(tmp_path / "bad.json", data)
    code, out, err = run("replay", path)
    assert code == 2
    assert out == ""   # no sheet of a half-replayed game
    line = assert_one_line_error(err)
    assert f"input {index} is illegal" in line
    assert "a die shows 1 to 6, not 7" in line


def test_input_5_with_a_7_exit_2_names_index_and_reason(run, tmp_path):
    data = load_raw("classic")
    assert data["inputs"][5]["type"] == "dice"
    data["inputs"][5]["values"] = [7]
    path = write_log(tmp_path / "bad.json", data)
    code, out, err = run("replay", path)
    assert code == 2
    assert assert_one_line_error(err) == "dicetable replay: input 5 is illegal: a die shows 1 to 6, not 7"
    code, out, err = run("replay", path, "--json")
    assert code == 2
    assert json.loads(out) == {"error": "input 5 is illegal: a die shows 1 to 6, not 7", "index": 5}


@pytest.mark.parametrize("mutate, reason", [
    (lambda d: d.update(player=1), "waiting for dice from player 0, not from player 1"),
    (lambda d: d.update(values=d["values"][:3]), "expected 5 dice, got 3"),
    (lambda d: d.update(values=[1, 2, 3, 4, "5"]), "dice values must be a list of whole numbers"),
    (lambda d: d.update(type="choose", option="CHANCE"), "waiting for 5 dice to be thrown, not a 'choose'"),
    (lambda d: d.update(type="shout"), "unknown input type 'shout'"),
], ids=["wrong-player", "too-few-dice", "string-die", "choose-for-dice", "unknown-type"])
def test_illegal_throw_inputs(run, tmp_path, mutate, reason):
    data = load_raw("thirteen")
    index = _first_index(data["inputs"], "dice", start=6)
    mutate(data["inputs"][index])
    code, out, err = run("replay", write_log(tmp_path / "bad.json", data))
    assert code == 2
    line = assert_one_line_error(err)
    assert line.startswith(f"dicetable replay: input {index} is illegal: ")
    assert reason in line


@pytest.mark.parametrize("game", ["thirteen", "school", "objective-cards"])
def test_a_choice_that_is_not_offered_and_a_wrong_decider(run, tmp_path, game):
    data = load_raw(game)
    index = _first_index(data["inputs"], "choose", start=5)
    bad = copy.deepcopy(data)
    bad["inputs"][index]["option"] = "NOT_A_CHOICE"
    code, out, err = run("replay", write_log(tmp_path / "bad.json", bad))
    assert code == 2
    line = assert_one_line_error(err)
    assert f"input {index} is illegal: 'NOT_A_CHOICE' is not a legal choice now (legal: " in line

    bad = copy.deepcopy(data)
    seat = bad["inputs"][index]["player"]
    bad["inputs"][index]["player"] = seat + 7
    code, out, err = run("replay", write_log(tmp_path / "bad.json", bad))
    assert code == 2
    assert f"input {index} is illegal: waiting for player {seat} to decide, not player {seat + 7}" \
        in assert_one_line_error(err)


def test_an_input_after_game_over_is_refused(run, tmp_path):
    data = load_raw("thirteen")
    data["inputs"].append({"type": "dice", "player": 0, "values": [1, 2, 3, 4, 5]})
    code, out, err = run("replay", write_log(tmp_path / "bad.json", data))
    assert code == 2
    n = len(data["inputs"]) - 1
    assert assert_one_line_error(err) == \
        f"dicetable replay: input {n} is illegal: the game is over: no more input is accepted"


# ------------------------------------------------------------------------ files that are no log
@pytest.mark.parametrize("content, message", [
    ("this is not json", "is not valid JSON: Expecting value at line 1"),
    ('{"game": "thirteen",\n "players": ["Ann"],\n', "is not valid JSON:"),
    ("[1, 2, 3]", "a table log is a JSON object with game, players, options and inputs"),
    (json.dumps({"format": "dicetable-log/9", "game": "thirteen", "players": ["Ann"], "inputs": []}),
     "unknown log format 'dicetable-log/9' (this program reads 'dicetable-log/1')"),
    (json.dumps({"format": FORMAT, "game": "yahtzee", "players": ["Ann"], "inputs": []}),
     "unknown game 'yahtzee' (known: classic, objective-cards, poknroll, school, thirteen)"),
    (json.dumps({"format": FORMAT, "players": ["Ann"], "inputs": []}), "the log has no 'game' name"),
    (json.dumps({"format": FORMAT, "game": "thirteen", "players": "Ann", "inputs": []}),
     "'players' must be a list of names"),
    (json.dumps({"format": FORMAT, "game": "thirteen", "players": ["Ann"], "inputs": {}}), "'inputs' must be a list"),
    (json.dumps({"format": FORMAT, "game": "thirteen", "players": ["Ann"], "options": {"bogus": 1}, "inputs": []}),
     "unknown option 'bogus' for game 'thirteen'"),
    (json.dumps({"format": FORMAT, "game": "thirteen", "players": ["Ann"], "options": {"upper_bonus": "x"},
                 "inputs": []}), "option 'upper_bonus': 'x' is not a"),
    (json.dumps({"format": FORMAT, "game": "classic", "players": ["Ann"], "inputs": []}),
     "Classic poker dice takes 2 to 8 players, not 1"),
    # (a face "²": str.isdigit() took it and int() raised ValueError, a traceback)
    (json.dumps({"format": FORMAT, "game": "classic", "players": ["Ann", "Bob"], "inputs": [],
                 "options": {"face_mapping": {"²": 9, "2": 10, "3": 11, "4": 12, "5": 13, "6": 14}}}),
     "option 'face_mapping': '²' is not a die face 1..6"),
], ids=["text", "truncated", "array", "format", "game", "no-game", "players", "inputs", "option", "option-value",
        "player-count", "face-mapping-superscript"])
def test_broken_logs_exit_2_with_one_line(run, tmp_path, content, message):
    path = tmp_path / "log.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = run("replay", path)
    assert code == 2 and out == ""
    assert message in assert_one_line_error(err)
    code, out, err = run("replay", path, "--json")
    assert code == 2
    doc = json.loads(out)
    assert message in doc["error"] and doc["index"] is None


def test_unreadable_files_exit_2(run, tmp_path):
    code, out, err = run("replay", tmp_path / "missing.json")
    assert code == 2
    assert assert_one_line_error(err) == f"dicetable replay: cannot read {tmp_path / 'missing.json'}: " \
                                         "No such file or directory"
    code, out, err = run("replay", tmp_path)
    assert code == 2
    assert "Is a directory" in assert_one_line_error(err)


def test_a_binary_file_is_not_a_traceback(run, tmp_path):
    """Found by this test: bytes that are not UTF-8 raised UnicodeDecodeError out of TableLog.load."""
    path = tmp_path / "photo.json"
    path.write_bytes(b"\xff\xd8\xff\xe0 not a log \x89PNG")
    code, out, err = run("replay", path)
    assert code == 2
    assert assert_one_line_error(err) == f"dicetable replay: {path} is not a text file (a table log is UTF-8 JSON)"


@pytest.mark.parametrize("argv, message", [
    (["replay"], "the following arguments are required: log"),
    (["replay", "x.json", "--bogus"], "unrecognized arguments: --bogus"),
    (["replay", "x.json", "y.json"], "unrecognized arguments: y.json"),
])
def test_bad_command_line_exit_2(run, argv, message):
    code, out, err = run(*argv)
    assert code == 2
    assert "Traceback" not in err
    assert f"error: {message}" in err


# ------------------------------------------------------------------------- the console script
def _console_script() -> list[str]:
    script = Path(sys.executable).with_name("dicetable")
    return [str(script)] if script.exists() else [sys.executable, "-m", "controller.cli"]


def test_the_console_script_replays_and_reports_errors(tmp_path):
    good = subprocess.run([*_console_script(), "replay", str(LOGS / "thirteen.json")],
                          capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert good.returncode == 0, good.stderr
    assert "Game over: Ann wins with 345" in good.stdout
    assert good.stdout.rstrip().endswith("1. Ann  345\nWinner: Ann")

    as_json = subprocess.run([*_console_script(), "replay", "--json", str(LOGS / "poknroll.json")],
                             capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["result"]["winners"] == ["Ann"]

    data = load_raw("classic")
    data["inputs"][5]["values"] = [7]
    bad = subprocess.run([*_console_script(), "replay", str(write_log(tmp_path / "bad.json", data))],
                         capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.strip() == "dicetable replay: input 5 is illegal: a die shows 1 to 6, not 7"


def test_replay_reads_a_table_journal_with_a_torn_last_line(tmp_path, run):
    """A journal as the kiosk writes it, cut by a power failure in the middle of a line."""
    from controller.journal import Journal
    from controller.tablelog import TableLog

    log = TableLog("thirteen", ["Ann"], {}, [{"type": "dice", "player": 0, "values": [6, 6, 6, 6, 6]},
                                             {"type": "choose", "player": 0, "option": "FIVE_KIND"}])
    path = tmp_path / "current.jsonl"
    Journal(path, log)
    with path.open("a") as fh:
        fh.write('{"type": "dice", "pla')
    code, out, err = run("replay", str(path))
    assert code == 0
    assert "60" in out and "not over" in out


def test_replay_reads_a_journal_with_a_choice_taken_back(tmp_path, run):
    """A box scored, taken back at the table (BACK twice) and scored elsewhere: the replay counts
    the second choice only; a take-back with nothing before it is a clear error, exit 2."""
    from controller.journal import Journal
    from controller.tablelog import TableLog

    path = tmp_path / "current.jsonl"
    journal = Journal(path, TableLog("thirteen", ["Ann"], {}, [{"type": "dice", "player": 0,
                                                                "values": [6, 6, 6, 6, 6]}]))
    journal.append({"type": "choose", "player": 0, "option": "CHANCE"})
    journal.take_back()
    journal.append({"type": "choose", "player": 0, "option": "FIVE_KIND"})
    code, out, err = run("replay", "--json", str(path))
    assert code == 0, err
    data = json.loads(out)
    assert data["result"]["scores"] == {"Ann": 60}        # five sixes as 5 of a kind; as chance: 30
    bad = tmp_path / "bad.jsonl"
    bad.write_text(path.read_text().splitlines()[0] + '\n{"undo": true}\n')
    code, out, err = run("replay", str(bad))
    assert code == 2 and "takes back an input that is not there" in err


def test_replay_reads_a_journal_with_dice_held_at_the_table(tmp_path, run):
    """A journal the table wrote with HOLD presses (its hold lines) replays as its moves alone."""
    from controller.journal import Journal
    from controller.tablelog import TableLog

    path = tmp_path / "current.jsonl"
    journal = Journal(path, TableLog("thirteen", ["Ann"], {}, [{"type": "dice", "player": 0,
                                                                "values": [6, 6, 6, 3, 2]}]))
    journal.hold(0, [6])
    journal.hold(0, [6, 6, 6])
    journal.append({"type": "reroll", "player": 0, "keep": [6, 6, 6]})
    journal.append({"type": "dice", "player": 0, "values": [6, 6]})
    journal.hold(0, [6, 6, 6, 6, 6])
    journal.append({"type": "choose", "player": 0, "option": "FIVE_KIND"})
    code, out, err = run("replay", "--json", str(path))
    assert code == 0, err
    assert json.loads(out)["result"]["scores"] == {"Ann": 55}     # 50, and 5 for the throw left unused


@pytest.mark.parametrize("content", ["1" * 5000, "[" * 100_000, "\ufeff{}"], ids=["long-number", "deep", "bom"])
def test_json_that_python_refuses_to_decode_is_one_line_exit_2(run, tmp_path, content):
    """Found with the journal's review: a 5000-digit number raised ValueError and arrays nested
    100,000 deep RecursionError out of TableLog.load (a traceback from `dicetable replay`)."""
    path = tmp_path / "log.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = run("replay", path)
    assert code == 2 and out == ""
    assert str(path) in assert_one_line_error(err)


# ------------------------------------------------------------------ an offending value of a megabyte
BIG = 100_000
HUGE_INPUTS = {   # what replaces a thirteen log's input 1 (a decision) or input 0 (a throw)
    "record": (0, [1] * BIG, "an input must be a record like {'type': 'dice', ...}, not [1, 1, 1, "),
    "type": (0, {"type": "x" * BIG}, "unknown input type 'xxxx"),
    "player": (0, {"type": "dice", "player": "x" * BIG, "values": [1] * 5}, "a player is a seat number"),
    "values": (0, {"type": "dice", "player": 0, "values": ["x"] * BIG}, "dice values must be a list of whole"),
    "option": (1, {"type": "choose", "player": 0, "option": "A" * BIG}, "'AAAA"),
    "keep-words": (1, {"type": "reroll", "player": 0, "keep": ["x"] * BIG}, "'keep' must be a list of die values"),
    "keep-dice": (1, {"type": "reroll", "player": 0, "keep": [6] * BIG}, "cannot keep [6, 6, 6"),
}


@pytest.mark.parametrize("index, bad, reason", HUGE_INPUTS.values(), ids=HUGE_INPUTS.keys())
def test_a_huge_illegal_input_is_quoted_in_part(run, tmp_path, index, bad, reason):
    """Found in review: the message quoted the whole offending value, so a log with a megabyte of
    dice made one line of a megabyte (terminal, system log, --json). It is cut, and says so."""
    data = load_raw("thirteen")
    data["inputs"][index] = bad
    path = write_log(tmp_path / "bad.json", data)
    code, out, err = run("replay", path)
    line = assert_one_line_error(err)
    assert code == 2 and line.startswith(f"dicetable replay: input {index} is illegal: ") and reason in line
    assert len(line) < 300 and "..." in line
    code, out, err = run("replay", path, "--json")
    assert code == 2 and len(out) < 400 and json.loads(out)["index"] == index


HUGE_HEADERS = {
    "option-value": ("thirteen", ["Ann"], {"upper_bonus": "x" * BIG}, "option 'upper_bonus': 'xxx"),
    "option-name": ("thirteen", ["Ann"], {"y" * BIG: 1}, "unknown option 'yyy"),
    "game": ("z" * BIG, ["Ann"], {}, "unknown game 'zzz"),
    "name-twice": ("thirteen", ["w" * BIG] * 2, {}, "player names must be different: www"),
    "face-mapping": ("classic", ["Ann", "Bob"], {"face_mapping": ["9" * BIG] * 6}, "option 'face_mapping': '999"),
}


@pytest.mark.parametrize("game, players, options, reason", HUGE_HEADERS.values(), ids=HUGE_HEADERS.keys())
def test_a_huge_header_value_is_quoted_in_part(run, tmp_path, game, players, options, reason):
    path = write_log(tmp_path / "bad.json", {"format": FORMAT, "game": game, "players": players,
                                             "options": options, "inputs": []})
    code, out, err = run("replay", path)
    line = assert_one_line_error(err)
    assert code == 2 and reason in line and len(line) < 600 and "..." in line    # (the known options: 330)
