"""A button box or camera named by its /dev/.../by-id/ link (as docs/hardware.md advises), down
at a table with a 320x240 panel: the notice took 4 pages (the held box's 10), most of them
pieces of the path (*/dev/serial/by-id/usb-*, *Arduino_LLC_Ardu*...), which tell players
nothing. The screen says it in plain words; the path is in the log, whole."""
from __future__ import annotations

import logging

import pygame
import pytest

from display import render as render_module
from display.view import MessageView
from test_notices_fit import banner_lines_drawn, thirteen_at_a_decision

BOX = "/dev/serial/by-id/usb-Arduino_LLC_Arduino_Leonardo-if00"
CAMERA = "/dev/v4l/by-id/usb-046d_HD_Pro_Webcam_C920_8C1F6B2F-video-index0"
NOTICES = {
    "box": (f"Buttons: serial: button box on {BOX} disconnected: could not open port. Retrying...", "its USB port"),
    "camera": (f"Camera: camera: cannot open {CAMERA} (no such device). Retrying...", "the USB camera"),
    "held box": (f"Buttons: serial: button box on {BOX} not available: another program holds {BOX} (a second "
                 f"table, a serial console, ModemManager): sudo fuser -v {BOX} names it; stop it. Retrying...",
                 "its USB port"),
}


@pytest.fixture(scope="module")
def flow():
    flow = thirteen_at_a_decision()
    flow.screen_size = (320, 240)
    return flow


@pytest.mark.parametrize("name", list(NOTICES))
def test_a_device_named_by_its_path_is_said_in_plain_words_on_a_320x240_screen(name, flow, monkeypatch, caplog):
    notice, words = NOTICES[name]
    with caplog.at_level(logging.INFO):
        flow.say(notice, "error")
    assert notice in caplog.text                        # the log keeps the path, whole
    pages = render_module.note_pages([notice], "play", (320, 240))
    assert len(pages) <= (4 if name == "held box" else 2), pages      # (were 4, 4 and 10)
    seen = banner_lines_drawn(monkeypatch)
    surface = pygame.Surface((320, 240))
    read = []
    for page in pages:
        seen.clear()
        flow.message = MessageView(page, "error")
        render_module.render(surface, flow.view(None))
        read += [line[0] for line in seen]
    on_screen = " ".join(read)
    assert words in on_screen, on_screen
    assert "by-id" not in on_screen and "Arduino" not in on_screen and "Webcam" not in on_screen, on_screen
