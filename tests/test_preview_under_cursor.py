"""The sheet's preview agrees with the menu: with the cursor on an option, the cell that option
writes shows, before OK, what OK then writes there.

Found in School: a row with a "bank" choice previewed only the best value of its cell, so with
the cursor on "School 2, bank 1" (labelled 6 on the menu) the cell showed 8 and OK wrote 6; and
with the cursor on a cross the cell showed a score (or nothing) and OK wrote a cross. The
scenario is the seeded games themselves: every decision of them, every option on the menu,
reached with the table's own DOWN button and chosen with its OK. The other four games are held
to the same check (their options never share a cell, and they agreed already)."""
from __future__ import annotations

import random
from typing import Any

import pytest

from controller.rules import new_game
from controller.rules.base import Decide
from controller.rules.random_play import random_input
from controller.table import DECIDE, TableFlow
from controller.tablelog import TableLog
from table_helpers import Clock, Press

Where = tuple[str, str, int]       # (player's table, row key, column)


def _cells(sheet: dict[str, Any]) -> dict[Where, dict[str, Any]]:
    """The play cells of a sheet's JSON by place: the rows of kind "normal", not the Award or
    Info columns (what a choice writes; awards follow from it and are not previewed). A table
    is named by its title without what changes with the turn ("Ann (to play)" is Ann's)."""
    out = {}
    for table in sheet["tables"]:
        name = table["title"].split(" (")[0].split(" — ")[0]
        for row in table["rows"]:
            if row["kind"] != "normal":
                continue
            for i, cell in enumerate(row["cells"]):
                if i < len(table["columns"]) and table["columns"][i] in ("Award", "Info"):
                    continue
                out[(name, row["key"], i)] = cell
    return out


def _settled(cell: dict[str, Any]) -> dict[str, Any]:
    """What a cell holds that is earned: a preview's `settled` form, or nothing."""
    if cell["kind"] != "preview":
        return cell
    return cell.get("settled") or {"text": "", "kind": "empty"}


def _plain(cell: dict[str, Any]) -> dict[str, Any]:
    """A cell without its highlight (the acting player's lit cells are no entry)."""
    return {k: v for k, v in cell.items() if k != "highlight"}


def _shown_then_written(state, game: str, players: list[str], options: dict, i: int):
    """The play cells on screen with the menu's cursor brought to line `i` by DOWN, and after
    OK on it; None when the line is not an option."""
    flow = TableFlow(state, TableLog(game, list(players), dict(options)), clock=Clock())
    if not flow.choices_shown:
        flow.on_button(Press("OK"))            # (a secret choice: its player opens it)
    assert flow.phase == DECIDE
    if flow.menu()[i].action != "option":
        return None
    while flow.cursor != i:
        flow.on_button(Press("DOWN"))
    shown = _cells(flow.view().sheet)
    flow.on_button(Press("OK"))
    assert flow.state is not state, flow.message
    return shown, _cells(flow.state.sheet().to_json())


def _mismatches(game: str, players: list[str], options: dict, seed: int, exact: bool) -> tuple[list[str], int]:
    """Every (decision, option) of the seeded game whose written cell was not previewed as
    written, in words, and how many written cells were checked. `exact`: the text too (School
    writes "6" where it showed "6"; Thirteen shows "+25" and writes "25", on purpose)."""
    rng = random.Random(seed)
    state = new_game(game, players, options)
    bad, checked = [], 0
    while not state.is_over:
        exp = state.expects()
        if isinstance(exp, Decide):
            probe = TableFlow(state, TableLog(game, list(players), dict(options)), clock=Clock())
            for i in range(len(probe.menu())):
                pair = _shown_then_written(state, game, players, options, i)
                if pair is None:
                    continue
                shown, written = pair
                key = probe.menu()[i].key
                for where, after in written.items():
                    before = shown.get(where)
                    if before is None:
                        continue
                    settled, after = _settled(before), _settled(after)    # (the next decision's previews aside)
                    if (before["kind"] not in ("preview", "empty") or after["kind"] in ("empty", "info")
                            or _plain(after) == _plain(settled)):
                        continue          # not a play cell this choice writes (a card captured, a total)
                    checked += 1
                    gain = (after.get("value") or 0) - (settled.get("value") or 0)
                    same = (before.get("value") == gain and before["text"] == after["text"] if exact
                            else before.get("value") == gain or before["text"] == after["text"])
                    if before["kind"] != "preview" or not same:
                        bad.append(f"{key}: {where} showed {before['text']!r} ({before['kind']}), "
                                   f"wrote {after['text']!r} (+{gain})")
        state = state.apply(random_input(state, rng))
    return bad, checked


