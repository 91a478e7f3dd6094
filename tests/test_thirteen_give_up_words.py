"""Thirteen at decision time: a box the dice miss is given up (0, lost to the bottom bonus), a
figure met before the third throw is closed early (+5 a throw not used). The menu read
"Straights 0" and "3 of a kind 35", the sheet's preview "+0" and "+35": a player choosing could
not see that the box would be given up, nor that 10 of the 35 were for closing it early (under
early_close_on_zero, "Straights 10" looked like a met Straights). The menu row and the preview
now say it in words, at 800x480 and on the cursor's row at 320x240."""
from __future__ import annotations

import pygame
import pytest

from controller.rules.base import new_game
from controller.runner import VirtualClock
from controller.table import TableFlow
from controller.tablelog import TableLog
from display import render as render_module
from display import sheet as sheet_module

THROW = [2, 2, 6, 6, 6]          # misses Straights, 4 and 5 of a kind; meets 3 of a kind, full house


def decision(**options) -> TableFlow:
    """Ann's decision after her first throw of 2 2 6 6 6, the cursor on Straights."""
    state = new_game("thirteen", ["Ann", "Bob"], options or None)
    state = state.apply({"type": "dice", "player": 0, "values": THROW})
    flow = TableFlow(state, TableLog("thirteen", ["Ann", "Bob"]), clock=VirtualClock())
    flow._enter_phase()
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == "STRAIGHTS")
    return flow


def drawn(monkeypatch, flow: TableFlow, size: tuple[int, int]) -> list[str]:
    """Every line drawn on a screen of `size` showing `flow`, prompt and sheet."""
    pygame.font.init()
    seen: list[str] = []
    for module in (render_module, sheet_module):
        real = module.text

        def text(surface, s, *a, _real=real, **kw):
            seen.append(s)
            return _real(surface, s, *a, **kw)

        monkeypatch.setattr(module, "text", text)
    render_module.render(pygame.Surface(size), flow.view(None))
    monkeypatch.undo()
    return seen


def test_the_options_say_what_they_do():
    exp = decision().state.expects()
    notes = {o.key: (o.points, o.note) for o in exp.options}
    assert notes["STRAIGHTS"] == (0, "give up")
    assert notes["ACES"] == (0, "give up")
    assert notes["THREE_KIND"] == (35, "+10 early")
    assert notes["CHANCE"] == (22, "")
    # under early_close_on_zero the 10 of a given-up figure is still a giving up
    exp = decision(early_close_on_zero=True).state.expects()
    assert {o.key: (o.points, o.note) for o in exp.options}["STRAIGHTS"] == (10, "give up, +10 early")


def test_after_the_third_throw_a_met_figure_is_not_early():
    state = new_game("thirteen", ["Ann"])
    state = state.apply({"type": "dice", "player": 0, "values": [1, 2, 3, 4, 5]})
    for _ in range(2):
        state = state.apply({"type": "reroll", "player": 0, "keep": [1, 2, 3, 4]})
        state = state.apply({"type": "dice", "player": 0, "values": [5]})
    notes = {o.key: o.note for o in state.expects().options}
    assert notes["STRAIGHTS"] == "" and notes["TWO_PAIRS"] == "give up"


@pytest.mark.parametrize("size", [(800, 480), (320, 240)], ids=["800x480", "320x240"])
@pytest.mark.parametrize("zero", [False, True], ids=["default", "early_close_on_zero"])
def test_the_cursors_row_says_give_up(monkeypatch, size, zero):
    lines = drawn(monkeypatch, decision(early_close_on_zero=zero), size)
    note = "give up, +10 early" if zero else "give up"
    assert f"Straights: {note}" in lines or ("Straights" in lines and note in lines), lines


def test_the_menu_and_sheet_say_it_at_800x480(monkeypatch):
    lines = drawn(monkeypatch, decision(), (800, 480))
    assert "3 of a kind: +10 early" in lines                 # a row off the cursor, on one line
    assert "+0 give up" in lines and "+35 early" in lines     # the sheet's previews


def test_the_preview_is_what_is_applied():
    """Choosing the previewed box writes the previewed points, and given up as previewed."""
    for zero in (False, True):
        flow = decision(early_close_on_zero=zero)
        state = flow.state
        for opt in state.expects().options:
            after = state.apply({"type": "choose", "player": 0, "option": opt.key})
            cell = next(r for r in after.sheet().tables[0].rows if r.key == opt.key).cells[0]
            assert cell.value == opt.points, (opt.key, cell, opt)
            assert (cell.kind == "cross") == opt.note.startswith("give up"), (opt.key, cell, opt)
