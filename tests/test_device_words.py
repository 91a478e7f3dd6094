"""The button box, the webcam and the GPIO pins, failing as they fail in a café (unplugged, the
table's user not in the dialout/video/gpio group, held by another program), are named on the
screen and in the log in the staff's words with what to do, never as the library's quoted error
("[Errno 2] could not open port /dev/ttyUSB0: [Errno 2] No such file or directory: ...")."""
from __future__ import annotations

import errno
import logging
import os

import pytest
import serial
from gpiozero.pins.mock import MockFactory
from hw_helpers import wait_for

from hardware.button_gpio import GpioButtonSource
from hardware.button_serial import SerialButtonSource
from hardware.fakes import UnpluggablePort
from hardware.frame_opencv import OpenCVFrameSource
from hardware.frames import FrameSourceError

PORT = "/dev/ttyUSB0"
# what pyserial raises, word for word (serialposix.Serial.open and its exclusive lock)
NO_PORT = serial.SerialException(2, f"could not open port {PORT}: [Errno 2] No such file or directory: '{PORT}'")
DENIED = serial.SerialException(13, f"could not open port {PORT}: [Errno 13] Permission denied: '{PORT}'")
LOCKED = serial.SerialException(11, f"Could not exclusively lock port {PORT}: [Errno 11] Resource temporarily "
                                    "unavailable")
BUSY = serial.SerialException(16, f"could not open port {PORT}: [Errno 16] Device or resource busy: '{PORT}'")


def box_failing_with(exc: Exception) -> SerialButtonSource:
    def opener():
        raise exc
    return SerialButtonSource(PORT, opener=opener, read_timeout_s=0.02, reconnect_initial_s=0.01)


def message_once_down(source: SerialButtonSource) -> str:
    """The box's status message once it has said it is not available (started, then stopped)."""
    source.start()
    try:
        assert wait_for(lambda: "not available" in source.status.message)
        return source.status.message
    finally:
        source.stop()


@pytest.mark.parametrize("exc, words", [
    (NO_PORT, "the box is not plugged in, or is on another port"),
    (DENIED, "not in the dialout group (sudo usermod -aG dialout"),
    (LOCKED, f"another program holds {PORT}"),
    (BUSY, f"sudo fuser -v {PORT} names it"),
], ids=["unplugged", "EACCES", "locked", "EBUSY"])
def test_a_button_box_that_will_not_open_is_named_in_plain_words(exc, words, caplog) -> None:
    source = box_failing_with(exc)
    with caplog.at_level(logging.WARNING, logger="hardware.button_serial"):
        source_message = message_once_down(source)
    said = [r.getMessage() for r in caplog.records if "not available" in r.getMessage()]
    assert said, "nothing logged"
    for text in (said[0], source_message):
        assert words in text, text
        assert "[Errno" not in text and "could not open port" not in text, text


def test_a_box_on_a_pattern_that_matches_nothing_is_said_unplugged(tmp_path) -> None:
    source = SerialButtonSource(str(tmp_path / "ttyACM*"), read_timeout_s=0.02, reconnect_initial_s=0.01)
    message = message_once_down(source)
    assert "the box is not plugged in" in message, message


def test_a_box_pulled_out_mid_game_is_said_unplugged_not_quoted(caplog) -> None:
    port = UnpluggablePort(serial.serial_for_url("loop://", timeout=0.02))
    source = SerialButtonSource(PORT, opener=lambda: port, read_timeout_s=0.02, reconnect_initial_s=0.01)
    source.start()
    try:
        assert wait_for(lambda: source.status.connected)
        port.unplug()
        assert wait_for(lambda: "disconnected" in source.status.message)
        message = source.status.message
    finally:
        source.stop()
    assert "the box was unplugged, or its cable is loose" in message, message
    assert "device reports readiness" not in message


class ClosedCapture:
    """What cv2.VideoCapture gives for a device it cannot open: not opened, no reason."""

    def isOpened(self) -> bool:
        return False

    def release(self) -> None:
        pass


def camera_error(device: str) -> str:
    source = OpenCVFrameSource(device, capture_factory=lambda *_: ClosedCapture())
    with pytest.raises(FrameSourceError) as raised:
        source.open()
    return raised.value.reason


def test_a_webcam_not_plugged_in_is_said_so() -> None:
    reason = camera_error("/dev/video77")
    assert "is the camera plugged in?" in reason, reason


def webcam_there(monkeypatch, may_open: bool) -> None:
    """/dev/video77 is there, and the table's user may (or may not) open it."""
    real_exists, real_access = os.path.exists, os.access
    monkeypatch.setattr(os.path, "exists", lambda p: p == "/dev/video77" or real_exists(p))
    monkeypatch.setattr(os, "access", lambda p, mode: may_open if p == "/dev/video77" else real_access(p, mode))


def test_a_webcam_the_table_may_not_open_names_the_video_group(monkeypatch) -> None:
    webcam_there(monkeypatch, may_open=False)
    reason = camera_error("/dev/video77")
    assert "not in the video group (sudo usermod -aG video" in reason, reason


def test_a_webcam_held_by_another_program_says_how_to_find_it(monkeypatch) -> None:
    webcam_there(monkeypatch, may_open=True)
    reason = camera_error("/dev/video77")
    assert "another program may hold it (sudo fuser -v /dev/video77" in reason, reason


def test_gpio_pins_held_by_another_program_are_said_so_not_quoted() -> None:
    factory = MockFactory()
    try:
        first = GpioButtonSource({"OK": 17}, pin_factory=factory)
        second = GpioButtonSource({"OK": 17}, pin_factory=factory)
        first.start()
        second.start()
        message = second.status.message
        first.stop()
        second.stop()
    finally:
        factory.reset()
    assert "another program holds the pins" in message, message
    assert "<gpiozero" not in message, message


class LgpioError(Exception):
    """lgpio's own exception (lgpio.error), as it comes from the factory at a chip it cannot open."""


@pytest.mark.parametrize("chip_there, may_open, words", [
    (True, False, "not in the gpio group (sudo usermod -aG gpio"),
    (False, False, "no GPIO pins here (/dev/gpiochip0 not found)"),
], ids=["EACCES", "ENODEV"])
def test_gpio_chip_that_cannot_be_opened_says_why(chip_there, may_open, words, monkeypatch) -> None:
    real_exists, real_access = os.path.exists, os.access
    chip = "/dev/gpiochip0"
    monkeypatch.setattr(os.path, "exists", lambda p: chip_there if p == chip else real_exists(p))
    monkeypatch.setattr(os, "access", lambda p, mode: may_open if p == chip else real_access(p, mode))

    def no_chip(self):
        raise LgpioError("'can not open gpiochip'")

    monkeypatch.setattr(GpioButtonSource, "_factory", no_chip)
    source = GpioButtonSource({"OK": 17}, pin_factory=MockFactory())
    source.start()
    assert words in source.status.message, source.status.message


@pytest.mark.parametrize("number", [errno.EACCES, errno.EBUSY, errno.ENODEV])
def test_gpio_oserrors_by_their_number(number, monkeypatch) -> None:
    def failing(self):
        raise OSError(number, os.strerror(number))

    monkeypatch.setattr(GpioButtonSource, "_factory", failing)
    source = GpioButtonSource({"OK": 17}, pin_factory=MockFactory())
    source.start()
    assert "[Errno" not in source.status.message, source.status.message
    assert "gpio" in source.status.message.lower()
