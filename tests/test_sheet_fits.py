"""A score sheet on a small screen, as players read it: every row it draws inside its panel (the
Total among them), nothing over the totals footer, and no score cut to "..." in a narrow column.
Checked on the text drawn (its ink, where it lands), not on pixels."""
from __future__ import annotations

import dataclasses
import re

import pygame
import pytest

from controller.bench_table import played_to
from controller.table import DECIDE
from display import draw
from display import render as render_module
from display import sheet as sheet_module
from display import theme
from display.row_fit import rows_shown
from display.view import MessageView, TableView

LONG = ["Maximilian-Alexander", "Maximilian-Alexandra", "A", "Zoë Ångström-Núñez", "Bartholomew",
        "Christopher-Robin"]
SHORT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def cut_lines(monkeypatch) -> list[str]:
    """Every line the screen cuts with an ellipsis from now on (as written, before the cut)."""
    cut: list[str] = []
    real = draw._cut_to_fit

    def cut_to_fit(s, *a, **k):
        cut.append(s)
        return real(s, *a, **k)

    monkeypatch.setattr(draw, "_cut_to_fit", cut_to_fit)
    return cut



@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def game_view(game: str, names: list[str], fraction: float, seed: int = 5) -> TableView:
    """The table's view of `game` played by automatic players to `fraction` of its inputs, then
    on to the next decision (1.0: the final standings)."""
    flow, rest = played_to(game, names, fraction, seed)
    while flow.phase != DECIDE and rest:
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    flow._enter_phase()
    return flow.view(None)


def sheet_texts(monkeypatch) -> list[tuple[str, pygame.Rect]]:
    """Every line the sheet draws from now on, with its ink's rect on screen."""
    seen: list[tuple[str, pygame.Rect]] = []
    real = sheet_module.text

    def text(surface, s, pos, size, colour=theme.TEXT, bold=False, anchor="topleft", max_width=None, min_size=10):
        rect = real(surface, s, pos, size, colour, bold, anchor, max_width, min_size)
        floor = theme.min_text(theme.scale(surface))
        img = draw._render_fitted(s, max(int(size), floor), tuple(colour), bold, max_width, max(int(min_size), floor))
        if rect.width and s.strip():
            seen.append((s, img.get_bounding_rect().move(rect.topleft)))
        return rect

    monkeypatch.setattr(sheet_module, "text", text)
    return seen


def sheet_rect(surface: pygame.Surface, view: TableView) -> pygame.Rect:
    """The sheet's panel on this screen (under the final screen's banner when it is there)."""
    s, _, body = render_module._frame(surface)
    if view.mode == "play":
        return render_module._columns_for(surface, view)[2]
    _, right = render_module._final_columns(body, s)
    if view.message:
        used = render_module._banner_layout(view.message, right.width, s)[2]
        right = pygame.Rect(right.x, right.y + used, right.width, right.height - used)
    return right


SCREENS = [("thirteen", SHORT[:1], 0.5), ("thirteen", LONG[:6], 0.5), ("thirteen", LONG[:6], 1.0),
           ("school", SHORT[:1], 0.5), ("school", LONG[:6], 0.5), ("classic", SHORT + ["Gus", "Hal"], 0.5)]


@pytest.mark.parametrize("game,names,fraction", SCREENS)
def test_every_row_drawn_is_inside_the_sheets_panel_and_the_total_is_among_them(game, names, fraction,
                                                                              monkeypatch):
    """At 320x240 the rows were drawn on past the panel's foot, at their least height: Thirteen's
    last two ("Extra 5 of a kind", "Total") were never drawn, School lost five of its rows,
    Classic of 8 players its "Round wins". The rows that fit are drawn, the totals always."""
    view = game_view(game, names, fraction)
    surface = pygame.Surface((320, 240))
    seen = sheet_texts(monkeypatch)
    render_module.render(surface, view)
    panel = sheet_rect(surface, view)
    outside = [(s, r) for s, r in seen if not panel.contains(r)]
    assert not outside, outside[:5]
    first = view.sheet["tables"][0]
    total = first["rows"][-1]["label"]
    # (by its label or the game's shorter form of it: Classic's "Wins" for "Round wins")
    assert any(s in (total, *first["rows"][-1].get("short", ())) for s, _ in seen), f"{total!r} not drawn"


