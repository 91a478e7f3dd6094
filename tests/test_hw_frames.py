"""Frame sources: folder, generated, OpenCV (fake capture), picamera2 (fake module), retry."""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware import Frame, FrameSource, FrameSourceError, make_frame_source, to_bgr_uint8
from hardware.fakes import (FakeUvcControls, FakeVideoCapture, LiveFakeCapture, make_fake_picamera2_module,
                            solid_image)
from hardware.frame_folder import FolderFrameSource
from hardware.frame_generated import GeneratedFrameSource
from hardware.frame_opencv import OpenCVFrameSource
from hardware.frame_picamera2 import Picamera2FrameSource
from hardware.retry import Backoff, RetryingFrameSource
from hw_helpers import FakeClock  # noqa: E402


def grey_level(frame: Frame) -> int:
    return int(frame.image[0, 0, 0])


def write_images(folder: Path, names_levels: dict[str, int]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, level in names_levels.items():
        assert cv2.imwrite(str(folder / name), solid_image(level, (16, 12)))


# -- to_bgr_uint8 -------------------------------------------------------------------------
def test_to_bgr_normalises_grey_alpha_and_16bit() -> None:
    grey = np.full((4, 5), 7, np.uint8)
    assert to_bgr_uint8(grey).shape == (4, 5, 3)
    bgra = np.zeros((4, 5, 4), np.uint8)
    bgra[..., 2] = 200
    out = to_bgr_uint8(bgra)
    assert out.shape == (4, 5, 3) and out[0, 0, 2] == 200
    assert to_bgr_uint8(np.full((2, 2), 65535, np.uint16))[0, 0, 0] == 255
    with pytest.raises(ValueError, match="shape"):
        to_bgr_uint8(np.zeros((0, 3, 3), np.uint8))
    with pytest.raises(ValueError, match="not a numpy array"):
        to_bgr_uint8([[1, 2]])


# -- folder -------------------------------------------------------------------------------
def test_folder_sorted_naturally_with_synthetic_timestamps(tmp_path: Path) -> None:
    write_images(tmp_path, {"f10.png": 30, "f2.png": 20, "f1.png": 10})
    (tmp_path / "notes.txt").write_text("not an image")
    with make_frame_source({"type": "folder", "path": str(tmp_path), "fps": 4}) as source:
        frames = list(source)
    assert [grey_level(f) for f in frames] == [10, 20, 30]
    assert [f.index for f in frames] == [0, 1, 2]
    assert [f.timestamp for f in frames] == [0.0, 0.25, 0.5]
    assert all(f.image.dtype == np.uint8 and f.image.shape == (12, 16, 3) for f in frames)
    assert source.finished  # type: ignore[attr-defined]


def test_folder_repeat_and_loop(tmp_path: Path) -> None:
    write_images(tmp_path, {"a.png": 1, "b.png": 2})
    source = FolderFrameSource(tmp_path, repeat=3, loop=True)
    source.open()
    levels = [grey_level(source.read()) for _ in range(9)]  # type: ignore[arg-type]
    assert levels == [1, 1, 1, 2, 2, 2, 1, 1, 1]
    assert not source.finished


def test_folder_repeated_frames_are_independent_arrays(tmp_path: Path) -> None:
    write_images(tmp_path, {"a.png": 5})
    source = FolderFrameSource(tmp_path, repeat=2)
    source.open()
    first = source.read()
    assert first is not None
    first.image[:] = 255  # a consumer drawing on its frame...
    second = source.read()
    assert second is not None and grey_level(second) == 5  # ...does not change the next one


def test_folder_explicit_list_keeps_given_order_and_clock(tmp_path: Path) -> None:
    write_images(tmp_path, {"a.png": 1, "b.png": 2})
    clock = FakeClock(50.0)
    source = FolderFrameSource(files=[tmp_path / "b.png", tmp_path / "a.png"], clock=clock)
    source.open()
    first = source.read()
    clock.advance(1.5)
    second = source.read()
    assert first is not None and second is not None
    assert (grey_level(first), grey_level(second)) == (2, 1)
    assert (first.timestamp, second.timestamp) == (50.0, 51.5)
    assert source.read() is None and source.finished


def test_folder_corrupt_file_error_names_the_file(tmp_path: Path) -> None:
    write_images(tmp_path, {"a.png": 1, "c.png": 3})
    (tmp_path / "b.png").write_bytes(b"\x89PNG\r\n\x1a\n this is not really a png")
    source = make_frame_source({"type": "folder", "path": str(tmp_path)})
    source.open()
    assert source.read() is not None
    with pytest.raises(FrameSourceError, match=r"b\.png"):
        source.read()


def test_folder_corrupt_file_skipped_with_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    write_images(tmp_path, {"a.png": 1, "c.png": 3})
    (tmp_path / "b.png").write_bytes(b"garbage")
    source = make_frame_source({"type": "folder", "path": str(tmp_path), "on_bad": "skip"})
    with caplog.at_level("WARNING"), source:
        levels = [grey_level(f) for f in source]
    assert levels == [1, 3]
    assert "b.png" in caplog.text
    assert [p.name for p in source.skipped] == ["b.png"]  # type: ignore[attr-defined]


def test_folder_all_bad_with_loop_raises_instead_of_spinning(tmp_path: Path) -> None:
    (tmp_path / "x.png").write_bytes(b"nope")
    source = FolderFrameSource(tmp_path, loop=True, on_bad="skip")
    source.open()
    with pytest.raises(FrameSourceError, match="no readable images"):
        source.read()


def _run(source: FrameSource, clock: FakeClock, reads: int, dt: float = 0.1) -> list[int | None]:
    """`reads` reads through the table's retrying wrapper, `dt` s apart: the grey levels seen."""
    retrying = RetryingFrameSource(source, clock=clock)
    retrying.open()
    seen: list[int | None] = []
    for _ in range(reads):
        frame = retrying.read()
        seen.append(None if frame is None else grey_level(frame))
        clock.advance(dt)
    return seen


@pytest.mark.parametrize("on_bad", ["error", "skip"])
def test_looping_folder_reads_past_an_unreadable_image_named_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, on_bad: str) -> None:
    """`run --headless` on tests/fixtures/table (it holds corrupt.jpg) logged "cannot read
    image .../corrupt.jpg" 56 times in 22 s and never read the images after it: each failure
    reconnected the source, which started the folder over."""
    write_images(tmp_path, {"a.png": 10, "c.png": 30, "d.png": 40})
    (tmp_path / "b.jpg").write_bytes(b"\xff\xd8\xff\xe0 a jpeg cut short")
    clock = FakeClock(0.0)
    with caplog.at_level("WARNING"):
        seen = _run(FolderFrameSource(tmp_path, loop=True, on_bad=on_bad), clock, 60)
    levels = [v for v in seen if v is not None]
    assert levels[:4] == [10, 30, 40, 10] and levels.count(30) >= 5
    assert caplog.text.count("b.jpg") == 1
    assert seen.count(None) <= 10                       # one retry delay (0.5 s), once


