"""A webcam that hangs (stops streaming: V4L2's grab waits up to 10 s) must not hold the table up:
its buttons and its screen go on, the screen names the camera, and the camera comes back."""
from __future__ import annotations

import argparse
import logging
import threading
from typing import Any

from hw_helpers import FakeClock, QuietPanel, wait_for

from display.screen import Screen
from hardware import RetryingFrameSource
from hardware.fakes import HangingCapture
from hardware.frame_opencv import OpenCVFrameSource




def thirteen_for_ann(tmp_path: Any, camera: str) -> tuple[Any, QuietPanel, list[Any]]:
    """The real table (`TableApp.from_args`) with the `[camera]` lines given, headless, playing
    Thirteen for Ann; its buttons a quiet panel, the views it shows kept in a list."""
    from controller.setup_menu import SetupResult
    from controller.table_app import TableApp

    config = tmp_path / "config.toml"
    config.write_text(f'[table]\njournal_dir = "{tmp_path}"\n[camera]\n{camera}[buttons]\ntype = "keyboard"\n')
    app = TableApp.from_args(argparse.Namespace(config=str(config), fullscreen=False, headless=True))
    app.buttons.stop()
    app.buttons = panel = QuietPanel()
    app.menu.done = SetupResult("thirteen", ("Ann",), {})
    app.start_new()
    shown: list[Any] = []
    app.screen.show = shown.append
    return app, panel, shown


def _hint() -> Any:
    return type("P", (), {"kind": "press", "name": "HINT"})()


def test_a_webcam_that_hangs_leaves_the_buttons_and_the_screen_working(tmp_path, monkeypatch):
    """`dicetable run` with a USB webcam that stops streaming. Before, the table's loop read it: each
    pass waited in its grab (10 s), the screen and the buttons dead meanwhile (a HINT pressed was
    taken only once the wait was over). Now the camera is read on a thread of its own."""

    capture = HangingCapture()
    monkeypatch.setattr("hardware.frame_opencv._default_capture_factory", lambda device, api: capture)
    app, panel, shown = thirteen_for_ann(tmp_path, 'type = "opencv"\ndevice = "/dev/video0"\n')
    try:
        wait_for(lambda: app.step() or app._last_frame_at is not None)     # (a picture from the camera)
        capture.hang()                                  # it stops streaming
        for _ in range(3):
            panel.queue = [_hint()]
            app.step()
        wait_for(lambda: capture.hanging, what="the camera still hung as the passes ended (before: each pass "
                 "waited until its grab gave up)")
        assert app.flow.help_shown                      # three HINT presses taken: open, shut, open
        assert len(shown) >= 4                          # the screen drawn at every pass
        assert threading.get_ident() not in capture.threads     # the loop never waits for the camera
        assert len(capture.threads) == 1                # (one thread uses the capture: never two at once)
        capture.answer()                                # it streams again
        delivered = app.frames.delivered
        wait_for(lambda: app.step() or app.frames.delivered > delivered)
    finally:
        capture.answer()
        app.frames.close()
    assert app.frames._thread is None and capture.released     # its own thread closed it at exit


def _reader(capture: HangingCapture, clock: Any = None, **kw: Any):
    from hardware.frame_reader import FrameReader

    camera = OpenCVFrameSource("/dev/video0", capture_factory=lambda device, api: capture, by_id_dir="/nonexistent")
    return FrameReader(RetryingFrameSource(camera), clock=clock, **kw)


def test_the_screen_names_a_camera_that_does_not_answer_while_it_waits(caplog):
    """The stall was said only once V4L2 gave up (10 s): the players threw dice meanwhile. Now a read
    waiting 3 s is named, once in the log, and the camera answering again clears it."""
    clock = FakeClock(0.0)
    capture = HangingCapture()
    reader = _reader(capture, clock)
    reader.open()
    try:
        wait_for(reader.read)
        capture.hang()
        wait_for(lambda: capture.hanging)
        clock.advance(2.9)
        assert reader.error is None
        clock.advance(0.1)
        with caplog.at_level(logging.WARNING, logger="hardware"):
            said = [str(reader.error) for _ in range(20)]
        assert len(set(said)) == 1 and "no picture for 3 s or more: it does not answer" in said[0]
        assert sum("it does not answer" in r.getMessage() for r in caplog.records) == 1
        capture.answer()
        wait_for(reader.read)
        assert reader.error is None
    finally:
        capture.answer()
        reader.close()