def test_the_totals_footer_is_never_drawn_over_the_boards_rows(monkeypatch):
    """Pok'n Roll's final screen at 320x240, a tie-break over the sheet: the board's rows went on
    under "Totals: Ann 66 · Bob 63", the two texts one over the other."""
    view = game_view("poknroll", SHORT[:4], 1.0)
    view = dataclasses.replace(view, message=MessageView(
        "Tie-break: Cy, Dee tied on 39 points; most '3ème tour remporté' boxes ranks first", "info"))
    surface = pygame.Surface((320, 240))
    lines: list[str] = []
    real_lines = sheet_module.footer_lines
    monkeypatch.setattr(sheet_module, "footer_lines", lambda *a: lines.extend(real_lines(*a)) or real_lines(*a))
    seen = sheet_texts(monkeypatch)
    render_module.render(surface, view)
    footer = [(s, r) for s, r in seen if s in lines]
    assert footer
    top = min(r.top for _, r in footer)
    rows = [(s, r) for s, r in seen if (s, r) not in footer]
    over = [s for s, r in rows if r.bottom > top]
    assert not over, over


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
@pytest.mark.parametrize("game,names,fraction", [("thirteen", LONG[:6], 0.5), ("thirteen", LONG[:6], 1.0),
                                                 ("poknroll", LONG[:6], 1.0), ("school", LONG[:6], 0.9),
                                                 ("objective-cards", SHORT[:5], 1.0)])
def test_no_score_is_cut_and_no_name_over_a_column_fits_two_players(game, names, fraction, size, monkeypatch):
    """Six players' Thirteen at 320x240 had every score of two digits and every total drawn "...":
    the columns are narrower than "138". Where the columns do not hold their numbers whole, the
    acting player's and the next ones are drawn (*2-4 of 6*), their numbers whole. A name over a
    column is never a cut that another player's name would give too."""
    view = game_view(game, names, fraction)
    cut = cut_lines(monkeypatch)
    seen = sheet_texts(monkeypatch)
    render_module.render(pygame.Surface(size), view)
    assert not [s for s in cut if re.fullmatch(r"[+-]?\d+", s)]
    players = view.sheet["players"]
    alike = [s for s, _ in seen if s.endswith("...") and sum(p.startswith(s[:-3]) for p in players) > 1]
    assert not alike


def test_rows_shown_keep_the_totals_and_the_cursors_row():
    rows = [{"label": f"r{i}", "kind": "normal", "cells": []} for i in range(10)]
    rows += [{"label": "Total", "kind": "total", "cells": []}]
    assert rows_shown(rows, 11) == list(range(11))
    assert rows_shown(rows, 4) == [0, 1, 2, 10]
    rows[7]["cells"] = [{"text": "+5", "kind": "preview", "highlight": True}]
    assert rows_shown(rows, 4) == [6, 7, 8, 10]
    assert rows_shown(rows, 1) == [7]
    assert rows_shown(rows, 0) == []


@pytest.mark.parametrize("size", [(320, 240), (480, 320), (800, 480)])
def test_the_winners_heading_never_names_the_winner_as_another_player_could_be_named(size, monkeypatch):
    """Maximilian-Alexander won, Maximilian-Alexandra came second: at 320x240 the heading read
    "Winner: Maximilian-Alex...", cut at the line's end, which names either. The name is cut
    apart from every player's ("Maximili...r"), as the standings under it are."""
    from display.view import PromptView, Standing

    names = LONG[:4]
    standings = [Standing(name, 300 - 10 * i, i + 1, i == 0) for i, name in enumerate(names)]
    view = TableView("final", "Thirteen: final standings", "Game over", standings=tuple(standings),
                     sheet={"players": names, "tables": []}, prompt=PromptView("", "", hint="OK: a new game"))
    cut: list[str] = []
    real_cut = draw._cut_to_fit
    monkeypatch.setattr(draw, "_cut_to_fit", lambda s, *a, **k: cut.append(s) or real_cut(s, *a, **k))
    drawn: list[str] = []
    real_text = render_module.text
    monkeypatch.setattr(render_module, "text", lambda surface, s, *a, **k: drawn.append(s) or real_text(surface, s,
                                                                                                        *a, **k))
    render_module.render(pygame.Surface(size), view)
    assert not [s for s in cut if any(name in s for name in names)], cut
    heading = [s for s in drawn if not s[0].isdigit() and s not in ("OK: a new game", "Game over")][1:]
    alike = [s for s in heading if "..." in s and sum(n.startswith(s.split("...")[0]) and n.endswith(s.split("...")[1])
                                                     for n in names) > 1]
    assert heading and not alike, heading


