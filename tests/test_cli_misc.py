"""`dicetable games [--options]`, `--option name=value` parsing, and `dicetable demo --text`."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

import controller.cli as cli
from controller.config import load_config
from controller.demo_text import run_text_demo
from controller.rules import GAMES, OptionError
from controller.rules.base import find_game, resolve_options


TITLES = {"classic": "Classic poker dice", "objective-cards": "Objective cards", "poknroll": "Pok'n Roll",
          "school": "School", "thirteen": "Thirteen"}


@pytest.fixture
def run(monkeypatch, capsys):

    def _run(*argv: str) -> tuple[int, str, str]:
        try:
            code = cli.main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err

    return _run


# ------------------------------------------------------------------------------------- games
def test_games_lists_the_five_games(run):
    code, out, err = run("games")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "classic: Classic poker dice (2-8 players)",
        "objective-cards: Objective cards (2-5 players)",
        "poknroll: Pok'n Roll (3-6 players)",
        "school: School (1-6 players)",
        "thirteen: Thirteen (1-6 players)",
    ]


def test_games_options_lists_every_option_under_its_game(run):
    code, out, err = run("games", "--options")
    assert (code, err) == (0, "")
    blocks: dict[str, list[str]] = {}
    current = None
    for line in out.splitlines():
        if not line.startswith(" "):
            current = line.split(":", 1)[0]
            blocks[current] = []
        else:
            blocks[current].append(line.strip())
    assert sorted(blocks) == sorted(GAMES) == sorted(TITLES)
    for name, cls in GAMES.items():
        listed = [line.split(" = ", 1)[0] for line in blocks[name]]
        assert listed == [spec.name for spec in cls.OPTIONS], name
        assert len(listed) >= 5
    thirteen = blocks["thirteen"]
    assert any(line.startswith("two_pairs_value = 20 ") for line in thirteen)
    assert any(line.startswith('tie = "shared"  # one of "shared", "upper_total", "fewer_zeros": ')
               for line in thirteen)
    assert any(line.startswith('variant = "base"  # one of "base", "betting": ') for line in blocks["classic"])
    assert any(line.startswith('mode = "beginner"  # one of "beginner", "expert": ') for line in blocks["poknroll"])


def test_every_listed_option_line_pasted_into_the_config_is_read_back(run, tmp_path):
    """config.example.toml sends staff to `games --options` for the house rules; its lines go into
    [table.options.GAME] as they are. Printed as Python, `rotate_first_player = True` stopped the
    table ("not valid TOML: Invalid value"), and Pok'n Roll's line_values too."""
    code, out, err = run("games", "--options")
    assert (code, err) == (0, "")
    text = ""
    for line in out.splitlines():
        if not line.startswith(" "):
            text += f"\n[table.options.{line.split(':', 1)[0]}]\n"
        else:
            text += line.strip() + "\n"
    cfg = tmp_path / "config.toml"
    cfg.write_text(text)
    config = load_config(cfg)
    assert config.warnings == ()
    assert config.table.options == {name: {spec.name: spec.default for spec in cls.OPTIONS}
                                    for name, cls in GAMES.items()}
    assert "rotate_first_player = true  # " in out


def test_every_listed_default_is_accepted_back_as_an_option(run, tmp_path):
    """What `games --options` prints as a default, `--option name=<json>` accepts for that game."""
    for name, cls in GAMES.items():
        pairs = [f"{spec.name}={json.dumps(spec.default)}" for spec in cls.OPTIONS]
        options = cli.parse_options(pairs)
        assert options == {spec.name: spec.default for spec in cls.OPTIONS}
        cls.new(["Ann", "Bob", "Cy"][: max(cls.min_players, 1)], options)   # no OptionError


# ------------------------------------------------------------------------------ parse_options
def test_parse_options_values_are_json_when_they_parse():
    assert cli.parse_options([
        "two_pairs_value=25", "joker_forced_order=true", "tie=upper_total", "early_close_on_zero=false",
        'face_mapping=["A","K","Q","J","10","9"]', 'line_values={"beginner": {"PAIRE": 2}}',
        'name="25"', " spaced =1", "expr=a=b", "empty=", "nothing=null", "ratio=0.5",
    ]) == {
        "two_pairs_value": 25, "joker_forced_order": True, "tie": "upper_total", "early_close_on_zero": False,
        "face_mapping": ["A", "K", "Q", "J", "10", "9"], "line_values": {"beginner": {"PAIRE": 2}},
        "name": "25", "spaced": 1, "expr": "a=b", "empty": "", "nothing": None, "ratio": 0.5,
    }
    assert cli.parse_options(None) == {} and cli.parse_options([]) == {}
    assert cli.parse_options(["a=1", "a=2"]) == {"a": 2}    # the last one wins


@pytest.mark.parametrize("pair", ["upper_bonus", "=5", "  =5"])
def test_parse_options_needs_a_name_and_a_value(pair):
    with pytest.raises(OptionError, match=re.escape(repr(pair))):
        cli.parse_options([pair])


def test_options_reach_the_game(run, tmp_path, monkeypatch):
    """--option two_pairs_value=25: 2 pairs after throw 1 previews 25 + 10 instead of 20 + 10."""
    answers = iter(["1 1 2 2 5", "2 pairs"])

    def keyboard(prompt=""):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", keyboard)
    log = tmp_path / "g.json"
    code, out, err = run("play", "--game", "thirteen", "--players", "Ann", "--log", log,
                         "--option", "two_pairs_value=25", "--option", "tie=upper_total")
    assert (code, err) == (0, "")
    assert " 7. 2 pairs: +10 early  (+35)" in out
    doc = json.loads(log.read_text())
    # (every house rule of the game, the defaults filled in: a later default does not change it)
    assert doc["options"] == resolve_options(find_game("thirteen").OPTIONS,
                                             {"two_pairs_value": 25, "tie": "upper_total"}, "thirteen")
    assert doc["inputs"][-1] == {"type": "choose", "player": 0, "option": "TWO_PAIRS"}


@pytest.mark.parametrize("option, message", [
    ("bogus=1", "unknown option 'bogus' for game 'thirteen' (known: "),
    ("two_pairs_value=\"25\"", "option 'two_pairs_value': '25' is not a"),
    ("tie=coin_toss", "option 'tie': 'coin_toss' is not one of 'shared', 'upper_total', 'fewer_zeros'"),
    ("upper_bonus=-1", "option 'upper_bonus': -1 is below the minimum 0"),
    # (a face "²" was a ValueError traceback: str.isdigit() takes it, int() does not)
    ('face_mapping={"²": 9}', "option 'face_mapping': '²' is not a die face 1..6"),
])
def test_a_bad_option_exits_2_naming_it(run, monkeypatch, option, message):
    monkeypatch.setattr("builtins.input", lambda prompt="": pytest.fail("no question before the game starts"))
    game, players = ("classic", "Ann,Bob") if option.startswith("face_mapping") else ("thirteen", "Ann")
    code, out, err = run("play", "--game", game, "--players", players, "--option", option)
    assert code == 2 and out == ""
    assert err.startswith("dicetable play: " + message)
    assert err.count("\n") == 1 and "Traceback" not in err


# ------------------------------------------------------------------------------- demo --text
def _sections(out: str) -> dict[str, str]:
    """title -> the text of that game's section."""
    parts = re.split(r"^={72}\n(.+?): (\d+) players, (\d+) inputs\n={72}\n", out, flags=re.M)
    return {parts[i]: (int(parts[i + 1]), int(parts[i + 2]), parts[i + 3]) for i in range(1, len(parts), 4)}