def test_a_changed_bad_image_is_read_again(tmp_path: Path) -> None:
    write_images(tmp_path, {"a.png": 10})
    (tmp_path / "b.png").write_bytes(b"nope")
    source = FolderFrameSource(tmp_path, loop=True, on_bad="skip")
    source.open()
    assert [grey_level(source.read()) for _ in range(2)] == [10, 10]  # type: ignore[arg-type]
    write_images(tmp_path, {"b.png": 20})
    assert [grey_level(source.read()) for _ in range(2)] == [20, 10]  # type: ignore[arg-type]
    assert source.skipped == [tmp_path / "b.png"]


@pytest.mark.parametrize("on_bad", ["error", "skip"])
def test_a_folder_of_unreadable_images_is_one_camera_problem_retried_slower(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, on_bad: str) -> None:
    for name in ("x.png", "y.jpg"):
        (tmp_path / name).write_bytes(b"nope")
    clock = FakeClock(0.0)
    source = FolderFrameSource(tmp_path, loop=True, on_bad=on_bad)
    retrying = RetryingFrameSource(source, clock=clock)
    retrying.open()
    reconnects = 0
    real = source.reconnect

    def counted() -> None:
        nonlocal reconnects
        reconnects += 1
        real()

    source.reconnect = counted  # type: ignore[method-assign]
    with caplog.at_level("WARNING"):
        for _ in range(600):                            # 60 s
            assert retrying.read() is None
            clock.advance(0.1)
    assert str(retrying.error).endswith(f"no readable images in {tmp_path} (2 unreadable: x.png, y.jpg)")
    assert caplog.text.count("no readable images") == 1
    assert caplog.text.count("x.png") == 2 and reconnects <= 12     # backoff up to 10 s, not 0.5 s


def test_folder_missing_or_empty(tmp_path: Path) -> None:
    with pytest.raises(FrameSourceError, match="does not exist"):
        FolderFrameSource(tmp_path / "nope").open()
    with pytest.raises(FrameSourceError, match="no images"):
        FolderFrameSource(tmp_path).open()


