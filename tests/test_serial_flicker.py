"""A button of the USB box that presses itself (a loose wire or a wet switch inside the box): the box
debounces and sends each flicker as a whole press, P OK then R OK, 16 times a second. The box's flood
guard takes only what no box's buttons together can send (more than 20 presses a second, or the same
button 20 ms apart), so before, every one of them reached the game: 48 OKs in 3 s, readings accepted
and boxes scored by nobody, nothing on screen. Now it is put aside and named as a GPIO panel's loose
wire is, the other buttons working. Driven through the box's real reader thread on a pyserial
loop:// port, on a virtual clock."""
from __future__ import annotations

import logging
from typing import Any

import pytest
from hw_helpers import FakeClock, box_on_loop, wait_for

from hardware.button_serial import SerialButtonSource


@pytest.fixture
def box():
    """The box's source reading a loop:// port (what is written to it is what the box sends)."""
    yield from box_on_loop(100.0)


def send(source: SerialButtonSource, port: Any, clock: FakeClock, data: bytes) -> None:
    """The box sends `data` now; returns once the reader has read it all (stamped now)."""
    lines = data.count(b"\n")
    heard = [source.garbage_count]

    def read_all() -> bool:
        return source.last_heard == clock.t and port.in_waiting == 0
    port.write(data)
    wait_for(read_all, what=f"the box's {lines} lines read")
    assert source.garbage_count == heard[0]


def presses(events: list[Any]) -> list[str]:
    return [e.name for e in events if e.kind == "press"]


def test_a_box_button_flickering_16_times_a_second_is_put_aside_and_named(box, caplog) -> None:
    source, port, clock = box
    taken: list[str] = []
    with caplog.at_level(logging.INFO, logger="hardware"):
        for _ in range(48):                              # 3 s of a loose OK contact
            send(source, port, clock, b"P OK\nR OK\n")
            clock.advance(1 / 16)
            taken += presses(source.poll())
        assert source.status.connected
        assert source.status.warning == "OK button presses itself: call staff"
        # the other buttons work meanwhile
        send(source, port, clock, b"P UP\nR UP\n")
        taken += presses(source.poll())
        assert taken[-1] == "UP"
        # it stops (the wire taken care of): after 2 s without a press it counts again, unnamed
        clock.advance(2.5)
        taken += presses(source.poll())
        assert source.status.warning == ""
        send(source, port, clock, b"P OK\nR OK\n")
        taken += presses(source.poll())
    oks = taken.count("OK")
    assert oks <= 11, f"{oks} OKs taken from 3 s of a flickering contact (before: 48)"
    assert taken[-1] == "OK"
    said = [r.getMessage() for r in caplog.records if "presses itself" in r.getMessage()
            or "a loose wire" in r.getMessage()]
    assert len(said) == 1, said                          # said once, not at every flicker
    assert any("stopped pressing itself" in r.getMessage() for r in caplog.records)


def test_a_player_mashing_ok_on_the_box_is_a_hand(box) -> None:
    """Six or seven presses a second is a hand (an impatient player): every one is taken."""
    source, port, clock = box
    taken: list[str] = []
    for _ in range(21):
        send(source, port, clock, b"P OK\nR OK\n")
        clock.advance(1 / 7)
        taken += presses(source.poll())
    assert taken == ["OK"] * 21 and source.status.warning == ""


def test_a_flickering_box_button_is_said_on_the_tables_screen_and_plays_nothing(box, tmp_path) -> None:
    """Through the table (`TableApp`): the notice stays while the button flickers, the game is
    untouched, and it goes when the button stops."""
    from test_table_e2e import NoFrames, snapshot, table_app

    source, port, clock = box
    app = table_app(tmp_path, NoFrames(), source, clock=clock)
    app.step()
    before = snapshot(app.flow)
    for _ in range(48):
        send(source, port, clock, b"P HOLD2\nR HOLD2\n")
        clock.advance(1 / 16)
        app.step()
    assert app.device_notice().text == "Buttons: HOLD2 button presses itself: call staff. The other buttons work."
    assert "HOLD2 button presses itself" in app.flow.view().message.text
    assert snapshot(app.flow) == before
    clock.advance(2.5)
    app.step()
    app.step()                  # (the status is looked at before the poll that takes the button back)
    assert app.device_notice() is None