def test_demo_text_plays_every_game_to_a_result(run):
    code, out, err = run("demo", "--text")
    assert (code, err) == (0, "")
    sections = _sections(out)
    assert sorted(sections) == sorted(TITLES.values())
    for title, (players, inputs, text) in sections.items():
        cls = next(c for c in GAMES.values() if c.title == title)
        assert cls.min_players <= players <= cls.max_players
        assert inputs > 0
        assert text.startswith(f"== {title} ==\n")
        status = text.splitlines()[1]
        assert "over" in status.lower(), status
        result = text.rstrip().splitlines()
        assert re.match(r"Winners?: ", result[-1]) or re.match(r"Tie-break: ", result[-1]), result[-1]
        places = [line for line in result if re.match(r"\d+\. \S", line)]
        assert len(places) == players


def test_demo_text_one_game_with_a_player_count_and_seed(run):
    code, out, err = run("demo", "--text", "--game", "thirteen", "--players", "2", "--seed", "5")
    assert (code, err) == (0, "")
    sections = _sections(out)
    assert list(sections) == ["Thirteen"]
    players, inputs, text = sections["Thirteen"]
    assert players == 2
    assert "Game over" in text and re.search(r"^1\. (Ann|Bob)  \d+$", text, re.M)
    # the same seed plays the same game; another seed another game
    assert run("demo", "--text", "--game", "thirteen", "--players", "2", "--seed", "5")[1] == out
    assert run("demo", "--text", "--game", "thirteen", "--players", "2", "--seed", "6")[1] != out


def test_demo_text_seats_as_many_players_as_it_says():
    """Found by this test: 'classic, 8 players' seated only the 6 names of the demo list."""
    out = io.StringIO()
    assert run_text_demo(out, ["classic"], 8, seed=2) == 0
    players, _inputs, text = _sections(out.getvalue())["Classic poker dice"]
    assert players == 8
    header = next(line for line in text.splitlines() if line.startswith(" ") and "|" in line)
    assert len(header.split("|")) == 1 + 8
    places = [line for line in text.splitlines() if re.match(r"\d+\. \S", line)]
    assert len(places) == 8


