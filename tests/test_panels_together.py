"""Several panels on one table at once, as a café has them: the GPIO arcade buttons (MockFactory),
the USB button box (fed its lines as its reader thread would) and the staff's keyboard (pygame
events), merged by the multi source. The table has one game: what one panel's rules stop must not
come through because it was pressed on two, and a panel down beside one that works is said."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import threading  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402
import serial  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402

from hardware import MultiButtonSource, make_button_source  # noqa: E402
from hardware.button_gpio import GpioButtonSource  # noqa: E402
from hardware.button_keyboard import KeyboardButtonSource  # noqa: E402
from hardware.button_serial import SerialButtonSource  # noqa: E402
from hardware.buttons import SourceStatus  # noqa: E402
from hw_helpers import FakeClock, kinds  # noqa: E402

PINS = {"OK": 17, "UP": 27, "DOWN": 22, "BACK": 23}


class Table:
    """A GPIO panel, a button box and a keyboard on one clock, merged as the config's multi does."""

    def __init__(self, factory: MockFactory, box_busy_after_s: float = 2.0, opener=None) -> None:
        self.clock = FakeClock(100.0)
        self.factory = factory
        self.gpio = GpioButtonSource(PINS, pin_factory=factory, clock=self.clock)
        self.box = SerialButtonSource("/dev/ttyACM0", opener=opener, clock=self.clock, read_timeout_s=0.01,
                                      reconnect_initial_s=0.01, busy_after_s=box_busy_after_s)
        if opener is None:                 # (no port: the box's lines are handed to it as its reader's)
            self.box.start = self._box_connected
        self.keyboard = KeyboardButtonSource(clock=self.clock)
        self.multi = MultiButtonSource([self.gpio, self.box, self.keyboard])
        self.multi.start()

    def _box_connected(self) -> None:
        """The box started as its reader thread leaves it once connected, without the thread."""
        self.box._busy.started(self.clock())
        self.box._status = SourceStatus(True, "")

    def panel(self, name: str, down_s: float = 0.1) -> None:
        pin = self.factory.pin(PINS[name])
        pin.drive_low()
        self.clock.advance(down_s)
        pin.drive_high()
        self.clock.advance(0.05)

    def on_box(self, name: str) -> None:
        self.box._handle(f"P {name}\nR {name}\n".encode())
        self.clock.advance(0.05)

    def key(self, code: int) -> None:
        self.multi.feed(pygame.event.Event(pygame.KEYDOWN, key=code))
        self.clock.advance(0.05)
        self.multi.feed(pygame.event.Event(pygame.KEYUP, key=code))
        self.clock.advance(0.05)

    def presses(self) -> list[tuple[str, str, str]]:
        return [(e.kind, e.name, e.source) for e in self.multi.poll() if e.kind in ("press", "hold")]


@pytest.fixture
def table():
    factory = MockFactory()
    table = Table(factory)
    assert table.presses() == []
    yield table
    table.multi.stop()
    factory.reset()


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


# -- the busy rule over every panel -----------------------------------------------------------
def test_presses_made_on_three_panels_while_the_table_was_busy_make_one_move(table, caplog) -> None:
    """The table's loop held up for 3 s; meanwhile DOWN on the panel, UP on the box, and OK five times
    on the keyboard. Before: seven moves the moment it ended (each panel's own rule let its first
    through, and the keyboard had none). Now the first press made counts, the log says the rest."""
    table.clock.advance(3.0)
    table.panel("DOWN")
    table.on_box("UP")
    for _ in range(5):
        table.key(pygame.K_RETURN)
    with caplog.at_level("WARNING", logger="hardware"):
        assert table.presses() == [("press", "DOWN", "gpio")]
    assert "presses made while the table was busy" in caplog.text
    table.on_box("UP")                                        # the table takes presses again
    table.key(pygame.K_RETURN)
    assert table.presses() == [("press", "UP", "serial"), ("press", "OK", "keyboard")]


