"""A webcam read with `device_timestamps = true` drops a frame whose CAP_PROP_POS_MSEC is not
newer than the last one delivered (a buffer handed out twice). That time is the driver's: where
it stamps frames with the wall clock (uvcvideo loaded with `clock=realtime`, an older driver), the
Pi's clock set back mid-game (by the network, from a clock that was ahead; by hand) set every
frame's time back as much, and each frame after was dropped as a duplicate until the camera's
time passed the last one again: a day set back was a day of *Camera: no new picture*, the game
stopped. A time gone back by more than a queue of frames could hold is the clock set back: the
frame is taken and counted from, said once in the log; a frame delivered again is still dropped."""
from __future__ import annotations

import logging

import pytest

from hardware.fakes import FakeVideoCapture, solid_image
from hardware.frame_opencv import OpenCVFrameSource

NOV_27 = 1_795_780_800_000.0        # ms since 1970: the time a driver on the wall clock stamps


def grey(frame) -> int | None:
    return None if frame is None else int(frame.image[0, 0, 0])


@pytest.mark.parametrize("back_ms", [3_600_000.0, 86_400_000.0, NOV_27 - 42_000.0],
                         ids=["an hour", "a day", "to 1970"])
def test_frames_after_the_wall_clock_is_set_back_are_read(caplog, back_ms) -> None:
    stamps = [NOV_27, NOV_27 + 33, NOV_27 + 66]                          # before the clock is set back
    stamps += [NOV_27 + 100 - back_ms + 33 * i for i in range(5)]       # after: each frame new
    stamps[5] = stamps[4]                                                # a buffer handed out twice
    cap = FakeVideoCapture([solid_image(10 * i) for i in range(len(stamps))], timestamps_ms=stamps)
    source = OpenCVFrameSource(0, device_timestamps=True, capture_factory=lambda d, api: cap)
    source.open()
    with caplog.at_level(logging.INFO, logger="hardware.frame_opencv"):
        levels = [grey(source.read()) for _ in stamps]
    assert levels == [0, 10, 20, 30, 40, None, 60, 70], levels
    assert source.dropped == 1
    said = [r.getMessage() for r in caplog.records if "went back" in r.getMessage()]
    assert len(said) == 1 and "clock set back" in said[0], said


def test_a_frame_a_moment_older_is_still_a_queued_one_dropped() -> None:
    """A frame older than the last by less than the queue holds is an old buffer, not a clock set back."""
    stamps = [NOV_27, NOV_27 + 33, NOV_27 - 100, NOV_27 + 66]
    cap = FakeVideoCapture([solid_image(10 * i) for i in range(4)], timestamps_ms=stamps)
    source = OpenCVFrameSource(0, device_timestamps=True, capture_factory=lambda d, api: cap)
    source.open()
    assert [grey(source.read()) for _ in stamps] == [0, 10, None, 30]