def test_folder_config_validation(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown key"):
        make_frame_source({"type": "folder", "path": str(tmp_path), "repaet": 2})
    with pytest.raises(ValueError, match="on_bad"):
        make_frame_source({"type": "folder", "path": str(tmp_path), "on_bad": "ignore"})
    with pytest.raises(ValueError, match="unknown camera type"):
        make_frame_source({"type": "webcam"})


def test_read_before_open_is_a_clear_error(tmp_path: Path) -> None:
    write_images(tmp_path, {"a.png": 1})
    with pytest.raises(FrameSourceError, match="not open"):
        FolderFrameSource(tmp_path).read()


# -- generated ----------------------------------------------------------------------------
def test_generated_from_iterable_with_gaps_and_grey_images() -> None:
    items = [np.full((6, 8), 10, np.uint8), None, solid_image(20, (8, 6))]
    source = make_frame_source({"type": "generated", "frames": items, "fps": 2})
    source.open()
    first, gap, second, end = source.read(), source.read(), source.read(), source.read()
    assert first is not None and second is not None
    assert first.image.shape == (6, 8, 3) and grey_level(first) == 10
    assert gap is None and end is None
    assert (second.index, second.timestamp) == (1, 0.5)
    assert source.finished  # type: ignore[attr-defined]


def test_generated_factory_restarts_on_reconnect() -> None:
    calls = []

    def animation():
        calls.append(1)
        return (solid_image(i) for i in itertools.count())

    source = GeneratedFrameSource(factory=animation)
    source.open()
    assert [grey_level(source.read()) for _ in range(3)] == [0, 1, 2]  # type: ignore[arg-type]
    source.reconnect()
    assert grey_level(source.read()) == 0  # type: ignore[arg-type]
    assert len(calls) == 2


def test_generated_bad_item_and_crashing_producer() -> None:
    source = GeneratedFrameSource(frames=[solid_image(1), "not an image"])
    source.open()
    source.read()
    with pytest.raises(FrameSourceError, match="item 1"):
        source.read()

    def broken():
        yield solid_image(1)
        raise OSError("animation crashed")

    source = GeneratedFrameSource(factory=broken)
    source.open()
    source.read()
    with pytest.raises(FrameSourceError, match="animation crashed"):
        source.read()


def test_sources_satisfy_the_protocol(tmp_path: Path) -> None:
    write_images(tmp_path, {"a.png": 1})
    assert isinstance(FolderFrameSource(tmp_path), FrameSource)
    assert isinstance(GeneratedFrameSource(frames=[]), FrameSource)
    assert isinstance(OpenCVFrameSource(capture_factory=lambda d, api: FakeVideoCapture()), FrameSource)


# -- opencv -------------------------------------------------------------------------------
def test_opencv_opens_by_path_and_requests_resolution() -> None:
    made: list[tuple[object, FakeVideoCapture]] = []

    def factory(device, api):
        cap = FakeVideoCapture([solid_image(9)], actual_size=(640, 480))
        made.append((device, cap))
        return cap

    source = make_frame_source(
        {"type": "opencv", "device": "/dev/video2", "width": 1280, "height": 960, "fourcc": "MJPG"},
        capture_factory=factory,
    )
    source.open()
    device, cap = made[0]
    assert device == "/dev/video2"
    assert cap.props[cv2.CAP_PROP_FRAME_WIDTH] == 1280 and cap.props[cv2.CAP_PROP_FRAME_HEIGHT] == 960
    props_in_order = [p for p, _ in cap.set_calls]
    assert props_in_order.index(cv2.CAP_PROP_FOURCC) < props_in_order.index(cv2.CAP_PROP_FRAME_WIDTH)
    frame = source.read()
    assert frame is not None and grey_level(frame) == 9
    source.close()
    assert cap.released


def test_opencv_device_index_string_becomes_int() -> None:
    seen = []
    source = OpenCVFrameSource("0", capture_factory=lambda d, api: seen.append(d) or FakeVideoCapture())
    source.open()
    assert seen == [0]


def test_opencv_not_opened_is_a_frame_source_error() -> None:
    cap = FakeVideoCapture(opened=False)
    source = OpenCVFrameSource(1, capture_factory=lambda d, api: cap)
    with pytest.raises(FrameSourceError, match="cannot open camera 1"):
        source.open()
    assert cap.released and not source.is_open


def test_opencv_consecutive_failures_raise_after_n_and_success_resets() -> None:
    script = [solid_image(1), None, None, solid_image(2), None, None, None]
    source = OpenCVFrameSource(0, max_failures=3, capture_factory=lambda d, api: FakeVideoCapture(script))
    source.open()
    assert grey_level(source.read()) == 1  # type: ignore[arg-type]
    assert source.read() is None and source.read() is None  # two glitches: tolerated
    assert grey_level(source.read()) == 2  # type: ignore[arg-type]
    assert source.read() is None and source.read() is None
    with pytest.raises(FrameSourceError, match="3 reads in a row failed.*unplugged"):
        source.read()


def test_opencv_flushes_queued_frames_after_idle() -> None:
    clock = FakeClock(100.0)
    cap = FakeVideoCapture([solid_image(i) for i in range(10)])
    source = OpenCVFrameSource(0, idle_flush_s=0.5, flush_frames=3, clock=clock, capture_factory=lambda d, api: cap)
    source.open()
    assert grey_level(source.read()) == 0  # type: ignore[arg-type]
    clock.advance(0.1)
    assert grey_level(source.read()) == 1  # type: ignore[arg-type]
    assert source.flushed == 0
    clock.advance(2.0)  # the controller was busy: frames 2..4 are old
    frame = source.read()
    assert source.flushed == 3 and frame is not None and grey_level(frame) == 5
    assert frame.timestamp == clock.t


@pytest.mark.parametrize("min_buffers", [1, 4], ids=["1 buffer as asked", "4 buffers kept"])
def test_a_webcam_read_by_a_slower_table_gives_the_tray_as_it_is_now(min_buffers) -> None:
    """A UVC webcam keeps the frames in its buffers and drops the new ones when all are full, and
    the table reads more slowly than a 30 fps camera sends (every 0.1 s here: it reads dice in
    between). Each read was given the oldest frame queued: up to 100 ms old with the 1-frame
    buffer asked for, 400 ms when the driver keeps 4, the idle flush (after 0.5 s) never coming
    into play; the settle tracker saw the dice rolling that long after they stopped. Now a read
    grabs until the camera has to be waited for: every frame is at most a frame period old."""
    clock = FakeClock(100.0)
    cap = LiveFakeCapture(clock, fps=30, min_buffers=min_buffers)
    source = OpenCVFrameSource("/dev/video0", clock=clock, capture_factory=lambda d, api: cap)
    source.open()
    ages = []
    for _ in range(30):
        frame = source.read()
        assert frame is not None
        ages.append(frame.timestamp - cap.taken[-1])
        clock.advance(0.1)
    assert max(ages) <= 1 / 30 + 1e-9
    clock.advance(5.0)                      # a long pause (the first drawing of a screen)
    frame = source.read()
    assert frame is not None and frame.timestamp - cap.taken[-1] <= 1 / 30 + 1e-9
    assert cap.grabs <= 31 * (1 + max(min_buffers, source.flush_frames) + 1)


def test_opencv_device_timestamps_drop_duplicates() -> None:
    cap = FakeVideoCapture([solid_image(i) for i in range(4)], timestamps_ms=[100, 133, 133, 166])
    source = OpenCVFrameSource(0, device_timestamps=True, capture_factory=lambda d, api: cap)
    source.open()
    levels = [source.read() for _ in range(4)]
    assert [None if f is None else grey_level(f) for f in levels] == [0, 1, None, 3]
    assert source.dropped == 1
    assert [f.index for f in levels if f is not None] == [0, 1, 2]


def test_opencv_factory_exception_becomes_frame_source_error() -> None:
    def factory(device, api):
        raise OSError("No such device")

    with pytest.raises(FrameSourceError, match="No such device"):
        OpenCVFrameSource("/dev/video9", capture_factory=factory).open()


@pytest.mark.parametrize("device", [0, "/dev/video2", "by-id link"])
def test_a_webcam_node_opens_with_v4l2_first(tmp_path, device) -> None:
    """Given a path, OpenCV tries FFMPEG and GStreamer before V4L2 (and GStreamer first for an
    index): a slow start, a webcam in another pixel format. A /dev node is now opened with V4L2."""
    if device == "by-id link":
        device = str(tmp_path / "usb-Acme_TrayCam_SN123-video-index0")
        Path(device).symlink_to("/dev/video0")
    asked = []

    def factory(device, api):
        asked.append(api)
        return FakeVideoCapture([solid_image(1)], backend="V4L2")

    source = OpenCVFrameSource(device, capture_factory=factory, by_id_dir=str(tmp_path / "none"))
    source.open()
    assert asked == [cv2.CAP_V4L2] and source.backend == "V4L2"


def test_a_webcam_v4l2_will_not_open_falls_back_to_any_backend_and_a_file_opens_with_any() -> None:
    asked = []

    def factory(device, api):
        asked.append((device, api))
        return FakeVideoCapture([solid_image(1)], opened=api == cv2.CAP_ANY, backend="GSTREAMER")

    OpenCVFrameSource("/dev/video2", capture_factory=factory).open()
    OpenCVFrameSource("tray.mp4", capture_factory=factory).open()
    assert asked == [("/dev/video2", cv2.CAP_V4L2), ("/dev/video2", cv2.CAP_ANY), ("tray.mp4", cv2.CAP_ANY)]
    from hardware.frame_opencv import backends_for

    assert backends_for(0, platform="darwin") == [cv2.CAP_ANY]


def test_a_webcam_giving_another_mode_than_asked_says_so_once(caplog) -> None:
    """Before, only a size other than asked was logged; a webcam without MJPG (YUYV instead) or
    giving 5 fps at that size (USB 2 bandwidth) was not said anywhere, and the dice were seen to
    stop a second late. Each is now a note, logged once (not at every reopen) and kept for
    `dicetable check`."""
    def yuyv_only(device, api):
        return FakeVideoCapture([solid_image(9)], actual_size=(1280, 720), actual_fourcc="YUYV", actual_fps=5)

    source = make_frame_source({"type": "opencv", "device": "/dev/video2", "width": 1280, "height": 960,
                                "fourcc": "MJPG", "fps": 30}, capture_factory=yuyv_only)
    with caplog.at_level("INFO", logger="hardware.frame_opencv"):
        source.open()
        source.reconnect()
    assert str(source.mode) == "1280x720 YUYV at 5 fps"
    assert source.notes == [
        "asked for 1280x960, the camera gives 1280x720 (v4l2-ctl --list-formats-ext lists the sizes it has)",
        "asked for MJPG, the camera gives YUYV",
        "asked for 30 fps, the camera gives 5",
        'the camera gives only 5 frames a second (1280x720 YUYV at 5 fps): the dice are seen to stop late; '
        'fourcc = "MJPG" or a smaller width and height give more']
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warned == [f"opencv: {note}" for note in source.notes]
    fine = FakeVideoCapture([solid_image(9)], actual_size=(640, 480), actual_fourcc="MJPG", actual_fps=30)
    source = make_frame_source({"type": "opencv", "width": 640, "height": 480, "fourcc": "MJPG"},
                               capture_factory=lambda d, api: fine)
    source.open()
    assert source.notes == [] and str(source.mode) == "640x480 MJPG at 30 fps"


def _uvc_webcam(uvc: FakeUvcControls, clock: FakeClock, **config) -> OpenCVFrameSource:
    """A V4L2 webcam with automatic exposure, white balance and focus, as the table reads it."""
    config = {"type": "opencv", "device": "/dev/video0", **config}
    return make_frame_source(config, clock=clock, capture_factory=lambda d, api: LiveFakeCapture(clock, uvc=uvc))


def _levels(source: OpenCVFrameSource, clock: FakeClock, seconds: float, every: float = 0.05) -> list[int]:
    """The grey levels read by a table reading every `every` s for `seconds`."""
    levels = []
    for _ in range(int(seconds / every)):
        frame = source.read()
        if frame is not None:
            levels.append(grey_level(frame))
        clock.advance(every)
    return levels


def test_a_webcam_hunting_its_exposure_is_frozen_after_a_warm_up() -> None:
    """A UVC webcam's automatic exposure hunts (here 6 grey levels up and down, frame to frame):
    on a still tray the settle tracker saw motion. Before, nothing froze it (the picamera2 source
    does); now its exposure, white balance and focus are frozen after a warm-up, at the values
    its automatic modes chose, and given back to them when the table closes the camera."""
    clock, uvc = FakeClock(100.0), FakeUvcControls(scene_light=0.7)
    source = _uvc_webcam(uvc, clock)
    source.open()
    assert clock.t - 100.0 >= 1.0                               # (the warm-up: 1 s, 10 frames)
    assert source.locked == {"exposure": 157, "white_balance": 4600, "focus": 35}
    levels = _levels(source, clock, 3.0)
    assert len(levels) >= 50 and set(levels) == {109}           # (0.7 x 157: still, no hunting)
    source.close()
    assert (uvc.auto, uvc.values[cv2.CAP_PROP_AUTO_WB], uvc.values[cv2.CAP_PROP_AUTOFOCUS]) == (True, 1, 1)


def test_a_webcam_left_automatic_by_the_config_is_not_touched() -> None:
    clock, uvc = FakeClock(100.0), FakeUvcControls()
    source = _uvc_webcam(uvc, clock, lock_exposure=False, lock_white_balance=False, lock_focus=False)
    source.open()
    assert source.locked == {} and clock.t - 100.0 < 0.1        # (no warm-up)
    cap = source.cap
    assert not [p for p, _ in cap.set_calls if p in uvc.PROPS]
    assert set(_levels(source, clock, 1.0, every=0.07)) == {104, 116}  # (it hunts, as the café chose)
    clock2, uvc2 = FakeClock(100.0), FakeUvcControls()
    only_focus = _uvc_webcam(uvc2, clock2, lock_exposure=False, lock_white_balance=False)
    only_focus.open()
    assert only_focus.locked == {"focus": 35} and uvc2.auto


def test_a_webcam_locked_by_the_last_run_is_measured_afresh() -> None:
    """UVC controls outlive the program: a camera left manual (a power cut while locked, another
    light) is switched back to automatic before the warm-up, not frozen at its old value."""
    clock, uvc = FakeClock(100.0), FakeUvcControls(scene_light=0.7)
    uvc.values[cv2.CAP_PROP_AUTO_EXPOSURE] = 1                 # (left manual at 400: 280, washed out)
    source = _uvc_webcam(uvc, clock)
    source.open()
    calls = [(p, v) for p, v in source.cap.set_calls if p == cv2.CAP_PROP_AUTO_EXPOSURE]
    assert calls == [(cv2.CAP_PROP_AUTO_EXPOSURE, 3), (cv2.CAP_PROP_AUTO_EXPOSURE, 1)]
    assert source.locked["exposure"] == 157 and set(_levels(source, clock, 1.0)) == {109}


def test_a_webcam_that_jumps_when_frozen_is_left_automatic(caplog) -> None:
    """A webcam that does not say what its automatic exposure chose jumps to its stale manual
    value when switched to manual (400 here: 255, washed out): left automatic, and said."""
    clock, uvc = FakeClock(100.0), FakeUvcControls(scene_light=0.7, reports_auto=False)
    source = _uvc_webcam(uvc, clock)
    with caplog.at_level("WARNING", logger="hardware.frame_opencv"):
        source.open()
    assert source.locked == {} and uvc.auto
    assert "turned 2.4 times brighter" in caplog.text and "Left automatic" in caplog.text
    assert source.notes[-1].startswith("the picture turned 2.4 times brighter")    # (for dicetable check)


@pytest.mark.parametrize("reports", [True, False], ids=["says its focus", "does not say it"])
def test_a_webcam_whose_focus_jumps_when_frozen_keeps_its_autofocus(reports) -> None:
    """A webcam that does not say where its autofocus was jumps to a stale focus when autofocus is
    switched off: the tray blurred, which its light does not show. Its focus is left automatic
    (its exposure still frozen), and said; a webcam that says it keeps the focus it found."""
    clock, uvc = FakeClock(100.0), FakeUvcControls(textured=True, focus_reports_auto=reports)
    source = _uvc_webcam(uvc, clock)
    source.open()
    frame = source.read()
    assert frame is not None and frame.image[40, 0, 0] != frame.image[40, 1, 0]       # (the weave is seen)
    if reports:
        assert source.locked["focus"] == 35 and source.notes == []
    else:
        assert "focus" not in source.locked and source.locked["exposure"] == 157
        assert uvc.values[cv2.CAP_PROP_AUTOFOCUS] == 1
        assert source.notes == ["the picture turned blurred when the camera's focus was frozen: it does not say "
                                "where its autofocus was. Focus left automatic (lock_focus = false silences this)"]


def test_a_webcam_frozen_is_measured_again_when_the_room_light_changes() -> None:
    """A hand over the tray for 2 s changes nothing; the lamps going on (twice the light, for
    good) make the table measure the exposure again after 5 s, as the Pi camera does."""
    clock, uvc = FakeClock(100.0), FakeUvcControls(scene_light=0.7)
    source = _uvc_webcam(uvc, clock)
    source.open()
    uvc.scene_light = 0.3
    _levels(source, clock, 2.0)
    uvc.scene_light = 0.7
    assert set(_levels(source, clock, 1.0)) == {109} and source.relocks == 0
    uvc.scene_light = 1.4
    levels = _levels(source, clock, 8.0)
    assert source.relocks == 1 and source.locked["exposure"] == 79
    assert levels[:5] == [219] * 5 and set(levels[-20:]) == {110}


class _Webcams:
    """A USB webcam on a fake /dev: `plug(node)` makes the kernel give it that node and points udev's
    by-id link at it; the capture opened before goes dark, as a camera pulled out does."""

    LINK = "usb-Acme_TrayCam_SN123-video-index0"

    def __init__(self, root: Path) -> None:
        self.by_id = root / "by-id"
        self.by_id.mkdir()
        self.root = root
        self.node: str | None = None
        self.held: list[FakeVideoCapture] = []
        self.asked: list[int | str] = []

    def plug(self, node: str, level: int) -> None:
        for cap in self.held:                       # the old handle reads nothing any more
            cap.script = [None] * 1000
            cap.position = 0
        if node.startswith(str(self.root)):
            Path(node).touch()
        link = self.by_id / self.LINK
        link.unlink(missing_ok=True)
        link.symlink_to(node)
        self.node, self.level = node, level

    def open(self, device: int | str, api: int = cv2.CAP_ANY) -> FakeVideoCapture:
        self.asked.append(device)
        node = f"/dev/video{device}" if isinstance(device, int) else str(Path(device).resolve())
        if node != self.node:
            return FakeVideoCapture(opened=False)
        cap = FakeVideoCapture([solid_image(self.level)] * 1000)     # (a read after a pause grabs 5)
        self.held.append(cap)
        return cap


@pytest.mark.parametrize("configured", ["index", "path"])
def test_a_webcam_plugged_back_under_another_name_is_found_again(tmp_path, configured, caplog) -> None:
    """A webcam pulled out and plugged back while the table still held /dev/video0 comes back as
    /dev/video2. Before, the source tried the configured index or /dev/video0 for ever: the table
    never saw a die again until restarted. It now tries the camera's by-id link first, which udev
    points at its new node, and the log says which device it opened."""
    cams = _Webcams(tmp_path)
    first = "/dev/video0" if configured == "index" else str(tmp_path / "video0")
    cams.plug(first, 10)
    clock = FakeClock(0.0)
    source = OpenCVFrameSource(0 if configured == "index" else first, max_failures=2, clock=clock,
                               capture_factory=cams.open, by_id_dir=str(cams.by_id))
    retrying = RetryingFrameSource(source, clock=clock, backoff=Backoff(1.0, 4.0))
    with caplog.at_level("INFO", logger="hardware.frame_opencv"):
        retrying.open()
        assert grey_level(retrying.read()) == 10
        cams.plug(str(tmp_path / "video2"), 20)          # out, and back in while video0 was held
        frames = []
        for _ in range(40):
            clock.advance(0.5)
            frames.append(retrying.read())
    assert retrying.error is None
    assert [grey_level(f) for f in frames if f is not None][-1] == 20
    said = [r.getMessage() for r in caplog.records]
    assert said[-1].endswith(f"opened as {tmp_path / 'video2'}, {cams.by_id / cams.LINK}")


def test_a_webcam_pattern_opens_the_first_device_that_opens_in_number_order(tmp_path) -> None:
    """device = "/dev/video*" (the serial box's kind of pattern): video10 after video2, a node that
    will not open (busy, or a webcam's metadata node) skipped."""
    for n in (0, 1, 2, 10):
        (tmp_path / f"video{n}").touch()
    asked = []

    def factory(device, api):
        asked.append(Path(device).name)
        return FakeVideoCapture([solid_image(5)], opened=device.endswith(("video2", "video10")))

    source = OpenCVFrameSource(str(tmp_path / "video*"), capture_factory=factory, by_id_dir=str(tmp_path / "none"))
    source.open()
    assert asked == ["video0", "video1", "video2"] and source.opened == str(tmp_path / "video2")
    with pytest.raises(FrameSourceError, match="no camera matches"):
        OpenCVFrameSource(str(tmp_path / "cam*"), capture_factory=factory).open()


# -- picamera2 ----------------------------------------------------------------------------
@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch):
    module = make_fake_picamera2_module()
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return module


