"""The terminal's `sheet` command while a player decides: every value a cell may take.

A School cell is written by up to three options ("School 2" 8, "School 2, bank 1" 6, and its
cross). The terminal printed the best of them, "(8)", and a player who then typed the option
"School 2, bank 1" got 6: the sheet had promised a value no option under that name writes.
Here a cell written by several options prints each option's value, "(8/6)", and a line under
the sheet says which option writes which. Crosses are left out: every open cell may be crossed,
and the options' list says so.
"""
from __future__ import annotations

from dataclasses import replace

from .rules.base import Decide, GameState

Place = tuple[int, int, int]          # (table, row, cell) in a sheet


def _written(state: GameState, expect: Decide) -> dict[Place, list[tuple[str, str]]]:
    """Place -> [(option's label, what it writes there)], from the sheet with the cursor on each
    scoring option in turn (the one preview it highlights is that option's cell). A game whose
    sheet ignores the cursor highlights every preview for every option, with the same texts."""
    out: dict[Place, list[tuple[str, str]]] = {}
    for opt in expect.options:
        if opt.group == "cross":
            continue
        sheet = state.sheet_for(opt.key)
        for t, table in enumerate(sheet.tables):
            for r, row in enumerate(table.rows):
                for c, cell in enumerate(row.cells):
                    if cell.kind == "preview" and cell.highlight and cell.text:
                        out.setdefault((t, r, c), []).append((opt.label, cell.text))
    return out


def sheet_text(state: GameState, expect: object) -> str:
    """The sheet as the terminal prints it: a cell several options write shows their values
    ("8/6", the menu's order), and a line per such cell names the option of each value."""
    sheet = state.sheet()
    if not isinstance(expect, Decide):
        return sheet.to_text()
    several = {place: said for place, said in _written(state, expect).items()
               if len({text for _, text in said}) > 1}
    if not several:
        return sheet.to_text()
    tables = list(sheet.tables)
    lines = []
    for (t, r, c), said in sorted(several.items()):
        table = tables[t]
        rows = list(table.rows)
        cells = list(rows[r].cells)
        values = list(dict.fromkeys(text for _, text in said))
        cells[c] = replace(cells[c], text="/".join(values), short=())
        rows[r] = replace(rows[r], cells=tuple(cells))
        tables[t] = replace(table, rows=tuple(rows))
        column = table.columns[c] if c < len(table.columns) else str(c + 1)
        lines.append(f"{table.title}, {rows[r].label}, column {column}: "
                     + ", ".join(f"{label} writes {text}" for label, text in said))
    return replace(sheet, tables=tuple(tables)).to_text() + "\n" + "\n".join(lines)
