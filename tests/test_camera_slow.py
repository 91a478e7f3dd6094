"""A camera whose pictures come 2 s apart (a webcam short of USB bandwidth or power on a shared hub,
a slow frame rate, long exposures in a dark room). The settle tracker needs 5 still frames and 3
readings that agree: a throw took 11 s to be read (0.5 s at 20 pictures a second), and since a
picture came before the table's "no new picture" notice (3 s), nothing was said: the players waited
at every throw, and the staff had nothing to look at. Now the screen names it while it lasts, the
log says it once, and once when the pictures come quickly again; the game is untouched."""
from __future__ import annotations

import logging
from typing import Any

import numpy as np
from table_helpers import Clock

from hardware import Frame

STEP_S = 0.05                       # the table's loop: 20 passes a second


class PacedCamera:
    """A camera double that sends a picture of a still, empty tray (with the sensor's noise) every
    `period` s of the table's clock, and nothing between; `period` may change as it runs."""

    error = None

    def __init__(self, clock: Clock, period: float) -> None:
        self.clock, self.period = clock, period
        self.rng = np.random.default_rng(3)
        self.next_at = 0.0
        self.index = 0

    def read(self) -> Frame | None:
        if self.clock.t + 1e-9 < self.next_at:
            return None
        self.next_at = self.clock.t + self.period
        self.index += 1
        tray = np.linspace(70, 150, 160, dtype=np.int16)[None, :, None]
        image = np.clip(tray + self.rng.integers(0, 4, (120, 160, 3)), 0, 255).astype(np.uint8)
        return Frame(image, self.clock.t, self.index)

    def close(self) -> None:
        pass


def run(app: Any, clock: Clock, seconds: float) -> list[str]:
    """The table's loop for `seconds`; the device notices it showed, in order, each once."""
    shown: list[str] = []
    for _ in range(round(seconds / STEP_S)):
        app.step()
        clock.t += STEP_S
        notice = app.device_notice()
        text = notice.text if notice is not None else ""
        if not shown or shown[-1] != text:
            shown.append(text)
    return shown


def slow_table(tmp_path: Any, period: float) -> tuple[Any, PacedCamera, Clock]:
    from test_table_e2e import FakeButtons, table_app

    clock = Clock()
    camera = PacedCamera(clock, period)
    return table_app(tmp_path, camera, FakeButtons(), clock=clock), camera, clock


def test_a_camera_sending_a_picture_every_2_s_is_named_on_screen_and_in_the_log_once(tmp_path, caplog):
    from test_table_e2e import snapshot

    app, camera, clock = slow_table(tmp_path, 2.0)
    before = snapshot(app.flow)
    with caplog.at_level(logging.INFO):
        shown = run(app, clock, 60.0)
        slow = [t for t in shown if "a picture every 2.0 s" in t]
        assert slow, f"nothing said of a camera 2 s a picture (the notices shown: {shown})"
        assert slow[0].startswith("Camera slow") and "Call staff" in slow[0] and "dice read late" in slow[0]
        assert shown[-1] == slow[0]                 # it stays while the camera is slow
        assert "a picture every 2.0 s" in app.flow.view().message.text
        assert snapshot(app.flow) == before
        said = [r for r in caplog.records if "one picture every" in r.getMessage()]
        assert len(said) == 1 and said[0].levelname == "WARNING", [r.getMessage() for r in said]
        # the camera back at 20 pictures a second (its cable changed): the notice goes, one line logged
        camera.period = STEP_S
        shown = run(app, clock, 5.0)
        assert shown[-1] == ""
        assert sum("pictures come quickly again" in r.getMessage() for r in caplog.records) == 1
    assert snapshot(app.flow) == before


def test_a_camera_at_three_pictures_a_second_is_not_named(tmp_path):
    """A slow Pi reading dice, or a webcam at a few frames a second: throws are read within 2 s;
    nothing is said."""
    app, _, clock = slow_table(tmp_path, 0.3)
    assert run(app, clock, 30.0) == [""]


def test_a_camera_unplugged_for_a_while_is_no_slow_camera(tmp_path):
    """A gap made by the camera's outage (said as such meanwhile) is not counted as a slow picture."""
    from hardware import FrameSourceError

    app, camera, clock = slow_table(tmp_path, STEP_S)
    run(app, clock, 2.0)
    for _ in range(3):                          # unplugged 10 s, three times, 1 s of pictures between
        camera.error = FrameSourceError("camera unplugged", "test")
        camera.next_at = clock.t + 10.0
        shown = run(app, clock, 10.0)
        assert "unplugged" in shown[-1]
        camera.error = None
        shown = run(app, clock, 1.0)
        assert shown[-1] == "", shown


def test_the_watch_lets_a_pause_of_the_tables_own_pass():
    """A long gap now and then among quick ones (a card drawn, the loop held up a moment, a frame
    lost) is not a slow camera."""
    from controller.slow_camera import SlowCameraWatch

    watch, t = SlowCameraWatch(), 0.0
    for gap in [0.05] * 10 + [2.5] + [0.05] * 10 + [1.0, 0.05, 0.05] * 4:
        t += gap
        watch.frame(t)
        assert watch.slow_s is None


def test_a_camera_a_picture_every_3_5_s_is_named_slow_without_the_screen_flapping(tmp_path):
    """Past the 3 s of "no new picture" at every picture: once named slow, the screen keeps saying
    so, not "no new picture" and the slow camera in turn at every picture."""
    app, _, clock = slow_table(tmp_path, 3.5)
    run(app, clock, 40.0)
    shown = run(app, clock, 30.0)
    assert len(shown) == 1 and shown[0].startswith("Camera slow: a picture every 3.5 s"), shown
