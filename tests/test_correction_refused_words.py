"""A correction the table refuses is not said to be accepted.

Ann held 6 6 and threw three dice; correcting the dice she set a held six to 1 (UP once on die 1)
and held OK. The table refused it (*The held dice are 6 6: the corrected values must include
them*), but said *Corrected values accepted.* first: the log, which the staff read after a
complaint, had a correction accepted and refused at the same moment (met in an evening's soak,
`dicetable bench evening`: 30 such pairs in seven games).
"""
from __future__ import annotations

import logging

from controller.table import CONFIRM, CORRECT
from table_helpers import Press
from test_table_flow import hold_and_rethrow, make, reading, settle_and_confirm


def test_a_correction_refused_for_a_held_die_is_not_said_accepted(caplog):
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    hold_and_rethrow(flow, [1, 2])
    flow.on_reading(reading([6, 6, 1, 1, 4]))
    assert flow.phase == CONFIRM
    before = list(flow.log.inputs)
    caplog.set_level(logging.INFO, logger="controller.table")
    flow.on_button(Press("OK", "hold"))                 # correct the dice
    flow.on_button(Press("UP"))                         # die 1, a held six, set to 1
    flow.on_button(Press("OK", "hold"))                 # done
    said = [r.getMessage() for r in caplog.records if r.name == "controller.table"]
    assert flow.phase == CORRECT and flow.log.inputs == before
    assert flow.message.text.startswith("The held dice are 6 6: the corrected values must include them")
    assert not [s for s in said if s.startswith("Corrected values accepted")], said


def test_a_correction_taken_is_still_said_accepted(caplog):
    """(The same dice set right, a new die changed: accepted, and said so.)"""
    flow, clock = make()
    settle_and_confirm(flow, clock, [6, 6, 2, 3, 5])
    hold_and_rethrow(flow, [1, 2])
    flow.on_reading(reading([6, 6, 1, 1, 4]))
    caplog.set_level(logging.INFO, logger="controller.table")
    flow.on_button(Press("OK", "hold"))
    flow.on_button(Press("OK"))
    flow.on_button(Press("OK"))
    flow.on_button(Press("UP"))                         # die 3: 1 -> 2
    flow.on_button(Press("OK", "hold"))
    assert flow.log.inputs[-1]["values"] == [2, 1, 4]
    said = [r.getMessage() for r in caplog.records if r.name == "controller.table"]
    assert [s for s in said if s.startswith("Corrected values accepted")], said
