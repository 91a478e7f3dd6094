"""Players' names as the screen draws them: different players never look alike, however their
names are cut to fit (a busy café: eight long names, names alike but for their ends, names in a
script the font lacks)."""
from __future__ import annotations

import numpy as np
import pygame
import pytest

from display import render as render_module
from display import sheet as sheet_module
from display import theme
from display.draw import printable
from display.labels import distinct_cuts
from display.view import PromptView, Standing, TableView

SIZES = [(320, 240), (800, 480), (1920, 1080)]
ALIKE = [
    ("Maximilian-Alexander", "Maximilian-Alexandra"),     # alike but for their ends
    ("Anne-Charlotte Dupont", "Anne-Charlotte Durand"),
    ("日本", "한국"),                                       # both "??" in the bundled font
    ("Ann-Marie Lee", "Ann-Maria Lee"),                    # alike but in the middle
]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


def drawn(monkeypatch, module) -> list[tuple[str, np.ndarray]]:
    """Every line `module` draws with `text`, with its ink as drawn (a mask: colour aside)."""
    seen: list[tuple[str, np.ndarray]] = []
    real = module.text

    def text(surface, s, pos, size, colour=theme.TEXT, **kw):
        before = surface.copy()
        rect = real(surface, s, pos, size, colour, **kw).clip(surface.get_rect())
        a = pygame.surfarray.array3d(surface.subsurface(rect))
        b = pygame.surfarray.array3d(before.subsurface(rect))
        seen.append((s, (a != b).any(axis=2)))
        return rect

    monkeypatch.setattr(module, "text", text)
    return seen


