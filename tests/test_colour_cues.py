"""What the screens say by colour, they say some other way too (a word, a mark, a shape): one
player in twelve sees red, green and blue differently, and a café's light and a metre's distance
wash colours out for everyone."""
from __future__ import annotations

import random

import numpy as np
import pygame
import pytest

from controller.autoplay import AutoPlayer
from controller.rules import new_game
from display import theme
from display.render import render, tray_marks, tray_rect
from display.sheet import draw_ticks
from display.view import DieMark, TableView, TrayView

GAME_OPTIONS = [("thirteen", {}), ("classic", {}), ("school", {}), ("poknroll", {"must_mark_best": False}),
                ("objective-cards", {})]


def preview_cells(state):
    return [c for t in state.sheet().to_json()["tables"] for r in t["rows"] for c in r["cells"]
            if c["kind"] == "preview" and c["text"]]


@pytest.mark.parametrize("game,options", GAME_OPTIONS, ids=[g for g, _ in GAME_OPTIONS])
def test_a_preview_never_looks_like_a_written_score_but_for_its_colour(game, options):
    """What the dice would score is outlined or says "+": Thirteen's previews were bare numbers,
    blue among the green written scores of the same column (one colour to a tritanope)."""
    bot = AutoPlayer(random.Random(11))
    state = new_game(game, ["Ann", "Bob", "Cy"], options)
    seen = 0
    for _ in range(400):
        if state.is_over:
            break
        for cell in preview_cells(state):
            seen += 1
            assert cell.get("highlight") or "+" in cell["text"], (game, cell)
        state = state.apply(bot.next_input(state))
    assert seen, f"{game}: no preview met"


def test_a_die_read_unsurely_says_so_on_its_face_tag():
    """A die the reader is unsure of is outlined orange, the others green: one colour to a
    red-green colour-blind player (simulated). Its tag says "3?" too; an unread die's "?" stays one."""
    boxes = [pygame.Rect(20 + 90 * i, 120, 60, 60) for i in range(3)]
    dice = (DieMark((0, 0, 1, 1), "3"), DieMark((0, 0, 1, 1), "3", doubtful=True),
            DieMark((0, 0, 1, 1), "?", doubtful=True))
    area = pygame.Rect(0, 0, 300, 300)
    sure, unsure, unread = (tag for tag, *_ in tray_marks(TrayView(None, dice), boxes, area, 1.0))
    question = tray_marks(TrayView(None, (DieMark((0, 0, 1, 1), "?"),)), boxes[:1], area, 1.0)
    assert unsure.get_width() > sure.get_width()
    assert unread.get_width() == question[0][0].get_width()         # "?", not "??"


def luminance(rgb) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in rgb[:3])]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a, b) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# every text colour on the ground it is drawn on (WCAG AA: 4.5:1 for text a player must read)
TEXT_ON = [(fg, bg) for fg in sorted(set(theme.CELL_COLOURS.values()) | {theme.TEXT, theme.ACCENT})
           for bg in (theme.PANEL, theme.PANEL_LIGHT)]            # sheet cells, the acting player's column
TEXT_ON += [(theme.TEXT, theme.BG), (theme.ACCENT, theme.BG),       # title, status
            (theme.TEXT, theme.INFO_BG), (theme.TEXT, theme.WARN_BG), (theme.TEXT, theme.ERROR_BG),  # banners
            (theme.MUTED, theme.PANEL), (theme.PREVIEW, theme.PANEL), (theme.ACCENT, theme.PANEL),  # prompt, menu
            (theme.BG, theme.ACCENT),                                  # the menu's cursor row
            (theme.BG, theme.SCORE), (theme.BG, theme.HELD), (theme.BG, theme.DOUBT),  # face tags, HELD
            (theme.BG, theme.TEXT),                                    # HOLD number discs
            (theme.WINNER, theme.PANEL), (theme.TEXT, theme.PANEL)]    # standings


# how a protanope, deuteranope and tritanope see a colour (Machado, Oliveira & Fernandes 2009,
# severity 1, on linear RGB)
CVD = {
    "normal": np.eye(3),
    "protan": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                        [-0.003882, -0.048116, 1.051998]]),
    "deutan": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                        [-0.011820, 0.042940, 0.968881]]),
    "tritan": np.array([[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                        [0.004733, 0.691367, 0.303900]]),
}


def seen(rgb, vision: str) -> tuple[int, int, int]:
    c = np.array(rgb[:3], float) / 255
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    out = np.clip(CVD[vision] @ lin, 0, 1)
    out = np.where(out <= 0.0031308, 12.92 * out, 1.055 * out ** (1 / 2.4) - 0.055)
    return tuple(int(round(v * 255)) for v in out)


@pytest.mark.parametrize("vision", list(CVD))
@pytest.mark.parametrize("fg,bg", TEXT_ON, ids=[f"{f}-on-{b}" for f, b in TEXT_ON])
def test_every_text_colour_reads_on_its_ground(fg, bg, vision):
    """WCAG's 4.5:1, as each of the colour-blind sees the pair too."""
    assert contrast(seen(fg, vision), seen(bg, vision)) >= 4.5


