"""Drawing a score sheet (the plain dict of `Sheet.to_json()`) into a rectangle.

Type size follows from the number of rows, so a 20-row sheet fills an 800x480 screen and a
TV alike. When a game has one table per player and they do not all fit side by side, the
acting player's table (the games put it first) is drawn whole and the others as totals.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, Sequence

import pygame

from . import theme
from .caption_fit import end_kept_lines
from .draw import panel, printable, render_line, text
from .label_room import LABEL_MARGIN, label_form, label_width
from .col_window import focus_column, window_room
from .number_cut import numbers_need
from .head_lines import staggered_heads
from .labels import distinct_cuts
from .row_fit import rows_shown
from .tick_count import count_said
from .title_fit import title_form

MIN_TABLE_WIDTH_PER_COLUMN = 70


def _lines(table: dict[str, Any]) -> int:
    """The table's height in rows: its title, its header and its rows."""
    return len(table.get("rows", [])) + 1 + (1 if table.get("title") else 0)


def min_row_height(s: float) -> int:
    """The least row height a table is stacked at: ~13 px capitals on an 800x480 screen, ~21 px
    on a TV (smaller cannot be read across the table; a table that would need less stays off)."""
    return max(20, int(21 * s))


def layout_sheet(sheet: dict[str, Any], rect: pygame.Rect, s: float
                 ) -> tuple[list[tuple[dict[str, Any], pygame.Rect]], list[dict[str, Any]], int]:
    """Where each table goes: (table, rect) for those drawn, those left off, the footer's height.

    The first table (the games put the most important first: the board, the acting player's own
    sheet) is drawn whole; each next one beside the others when its columns fit, else below the
    last column's tables when every row there keeps `min_row_height`, else left off (named, or
    the totals, in a footer)."""
    tables = sheet.get("tables") or []
    inner = rect.inflate(-int(16 * s), -int(16 * s))
    gap = int(12 * s)
    needs = [min(inner.width, (len(t.get("columns", [])) + 2) * MIN_TABLE_WIDTH_PER_COLUMN * s) for t in tables]
    size = footer_size(sheet, inner, s)
    for footer_h in (0, int(34 * s)):
        height = inner.height - footer_h
        cols, widths, hidden = _columns(tables, needs, inner.width, height, gap, s)
        if not hidden or (footer_h and footer_height(sheet, hidden, inner.width, size, s) <= footer_h):
            break
    else:       # a footer that needs two lines (School's totals of 6 at 800x480)
        footer_h = footer_height(sheet, hidden, inner.width, size, s)
        height = inner.height - footer_h
        cols, widths, hidden = _columns(tables, needs, inner.width, height, gap, s)
    used = sum(widths) + gap * (len(widths) - 1)
    spare = max(0.0, inner.width - used)
    placed = []
    x = inner.x
    for col, need in zip(cols, widths):
        width = min(int(need + spare * need / used) if used else inner.width, inner.right - x)
        lines = sum(_lines(t) for t in col)
        row_h = min(int(52 * s), (height - gap * (len(col) - 1)) // max(1, lines))
        y = inner.y
        for i, table in enumerate(col):
            h = height if len(col) == 1 else (_lines(table) * row_h if i < len(col) - 1 else inner.y + height - y)
            placed.append((table, pygame.Rect(x, y, width, h)))
            y += h + gap
        x += width + gap
    return placed, hidden, footer_h if hidden else 0


def _columns(tables: list[dict[str, Any]], needs: list[float], width: int, height: int, gap: int, s: float
             ) -> tuple[list[list[dict[str, Any]]], list[float], list[dict[str, Any]]]:
    """The tables in columns (each with its width) within `width` x `height`, and those left off."""
    cols: list[list[dict[str, Any]]] = []
    widths: list[float] = []
    hidden: list[dict[str, Any]] = []
    for table, need in zip(tables, needs):
        if not cols or sum(widths) + gap * len(widths) + need <= width:
            cols.append([table])
            widths.append(need)
            continue
        col = cols[-1]
        lines = sum(_lines(t) for t in col) + _lines(table)
        if (height - gap * len(col)) / lines >= min_row_height(s):
            col.append(table)
            widths[-1] = max(widths[-1], need)
        else:
            hidden.append(table)
    return cols, widths, hidden


def draw_sheet(surface: pygame.Surface, sheet: dict[str, Any], rect: pygame.Rect, s: float) -> None:
    panel(surface, rect)
    if not sheet.get("tables"):
        return
    placed, hidden, footer_h = layout_sheet(sheet, rect, s)
    for table, area in placed:
        draw_table(surface, table, area, s, sheet.get("players") or ())
    if footer_h:
        inner = rect.inflate(-int(16 * s), -int(16 * s))
        size = min([table_text_size(t, a, s) for t, a in placed] + [footer_size(sheet, inner, s)])
        lines = footer_lines(sheet, hidden, inner.width, size)
        y = inner.bottom - footer_h + int(6 * s)
        for line in lines:
            text(surface, line, (inner.x, y), size, theme.MUTED, max_width=inner.width, min_size=size)
            y += theme.font(size).get_linesize()


def footer_size(sheet: dict[str, Any], inner: pygame.Rect, s: float) -> int:
    """The footer's type size at most (drawn no bigger than its tables': "Not shown: ..." came
    out at 39 px under a table at 30 at 1920x1080), never below the legible minimum."""
    return max(theme.min_text(s), int(26 * s))


def footer_line(sheet: dict[str, Any], hidden: list[dict[str, Any]], names: list[str] | None = None,
                word: str = "Totals: ") -> str:
    """What the footer says of the tables left off: every player's total when the totals table
    is among them (`names`: the players' as drawn, cut; after `word`), else the titles of those
    left off."""
    players, totals = sheet.get("players", []), sheet.get("totals", [])
    if footer_has_totals(sheet, hidden):
        return word + " · ".join(f"{p} {t}" for p, t in zip(names or players, totals))
    return "Not shown: " + " · ".join(t.get("title", "") for t in hidden if t.get("title"))


def footer_has_totals(sheet: dict[str, Any], hidden: list[dict[str, Any]]) -> bool:
    players, totals = sheet.get("players", []), sheet.get("totals", [])
    summary_hidden = any(list(t.get("columns", [])) == list(players) for t in hidden)
    return bool(players and totals and len(players) > 1 and summary_hidden)


def footer_lines(sheet: dict[str, Any], hidden: list[dict[str, Any]], width: int, size: int) -> list[str]:
    """The footer in lines that fit `width` at `size`, broken between its " · " parts; two at most
    (the second cut when drawn: School's totals of 6 players lost the last one on one line).
    Totals that do not fit two lines have the players' names cut (kept apart) until they do:
    six long names cut the last player's total off ("... Christopher-Robin..."). Where even
    names cut to their seat numbers ("#3") do not fit (six players at 320x240), the word
    "Totals:" is left off as well: the second line was cut, "C... 1...", two totals lost."""
    f = theme.font(size)
    lines = _footer_split(footer_line(sheet, hidden), f, width)
    if not footer_has_totals(sheet, hidden) and not _fit_lines(lines, f, width):
        lines = not_shown_lines(footer_line(sheet, hidden), f, width)
    if footer_has_totals(sheet, hidden):
        # (down to the seat numbers, "#3": at "M..." the loop stopped short of them; never to a bare
        # "3", which read "3 105" as 3,105)
        least = f.size(f"#{len(sheet.get('players', []))}")[0]
        for word in ("Totals: ", ""):
            room = width // 2
            while room >= least and not _fit_lines(lines, f, width):
                names = distinct_cuts(sheet.get("players", []), f, room)
                lines = _footer_split(footer_line(sheet, hidden, names, word), f, width)
                room = room * 4 // 5 if room > f.size("M...")[0] else room - 1
            if _fit_lines(lines, f, width):
                break
    return lines[:1] + [" · ".join(lines[1:])] if len(lines) > 2 else lines


def not_shown_lines(line: str, f: pygame.font.Font, width: int) -> list[str]:
    """The "Not shown: ..." footer on two lines broken between words, else its titles alone
    (without "Not shown:"), broken between words, else those with their end whole on the
    second line and the first cut. At 320x240
    Pok'n Roll's hand table, left off, was named on one line cut to "Not shown: Hand 12,
    firs...": its title ("Hand 12, first player Cy — white dice: 2 5 5 3 2") is what the
    players need of it, the first player and the white dice."""
    for form in (line, line.removeprefix("Not shown: ")):
        lines: list[str] = []
        for word in form.split():
            if lines and f.size(f"{lines[-1]} {word}")[0] <= width:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        if _fit_lines(lines, f, width):
            return lines
    # (else its end whole on the second line, the first cut: "Hand 22, first player Maxim..." over
    # "— white dice: 2 4 6 2 4" on the final standings' narrower sheet)
    return end_kept_lines(line.removeprefix("Not shown: "), lambda part: f.size(printable(part))[0] <= width)


def _fit_lines(lines: list[str], f: pygame.font.Font, width: int) -> bool:
    """Whether the footer's lines are two at most, each within `width` (a first line of one part
    too wide for it, two players' "Totals: Maximilianus 669" at 320x240, was cut to "6...")."""
    return len(lines) <= 2 and all(f.size(line)[0] <= width for line in lines)


def _footer_split(line: str, f: pygame.font.Font, width: int) -> list[str]:
    lines: list[str] = []
    for part in line.split(" · "):
        if lines and f.size(f"{lines[-1]} · {part}")[0] <= width:
            lines[-1] = f"{lines[-1]} · {part}"
        else:
            lines.append(part)
    return lines


def footer_height(sheet: dict[str, Any], hidden: list[dict[str, Any]], width: int, size: int, s: float) -> int:
    """The footer's height for its lines at `size`."""
    n = len(footer_lines(sheet, hidden, width, size))
    return int(34 * s) + (n - 1) * theme.font(size).get_linesize()


def table_text_size(table: dict[str, Any], rect: pygame.Rect, s: float) -> int:
    """The type size `draw_table` gives a table in `rect`. (School's 20 lines made 17 px type at
    800x480: the bundled font's lines are 2/3 of its size, so type as big as the row still
    leaves a third of it between lines.)"""
    row_h = max(12, min(int(52 * s), rect.height // max(_lines(table), 1)))
    return max(theme.min_text(s), int(row_h * 0.86))


def draw_table(surface: pygame.Surface, table: dict[str, Any], rect: pygame.Rect, s: float,
               players: Sequence[str] = ()) -> None:
    """One table; `players`, in seat order, number the columns of players whose names the
    screen would draw alike."""
    columns: list[str] = table.get("columns", [])
    rows: list[dict[str, Any]] = table.get("rows", [])
    title = table.get("title", "")
    active = table.get("active_column")
    n_lines = len(rows) + 1 + (1 if title else 0)
    row_h = max(12, min(int(52 * s), rect.height // max(n_lines, 1)))
    size = table_text_size(table, rect, s)
    bar_w = max(3, int(5 * s))               # the acting player's underline
    head_h, head_mid = header_height(row_h, size, bar_w)
    y = rect.y
    if title:
        # (its shorter forms, then the last with the player's name cut apart: School's "... — no
        # awards" was cut before those words at 320x240)
        title = title_form(title, table.get("short", ()), players, rect.width, theme.min_text(s))
        text(surface, title, (rect.x, y), size, theme.ACCENT, bold=True, max_width=rect.width)
        y += row_h
    # (the labels take what room the players' columns spare: cut at 42 % of the table, 320x240's
    # "3 of a ki...", "Full hou..." beside two columns with room to spare)
    label_w = label_width(rows, columns, rect.width, size, s, WORD_CLEAR)
    # some columns only where a column would not hold a digit, or a letter of some cell (eight
    # players' Classic at 480x320 had every hand drawn "...", in columns that hold a digit), or
    # its widest number (six players' Thirteen at 320x240 had every score of two digits and every
    # total drawn "..."): elsewhere a cell too wide for one line goes on two, or in its short
    # form, and every player keeps a column
    digit = theme.font(theme.min_text(s), True).size("8")[0] + 6
    number = number_column(rows, theme.min_text(s))
    least, avail = theme.min_text(s), rect.width - label_w
    need: Callable[[list[dict[str, Any]]], int] | None = None
    if len(columns) * digit > avail or bare_cells(rows, least, avail // max(1, len(columns))):
        def need(sub: list[dict[str, Any]]) -> int:
            return max(number_column(sub, least), least_column(sub, least))
    elif len(columns) * number > avail:
        def need(sub: list[dict[str, Any]]) -> int:
            return number_column(sub, least)
    elif len(columns) * numbers_need(rows, least) > avail:
        # (a number cut off a cell: Objective cards' "won 2" drawn "w..." in three players' columns at 320x240)
        def need(sub: list[dict[str, Any]]) -> int:
            return numbers_need(sub, least)
    every = list(columns)           # (the names left off still keep those shown apart from them)
    shown = range(len(columns))
    if need is not None:
        # (as many as hold the cells of the columns drawn, around the acting player's or the cursor's
        # preview: School's own sheet at 320x240 drew its column 1 alone, the Info column's widest cell
        # counted for every column, and its player never saw the cell a choice in column 2 writes)
        focus = focus_column(rows, active)
        room = window_room(rows, len(columns), focus, avail, need, column_window)
        shown = column_window(len(columns), focus, room)
        columns = [columns[i] for i in shown]
        rows = [{**row, "cells": [cell for i, cell in enumerate(row.get("cells", [])) if i in shown]} for row in rows]
        active = active - shown.start if active in shown else None
        # which of the columns these are, in the header's corner: the others are not lost
        seen = f"{shown.start + 1}-{shown.stop}" if len(shown) > 1 else f"{shown.start + 1}"
        text(surface, f"{seen} of {len(table['columns'])}", (rect.x + 4, y + head_mid), theme.min_text(s),
             theme.MUTED, anchor="midleft", max_width=label_w - 6)
    ncol = max(len(columns), 1)
    col_w = (rect.width - label_w) // ncol
    # header: the players' names, cut (at the least size `text` shrinks them to) so that they stay apart
    # (among every column's: "Maximilian-Alexandra" shown alone as "M..." could be her or
    # "Maximilian-Alexander", whose column the window left off)
    seats = [list(players).index(c) + 1 if c in players else None for c in every]
    # (two word spaces clear of the next one's: cut to the column's full width, School's scores at
    # 1920x1080 were headed "Maximilian-Alexan...r Maximilian-Alexan...a", read as one name; where
    # that still leaves a seat number room: six players' columns at 320x240 have none to spare)
    head_font = theme.font(theme.min_text(s), True)
    head_w = col_w - max(4, WORD_CLEAR * head_font.size(" ")[0])
    if head_w < head_font.size(f"#{len(every)}")[0]:
        head_w = col_w - 4
    heads = distinct_cuts(every, head_font, head_w, seats)
    heads = [heads[i] for i in shown]
    # (names of one letter, "M...", over 32 px columns: every other one on a second line instead)
    # (the first name may reach into the labels' header where it does not say which columns these are)
    two = staggered_heads(every, list(shown), heads, head_font, rect.x + label_w, col_w, rect.right - 2,
                          max(4, WORD_CLEAR * head_font.size(" ")[0]), seats,
                          rect.x + label_w if need is not None else rect.x + LABEL_MARGIN)
    places = [(rect.x + label_w + c * col_w + col_w // 2, head_mid, head_w) for c in range(len(heads))]
    line_h = theme.font(size, True).get_linesize()

    def room_for(h: int) -> int:
        return (rect.height - (h - row_h)) // row_h - (n_lines - len(rows))

    # (not where the header's second line would leave off a row of a table shown whole: Pok'n
    # Roll's final board at 800x480 lost its last row for longer names)
    if two and (room_for(head_h) >= len(rows) > room_for(head_h + line_h)):
        two = None
    if two:
        heads, name_boxes = two
        head_h += line_h
        # (the acting player's name on the second line, over its underline: on the first, the
        # underline under the line between read as another name's)
        odd = 0 if active is None else (active + 1) % 2
        places = [(_inside(rect.x + label_w + c * col_w + col_w // 2, head_font.size(printable(name))[0], box),
                   head_mid + (c + odd) % 2 * line_h, box[1] - box[0])
                  for c, (name, box) in enumerate(zip(heads, name_boxes))]
    # the rows the panel holds at this height (the totals always, the others around the cursor of
    # the columns drawn): drawn on past its bottom, the last ones (the Total) were lost off a
    # 320x240 screen or drawn under the totals footer
    drawn_rows = rows_shown(rows, room_for(head_h))
    gaps = {k for k, (i, j) in enumerate(zip(drawn_rows, drawn_rows[1:]), 1) if j != i + 1}
    rows = [rows[i] for i in drawn_rows]
    if active is not None and 0 <= active < len(columns):
        # (under every name: a neighbour's name on two lines reaches over the acting player's column)
        cx = rect.x + label_w + active * col_w
        pygame.draw.rect(surface, theme.PANEL_LIGHT, (cx, y, col_w, head_h + row_h * len(rows)), border_radius=6)
    for c, (name, (x, mid, width)) in enumerate(zip(heads, places)):
        text(surface, name, (x, y + mid), size, theme.ACCENT if c == active else theme.TEXT,
             bold=True, anchor="center", max_width=width)
    y += head_h
    if drawn_rows and drawn_rows[0] > 0:
        # rows left off above the first drawn: the header's rule dotted, as a gap between rows is
        # (Thirteen's three players at 320x240, the cursor low: Aces to Fives gone with no sign)
        dotted(surface, rect.x, rect.right, y - 2, 2)
    else:
        pygame.draw.line(surface, theme.GRID, (rect.x, y - 2), (rect.right, y - 2), 2)
    if active is not None and 0 <= active < len(columns):
        # the acting player's name underlined, thick: its yellow against the others' white and its
        # column's lighter panel (1.3:1) were all that told it, colours alike to a tritanope
        cx = rect.x + label_w + active * col_w
        pygame.draw.line(surface, theme.ACCENT, (cx + 4, y - 2), (cx + col_w - 5, y - 2), bar_w)
    for r, row in enumerate(rows):
        kind = row.get("kind", "normal")
        ty = y               # where the row's text is centred from (a Total's lower, clear of its rule)
        if kind == "total":
            # (moved down, room allowing, under the row above's label's descenders: "Straights"
            # over the Total at 320x240 had its "g" drawn 2 px into the rule)
            drop = max(0, min(label_hang(rows[r - 1], label_w, size, s, row_h) if r else 0,
                              rect.bottom - (y + row_h) - 2))
            if r in gaps:       # (rows left off just above the Total: its rule was solid, no sign of them)
                dotted(surface, rect.x, rect.right, y + drop, 2)
            else:
                pygame.draw.line(surface, theme.GRID, (rect.x, y + drop), (rect.right, y + drop), 2)
            ty = y + drop + total_shift(size, row_h, rect.bottom - (y + drop + row_h))
        elif r in gaps:         # rows left off above this one: a dotted line says so
            dotted(surface, rect.x, rect.right, y, 1)
        label_colour = theme.MUTED if kind in ("subtotal", "bonus") else theme.TEXT
        label = label_form(row, label_w - LABEL_MARGIN, theme.min_text(s), kind == "total")
        text(surface, label, (rect.x + 4, ty + row_h // 2), size, label_colour,
             bold=(kind == "total"), anchor="midleft", max_width=label_w - LABEL_MARGIN)
        for c, cell in enumerate(row.get("cells", [])[:ncol]):
            cx = rect.x + label_w + c * col_w
            ctext = cell.get("text", "")
            ckind = cell.get("kind", "empty")
            colour = theme.CELL_COLOURS.get(ckind, theme.TEXT)
            lit = bool(cell.get("highlight"))
            # (the text 2 px clear of the outline, 2 px of the neighbouring cells' text: 6 px
            # off every cell cut "33 to go" in a 55 px column where it fits)
            width = col_w - (10 if lit else 4)
            lines: list[str] = []
            boxes, _, tail = ctext.partition(" ")
            if boxes and ckind in ("tick", "preview") and set(boxes) <= TICK_GLYPHS:
                # (a margin of its own on each side: the players' rows of boxes must not run together)
                m = max(4, col_w // 12)
                draw_ticks(surface, boxes, pygame.Rect(cx + m, y, col_w - 2 * m, row_h), colour, tail,
                           min(size, int(row_h * 0.8)))
            elif ctext:
                bold = kind == "total" or ckind == "total"
                # two lines' ink 1 px clear of the outline (1 px wide around two lines) or the rows by
                forms = (ctext, *cell.get("short", ()))
                csize, lines = cell_lines(ctext, size, bold, width, row_h - (4 if lit else 2), theme.min_text(s),
                                          forms[1:] + names_cut(forms, tuple(players), theme.min_text(s), bold, width))
            if lit and len(lines) == 1 and not outline_clears(lines[0], csize, bold, row_h):
                highlight_sides(surface, pygame.Rect(cx + 2, y, col_w - 4, row_h))
            elif lit:
                pygame.draw.rect(surface, theme.ACCENT, (cx + 2, y, col_w - 4, row_h),
                                 1 if len(lines) > 1 else 2, border_radius=6)
            if lines:
                if len(lines) == 1:
                    text(surface, lines[0], (cx + col_w // 2, ty + row_h // 2), csize, colour,
                         bold=bold, anchor="center", max_width=width)
                else:                       # the two lines' ink stacked, centred in the row
                    inks = [_ink(line, csize, bold) for line in lines]
                    top = ty + (row_h - (inks[0].height + LINE_GAP + inks[1].height)) // 2
                    for line, ink in zip(lines, inks):
                        text(surface, line, (cx + col_w // 2, top - ink.top), csize, colour,
                             bold=bold, anchor="midtop", max_width=width)
                        top += ink.height + LINE_GAP
        y += row_h
        if y > rect.bottom:
            break


def dotted(surface: pygame.Surface, left: int, right: int, y: int, width: int) -> None:
    """The dotted line that says rows are left off there (`width` px thick)."""
    for x in range(left, right, 6):
        pygame.draw.line(surface, theme.MUTED, (x, y), (min(right, x + 2), y), width)


def label_hang(row: dict[str, Any], label_w: int, size: int, s: float, row_h: int) -> int:
    """How many px (and one clear) the ink of `row`'s label, drawn centred in its `row_h` row at
    `size`, reaches below the row's end: a descender in a 12 px row."""
    label = label_form(row, label_w - LABEL_MARGIN, theme.min_text(s), row.get("kind") == "total")
    f = theme.font(max(size, theme.min_text(s)), row.get("kind") == "total")
    if not label or f.size(printable(label))[0] > label_w - LABEL_MARGIN:
        return 0                    # (drawn smaller or cut: no more than this size hangs)
    top = row_h // 2 - f.get_height() // 2
    return max(0, top + _ink(label, max(size, theme.min_text(s)), row.get("kind") == "total").bottom + 2 - row_h)


def _inside(centre: int, width: int, box: tuple[int, int]) -> int:
    """A name's centre: over its column's `centre`, moved in as far as its `box` needs."""
    return max(box[0] + width // 2, min(centre, box[1] - (width + 1) // 2))


def total_shift(size: int, row_h: int, below: int) -> int:
    """How far down a Total row's text (bold, type `size`, centred in its `row_h` row) is drawn so
    that its ink stands a px clear under the 2 px rule over the row, as far as the `below` px under
    the row allow. At 320x240 (rows of 12 px, type of 20) "Total" and its sums were drawn 1 px
    into the rule, read as struck through; at 800x480 they clear it and do not move."""
    f = theme.font(size, True)
    ink = _ink("Total 0123456789", size, True)
    top = row_h // 2 - f.get_height() // 2               # (the line's image, centred in the row)
    need = 2 + 1 - (top + ink.top)
    return max(0, min(need, row_h + below - (top + ink.bottom)))


def outline_clears(line: str, size: int, bold: bool, row_h: int) -> bool:
    """Whether a highlighted cell's outline (2 px at the row's top and bottom) leaves its one
    line's ink (type `size`, centred in the row) a px clear above and below."""
    img_h = render_line(theme.font(size, bold), printable(line), (255, 255, 255)).get_height()
    ink = _ink(line, size, bold)
    top = row_h // 2 - img_h // 2 + ink.top
    return top >= 3 and top + ink.height <= row_h - 3


def highlight_sides(surface: pygame.Surface, box: pygame.Rect) -> None:
    """A highlighted cell marked by a bar at each side, for a row too short for its outline to
    clear the text: at 320x240 (rows of 12 px, digits 9 px high) the outline's top and bottom
    ran along the digits' own ("271", the winner's total; "0", the box just scored), which read
    as struck through. The bars take the 4 px each side that the cell's text keeps clear."""
    for x in (box.left, box.right - 2):
        pygame.draw.rect(surface, theme.ACCENT, (x, box.top, 2, box.height))


def header_height(row_h: int, size: int, bar_w: int) -> tuple[int, int]:
    """The height of a table's header (the players' names over the rule and the acting
    player's underline, `bar_w` thick) and the names' centre in it: a row's height where the
    names' letters (type `size`, bold, down to their baseline) stand clear of the underline's
    band in it, else as tall as that needs. At 320x240 rows are 12 px for 20 px type, and the
    rule and the underline were drawn over the lower half of every name (only descenders
    may meet them, as an underline does)."""
    f = theme.font(size, True)
    band_top = row_h - 3 - bar_w // 2        # the underline (and the rule) centred 2 px above the row's end
    if row_h // 2 - f.get_height() // 2 + f.get_ascent() < band_top:
        return row_h, row_h // 2
    mid = f.get_height() // 2 + 1           # the names' line 1 px under the header's top
    return mid - f.get_height() // 2 + f.get_ascent() + 4 + bar_w // 2, mid


def least_column(rows: list[dict[str, Any]], least: int) -> int:
    """The width a column needs for its cells' shortest forms on one line at `least` (bold: the
    widest), a digit at the least: narrower, a cell is drawn as a cut mark. (A highlighted cell's
    outline takes 4 px more: two players' Classic at 320x240 had "2×10" cut in its outline.)"""
    font = theme.font(least, True)
    widest = max((min(font.size(printable(form))[0] for form in (cell["text"], *cell.get("short", ())))
                  + (4 if cell.get("highlight") else 0)
                  for row in rows for cell in row.get("cells", []) if cell.get("text")), default=0)
    return max(widest, font.size("8")[0]) + 6


def bare_cells(rows: list[dict[str, Any]], least: int, col_w: int) -> bool:
    """Whether some cell of `rows` (not a row of boxes: those are drawn, not written) would be
    drawn as a bare "..." in a column `col_w` wide at `least` in bold: none of its forms fits,
    nor even its shortest's first letter before the ellipsis."""
    font = theme.font(least, True)
    for row in rows:
        for cell in row.get("cells", ()):
            forms = [form for form in (cell.get("text", ""), *cell.get("short", ())) if form]
            if not forms or set(forms[0].partition(" ")[0]) <= TICK_GLYPHS:
                continue
            width = col_w - (10 if cell.get("highlight") else 4)      # (as `draw_table` gives it)
            if all(font.size(printable(form))[0] > width for form in forms) and \
                    font.size(printable(min(forms, key=len)[:1]) + "...")[0] > width:
                return True
    return False


NUMBER = re.compile(r"[+-]?\d+")


def number_column(rows: list[dict[str, Any]], least: int) -> int:
    """The width a column needs for its widest number (a score, a total, a preview "+30") whole
    at `least` in bold, with a cell's margins (wider in a highlighted cell's outline): a number
    cut is a number misread, where a word cut to its start is still a word."""
    font = theme.font(least, True)
    return max((font.size(cell["text"])[0] + (10 if cell.get("highlight") else 4)
                for row in rows for cell in row.get("cells", ()) if NUMBER.fullmatch(cell.get("text", ""))),
               default=0)


def column_window(count: int, active: int | None, room: int) -> range:
    """The columns drawn of `count` when only `room` of them hold their cells: the acting
    player's and its neighbours, the next players first (the first ones when no one acts).
    Eight players' columns of Classic at 320x240 were 12 px wide, too narrow for a digit: each
    cell was drawn as a cut mark. The header's seat numbers say whose columns they are."""
    room = max(1, room)
    if count <= room:
        return range(count)
    start = min(max(0, (active or 0) - (room - 1) // 2), count - room)
    return range(start, start + room)


@lru_cache(maxsize=1024)
def names_cut(forms: tuple[str, ...], players: tuple[str, ...], size: int, bold: bool, width: int) -> tuple[str, ...]:
    """A cell's last forms: its shortest with a player's name in it, the name cut apart from the
    others' to fit `width` at `size` (Objective cards' "to Maximilian-Alexander" and "to
    Maximilian-Alexandra", cut "to Max..." both, are "to Ma...r" and "to Ma...a"). None when the
    name is whole in it, or no form names a player."""
    font = theme.font(size, bold)
    for form in reversed(forms):
        # (a name the game kept in every form of its cell, after a word: "captured by Eve" / "to
        # Eve"; a player called "hand" is not looked for in a plain "in hand")
        name = max((p for p in players if len(forms) > 1 and all(p in f for f in forms)
                    and (form.endswith(f" {p}") or f" {p}," in form)), key=len, default=None)
        if name is None:
            continue
        rest = font.size(form.replace(name, "", 1))[0]
        label = distinct_cuts(list(players), font, max(1, width - rest))[players.index(name)]
        return (form.replace(name, label, 1),) if label != printable(name) else ()
    return ()


TICK_GLYPHS = set("■▣□")      # ticked, the one a choice would tick (a preview), free


LINE_GAP = 1          # px between a two-line cell's lines' ink
WORD_CLEAR = 2        # word spaces kept clear around a cell's long form, beside its neighbours' (see cell_lines)


@lru_cache(maxsize=2048)
def _ink(line: str, size: int, bold: bool) -> pygame.Rect:
    """Where the line's ink is in its rendered image (its height: capitals to descenders)."""
    return render_line(theme.font(size, bold), line, (255, 255, 255)).get_bounding_rect()


def two_lines_fit(first: str, second: str, size: int, bold: bool, room: int) -> bool:
    """Two lines stacked fit in `room` px (the row less the outline and a px clear of it): their
    ink, not the font's line height (lines stepped by that ran into the outline and into each
    other: "Two" over "pairs" in a 28 px row)."""
    return _ink(first, size, bold).height + LINE_GAP + _ink(second, size, bold).height <= room


@lru_cache(maxsize=4096)
def cell_lines(s: str, size: int, bold: bool, width: int, room: int, least: int,
               short: tuple[str, ...] = ()) -> tuple[int, tuple[str, ...]]:
    """A cell's size and the lines it is drawn on: one line at the biggest size from `size` down
    to `least` (the legible minimum: cells like "in hand: +1 now" shrank to 13 px on an 800x480
    screen) at which it, or (a "detail · summary" cell) its summary, fits; only when no size
    does, two lines the row has room for ("card" over "committed"); else at `least` the first
    words that fit over the rest (cut when drawn) when the row has room, else one line cut. (Two
    lines used to be tried at each size before one line at the next size down: "Two pairs",
    "Three K", "33 to go" wrapped though they fitted one line 1-2 px smaller.)

    `short`: the game's shorter forms of the cell, longest first, each tried (one line, then
    two) when the one before does not fit, before anything is cut: "captured by Eve" in a
    5-player column at 800x480 was drawn "captu..." where the game's "to Eve" fits. (The text
    on two lines comes before a short form: the game's own words where a screen has room.)

    A form with a shorter one after it is taken only with a word space to spare on each side
    (`WORD_CLEAR`): "60 to go" fitted 6-player columns at 800x480 with its text 4 px from the
    next one's, read as one phrase, "60 to go30 to go"; the last form has the whole width."""
    sizes = range(max(size, least), least - 1, -1)
    forms = (s, *short)
    clear = WORD_CLEAR * theme.font(least, bold).size(" ")[0]
    for i, form in enumerate(forms):
        room_w = width if i == len(forms) - 1 else width - clear
        found = one_line(form, sizes, bold, room_w) or two_lines(form, sizes, bold, room_w, room)
        if found:
            return found
    return first_words_over_the_rest((s, *short)[-1], bold, width, room, least)


def one_line(s: str, sizes: range, bold: bool, width: int) -> tuple[int, tuple[str, ...]] | None:
    """The biggest of `sizes` at which `s`, or its summary, fits `width` on one line (None: none)."""
    for k in sizes:
        f = theme.font(k, bold)
        if f.size(printable(s))[0] <= width:
            return k, (s,)
        short = fit_cell_text(s, k, bold, width)
        if f.size(printable(short))[0] <= width:
            return k, (short,)
    return None


def two_lines(s: str, sizes: range, bold: bool, width: int, room: int) -> tuple[int, tuple[str, ...]] | None:
    """The biggest of `sizes` at which `s` (or its summary) broken between words fits `width` on
    two lines that the row has `room` for, the first line the longest (None: none)."""
    for k in sizes:
        f = theme.font(k, bold)
        words = fit_cell_text(s, k, bold, width).split()
        for n in range(len(words) - 1, 0, -1):                 # the longest first line that fits
            first, second = " ".join(words[:n]), " ".join(words[n:])
            if (f.size(printable(first))[0] <= width and f.size(printable(second))[0] <= width
                    and two_lines_fit(first, second, k, bold, room)):
                return k, (first, second)
    return None


def first_words_over_the_rest(s: str, bold: bool, width: int, room: int, least: int) -> tuple[int, tuple[str, ...]]:
    """The last resort, at `least`: its first words on a line, the rest cut on a second ("Two"
    over "pairs A..." keeps the hand a one-line "Two p..." lost, in a 28 px row that has room for
    two 20 px lines), else one line (cut when drawn)."""
    short = fit_cell_text(s, least, bold, width)
    f = theme.font(least, bold)
    words = short.split()
    for n in range(len(words) - 1, 0, -1):
        first, rest = " ".join(words[:n]), " ".join(words[n:])
        if (f.size(printable(first))[0] <= width and f.size(printable(words[n]))[0] <= width
                and two_lines_fit(first, rest, least, bold, room)):
            return least, (first, rest)
    return least, (short,)


def fit_cell_text(s: str, size: int, bold: bool, width: int) -> str:
    """Cells written "detail · summary" (e.g. a poker hand and its name) keep only the summary
    when the detail would have to shrink below three quarters of the row's type size."""
    if " · " not in s:
        return s
    if theme.font(size, bold).size(printable(s))[0] * 0.75 <= width:
        return s
    return s.rsplit(" · ", 1)[1]


def draw_ticks(surface: pygame.Surface, s: str, rect: pygame.Rect, colour, tail: str = "",
               size: int | None = None) -> None:
    """A line of boxes (■ ticked, ▣ the one a choice would tick, □ free) drawn as squares (the
    bundled font has no such glyphs: a preview's "■▣□□ +3" came out as "#?-- +3", its ▣ a blank
    box), then `tail` ("+3") after them at `size`."""
    n = len(s)
    size = max(int(size or rect.height * 0.8), theme.min_text(theme.scale(surface)))
    tail_w = theme.font(size, True).size(" " + tail)[0] if tail else 0
    # boxes a quarter of their side apart, all inside `rect`
    side = min(rect.height * 6 // 10, int((rect.width - tail_w) / (n + 0.25 * (n - 1))) if n else 0)
    if side < 10:  # too small to see from across the table: say how many instead
        # (its shorter forms where "2/6" would be cut: four players' Pok'n Roll board at 320x240
        # was "..." in every cell)
        least = theme.font(theme.min_text(theme.scale(surface)), True)
        count = count_said(s, tail, lambda form: least.size(form)[0] <= rect.width)
        text(surface, count, rect.center, int(rect.height * 0.8), colour, bold=True,
             anchor="center", max_width=rect.width)
        return
    gap = max(1, side // 4)
    total = n * side + (n - 1) * gap + tail_w
    x = rect.centerx - total // 2
    y = rect.centery - side // 2
    for ch in s:
        box = pygame.Rect(x, y, side, side)
        if ch == "■":
            pygame.draw.rect(surface, colour, box, border_radius=2)
        elif ch == "▣":         # the box this choice would tick: a thick outline in the cell's colour
            pygame.draw.rect(surface, colour, box, max(2, side // 4), border_radius=2)
        else:       # (in GRID's grey, 2:1 on the panel, the free boxes left to tick all but vanished)
            pygame.draw.rect(surface, theme.BOX_FREE, box, max(1, side // 10), border_radius=2)
        x += side + gap
    if tail:
        text(surface, tail, (x - gap + tail_w, rect.centery), size, colour, bold=True,
             anchor="midright", max_width=tail_w)