def alike(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool((a == b).all())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("pair", ALIKE, ids=lambda p: p[0])
def test_two_players_names_over_the_sheet_never_look_alike(monkeypatch, size, pair):
    """Eight players' columns (Classic's most) in the sheet's room: names cut to fit were cut to
    their common start, "Maximilian-Alexander" and "Maximilian-Alexandra" both "Maxi..."."""
    names = list(pair) + ["Bob", "Cy", "Dee", "Eve", "Flo", "Gus"]
    table = {"columns": names, "rows": [{"label": "Round 1", "cells": [{"text": "3", "kind": "score"}] * 8}]}
    surface = pygame.Surface(size)
    s = theme.scale(surface)
    seen = drawn(monkeypatch, sheet_module)
    sheet_module.draw_table(surface, table, pygame.Rect(0, 0, int(size[0] * 0.55), size[1]), s, names)
    heads = seen[:len(names)]
    assert not alike(heads[0][1], heads[1][1]), [h for h, _ in heads[:2]]
    assert all(h[1].any() for h in heads), "a name drawn as nothing"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("pair", ALIKE, ids=lambda p: p[0])
def test_tied_winners_never_look_alike_in_the_standings(monkeypatch, size, pair):
    """Two players tied first, their names cut in the standings' room: "1. Maximil..." twice."""
    standings = (Standing(pair[0], 4, 1, True), Standing(pair[1], 4, 1, True), Standing("Bob", 2, 3))
    view = TableView("final", "Classic: final standings", "Game over", standings=standings,
                     sheet={"players": [pair[0], "Bob", pair[1]], "tables": []},
                     prompt=PromptView("", "", hint="OK: a new game"))
    seen = drawn(monkeypatch, render_module)
    render_module.render(pygame.Surface(size), view)
    lines = [(s, ink) for s, ink in seen if s.startswith("1. ")]
    assert len(lines) == 2
    assert not alike(lines[0][1], lines[1][1]), [s for s, _ in lines]
    winners = [s for s, _ in seen if s.startswith("Winners")]
    if winners:     # (at 320x240 the line is wrapped: the first part says only "Winners:")
        names = printable(winners[0]).removeprefix("Winners: ").split(", ")
        assert len(set(names)) == len(names), winners[0]


@pytest.mark.parametrize("names, width, labels", [
    (["Maximilian-Alexander", "Maximilian-Alexandra", "Bob"], 90, ["Maximilia...r", "Maximilia...a", "Bob"]),
    (["Ann-Marie Lee", "Ann-Maria Lee"], 80, ["Ann-Marie...", "Ann-Maria..."]),   # their cuts differ already
    (["Ann-Marie Lee", "Ann-Maria Lee"], 40, ["A...#1", "A...#2"]),               # alike to their ends
    (["日本", "한국", "Ann"], 400, ["?? #1", "?? #2", "Ann"]),
    (["Ann", "ann", "ANN"], 400, ["Ann", "ann", "ANN"]),
    (["Ann", "Ann"], 400, ["Ann", "Ann"]),           # one player named twice: nothing to tell apart
    (["Ann", "Bob", "Christopher"], 16, ["#1", "#2", "#3"]),   # no letter fits: the seat numbers
    (["Ann", "Bob"], 12, ["1", "2"]),
    (["Ann", "Bob", "Cyd", "Dee"], 14, ["1", "2", "3", "4"]),   # "#1" fits 14 px, "#2" not: all alike
])
def test_names_are_cut_apart(names, width, labels):
    font = theme.font(20, True)
    got = distinct_cuts(names, font, width)
    assert got == labels
    assert all(font.size(g)[0] <= width for g in got)


@pytest.mark.parametrize("size", SIZES[1:], ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_players_total_in_the_footer_with_six_long_names(size):
    """School's sheet shows the acting player's table and the totals in a footer of two lines:
    six long names cut the second line, and the last player's total with it."""
    names = ["Maximilian-Alexander", "Maximilian-Alexandra", "Anne-Charlotte Dupont", "Bartholomew",
             "Christopher-Robin", "Jean-Baptiste"]
    totals = [499, 455, 543, 481, 448, 479]
    sheet = {"players": names, "totals": totals, "tables": []}
    hidden = [{"title": "Totals", "columns": names}]
    s = theme.scale(pygame.Surface(size))
    width = int(size[0] * 0.55)
    size_px = sheet_module.footer_size(sheet, pygame.Rect(0, 0, width, 100), s)
    lines = sheet_module.footer_lines(sheet, hidden, width, size_px)
    font = theme.font(size_px)
    assert len(lines) <= 2 and all(font.size(line)[0] <= width for line in lines), lines
    parts = " · ".join(lines).removeprefix("Totals: ").split(" · ")
    assert [p.rsplit(" ", 1)[1] for p in parts] == [str(t) for t in totals]
    assert len({p.rsplit(" ", 1)[0] for p in parts}) == 6


@pytest.mark.parametrize("size", SIZES[1:], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_cell_naming_a_player_never_names_two_alike(monkeypatch, size):
    """Objective cards says who captured a card ("captured by Eve", short "to Eve"): with five
    long names at 800x480 "to Maximilian-Alexander" and "to Maximilian-Alexandra" were both
    drawn "to Max...", the one thing the cell is there to say cut off."""
    names = ["Maximilian-Alexander", "Maximilian-Alexandra", "Anne-Charlotte Dupont", "Bartholomew",
             "Christopher-Robin"]
    cells = [{"text": f"captured by {n}", "kind": "cross", "short": [f"to {n}"]} for n in names[:2]]
    table = {"columns": names, "rows": [{"label": "Two pairs (3)", "cells": cells + [{}] * 3}]}
    surface = pygame.Surface(size)
    s = theme.scale(surface)
    seen = drawn(monkeypatch, sheet_module)
    sheet_module.draw_table(surface, table, pygame.Rect(0, 0, int(size[0] * 0.55), int(60 * s)), s, names)
    rest = seen[len(names) + 1:]                     # after the header and the row's label: the two cells
    half = len(rest) // 2
    assert len(rest) == 2 * half and half
    first, second = rest[:half], rest[half:]
    assert not all(alike(a[1], b[1]) for a, b in zip(first, second)), [t for t, _ in rest]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_long_name_in_the_standings_stays_clear_of_its_score(monkeypatch, size):
    """At 320x240 "1. Maximili..." was drawn up to its score: "Maximili...381"."""
    standings = (Standing("Maximilian-Alexander", 381, 1, True), Standing("Bartholomew-Christopher", 1204, 2))
    view = TableView("final", "Thirteen: final standings", "Game over", standings=standings,
                     prompt=PromptView("", "", hint="OK: a new game"))
    rects: list[tuple[str, pygame.Rect]] = []
    real = render_module.text

    def text(surface, s, *a, **kw):
        rect = real(surface, s, *a, **kw)
        rects.append((s, rect))
        return rect

    monkeypatch.setattr(render_module, "text", text)
    render_module.render(pygame.Surface(size), view)
    for st in standings:
        name = next(r for s, r in rects if s.startswith(f"{st.place}. "))
        score = next(r for s, r in rects if s == str(st.score))
        assert name.right + 4 <= score.left, (st, name, score)


def test_a_players_name_is_not_looked_for_inside_the_games_words():
    """Only a name where the games write one is cut apart: "in hand" stays "in hand" at a table
    with players called "in" and "hand"."""
    players = ("in", "hand", "Maximilian-Alexander", "Maximilian-Alexandra")
    assert sheet_module.names_cut(("in hand",), players, 20, False, 10) == ()
    cut = sheet_module.names_cut(("captured by Maximilian-Alexander", "to Maximilian-Alexander"), players,
                                 20, False, 80)
    assert len(cut) == 1 and cut[0].startswith("to ") and cut[0].endswith("r")


def test_a_column_that_is_no_players_is_never_numbered_like_a_seat(monkeypatch):
    """School's own sheet has columns 1, 2, 3 (its throws), Award and Info: at 320x240 "Award"
    and "Info" were headed "4" and "5", as if they were more throws."""
    table = {"columns": ["1", "2", "3", "Award", "Info"],
             "rows": [{"label": "School 1", "cells": [{"text": "3", "kind": "score"}] * 5}]}
    surface = pygame.Surface((320, 240))
    seen = drawn(monkeypatch, sheet_module)
    sheet_module.draw_table(surface, table, pygame.Rect(0, 0, 150, 200), theme.scale(surface), ["Ann", "Bob"])
    heads = [s for s, _ in seen[:5]]
    assert heads[:3] == ["1", "2", "3"] and not any(h.lstrip("#").isdigit() for h in heads[3:]), heads
