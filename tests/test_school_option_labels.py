"""School's options say which cell they fill, on a small screen's menu and in the terminal.

At 320x240 the decision menu cut "School 2, bank 1" and "School 2, bank 2" alike to "School 2,
ba...", "School 2 (col 2)" to "School 2 (co...": the player could not read which option the
cursor was on. And the terminal's `sheet` command printed School 2's cell as "(10)" while the
option "School 2, bank 1" writes 8 there. The scenario here is the throw itself: Ann's first
throw 2 2 2 2 2, with banking the player's choice (and any free column)."""
from __future__ import annotations

import io

import pygame
import pytest

from controller.rules import new_game
from controller.rules.base import dice_input
from controller.table import TableFlow
from controller.tablelog import TableLog
from controller.terminal import play_terminal
from display import render as render_module
from display import theme
from table_helpers import Clock, Press

BANK = {"school_reserve_mode": "player_choice"}
ANY_COLUMN = {"school_reserve_mode": "player_choice", "row_fill_order": "any_free_column"}


def decision(options: dict, size: tuple[int, int]) -> TableFlow:
    """Ann's decision after her first throw, 2 2 2 2 2, on a screen of `size`."""
    state = new_game("school", ["Ann", "Bob"], options).apply(dice_input(0, [2, 2, 2, 2, 2]))
    return TableFlow(state, TableLog("school", ["Ann", "Bob"], dict(options)), clock=Clock(), screen_size=size)


def cursor_row(monkeypatch, flow: TableFlow, size: tuple[int, int]) -> str:
    """What the menu's cursor row reads on screen: the label drawn, and "..." where it was cut
    (the width the screen gave it, at the least type it shrinks to)."""
    pygame.font.init()
    seen: list[tuple[str, int | None, bool]] = []
    real = render_module.text

    def text(surface, s, *a, **kw):
        seen.append((s, kw.get("max_width"), kw.get("bold", False)))
        return real(surface, s, *a, **kw)

    monkeypatch.setattr(render_module, "text", text)
    surface = pygame.Surface(size)
    render_module.render(surface, flow.view())
    monkeypatch.undo()
    least = theme.font(theme.min_text(theme.scale(surface)), True)
    options = flow.view().prompt.options
    menu = {o.label for o in options} | {f for o in options for f in getattr(o, "short", ())}
    for s, width, bold in seen:
        if bold and s in menu:
            return s if width is None or least.size(s)[0] <= width else s + "..."
    raise AssertionError(f"no cursor row drawn: {seen}")


def menu_reads(monkeypatch, options: dict, size: tuple[int, int]) -> dict[str, str]:
    """Each School 2 option's label -> its cursor row as read, the cursor brought there by DOWN."""
    flow = decision(options, size)
    out = {}
    for i, entry in enumerate(flow.menu()):
        if not entry.label.startswith(("School 2", "Cross School 2")):
            continue
        while flow.cursor != i:
            flow.on_button(Press("DOWN"))
        out[entry.label] = cursor_row(monkeypatch, flow, size)
    return out


@pytest.mark.parametrize("options", [BANK, ANY_COLUMN], ids=["bank", "any_free_column"])
def test_at_320x240_each_school_option_reads_whole_and_apart(monkeypatch, options):
    reads = menu_reads(monkeypatch, options, (320, 240))
    assert len(reads) >= 4, reads
    cut = {label: read for label, read in reads.items() if read.endswith("...")}
    assert not cut, cut
    assert len(set(reads.values())) == len(reads), reads          # no two options read alike


def test_at_320x240_the_short_forms_keep_row_column_and_bank(monkeypatch):
    reads = menu_reads(monkeypatch, ANY_COLUMN, (320, 240))
    assert reads["School 2 (col 2), bank 1"] in ("S2 col 2 bank 1", "S2 c2 bank 1", "S2 c2 b1"), reads
    assert reads["School 2 (col 2)"] == "S2 col 2", reads
    assert reads["Cross School 2 (col 2)"].startswith("Cross S2"), reads
    assert menu_reads(monkeypatch, BANK, (320, 240))["School 2, bank 1"] == "S2 bank 1"


def test_at_800x480_the_labels_are_drawn_whole(monkeypatch):
    reads = menu_reads(monkeypatch, ANY_COLUMN, (800, 480))
    assert all(read == label for label, read in reads.items()), reads


def terminal(lines: list[str], options: dict) -> str:
    """What the terminal prints for `lines` typed in a School game of Ann and Bob."""
    state = new_game("school", ["Ann", "Bob"], options)
    typed = iter(lines)

    def ask(prompt: str = "") -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    play_terminal(state, TableLog("school", ["Ann", "Bob"], dict(options)), ask, out)
    return out.getvalue()


def test_the_terminal_sheet_prints_what_each_option_writes():
    printed = terminal(["2 2 2 2 2", "sheet"], BANK)
    sheet = printed.split("== School ==")[1]
    school2 = next(line for line in sheet.splitlines() if line.startswith("School 2"))
    assert "(10/8/6)" in school2, school2
    assert "School 2 writes 10, School 2, bank 1 writes 8, School 2, bank 2 writes 6" in sheet, sheet
    # the menu printed under it still numbers the options with the same values
    assert "School 2, bank 1  (+8)" in printed


def test_the_terminal_sheet_of_one_option_a_cell_is_as_before():
    printed = terminal(["2 2 2 2 2", "sheet"], {"school_reserve_mode": "fixed_three"})   # one option a cell
    sheet = printed.split("== School ==")[1]
    school2 = next(line for line in sheet.splitlines() if line.startswith("School 2"))
    assert school2.split("|")[1].strip() == "(6)*", school2
    assert "writes" not in sheet
