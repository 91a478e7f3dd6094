"""How wide a score table's column of row labels is drawn.

The labels' column used to stop at 42 % of the table, whatever the players' columns needed: at
320x240 Thirteen's two players' columns were 51 px wide for scores of two digits, while its
labels were cut to "3 of a ki...", "Full hou...", "Upper t..." (School's "One pai...", "No
even..."), and a player could not tell which box a row was. Now the labels take the room the
players' columns can spare: each column keeps what its widest number and its cells' shortest
forms need, and its name's first letters; what is left goes to the labels, up to their full
width. Where the columns have nothing to spare (four players and more at 320x240), and where the
labels already fit (800x480), the labels' column is as wide as before.
"""
from __future__ import annotations

from typing import Any, Sequence

from . import theme
from .draw import printable

# the least of a name a column keeps in its header before the labels may take its room: three
# letters, the ellipsis and its last letter ("Max...r") - one letter ("M...") told no two apart
HEAD_LETTERS = 3
# a label is drawn 4 px in and ends at its column's edge: the first column's text is centred in it,
# a name's clear room and a cell's margin away (a 6 px margin cut 320x240's widest label by 2 px)
LABEL_MARGIN = 4
CAP = 0.42                       # the labels' share of the table when the columns have no room to spare


def column_need(rows: Sequence[dict[str, Any]], columns: Sequence[str], least: int, word_clear: int) -> int:
    """The width one players' column needs at the screen's least type: its widest number (in a
    highlighted cell's outline), its cells' shortest forms, and its header's name cut to
    `HEAD_LETTERS` letters, `word_clear` spaces clear of the next name."""
    from .sheet import least_column, number_column      # (sheet imports this module)
    bold = theme.font(least, True)
    heads = [printable(name) for name in columns]
    # (and a last letter: names cut alike keep their ends, "Max...r" and "Max...a")
    head = max((bold.size(h if len(h) <= HEAD_LETTERS + 2 else h[:HEAD_LETTERS] + "..." + h[-1])[0] for h in heads),
               default=0)
    return max(number_column(list(rows), least), least_column(list(rows), least),
               head + max(4, word_clear * bold.size(" ")[0]))


def label_width(rows: Sequence[dict[str, Any]], columns: Sequence[str], width: int, size: int, s: float,
                word_clear: int) -> int:
    """The labels' column width in a table `width` px wide whose type is `size`: the labels' full
    width when it is within `CAP` of the table or the columns spare it, else as much as they
    spare (the labels shrink to the least type before they are cut), not less than `CAP` unless
    the columns' cells need it: then down to the labels' shortest forms."""
    labels = [row.get("label", "") for row in rows]
    want = max([theme.font(size).size(label)[0] for label in labels] + [0]) + max(int(12 * s), LABEL_MARGIN)
    cap = int(width * CAP)
    if want <= cap:
        return want
    spare = width - len(columns) * column_need(rows, columns, theme.min_text(s), word_clear)
    if spare >= cap:
        return min(want, spare)
    # the columns' cells short of room beside `CAP`: the labels give up to their shortest forms'
    # width for them (Classic's three players at 320x240: the labels kept 70 px for "Round 1",
    # the columns 32, and the winning hands in their outline were cut to "4..." and "A...")
    # (only where that gives every column its cells: four players' columns made 32 px wide held
    # their hands no better, and no longer few enough columns drawn to hold them)
    cells = width - len(columns) * cells_need(rows, theme.min_text(s))
    return cells if labels_least(rows, theme.min_text(s)) <= cells < cap else cap


def cells_need(rows: Sequence[dict[str, Any]], least: int) -> int:
    """The width a players' column needs for each of its cells' shortest forms on one line at
    the least type `least`, with the cell's margins as `draw_table` leaves them (wider in a
    highlighted cell's outline)."""
    def need(row: dict[str, Any], cell: dict[str, Any]) -> int:
        font = theme.font(least, "total" in (row.get("kind"), cell.get("kind")))
        return (min(font.size(printable(form))[0] for form in (cell["text"], *cell.get("short", ())) if form)
                + (10 if cell.get("highlight") else 4))
    return max((need(row, cell) for row in rows for cell in row.get("cells", ()) if cell.get("text")), default=0)


def labels_least(rows: Sequence[dict[str, Any]], least: int) -> int:
    """The width the labels' column needs for each label's shortest form at the least type
    `least` (a total's in bold), and the label's margin."""
    widest = max((min(theme.font(least, row.get("kind") == "total").size(printable(form))[0]
                      for form in (row.get("label", ""), *row.get("short", ())) if form)
                  for row in rows if row.get("label")), default=0)
    return widest + LABEL_MARGIN


def label_form(row: dict[str, Any], width: int, least: int, bold: bool = False) -> str:
    """The form of `row`'s label drawn in `width` px: the label itself where it fits at the least
    type `least` (the game's words first), else the first of the game's shorter forms that fits
    ("Lo. bonus" for "Bottom bonus"), else the shortest (cut when drawn). At 320x240 with three
    players and more, Thirteen's labels were cut to "Bottom...", "Extra 5...", "Bonus (...",
    School's to "Small s...", Classic's to "Round w...": starts that named no row."""
    return fitting_form(row.get("label", ""), row.get("short", ()), width, theme.font(least, bold))


def fitting_form(label: str, shorts: Sequence[str], width: int, font: Any) -> str:
    """`label` where it fits in `width` px in `font`, else the first of its shorter forms that
    fits, else the shortest (cut when drawn): the one choice the sheet's row labels and the
    menu's option labels both make."""
    shorts = [form for form in shorts if form]
    for form in (label, *shorts):
        if font.size(printable(form))[0] <= width:
            return form
    return shorts[-1] if shorts else label
