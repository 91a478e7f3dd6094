"""Presses a button box sent before the table took its port (the table starting or restarting,
players pressing at a black screen): they were not moves of the game on screen."""
from __future__ import annotations

from typing import Any

import serial
from hw_helpers import FakeClock, kinds, wait_for

from hardware import ButtonEvent
from hardware.button_serial import SerialButtonSource

TIMEOUT = 0.01



def _taken(waiting: bytes, presses: int) -> tuple[SerialButtonSource, Any, FakeClock, list[ButtonEvent]]:
    """A box whose port holds `waiting` (`presses` whole presses and holds) when the table takes
    it; returned once the source has either dropped them or passed them on (those: the list)."""
    clock = FakeClock(100.0)
    port = serial.serial_for_url("loop://", timeout=TIMEOUT)
    port.write(waiting)
    source = SerialButtonSource("loop://", opener=lambda: port, read_timeout_s=TIMEOUT, clock=clock)
    got: list[ButtonEvent] = []
    source.start()

    def dropped_or_passed_on() -> bool:
        got.extend(source.poll())
        return getattr(source, "stale_dropped", 0) >= presses or sum(e.kind != "release" for e in got) >= presses

    wait_for(dropped_or_passed_on)
    return source, port, clock, got


def test_presses_made_before_the_table_took_the_box_are_not_moves(caplog) -> None:
    """OK, DOWN and a long HOLD3 pressed while the table restarted, in the port when the table takes
    it: before, all three were moves at the table's first poll (it came within 2 s: the busy rule
    did not apply; after 2 s it still took the first), on a screen nobody had seen answer them."""
    with caplog.at_level("WARNING", logger="hardware"):
        source, port, clock, got = _taken(b"P OK\nP DOWN\nH HOLD3\nR HOLD3\n", 3)
    try:
        assert kinds(got + source.poll()) == []
        assert "3 presses sent by the button box before the table took it" in caplog.text
        clock.advance(0.5)
        port.write(b"P UP\n")                          # a press once the table has the box counts
        events: list[ButtonEvent] = []
        wait_for(lambda: events.extend(source.poll()) or events)
        assert kinds(events) == [("press", "UP")]
    finally:
        source.stop()


def test_a_line_cut_as_the_box_is_taken_is_as_old_as_its_start() -> None:
    """The port held "P OK" and the start of "P DOWN": its end, coming after, is no press either."""
    source, port, clock, got = _taken(b"P OK\nP DO", 1)
    try:
        clock.advance(0.5)
        port.write(b"WN\nP UP\n")
        events: list[ButtonEvent] = []
        wait_for(lambda: events.extend(source.poll()) or events)
        assert kinds(got + events) == [("press", "UP")]
        assert source.garbage_count == 0                # (not "WN" taken for a line of garbage)
    finally:
        source.stop()
