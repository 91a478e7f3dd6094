"""Half a line from the USB button box, then silence: the box reset mid-line (a brown-out, a static
shock from a player's hand) while its USB bridge stayed plugged, so the port never vanished. Its
next line came glued to the cut one ("P O" + "P OK\\n" = "P OP OK"): garbage, so the first press
after the reset did nothing. A line end come late made a press of a line as old as the silence.
Driven through the box's real reader thread on a pyserial loop:// port, on a virtual clock."""
from __future__ import annotations

import logging

import pytest
from hw_helpers import FakeClock, box_on_loop, wait_for

from hardware.button_serial import SerialButtonSource


@pytest.fixture
def box():
    yield from box_on_loop(50.0)


def send(source: SerialButtonSource, port, clock: FakeClock, data: bytes) -> None:
    """The box sends `data` now; returns once the reader has taken it in: a line understood now, or
    the start of a line waiting for its end."""
    port.write(data)
    if data.endswith(b"\n"):
        wait_for(lambda: port.in_waiting == 0 and source.last_heard == clock.t, what="the box's line read")
    else:
        wait_for(lambda: port.in_waiting == 0 and source._splitter.pending(), what="the start of a line read")


def events(source: SerialButtonSource) -> list[tuple[str, str]]:
    return [(e.kind, e.name) for e in source.poll()]


def test_the_first_press_after_a_line_cut_short_is_taken(box, caplog) -> None:
    source, port, clock = box
    send(source, port, clock, b"P UP\nR UP\n")
    assert events(source) == [("press", "UP"), ("release", "UP")]
    with caplog.at_level(logging.WARNING, logger="hardware"):
        clock.advance(1.0)
        send(source, port, clock, b"P O")            # the box resets mid-line: the rest never comes
        clock.advance(5.0)
        send(source, port, clock, b"P OK\nR OK\n")   # the player's next press, after the reset
    assert events(source) == [("press", "OK"), ("release", "OK")]
    assert source.garbage_count == 1 and "cut short" in source.last_garbage
    assert sum("cut short" in r.getMessage() for r in caplog.records) == 1
    assert source.status.connected and source.status.message == ""


def test_a_line_end_come_late_is_not_a_press_made_now(box) -> None:
    """`P OK` sent, its line end 30 s later: the press is as old as its start, not one made now."""
    source, port, clock = box
    send(source, port, clock, b"P OK")
    clock.advance(30.0)
    send(source, port, clock, b"\nP HOLD1\nR HOLD1\n")
    assert events(source) == [("press", "HOLD1"), ("release", "HOLD1")]


def test_a_line_sent_in_two_pieces_close_together_is_one_press(box) -> None:
    """A USB bridge may hand a line over in two pieces, a few ms apart: still one line."""
    source, port, clock = box
    send(source, port, clock, b"P O")
    clock.advance(0.02)
    send(source, port, clock, b"K\nR OK\n")
    assert events(source) == [("press", "OK"), ("release", "OK")]
    assert source.garbage_count == 0