def test_the_frames_handed_over_are_one_the_newest_however_slow_the_loop():
    """A loop held up (reading dice) finds one frame waiting, the newest read, not a queue of them."""
    capture = HangingCapture()
    reader = _reader(capture, fresh_s=0.001)
    reader.open()
    try:
        wait_for(lambda: reader.replaced >= 5)          # frames read and replaced while nobody took one
        capture.hang()
        wait_for(lambda: capture.hanging)
        frame = reader.read()
        assert frame is not None and frame.index == reader.replaced   # (frames 0..n-1 replaced: n is the last)
        assert reader.read() is None                    # nothing queued behind it
    finally:
        capture.answer()
        reader.close()


def test_stopping_the_table_while_the_camera_hangs_does_not_wait_for_it(caplog):
    """systemctl stop while a grab waits: the table stops (the thread, a daemon, ends with it)."""
    capture = HangingCapture()
    reader = _reader(capture, close_wait_s=0.05)
    reader.open()
    wait_for(reader.read)
    capture.hang()
    wait_for(lambda: capture.hanging)
    thread = reader._thread
    with caplog.at_level(logging.WARNING, logger="hardware"):
        reader.close()
    assert thread.daemon and "not waited for at exit" in caplog.text
    capture.answer()                                    # (the camera answers: the thread closes it)
    thread.join(5.0)
    assert not thread.is_alive() and capture.released


def test_a_camera_that_fails_to_open_is_retried_on_the_thread_and_named():
    """The webcam unplugged at start: the error is the retrying source's, as before, and a camera
    plugged in later is opened (by the same thread)."""
    from hardware.frame_reader import FrameReader

    plugged = threading.Event()

    def factory(device, api):
        if not plugged.is_set():
            raise RuntimeError("no such device")
        return capture

    capture = HangingCapture()
    camera = OpenCVFrameSource("/dev/video0", capture_factory=factory, by_id_dir="/nonexistent")
    clock = FakeClock(0.0)
    from hardware.retry import Backoff

    reader = FrameReader(RetryingFrameSource(camera, clock=clock, backoff=Backoff(0.5, 0.5)))
    reader.open()
    try:
        wait_for(lambda: reader.error is not None)
        assert "cannot open camera '/dev/video0'" in str(reader.error) and reader.read() is None
        plugged.set()
        clock.advance(1.0)
        wait_for(reader.read)
        assert reader.error is None and len(capture.threads) == 1
    finally:
        reader.close()


def test_sources_that_cannot_hang_are_read_on_the_loop_as_before(tmp_path):
    """A folder of pictures, a [camera] left unused for a mistake: no thread (their tests, on the
    test's clock, stay as they were)."""
    from controller.usable import UnsetCamera
    from hardware import make_frame_source
    from hardware.frame_reader import FrameReader, table_frames

    for camera in (make_frame_source({"type": "folder", "path": str(tmp_path)}), UnsetCamera("lop")):
        frames = table_frames(camera)
        assert isinstance(frames, RetryingFrameSource) and not isinstance(frames, FrameReader)


def test_the_table_takes_a_webcam_for_one_stream_read_on_its_thread(tmp_path):
    from controller.config import parse_config
    from controller.table_app import TableApp
    from hardware.frame_reader import table_frames

    camera = OpenCVFrameSource("/dev/video0", capture_factory=lambda d, a: HangingCapture(), by_id_dir="/nonexistent")
    frames = table_frames(camera)
    app = TableApp(parse_config(f'[table]\njournal_dir = "{tmp_path}"\n'), Screen((800, 480), headless=True),
                   frames, QuietPanel())
    assert not app.two_streams


