"""The form of a score table's title drawn in a narrow sheet.

School's player sheets are titled "Alexandrinaa (to play) — no awards": at 320x240 the title
was cut before "no awards", and a player barred from the row and column awards was not told
so. A title is drawn whole where it fits, else the first of the game's shorter forms that fits
("Alexandrinaa: no awards"), else the last with the player's name it starts with cut apart from
the other players' ("Maxim...s: no awards"), so that what follows the name stays whole.
"""
from __future__ import annotations

from typing import Sequence

from . import theme
from .draw import printable
from .label_room import fitting_form
from .labels import distinct_cuts


def title_form(title: str, shorts: Sequence[str], players: Sequence[str], width: int, least: int) -> str:
    """`title` or the form of it drawn in `width` px (bold, at the least type `least`)."""
    font = theme.font(least, True)
    form = fitting_form(title, shorts, width, font)
    if font.size(printable(form))[0] <= width:
        return form
    name = max((p for p in players if form.startswith(p)), key=len, default=None)
    if name is None:
        return form
    rest = font.size(printable(form[len(name):]))[0]
    cut = distinct_cuts(list(players), font, max(1, width - rest))[list(players).index(name)]
    return cut + form[len(name):]