def sensor_clock(module, frame_n: float) -> FakeClock:
    """A clock reading 'now' as the sensor time of frame n (fresh frames are not too old)."""
    return FakeClock(module.timestamp_ns(0) / 1e9 + frame_n * 0.0333)


def test_picamera2_not_installed_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes `import picamera2` fail
    source = make_frame_source({"type": "picamera2"})
    with pytest.raises(FrameSourceError, match="picamera2 is not installed"):
        source.open()


def test_picamera2_configures_streams_warms_up_and_fixes_controls(fake_picamera2) -> None:
    clock = sensor_clock(fake_picamera2, 1000)
    source = make_frame_source(
        {"type": "picamera2", "main_size": [1280, 960], "lores_size": [320, 240], "warmup_frames": 8,
         "warmup_s": 0.45, "max_age_s": 1e9},
        clock=clock,
    )
    source.open()
    cam = fake_picamera2.cameras[0]
    assert cam.config["main"] == {"size": (1280, 960), "format": "RGB888"}
    assert cam.config["lores"] == {"size": (320, 240), "format": "YUV420"}
    assert cam.calls[:3] == ["create_video_configuration", "configure", "start"]
    # 0.45 s of sensor time at 30 fps is reached at frame 14 (the 15th), later than warmup_frames=8
    assert cam.captured == 15
    # auto exposure warms up avoiding the flicker of 50 Hz lamps (a 10 ms period), so its 12 ms
    # became 10 ms with the gain making up the light
    assert cam.controls_set == [{"AeFlickerMode": 1, "AeFlickerPeriod": 10000}, {
        "AeEnable": False, "ExposureTime": 10000, "AnalogueGain": 3.0,
        "AwbEnable": False, "ColourGains": (1.9, 1.6),
    }]
    assert cam.outstanding == 0  # every request released (picamera2 stalls otherwise)