def test_the_keyboard_alone_takes_one_press_made_while_the_table_was_busy(caplog) -> None:
    """The window queued twenty Enter presses during a 3 s freeze and handed them over at once:
    twenty OKs (a reading accepted, a box chosen, ...) on screens nobody saw. Now the first counts,
    as on the GPIO panel and the box; `busy_after_s` is a keyboard setting too (it was refused)."""
    clock = FakeClock(0.0)
    keyboard = make_button_source({"type": "keyboard", "busy_after_s": 2.0}, clock=clock)
    keyboard.start()
    assert keyboard.poll() == []
    clock.advance(3.0)
    for _ in range(20):
        keyboard.feed(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN))
        keyboard.feed(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN))
    with caplog.at_level("WARNING", logger="hardware"):
        assert [k for k in kinds(keyboard.poll()) if k[0] == "press"] == [("press", "OK")]
    assert "19 presses made while the table was busy" in caplog.text
    everything = make_button_source({"type": "keyboard", "busy_after_s": 0}, clock=clock)
    everything.start()
    clock.advance(3.0)
    for _ in range(3):
        everything.feed(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DOWN))
        everything.feed(pygame.event.Event(pygame.KEYUP, key=pygame.K_DOWN))
    assert [k for k in kinds(everything.poll()) if k[0] == "press"] == [("press", "DOWN")] * 3


def test_a_panel_set_to_take_every_press_keeps_them_beside_the_others() -> None:
    """`busy_after_s = 0` on the box (a test harness pressing faster than hands): its presses all count
    beside a panel that keeps the rule."""
    factory = MockFactory()
    table = Table(factory, box_busy_after_s=0)
    try:
        table.presses()
        table.clock.advance(3.0)
        table.panel("DOWN")
        table.panel("UP")
        for name in ("OK", "BACK", "OK"):
            table.clock.advance(0.3)
            table.on_box(name)
        assert table.presses() == [("press", "DOWN", "gpio"), ("press", "OK", "serial"), ("press", "BACK", "serial"),
                                   ("press", "OK", "serial")]
    finally:
        table.multi.stop()
        factory.reset()


# -- the same button on two panels at once -----------------------------------------------------
def test_ok_on_the_panel_and_on_the_box_at_once_accepts_the_reading_and_nothing_more(table) -> None:
    """Two players, one at the arcade panel and one at the box, both press OK on the reading shown.
    Before: the first OK accepted the reading, the second (50 ms later, on a screen nobody had seen)
    threw all five dice again in that player's name. Now it is one OK."""
    from test_table_flow import make, reading

    from controller.table import DECIDE

    flow, _ = make()
    flow.on_reading(reading([1, 2, 3, 4, 5]))
    table.panel("OK")
    table.on_box("OK")
    for event in table.multi.poll():
        flow.on_button(event)
    assert flow.phase == DECIDE
    assert flow.log.inputs == [{"type": "dice", "player": 0, "values": [1, 2, 3, 4, 5]}]


def test_the_same_button_is_taken_again_once_it_can_be_a_second_press(table) -> None:
    """Only what was pressed at the same moment is one press: a panel's own quick repeats, and the
    other panel's press once a player can have seen the first one's result, count."""
    table.panel("DOWN", down_s=0.05)
    table.panel("DOWN", down_s=0.05)                          # one player, twice quickly
    assert table.presses() == [("press", "DOWN", "gpio")] * 2
    table.panel("OK")
    table.key(pygame.K_RETURN)                                # at the same moment: one OK
    assert table.presses() == [("press", "OK", "gpio")]
    table.clock.advance(0.5)
    table.on_box("OK")                                        # half a second later: another OK
    assert table.presses() == [("press", "OK", "serial")]


def test_a_long_ok_on_two_panels_at_once_is_one_long_ok(table) -> None:
    """A long OK (correct the dice) held on the panel and on the box: one correction opened."""
    table.factory.pin(PINS["OK"]).drive_low()
    table.clock.advance(1.0)
    table.box._handle(b"H OK\n")
    table.clock.advance(0.1)
    assert table.presses() == [("hold", "OK", "gpio")]