# -- the Pi camera: two streams ------------------------------------------------------------
def test_a_pi_camera_that_hangs_leaves_the_buttons_and_the_screen_working(tmp_path, monkeypatch):
    """`dicetable run` with a Pi camera whose pipeline hangs (a loose ribbon cable: libcamera's
    frontend times out, and picamera2's capture may wait for ever). Before, the loop waited in the
    capture (here the double gives up after 10 s), the screen and the buttons dead meanwhile."""
    import sys

    from hardware.fakes import make_fake_picamera2_module

    module = make_fake_picamera2_module()
    monkeypatch.setitem(sys.modules, "picamera2", module)
    app, panel, shown = thirteen_for_ann(tmp_path, 'type = "picamera2"\nmax_age_s = 1e9\n'
                                                   'warmup_frames = 1\nwarmup_s = 0.0\n')
    try:
        assert app.two_streams
        wait_for(lambda: app.step() or app._last_frame_at is not None)
        module.streaming.clear()                        # the pipeline hangs
        for _ in range(3):
            panel.queue = [_hint()]
            app.step()
        wait_for(lambda: module.hanging, what="the capture still hung as the passes ended (before: each pass "
                 "waited in it)")
        assert app.flow.help_shown and len(shown) >= 4
        module.streaming.set()
        delivered = app.frames.delivered
        wait_for(lambda: app.step() or app.frames.delivered > delivered)
    finally:
        module.streaming.set()
        app.frames.close()
    assert module.cameras[-1].closed


def _two_streams(module, **kw: Any):
    from hardware import make_frame_source
    from hardware.frame_reader import TwoStreamReader

    camera = make_frame_source({"type": "picamera2", "max_age_s": 1e9, "warmup_frames": 1, "warmup_s": 0.0,
                                "main_size": [640, 480], "lores_size": [320, 240]})
    return TwoStreamReader(RetryingFrameSource(camera), **kw)


def test_the_full_frame_is_read_on_the_thread_when_asked_and_not_waited_for_long(monkeypatch):
    """The loop watches the low-resolution stream; a reading asks for a full frame, which the
    thread reads next. A camera hanging then costs the loop `full_wait_s`, not the hang."""
    import sys

    from hardware.fakes import make_fake_picamera2_module

    module = make_fake_picamera2_module()
    monkeypatch.setitem(sys.modules, "picamera2", module)
    reader = _two_streams(module, full_wait_s=5.0)
    reader.open()
    try:
        lores = wait_for(reader.read_lores)
        assert lores.image.shape[:2] == (240, 320)
        full = reader.read()
        assert full is not None and full.image.shape[:2] == (480, 640) and full.timestamp > lores.timestamp
        module.streaming.clear()
        wait_for(lambda: module.hanging)
        reader.full_wait_s = 0.05
        assert reader.read() is None and reader.full_missed == 1
        reader.read_lores()                             # (the frame left before the hang, if any)
        assert reader.read_lores() is None              # nothing queued behind it
        module.streaming.set()
        reader.full_wait_s = 5.0
        assert reader.read() is not None                # (not the frame asked for before it: a new one)
    finally:
        module.streaming.set()
        reader.close()
    assert module.cameras[-1].closed


def test_a_slow_first_opening_is_not_said_as_a_camera_that_does_not_answer():
    """The first opening warms the camera up (a second or more, more on a slow Pi): said only after
    10 s, not at 3 as a read."""
    from hardware.frame_reader import FrameReader

    clock = FakeClock(0.0)
    opened, opening = threading.Event(), threading.Event()

    def slow_open(device, api):
        opening.set()
        opened.wait(10.0)
        return HangingCapture()

    camera = OpenCVFrameSource("/dev/video0", capture_factory=slow_open, by_id_dir="/nonexistent")
    reader = FrameReader(RetryingFrameSource(camera), clock=clock)
    reader.open()
    try:
        wait_for(opening.is_set)
        clock.advance(5.0)
        assert reader.error is None
        clock.advance(5.0)
        assert "no picture for 10 s or more: it does not answer" in str(reader.error)
        opened.set()
        wait_for(reader.read)
        assert reader.error is None
    finally:
        opened.set()
        reader.close()
