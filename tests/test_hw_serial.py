"""The USB serial button box: line protocol, pyserial loop:// port, unplug and replug."""
from __future__ import annotations

import threading
import time

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st
from hw_helpers import wait_for

from hardware import ButtonEvent, make_button_source
from hardware.button_serial import SerialButtonSource
from hardware.fakes import UnpluggablePort
from hardware.serial_protocol import MAX_LINE, LineSplitter, ProtocolError, parse_line

TIMEOUT = 0.01  # port read timeout: the reader thread wakes up at least this often


def collect(source: SerialButtonSource, count: int, timeout: float = 3.0) -> list[ButtonEvent]:
    events: list[ButtonEvent] = []
    deadline = time.monotonic() + timeout
    while len(events) < count and time.monotonic() < deadline:
        events.extend(source.poll())
        time.sleep(0.002)
    return events


def kinds(events: list[ButtonEvent]) -> list[tuple[str, str]]:
    return [(e.kind, e.name) for e in events]


@pytest.fixture
def loop_port():
    port = serial.serial_for_url("loop://", timeout=TIMEOUT)
    yield port
    port.close()


@pytest.fixture
def running(loop_port):
    source = SerialButtonSource("loop://", opener=lambda: loop_port, read_timeout_s=TIMEOUT)
    source.start()
    wait_for(lambda: source.status.connected)
    yield source, loop_port
    source.stop()


# -- the protocol, without a port ---------------------------------------------------------
@pytest.mark.parametrize(
    "line, expected",
    [(b"P OK", ("press", "OK")), (b"H HOLD3", ("hold", "HOLD3")), (b"R ABANDON", ("release", "ABANDON")),
     (b"  p   ok  ", ("press", "OK")), (b"P\tUP", ("press", "UP")),
     (b"", None), (b"   ", None), (b"# dicetable-buttons v1", None), (b"PING", None), (b"ping", None)],
)
def test_parse_valid_and_ignorable_lines(line: bytes, expected) -> None:
    assert parse_line(line) == expected


@pytest.mark.parametrize(
    "line, reason",
    [(b"X OK", "unknown verb"), (b"P FIRE", "unknown button"), (b"P", "expected"), (b"P OK now", "expected"),
     (b"P \xc3\x96K", "non-ASCII"), (b"\x00\x01\x02", "control"), (b"P OK" + b" " * MAX_LINE, "longer")],
)
def test_parse_garbage_raises_protocol_error(line: bytes, reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason):
        parse_line(line)


def test_splitter_handles_crlf_partial_and_overlong_lines() -> None:
    splitter = LineSplitter(max_line=10)
    assert splitter.feed(b"P O") == []
    assert splitter.feed(b"K\r\nR") == [b"P OK"]
    assert splitter.feed(b" OK\r") == [b"R OK"]
    assert splitter.feed(b"\n") == []
    assert splitter.feed(b"A" * 25) == [None]  # reported once...
    assert splitter.feed(b"BBBB\nP UP\n") == [b"P UP"]  # ...and the rest of it discarded


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=40), max_size=12))
def test_any_byte_stream_yields_only_bounded_lines_and_protocol_errors(chunks: list[bytes]) -> None:
    splitter = LineSplitter()
    for chunk in chunks:
        for line in splitter.feed(chunk):
            if line is None:
                continue
            assert len(line) <= MAX_LINE and b"\n" not in line and b"\r" not in line
            try:
                result = parse_line(line)
            except ProtocolError:
                continue
            assert result is None or result[0] in ("press", "hold", "release")


# -- over a real pyserial loop:// port ----------------------------------------------------
def test_events_over_loop_port(running) -> None:
    source, port = running
    port.write(b"# dicetable-buttons v1\nPING\nP OK\nH HOLD2\nR HOLD2\n")
    events = collect(source, 3)
    assert kinds(events) == [("press", "OK"), ("hold", "HOLD2"), ("release", "HOLD2")]
    assert all(e.source == "serial" for e in events)
    assert source.garbage_count == 0 and source.last_heard is not None


def test_partial_lines_split_across_writes(running) -> None:
    source, port = running
    for piece in (b"P O", b"K", b"\r\nH", b" UP\r", b"\nR UP\n"):
        port.write(piece)
        time.sleep(0.005)
    assert kinds(collect(source, 3)) == [("press", "OK"), ("hold", "UP"), ("release", "UP")]


