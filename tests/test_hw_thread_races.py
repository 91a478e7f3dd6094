"""What the table's loop reads of the camera's thread, read while that thread changes it.

The camera is read on a thread of its own (hardware/frame_reader.py); its problem flags are read
by the table's loop. Each race is reproduced here by injecting the interleaving (a double whose
value changes between two looks, a clock that lets the thread run in the middle of a look), not
by hoping a loaded machine finds it.
"""
from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Callable

import numpy as np
from hw_helpers import FakeClock, QuietPanel, wait_for

from display.screen import Screen
from hardware import RetryingFrameSource
from hardware.fakes import FakeVideoCapture
from hardware.frame_opencv import OpenCVFrameSource
from hardware.frames import FrameSourceError




class _ProblemEndsBetweenLooks:
    """A camera read on its thread (FrameReader's face) whose problem ends as the table looks at it:
    the first look finds it, the thread clears it (a frame came) before a second look."""

    name = "opencv"

    def __init__(self) -> None:
        self.looks = 0
        self.problem = FrameSourceError("cannot open camera '/dev/video0'", "opencv")

    @property
    def error(self) -> FrameSourceError | None:
        self.looks += 1
        return self.problem if self.looks == 1 else None

    def read(self) -> None:
        return None

    def close(self) -> None:
        pass


def test_a_camera_problem_ending_as_the_table_looks_is_never_said_as_camera_none(tmp_path, caplog):
    """The loop looked at the camera's error twice in one pass (is there one? then its words): the
    thread clearing it in between made the screen and the log say "Camera: None. Retrying..."."""
    from controller.config import parse_config
    from controller.setup_menu import SetupResult
    from controller.table_app import TableApp

    frames = _ProblemEndsBetweenLooks()
    app = TableApp(parse_config(f'[table]\njournal_dir = "{tmp_path}"\n'), Screen((800, 480), headless=True),
                   frames, QuietPanel())
    app.menu.done = SetupResult("thirteen", ("Ann",), {})
    app.start_new()
    with caplog.at_level(logging.INFO):
        app.step()
        notice = app.device_notice()
        app.step()                                      # (the problem is over: said so)
    said = [r.getMessage() for r in caplog.records if "Camera" in r.getMessage()]
    assert notice is not None and notice.text == "Camera: opencv: cannot open camera '/dev/video0'. Retrying..."
    assert said == ["Camera: opencv: cannot open camera '/dev/video0'. Retrying...", "Camera back."]
    assert not any("None" in text for text in said)


class _GatedCapture(FakeVideoCapture):
    """A webcam whose grabs hang at the gates the test sets (one Event per grab to come, in order);
    `waiting` is the gate a grab waits at now."""

    def __init__(self) -> None:
        super().__init__()
        self.gates: deque[threading.Event] = deque()
        self.waiting: threading.Event | None = None
        self.threads: set[int] = set()

    def grab(self) -> bool:
        self.threads.add(threading.get_ident())
        gate = self.gates.popleft() if self.gates else None
        if gate is not None:
            self.waiting = gate
            gate.wait(10.0)
            self.waiting = None
        self._grabbed = np.full((48, 64, 3), 128, np.uint8)
        return True

    def hang_next(self) -> threading.Event:
        """The next grab hangs until the Event returned is set."""
        gate = threading.Event()
        self.gates.append(gate)
        return gate


class _LookingClock(FakeClock):
    """The test's clock; once armed, the table's thread's next look at it first runs `during`
    (what the camera's thread does in the middle of that look)."""

    def __init__(self) -> None:
        super().__init__(0.0)
        self.during: Callable[[], None] | None = None

    def __call__(self) -> float:
        if self.during is not None and threading.current_thread() is threading.main_thread():
            during, self.during = self.during, None
            during()
        return self.t


def test_a_hang_right_after_another_is_said_too(caplog):
    """A call to the camera ended while the loop was looking at it (its "does not answer" being
    made), and the next call hung at once: the loop's words for the first were left standing, and
    the second hang was never said in the log (the screen kept the first's words). Each hang is
    said once, whatever the interleaving."""
    from hardware.frame_reader import FrameReader

    clock = _LookingClock()
    capture = _GatedCapture()
    camera = OpenCVFrameSource("/dev/video0", capture_factory=lambda device, api: capture, by_id_dir="/nonexistent")
    reader = FrameReader(RetryingFrameSource(camera), clock=clock)
    reader.open()
    gates: list[threading.Event] = []
    try:
        wait_for(reader.read, what="a first frame")
        gates.append(capture.hang_next())
        wait_for(lambda: capture.waiting is gates[0], what="the first hang")
        clock.advance(3.0)

        def first_ends_and_next_hangs() -> None:     # (in the middle of the loop's look)
            gates.append(capture.hang_next())
            gates[0].set()
            wait_for(lambda: capture.waiting is gates[1], what="the next call hanging")

        clock.during = first_ends_and_next_hangs
        with caplog.at_level(logging.WARNING, logger="hardware"):
            reader.error                            # noqa: B018  (the loop's look, as at each pass)
            assert clock.during is None             # (the interleaving happened)
            # the second call has waited 6 s (the first answered after 3 s: a slow camera is given twice
            # that before it is said not to answer, see frame_reader.SLOW_ANSWER_MAX_S)
            clock.advance(6.0)
            second = reader.error
        said = [r.getMessage() for r in caplog.records if "it does not answer" in r.getMessage()]
        assert second is not None and "it does not answer" in str(second)
        assert len(said) == 2, said
        assert reader.read() is not None            # (the frame the first hang ended with)
        gates[1].set()
        wait_for(reader.read, what="a frame after the hangs")
        assert reader.error is None and len(capture.threads) == 1
    finally:
        for gate in gates:
            gate.set()
        reader.close()