def test_picamera2_locks_the_values_of_the_last_warmup_frame(fake_picamera2) -> None:
    # the fake's auto exposure is still converging on early frames (frame 1 reports 16000 us)
    source = Picamera2FrameSource(warmup_frames=2, warmup_s=0, clock=sensor_clock(fake_picamera2, 1000),
                                  mains_hz=0)
    source.open()
    assert source.locked_controls["ExposureTime"] == 16000
    assert fake_picamera2.cameras[0].captured == 2


def test_picamera2_explicit_values_and_no_lock(fake_picamera2) -> None:
    source = Picamera2FrameSource(warmup_frames=2, warmup_s=0, exposure_time_us=8000, analogue_gain=1.0,
                                  lock_white_balance=False, clock=sensor_clock(fake_picamera2, 1000), max_age_s=1e9)
    source.open()
    # (the values given are kept as they are, even off the flicker period)
    assert fake_picamera2.cameras[0].controls_set[1:] == [{"AeEnable": False, "ExposureTime": 8000,
                                                           "AnalogueGain": 1.0}]
    source.close()
    unlocked = Picamera2FrameSource(warmup_frames=1, warmup_s=0, lock_exposure=False, lock_white_balance=False)
    unlocked.open()
    assert fake_picamera2.cameras[1].controls_set == [{"AeFlickerMode": 1, "AeFlickerPeriod": 10000}]
    assert fake_picamera2.cameras[0].calls[-2:] == ["stop", "close"]