def test_demo_text_refuses_a_player_count_a_game_does_not_take():
    """It used to play another count than asked (Pok'n Roll with 3 for 1) without saying so."""
    with pytest.raises(OptionError, match="Pok'n Roll takes 3 to 6 players, not 1"):
        run_text_demo(io.StringIO(), ["poknroll", "thirteen"], 1, seed=1)


# the demo plays the count asked or refuses it, as `dicetable play` does (it once played 3 for 0)
DEMO_PLAYER_COUNTS = [
    (["--players", "0"], "the games take 1 to 8 players, not 0"),
    (["--players", "99"], "the games take 1 to 8 players, not 99"),
    (["--players", "1"], "Classic poker dice takes 2 to 8 players, not 1 (name one game with --game)"),
    (["--game", "thirteen", "--players", "-1"], "Thirteen takes 1 to 6 players, not -1"),
    (["--game", "classic", "--players", "1"], "Classic poker dice takes 2 to 8 players, not 1"),
    (["--game", "poknroll", "--players", "7"], "Pok'n Roll takes 3 to 6 players, not 7"),
]


@pytest.mark.parametrize("mode", [["--text"], ["--headless"]], ids=["text", "screen"])
@pytest.mark.parametrize("argv, error", DEMO_PLAYER_COUNTS)
def test_demo_refuses_a_player_count_out_of_the_games_range(run, tmp_path, monkeypatch, mode, argv, error):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.chdir(tmp_path)     # (a demo that started anyway would write its screenshots here)
    code, out, err = run("demo", *mode, *argv)
    assert (code, out, err) == (2, "", f"dicetable demo: {error}\n")
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ output folders (--screenshots)
FIXTURES = Path(__file__).parent / "fixtures"
FOLDER_ARGV = {
    "demo": ["demo", "--game", "classic", "--headless"],
    "play": ["play", "--fixtures", FIXTURES / "table", "--script", FIXTURES / "scripts" / "classic.txt"],
}


@pytest.mark.parametrize("command", sorted(FOLDER_ARGV))
@pytest.mark.parametrize("where, error", [
    ("afile.jpg", "--screenshots {dir}/afile.jpg: that is a file, not a folder"),
    ("not/there", "--screenshots {dir}/not/there: the folder {dir}/not does not exist (create it first)"),
])
def test_a_screenshot_folder_that_cannot_be_one_is_said_before_any_game(run, tmp_path, monkeypatch, command,
                                                                        where, error):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    (tmp_path / "afile.jpg").write_bytes(b"x")
    code, out, err = run(*FOLDER_ARGV[command], "--screenshots", tmp_path / where)
    assert (code, out) == (2, "")
    assert err == f"dicetable {command}: " + error.format(dir=tmp_path) + "\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile.jpg"]


@pytest.mark.parametrize("command", sorted(FOLDER_ARGV))
@pytest.mark.parametrize("size, error", [
    ("1280x72", "--size 1280x72 is too small to read across a table: at least 320x240"),
    ("240x240", "--size 240x240 is too small to read across a table: at least 320x240"),
    ("9000x720", "--size 9000x720 is larger than any screen: at most 8000 a side"),
])
def test_a_screen_size_too_small_to_read_is_refused_as_the_config_refuses_it(run, tmp_path, monkeypatch,
                                                                              command, size, error):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    code, out, err = run(*FOLDER_ARGV[command], "--headless", "--size", size, "--screenshots", tmp_path)
    assert (code, out, err) == (2, "", f"dicetable {command}: {error}\n")
    assert list(tmp_path.iterdir()) == []


def test_a_fixture_game_whose_log_cannot_be_written_says_so(run, tmp_path):
    code, out, err = run(*FOLDER_ARGV["play"], "--log", tmp_path / "not" / "log.json")
    assert code == 2
    assert err == f"dicetable play: cannot write the log {tmp_path}/not/log.json: No such file or directory\n"


def test_bench_limit_help_names_every_target_that_takes_it(capsys):
    """`dicetable bench --help` says what --limit counts for each target that takes it (the README
    says journal, powercut and archive take one; the help named only vision, rules, table, soak)."""
    from vision.cli import BENCH_OPTIONS

    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["bench", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    limit = text[text.rindex("--limit N"):text.rindex("--passes N")]
    takers = sorted(name for name, options in BENCH_OPTIONS.items() if "limit" in options)
    assert takers == ["archive", "evening", "journal", "powercut", "rules", "soak", "table", "vision"]
    assert [name for name in takers if f"{name}:" not in limit] == []
