"""The players' names over a score sheet at 320x240 with three players and more (names of 12
letters): one line left each name 24 px between its neighbours', and every name was headed by
its first letter alone ("M...", "A...", "B..."). Now every other name goes on a second line and
has half of each neighbour's column too: "Maxi...", "Alexan...", "Bart...". Checked on the
names drawn (their text and where their ink lands), not on pixels."""
from __future__ import annotations

import pygame
import pytest

import importlib

from display import draw, theme
from display import render as render_module
from display import sheet as sheet_module
from display.label_room import HEAD_LETTERS

from test_sheet_fits import game_view

TWELVE = ["Maximilianus", "Alexandrinaa", "Bartholomews", "Christophers", "Evangelines", "Zoë Ångström"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def heads_drawn(view, size: tuple[int, int], monkeypatch) -> list[tuple[str, pygame.Rect, tuple]]:
    """Each name drawn over the sheet's columns: its text, its ink's rect, its colour."""
    heads: set[str] = set()
    drawn: list[tuple[str, pygame.Rect, tuple]] = []
    real_text, real_cuts = sheet_module.text, sheet_module.distinct_cuts

    def distinct_cuts(*args, **kwargs):
        cuts = real_cuts(*args, **kwargs)
        heads.update(cuts)
        return cuts

    def text(surface, s, pos, size, colour=theme.TEXT, bold=False, anchor="topleft", max_width=None, min_size=10):
        rect = real_text(surface, s, pos, size, colour, bold, anchor, max_width, min_size)
        if s in heads and bold and anchor == "center":
            floor = theme.min_text(theme.scale(surface))
            img = draw._render_fitted(s, max(int(size), floor), tuple(colour), True, max_width,
                                      max(int(min_size), floor))
            drawn.append((s, img.get_bounding_rect().move(rect.topleft), tuple(colour)))
        return rect

    monkeypatch.setattr(sheet_module, "text", text)
    monkeypatch.setattr(sheet_module, "distinct_cuts", distinct_cuts)
    try:        # (the names on two lines are cut there)
        monkeypatch.setattr(importlib.import_module("display.head_lines"), "distinct_cuts", distinct_cuts)
    except ImportError:
        pass
    render_module.render(pygame.Surface(size), view)
    return drawn


def letters(head: str, name: str) -> int:
    """How many of `name`'s letters `head` shows: all when whole, its start and end when cut,
    none for a seat number or another name's cut."""
    if head == name:
        return len(name)
    if "..." in head:
        start, end = head.split("...", 1)
        if name.startswith(start) and name.endswith(end):
            return len(start) + len(end)
    return 0


def shown_letters(head: str, names: list[str]) -> int:
    """The letters of its player's name a header shows (the name it could only be)."""
    return max(letters(head, name) for name in names)


CASES = [("thirteen", 3, 0.5), ("thirteen", 4, 0.5), ("thirteen", 6, 0.5), ("thirteen", 4, 1.0),
         ("classic", 6, 0.5), ("poknroll", 6, 0.5), ("objective-cards", 3, 0.5), ("objective-cards", 4, 0.5)]


@pytest.mark.parametrize("game,players,fraction", CASES)
def test_every_name_keeps_its_first_letters_at_320x240(game, players, fraction, monkeypatch):
    """No name over a column is cut to fewer than three letters ("M..." told no one which
    column was theirs); the names drawn do not run into each other (a word space apart on a
    line, and the lines' ink apart)."""
    names = TWELVE[:players]
    view = game_view(game, names, fraction)
    # (a name's, or its seat number's: a cell's "2" in bold may be cut alike)
    drawn = [d for d in heads_drawn(view, (320, 240), monkeypatch) if shown_letters(d[0], names) or "#" in d[0]]
    assert drawn          # (one, whole, where a window shows one column: six at Pok'n Roll)
    short = [h for h, _, _ in drawn if shown_letters(h, names) < HEAD_LETTERS]
    assert not short, [h for h, _, _ in drawn]
    space = theme.font(20, True).size(" ")[0]
    for i, (a, ra, _) in enumerate(drawn):
        for b, rb in [(b, rb) for b, rb, _ in drawn[i + 1:]]:
            assert not ra.inflate(space * 2, 0).colliderect(rb), (a, ra, b, rb)


@pytest.mark.parametrize("game,players", [("thirteen", 3), ("thirteen", 6), ("classic", 4)])
def test_the_acting_players_name_is_on_the_line_over_its_underline(game, players, monkeypatch):
    """On two lines, the acting player's name (in the accent colour) is on the second, right over
    the underline that marks it: on the first, the underline under the line between read as
    the underline of the name under it."""
    view = game_view(game, TWELVE[:players], 0.5)
    drawn = heads_drawn(view, (320, 240), monkeypatch)
    acting = [r for _, r, colour in drawn if colour == tuple(theme.ACCENT)]
    assert len(acting) == 1
    assert acting[0].bottom == max(r.bottom for _, r, _ in drawn)


@pytest.mark.parametrize("size", [(800, 480), (1024, 600)])
@pytest.mark.parametrize("game,players", [("thirteen", 4), ("thirteen", 6), ("classic", 6)])
def test_one_line_where_the_columns_hold_the_names(game, players, size, monkeypatch):
    """At 800x480 and 1024x600 the names keep their first letters on one line: the header stays
    one line, as before."""
    names = TWELVE[:players]
    drawn = heads_drawn(game_view(game, names, 0.5), size, monkeypatch)
    assert len(drawn) >= 2
    assert max(r.top for _, r, _ in drawn) < min(r.bottom for _, r, _ in drawn)     # (one line's ink)


@pytest.mark.parametrize("game,players", [("classic", 3), ("poknroll", 3)])
def test_one_line_where_a_second_would_leave_off_a_row_of_a_table_shown_whole(game, players, monkeypatch):
    """Classic's rounds and Pok'n Roll's board of three at 320x240 show every row under a header of
    one line: the second line would leave off a row (a round's hands, a line of the board), so
    the names stay on one line ("M...", "A...", "B..."), as before."""
    view = game_view(game, TWELVE[:players], 0.5)
    seen: list[str] = []
    real = sheet_module.text

    def text(surface, s, *args, **kwargs):
        seen.append(s)
        return real(surface, s, *args, **kwargs)

    drawn = heads_drawn(view, (320, 240), monkeypatch)
    monkeypatch.setattr(sheet_module, "text", text)
    draw._TEXT_CACHE.clear()
    render_module.render(pygame.Surface((320, 240)), view)
    rows = [row for table in view.sheet["tables"][:1] for row in table["rows"]]
    assert all({row["label"], *row.get("short", ())} & set(seen) for row in rows)
    assert max(r.top for _, r, _ in drawn) < min(r.bottom for _, r, _ in drawn)
