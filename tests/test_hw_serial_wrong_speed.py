"""A button box at another speed than the table's `baudrate`: a box flashed with 9600 baud firmware,
a CH340 box swapped for an FTDI one set up otherwise. What reaches the table is what a UART at its
speed makes of the box's bits (`wire` below): NUL bytes, bytes over 0x7F, and mostly no line end at
all. The table said the box "sends what it cannot read" only after 20 garbage *lines*: a stream with
no line end was one over-long line, then dropped unseen up to a line end that never came, so the
players pressed, nothing moved, and nothing on the screen or in the log said why."""
from __future__ import annotations

import time

import pytest
import serial
from hw_helpers import FakeClock, kinds, wait_for

from hardware.button_serial import SerialButtonSource

#: what a box sends: its banner, its heartbeat, a player's presses
BANNER, PING, PRESS_OK = b"# dicetable-buttons v1\n", b"PING\n", b"P OK\nR OK\n"


def wire(data: bytes, sent_baud: int, read_baud: int) -> bytes:
    """What a UART reading at `read_baud` receives of `data` sent 8N1 at `sent_baud`: it waits for a
    start bit's falling edge, samples 8 bits at its own bit period, and passes the byte on whatever
    the stop bit (pyserial's raw mode: no INPCK, so a framing error is not dropped), then waits for the
    line to go idle again."""
    bits: list[int] = []
    for byte in data:
        bits += [0] + [(byte >> i) & 1 for i in range(8)] + [1]
    bits += [1] * 20

    def level(t: float) -> int:
        k = int(t * sent_baud)
        return bits[k] if k < len(bits) else 1

    end, step = len(bits) / sent_baud, 1 / (read_baud * 16)
    out = bytearray()
    t = 0.0
    while t < end:
        if level(t) == 0:
            start = t
            out.append(sum(level(start + (1.5 + i) / read_baud) << i for i in range(8)))
            t = start + 9.5 / read_baud
            while t < end and level(t) == 0:
                t += step
            continue
        t += step
    return bytes(out)


def two_events(source: SerialButtonSource) -> list:
    """The press and the release the box sent (read in one go or two)."""
    events: list = []
    wait_for(lambda: events.extend(source.poll()) or len(events) >= 2, what="the box's press")
    return events


SPEEDS = [(9600, 115200), (115200, 9600), (57600, 115200), (115200, 57600)]


@pytest.mark.parametrize("box_baud, table_baud", SPEEDS, ids=[f"box{b}-table{t}" for b, t in SPEEDS])
def test_a_box_at_another_speed_is_named_after_a_few_presses(box_baud: int, table_baud: int) -> None:
    """The box plugged in (banner, heartbeat), then Ann presses OK three times, a second apart, as
    players do when nothing answers. Within those presses the screen says the box cannot be read and
    names the speed to check; no press is taken. Set to the table's speed, the box is understood
    again at its next line and its presses count, without a restart."""
    clock = FakeClock(0.0)
    port = serial.serial_for_url("loop://", timeout=0.01)
    source = SerialButtonSource("/dev/ttyUSB0", opener=lambda: port, baudrate=table_baud, read_timeout_s=0.01,
                                clock=clock, busy_after_s=0)
    source.start()
    try:
        wait_for(lambda: source.status.connected, what="the box's port taken")

        def send(data: bytes, baud: int = box_baud) -> None:
            port.write(wire(data, baud, table_baud))
            wait_for(lambda: port.in_waiting == 0, what="the table read it")
            time.sleep(0.05)                # (the reader handles what it read)

        send(BANNER + PING)
        for _ in range(3):
            clock.advance(1.0)
            send(PRESS_OK)
        status = source.status
        assert not status.connected, "three presses at another speed, and the screen said nothing"
        assert "cannot read" in status.message and f"baudrate = {table_baud}" in status.message
        assert source.poll() == []
        clock.advance(1.0)
        send(PING + PRESS_OK, table_baud)    # the box set to the table's speed
        assert kinds(two_events(source)) == [("press", "OK"), ("release", "OK")]
        assert source.status.connected
    finally:
        source.stop()
        port.close()


def test_a_junk_byte_as_a_box_is_plugged_in_is_not_a_wrong_speed(caplog) -> None:
    """Many boxes send a stray byte or two as they power up (0x00, 0xFF): one burst, then lines the
    table understands. That is no alarm."""
    clock = FakeClock(0.0)
    port = serial.serial_for_url("loop://", timeout=0.01)
    source = SerialButtonSource("/dev/ttyUSB0", opener=lambda: port, read_timeout_s=0.01, clock=clock,
                                busy_after_s=0)
    source.start()
    try:
        wait_for(lambda: source.status.connected)
        port.write(b"\x00\xff")
        wait_for(lambda: port.in_waiting == 0)
        time.sleep(0.05)
        clock.advance(2.0)
        port.write(b"\n" + BANNER + PING + PRESS_OK)
        assert kinds(two_events(source)) == [("press", "OK"), ("release", "OK")] and source.status.connected
        assert "cannot read" not in caplog.text
    finally:
        source.stop()
        port.close()


def test_stray_bytes_far_apart_are_not_a_wrong_speed() -> None:
    """A noisy cable's stray byte every few minutes, on a box that sends no heartbeat (nothing
    understood between them): not a box at another speed."""
    clock = FakeClock(0.0)
    source = SerialButtonSource("/dev/ttyUSB0", opener=lambda: None, clock=clock, busy_after_s=0)
    source._status = source._status.__class__(True, "")          # (as after a connect)
    for _ in range(5):
        source._handle(b"\xff\n")
        clock.advance(120.0)
    assert source.status.connected and source.garbage_count == 5