def test_garbage_is_counted_and_never_stops_the_reader(running, caplog: pytest.LogCaptureFixture) -> None:
    source, port = running
    with caplog.at_level("WARNING"):
        port.write(b"\xff\xfe\x00\x81binary noise\n")      # non-ASCII/control
        port.write(b"Z OK\n")                               # unknown verb
        port.write(b"P FIRE\n")                             # unknown button
        port.write(b"P " + b"O" * 200 + b"\n")              # over-long line
        port.write("P \u00d6K\n".encode("utf-8"))           # non-ASCII name
        port.write(b"P DOWN\n")                             # still works after all that
        events = collect(source, 1)
    assert kinds(events) == [("press", "DOWN")]
    assert source.garbage_count == 5
    assert "garbage" in caplog.text
    assert source.status.connected


def test_unplug_and_replug_with_backoff() -> None:
    ports: list[UnpluggablePort] = []
    attempts: list[float] = []
    fail_next = threading.Event()
    fail_next.set()

    def opener() -> UnpluggablePort:
        attempts.append(time.monotonic())
        if fail_next.is_set():
            raise serial.SerialException("[Errno 2] could not open port /dev/ttyACM0")
        port = UnpluggablePort(serial.serial_for_url("loop://", timeout=TIMEOUT))
        ports.append(port)
        return port

    source = SerialButtonSource("/dev/ttyACM0", opener=opener, read_timeout_s=TIMEOUT,
                                reconnect_initial_s=0.01, reconnect_max_s=0.04)
    source.start()
    try:
        wait_for(lambda: len(attempts) >= 3)
        status = source.status
        assert not status.connected and "not plugged in" in status.message and "/dev/ttyACM0" in status.message
        fail_next.clear()  # box plugged in
        wait_for(lambda: source.status.connected)
        ports[0].write(b"H OK\n")
        assert kinds(collect(source, 1)) == [("hold", "OK")]

        fail_next.set()
        ports[0].unplug()  # yanked while OK is held down
        wait_for(lambda: not source.status.connected)
        assert "disconnected" in source.status.message
        assert kinds(collect(source, 1)) == [("release", "OK")]  # so OK is not stuck down
        assert ports[0].closed and source.disconnects == 1

        fail_next.clear()  # plugged back
        wait_for(lambda: source.status.connected and len(ports) == 2)
        ports[1].write(b"P UP\n")
        assert kinds(collect(source, 1)) == [("press", "UP")]
    finally:
        source.stop()
    gaps = [b - a for a, b in zip(attempts, attempts[1:3])]
    assert all(gap >= 0.009 for gap in gaps)  # retries wait (backoff), they do not spin


def test_stop_is_prompt_and_status_says_stopped(loop_port) -> None:
    source = SerialButtonSource("loop://", opener=lambda: loop_port, read_timeout_s=TIMEOUT)
    source.start()
    wait_for(lambda: source.status.connected)
    thread = source._thread
    started = time.monotonic()
    source.stop()
    assert time.monotonic() - started < 1.0
    assert thread is not None and not thread.is_alive()
    assert source.status.connected is False and source.status.message == "stopped"
    assert not loop_port.is_open  # the reader thread closed the port it owned


def test_registry_builds_serial_source_with_injected_opener(loop_port) -> None:
    source = make_button_source({"type": "serial", "port": "loop://", "read_timeout_s": TIMEOUT},
                                opener=lambda: loop_port)
    source.start()
    try:
        wait_for(lambda: source.status.connected)
        loop_port.write(b"P BACK\n")
        assert kinds(collect(source, 1)) == [("press", "BACK")]  # type: ignore[arg-type]
    finally:
        source.stop()
    with pytest.raises(ValueError, match="unknown key"):
        make_button_source({"type": "serial", "device": "/dev/ttyUSB0"})


def test_default_opener_opens_url_with_pyserial() -> None:
    source = SerialButtonSource("loop://", read_timeout_s=TIMEOUT)
    source.start()
    try:
        assert wait_for(lambda: source.status.connected)
    finally:
        source.stop()
    missing = SerialButtonSource("/dev/ttyNONEXISTENT", read_timeout_s=TIMEOUT, reconnect_initial_s=0.01)
    missing.start()
    try:
        wait_for(lambda: "not available" in missing.status.message)
        assert not missing.status.connected
    finally:
        missing.stop()


# -- a box that floods, or speaks at another speed ------------------------------------------
def _fed(clock, busy_after_s: float = 0.0) -> SerialButtonSource:
    """A source fed bytes straight, as its reader thread would: no port, no thread, no waiting
    (and, unless asked, no table that may have been busy between two polls)."""
    source = SerialButtonSource("/dev/ttyACM0", opener=lambda: None, clock=clock, busy_after_s=busy_after_s)
    source._status = source._status.__class__(True, "")          # (as after a connect)
    return source


