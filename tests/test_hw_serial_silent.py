"""A button box that hangs (its firmware stuck, the port still open: no error, no press ever
coming) after it has shown it is alive with its PING heartbeat."""
from __future__ import annotations

from typing import Any

import serial
from hw_helpers import FakeClock, kinds, wait_for

from hardware import ButtonEvent
from hardware.button_serial import SerialButtonSource

TIMEOUT = 0.01



def test_a_box_that_goes_silent_is_named_and_its_port_opened_again(caplog) -> None:
    """Before, the table waited for it without a word: the players pressed, nothing happened, and
    they took the table for hung. Now, 10 s without a line from a box that sends PING: the screen
    names it, the port is opened again (many boxes restart then), and it counts again once it
    sends a line."""
    clock = FakeClock(0.0)
    ports: list[Any] = []

    def opener() -> Any:
        ports.append(serial.serial_for_url("loop://", timeout=TIMEOUT))
        return ports[-1]

    source = SerialButtonSource("/dev/ttyACM0", opener=opener, read_timeout_s=TIMEOUT, clock=clock,
                                reconnect_initial_s=0.01, reconnect_max_s=0.01)
    source.start()
    try:
        wait_for(lambda: source.status.connected)
        ports[0].write(b"# dicetable-buttons v1\nPING\n")
        wait_for(lambda: source.last_heard is not None)
        clock.advance(10.5)                             # and then nothing: its firmware hung
        wait_for(lambda: not source.status.connected, what="the silent box named")
        assert "has sent nothing for 10 s, not even its heartbeat" in source.status.message
        wait_for(lambda: len(ports) == 2)               # its port opened again...
        assert not ports[0].is_open
        assert not source.status.connected              # ...and it stays named until it sends a line
        with caplog.at_level("INFO", logger="hardware"):
            ports[1].write(b"PING\nP OK\n")
            events: list[ButtonEvent] = []
            wait_for(lambda: events.extend(source.poll()) or events)
        assert source.status.connected and kinds(events) == [("press", "OK")]
        assert "sends again (its port was opened again 1 time meanwhile)" in caplog.text
    finally:
        source.stop()


def test_a_box_that_never_sent_a_heartbeat_is_never_taken_for_hung() -> None:
    """Nobody pressing for an hour is no fault: only a box known to send PING is watched."""
    clock = FakeClock(0.0)
    source = SerialButtonSource("/dev/ttyACM0", opener=lambda: None, clock=clock)
    source._connect()
    source._handle(b"# dicetable-buttons v1\nP OK\nR OK\n")
    assert not source._silent(3600.0)
    source._handle(b"PING\n")
    assert not source._silent(9.9)
    assert source._silent(10.0) and source.silences == 1


def test_silent_after_s_zero_never_watches() -> None:
    clock = FakeClock(0.0)
    source = SerialButtonSource("/dev/ttyACM0", opener=lambda: None, clock=clock, silent_after_s=0)
    source._connect()
    source._handle(b"PING\n")
    assert not source._silent(1000.0)