@pytest.mark.parametrize("mains_hz, period", [(50, 10000), (60, 8333)])
@pytest.mark.parametrize("flicker_controls", [True, False], ids=["libcamera-with-flicker", "older-libcamera"])
@pytest.mark.parametrize("auto, want", [
    ((12000, 2.5), None),            # whole periods, the light (exposure x gain) kept
    ((27000, 1.2), None),
    ((16000, 1.0), "shorter"),       # 2 periods would need a gain under the camera's 1.0: 1 period
    ((4000, 1.0), "as measured"),    # a very bright tray: shorter than one period, nothing avoids it
])
def test_picamera2_freezes_an_exposure_of_whole_flicker_periods(fake_picamera2, mains_hz, period,
                                                                 flicker_controls, auto, want) -> None:
    """A rolling shutter under lamps flickering with the mains lays moving bands of light over
    frames unless the exposure is a whole number of flicker periods (half the mains period). With
    a libcamera that has AeFlickerMode the auto exposure warms up that way; with an older one the
    frozen exposure is rounded; either way the same light reaches the frame."""
    fake_picamera2.auto_metadata.update(ExposureTime=auto[0], AnalogueGain=auto[1])
    if not flicker_controls:
        del fake_picamera2.camera_controls["AeFlickerMode"], fake_picamera2.camera_controls["AeFlickerPeriod"]
    source = Picamera2FrameSource(warmup_frames=8, warmup_s=0, mains_hz=mains_hz, lock_white_balance=False,
                                  clock=sensor_clock(fake_picamera2, 1000), max_age_s=1e9)
    source.open()
    cam = fake_picamera2.cameras[0]
    assert (cam.controls_set[0] == {"AeFlickerMode": 1, "AeFlickerPeriod": period}) == flicker_controls
    exposure, gain = source.locked_controls["ExposureTime"], source.locked_controls["AnalogueGain"]
    if want == "as measured":
        assert (exposure, gain) == auto
        return
    assert exposure % period == 0 and exposure >= period
    assert exposure * gain == pytest.approx(auto[0] * auto[1], rel=0.002)
    assert 1.0 <= gain <= 16.0
    if want == "shorter":
        assert exposure < auto[0]


def test_picamera2_mains_hz_is_checked_and_zero_leaves_the_exposure_alone(fake_picamera2) -> None:
    with pytest.raises(ValueError, match="mains_hz"):
        make_frame_source({"type": "picamera2", "mains_hz": -50})
    source = make_frame_source({"type": "picamera2", "mains_hz": 0, "warmup_frames": 8, "warmup_s": 0,
                                "max_age_s": 1e9}, clock=sensor_clock(fake_picamera2, 1000))
    source.open()
    assert source.locked_controls["ExposureTime"] == 12000
    assert "AeFlickerMode" not in fake_picamera2.cameras[0].controls_set[0]


def _light(frame) -> float:
    return float(np.median(frame.image))


def test_picamera2_measures_the_exposure_again_when_the_rooms_light_changes_for_good(fake_picamera2) -> None:
    """An exposure frozen in the morning would leave the evening's frames washed out or dark.
    A light 1.6 times brighter or darker for 5 s of sensor time is the room's: exposure and white
    balance are measured again. A hand or a shadow for 2 s is not."""
    fake_picamera2.scene_light = 100.0
    source = Picamera2FrameSource(warmup_frames=8, warmup_s=0, max_age_s=1e9, clock=sensor_clock(fake_picamera2, 0))
    source.open()
    morning = dict(source.locked_controls)
    assert _light(source.read_lores()) == pytest.approx(110, abs=10)
    fake_picamera2.scene_light = 30.0                      # a hand over the tray, 2 s at 30 fps
    assert _light([source.read_lores() for _ in range(60)][-1]) < 50
    fake_picamera2.scene_light = 100.0
    [source.read_lores() for _ in range(10)]
    assert source.relocks == 0 and source.locked_controls == morning
    fake_picamera2.scene_light = 300.0                     # the lamps go on, and stay on
    washed = [_light(source.read_lores()) for _ in range(5 * 30 + 5)]
    assert washed[0] == 255 and source.relocks == 1
    evening = source.locked_controls
    assert evening["ExposureTime"] * evening["AnalogueGain"] == pytest.approx(
        morning["ExposureTime"] * morning["AnalogueGain"] / 3, rel=0.15)
    assert evening["ExposureTime"] % 10000 == 0            # still free of the lamps' flicker
    assert _light(source.read_lores()) == pytest.approx(110, abs=10)
    cam = fake_picamera2.cameras[0]
    assert {"AeEnable": True, "AwbEnable": True} in cam.controls_set and cam.outstanding == 0


