"""Every notice the table can put in the play screen's banner (the camera or the buttons down, the
tray's and a die's problems, the staff's calibration notices, the config file's and the storage's
problems) is read whole at 320x240, 480x320 and 800x480: each word of it on one of its pages, no
line shrunk below the legible minimum or cut with "...", every line inside the screen. A button
box named by its /dev/serial/by-id/ link (as docs/hardware.md advises) was drawn
".../dev/serial/by-id/usb-Ar..." at every size: which box, never on screen."""
from __future__ import annotations

import errno

import pygame
import pytest

from controller.bench_table import late_game
from controller.knock_notice import banner_words
from controller.table import DECIDE
from controller.tray_words import DIE_TROUBLE, LEFT_WORDS, TRAY_TROUBLE, staff_notice_words
from display import render as render_module
from hardware.device_words import gpio_words, serial_words
from display import theme
from display.device_names import on_screen
from display.draw import printable
from display.view import MessageView
from vision.die_size import smaller_told
from vision.reader import _shift_words
from vision.tray_moved import Knock, moved_words


def _slow_words(gap: float) -> str:
    """What the screen says of a camera sending a picture every `gap` s (controller/slow_camera.py)."""
    from controller.slow_camera import SlowCameraWatch

    watch = SlowCameraWatch()
    watch.slow_s = gap
    return watch.words()


SIZES = [(320, 240), (480, 320), (800, 480)]
BY_ID = "/dev/serial/by-id/usb-Arduino_LLC_Arduino_Leonardo-if00"

NOTICES = {
    "box gone": "Buttons: serial: button box on /dev/ttyACM0 disconnected: [Errno 5] Input/output error. Retrying...",
    "box by-id gone": f"Buttons: serial: button box on {BY_ID} disconnected: could not open port. Retrying...",
    "box lost, others work": (f"Buttons: serial: button box on {BY_ID} disconnected: [Errno 19] No such device; "
                              "gpio: OK and HOLD 3 buttons stuck: call staff. The other buttons work."),
    "box flooding": ("Buttons: serial: the button box on /dev/ttyACM0 sends presses faster than hands can (a button "
                     "stuck inside it, or its firmware): they are ignored until it stops; check the box. Retrying..."),
    **{f"box {why}": f"Buttons: serial: button box on {BY_ID} not available: {serial_words(exc, BY_ID)}. Retrying..."
       for why, exc in [("gone", OSError(errno.ENOENT, "")), ("denied", OSError(errno.EACCES, "")),
                        ("held", OSError(errno.EBUSY, "")), ("cut", OSError(errno.EIO, ""))]},
    "camera no group": ("Camera: opencv: cannot open camera '/dev/video0' (the table may not open it: its user is not "
                        "in the video group (sudo usermod -aG video dicetable, then reboot)). Retrying..."),
    "gpio no group": ("Buttons: gpio: GPIO buttons unavailable: " + gpio_words(OSError(errno.EACCES, ""))
                      + ". The other buttons work."),
    "camera silent": ("Camera: camera: no picture for 3 s or more: it does not answer (unplugged, or its USB port "
                      "short of power). Retrying..."),
    "camera by-id": ("Camera: camera: cannot open /dev/v4l/by-id/usb-046d_HD_Pro_Webcam_C920_8C1F6B2F-video-index0 "
                     "(no such device). Retrying..."),
    "camera quiet": "Camera: no new picture for a few seconds. Dice thrown now are not seen; waiting for it...",
    "camera black": ("Camera: the picture is black (too dark to see dice). Is the lens covered, or the light over "
                     "the tray off? Dice thrown now are not seen."),
    "camera slow": _slow_words(12.5),
    "box button flickers": ("Buttons: serial: HOLD2 button presses itself: call staff; gpio: OK button stuck: call "
                            "staff. The other buttons work."),
    "dice bigger": staff_notice_words("the dice are bigger than the ones calibrated (92 px, calibrated 61 px): run "
                                      "dicetable calibrate again with the dice played"),
    "dice smaller": staff_notice_words(smaller_told(24, 55).message),
    "tray knocked": staff_notice_words("the tray is not where it was calibrated (moved "
                                       + _shift_words((-20, 12), 1.0) + "): run dicetable calibrate again"),
    "tray knocked and turned": staff_notice_words("the tray is not where it was calibrated ("
                                                  + Knock(-20, 12, -1.5).words(1.0)
                                                  + "): run dicetable calibrate again"),
    "tray knocked, the banner": banner_words("the tray is not where it was calibrated (moved "
                                             + Knock(-20, 12, -1.5).words(1.0) + "): run dicetable calibrate again"),
    "camera raised": staff_notice_words(moved_words(Knock(0, 0, 0.0, 0.88))),
    "camera lowered and moved, the banner": banner_words(moved_words(Knock(6, -5, 0.0, 1.12))),
    "camera lowered, the tray fills the view, the banner": banner_words(
        "the camera was lowered since calibration (its felt reaches past the left and right sides): run dicetable "
        "calibrate again"),
    "tray moved": staff_notice_words("the tray is not where it was calibrated (its felt reaches past the left "
                                     "side): run dicetable calibrate again"),
    "other view": staff_notice_words("the calibration was taken on 1280x720 frames and the camera sends 640x480, "
                                     "another view: run dicetable calibrate again"),
    "config": ("Config file mistake, left out: [camera] exposure = 'fast': must be a number. The table uses the "
               "defaults for them. Staff: dicetable check says what to fix."),
    "config, a long word": ("Config file mistake, left out: [players] names = "
                            "'AnnBobCyDeeEveFayGusHalIvyJoKimLeoMoNedOzPamQuinRoySueTimUlaVicWesXanYoZedAbeBoCal' "
                            "(one name): too long. The table uses the defaults for them."),
    "unsaved": ("This game can no longer be saved ([Errno 28] No space left on device): a power cut would lose the "
                "moves from now on. Please tell the staff."),
    "left thing": LEFT_WORDS,
    **{f"tray {code}": words for code, (_, words) in TRAY_TROUBLE.items()},
    **{f"die {code}": words.format(n=3) for code, words in DIE_TROUBLE.items()},
}


