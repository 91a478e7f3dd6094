"""How the setup menu shares its room between a row's label and value, and its foot with its rows.

A row drew its label in the left half and its value in the right half, whatever their lengths:
at 320x240 the house rules read "Two pairs accepts ful... yes", "Early close bonus pe... 5",
the value's half nearly empty, and a staff member could not tell the rules apart. A row now
gives its label the room its value leaves; only where the two do not fit together does the
shorter one keep its width (up to half) and the other take the rest, else they share as before.

Under a long banner (a config mistake's four lines at 320x240) the foot's hint was joined onto
one line and cut ("UP/DOWN choose · OK next · hold OK: start...") to keep a whole row's height
free above the rows, where the rows' top margin is half of one: the foot now keeps its lines
while the rows have their least height under that margin.
"""
from __future__ import annotations

from . import theme
from .draw import printable


def row_rooms(label: str, value: str, size: int, inner: int, gap: int) -> tuple[int, int]:
    """The widths a row's `label` (bold) and `value` may take in `inner` px, `gap` px apart, at
    type `size`: each whole where they fit together."""
    label_w = theme.font(size, True).size(printable(label))[0]
    value_w = theme.font(size).size(printable(value))[0]
    room = inner - gap
    if label_w + value_w <= room:
        return room - value_w, value_w
    half = room // 2
    if value_w <= half:
        return room - value_w, value_w
    if label_w <= half:
        return label_w, room - label_w
    return half, room - half


def rows_room(rows: int, least_row: int, top: int) -> int:
    """The height `rows` setup rows need at their least height under the panel's `top` margin."""
    return top + least_row * rows