@pytest.mark.parametrize("players,options,seed", [
    (["Ann", "Bob"], {}, 1),
    (["Ann", "Bob"], {}, 2),
    (["Ann", "Bob"], {"row_fill_order": "any_free_column"}, 3),
    (["Ann", "Bob", "Cy"], {"school_reserve_mode": "fixed_three", "voluntary_cross_allowed": False}, 4),
    (["Ann", "Bob"], {"row_fill_order": "any_free_column", "unused_reserve_at_end": "scored",
                      "double_on_first_throw": False}, 5),
])
def test_school_previews_what_the_option_under_the_cursor_writes(players, options, seed):
    bad, checked = _mismatches("school", players, options, seed, exact=True)
    assert checked > 500
    assert not bad, f"{len(bad)} previews that are not what OK writes, e.g. " + "; ".join(bad[:5])


def test_a_bank_option_previews_its_own_value():
    """The case first seen: Bob's five 2s, the cursor on "School 2, bank 1" (6 on the menu)."""
    state = new_game("school", ["Ann", "Bob"])
    state = state.apply({"type": "dice", "player": 0, "values": [2, 4, 5, 5, 6]})
    state = state.apply({"type": "choose", "player": 0, "option": "PAIR"})
    state = state.apply({"type": "dice", "player": 1, "values": [2, 2, 2, 2, 1]})
    flow = TableFlow(state, TableLog("school", ["Ann", "Bob"]), clock=Clock())
    labels = [e.key for e in flow.menu()]
    for key, shown in (("S2", "8"), ("S2_BANK1", "6"), ("X_S2", "✕")):
        while labels[flow.cursor] != key:
            flow.on_button(Press("DOWN"))
        cell = _cells(flow.view().sheet)[("Bob", "S2", 0)]
        assert (cell["text"], cell["kind"]) == (shown, "preview"), key


@pytest.mark.parametrize("game,players,options,seed", [
    ("thirteen", ["Ann", "Bob"], {}, 1),
    ("classic", ["Ann", "Bob", "Cy"], {}, 2),
    ("poknroll", ["Ann", "Bob", "Cy"], {"must_mark_best": False}, 3),
    ("objective-cards", ["Ann", "Bob"], {}, 4),
])
def test_the_other_games_preview_what_the_option_under_the_cursor_writes(game, players, options, seed):
    bad, checked = _mismatches(game, players, options, seed, exact=False)
    assert checked > 0
    assert not bad, f"{len(bad)} previews that are not what OK writes, e.g. " + "; ".join(bad[:5])


def test_only_the_cell_the_cursor_fills_is_outlined():
    """Under any_free_column "Pair (col 1)", "(col 2)" and "(col 3)" all previewed 20 in three
    outlined cells: which one OK fills was not to be seen. With the cursor on an option, the
    one cell it writes is outlined; on "Throw again" every preview is, as before."""
    options = {"row_fill_order": "any_free_column"}
    state = new_game("school", ["Ann", "Bob"], options)
    state = state.apply({"type": "dice", "player": 0, "values": [5, 5, 2, 3, 6]})
    flow = TableFlow(state, TableLog("school", ["Ann", "Bob"], options), clock=Clock())
    keys = [e.key for e in flow.menu()]

    def lit() -> set[Where]:
        return {w for w, c in _cells(flow.view().sheet).items() if c.get("highlight")}

    assert flow.menu()[flow.cursor].action == "reroll"
    assert {("Ann", "PAIR", 0), ("Ann", "PAIR", 1), ("Ann", "PAIR", 2)} <= lit()
    for key, where in (("PAIR_C2", ("Ann", "PAIR", 1)), ("PAIR_C3", ("Ann", "PAIR", 2)),
                       ("X_S4_C1", ("Ann", "S4", 0))):
        while keys[flow.cursor] != key:
            flow.on_button(Press("DOWN"))
        assert lit() == {where}, key