def test_a_flood_of_garbage_is_logged_once_a_minute_not_forty_times_a_second(caplog) -> None:
    """A box at the wrong baud rate, measured on the real program (socket box, 57,600 garbage
    lines in 3 s): 576 log lines, one per 100, for as long as it went on."""
    from hw_helpers import FakeClock

    clock = FakeClock(100.0)
    source = _fed(clock)
    with caplog.at_level("WARNING", logger="hardware.button_serial"):
        source._handle(b"\xff\xfegarbage\n" * 1000)
        assert source.garbage_count == 1000
        assert len([r for r in caplog.records if "garbage" in r.getMessage()]) == 5      # the first five
        clock.advance(60.0)
        source._handle(b"\xff\n")
    summary = [r.getMessage() for r in caplog.records if "more garbage" in r.getMessage()]
    assert summary == ["serial: ignored 996 more garbage lines (1001 in all; the last: non-ASCII bytes)"]


def test_a_box_sending_only_garbage_is_named_on_screen_until_it_is_understood_again(caplog) -> None:
    """Before, its status stayed 'connected': no button worked and nothing said why."""
    from hw_helpers import FakeClock

    source = _fed(FakeClock(0.0))
    source._handle(b"\x8a\x0b\xf3 noise\n" * 19)
    assert source.status.connected                          # a burst of noise is not yet an alarm
    source._handle(b"\x8a\x0b\xf3 noise\n")
    status = source.status
    assert not status.connected
    assert "cannot read" in status.message and "baudrate = 115200" in status.message
    source._handle(b"P OK\n")
    assert source.status.connected and kinds(source.poll()) == [("press", "OK")]
    source._handle(b"\x8a\n" * 5 + b"PING\n" + b"\x8a\n" * 15)
    assert source.status.connected                          # garbage between lines understood: not a wrong speed


def test_a_port_pattern_finds_the_box_under_the_name_it_comes_back_with(tmp_path, monkeypatch) -> None:
    """Plugged back while the table still held its old port, the box comes back as /dev/ttyACM1:
    a config naming /dev/ttyACM0 waited for ever. A pattern opens whichever of its matches opens."""
    opened: list[str] = []
    real = serial.serial_for_url

    def serial_for_url(url, **kwargs):
        if url.endswith("0"):
            raise serial.SerialException(f"could not open port {url}: [Errno 16] Device or resource busy")
        opened.append(url)
        return real("loop://", timeout=TIMEOUT)

    monkeypatch.setattr(serial, "serial_for_url", serial_for_url)
    source = SerialButtonSource(str(tmp_path / "ttyACM*"), read_timeout_s=TIMEOUT)
    with pytest.raises(serial.SerialException, match="no port matches"):
        source._open_port()                                     # unplugged: nothing there
    (tmp_path / "ttyACM0").touch()                              # the old name, still held: busy
    (tmp_path / "ttyACM1").touch()                              # the box, back
    source._open_port().close()
    assert opened == [str(tmp_path / "ttyACM1")]
    (tmp_path / "ttyACM1").unlink()
    with pytest.raises(serial.SerialException, match="busy"):
        source._open_port()


def test_a_box_flooding_with_presses_plays_nothing_and_is_named_until_it_stops(caplog) -> None:
    """A box sending "P OK" in a loop (a loose contact inside it, its firmware gone wrong): before,
    every press reached the game, which accepted readings and chose boxes by itself."""
    from hw_helpers import FakeClock

    clock = FakeClock(0.0)
    source = _fed(clock)
    source._handle(b"P OK\nR OK\n" * 200)                         # 200 presses in one read
    assert kinds(source.poll()).count(("press", "OK")) == 1        # a hand makes one at a time
    for _ in range(30):                                            # then 30 a second, of all buttons
        clock.advance(1 / 30)
        source._handle(b"P HOLD1\nR HOLD1\nH DOWN\nR DOWN\n")
    presses = [e for e in source.poll() if e.kind != "release"]
    assert len(presses) <= 10 and not source.status.connected
    assert "faster than hands can" in source.status.message
    clock.advance(1.0)
    source._check_calm(clock())
    assert not source.status.connected                             # not yet calm
    clock.advance(1.0)
    source._check_calm(clock())                                    # (the reader's idle reads do this)
    assert source.status.connected
    source._handle(b"P OK\nR OK\n")
    clock.advance(0.3)
    source._handle(b"P HOLD1\nR HOLD1\nP HOLD2\nR HOLD2\n")        # two buttons let go at once
    assert kinds(source.poll()) == [("press", "OK"), ("release", "OK"), ("press", "HOLD1"),
                                    ("release", "HOLD1"), ("press", "HOLD2"), ("release", "HOLD2")]
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and "faster than hands can" in errors[0].getMessage()


