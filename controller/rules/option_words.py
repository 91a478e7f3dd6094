"""Shorter forms of a School option's label, for a menu too narrow for the label itself.

At 320x240 the decision menu cut School's labels to "School 2, ba..." and "School 2 (co...": the
options of one row (its banks, its columns) read alike and the player could not tell which one
the cursor was on. The short forms keep every part that tells two options apart (the row, the
column, the bank, the cross) and shorten the words around them: "S2 bank 1", "S2 col 2",
"S2 c2 b1". The screen draws the first that fits (`display.menu_rows.menu_label`).
"""
from __future__ import annotations

from typing import Sequence


def option_forms(names: Sequence[str], column: int | None, bank: int, cross: bool) -> tuple[str, ...]:
    """The forms of an option's label, longest first, without repeats: `names` the row's name
    from longest to shortest ("School 2", "S2"), `column` the column it fills (1-3) where the
    label names one, `bank` the dice it banks (0: none), `cross` whether it crosses the row.
    The row's name is shortened first, then the column's word, then the bank's."""
    wheres = [f" col {column}", f" c{column}"] if column else [""]
    banks = [f" bank {bank}", f" b{bank}"] if bank else [""]
    prefix = "Cross " if cross else ""
    steps = [(n, 0, 0) for n in range(len(names))]
    steps += [(len(names) - 1, w, 0) for w in range(1, len(wheres))]
    steps += [(len(names) - 1, len(wheres) - 1, b) for b in range(1, len(banks))]
    forms: list[str] = []
    for n, w, b in steps:
        form = prefix + names[n] + wheres[w] + banks[b]
        if form not in forms:
            forms.append(form)
    return tuple(forms)
