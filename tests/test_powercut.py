"""A power cut never loses a game: the real `dicetable run`, killed (SIGKILL) while a throw is
being read, while a choice is being made and at the final standings, started again each time,
ends with the moves of the uninterrupted game, none applied twice or lost, and says on screen
that it resumed (controller/powercut.py; `dicetable bench powercut` is the wide sweep)."""
from __future__ import annotations

from controller.powercut import Cut, canonical, run_game


def test_a_game_killed_three_times_ends_as_the_uninterrupted_game(tmp_path):
    cuts = [Cut(1, 0.0),        # Ann's choice: the presses sent, the table killed at once
            Cut(2, 1.0),        # Zoë's dice in the tray, being read: asked for again, not taken
            Cut(5, 0.3)]        # the final standings
    outcome = run_game(tmp_path, "classic", ["Ann", "Zoë"], {"rounds": 1}, cuts)
    assert outcome.kills == 3 and outcome.starts == 4
    assert canonical(outcome.inputs) == canonical(outcome.expected)
    assert outcome.asked_again >= 1
    assert len(outcome.resumed) == 3 and outcome.resumed[-1].endswith("(5 moves replayed).")
    assert outcome.problems == []
