"""`first_player = "drawn"`: the table draws who starts, once, journals the seat drawn in the game's
header before the screen names it, and never draws it again (a resume, a replay, `play --resume`)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import controller.cli as cli
import controller.draws as draws
from controller.config import ConfigError, parse_config
from controller.draws import draw_first_player, first_player_words
from controller.journal import Journal, load_any
from controller.rules import GAMES, OptionError, new_game
from controller.rules.base import find_game, resolve_options
from controller.rules.random_play import random_input
from controller.setup_menu import SetupDefaults, SetupMenu, SetupResult
from controller.tablelog import LogError, TableLog, replay
from display.screen import Screen

PLAYERS = ["Ann", "Bob", "Cy"]
#: the games whose spec leaves the first player to chance or to the table
DRAWN_GAMES = ["classic", "poknroll", "school", "thirteen"]
DRAWN = {"first_player": "drawn"}


def every(game: str, options: dict) -> dict:
    """A new game's options as its log or journal records them: every house rule, these set."""
    return resolve_options(find_game(game).OPTIONS, options, game)


class Seat(random.Random):
    """Draws `seat`, and counts its draws."""

    def __init__(self, seat: int) -> None:
        super().__init__(0)
        self.seat, self.draws = seat, 0

    def randrange(self, *args, **kw) -> int:       # type: ignore[override]
        self.draws += 1
        return self.seat


class NoDraw(random.Random):
    """A resume or a replay must not draw: this one fails the test if it is asked to."""

    def randrange(self, *args, **kw) -> int:       # type: ignore[override]
        raise AssertionError("the first player was drawn again")


# ------------------------------------------------------------------------------------ rules
@pytest.mark.parametrize("game", DRAWN_GAMES)
@pytest.mark.parametrize("seat", range(3))
def test_every_game_that_allows_it_starts_at_the_seat_drawn(game, seat):
    options = draw_first_player(PLAYERS, DRAWN, Seat(seat))
    assert options == {"first_player": "drawn", "start_seat": seat}
    state = new_game(game, PLAYERS, options)
    assert state.expects().player == seat
    assert first_player_words(state) == f"Drawn by the table: {PLAYERS[seat]} starts (seat {seat + 1})."


def test_a_draw_spreads_over_every_seat():
    rng = random.Random(7)
    seen = {draw_first_player(PLAYERS, DRAWN, rng)["start_seat"] for _ in range(60)}
    assert seen == {0, 1, 2}


@pytest.mark.parametrize("options", [{}, {"first_player": "start_seat"}, {"first_player": "start_seat", "start_seat": 2}])
def test_a_first_player_not_left_to_the_table_is_not_drawn(options):
    assert draw_first_player(PLAYERS, options, NoDraw()) == options
    assert first_player_words(new_game("thirteen", PLAYERS, options)) is None


def test_the_default_is_the_start_seat_as_before():
    for game in DRAWN_GAMES:
        spec = next(s for s in GAMES[game].OPTIONS if s.name == "first_player")
        assert spec.default == "start_seat"


def test_objective_cards_has_the_youngest_start_and_refuses_a_draw():
    """Its rule names who starts (the youngest, spec step 4): a draw would break it."""
    assert "first_player" not in {s.name for s in GAMES["objective-cards"].OPTIONS}
    with pytest.raises(OptionError, match="unknown option 'first_player' for game 'objective-cards'"):
        new_game("objective-cards", PLAYERS, DRAWN)


@pytest.mark.parametrize("value", ["random", "yes", True, 1, None])
def test_a_bad_value_is_refused_saying_the_values_it_takes(value):
    with pytest.raises(OptionError, match="option 'first_player': .* is not one of 'start_seat', 'drawn'"):
        new_game("thirteen", PLAYERS, {"first_player": value})


# ------------------------------------------------------------------------------------ table
def table(tmp_path, rng, game="thirteen", options=DRAWN):
    from controller.table_app import TableApp
    from test_table_e2e import FakeButtons, NoFrames

    app = TableApp(parse_config(f'[table]\njournal_dir = "{tmp_path}"\n'), Screen((800, 480), headless=True),
                   NoFrames(), FakeButtons(), rng=rng)
    if options is not None:
        app.menu.done = SetupResult(game, tuple(PLAYERS), dict(options))
        app.start_new()
    return app


def header(path: Path) -> dict:
    return json.loads(path.read_bytes().split(b"\n")[0])


