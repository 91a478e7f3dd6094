"""A GPIO button that presses itself (a loose wire, a wet switch), through gpiozero's MockFactory on
a virtual clock: put aside and named, the other buttons working, taken back once it stops."""
from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.button_gpio import GpioButtonSource
from hw_helpers import FakeClock

PINS = {"OK": 17, "UP": 27, "DOWN": 22}


@pytest.fixture
def panel():
    factory, clock = MockFactory(), FakeClock(0.0)
    source = GpioButtonSource(PINS, pin_factory=factory, clock=clock)
    source.start()
    yield source, clock, factory
    source.stop()
    factory.reset()


def tap(source, clock, factory, button: str, down_s: float, up_s: float) -> list[str]:
    """One press of `button` (down, then up), polled as the table does; the presses taken."""
    pin = factory.pin(PINS[button])
    pin.drive_low()
    clock.advance(down_s)
    taken = [e.name for e in source.poll() if e.kind == "press"]
    pin.drive_high()
    clock.advance(up_s)
    return taken + [e.name for e in source.poll() if e.kind == "press"]


def test_a_loose_ok_wire_is_put_aside_and_named_while_the_other_buttons_work(panel, caplog) -> None:
    """OK's contact flickering 30 ms down, 30 ms up for 6 s. Before: 100 OKs taken (readings accepted,
    boxes scored by nobody) and nothing said. Now the first 10 (a hand's most in a second), then none;
    the screen and the log name the button; DOWN still works; OK counts again once it has stopped."""
    source, clock, factory = panel
    taken = []
    with caplog.at_level("ERROR", logger="hardware"):
        for _ in range(100):
            taken += tap(source, clock, factory, "OK", 0.03, 0.03)
    assert taken == ["OK"] * 10
    assert "OK button pressed 11 times within 1 s: a loose wire or a wet switch" in caplog.text
    assert source.status.connected and source.status.warning == "OK button presses itself: call staff"
    assert tap(source, clock, factory, "DOWN", 0.1, 0.1) == ["DOWN"]
    clock.advance(2.0)                                        # it has stopped
    source.poll()
    assert source.status.warning == ""
    assert tap(source, clock, factory, "OK", 0.1, 0.1) == ["OK"]


def test_a_player_mashing_ok_is_a_hand_not_a_loose_wire(panel) -> None:
    """Seven presses a second for three seconds (an impatient player, or staff cycling a name's
    letters with UP): every one is taken, and nothing is said."""
    source, clock, factory = panel
    taken = []
    for _ in range(21):
        taken += tap(source, clock, factory, "UP", 0.07, 0.073)
    assert taken == ["UP"] * 21
    assert source.status.warning == ""


def test_a_loose_wire_is_said_on_the_tables_screen(panel, tmp_path) -> None:
    """Through the table: the notice stays while the wire flickers, the game is untouched."""
    from test_table_e2e import NoFrames, snapshot, table_app

    source, clock, factory = panel
    app = table_app(tmp_path, NoFrames(), source, clock=clock)
    app.step()
    before = snapshot(app.flow)
    ok = factory.pin(PINS["OK"])
    for _ in range(30):
        ok.drive_low()
        clock.advance(0.03)
        app.step()
        ok.drive_high()
        clock.advance(0.03)
        app.step()
    assert app.device_notice().text == "Buttons: OK button presses itself: call staff. The other buttons work."
    assert "OK button presses itself" in app.flow.view().message.text
    assert snapshot(app.flow) == before
