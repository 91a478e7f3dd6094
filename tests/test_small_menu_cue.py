"""The decision menu's scroll cue at 320x240 and 480x320: with the question over a menu drawn
whole, "more above" and "more below" found no room, and at 320x240 School's menu read "Throw 5
again", "School 6" and nothing else: every other row of the sheet was below, and nothing said so
(nor, once scrolled, that rows were above); at 480x320 "more above" was left off the same way.
Now a muted triangle in a margin beside the rows points up at the first row shown when rows are
hidden above, down at the last when rows are hidden below, where the words are not drawn.

Measured from the screen itself: the cue is every pixel of the muted colour in the prompt panel
outside the rect of every text drawn (the recorder of tests/test_small_*.py), in connected
pieces; a piece wider at its foot points up, wider at its head points down."""
from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
import pygame
import pytest

from controller.bench_table import played_to
from controller.table import DECIDE
from display import draw, theme
from display import render as render_module

from table_helpers import Press

NAMES = ["Ann", "Bob", "Cy"]
CAMERA = np.zeros((480, 640, 3), np.uint8)
SMALL = [(320, 240), (480, 320)]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def first_menu(game: str, fraction: float, secret: bool = False):
    """The first open decision menu at or after `fraction` of a game of Ann, Bob and Cy: with
    dice to hold, or (`secret`) a choice made in secret, opened with OK."""
    flow, rest = played_to(game, NAMES, fraction)
    flow._enter_phase()
    while rest:
        if flow.phase == DECIDE:
            view = flow.view(CAMERA)
            prompt = view.prompt
            if secret and prompt is not None and not prompt.options and "secret" in prompt.text:
                flow.on_button(Press("OK"))
                return flow.view(CAMERA)
            if not secret and prompt is not None and prompt.options and "HOLD" in prompt.hint:
                return view
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    raise AssertionError(f"{game}: no menu")


def cursor_at(view, i: int):
    """`view` with its menu's cursor on row `i`."""
    options = tuple(replace(o, selected=k == i) for k, o in enumerate(view.prompt.options))
    return replace(view, prompt=replace(view.prompt, options=options))


@dataclass
class Panel:
    texts: list[tuple[str, pygame.Rect, tuple]]       # every text drawn in the prompt panel: (s, rect, colour)
    window: tuple[int, int]                           # the menu's rows shown, [start, end)
    ups: list[pygame.Rect]                            # the cue's pieces pointing up
    downs: list[pygame.Rect]                          # and down
    highlight: pygame.Rect                            # the cursor's highlight

    def said(self, s: str) -> bool:
        return any(t == s for t, _, _ in self.texts)


def drawn(view, size, monkeypatch) -> Panel:
    """`view` drawn at `size`: its prompt panel's texts, menu window and cue, read off the screen."""
    surface = pygame.Surface(size)
    lower = render_module._columns_for(surface, view)[1]
    texts: list[tuple[str, pygame.Rect, tuple]] = []
    windows: list[tuple[int, int]] = []
    real_text, real_window = render_module.text, render_module.menu_window

    def text(surf, s, pos, size, colour=theme.TEXT, *a, **k):
        rect = real_text(surf, s, pos, size, colour, *a, **k)
        if lower.colliderect(rect):
            texts.append((s, rect, tuple(colour)))
        return rect

    def menu_window(*a, **k):
        windows.append(real_window(*a, **k))
        return windows[-1]

    monkeypatch.setattr(render_module, "text", text)
    monkeypatch.setattr(render_module, "menu_window", menu_window)
    render_module.render(surface, view)
    monkeypatch.undo()

    pixels = pygame.surfarray.array3d(surface).transpose(1, 0, 2)       # [y, x, rgb]
    inside = np.zeros(pixels.shape[:2], bool)
    inside[lower.top:lower.bottom, lower.left:lower.right] = True
    for _, rect, _ in texts:
        inside[rect.top:rect.bottom, rect.left:rect.right] = False
    muted = (pixels == np.array(theme.MUTED)).all(axis=2) & inside
    count, labels, stats, _ = cv2.connectedComponentsWithStats(muted.astype(np.uint8), connectivity=8)
    ups, downs = [], []
    for k in range(1, count):
        x, y, w, h, _ = stats[k]
        piece = labels[y:y + h, x:x + w] == k
        (ups if piece[0].sum() < piece[-1].sum() else downs).append(pygame.Rect(int(x), int(y), int(w), int(h)))

    # the cursor's highlight: the accent's pixels across the cursor's row (its label drawn on it)
    cursor = next(rect for s, rect, colour in texts if colour == tuple(theme.BG))
    accent = (pixels == np.array(theme.ACCENT)).all(axis=2)
    band = np.zeros_like(accent)
    band[cursor.top:cursor.bottom, lower.left:lower.right] = True
    ys, xs = np.nonzero(accent & band)
    highlight = pygame.Rect(int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1))
    return Panel(texts, windows[-1], ups, downs, highlight)


