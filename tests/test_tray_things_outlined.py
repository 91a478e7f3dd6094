"""A thing that is not a die in the tray is outlined on the screen's picture of the tray.

The table said "Something that is not a die lies in the tray: the dice are read around it" (or
"... is in the tray: take it out") and showed only the dice, outlined: players could not see what
it meant, nor whether a card had been taken for a die. The screen now outlines each such thing
(dashed, tagged "not a die") where the reader found it."""
from __future__ import annotations

import numpy as np
import pygame

from controller.table import CONFIRM
from controller.tray_words import LEFT_WORDS
from display import theme
from display.render import render
from display.view import TableView
from test_tray_left_things import THINGS, dice, empty, throwing
from test_tray_problems import THROW, banner, show, table
from vision.left_things import overlap


class Shown:
    """A screen that keeps the last view it was given."""

    def __init__(self) -> None:
        self.view: TableView | None = None

    def show(self, view: TableView) -> None:
        self.view = view


def _drawn(p) -> TableView:
    screen = Shown()
    p.runner.screen = screen
    p.runner.draw()
    assert screen.view is not None
    return screen.view


def _phone_box() -> tuple[int, int, int, int]:
    spec = THINGS["phone"]          # (centre (110, 110), 170 px long, turned 20 degrees)
    return (int(spec.centre[0] - 85), int(spec.centre[1] - 60), int(spec.centre[0] + 85), int(spec.centre[1] + 60))


def test_a_phone_left_in_the_tray_is_outlined_where_it_lies_as_the_dice_are_read_around_it(tmp_path):
    phone = THINGS["phone"]
    p = table(tmp_path)
    show(p, empty(), 12)
    show(p, empty(phone), 20)
    things = _drawn(p).tray.things             # alone in the tray: the throw would wait for it
    assert len(things) == 1 and overlap(things[0], _phone_box()) > 0.3
    show(p, throwing(things=[phone]), 5)
    show(p, dice(things=[phone]))
    assert p.flow.phase == CONFIRM and sorted(p.flow.pending) == sorted(THROW) and banner(p) == LEFT_WORDS
    view = _drawn(p)
    assert len(view.tray.things) == 1 and overlap(view.tray.things[0], _phone_box()) > 0.3
    assert len(view.tray.dice) == len(THROW)
    show(p, dice(), 20)                        # taken out: no outline left behind
    assert _drawn(p).tray.things == ()


def test_the_outline_is_drawn_on_the_picture_and_the_dice_marks_stay(tmp_path):
    """Rendered at 800x480: the thing's dashed outline in its colour along the phone's box, and
    each die still framed."""
    phone = THINGS["phone"]
    p = table(tmp_path)
    show(p, empty(), 12)
    show(p, empty(phone), 20)
    show(p, throwing(things=[phone]), 5)
    show(p, dice(things=[phone]))
    view = _drawn(p)
    surface = pygame.Surface((800, 480))
    render(surface, view)
    pixels = pygame.surfarray.array3d(surface)                  # (x, y, rgb)
    painted = np.all(pixels == np.array(theme.CROSS), axis=2)
    plain = pygame.Surface((800, 480))
    render(plain, view.__class__(**{**view.__dict__, "tray": view.tray.__class__(
        view.tray.image, view.tray.dice, view.tray.caption)}))
    before = np.all(pygame.surfarray.array3d(plain) == np.array(theme.CROSS), axis=2)
    assert painted.sum() > before.sum() + 200