# -- a panel down, stuck or flooding beside one that works --------------------------------------
def _app(tmp_path, table):
    from test_table_e2e import NoFrames, table_app

    return table_app(tmp_path, NoFrames(), table.multi, clock=table.clock)


def test_a_box_unplugged_beside_a_working_panel_is_said_and_the_panel_plays_on(tmp_path) -> None:
    """The box on a real port (loop://, its reader thread) pulled out mid-game. Before: the multi
    source was still connected (the panel works), so the screen said nothing of the box: the players
    at it pressed and nothing happened, with no word why."""
    from test_hw_serial import wait_for
    from test_table_e2e import snapshot

    from hardware.fakes import UnpluggablePort

    ports = [UnpluggablePort(serial.serial_for_url("loop://", timeout=0.01))]
    plugged = threading.Event()
    plugged.set()

    def opener() -> UnpluggablePort:
        if not plugged.is_set():
            raise serial.SerialException("could not open port /dev/ttyACM0: No such file or directory")
        return ports[-1]

    factory = MockFactory()
    table = Table(factory, opener=opener)
    try:
        wait_for(lambda: table.box.status.connected)
        app = _app(tmp_path, table)
        app.step()
        before = snapshot(app.flow)
        plugged.clear()
        ports[-1].unplug()
        wait_for(lambda: not table.box.status.connected)
        app.step()
        notice = app.device_notice()
        assert notice is not None and notice.level == "error"
        assert notice.text.startswith("Buttons: serial: button box on /dev/ttyACM0 ")
        assert notice.text.endswith(". The other buttons work.")
        assert "Buttons: serial: button box" in app.flow.view().message.text
        table.panel("DOWN")                                   # the panel still plays
        app.step()
        assert "DOWN does nothing now" in app.flow.message.text
        assert snapshot(app.flow) == before
        ports.append(UnpluggablePort(serial.serial_for_url("loop://", timeout=0.01)))
        plugged.set()                                         # plugged back: the notice goes
        wait_for(lambda: table.box.status.connected)
        app.step()
        assert app.device_notice() is None
    finally:
        table.multi.stop()
        factory.reset()
        for port in ports:
            port.close()


def test_a_box_the_cafe_never_plugged_in_is_not_on_screen(tmp_path) -> None:
    """The example config has a panel, a box and a keyboard, and says either works alone: a café
    without a box must not have a red banner for ever. A box never connected since the start is in
    the status's message and the log only; the game screen says nothing of it."""
    from test_hw_serial import wait_for

    def opener():
        raise serial.SerialException("could not open port /dev/ttyACM0: No such file or directory")

    factory = MockFactory()
    table = Table(factory, opener=opener)
    try:
        wait_for(lambda: "not available" in table.box.status.message)
        app = _app(tmp_path, table)
        app.step()
        assert app.device_notice() is None and app.flow.view().message is None
        assert "serial: button box on /dev/ttyACM0 not available" in table.multi.status.message
    finally:
        table.multi.stop()
        factory.reset()


def test_gpio_pins_the_table_cannot_claim_are_said_while_the_keyboard_works(tmp_path) -> None:
    """At boot another program holds OK's pin (`dicetable check` left running): the GPIO panel cannot
    start, and the keyboard beside it kept the buttons 'connected'. Before: nothing on screen, the
    players pressed the arcade buttons in vain. Now the screen says so until the pins are claimed
    (the panel retries), then the notice goes and the panel plays."""
    from gpiozero import Button

    factory, clock = MockFactory(), FakeClock(100.0)
    holder = Button(17, pin_factory=factory)                  # (the other program)
    gpio = GpioButtonSource(PINS, pin_factory=factory, clock=clock)
    multi = MultiButtonSource([gpio, KeyboardButtonSource(clock=clock)])
    multi.start()
    try:
        app = _app(tmp_path, type("T", (), {"multi": multi, "clock": clock})())
        app.step()
        notice = app.device_notice()
        assert notice is not None and notice.text.startswith("Buttons: gpio: GPIO buttons unavailable: ")
        assert notice.text.endswith("The other buttons work.")
        holder.close()                                        # the other program ends
        clock.advance(1.5)
        app.step()                                            # (claimed again at this poll)
        app.step()
        assert app.device_notice() is None and gpio.status.connected
    finally:
        multi.stop()
        factory.reset()


