"""Players' names the same on every path into a game: the menu, a command line, a script, a log.

The menu offered "Player 1" for a seat named 王小明 where no font has its letters, but
`dicetable play --players 王小明,Ann --screenshots DIR` drew "???" (and two such names "??? #1",
"?? #3"). A table log or journal edited by hand held "Ann\\nBob" (the terminal's prompt broke over
two lines) or a decomposed "Zoë" (`--players Zoë` on a resume "did not match" the same name).
"""
from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

import controller.cli as cli
from controller.journal import JOURNAL_FORMAT, Journal
from controller.tablelog import TableLog, replay
from test_cli_play import Keyboard

FIXTURES = Path(__file__).parent / "fixtures" / "table"
ZOE_NFD = unicodedata.normalize("NFD", "Zoë")


def run(capsys, monkeypatch, argv: list[str], lines: list[str] = ()) -> tuple[int, str, str]:
    monkeypatch.setattr("builtins.input", Keyboard(lines))
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("how", ["--players", "script"])
def test_a_name_the_screen_cannot_draw_takes_the_menus_stand_in(tmp_path, capsys, monkeypatch, how):
    script = tmp_path / "s.txt"
    if how == "script":
        script.write_text("game classic 王小明,Ann,李华\nscreenshot start\n", encoding="utf-8")
        argv = []
    else:
        script.write_text("screenshot start\n", encoding="utf-8")
        argv = ["--game", "classic", "--players", "王小明,Ann,李华"]
    log = tmp_path / "game.json"
    code, out, err = run(capsys, monkeypatch, ["play", *argv, "--fixtures", str(FIXTURES), "--script", str(script),
                                               "--screenshots", str(tmp_path / "shots"), "--log", str(log)])
    assert code == 3, err
    assert TableLog.load(log).players == ["Player 1", "Ann", "Player 3"]   # as the menu offers them
    assert "Player 1" in out and "Player 3" in out
    assert "Seat 1's name has letters this screen lacks: it is Player 1 for now." in err
    assert "Seat 3's name" in err


def test_without_a_screen_the_names_stay_as_typed(tmp_path, capsys, monkeypatch):
    """Without a screen (the sheet printed to a terminal, which draws 王小明) nothing is changed."""
    script = tmp_path / "s.txt"
    script.write_text("game classic 王小明,Ann\n", encoding="utf-8")
    code, out, err = run(capsys, monkeypatch, ["play", "--fixtures", str(FIXTURES), "--script", str(script)])
    assert code == 3 and "王小明" in out and "lacks" not in err


def write_log(path: Path, players: list[str]) -> Path:
    path.write_text(json.dumps({"game": "classic", "players": players, "options": {}, "inputs": []}),
                    encoding="utf-8")
    return path


def test_a_decomposed_name_in_a_log_matches_the_same_name_typed(tmp_path, capsys, monkeypatch):
    log = write_log(tmp_path / "game.json", [ZOE_NFD, "Ann"])
    code, out, err = run(capsys, monkeypatch, ["play", "--resume", str(log), "--players", "Zoë,Ann"])
    assert "does not match" not in err
    assert code == 0 and "Zoë: throw all 5 dice" in out


def test_a_line_break_in_a_logged_name_does_not_break_the_prompt(tmp_path, capsys, monkeypatch):
    log = write_log(tmp_path / "game.json", ["Ann\nBob", "Cy\tDee\x07"])
    code, out, err = run(capsys, monkeypatch, ["play", "--resume", str(log)])
    assert code == 0, err
    assert "Ann Bob: throw all 5 dice" in out
    assert not any(line.strip() == "Bob: throw all 5 dice" for line in out.splitlines())
    assert TableLog.load(log).players == ["Ann Bob", "Cy Dee"]


def test_a_journal_whose_names_are_one_once_cleaned_keeps_both_seats(tmp_path):
    """"Zoë" composed and decomposed were two players drawn alike: once composed they would be
    one name twice, which the rules refuse; the game is kept, the second told apart by its seat."""
    path = tmp_path / "current.jsonl"
    header = {"format": JOURNAL_FORMAT, "game": "classic", "players": ["Zoë", ZOE_NFD],
              "options": {}}
    path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    table_log = Journal.load(path)
    assert table_log.players == ["Zoë", "Zoë #2"]
    assert list(replay(table_log).players) == ["Zoë", "Zoë #2"]


@pytest.mark.parametrize("players", [["Ann", "Ann"], ["Ann", ""]])
def test_names_the_rules_refuse_are_still_refused(players):
    with pytest.raises(Exception, match="name"):
        TableLog.from_json({"game": "classic", "players": players}).start()
