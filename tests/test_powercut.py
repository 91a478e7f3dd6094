"""A power cut never loses a game: the real `dicetable run`, killed (SIGKILL) between a HOLD
press and the throw, while a throw is being read, at the final standings, and between a draw of
the table's and its journal line, started again each time, ends with the moves of the
uninterrupted game, none applied twice or lost, the dice held before a cut held again, no draw made twice
differently, and says on screen that it resumed (controller/powercut.py; `dicetable bench
powercut` is the wide sweep)."""
from __future__ import annotations

import shutil

import pytest

from controller.powercut import Cut, Cutter, Table, canonical, run_game
from controller.rules.base import find_game


def test_a_game_killed_three_times_ends_as_the_uninterrupted_game(tmp_path):
    cuts = [Cut(1, 0.35),       # Ann held a die (HOLD1..5 pressed), not yet chosen to throw again
            Cut(2, 0.3),        # the others taken out to throw: the tray empty
            Cut(5, 0.3)]        # the final standings
    outcome = run_game(tmp_path, "classic", ["Ann", "Zoë"], {"rounds": 1}, cuts, seed=3)
    assert outcome.expected[1] == {"type": "reroll", "player": 0, "keep": [5]}
    assert outcome.kills == 3 and outcome.starts == 4
    assert canonical(outcome.inputs) == canonical(outcome.expected)
    assert outcome.asked_again >= 1 and outcome.hold_cuts == 2
    # (the harness checks that the screen names the dice the journal holds, and the player holds
    # only what is not held: a HOLD pressed again would release it and change the game)
    assert outcome.resumed[0].endswith("(1 move replayed). Dice still held: K.") and outcome.holds_kept == 1
    assert len(outcome.resumed) == 3 and outcome.resumed[-1].endswith("(5 moves replayed).")
    assert outcome.problems == [] and outcome.false_throws == 0


@pytest.mark.skipif(shutil.which("strace") is None, reason="the journal is slowed down with strace")
def test_a_cut_between_the_tables_draw_and_its_journal_line_draws_once_more_and_says_it(tmp_path):
    """Pok'n Roll's imaginary cup left to the table, its last hand taken up at the last cup: the
    table killed after it drew the imaginary cup and before its line was written (each journal
    write held back 0.3 s). It draws again as it comes back, counts the moves replayed without
    the draw and says what it drew; no draw shown is ever drawn again."""
    table = Table(tmp_path, "poknroll", ["Ann", "Zoë", "Cy"], {"imaginary_dice_source": "engine_rng"}, seed=3,
                  slow_journal=0.3)
    outcome = Cutter(table, [], seed=3, preload=78, draw_cuts=[0.1]).play()
    assert outcome.draw_cuts == 1 and outcome.draws == 1 and outcome.kills == 1 and outcome.starts == 2
    assert outcome.inputs[79]["player"] is None and canonical(outcome.inputs) == canonical(outcome.expected)
    assert "after a restart (79 moves replayed). The table drew the imaginary player's dice: " in outcome.resumed[0]
    assert outcome.problems == [] and outcome.false_throws == 0


def test_a_game_whose_first_player_the_table_drew_is_played_from_the_seat_drawn(tmp_path):
    """Betting Classic with the first player left to the table (`bench powercut --rules house`):
    the harness learns the seat drawn from the journal's header (it expected seat 0 and found
    the table's moves another game's two times in three), and the game, killed once, ends as the
    uninterrupted one from that seat."""
    options = {"variant": "betting", "rounds": 1, "first_player": "drawn"}
    table = Table(tmp_path, "classic", ["Ann", "Zoë", "Cy"], options, seed=3)
    cutter = Cutter(table, [Cut(2, 0.3)], seed=3)
    outcome = cutter.play()
    seat = cutter.options["start_seat"]
    every = {spec.name: spec.default for spec in find_game("classic").OPTIONS}    # (a new game journals each)
    assert cutter.options == {**every, **options, "start_seat": seat} and outcome.expected[0]["player"] == seat
    assert outcome.kills == 1 and canonical(outcome.inputs) == canonical(outcome.expected)
    assert outcome.problems == [] and outcome.false_throws == 0


def test_a_cut_while_dice_accepted_are_corrected_comes_back_correcting_them(tmp_path):
    """At the real `dicetable run`: Ann's first throw and Zoë's accepted, a long OK to correct each,
    a die changed with UP, and the power goes. The table came back asking for the throw again
    (the dice in the tray "there before"); it now comes back correcting them, says so, writes
    nothing until the players decide, and BACK leaves them as read: the uninterrupted game."""
    from controller.powercut import cut_while_correcting

    table = Table(tmp_path, "classic", ["Ann", "Zoë"], {"rounds": 1}, seed=3)
    cutter = Cutter(table, [], seed=3)
    throws = [n for n, d in enumerate(cutter.expected) if d["type"] == "dice"]
    counts: dict[str, int] = {}
    cutter.events = {n: cut_while_correcting(counts) for n in throws[:2]}
    outcome = cutter.play()
    assert counts == {"cut": 2, "came back correcting": 2} and outcome.kills == 2
    assert canonical(outcome.inputs) == canonical(outcome.expected)
    assert outcome.problems == [] and outcome.false_throws == 0
