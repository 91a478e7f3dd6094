"""The contract every game honours, checked the same way for all five (property-based).

Per-game rules and the specs' worked examples live in tests/test_rules_<game>.py.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import GAMES, Decide, GameOver, IllegalInput, OptionError, Throw, new_game
from controller.rules.random_play import play_random, random_input
from controller.tablelog import TableLog, replay

EXPECTED_GAMES = {"thirteen", "classic", "school", "poknroll", "objective-cards"}
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_all_five_games_are_registered():
    assert set(GAMES) == EXPECTED_GAMES


@pytest.mark.parametrize("game", sorted(EXPECTED_GAMES))
def test_every_game_says_how_it_is_played(game):
    """The HINT card and the setup menu's line: a short first sentence saying what the game is,
    then how a turn goes and how it is won."""
    how = GAMES[game].how_to_play
    assert 4 <= len(how) <= 7
    assert len(how[0]) <= 100 and all(p.endswith(".") for p in how)
    assert "wins" in how[-1] or "wins" in how[0]


def player_counts(game: str) -> list[int]:
    cls = GAMES[game]
    return sorted({cls.min_players, min(cls.max_players, 4), cls.max_players})


GAME_NAMES = sorted(GAMES)
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("game", GAME_NAMES)
def test_unknown_option_is_an_error_that_names_it(game):
    with pytest.raises(OptionError, match="no_such_option"):
        new_game(game, PLAYERS[: GAMES[game].min_players], {"no_such_option": 1})


@pytest.mark.parametrize("game", GAME_NAMES)
def test_bad_option_value_is_an_error_that_names_the_option(game):
    cls = GAMES[game]
    spec = next(iter(cls.OPTIONS))
    bad = object()
    with pytest.raises(OptionError, match=spec.name):
        new_game(game, PLAYERS[: cls.min_players], {spec.name: bad})


@pytest.mark.parametrize("game", GAME_NAMES)
def test_player_count_is_checked(game):
    cls = GAMES[game]
    with pytest.raises(OptionError):
        new_game(game, PLAYERS[: cls.min_players - 1] if cls.min_players > 1 else [], {})
    with pytest.raises(OptionError):
        new_game(game, [f"P{i}" for i in range(cls.max_players + 1)], {})


@pytest.mark.parametrize("game", GAME_NAMES)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
@SETTINGS
def test_random_legal_play_ends_and_replays_identically(game, seed, data):
    n = data.draw(st.sampled_from(player_counts(game)))
    players = PLAYERS[:n]
    state, inputs = play_random(game, players, seed=seed)
    assert state.is_over
    result = state.result()
    sheet = state.sheet()
    assert list(result.scores) == list(sheet.totals)
    assert set(result.winners) == set(result.ranking[0])
    assert sorted(i for g in result.ranking for i in g) == list(range(n))
    # the log is plain JSON and rebuilds the identical state
    log = TableLog(game, players, {}, inputs)
    reloaded = TableLog.from_json(json.loads(json.dumps(log.to_json())))
    again = replay(reloaded)
    assert again.snapshot() == state.snapshot()
    json.dumps(sheet.to_json())
    json.dumps(result.to_json())


def illegal_inputs(state, rng: random.Random) -> list:
    """Inputs that must be refused at this point of the game."""
    exp = state.expects()
    out: list = [None, 42, "dice", {"type": "teleport"}, {}]
    if isinstance(exp, Throw):
        good = [rng.randint(1, 6) for _ in range(exp.count)]
        out += [
            {"type": "dice", "player": exp.player, "values": good + [1]},
            {"type": "dice", "player": exp.player, "values": good[:-1]} if good else None,
            {"type": "dice", "player": exp.player, "values": [7] + good[1:]} if good else None,
            {"type": "dice", "player": exp.player, "values": [0] * exp.count} if good else None,
            {"type": "dice", "player": exp.player, "values": "12345"},
            {"type": "choose", "player": exp.player, "option": "anything"},
            {"type": "dice", "player": (exp.player or 0) + 99, "values": good},
            {"type": "dice", "player": str(exp.player), "values": good},        # a seat as text
        ]
    elif isinstance(exp, Decide):
        out += [
            {"type": "choose", "player": exp.player, "option": "NO_SUCH_OPTION"},
            {"type": "choose", "player": exp.player + 99, "option": exp.options[0].key} if exp.options else None,
            {"type": "choose", "player": str(exp.player), "option": exp.options[0].key} if exp.options else None,
            {"type": "dice", "player": exp.player, "values": [1, 2, 3, 4, 5]},
            {"type": "reroll", "player": exp.player, "keep": [9, 9, 9]},
        ]
        if exp.reroll is None:
            out.append({"type": "reroll", "player": exp.player, "keep": []})
    return [x for x in out if x is not None]


def test_a_seat_given_as_text_is_named_as_such():
    state = new_game("thirteen", ["Ann", "Bob"])
    with pytest.raises(IllegalInput, match="a player is a seat number \\(0 for the first player\\), not '0'"):
        state.apply({"type": "dice", "player": "0", "values": [1, 2, 3, 4, 5]})


@pytest.mark.parametrize("game", GAME_NAMES)
@given(seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_illegal_input_is_refused_and_leaves_state_unchanged(game, seed):
    rng = random.Random(seed)
    players = PLAYERS[: max(GAMES[game].min_players, 3 if GAMES[game].max_players >= 3 else 2)]
    state = new_game(game, players)
    steps = 0
    while not state.is_over and steps < 400:
        if rng.random() < 0.2:
            before = json.dumps(state.snapshot(), sort_keys=True)
            for bad in illegal_inputs(state, rng):
                with pytest.raises(IllegalInput) as info:
                    state.apply(bad)
                assert str(info.value), "an illegal input must say why"
                assert json.dumps(state.snapshot(), sort_keys=True) == before
        state = state.apply(random_input(state, rng))
        steps += 1


@pytest.mark.parametrize("game", GAME_NAMES)
def test_apply_returns_a_new_state_and_keeps_the_old(game):
    rng = random.Random(7)
    state = new_game(game, PLAYERS[: GAMES[game].min_players])
    for _ in range(30):
        if state.is_over:
            break
        before = json.dumps(state.snapshot(), sort_keys=True)
        nxt = state.apply(random_input(state, rng))
        assert json.dumps(state.snapshot(), sort_keys=True) == before
        state = nxt


@pytest.mark.parametrize("game", GAME_NAMES)
def test_game_over_accepts_nothing(game):
    state, _ = play_random(game, PLAYERS[: GAMES[game].min_players], seed=3)
    assert isinstance(state.expects(), GameOver)
    with pytest.raises(IllegalInput):
        state.apply({"type": "dice", "player": 0, "values": [1]})


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_text_sheet_keeps_its_columns_in_line_with_wide_letters(game):
    """`dicetable play` and `replay` print the sheet in a terminal, where 日 and 한 take two
    columns: players named 日本 and 한국 pushed every line's bars out of line with the header's."""
    import unicodedata

    def cols(line: str) -> int:
        return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
                   for ch in line)

    state = new_game(game, ["日本", "한국", "Zoe\u0308"])
    rng = random.Random(1)
    for _ in range(40):
        if state.is_over:
            break
        state = state.apply(random_input(state, rng))
    blocks, block = [], []
    for line in state.sheet().to_text().splitlines() + [""]:
        if " | " in line:
            block.append(line)
        elif line and set(line) == {"-"}:           # the rule under the header: its table goes on
            continue
        elif block:
            blocks.append(block)
            block = []
    assert blocks
    for block in blocks:
        assert len({cols(line) for line in block}) == 1, "\n".join(block)