@pytest.mark.parametrize("ground", [theme.PANEL, theme.PANEL_LIGHT], ids=["panel", "acting-column"])
def test_the_free_boxes_left_to_tick_stand_out_from_their_ground(ground):
    """Pok'n Roll's free boxes are what a player has left on a line: their outline needs 3:1 on
    the panel (WCAG's least for a shape that must be seen); in GRID's grey it was 2:1, 1.5:1 in
    the acting player's lit column."""
    surface = pygame.Surface((200, 40))
    surface.fill(ground)
    draw_ticks(surface, "■□□", pygame.Rect(0, 0, 200, 40), theme.SCORE)
    pixels = {tuple(p) for p in pygame.surfarray.array3d(surface).reshape(-1, 3)} - {tuple(ground), theme.SCORE}
    assert pixels and max(contrast(p, ground) for p in pixels) >= 3.0


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=["800x480", "1920x1080"])
def test_the_die_under_the_cursor_is_outlined_thicker_not_only_in_another_colour(size):
    """The die being corrected (or under a 3-button panel's cursor) is outlined in the cursor's
    yellow, the others green: one colour to a protanope or deuteranope (simulated). Its outline
    is twice as thick, so that it stands out by its weight too."""
    image = np.full((300, 400, 3), 90, np.uint8)
    dice = (DieMark((40, 100, 120, 180), "4", selected=True), DieMark((240, 100, 320, 180), "4"))
    view = TableView("play", "Thirteen", tray=TrayView(image, dice))
    surface = pygame.Surface(size)
    render(surface, view)
    rect = tray_rect(surface, view)
    pixels = pygame.surfarray.array3d(surface)[rect.left:rect.right, rect.top:rect.bottom].reshape(-1, 3)
    cursor = np.all(pixels == theme.ACCENT, axis=1).sum()
    other = np.all(pixels == theme.SCORE, axis=1).sum()         # the same die, the same tag: its outline
    assert cursor > 1.5 * other > 0


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=["800x480", "1920x1080"])
def test_a_line_of_boxes_previewed_is_drawn_as_boxes_not_as_glyphs_the_font_lacks(size, monkeypatch):
    """Pok'n Roll's preview "■▣□□□□ +1" (the box a choice would tick, and its points) was drawn
    as text: a blank box for ▣, dashes for the free boxes. Its boxes are drawn as squares (or
    counted, "0/6 +1", where they would be too small), its points beside them."""
    from display import sheet as sheet_mod

    drawn: list[str] = []
    real_text = sheet_mod.text

    def text(surface, s, *a, **k):
        drawn.append(s)
        return real_text(surface, s, *a, **k)

    monkeypatch.setattr(sheet_mod, "text", text)
    cell = {"text": "■▣□□□□ +1", "kind": "preview", "value": 1}
    table = {"title": "", "columns": ["Ann", "Bob"], "active_column": 0,
             "rows": [{"key": "PAIRE", "label": "Paire (1)", "kind": "normal",
                       "cells": [cell, {"text": "■□□□□□", "kind": "tick"}]}]}
    surface = pygame.Surface(size)
    width = size[0] // 3
    sheet_mod.draw_table(surface, table, pygame.Rect(0, 0, width, size[1] // 6), theme.scale(surface))
    cells = [s for s in drawn if s not in ("Ann", "Bob", "Paire (1)")]
    assert cells and all(not set(s) & set("■▣□") for s in cells), cells
    assert any("+1" in s for s in cells)


@pytest.mark.parametrize("width", [60, 73, 90, 120, 160, 240])
def test_a_previewed_line_of_boxes_and_its_points_stay_inside_their_cell(width):
    surface = pygame.Surface((width + 40, 60))
    surface.fill((0, 0, 0))
    cell = pygame.Rect(20, 10, width, 40)
    draw_ticks(surface, "■▣□□□□", cell, (0, 255, 0), "+3", 30)
    inked = np.nonzero(pygame.surfarray.array3d(surface).max(axis=2).max(axis=1))[0]
    assert len(inked) and inked.min() >= cell.left and inked.max() < cell.right


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=["800x480", "1920x1080"])
def test_the_acting_players_column_is_marked_by_a_shape_not_only_by_colour(size):
    """The acting player's name was told from the others by its yellow (white for the others)
    and its column's lighter panel, 1.3:1 against the panel: the name is underlined too, a bar
    as wide as the column on the line under the names (grey elsewhere)."""
    from display import sheet as sheet_mod

    row = {"key": "ACES", "label": "Aces", "kind": "normal", "cells": [{"text": "3", "kind": "score"}] * 3}
    table = {"title": "", "columns": ["Ann", "Bob", "Cy"], "active_column": 1, "rows": [row] * 5}
    surface = pygame.Surface(size)
    surface.fill(theme.PANEL)
    s = theme.scale(surface)
    rect = pygame.Rect(0, 0, size[0] // 2, size[1] // 2)
    sheet_mod.draw_table(surface, table, rect, s)
    row_h = max(12, min(int(52 * s), rect.height // 6))
    band = pygame.surfarray.array3d(surface)[:, row_h - 4:row_h + 2]          # around the names' rule
    accent = np.nonzero(np.all(band == theme.ACCENT, axis=2).any(axis=1))[0]   # the x where accent is
    assert len(accent) > rect.width // 6, "no bar under the acting player's name"
    assert rect.width // 3 < accent.mean() < rect.width * 5 // 6          # under Bob, the middle column
