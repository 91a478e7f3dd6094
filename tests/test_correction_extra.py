"""Six dice in the tray of a five-dice game (a spare die dropped in, a button the camera takes
for a die): a long OK enters the five read surest, and the one left out lay on the tray
unmarked with nothing saying it did not count."""
from __future__ import annotations

from controller.table import CORRECT
from table_helpers import Press
from test_table_flow import make, reading


def test_the_die_left_out_of_an_entry_is_named():
    flow, clock = make()
    flow.on_reading(reading([6, 6, 2, 3, 5, 4]))
    assert "I see 6 dice; the game needs 5" in flow.message.text
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT and len(flow.pending) == 5
    # (the banner says only what the prompt does not: the prompt says which buttons do what)
    assert flow.message.text == "The die not outlined does not count."
    assert len(flow.view().tray.dice) == 5            # (the one left out: not outlined)


def test_an_entry_of_a_tray_with_a_die_missing_names_none_left_out():
    flow, clock = make()
    flow.on_reading(reading([6, 6, 2, 3]))
    flow.on_button(Press("OK", "hold"))
    assert flow.message is None and flow.view().prompt.hint.startswith("hold OK: done")
