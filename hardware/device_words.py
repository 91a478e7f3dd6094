"""What a device error means, in the words of the staff who must act on it.

The button box, the webcam and the GPIO pins fail for three reasons a café meets: the device
is not there (unplugged, another port), the table's user may not open it (not in the dialout,
video or gpio group: EACCES), or another program holds it (a second table, a serial console,
`dicetable check` left running: EBUSY). The libraries say so in their own words, and those
words were put on the screen and in the log as they came: "[Errno 2] could not open port
/dev/ttyUSB0: [Errno 2] No such file or directory: '/dev/ttyUSB0'". Here each becomes what
happened and what to do; the library's own text is kept for the log at debug level only.
"""
from __future__ import annotations

import errno
import getpass
import os
import re

GONE = frozenset({errno.ENOENT, errno.ENODEV, errno.ENXIO})
DENIED = frozenset({errno.EACCES, errno.EPERM})
HELD = frozenset({errno.EBUSY, errno.EAGAIN})   # (EAGAIN: pyserial's exclusive lock taken by another)
CUT = frozenset({errno.EIO, errno.EPIPE})
_ERRNO_TEXT = re.compile(r"\[Errno (\d+)\]")


def table_user() -> str:
    """The user the table runs as (named in the usermod line staff are told to type)."""
    try:
        return getpass.getuser()
    except Exception:       # (no name for this uid: a container)
        return "THE_TABLE_USER"


def errno_of(exc: BaseException | None) -> int | None:
    """The errno behind `exc`: its own, its cause's, or the first "[Errno N]" its text quotes
    (pyserial wraps the OSError of open() in a SerialException that keeps only its text)."""
    seen = 0
    while exc is not None and seen < 5:
        number = getattr(exc, "errno", None)
        if isinstance(number, int):
            return number
        found = _ERRNO_TEXT.search(str(exc))
        if found:
            return int(found.group(1))
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def serial_words(exc: BaseException | None, port: str) -> str:
    """Why the button box on `port` cannot be opened or read, and what staff do about it."""
    number = errno_of(exc)
    text = str(exc or "")
    if number in GONE:
        return ("the box is not plugged in, or is on another port: plug it in, or set the port of its "
                "[[buttons.sources]] (type = \"serial\") to what ls /dev/serial/by-id/ shows")
    if number in DENIED:
        return (f"the table may not open {port}: its user is not in the dialout group (sudo usermod -aG dialout "
                f"{table_user()}, then reboot)")
    if number in HELD or "exclusively lock" in text:
        return (f"another program holds {port} (a second table, a serial console, ModemManager): sudo fuser -v "
                f"{port} names it; stop it")
    if number in CUT or "returned no data" in text or "device disconnected" in text:
        return "the box was unplugged, or its cable is loose: plug it back in (the table takes it up by itself)"
    return plain(exc)


def camera_words(device: int | str) -> str:
    """Why the camera `device` did not open (OpenCV says only that it did not): found by looking
    at its device file, the way the staff would (ls -l /dev/video0)."""
    path = f"/dev/video{device}" if isinstance(device, int) else str(device)
    if not path.startswith("/dev/"):
        return "unplugged or in use?"
    if not os.path.exists(path):
        return "no such device: is the camera plugged in? (ls /dev/v4l/by-id/ lists the cameras there)"
    if not os.access(path, os.R_OK | os.W_OK):
        return (f"the table may not open it: its user is not in the video group (sudo usermod -aG video "
                f"{table_user()}, then reboot)")
    return f"another program may hold it (sudo fuser -v {path} names it), or it is not a camera"


def gpio_words(exc: BaseException, chip: str = "/dev/gpiochip0") -> str | None:
    """Why the GPIO pins could not be claimed, or None where the error says it well enough."""
    number = errno_of(exc)
    text = str(exc)
    lowered = text.lower()
    if number in HELD or "busy" in lowered or "already in use" in lowered or "edge detection" in lowered:
        return ("another program holds the pins (a second table, dicetable check, a GPIO script): stop it; "
                "the table tries again by itself")
    denied = number in DENIED or "no access" in lowered or "permission" in lowered
    if "can not open gpiochip" in lowered or "cannot open gpiochip" in lowered:
        if not os.path.exists(chip):
            return f"no GPIO pins here ({chip} not found): not a Raspberry Pi? Use the button box or the keyboard"
        denied = denied or not os.access(chip, os.R_OK | os.W_OK)
    if denied:
        return (f"the table may not use the pins: its user is not in the gpio group (sudo usermod -aG gpio "
                f"{table_user()}, then reboot)")
    if number in GONE:
        return f"no GPIO pins here ({chip} not found): not a Raspberry Pi? Use the button box or the keyboard"
    return None


def plain(exc: BaseException | None) -> str:
    """An error without the "[Errno N]" and the repeats a library wraps it in: the system's words."""
    number = errno_of(exc)
    if number is not None and number > 0:
        try:
            return os.strerror(number).lower()
        except ValueError:
            pass
    return _ERRNO_TEXT.sub("", str(exc or "")).strip() or type(exc).__name__
