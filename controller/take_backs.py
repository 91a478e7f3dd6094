"""What the table can still undo, and how it is rebuilt from the journal after a resume.

Two slips are undone at a table: a choice made on the menu (BACK twice takes it back) and dice
misread but accepted (a long OK corrects them), each while it is still the game's last input.
The table flow (controller/table.py) keeps them in memory as `AppliedChoice` and `AppliedReading`;
a power cut lost them, so after a resume they are rebuilt here from the journal (a replay of the
game before them), and offered again as if the power had not gone.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from .decision_menu import is_final
from .rules import Decide, GameState, Throw
from .tablelog import TableLog, replay

if TYPE_CHECKING:
    from .table import TableFlow


@dataclass(frozen=True)
class AppliedChoice:
    """The last choice made on the menu, kept so that it can be taken back (BACK twice): the
    game and the table as they were just before it. A mis-press on the menu (a box scored one
    line too low, the wrong die held) is the commonest slip at a table, and until anything else
    happens it harms nobody to undo."""

    state: GameState
    inputs: int                   # the log's length right after the choice: anything since ends it
    player: int | None
    label: str                    # the menu line chosen, to name it when asking and confirming
    tray_values: tuple[int, ...]
    tray_boxes: tuple
    holds: tuple[bool, ...]
    cursor: int


@dataclass(frozen=True)
class AppliedReading:
    """The last dice read and applied, kept so that a misread noticed only after the reading was
    accepted (it is, by itself, after a second and a half) can still be corrected with a long OK,
    until anything else is applied."""

    state: GameState              # the game just before these dice
    inputs: int                   # the log's length right after them
    values: tuple[int, ...]       # the whole tray as read, held dice included
    boxes: tuple


def log_before(log: TableLog, inputs: int) -> TableLog:
    """The game's log before its input number `inputs` (what a take-back or a correction
    rebuilt after a resume replays)."""
    return TableLog(log.game, list(log.players), dict(log.options), list(log.inputs[:inputs - 1]))


def choice_offered(flow: TableFlow, inputs: int, held: tuple[int, Sequence[int]] | None = None
                   ) -> AppliedChoice | None:
    """After a resume: the game's input number `inputs` (its last when it was resumed), if it
    was a choice BACK twice could take back, to be taken back again, as if the power had not
    gone (None: it was not). The table kept the choice only in memory, so a slip made just
    before a power cut stood for good after it. What the choice needs is rebuilt from the
    journal: the game before it (a replay), and the menu as it was (that game's, on a flow of
    `flow`'s kind and panel, with the holds the choice kept, or for a box scored the dice `held`
    then, as the journal has them) for its line and cursor."""
    log = flow.log
    if not 0 < inputs <= len(log.inputs):
        return None
    data = log.inputs[inputs - 1]
    before_log = log_before(log, inputs)
    before = replay(before_log)
    exp = before.expects()
    if not isinstance(exp, Decide) or is_final(exp, data) or data.get("type") not in ("choose", "reroll"):
        return None       # (a throw is corrected with a long OK; a final choice is not offered back)
    menu = type(flow)(before, before_log, clock=flow.clock, words=flow.words, screen_size=flow.screen_size)
    menu.hold_buttons, menu.hint_button, menu._faces = flow.hold_buttons, flow.hint_button, flow._faces
    if data["type"] == "reroll":
        menu.restore_holds(exp.player, data.get("keep", []))
    elif held is not None:
        menu.restore_holds(*held)          # (where they do not fit the decision: none)
    entries = menu.menu()
    wanted = ("reroll", None) if data["type"] == "reroll" else ("option", data.get("option"))
    at = next((i for i, e in enumerate(entries) if (e.action, e.key if e.action == "option" else None) == wanted),
              None)
    if at is None:
        return None
    return AppliedChoice(before, inputs, exp.player, menu._chosen(entries[at]),
                         tuple(menu.tray_values), tuple(menu.tray_boxes), tuple(menu.holds), at)


def dice_offered(log: TableLog, inputs: int) -> AppliedReading | None:
    """After a resume: the dice of the game's input number `inputs` (its last when it was
    resumed), if they were read from the tray or entered by hand, to be corrected with a long OK
    again, as if the power had not gone (None: they were not). The table kept them only in
    memory, so a misread noticed just after a cut stood for good. Rebuilt from the journal: the
    game before them (a replay) and their values, the held dice included, without places (the
    flow finds them: dice_correcting.placed). Not dice the table drew, nor secret ones (a correction
    shows them).

    When that input is a choice made on the dice before it, those dice are offered: a long OK
    corrects them once the choice is taken back (BACK twice), as at a table that never went off
    (they are the last move again). Only the choice's dice were kept, and a game resumed then
    offered nothing after the take-back, where a second cut offered them."""
    if not 0 < inputs <= len(log.inputs):
        return None
    data = log.inputs[inputs - 1]
    if data.get("type") in ("choose", "reroll"):
        inputs -= 1                   # (offered once the choice is taken back: TableFlow._still_last)
        data = log.inputs[inputs - 1] if inputs > 0 else {}
    if data.get("type") != "dice":
        return None
    before = replay(log_before(log, inputs))
    exp = before.expects()
    if not isinstance(exp, Throw) or exp.drawn or exp.secret:
        return None
    return AppliedReading(before, inputs, tuple(exp.held) + tuple(data["values"]), ())