@pytest.mark.parametrize("game", DRAWN_GAMES)
def test_the_table_draws_journals_and_then_names_the_first_player(tmp_path, game, monkeypatch):
    from controller.table import TableFlow

    said: list[tuple[str, dict]] = []
    real_say = TableFlow.say

    def say(flow, text, level="info"):          # what the journal held when the screen said it
        said.append((text, header(tmp_path / "current.jsonl")["options"]))
        real_say(flow, text, level)

    monkeypatch.setattr(TableFlow, "say", say)
    rng = Seat(2)
    app = table(tmp_path, rng, game)
    assert rng.draws == 1
    assert app.flow.state.expects().player == 2
    assert app.flow.view().message.text.startswith("Drawn by the table: Cy starts (seat 3).")
    assert said[0][0].startswith("Drawn by the table: Cy starts")
    assert said[0][1] == every(game, {"first_player": "drawn", "start_seat": 2})
    assert app.menu.done.options == DRAWN       # (a game again draws again)


def test_a_table_with_the_start_seat_draws_nothing_and_says_nothing_of_it(tmp_path):
    app = table(tmp_path, NoDraw(), options={"start_seat": 1})
    assert app.flow.state.expects().player == 1
    assert app.flow.view().message is None


def thirteen_journal(tmp_path: Path, seat: int, moves: int) -> tuple[Path, list]:
    """A table's journal of Thirteen with the first player drawn (seat `seat`) and `moves` moves."""
    app = table(tmp_path, Seat(seat))
    state, rng, inputs = app.flow.state, random.Random(seat), []
    for _ in range(moves):
        data = random_input(state, rng)
        state = state.apply(data)
        app.journal.append(data)
        inputs.append(data)
    return tmp_path / "current.jsonl", inputs


