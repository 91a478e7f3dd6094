"""Two players, one at the arcade panel and one at the button box, both see the misread 3 that
should be a 4 in a correction and both press UP. They expect a 4. Pressed together, the two
presses come in as far apart as the buttons come back up (a press is sent on release): one held
0.1 s, the other 0.4 s. Before, 0.25 s apart or more took both and the die went to 5. One player
pressing UP twice still steps twice, and the other panel's UP once the first one's result could
be seen counts."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402
from test_panels_together import PINS, Table  # noqa: E402
from test_table_flow import make, reading  # noqa: E402

from controller.table import CORRECT  # noqa: E402

FRAME_S = 0.05          # the table polls its buttons once a frame


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


@pytest.fixture
def correcting():
    """A table whose first die (read 1) is being corrected, and a function running its frames."""
    factory = MockFactory()
    table = Table(factory)
    flow, _ = make()
    flow.on_reading(reading([1, 2, 3, 4, 5]))

    def frames(seconds: float) -> None:
        for _ in range(round(seconds / FRAME_S)):
            table.clock.advance(FRAME_S)
            for event in table.multi.poll():
                flow.on_button(event)

    ok = factory.pin(PINS["OK"])
    ok.drive_low()
    frames(1.2)                                     # a long OK: correct the dice
    ok.drive_high()
    frames(0.1)
    assert flow.phase == CORRECT and flow.correct_index == 0 and flow.pending[0] == 1
    yield table, flow, frames
    table.multi.stop()
    factory.reset()


def press_on_panel(table, frames, name: str, down_s: float) -> None:
    pin = table.factory.pin(PINS[name])
    pin.drive_low()
    frames(down_s)
    pin.drive_high()


def press_on_box(table, name: str) -> None:
    table.box._handle(f"P {name}\nR {name}\n".encode())


@pytest.mark.parametrize("apart_s", [0.1, 0.3, 0.45])
def test_up_pressed_together_on_two_panels_is_one_step(correcting, apart_s) -> None:
    table, flow, frames = correcting
    press_on_panel(table, frames, "UP", 0.1)        # released first
    frames(apart_s)                                 # the table draws the 2 meanwhile
    press_on_box(table, "UP")                       # the other player, pressed at the same moment, held longer
    frames(0.5)
    assert flow.pending[0] == 2, flow.pending


def test_down_together_is_one_step_too(correcting) -> None:
    table, flow, frames = correcting
    press_on_box(table, "DOWN")
    frames(0.35)
    press_on_panel(table, frames, "DOWN", 0.1)
    frames(0.5)
    assert flow.pending[0] == 6, flow.pending       # 1 - 1 wraps to 6, once


def test_one_player_pressing_up_twice_steps_twice(correcting) -> None:
    table, flow, frames = correcting
    press_on_panel(table, frames, "UP", 0.1)
    frames(0.15)
    press_on_panel(table, frames, "UP", 0.1)
    frames(0.5)
    assert flow.pending[0] == 3, flow.pending


def test_the_other_panels_up_once_the_first_could_be_seen_counts(correcting) -> None:
    table, flow, frames = correcting
    press_on_panel(table, frames, "UP", 0.1)
    frames(0.8)                                     # the 2 on screen, seen, and another step wanted
    press_on_box(table, "UP")
    frames(0.5)
    assert flow.pending[0] == 3, flow.pending