@pytest.mark.parametrize("kwargs", [{"relock_ratio": 0}, {"exposure_time_us": 20000, "analogue_gain": 2.0},
                                    {"lock_exposure": False}])
def test_picamera2_keeps_exposure_values_it_was_given_or_told_not_to_measure_again(fake_picamera2, kwargs) -> None:
    fake_picamera2.scene_light = 100.0
    source = Picamera2FrameSource(warmup_frames=8, warmup_s=0, max_age_s=1e9, clock=sensor_clock(fake_picamera2, 0),
                                  **kwargs)
    source.open()
    fake_picamera2.scene_light = 300.0
    [source.read_lores() for _ in range(10 * 30)]
    assert source.relocks == 0
    with pytest.raises(ValueError, match="relock_ratio"):
        Picamera2FrameSource(relock_ratio=0.8)


def test_picamera2_reads_main_and_lores_as_bgr(fake_picamera2) -> None:
    source = Picamera2FrameSource(warmup_frames=3, warmup_s=0, max_age_s=1e9, main_size=(64, 48),
                                  lores_size=(32, 24), clock=sensor_clock(fake_picamera2, 1000))
    with source:
        main = source.read()
        lores = source.read_lores()
        both = source.read_both()
    assert main is not None and lores is not None and both is not None
    assert main.image.shape == (48, 64, 3) and lores.image.shape == (24, 32, 3)
    assert main.image.dtype == np.uint8 and lores.image.dtype == np.uint8
    assert grey_level(main) == 3  # frames 0..2 were the warm-up
    # lores frame 4 is YUV420, luma 104, neutral chroma -> grey BGR of 1.164 * (104 - 16) ~ 102
    b, g, r = (int(v) for v in lores.image[5, 5])
    assert b == g == r and abs(b - 102) <= 2
    assert main.timestamp == pytest.approx(fake_picamera2.timestamp_ns(3) / 1e9)
    assert both[0].timestamp == both[1].timestamp
    assert (main.index, both[0].index, lores.index, both[1].index) == (0, 1, 0, 1)


def test_picamera2_drops_frames_older_than_max_age(fake_picamera2) -> None:
    # the sensor says frame n was taken at 1 s + n/30 s; 'now' is 1 s + 20/30 s
    clock = sensor_clock(fake_picamera2, 20)
    source = Picamera2FrameSource(warmup_frames=2, warmup_s=0, max_age_s=0.2, buffer_count=20, clock=clock)
    source.open()
    frame = source.read()
    assert frame is not None
    # frames 2..13 are older than 0.2 s (6 frames at 30 fps) and must have been dropped
    age = clock() - frame.timestamp
    assert 0 <= age <= 0.2
    assert source.dropped == grey_level(frame) - 2
    assert fake_picamera2.cameras[0].outstanding == 0


def test_picamera2_drops_frames_not_newer_than_last_delivered(fake_picamera2) -> None:
    stamps = [1_000_000_000, 1_033_000_000, 1_066_000_000, 1_066_000_000, 1_050_000_000, 1_100_000_000]
    fake_picamera2.timestamp_ns = lambda n: stamps[min(n, len(stamps) - 1)] + max(0, n - 5) * 33_000_000
    source = Picamera2FrameSource(warmup_frames=2, warmup_s=0, max_age_s=1e9, clock=FakeClock(2.0))
    source.open()
    first = source.read()   # frame 2 at 1.066
    second = source.read()  # frames 3 (same time) and 4 (earlier) dropped -> frame 5 at 1.100
    assert first is not None and second is not None
    assert (grey_level(first), grey_level(second)) == (2, 5)
    assert source.dropped == 2


def test_picamera2_only_stale_frames_gives_none(fake_picamera2) -> None:
    source = Picamera2FrameSource(warmup_frames=1, warmup_s=0, max_age_s=0.1, clock=FakeClock(500.0))
    source.open()
    assert source.read() is None
    assert source.dropped == source.buffer_count + 1


def test_picamera2_missing_camera_and_capture_failure(fake_picamera2) -> None:
    fake_picamera2.fail_open = IndexError("list index out of range")
    with pytest.raises(FrameSourceError, match="camera 0 not found"):
        Picamera2FrameSource().open()
    fake_picamera2.fail_open = None
    source = Picamera2FrameSource(warmup_frames=1, warmup_s=0, max_age_s=1e9, clock=FakeClock(2.0))
    source.open()
    fake_picamera2.fail_capture = RuntimeError("Camera frontend has timed out!")
    with pytest.raises(FrameSourceError, match="timed out"):
        source.read()
    fake_picamera2.fail_capture = None
    source.reconnect()
    assert source.read() is not None
    assert len(fake_picamera2.cameras) == 2  # opened, then reopened (the failed one never existed)


def test_picamera2_failure_during_warmup_closes_camera(fake_picamera2) -> None:
    fake_picamera2.fail_capture = RuntimeError("no frames")
    source = Picamera2FrameSource(warmup_frames=2)
    with pytest.raises(FrameSourceError, match="no frames"):
        source.open()
    assert fake_picamera2.cameras[0].closed and not source.is_open