@pytest.mark.parametrize("seat", [1, 2])
def test_a_resume_from_the_journal_cut_at_each_line_never_draws_again(tmp_path, seat):
    path, inputs = thirteen_journal(tmp_path / "made", seat, 12)
    lines = path.read_bytes().split(b"\n")[:-1]
    whole = replay(TableLog("thirteen", PLAYERS, {"first_player": "drawn", "start_seat": seat}, inputs))
    for kept in range(1, len(lines) + 1):
        for torn in (b"", lines[kept][: len(lines[kept]) // 2]) if kept < len(lines) else (b"",):
            folder = tmp_path / f"cut{kept}-{len(torn)}"
            folder.mkdir()
            (folder / "current.jsonl").write_bytes(b"\n".join(lines[:kept]) + b"\n" + torn)
            app = table(folder, NoDraw(), options=None)          # (NoDraw: fails if it draws)
            state = app.flow.state
            assert state.options["start_seat"] == seat, (kept, torn)
            assert app.flow.log.inputs == inputs[:kept - 1]
            assert state.snapshot() == replay(TableLog("thirteen", PLAYERS, dict(state.options),
                                                       inputs[:kept - 1])).snapshot()
            assert header(folder / "current.jsonl")["options"] == every("thirteen", {"first_player": "drawn",
                                                                                     "start_seat": seat})
            text = app.flow.view().message.text
            # before the first move the screen still says who was drawn; after it, the game says
            assert (f"Drawn by the table: {PLAYERS[seat]} starts" in text) == (kept == 1), text
    assert whole.snapshot() == replay(Journal.load(path)).snapshot()


def test_a_game_again_after_a_resumed_one_draws_anew(tmp_path):
    path, _ = thirteen_journal(tmp_path, 1, 3)
    rng = Seat(2)
    app = table(tmp_path, rng, options=None)
    assert rng.draws == 0 and app.flow.state.options["start_seat"] == 1
    app.menu.done = app.menu.last                    # the long OK that plays it again
    app.start_new()
    assert rng.draws == 1 and app.flow.state.expects().player == 2


def without_options(state) -> dict:
    return {k: v for k, v in state.snapshot().items() if k != "options"}


def test_a_replay_of_the_journal_starts_at_the_seat_drawn(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(draws, "SYSTEM_RANDOM", NoDraw())
    path, inputs = thirteen_journal(tmp_path, 2, 5)
    state = replay(load_any(path))
    assert state.options["start_seat"] == 2
    assert without_options(state) == without_options(replay(TableLog("thirteen", PLAYERS, {"start_seat": 2}, inputs)))
    assert cli.main(["replay", str(path), "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)["sheet"]
    assert sheet == replay(TableLog("thirteen", PLAYERS, {"start_seat": 2}, inputs)).sheet().to_json()
    with pytest.raises(LogError, match="waiting for dice from player 0, not from player 2"):
        replay(TableLog("thirteen", PLAYERS, {}, inputs))     # (the seat is what makes it replay)


# ------------------------------------------------------------------------- setup menu, config
def options_menu(game: str, **options) -> SetupMenu:
    menu = SetupMenu(defaults=SetupDefaults(game=game, players=PLAYERS, options={game: options}))
    for name in ("OK", "OK", "OK"):              # game, count, names: Next
        menu.on_button("press", name)
    assert menu.page == "options"
    return menu


def row(menu: SetupMenu, label: str):
    for _ in range(60):
        item = next(i for i in menu.view().setup if i.selected)
        if item.label == label:
            return item
        menu.on_button("press", "DOWN")
    raise AssertionError(f"no row {label!r}")


def test_the_setup_menus_first_player_line_says_what_it_does_and_draws_when_chosen():
    menu = options_menu("thirteen")
    item = row(menu, "First player")
    assert item.value == "the start seat"
    assert menu.view().prompt.text == (
        "who plays first: the player at the start seat, or one the table draws at random and names as "
        "the game starts (a restart does not draw again) (standard: the start seat)")
    menu.on_button("press", "OK")
    assert row(menu, "First player").value == "drawn by the table"
    assert row(menu, "Start seat").value == "drawn when the game starts"
    menu.on_button("press", "OK")                # the seat is not chosen while the table draws it
    assert menu.editing is None and "The table draws the first player" in menu.view().message.text
    row(menu, "Next >")
    menu.on_button("press", "OK")
    labels = {i.label: i.value for i in menu.view().setup}
    assert labels["First player"] == "drawn by the table" and "Start seat" not in labels
    menu.on_button("hold", "OK")
    assert menu.done == SetupResult("thirteen", tuple(PLAYERS), {"first_player": "drawn"})


def test_objective_cards_setup_has_no_first_player_line():
    menu = options_menu("objective-cards")
    with pytest.raises(AssertionError, match="no row 'First player'"):
        row(menu, "First player")


def test_the_config_sets_the_draw_and_a_bad_value_is_refused_clearly():
    config = parse_config('[table.options.school]\nfirst_player = "drawn"\n')
    assert config.table.options["school"] == {"first_player": "drawn"}
    menu = options_menu("school", **config.table.options["school"])
    assert row(menu, "First player").value == "drawn by the table"
    with pytest.raises(ConfigError, match="first_player.*'random' is not one of 'start_seat', 'drawn'"):
        parse_config('[table.options.thirteen]\nfirst_player = "random"\n')


def test_the_games_options_line_pasted_into_the_config_reads_back(tmp_path, capsys):
    assert cli.main(["games", "--options"]) == 0
    out = capsys.readouterr().out
    lines = {}
    game = None
    for line in out.splitlines():
        if not line.startswith(" "):
            game = line.split(":", 1)[0]
        elif line.strip().startswith("first_player = "):
            lines[game] = line.strip()
    assert sorted(lines) == DRAWN_GAMES
    assert lines["thirteen"].startswith('first_player = "start_seat"  # one of "start_seat", "drawn": ')
    text = "".join(f"[table.options.{g}]\n{line.replace('start_seat', 'drawn', 1)}\n" for g, line in lines.items())
    config = parse_config(text)
    assert config.table.options == {g: {"first_player": "drawn"} for g in DRAWN_GAMES}


# ------------------------------------------------------------------------------ dicetable play
def test_play_at_the_terminal_draws_once_names_it_and_resumes_without_drawing(tmp_path, monkeypatch, capsys):
    log = tmp_path / "game.json"
    monkeypatch.setattr(draws, "SYSTEM_RANDOM", Seat(1))
    monkeypatch.setattr("builtins.input", lambda prompt="": (_ for _ in ()).throw(EOFError))
    cli.main(["play", "--game", "poknroll", "--players", "Ann,Bob,Cy", "--option", "first_player=drawn",
              "--log", str(log)])
    out = capsys.readouterr().out
    assert "Drawn by the table: Bob starts (seat 2)." in out
    saved = TableLog.load(log)
    assert saved.options == every("poknroll", {"first_player": "drawn", "start_seat": 1})
    monkeypatch.setattr(draws, "SYSTEM_RANDOM", NoDraw())
    cli.main(["play", "--resume", str(log), "--option", "first_player=drawn"])
    out = capsys.readouterr().out
    assert "Bob: throw 3 white dice" in out and TableLog.load(log).options["start_seat"] == 1


def test_play_refuses_a_bad_first_player_with_a_clear_message(capsys):
    assert cli.main(["play", "--game", "thirteen", "--players", "Ann,Bob", "--option", "first_player=random"]) == 2
    assert "option 'first_player': 'random' is not one of 'start_seat', 'drawn'" in capsys.readouterr().err
    assert cli.main(["play", "--game", "objective-cards", "--players", "Ann,Bob",
                     "--option", "first_player=drawn"]) == 2
    assert "unknown option 'first_player' for game 'objective-cards'" in capsys.readouterr().err


def test_a_script_of_the_headless_table_leaves_the_first_player_to_it(monkeypatch):
    """`dicetable play --fixtures --script`: `game school Ann,Bob,Cy first_player=drawn` draws too."""
    from test_table_e2e import player

    monkeypatch.setattr(draws, "SYSTEM_RANDOM", Seat(2))
    p = player("game school Ann,Bob,Cy first_player=drawn\n")
    p.run()
    assert p.flow.log.options == every("school", {"first_player": "drawn", "start_seat": 2})
    assert p.flow.state.expects().player == 2
    assert p.flow.view().message.text == "Drawn by the table: Cy starts (seat 3)."
