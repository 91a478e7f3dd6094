"""Players' names cut to fit their room, and still told apart.

A name too wide for its column is cut with an ellipsis, and the start of a name is what most
names share with another at a busy table: "Maximilian-Alexander" and "Maximilian-Alexandra"
were both drawn "Maxi..." over their score columns. Names that a cut would make alike keep
their ends as well ("Maxi...r", "Max...a"), and when no room keeps them apart (or the font
draws them alike: two names in a script it lacks are both "??"), their seat numbers do.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import pygame

from .draw import printable

ELLIPSIS = "..."


def distinct_cuts(names: Sequence[str], font: pygame.font.Font, widths: Sequence[int] | int,
                  seats: Sequence[int | None] | None = None) -> list[str]:
    """Each name as drawn in its width (one for all, or one each) with `font`: whole where it
    fits, else cut; different names are never given the same label. `seats`: each name's seat
    number (by default its place in `names`, 1 first), named where nothing else tells them apart;
    None for a column that is no player's (School's "Award": never numbered like a seat)."""
    room = (widths,) * len(names) if isinstance(widths, int) else tuple(widths)
    seat = tuple(seats) if seats is not None else tuple(range(1, len(names) + 1))
    return list(_distinct_cuts(tuple(names), font, room, seat))


@lru_cache(maxsize=256)     # (the sheet is drawn every frame with the same names)
def _distinct_cuts(names: tuple[str, ...], font: pygame.font.Font, room: tuple[int, ...],
                   seat: tuple[int | None, ...]) -> tuple[str, ...]:
    shown = [printable(n) for n in names]
    labels = [s if _fits(font, s, w) else _cut(font, s, "", w) for s, w in zip(shown, room)]
    for look in {_look(label) for label in labels}:
        # (grouped as drawn, not as written: "Ann" and "Аnn", whose А is Cyrillic, look alike)
        group = [i for i, label in enumerate(labels) if _look(label) == look]
        if len({names[i] for i in group}) > 1:
            for i, apart in zip(group, _apart([shown[i] for i in group], [room[i] for i in group],
                                              [seat[i] for i in group], font)):
                labels[i] = apart
    for i, label in enumerate(labels):
        if _names_another(label, shown[i], shown):
            labels[i] = _own_end(shown[i], room[i], seat[i], shown, font)
    return _numbered(labels, seat, font, room)


def _could_be(label: str, name: str) -> bool:
    """Whether `label` (a name cut "start...end") could be drawn for `name`."""
    if ELLIPSIS not in label:
        return label == name
    start, end = label.split(ELLIPSIS, 1)
    return name.startswith(start) and name.endswith(end) and len(name) >= len(start) + len(end)


def _names_another(label: str, name: str, names: Sequence[str]) -> bool:
    """Whether `label`, drawn for `name`, could as well be another of `names`: cut to different
    lengths in rooms of different widths (the standings, the score beside each name as wide as
    it is), "Maxim..." and "Maximili..." were not alike, and each could be either Maximilian."""
    return ELLIPSIS in label and any(other != name and _could_be(label, other) for other in names)


def _own_end(name: str, width: int, seat: int | None, names: Sequence[str], font: pygame.font.Font) -> str:
    """`name` cut in `width` with the shortest end that no other of `names` has, else with its
    seat number ("#3"), else as cut."""
    for tail in range(1, len(name)):
        label = _cut(font, name, name[-tail:], width)
        if not _fits(font, label, width) or label.startswith(ELLIPSIS):
            break
        if not _names_another(label, name, names):
            return label
    if seat is None:
        return _cut(font, name, "", width)
    return f"{name} #{seat}" if _fits(font, f"{name} #{seat}", width) else _cut(font, name, f"#{seat}", width)


def _numbered(labels: list[str], seats: tuple[int | None, ...], font: pygame.font.Font, room: tuple[int, ...]
              ) -> tuple[str, ...]:
    """Labels cut to no letter at all are their seat numbers where they fit ("#3" where each
    such one's does, else "3"): at 320x240 six players' columns were headed "..." each, and the
    menu calls the seats by their numbers."""
    bare = [i for i, label in enumerate(labels) if label.startswith(ELLIPSIS) and seats[i] is not None]
    mark = "#" if all(_fits(font, f"#{seats[i]}", room[i]) for i in bare) else ""
    out = list(labels)
    for i in bare:
        if _fits(font, f"{mark}{seats[i]}", room[i]):
            out[i] = f"{mark}{seats[i]}"
    return tuple(out)


def _apart(shown: list[str], room: list[int], seats: list[int | None], font: pygame.font.Font) -> list[str]:
    """Labels for names drawn alike: their starts and ends, the shortest ends that tell them
    apart; else (names alike to their ends, or no room) each cut with its seat number."""
    if _all_look_apart(shown):
        for tail in range(1, max(len(s) for s in shown)):
            labels = [s if _fits(font, s, w) else _cut(font, s, s[-tail:], w) for s, w in zip(shown, room)]
            if _all_look_apart(labels) and all(_fits(font, lb, w) for lb, w in zip(labels, room)):
                return labels
    return [s if n is None else f"{s} #{n}" if _fits(font, f"{s} #{n}", w) else _cut(font, s, f"#{n}", w)
            for s, w, n in zip(shown, room, seats)]


#: Cyrillic and Greek letters drawn as a Latin one (Unicode's confusables, TR 39, those of the
#: scripts the bundled font has): "Аnna" typed on a Russian keyboard is drawn as "Anna"
_SAME_AS_LATIN = str.maketrans(
    "АВЕЅІЈКМНОРСТХУаеіјорсухѕԁԛԝһӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧοναι",
    "ABESIJKMHOPCTXYaeijopcyxsdqwhlABEZHIKMNOPTYXovai")


def _look(s: str) -> str:
    """`s` as it looks: written with the Latin letters it is drawn like (case kept: "ann" and
    "Ann" look different), so that two labels drawn alike are one look."""
    return s.translate(_SAME_AS_LATIN)


def _all_look_apart(labels: Sequence[str]) -> bool:
    return len({_look(label) for label in labels}) == len(labels)


def _fits(font: pygame.font.Font, s: str, width: int) -> bool:
    return font.size(s)[0] <= width


def _cut(font: pygame.font.Font, s: str, tail: str, width: int) -> str:
    """The longest start of `s` that fits `width` followed by "..." and `tail` (just "..." and
    the tail when no start does: a seat number is worth more than a letter)."""
    lo, hi, best = 1, len(s) - len(tail) - 1, 0
    while lo <= hi:
        n = (lo + hi) // 2
        if _fits(font, s[:n].rstrip() + ELLIPSIS + tail, width):
            best, lo = n, n + 1
        else:
            hi = n - 1
    return s[:best].rstrip() + ELLIPSIS + tail
