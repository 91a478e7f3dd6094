"""The table's screen lost and back (the monitor's cable pulled, kmsdrm taken away): the game goes on
with the buttons, the log says so, and the screen opens again by itself. pygame's own display is
really shut (pygame.display.quit(): drawing and events then raise pygame.error, as when SDL's
device has gone); its reopening is refused while the "monitor" is away."""
from __future__ import annotations

import pygame
import pytest

from hw_helpers import FakeClock
from test_table_e2e import FakeButtons, NoFrames, snapshot, table_app


class _Box(FakeButtons):
    """A button box whose presses the test queues."""

    def __init__(self):
        super().__init__()
        self.queue: list = []

    def press(self, name: str) -> None:
        self.queue.append(type("P", (), {"kind": "press", "name": name})())

    def poll(self):
        out, self.queue = self.queue, []
        return out


@pytest.fixture
def monitor(monkeypatch):
    """`monitor["away"] = True`: the display cannot be opened (set_mode raises, as with no device);
    `monitor["size"] = (w, h)`: it opens at that size whatever is asked (a kiosk's full screen takes
    the monitor's mode)."""
    state = {"away": False, "size": None}
    real = pygame.display.set_mode

    def set_mode(size=(0, 0), *args, **kwargs):
        if state["away"]:
            raise pygame.error("kmsdrm not available")
        return real(state["size"] or size, *args, **kwargs)

    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    return state


def test_a_lost_screen_leaves_the_buttons_working_and_opens_again_by_itself(tmp_path, monitor, caplog):
    """Before, pygame's error from its event queue stopped every pass before the button box was
    read, and the display was never opened again: the table stayed dark until restarted."""
    clock = FakeClock(0.0)
    box = _Box()
    app = table_app(tmp_path, NoFrames(), box, clock=clock)
    app.screen.clock = clock
    app.step()
    before = snapshot(app.flow)
    monitor["away"] = True
    pygame.display.quit()                                   # the display is gone
    with caplog.at_level("INFO"):
        box.press("HINT")
        app.step()
        assert app.flow.help_shown                          # the press was read and handled
        assert app.screen.lost
        for _ in range(3):                                  # tries to open it again fail, quietly
            clock.advance(40.0)
            box.press("HINT")
            app.step()
        assert app.screen.lost and not app.flow.help_shown  # (four HINTs: open, shut, open, shut)
        monitor["away"] = False                             # the monitor is back
        clock.advance(40.0)
        app.step()
    assert app.screen.lost == ""
    assert app.screen.size == (800, 480) and pygame.display.get_surface() is not None
    assert snapshot(app.flow) == before
    said = [r for r in caplog.records if r.name == "display.screen"]
    lost = [r for r in said if r.levelname == "ERROR"]
    assert len(lost) == 1 and "screen lost" in lost[0].getMessage() and "the game goes on" in lost[0].getMessage()
    assert "screen back" in said[-1].getMessage()
    assert not [r for r in caplog.records if r.exc_info]    # no "unexpected error" traceback


def test_the_screen_is_tried_again_later_and_later_while_it_stays_away(monitor):
    """Opening a display costs a moment on a Pi: while the monitor stays away the tries thin out
    (1 s, then doubling up to 30 s), they are not made 20 times a second."""
    from display.screen import Screen
    from display.view import TableView

    clock = FakeClock(0.0)
    screen = Screen((320, 240), headless=True, clock=clock)
    tries = []
    real_open = screen._open
    screen._open = lambda: (tries.append(clock.t), real_open())[1]
    monitor["away"] = True
    pygame.display.quit()
    screen.events()
    for _ in range(800):                                    # 80 s of passes at 10 a second
        clock.advance(0.1)
        screen.show(TableView(mode="setup", title="x"))
    gaps = [round(b - a) for a, b in zip(tries, tries[1:])]
    assert gaps[:5] == [2, 4, 8, 16, 30]
    monitor["away"] = False
    clock.advance(30.0)
    screen.show(TableView(mode="setup", title="x"))
    assert screen.lost == ""


def _monitor_swapped(app, monitor, clock, size) -> None:
    """The monitor pulled out and another plugged in (or the HDMI mode negotiated again) at `size`."""
    monitor["away"] = True
    pygame.display.quit()
    app.step()
    monitor["away"], monitor["size"] = False, size
    clock.advance(2.0)
    app.step()
    assert app.screen.lost == "" and app.screen.size == size


def test_the_setup_menu_counts_the_card_pages_of_a_screen_opened_again_bigger(tmp_path, monitor):
    """A 320x240 screen swapped for an 800x480 one: Thirteen's card takes 5 pages at 320x240 and one
    at 800x480. Before, the menu kept counting 5: the card said *HINT again: close* and HINT
    left it open four times more."""
    from controller.config import parse_config
    from controller.table_app import TableApp
    from display.screen import Screen
    from test_table_e2e import NoFrames

    clock = FakeClock(0.0)
    box = _Box()
    app = TableApp(parse_config(f'[table]\njournal_dir = "{tmp_path}"\n'),
                   Screen((320, 240), headless=True, clock=clock), NoFrames(), box, clock=clock)
    app.step()
    _monitor_swapped(app, monitor, clock, (800, 480))
    box.press("HINT")
    app.step()
    assert app.menu.help_game is not None and app.menu.help_page == 0
    box.press("HINT")
    app.step()
    assert app.menu.help_game is None                       # closed, as the card said


def test_the_game_counts_the_card_pages_of_a_screen_opened_again_smaller(tmp_path, monitor):
    """A 1920x1080 screen come back at 640x480 (an HDMI mode a monitor falls back to): the card of a
    game under way takes two pages there, one at 1920x1080. Before, HINT closed it after the first,
    and its second page, with the end of the rules, could not be read."""
    clock = FakeClock(0.0)
    box = _Box()
    monitor["size"] = (1920, 1080)
    app = table_app(tmp_path, NoFrames(), box, clock=clock)
    app.screen.clock = clock
    app.step()
    _monitor_swapped(app, monitor, clock, (640, 480))
    pages = []
    for _ in range(3):
        box.press("HINT")
        app.step()
        pages.append(app.flow.help_page if app.flow.help_shown else None)
    assert pages == [0, 1, None]
    assert app.screen.surface.get_size() == (640, 480)


def test_a_camera_sending_black_pictures_is_said_until_they_are_not(tmp_path, caplog):
    """A lens covered, the lamp over the tray off, a sensor sending zeros: before, the screen said
    "Tray empty" and dice thrown were never seen, with no word of the camera."""
    import numpy as np

    from test_table_e2e import _Pictures
    from vision.synthetic import render_tray

    clock = FakeClock(0.0)
    tray = render_tray([], seed=3).image
    frames = _Pictures(tray)
    app = table_app(tmp_path, frames, FakeButtons(), clock=clock)

    def run(seconds: float) -> None:
        for _ in range(int(seconds / 0.05)):
            clock.advance(0.05)
            app.step()

    run(1.0)
    frames.image = np.zeros_like(tray)
    run(1.0)
    assert app.flow.view().message is None                 # a hand over the lens a moment: nothing to say
    with caplog.at_level("INFO", logger="controller.table_app"):
        run(3.0)
        notice = app.flow.view().message
        assert notice.level == "error" and "the picture is black" in notice.text
        frames.image = tray
        run(0.5)
    assert app.flow.view().message is None
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2 and "every picture black" in said[0] and "no longer black" in said[1]
    dim = (tray // 3).astype(np.uint8)                      # a dim tray (a third of the light) is not black
    frames.image = dim
    run(4.0)
    assert app.flow.view().message is None
