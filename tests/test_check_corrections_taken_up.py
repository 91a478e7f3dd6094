"""`dicetable check`'s corrections over an evening with a game put away and taken up.

Ann and Bob corrected a die, went to the bar (their Thirteen put away by *Still playing?*), Cy
played a game meanwhile, and they took theirs up from the menu and corrected three more. Staff ran
`check` after the evening: it listed the put-away half as a game of its own (*Thirteen for Ann,
Bob: 1 throw*, its journal no longer where the log said) and the taken-up half as *a game begun
before the log: 3 of 6 throws*, a game nobody could name, among "the last 5 games". Now the game
taken up is one game, named, with every correction of both halves and the throws of its journal.
The log is the real table app's (TableApp, its buttons, at INFO).
"""
from __future__ import annotations

import logging

from controller.correction_report import corrections_said, games_in_log
from test_between_games import Evening, _left_alone
from vision.types import Die, Reading

_THROWS = [0]


def _read(evening: Evening, values: list[int]) -> None:
    """Dice thrown anew, read by the camera (not yet accepted)."""
    _THROWS[0] += 1
    y = 30 + 55 * (_THROWS[0] % 7)
    evening.app.flow.on_reading(Reading(tuple(Die(v, (60 * i, y, 60 * i + 48, y + 48), (60 * i + 24, y + 24), 0.95)
                                              for i, v in enumerate(values))))


def _corrected(evening: Evening, values: list[int]) -> None:
    """Read, then die 1 corrected up by one (long OK, UP, long OK)."""
    _read(evening, values)
    evening.hold()
    evening.press("UP")
    evening.hold()


def _accepted(evening: Evening, values: list[int]) -> None:
    _read(evening, values)
    evening.press("OK")


def _score_first_box(evening: Evening) -> None:
    """Ann or Bob scores the box under the cursor (a Thirteen turn ended at its first throw)."""
    flow = evening.app.flow
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.action == "option")
    evening.press("OK")


def test_a_game_put_away_and_taken_up_is_one_game_in_the_check(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    evening = Evening(tmp_path, 'idle_minutes = 30\nplayers = ["Ann", "Bob"]\n')
    evening.press("OK")
    evening.hold()                                          # Thirteen, Ann and Bob
    _corrected(evening, [1, 2, 3, 4, 6])
    _score_first_box(evening)
    _left_alone(evening)                                    # put away

    evening.down_to("Classic poker dice")                   # Cy's game meanwhile, abandoned
    evening.hold()
    evening.abandon()

    evening.down_to("Take up Thirteen")
    evening.press("OK")                                     # Ann and Bob back
    assert evening.app.flow.state.players == ("Ann", "Bob")
    for values in ([2, 2, 3, 4, 6], [3, 1, 1, 5, 6], [1, 4, 4, 2, 2]):
        _corrected(evening, values)
        _score_first_box(evening)
    _accepted(evening, [6, 5, 4, 3, 1])
    _score_first_box(evening)
    evening.abandon()                                       # their game ends (archived)

    lines = [f"{r.name}: {r.getMessage()}" for r in caplog.records]
    games = games_in_log(lines, tmp_path)
    assert [(g.title, g.corrected, g.throws, g.ended) for g in games] == [
        ("Classic poker dice for Ann, Bob", 0, 0, True),
        ("Thirteen for Ann, Bob", 4, 5, True)]
    level, text = corrections_said(lines, tmp_path)
    assert (level, text) == ("warning", "dice corrected by hand in the last 2 games: Classic poker dice for Ann, Bob: "
                             "0 of 0 throws; Thirteen for Ann, Bob: 4 of 5 throws. The players keep correcting the "
                             "camera: clean its lens and check the light over the tray (dicetable calibrate)")


def test_a_game_taken_up_is_not_logged_as_resumed_after_a_restart(tmp_path, caplog):
    """Taking a put-away game up is no restart: the log said *Resumed Thirteen for Ann, Bob after a
    restart (2 moves replayed).* at every take-up (the screen then said *taken up*), and staff
    looking for the table's restarts in its log found one for each game taken up."""
    evening = Evening(tmp_path, 'idle_minutes = 30\nplayers = ["Ann", "Bob"]\n')
    evening.press("OK")
    evening.hold()
    _accepted(evening, [1, 2, 3, 4, 6])
    _left_alone(evening)
    caplog.set_level(logging.INFO)
    evening.down_to("Take up Thirteen")
    evening.press("OK")
    said = [r.getMessage() for r in caplog.records]
    assert not [s for s in said if "after a restart" in s], said
    assert "Thirteen (Ann, Bob) taken up where it was left (1 move replayed)." in said
    assert evening.app.flow.view().message.text == "Thirteen (Ann, Bob) taken up where it was left (1 move replayed)."
