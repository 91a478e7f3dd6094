"""The table's log with the webcam unplugged: OpenCV printed its own warning at every try to open
it again (*[ WARN:2@16.824] global cap.cpp:204 open VIDEOIO(V4L2): backend is generally available
but can't be used to capture by name*), every 10 s: 360 lines an hour of developer's words in the
staff's log, beside the table's own line that says it plainly."""
from __future__ import annotations

import cv2
import pytest

from hardware.frame_opencv import OpenCVFrameSource
from hardware.frames import FrameSourceError

MISSING = "/dev/video-dicetable-test-77"


@pytest.fixture
def opencv_as_it_starts(monkeypatch):
    """OpenCV's log level as a fresh process has it (warnings on), put back after."""
    monkeypatch.delenv("OPENCV_LOG_LEVEL", raising=False)
    before = cv2.getLogLevel()
    cv2.setLogLevel(3)
    yield
    cv2.setLogLevel(before)


@pytest.mark.usefixtures("opencv_as_it_starts")
def test_an_unplugged_webcam_tried_again_and_again_prints_no_opencv_warning(capfd):
    source = OpenCVFrameSource(MISSING)
    for _ in range(3):                      # (the table's retries)
        with pytest.raises(FrameSourceError, match="is the camera plugged in"):
            source.open()
    assert "WARN" not in capfd.readouterr().err


def test_a_developer_asking_opencv_for_its_warnings_still_gets_them(monkeypatch):
    monkeypatch.setenv("OPENCV_LOG_LEVEL", "DEBUG")
    before = cv2.getLogLevel()
    cv2.setLogLevel(3)
    try:
        with pytest.raises(FrameSourceError):
            OpenCVFrameSource(MISSING).open()
        assert cv2.getLogLevel() == 3
    finally:
        cv2.setLogLevel(before)
