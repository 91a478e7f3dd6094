"""A webcam that freezes mid-evening: it goes on sending frames, every one the same picture to the
byte (a UVC camera whose firmware hangs with the stream still on, a capture that keeps handing over
its last buffer). Nothing raises and frames keep coming, so the table took the frozen picture for a
tray lying perfectly still: the dice thrown after it were never seen, with not a word on the screen
or in the log, and a picture frozen on dice was read and scored as a throw at rest."""
from __future__ import annotations

import logging
from typing import Any

import numpy as np
from hw_helpers import QuietPanel, wait_for

from display.screen import Screen
from hardware import Frame
from hardware.frame_reader import table_frames


class FreezingWebcam:
    """A live camera double (`may_hang`: the table reads it on its thread): each frame a grey tray
    with the sensor's noise, 10 frames a second of the camera's own time (`t`). `freeze()`: every
    frame from then on the same picture; `thaw()`: live again. `stays_frozen` keeps it frozen
    through a reopening (one that needs a replug), else reopening it thaws it (as a UVC reset does)."""

    name = "webcam"
    may_hang = True
    error = None

    def __init__(self, *, stays_frozen: bool = False, size: tuple[int, int] = (64, 48)) -> None:
        self.rng = np.random.default_rng(7)
        self.size = size
        self.t = 0.0
        self.index = 0
        self.frozen: np.ndarray | None = None
        self.stays_frozen = stays_frozen
        self.opened = 0
        self.finished = False
        self.frozen_at = 0.0

    def open(self) -> None:
        self.opened += 1

    def close(self) -> None:
        pass

    def reconnect(self) -> None:
        self.open()
        if not self.stays_frozen:
            self.thaw()

    def picture(self) -> np.ndarray:
        width, height = self.size
        tray = np.linspace(60, 180, width, dtype=np.int64)[None, :, None]    # (lit unevenly, as a tray is)
        return (tray + self.rng.integers(0, 6, (height, width, 3))).astype(np.uint8)

    def freeze(self) -> None:
        self.frozen = self.picture()
        self.frozen_at = self.t          # (the frozen picture's frames come after this time)

    def thaw(self) -> None:
        self.frozen = None

    def read(self) -> Frame:
        self.t += 0.1
        self.index += 1
        image = self.picture() if self.frozen is None else self.frozen.copy()
        return Frame(image, self.t, self.index)


def thirteen_for_ann(tmp_path: Any, camera: Any) -> Any:
    from controller.config import parse_config
    from controller.setup_menu import SetupResult
    from controller.table_app import TableApp

    frames = table_frames(camera)                  # (as `dicetable run` reads a webcam: on its thread)
    frames.open()
    app = TableApp(parse_config(f'[table]\njournal_dir = "{tmp_path}"\n'), Screen((800, 480), headless=True),
                   frames, QuietPanel())
    app.menu.done = SetupResult("thirteen", ("Ann",), {})
    app.start_new()
    return app


def notice(app: Any) -> str:
    said = app.device_notice()
    return said.text if said is not None else ""


def test_a_frozen_webcam_is_named_on_screen_and_opened_again(tmp_path, caplog):
    """`dicetable run`, a webcam that freezes while the table waits for Ann's throw. Before: frames
    kept coming, so no notice ever came (the tray said "Tray empty" as if live) and the log said
    nothing. Now, after 3 s of the camera's time with not one byte changed, the screen says the
    camera has frozen and what to do, the log says it once, the camera is opened again, and the
    table takes its pictures again (no restart), the game untouched."""
    camera = FreezingWebcam()
    app = thirteen_for_ann(tmp_path, camera)
    try:
        wait_for(lambda: app.step() or app._last_frame_at is not None, what="a first picture")
        before = app.flow.state.snapshot()
        caplog.set_level(logging.INFO)
        camera.freeze()
        wait_for(lambda: app.step() or "frozen" in notice(app),
                 what="the screen naming the frozen camera (before: frames kept coming, nothing said)")
        text = notice(app)
        assert "plug" in text                       # what to do if it stays so
        assert app.flow.state.snapshot() == before and app.flow.log.inputs == []
        said_by = [r.name for r in caplog.records if "frozen" in r.getMessage()]
        assert sorted(said_by) == sorted(set(said_by)), said_by   # once (the camera's, the table's), not a frame
        assert "hardware.retry" in said_by
        # opened again (after the retry's backoff), it sends live pictures: the notice goes, no restart
        wait_for(lambda: app.step() or not app.device_notice(), what="the camera back after it was opened again")
        assert camera.opened >= 2
        assert "back" in app.flow.message.text.lower()
    finally:
        app.frames.close()


def test_frames_frozen_on_a_still_tray_are_not_a_still_tray(tmp_path, caplog):
    """The settle tracker counts still frames to call the dice at rest: a frozen camera's copies of
    one picture are not new pictures, so they are not given to it (one picture is not a tray seen
    still for half a second, and the dice are not read off a frozen frame). A camera that stays
    frozen when opened again stays named, said once: not "back" at each reopening."""
    camera = FreezingWebcam(stays_frozen=True)
    app = thirteen_for_ann(tmp_path, camera)
    fed: list[float] = []
    real = app.runner.feed_frame

    def feed(image: Any, timestamp: float, full: Any = None) -> None:
        fed.append(timestamp)
        real(image, timestamp, full)

    app.runner.feed_frame = feed
    try:
        wait_for(lambda: app.step() or fed, what="a first picture")
        camera.freeze()
        wait_for(lambda: app.step() or "frozen" in notice(app), what="the frozen camera named")
        caplog.set_level(logging.INFO)
        caplog.clear()                              # (what is said from now on)
        opened = camera.opened
        wait_for(lambda: app.step() or camera.opened >= opened + 2, what="the camera opened again twice")
        for _ in range(20):
            app.step()
        assert "frozen" in notice(app)
        words = ("frozen", "working again", "back")
        again = [(r.name, r.getMessage()[:60]) for r in caplog.records
                 if any(w in r.getMessage().lower() for w in words)]
        assert again == [], again
        # of the frozen picture's frames only the first is a new picture (the tray as it was then)
        copies = [t for t in fed if t > camera.frozen_at]
        assert len(copies) <= 1, f"{len(copies)} copies of one frozen picture fed to the settle tracker"
    finally:
        app.frames.close()


def test_a_black_picture_sent_again_is_not_a_freeze():
    """A covered lens or the lamp off: a sensor may send all zeros, every frame the same. That is the
    table's black picture (named as such), not a frozen camera to open again and again."""
    from hardware.frozen import FrozenWatch

    class Black(FreezingWebcam):
        def picture(self) -> np.ndarray:
            image = np.zeros((48, 64, 3), np.uint8)
            image[8, 8] = 255                       # (a hot pixel, lit in every frame)
            return image

    watch = FrozenWatch(Black())
    watch.open()
    frames = [watch.read() for _ in range(100)]     # 10 s of the camera's time
    assert all(frame is not None for frame in frames)