def could_be(label: str, name: str) -> bool:
    """Whether a label drawn for a player ("Maxi...r", "Maxim...", "A") could be `name`."""
    if "..." not in label:
        return label == name
    start, end = label.split("...", 1)
    return name.startswith(start) and name.endswith(end)


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
def test_no_name_in_the_standings_could_be_another_players(size, monkeypatch):
    """Objective cards' five long names at 320x240: each standing's name is cut to the room its
    score leaves it, so "4. Maxim... -10968" and "5. Maximili... 8226" were cut apart (not
    alike) and yet each could be either Maximilian. Each now keeps an end of its own."""
    from display.view import PromptView, Standing

    names = ["Zoë Ångström-Núñez", "Bartholomew", "A", "Maximilian-Alexander", "Maximilian-Alexandra"]
    scores = [26049, -15081, 10968, -10968, 8226]
    standings = [Standing(name, score, i + 1, i == 0) for i, (name, score) in enumerate(zip(names, scores))]
    view = TableView("final", "Objective cards: final standings", "Game over", standings=tuple(standings),
                     sheet={"players": names, "tables": []}, prompt=PromptView("", "", hint="OK: a new game"))
    drawn: list[str] = []
    real_text = render_module.text
    monkeypatch.setattr(render_module, "text", lambda surface, s, *a, **k: drawn.append(s) or real_text(surface, s,
                                                                                                        *a, **k))
    render_module.render(pygame.Surface(size), view)
    labels = {st.place: line.split(". ", 1)[1] for st in standings for line in drawn
              if line.startswith(f"{st.place}. ")}
    assert len(labels) == len(names)
    readings = {place: [n for n in names if could_be(label, n)] for place, label in labels.items()}
    assert all(found == [names[place - 1]] for place, found in readings.items()), (labels, readings)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_names_over_the_columns_stand_a_word_space_apart(size, monkeypatch):
    """School's scores table of four long names at 1920x1080 was headed "Maximilian-Alexan...r
    Maximilian-Alexan...a", each name cut to its column's full width, 4 px from the next: read
    as one name. Names over neighbouring columns are now at least two word spaces apart."""
    view = game_view("school", LONG[:4], 0.5)
    seen = sheet_texts(monkeypatch)
    surface = pygame.Surface(size)
    render_module.render(surface, view)
    space = theme.font(theme.min_text(theme.scale(surface)), True).size(" ")[0]
    heads = [(s, r) for s, r in seen if any(could_be(s, n) for n in LONG[:4])]
    rows: dict[int, list[pygame.Rect]] = {}
    for _, r in heads:
        rows.setdefault(r.centery // 8, []).append(r)
    assert heads
    gaps = [b.left - a.right for line in rows.values() for a, b in zip(sorted(line, key=lambda r: r.x),
                                                                      sorted(line, key=lambda r: r.x)[1:])]
    assert gaps and min(gaps) >= 2 * space, (gaps, [s for s, _ in heads])


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
@pytest.mark.parametrize("game,players", [("classic", 8), ("classic", 6), ("objective-cards", 5)])
def test_no_cell_is_drawn_as_a_bare_ellipsis(game, players, size, monkeypatch):
    """Eight players' Classic at 480x320: the columns held a digit, so all eight were drawn, and
    every hand of the sheet ("3xQ", "K+10") was drawn "...". Where a cell would keep not even
    a letter, the columns drawn are those that hold the cells whole (*1-4 of 8*)."""
    view = game_view(game, (SHORT + ["Gus", "Hal"])[:players], 0.5)
    bare: list[str] = []
    real_cut = draw._cut_to_fit

    def cut_to_fit(s, f, colour, max_width):
        img = real_cut(s, f, colour, max_width)
        if img.get_width() <= f.size("...")[0]:
            bare.append(s)
        return img

    monkeypatch.setattr(draw, "_cut_to_fit", cut_to_fit)
    render_module.render(pygame.Surface(size), view)
    cells = {form for table in view.sheet["tables"] for row in table["rows"] for cell in row["cells"]
             for form in (cell.get("text"), *cell.get("short", ()))}
    assert not [s for s in bare if s in cells], bare


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
@pytest.mark.parametrize("acting", ["Maximilian-Alexander", "Maximilian-Alexandra"])
def test_the_prompt_names_the_acting_player_as_no_other_could_be_named(acting, size, monkeypatch):
    """At 320x240 the prompt of a secret choice began "Maximilian-Alex..." (the name wrapped
    alone on a line and cut at its end), and its hint the same: either Maximilian could be the
    one to press OK. The acting player's name is cut apart from the others' ("Maximilian-...a")."""
    from display.view import PromptView

    view = TableView("play", "Objective cards", "", sheet={"players": LONG[:5], "tables": []},
                     prompt=PromptView(acting, f"{acting}: your choice is secret. Everyone else, please look away.",
                                       hint=f"{acting}: press OK to see your choices"))
    shown: list[str] = []

    def cut_to_fit(s, f, colour, max_width):          # (draw._cut_to_fit, saying what it drew)
        best = next((s[:n].rstrip() + "..." for n in range(len(s) - 1, -1, -1)
                     if f.size(s[:n].rstrip() + "...")[0] <= max_width), "")
        shown.append(best)
        return f.render(best, True, colour)

    monkeypatch.setattr(draw, "_cut_to_fit", cut_to_fit)
    drawn: list[str] = []
    real_text = render_module.text
    monkeypatch.setattr(render_module, "text", lambda surface, s, *a, **k: drawn.append(s) or real_text(surface, s,
                                                                                                        *a, **k))
    render_module.render(pygame.Surface(size), view)
    named = [line.split(":")[0] for line in drawn + shown if line.startswith("Maxim")]
    assert named
    other = next(n for n in LONG if n.startswith("Maxim") and n != acting)
    assert not [label for label in named if could_be(label, other) or not could_be(label, acting)], named
