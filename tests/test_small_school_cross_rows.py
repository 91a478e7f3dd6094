"""School's menu on a 320x240 panel: a row's label has 92 px beside its points, and "Cross Small
str." (103 px), "Cross Large str.", "Cross 4 of a kind", "Cross Full house", "Cross Two pairs"
were drawn cut ("Cross Small s..."): which row a player crosses, what OK does, unread. The game's
shorter names of those rows ("Sm. str.", "Lg. str.", "4 kind", "Full", "2 pairs") are drawn
where the longer ones do not fit; the sheet's labels keep their forms where those fit."""
from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from controller.bench_table import played_to
from controller.table import DECIDE
from display import draw
from display import render as render_module

from test_sheet_fits import cut_lines

NAMES = ["Ann", "Bob"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def school_menus(count: int) -> list:
    """The views of School's first `count` menus that offer to cross a row."""
    flow, rest = played_to("school", NAMES, 0.0)
    flow._enter_phase()
    views = []
    while rest and len(views) < count:
        view = flow.view(None)
        if flow.phase == DECIDE and view.prompt and any(o.label.startswith("Cross ") for o in view.prompt.options):
            views.append(view)
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    return views


def test_every_cross_row_is_drawn_whole_under_the_cursor(monkeypatch):
    """Each row of the menu, the cursor on it: on main "Cross Small str.", "Cross 4 of a kind",
    "Cross Full house", "Cross Two pairs" and "Cross Large str." were cut."""
    views = school_menus(6)
    assert views
    crossed: set[str] = set()
    for view in views:
        for i, opt in enumerate(view.prompt.options):
            if not opt.label.startswith("Cross ") or "col" in opt.label:
                continue
            options = tuple(replace(o, selected=(j == i)) for j, o in enumerate(view.prompt.options))
            cut = cut_lines(monkeypatch)
            chosen = replace(view, prompt=replace(view.prompt, options=options))
            render_module.render(pygame.Surface((320, 240)), chosen)
            monkeypatch.undo()
            crossed.add(opt.label)
            forms = {opt.label, *opt.short}
            assert not [s for s in cut if s in forms], (opt.label, cut)
    assert {"Cross Small straight", "Cross Four of a kind", "Cross Full house"} <= crossed, crossed


def test_the_sheets_labels_keep_their_longer_forms_where_they_fit(monkeypatch):
    """800x480 draws the game's own row names; 320x240 two players' sheet its "Small str."."""
    from test_sheet_fits import game_view, sheet_texts
    view = game_view("school", NAMES, 0.3)
    for size, expected in (((800, 480), {"Small straight", "Four of a kind", "Full house", "Two pairs"}),
                           ((320, 240), {"Small str.", "Large str.", "Two pairs"})):
        seen = sheet_texts(monkeypatch)
        render_module.render(pygame.Surface(size), view)
        monkeypatch.undo()
        drawn = {s for s, _ in seen}
        assert expected <= drawn, (size, sorted(drawn))
