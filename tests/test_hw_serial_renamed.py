"""A button box unplugged and plugged back twice in a game, on a table whose config names its port
plainly (`port = "/dev/ttyUSB0"`, as `dmesg` showed it on the day it was installed). Plugged back
while its old node is still held (the table had not yet let go of it, another USB serial adapter took
the name meanwhile), the kernel names it /dev/ttyUSB1; udev's /dev/serial/by-id/ link follows it.
Before, the table waited for /dev/ttyUSB0 for the rest of the evening: the screen said the box was
not plugged in while it was, and no press of it counted until a restart. A webcam is found again by
its by-id link (docs/hardware.md); now the box is too."""
from __future__ import annotations

import errno
import logging
import os
from pathlib import Path
from typing import Any

import serial
from hw_helpers import kinds, wait_for

from hardware.button_serial import SerialButtonSource
from hardware.fakes import UnpluggablePort

LINK = "usb-1a86_USB_Serial-if00-port0"       # what udev names a CH340 box by


class UsbBus:
    """/dev as the box's replugs leave it: device files in `dev`, the by-id link in `by_id`, and
    `serial.serial_for_url` opening the box's node only (a node that is not there: ENOENT)."""

    def __init__(self, tmp_path: Path, monkeypatch: Any) -> None:
        self.dev = tmp_path / "dev"
        self.by_id = tmp_path / "by-id"
        self.dev.mkdir()
        self.by_id.mkdir()
        self.ports: dict[str, UnpluggablePort] = {}
        self.opened: list[str] = []
        self._loop = serial.serial_for_url
        monkeypatch.setattr(serial, "serial_for_url", self.open)
        monkeypatch.setattr("hardware.button_serial.SERIAL_BY_ID", str(self.by_id), raising=False)

    def open(self, url: str, **kw: Any) -> UnpluggablePort:
        if not os.path.exists(url):
            raise serial.SerialException(errno.ENOENT, f"could not open port {url}: [Errno 2] No such file or "
                                                       f"directory: '{url}'")
        node = os.path.realpath(url)
        self.opened.append(node)
        self.ports[node] = UnpluggablePort(self._loop("loop://", timeout=0.01))
        return self.ports[node]

    def plug(self, name: str) -> str:
        """The box appears as /dev/`name`, its by-id link pointing at it."""
        node = self.dev / name
        node.touch()
        link = self.by_id / LINK
        if link.is_symlink():
            link.unlink()
        link.symlink_to(node)
        return str(node)

    def unplug(self, node: str) -> None:
        """The cable pulled: reads raise (pyserial's SerialException), the node and the link go."""
        self.ports[node].unplug()
        os.unlink(node)
        (self.by_id / LINK).unlink()


def press(port: UnpluggablePort, source: SerialButtonSource, button: str = "OK") -> list:
    port.write(f"P {button}\nR {button}\n".encode())
    events: list = []
    wait_for(lambda: events.extend(source.poll()) or len(events) >= 2, what=f"{button} pressed on the box")
    return kinds(events)


def test_a_box_plugged_back_under_another_name_is_taken_up_twice(tmp_path, monkeypatch, caplog) -> None:
    bus = UsbBus(tmp_path, monkeypatch)
    first = bus.plug("ttyUSB0")
    source = SerialButtonSource(first, read_timeout_s=0.01, reconnect_initial_s=0.01, reconnect_max_s=0.05,
                                busy_after_s=0)
    source.start()
    caplog.set_level(logging.INFO)
    try:
        wait_for(lambda: source.status.connected, what="the box taken")
        assert press(bus.ports[first], source) == [("press", "OK"), ("release", "OK")]

        bus.unplug(first)                            # pulled out; ttyUSB0 still held: back as ttyUSB1
        wait_for(lambda: not source.status.connected, what="the unplug seen")
        assert "unplugged" in source.status.message
        second = bus.plug("ttyUSB1")
        wait_for(lambda: source.status.connected, what="the box taken up as /dev/ttyUSB1 (before: the table "
                 "waited for /dev/ttyUSB0 all evening)")
        assert press(bus.ports[second], source, "HOLD2") == [("press", "HOLD2"), ("release", "HOLD2")]
        assert any("ttyUSB1" in r.getMessage() for r in caplog.records)     # the log names where it is now

        bus.unplug(second)                           # and again, later in the game
        wait_for(lambda: not source.status.connected, what="the second unplug seen")
        third = bus.plug("ttyUSB2")
        wait_for(lambda: source.status.connected, what="the box taken up as /dev/ttyUSB2")
        assert press(bus.ports[third], source, "UP") == [("press", "UP"), ("release", "UP")]
        assert bus.opened == [first, second, third]
    finally:
        source.stop()


def test_a_box_plugged_back_under_its_own_name_is_taken_up_as_before(tmp_path, monkeypatch) -> None:
    """Let go of in time, the box comes back as /dev/ttyUSB0: the configured name, as ever."""
    bus = UsbBus(tmp_path, monkeypatch)
    first = bus.plug("ttyUSB0")
    source = SerialButtonSource(first, read_timeout_s=0.01, reconnect_initial_s=0.01, reconnect_max_s=0.05,
                                busy_after_s=0)
    source.start()
    try:
        wait_for(lambda: source.status.connected)
        bus.unplug(first)
        wait_for(lambda: not source.status.connected)
        bus.plug("ttyUSB0")
        wait_for(lambda: source.status.connected)
        assert press(bus.ports[first], source) == [("press", "OK"), ("release", "OK")]
    finally:
        source.stop()