def thirteen_at_a_decision():
    """A Thirteen game half played, at a player's decision: a screen with a sheet, a menu and
    the banner's room between them."""
    pygame.font.init()
    flow, rest = late_game("thirteen", 0.5)
    while flow.phase != DECIDE and rest:
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    return flow


@pytest.fixture(scope="module")
def flow():
    return thirteen_at_a_decision()


def banner_lines_drawn(monkeypatch) -> list[tuple[str, pygame.Rect, int, bool]]:
    """Every line the banner draws from now on (bold, centred at its top), with its rect, size
    asked for and whether it was drawn at that size whole (neither shrunk nor cut)."""
    seen: list[tuple[str, pygame.Rect, int, bool]] = []
    real = render_module.text

    def text(surface, s, pos, size, *a, **kw):
        rect = real(surface, s, pos, size, *a, **kw)
        if kw.get("bold") and kw.get("anchor") == "midtop":
            drawn_at = max(int(size), theme.min_text(theme.scale(surface)))
            whole = theme.font(drawn_at, True).size(printable(s))[0]
            seen.append((s, rect, drawn_at, rect.width == whole))
        return rect

    monkeypatch.setattr(render_module, "text", text)
    return seen


def letters(s: str) -> str:
    return "".join(s.replace("…", "").split())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(NOTICES))
def test_every_notice_is_read_whole_in_the_play_screens_banner(name, size, flow, monkeypatch):
    notice = NOTICES[name]
    seen = banner_lines_drawn(monkeypatch)
    flow.screen_size = size
    flow.device_notice = MessageView(notice, "error")
    surface = pygame.Surface(size)
    least = theme.min_text(theme.scale(surface))
    pages = render_module.note_pages([notice], "play", size)
    read = ""
    for i in range(len(pages)):
        flow.clock.t = 1000 * flow.message_seconds * len(pages) + i * flow.message_seconds + 0.5
        view = flow.view(None)
        assert letters(on_screen(view.message.text)) == letters(pages[i])
        seen.clear()
        render_module.render(surface, view)
        lines = [line for line in seen if line[0].strip()]
        assert lines, f"page {i + 1} of {name!r} drew nothing"
        for s, rect, drawn_at, whole in lines:
            assert whole, f"{s!r} shrunk or cut at {size}"
            assert drawn_at >= least, f"{s!r} drawn at {drawn_at} px, under {least}"
            assert surface.get_rect().contains(rect), f"{s!r} outside the {size} screen"
        read += "".join(letters(line[0]) for line in lines)
    # (a device's by-id path is said in plain words on screen, whole in the log: display.device_names)
    assert read == letters(on_screen(notice)), f"{name!r} at {size}: read {read!r}"
