"""The header's status line on a 320x240 panel: it was cut on every play screen ("Round 2 of 13:
Fay, choose a catego...", "Ann: keep dice and thro...", "Cy: abandon or continue? (turn 1,...")
and on the setup menu ("Classic poker dice · step..."). It is now the longest start of the status
that fits, ending where one of its parts ends: the round is on screen, nothing is cut."""
from __future__ import annotations

import pygame
import pytest

from controller.rules import GAMES
from controller.setup_menu import SetupDefaults, SetupMenu
from display import draw
from display import render as render_module
from display import theme

from test_sheet_fits import cut_lines, game_view

NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def drawn_status(view, size, monkeypatch) -> tuple[str, list[str]]:
    """The status line the screen draws for `view` (as asked, before any cut) and the lines it cut."""
    cut = cut_lines(monkeypatch)
    seen: list[str] = []
    real = render_module.text

    def text(surface, s, pos, size, colour=theme.TEXT, *a, **k):
        if colour == theme.ACCENT and pos[1] < render_module._frame(surface)[1]:
            seen.append(s)
        return real(surface, s, pos, size, colour, *a, **k)

    monkeypatch.setattr(render_module, "text", text)
    render_module.render(pygame.Surface(size), view)
    monkeypatch.undo()
    assert len(seen) == 1, seen
    return seen[0], cut


@pytest.mark.parametrize("fraction", [0.1, 0.5])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_play_screens_status_keeps_its_start_whole(game, fraction, monkeypatch):
    view = game_view(game, NAMES, fraction)
    line, cut = drawn_status(view, (320, 240), monkeypatch)
    assert line not in cut, (view.status, cut)
    assert view.status.startswith(line) or view.status.endswith(line), (view.status, line)
    if not view.status.endswith(line):
        assert line.startswith(view.status.split(" — ")[0].split(":")[0]), (view.status, line)   # "Round 2 of 13"


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_the_setup_menus_status_is_not_cut(game, monkeypatch):
    menu = SetupMenu(defaults=SetupDefaults(players=NAMES), screen_size=(320, 240))
    for _ in range(game):
        menu.on_button("press", "DOWN")
    for _ in range(4):
        line, cut = drawn_status(menu.view(), (320, 240), monkeypatch)
        assert line not in cut, cut
        assert line.startswith(menu.game.title[:3]), line
        menu.on_button("press", "OK")


def test_a_start_never_ends_inside_a_players_name():
    from display.status_fit import status_line
    status = "Round 2 of 6 — Ann (guest): keep dice and throw the others once"
    font = theme.font(20)
    room = font.size("Round 2 of 6 — Ann (guest")[0]
    assert status_line(status, 20, 20, room, ["Ann (guest)", "Ann"])[1] == "Round 2 of 6"
    assert status_line(status, 20, 20, room)[1] == "Round 2 of 6 — Ann"


def test_a_list_of_names_is_never_left_short():
    """A comma or a colon ends a start only where no player's name follows it."""
    from display.status_fit import status_line
    status = "Hand 2, turn 1 — in: Ann, Bob, Cy — Cy: abandon or continue? (turn 1, secret)"
    font = theme.font(20)
    room = font.size("Hand 2, turn 1 — in: Ann, Bob")[0]
    assert status_line(status, 20, 20, room, NAMES)[1] == "Hand 2, turn 1"
    status = "Round 8 of 13: Ann, choose a category (throw 2 of 3)"
    room = font.size("Round 8 of 13: Ann, ch")[0]
    assert status_line(status, 20, 20, room, NAMES)[1] == "Round 8 of 13: Ann"
    status = "Game over: Cy wins with 377"
    assert status_line(status, 20, 20, font.size("Game over: Cy")[0], NAMES)[1] == "Game over"
    status = "Game over — winners: Ann, Bob"
    assert status_line(status, 20, 20, font.size("Game over — win")[0], NAMES)[1] == "Game over"


def test_where_the_status_fits_it_is_drawn_as_before():
    """The forms tried before are tried first: a status that fitted whole, or as its first and
    last parts, or as its last, is drawn so still (800x480 is unchanged)."""
    from display.status_fit import status_line
    status = "Round 1 of 5 — active: Ann, rolls used 1 of 3 — Ann: choose a card"
    font = theme.font(20)
    assert status_line(status, 20, 20, font.size(status)[0])[1] == status
    assert status_line(status, 20, 20, font.size("Round 1 of 5 — Ann: choose a card")[0])[1] == \
        "Round 1 of 5 — Ann: choose a card"
    assert status_line(status, 20, 20, font.size("Ann: choose a card")[0])[1] == "Ann: choose a card"


@pytest.mark.parametrize("game", ["classic", "poknroll", "school", "thirteen"])
def test_the_final_standings_title_and_status_are_whole(game, monkeypatch):
    """At 320x240 the final standings were titled "Classic poker dice: fina..." ("Pok'n Roll:
    final standi...") beside "winner: Ann", half the header empty, and Thirteen's status read
    "Game over: Cy wins...". The title takes the room the status can spare; the status is "Game
    over" where it must be short. (Objective cards' "Game over after 10 rounds" has no shorter
    form: its title is still cut there, as before.)"""
    view = game_view(game, ["Ann", "Bartholomew", "Cy"], 1.0)
    assert view.mode == "final"
    line, cut = drawn_status(view, (320, 240), monkeypatch)
    assert view.title not in cut and line not in cut, (view.title, line, cut)