def test_flood_guard_false_lets_a_harness_press_as_fast_as_it_likes(loop_port) -> None:
    source = make_button_source({"type": "serial", "port": "loop://", "flood_guard": False}, opener=lambda: loop_port)
    source._handle(b"P OK\nR OK\n" * 30)
    assert kinds(source.poll()).count(("press", "OK")) == 30 and source.flood_dropped == 0
    with pytest.raises(ValueError, match="flood_guard"):
        make_button_source({"type": "serial", "port": "loop://", "flood_guard": "no"})


# -- a box as boxes fail: jammed buttons, lines cut and sent again, presses queued by a freeze ------
def test_a_button_jammed_in_the_box_is_named_until_the_box_says_it_is_up(caplog) -> None:
    """The box reports H OK and then nothing for minutes (a stuck switch inside it): one hold, then
    'OK button stuck: call staff' while the other buttons work; R OK takes it back."""
    from hw_helpers import FakeClock

    clock = FakeClock(0.0)
    source = _fed(clock)
    with caplog.at_level("INFO", logger="hardware"):
        source._handle(b"H OK\n")
        events = source.poll()
        for _ in range(120):
            clock.advance(1.0)
            events += source.poll()
        source._handle(b"P UP\nR UP\n")
        events += source.poll()
        assert source.status.connected and source.status.warning == "OK button stuck: call staff"
        source._handle(b"R OK\n")
        events += source.poll()
    assert kinds(events) == [("hold", "OK"), ("press", "UP"), ("release", "UP"), ("release", "OK")]
    assert source.status.warning == ""
    said = [r.getMessage() for r in caplog.records]
    assert sum("OK button stuck" in m for m in said) == 1 and any("OK button up again" in m for m in said)


def test_a_box_sending_its_last_press_again_as_it_comes_back_makes_one_move(caplog) -> None:
    """A box unplugged and plugged back that sends again the press it had sent (its firmware's
    buffer): before, OK twice, a reading accepted then a box chosen."""
    from hw_helpers import FakeClock

    clock = FakeClock(0.0)
    source = _fed(clock)
    source._handle(b"P OK\nR OK\n")
    source._lost(serial.SerialException("unplugged"))
    clock.advance(0.5)
    source._connect()                                   # (opener: None, a port as good as any here)
    clock.advance(0.05)
    with caplog.at_level("WARNING", logger="hardware"):
        source._handle(b"# dicetable-buttons v1\nP OK\nR OK\n")
    assert kinds(source.poll()) == [("press", "OK"), ("release", "OK"), ("release", "OK")]
    assert source.replays_dropped == 1 and "sent press OK again as it came back" in caplog.text
    clock.advance(0.5)
    source._handle(b"P OK\nR OK\n")                    # the player's next press counts
    assert kinds(source.poll()) == [("press", "OK"), ("release", "OK")]


def test_a_line_cut_by_the_unplug_and_sent_whole_again_is_one_press() -> None:
    """P O | unplug | replug, the box sends P OK: the cut line was never a press, the whole one is;
    what is left of a cut line (K) is garbage, not a press."""
    from hw_helpers import FakeClock

    clock = FakeClock(0.0)
    source = _fed(clock)
    source._handle(b"P OK\nR OK\n")
    clock.advance(1.0)
    source._handle(b"P O")
    source._lost(serial.SerialException("unplugged"))
    source._connect()
    source._handle(b"K\nP OK\nR OK\n")
    assert kinds(source.poll()) == [("press", "OK"), ("release", "OK"), ("press", "OK"), ("release", "OK")]
    assert source.garbage_count == 1


def test_presses_queued_while_the_table_was_busy_make_one_move_not_twenty(caplog) -> None:
    """The box's reader went on while the table's loop was held up for 6 s; a player pressed twenty
    times at a hand's pace (the flood guard lets those through: they are not too fast, nor the same
    button within 20 ms). Before, twenty moves at once; now the first counts, the log says the rest."""
    from hw_helpers import FakeClock

    clock = FakeClock(0.0)
    source = _fed(clock, busy_after_s=2.0)
    assert source.poll() == []
    for name in ["DOWN", "OK", "UP", "HOLD1"] * 5:
        source._handle(f"P {name}\nR {name}\n".encode())
        clock.advance(0.3)
    with caplog.at_level("WARNING", logger="hardware"):
        events = source.poll()
    assert [e for e in kinds(events) if e[0] == "press"] == [("press", "DOWN")]
    assert "19 presses made while the table was busy" in caplog.text
    clock.advance(0.05)
    source._handle(b"P OK\nR OK\n")
    assert kinds(source.poll()) == [("press", "OK"), ("release", "OK")]