def test_a_flooding_box_beside_a_panel_is_said_while_the_panel_plays_on(table, tmp_path) -> None:
    app = _app(tmp_path, table)
    app.step()
    table.box._handle(b"P OK\nR OK\n" * 40)                   # a box gone wrong: 40 OKs in no time
    table.panel("DOWN")
    app.step()
    assert "sends presses faster than hands can" in app.device_notice().text
    assert "DOWN does nothing now" in app.flow.message.text
    assert app.flow.log.inputs == []


def test_a_button_stuck_on_the_panel_while_the_box_is_used(table, tmp_path) -> None:
    """OK jammed on the arcade panel (its one hold, then nothing); the box's OK and DOWN still play,
    and the screen names the stuck button."""
    app = _app(tmp_path, table)
    table.factory.pin(PINS["OK"]).drive_low()
    for _ in range(12):
        table.clock.advance(1.0)
        app.step()
    assert app.device_notice().text == "Buttons: OK button stuck: call staff. The other buttons work."
    table.on_box("DOWN")
    table.on_box("BACK")
    seen = []
    app.on_button = seen.append
    app.step()
    assert kinds(seen) == [("press", "DOWN"), ("release", "DOWN"), ("press", "BACK"), ("release", "BACK")]


def test_two_gpio_panels_at_the_ends_of_a_table_are_two_panels(caplog) -> None:
    """A GPIO panel at each end of the table, both left unnamed: both were "gpio", so OK pressed on
    both at once was two OKs (a panel's own repeat counts) and the screen could not say which was
    down. The second is "gpio 2"."""
    from controller.config import parse_config

    config = parse_config('[buttons]\ntype = "multi"\n'
                          '[[buttons.sources]]\ntype = "gpio"\npins = { OK = 17, DOWN = 22 }\n'
                          '[[buttons.sources]]\ntype = "gpio"\npins = { OK = 5, DOWN = 6 }\n')
    clock, factory = FakeClock(0.0), MockFactory()
    multi = make_button_source(config.buttons, clock=clock, pin_factory=factory)
    multi.start()
    try:
        assert [s.name for s in multi.sources] == ["gpio", "gpio 2"]
        for pin in (17, 5):                                   # OK at both ends at once
            factory.pin(pin).drive_low()
        clock.advance(0.1)
        factory.pin(5).drive_high()
        clock.advance(0.03)
        factory.pin(17).drive_high()
        clock.advance(0.05)
        with caplog.at_level("INFO", logger="hardware"):
            assert [(e.kind, e.name, e.source) for e in multi.poll() if e.kind == "press"] == [
                ("press", "OK", "gpio 2")]
        assert "OK press on gpio at the same moment as on gpio 2: taken once" in caplog.text
    finally:
        multi.stop()
        factory.reset()


def test_presses_on_the_box_during_a_long_ok_on_the_panel_come_in_the_order_they_were_made(table) -> None:
    """OK held down on the panel (a long OK: correct the dice) while DOWN, then UP, are pressed on the
    box: DOWN before the long OK's time, UP after it; each taken once, in that order."""
    ok = table.factory.pin(PINS["OK"])
    ok.drive_low()
    table.clock.advance(0.4)
    table.on_box("DOWN")
    assert table.presses() == [("press", "DOWN", "serial")]
    table.clock.advance(0.7)
    table.on_box("UP")
    assert table.presses() == [("hold", "OK", "gpio"), ("press", "UP", "serial")]
    ok.drive_high()
    table.clock.advance(0.05)
    assert table.presses() == []                              # (a long press gives no press after)