def rows_drawn(panel: Panel, view) -> list[pygame.Rect]:
    """The rects of the menu rows' texts drawn (labels in any form, notes, points), top to bottom."""
    below_question = max((r.bottom for s, r, c in panel.texts if c == tuple(theme.ACCENT)), default=0)
    rows = [r for s, r, c in panel.texts if r.top >= below_question - 2 and c != tuple(theme.ACCENT)
            and not s.startswith("more ") and s not in hint_lines(panel, view)]
    return sorted(rows, key=lambda r: r.top)


def hint_lines(panel: Panel, view) -> set[str]:
    """The hint's lines drawn (muted text that starts with a word of the hint: a button)."""
    words = set(view.prompt.hint.split()) - {"·"}
    return {s for s, _, c in panel.texts if c == tuple(theme.MUTED) and s.split()[0] in words}


def check_cue(view, size, monkeypatch) -> Panel:
    """The cue where rows are hidden and the words are not drawn, beside the first or last row
    shown, over no text and not on the cursor's highlight; no cue where they are not hidden."""
    panel = drawn(view, size, monkeypatch)
    start, end = panel.window
    rows = rows_drawn(panel, view)
    hidden_above = start > 0 and not panel.said("more above")
    hidden_below = end < len(view.prompt.options) and not panel.said("more below")
    assert len(panel.ups) == hidden_above, (panel.window, panel.ups, "up")
    assert len(panel.downs) == hidden_below, (panel.window, panel.downs, "down")
    for up in panel.ups:            # beside the first row shown (level with its text)
        assert up.top < rows[0].bottom and up.bottom > rows[0].top, (up, rows[0])
    for down in panel.downs:        # beside the last
        assert down.top < rows[-1].bottom and down.bottom > rows[-1].top, (down, rows[-1])
    for piece in panel.ups + panel.downs:
        assert piece.width >= 7 and piece.height >= 5, piece      # a triangle, not a speck
        assert piece.collidelist([r for _, r, _ in panel.texts]) < 0, (piece, panel.texts)
        assert not piece.colliderect(panel.highlight.inflate(2, 0)), (piece, panel.highlight)
    # the rows' own texts apart: the narrower rows put no label over its points
    for i, a in enumerate(rows):
        for b in rows[i + 1:]:
            if min(a.bottom, b.bottom) - max(a.top, b.top) > 4:        # on one line: side by side
                assert a.right <= b.left or b.right <= a.left, (a, b)
    return panel


#: (game, fraction, secret): a menu of each of the five games
MENUS = [("school", 0.0, False), ("school", 0.3, False), ("thirteen", 0.0, False), ("thirteen", 0.5, False),
         ("classic", 0.0, False), ("objective-cards", 0.02, False), ("objective-cards", 0.0, True)]


@pytest.mark.parametrize("size", SMALL)
@pytest.mark.parametrize("game,fraction,secret", MENUS)
def test_rows_hidden_below_are_cued(game, fraction, secret, size, monkeypatch):
    """Cursor on the first row: rows hidden below. On main: no 'more below' and nothing in its
    place at 320x240."""
    view = cursor_at(first_menu(game, fraction, secret), 0)
    panel = check_cue(view, size, monkeypatch)
    assert panel.window[1] < len(view.prompt.options), "this menu is longer than the panel"
    assert panel.downs or panel.said("more below")


@pytest.mark.parametrize("size", SMALL)
@pytest.mark.parametrize("game,fraction,secret", MENUS)
def test_rows_hidden_above_are_cued(game, fraction, secret, size, monkeypatch):
    """Cursor on the last row: rows hidden above. On main: nothing said so at 320x240 nor, for
    most menus, at 480x320."""
    view = first_menu(game, fraction, secret)
    view = cursor_at(view, len(view.prompt.options) - 1)
    panel = check_cue(view, size, monkeypatch)
    assert panel.window[0] > 0, "this menu is longer than the panel"
    assert panel.ups or panel.said("more above")


