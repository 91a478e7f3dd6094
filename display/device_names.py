"""A device's /dev/.../by-id/ path as the screen says it: in plain words.

A button box or a camera named by its by-id link (as docs/hardware.md advises) is named so in
the notices about it, which are logged whole. On screen the path was one long word
(*/dev/serial/by-id/usb-Arduino_LLC_Arduino_Leonardo-if00*) broken into pieces over a banner's
lines: at 320x240 *Buttons: serial: button box on ... disconnected: could not open port.
Retrying...* took 4 pages (a minute's reading), the denied box's 8, the held box's 10, for
players to whom the path says nothing. The screen names the device in plain words (*its USB
port*, *the USB camera*); the path, and a command that needs it (*sudo fuser -v <path> names
it*), are in the log (`journalctl -u dicetable`) and in `dicetable check`'s output.
"""
from __future__ import annotations

import re

_PATH = r"/dev/(?:serial|v4l)/by-id/[^\s'\"(),;]*[^\s'\"(),;.:]"
_COMMAND = re.compile(rf"sudo fuser -v {_PATH} names it")
_NAMES = [(re.compile(r"'?/dev/serial/by-id/[^\s'\"(),;]*[^\s'\"(),;.:]'?"), "its USB port"),
          (re.compile(r"'?/dev/v4l/by-id/[^\s'\"(),;]*[^\s'\"(),;.:]'?"), "the USB camera")]


def on_screen(text: str) -> str:
    """`text` with every /dev/serial/by-id/ and /dev/v4l/by-id/ link in it said in plain words (a
    directory alone, *ls /dev/serial/by-id/*, stays: it is what staff type)."""
    text = _COMMAND.sub("the log names the command that finds it", text)
    for path, words in _NAMES:
        text = path.sub(words, text)
    return text
