"""A new game's log and journal record the value of every house rule of its game, the defaults
filled in: a later build whose default changed (a spec's ASSUMPTION settled otherwise) resumes a
game in progress at the update, and replays an archived one, under the rules it started with. The
header kept only the rules set otherwise, and such a game went on under the new default. Logs and
journals written before (options partial) still read as they did: the missing ones at the defaults."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

import controller.cli as cli
from controller.journal import load_any
from controller.rules.base import choose_input, dice_input, find_game
from controller.setup_menu import SetupDefaults, SetupMenu, SetupResult
from controller.tablelog import TableLog, replay
from test_first_player import NoDraw, header, table

PLAYERS = ["Ann", "Bob", "Cy"]
FULL_HOUSE_AS_TWO_PAIRS = [dice_input(0, [2, 2, 2, 5, 5]), choose_input(0, "TWO_PAIRS")]
#: (game, option, its default in a later build, inputs that score otherwise under it)
LATER_DEFAULTS = [
    ("thirteen", "two_pairs_value", 30, FULL_HOUSE_AS_TWO_PAIRS),
    ("thirteen", "two_pairs_accepts_full_house", False, FULL_HOUSE_AS_TWO_PAIRS),
]


def later_default(monkeypatch, game: str, name: str, value) -> None:
    """The build after an update: `game`'s option `name` defaults to `value`."""
    cls = find_game(game)
    specs = tuple(replace(s, default=value) if s.name == name else s for s in cls.OPTIONS)
    monkeypatch.setattr(cls, "OPTIONS", specs)


def every(game: str, options: dict) -> dict:
    """`options` with the default of every other house rule of `game`, as a new game records them."""
    return {s.name: s.default for s in find_game(game).OPTIONS} | options


def outcome(state) -> tuple:
    return state.sheet().to_json(), state.result().to_json()


@pytest.mark.parametrize("game, name, value, inputs", LATER_DEFAULTS)
def test_a_journaled_game_resumes_and_replays_under_the_rules_it_started_with(tmp_path, monkeypatch,
                                                                              game, name, value, inputs):
    app = table(tmp_path, NoDraw(), game, options={})           # the menu: standard house rules
    for data in inputs:
        app.journal.append(data)
    started = outcome(replay(TableLog(game, PLAYERS, {}, inputs)))
    later_default(monkeypatch, game, name, value)
    assert outcome(replay(TableLog(game, PLAYERS, {}, inputs))) != started     # (the change shows)
    resumed = table(tmp_path, NoDraw(), game, options=None)
    assert resumed.flow.log.inputs == inputs
    assert outcome(resumed.flow.state) == started
    assert outcome(replay(load_any(tmp_path / "current.jsonl"))) == started   # dicetable replay


def test_the_journal_header_has_every_option_of_the_game(tmp_path):
    table(tmp_path, NoDraw(), "classic", options={"rounds": 2})
    options = header(tmp_path / "current.jsonl")["options"]
    assert options == every("classic", {"rounds": 2})


def test_a_log_of_dicetable_play_replays_under_the_rules_it_started_with(tmp_path, monkeypatch, capsys):
    log = tmp_path / "game.json"
    monkeypatch.setattr("builtins.input", lambda prompt="": (_ for _ in ()).throw(EOFError))
    cli.main(["play", "--game", "thirteen", "--players", ",".join(PLAYERS), "--log", str(log)])
    capsys.readouterr()
    saved = TableLog.load(log)
    saved.inputs = list(FULL_HOUSE_AS_TWO_PAIRS)
    saved.save(log)
    started = outcome(replay(saved))
    later_default(monkeypatch, "thirteen", "two_pairs_value", 30)
    assert outcome(replay(TableLog.load(log))) == started
    assert cli.main(["replay", str(log), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sheet"] == started[0]


def test_a_log_written_before_reads_the_options_it_left_out_at_the_defaults(monkeypatch):
    old = TableLog("thirteen", PLAYERS, {"tie": "upper_total"}, FULL_HOUSE_AS_TWO_PAIRS)
    later_default(monkeypatch, "thirteen", "two_pairs_value", 30)
    state = replay(old)
    assert state.options["two_pairs_value"] == 30 and state.options["tie"] == "upper_total"


@pytest.mark.parametrize("given, refused", [
    ("tie=shared", None),                          # the default, which the old log left out
    ("two_pairs_value=25", None),
    ("tie=upper_total", 'where tie is "shared"'),
    ("two_pairs_value=20", "where two_pairs_value is 25"),
])
def test_play_resume_compares_an_option_given_with_its_value_in_the_log(tmp_path, monkeypatch, capsys,
                                                                       given, refused):
    """An old log (options partial) and a new one (every option) against a partial command line."""
    monkeypatch.setattr("builtins.input", lambda prompt="": (_ for _ in ()).throw(EOFError))
    for options in ({"two_pairs_value": 25}, every("thirteen", {"two_pairs_value": 25})):
        log = tmp_path / "game.json"
        TableLog("thirteen", PLAYERS, dict(options)).save(log)
        code = cli.main(["play", "--resume", str(log), "--option", given])
        err = capsys.readouterr().err
        assert (code == 2) == (refused is not None), err
        assert refused is None or refused in err


def test_the_menu_offers_to_play_again_a_game_resumed_from_a_journal_with_every_option():
    menu = SetupMenu(defaults=SetupDefaults(game="thirteen", players=PLAYERS))
    menu.played(SetupResult("thirteen", tuple(PLAYERS), every("thirteen", {"tie": "upper_total"})))
    assert f"hold OK: play again ({', '.join(PLAYERS)})" in menu.view().prompt.hint