@pytest.mark.parametrize("size", SMALL)
@pytest.mark.parametrize("game,fraction,secret", MENUS)
def test_rows_hidden_both_ways_are_cued(game, fraction, secret, size, monkeypatch):
    """Cursor in the middle: rows hidden above and below, both cued."""
    view = first_menu(game, fraction, secret)
    view = cursor_at(view, len(view.prompt.options) // 2)
    panel = check_cue(view, size, monkeypatch)
    assert panel.window[0] > 0 and panel.window[1] < len(view.prompt.options)
    assert (panel.ups or panel.said("more above")) and (panel.downs or panel.said("more below"))


@pytest.mark.parametrize("size", SMALL)
@pytest.mark.parametrize("row", [0, 1])
def test_a_whole_menu_has_no_cue(row, size, monkeypatch):
    """Pok'n Roll's secret 'Abandon' / 'Continue': both rows shown, nothing cued."""
    view = cursor_at(first_menu("poknroll", 0.0, secret=True), row)
    panel = check_cue(view, size, monkeypatch)
    assert panel.window == (0, 2) and not panel.ups and not panel.downs


def test_school_at_320x240_says_its_menu_goes_on(monkeypatch):
    """The screen of the report: School's first menu at 320x240, 'Throw 5 again' and one row of the
    sheet, a triangle pointing down beside the second; scrolled two rows, up and down."""
    view = cursor_at(first_menu("school", 0.0), 0)
    panel = check_cue(view, (320, 240), monkeypatch)
    assert panel.said("Throw 5 again") and len(panel.downs) == 1 and not panel.ups
    view = cursor_at(view, 2)
    panel = check_cue(view, (320, 240), monkeypatch)
    assert panel.window == (1, 3) and len(panel.ups) == 1 and len(panel.downs) == 1


def first_menu_of(game: str, names: list[str]):
    """The first menu with dice to hold of a game of `names`."""
    flow, rest = played_to(game, names, 0.0)
    flow._enter_phase()
    while rest:
        if flow.phase == DECIDE:
            view = flow.view(CAMERA)
            if view.prompt is not None and view.prompt.options and "HOLD" in view.prompt.hint:
                return view
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    raise AssertionError(game)


@pytest.mark.parametrize("game", ["classic", "school", "thirteen"])
def test_the_cue_costs_no_label_its_form(game, monkeypatch):
    """The margin the cue takes is not taken off the labels: with two players (a narrower panel)
    'Throw 5 again' was cut to 'Throw 5 ag...' by a first version of this change, and School's
    'Cross Sm. str.' beside its '0'. Every row, the cursor on it at 320x240, is drawn in the form
    it has with the whole menu's width, whole where that form is."""
    from test_sheet_fits import cut_lines
    from display.menu_rows import menu_label

    view = first_menu_of(game, ["Ann", "Bob"])
    surface = pygame.Surface((320, 240))
    s = theme.scale(surface)
    lower = render_module._columns_for(surface, view)[1]
    width = lower.width - 2 * render_module._prompt_metrics(s)[0]
    font = theme.font(theme.min_text(s), True)
    cued = 0
    for i, option in enumerate(view.prompt.options):
        if option.note:
            continue
        form = menu_label(option, width, theme.min_text(s)).label
        cut = cut_lines(monkeypatch)
        panel = drawn(cursor_at(view, i), (320, 240), monkeypatch)
        cued += bool(panel.ups or panel.downs)
        assert panel.said(form), (form, [t for t, _, _ in panel.texts])
        if font.size(form)[0] <= int(width * 0.78):
            assert form not in cut, form
    assert cued >= len(view.prompt.options) // 2, "most of these screens draw the cue"


def note_menus(limit: int = 3):
    """Thirteen's first menus with a row that says what it does besides its points ('Aces: give
    up', '2 pairs: +10 early'), in a game of Ann and Bob."""
    flow, rest = played_to("thirteen", ["Ann", "Bob"], 0.0)
    flow._enter_phase()
    found = []
    while rest and len(found) < limit:
        if flow.phase == DECIDE:
            view = flow.view(CAMERA)
            if view.prompt is not None and any(o.note for o in view.prompt.options):
                found.append(view)
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    assert found
    return found


@pytest.mark.parametrize("size", SMALL)
def test_a_row_with_a_note_stays_in_the_panel(size, monkeypatch):
    """The cursor on each row with a note: every text of the panel inside it, none over another.
    A first version of this change measured the narrowed rows without the 4 px their points
    gave back: 'Aces: give up' beside its '0' went onto two lines at 320x240, 'give up' drawn
    22 px below the panel, or over 'UP/DOWN choose'; a second one drew no cue where 'Sixes: give
    up' would have taken two lines in the narrowed rows (21 of 4,221 screens at 320x240)."""
    for view in note_menus():
        for i, option in enumerate(view.prompt.options):
            if not option.note:
                continue
            shown = cursor_at(view, i)
            panel = check_cue(shown, size, monkeypatch)      # (cued as any row, "Sixes: give up" too)
            lower = render_module._columns_for(pygame.Surface(size), shown)[1]
            rects = [r for _, r, _ in panel.texts]
            assert all(lower.contains(r) for r in rects), (option.label, panel.texts)
            for k, r in enumerate(rects):
                assert r.collidelist(rects[k + 1:]) < 0, (option.label, panel.texts)