# -- retry --------------------------------------------------------------------------------
def test_backoff_doubles_up_to_the_cap_and_resets() -> None:
    backoff = Backoff(0.5, 3.0)
    assert [backoff.next_delay() for _ in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    backoff.reset()
    assert backoff.next_delay() == 0.5


def test_retrying_source_reports_error_and_reconnects_after_delay() -> None:
    clock = FakeClock(100.0)
    caps = [FakeVideoCapture([solid_image(1), None]), FakeVideoCapture(opened=False),
            FakeVideoCapture([solid_image(7)])]
    opened = iter(caps)
    source = OpenCVFrameSource("camera.mp4", max_failures=1, capture_factory=lambda d, api: next(opened), clock=clock)
    retrying = RetryingFrameSource(source, clock=clock, backoff=Backoff(1.0, 4.0))
    retrying.open()
    assert grey_level(retrying.read()) == 1  # type: ignore[arg-type]
    assert retrying.read() is None  # unplugged: error kept, no exception
    assert retrying.error is not None and "unplugged" in str(retrying.error)
    clock.advance(0.5)
    assert retrying.read() is None and caps[1].reads == 0  # too early to retry
    clock.advance(0.6)
    assert retrying.read() is None  # retried: camera still absent, next try in 2 s
    assert "cannot open" in str(retrying.error)
    clock.advance(1.9)
    assert retrying.read() is None
    clock.advance(0.2)
    frame = retrying.read()
    assert frame is not None and grey_level(frame) == 7 and retrying.error is None


def test_a_webcam_that_opens_but_sends_nothing_stays_a_problem_until_a_picture_comes(caplog) -> None:
    """A webcam that opens and then returns False from read() for ever: each reconnect counted as
    the camera working again, so the error cleared (the screen said *Camera back.*), came back
    five reads later, and the camera was reopened every 0.5 s for ever, two log lines each time.
    Now the problem stays until a picture comes, the retries back off, and it is said once."""
    clock = FakeClock(0.0)
    sending = {"now": False}
    opens = []

    def factory(device, api):
        opens.append(clock.t)
        return FakeVideoCapture([solid_image(7) if sending["now"] else None] * 1000)

    source = OpenCVFrameSource("/dev/video0", clock=clock, capture_factory=factory)
    retrying = RetryingFrameSource(source, clock=clock, backoff=Backoff(0.5, 10.0))
    with caplog.at_level("INFO", logger="hardware.retry"):
        retrying.open()
        errors = []
        for _ in range(1200):                       # a minute of the table's loop
            assert retrying.read() is None
            errors.append(retrying.error)
            clock.advance(0.05)
        sending["now"] = True
        frames = [retrying.read() for _ in range(300) if not clock.advance(0.05)]
    assert all(errors[5:]) and "no picture); unplugged?" in str(errors[-1])
    assert len(opens) <= 12                         # (0.5, 1, 2, 4, 8, 10, 10 ... s apart; before: 83)
    assert any(f is not None for f in frames) and retrying.error is None
    said = [r.getMessage() for r in caplog.records]
    assert said.count("opencv: working again") == 1 and sum("reads in a row" in m for m in said) == 1


class _Stalled(FakeVideoCapture):
    """A webcam that stops streaming: V4L2's grab waits 10 s for a frame, then gives up."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__([solid_image(3)])
        self.clock = clock

    def grab(self) -> bool:
        if self.position < len(self.script):
            return super().grab()
        self.clock.advance(10.0)
        return False


def test_a_stalled_webcam_is_said_at_its_first_ten_second_wait() -> None:
    """Each read of a stalled webcam waits 10 s (V4L2's select timeout), and the table's loop, its
    buttons and screen with it: the error came after 5 of them, 50 s of a frozen table (systemd's
    watchdog restarts it after 60). It now comes at the first."""
    clock = FakeClock(0.0)
    source = OpenCVFrameSource("/dev/video0", clock=clock, capture_factory=lambda d, api: _Stalled(clock))
    source.open()
    assert source.read() is not None
    with pytest.raises(FrameSourceError, match=r"no picture from camera '/dev/video0' for 10 s; unplugged"):
        source.read()
    assert clock.t == 10.0


@pytest.mark.parametrize("image, said", [
    (np.zeros((0, 0, 3), np.uint8), "empty pictures (0x0)"),
    (np.zeros((48, 64, 2), np.uint8), "camera image has 2 channels; expected 1, 3 or 4"),
])
def test_a_webcam_sending_pictures_the_table_cannot_use_says_what_they_are(image, said) -> None:
    source = OpenCVFrameSource("/dev/video0", max_failures=2,
                               capture_factory=lambda d, api: FakeVideoCapture([image] * 3))
    source.open()
    assert source.read() is None
    with pytest.raises(FrameSourceError) as caught:
        source.read()
    assert caught.value.reason.endswith(f"({said}); the table cannot use such pictures: try another fourcc")


def test_a_webcam_sending_grey_or_four_channel_pictures_gives_bgr_frames() -> None:
    grey, bgra = np.full((48, 64), 90, np.uint8), np.full((48, 64, 4), 40, np.uint8)
    source = OpenCVFrameSource("/dev/video0", capture_factory=lambda d, api: FakeVideoCapture([grey, bgra]))
    source.open()
    frames = [source.read(), source.read()]
    assert [(f.image.shape, grey_level(f)) for f in frames] == [((48, 64, 3), 90), ((48, 64, 3), 40)]


class _DriverFails:
    """A camera whose driver raises its own error (not a FrameSourceError): picamera2 raises
    RuntimeError when the camera has gone away while its controls are set; close fails too."""

    name = "camera"

    def __init__(self) -> None:
        self.failing = True
        self.closed = 0
        self.reconnects = 0

    def open(self) -> None:
        pass

    def close(self) -> None:
        self.closed += 1
        if self.failing:
            raise RuntimeError("camera has gone away")

    def reconnect(self) -> None:
        self.reconnects += 1
        if self.failing:
            raise RuntimeError("Camera frontend has timed out!")

    def read(self) -> Frame | None:
        if self.failing:
            raise RuntimeError("Failed to set controls: camera has gone away")
        return Frame(solid_image(9), 0.0, 0)


def test_a_drivers_own_error_is_a_camera_problem_retried_like_any():
    clock = FakeClock(0.0)
    source = _DriverFails()
    retrying = RetryingFrameSource(source, clock=clock, backoff=Backoff(1.0, 4.0))
    retrying.open()
    assert retrying.read() is None                       # no exception out of the wrapper
    assert isinstance(retrying.error, FrameSourceError) and "RuntimeError" in str(retrying.error)
    assert "camera has gone away" in str(retrying.error) and source.closed == 1
    clock.advance(1.1)
    assert retrying.read() is None and source.reconnects == 1     # retried, failed again
    source.failing = False
    clock.advance(2.1)
    assert grey_level(retrying.read()) == 9 and retrying.error is None  # type: ignore[arg-type]
