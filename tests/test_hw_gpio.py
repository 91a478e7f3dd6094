"""GPIO buttons through gpiozero's MockFactory: press, hold, bounce, threads, pin handling."""
from __future__ import annotations

import os
import queue
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from hardware import ButtonEvent, make_button_source
from hardware.button_gpio import GpioButtonSource
from hw_helpers import FakeClock, kinds  # noqa: E402

PINS = {"OK": 17, "UP": 27, "DOWN": 22, "HOLD1": 5}


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


@pytest.fixture
def gpio(factory):
    clock = FakeClock(0.0)
    source = GpioButtonSource(PINS, bounce_time=0.02, hold_time=5.0, pin_factory=factory, clock=clock)
    source.start()
    assert source.status.connected
    yield source, clock, factory
    source.stop()


def test_pins_are_pulled_up_and_idle_high(gpio) -> None:
    source, _, factory = gpio
    pin = factory.pin(17)
    assert pin.pull == "up" and pin.state is True
    assert not source.devices["OK"].is_pressed


def test_short_press_gives_press_then_release_on_button_up(gpio) -> None:
    source, clock, factory = gpio
    pin = factory.pin(17)
    pin.drive_low()
    assert source.poll() == []  # pressed: nothing yet (it may become a hold)
    clock.advance(0.15)
    pin.drive_high()
    events = source.poll()
    assert kinds(events) == [("press", "OK"), ("release", "OK")]
    assert all(e.timestamp == pytest.approx(0.15) and e.source == "gpio" for e in events)
    assert source.poll() == []


def test_each_button_reports_its_own_name(gpio) -> None:
    source, clock, factory = gpio
    for name, number in PINS.items():
        factory.pin(number).drive_low()
        clock.advance(0.1)
        factory.pin(number).drive_high()
        clock.advance(0.1)
    assert [e.name for e in source.poll() if e.kind == "press"] == list(PINS)


def test_long_press_is_a_hold_and_not_also_a_press(factory) -> None:
    source = GpioButtonSource({"OK": 17}, hold_time=0.03, pin_factory=factory)
    source.start()
    try:
        pin = factory.pin(17)
        pin.drive_low()
        events: list[ButtonEvent] = []
        deadline = time.monotonic() + 3.0
        while not events and time.monotonic() < deadline:  # gpiozero's hold thread fires after 30 ms
            time.sleep(0.005)
            events = source.poll()
        assert kinds(events) == [("hold", "OK")]
        time.sleep(0.08)
        assert source.poll() == []  # one hold per press (no hold_repeat)
        pin.drive_high()
        assert kinds(source.poll()) == [("release", "OK")]
    finally:
        source.stop()


def test_contact_bounce_gives_a_single_press(gpio) -> None:
    source, clock, factory = gpio
    pin = factory.pin(27)
    for level in ("low", "high", "low", "high", "low"):  # 1 ms chatter on closing
        getattr(pin, f"drive_{level}")()
        clock.advance(0.001)
    assert source.poll() == []
    clock.advance(0.3)
    for level in ("high", "low", "high", "low", "high"):  # and on opening
        getattr(pin, f"drive_{level}")()
        clock.advance(0.001)
    events = source.poll()
    clock.advance(0.5)
    events += source.poll()
    assert kinds(events) == [("press", "UP"), ("release", "UP")]
    assert events[0].timestamp == pytest.approx(0.305)


def test_tap_shorter_than_bounce_time_is_settled_later(gpio) -> None:
    source, clock, factory = gpio
    pin = factory.pin(22)
    pin.drive_low()
    clock.advance(0.005)
    pin.drive_high()  # within the 20 ms bounce window: not accepted yet
    assert source.poll() == []
    clock.advance(0.05)
    events = source.poll()  # window over, the pin is up: the tap is reported
    assert kinds(events) == [("press", "DOWN"), ("release", "DOWN")]
    assert events[0].timestamp == pytest.approx(0.005)


def test_missed_release_inside_bounce_window_is_not_lost_by_next_press(gpio) -> None:
    source, clock, factory = gpio
    pin = factory.pin(17)
    pin.drive_low()
    clock.advance(0.005)
    pin.drive_high()
    clock.advance(0.5)
    pin.drive_low()  # second press, no poll in between
    clock.advance(0.1)
    pin.drive_high()
    assert kinds(source.poll()) == [("press", "OK"), ("release", "OK")] * 2


class RecordingQueue(queue.SimpleQueue):
    """Records which thread put each item (gpiozero's callbacks run on gpiozero threads)."""

    def __init__(self) -> None:
        super().__init__()
        self.put_threads: list[str] = []

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        self.put_threads.append(threading.current_thread().name)
        super().put(item, block, timeout)


def test_callbacks_only_queue_and_events_are_built_on_the_polling_thread(factory, monkeypatch) -> None:
    raw = RecordingQueue()
    source = GpioButtonSource({"OK": 17, "UP": 27}, hold_time=0.02, pin_factory=factory, raw_queue=raw)
    applied_on: list[str] = []
    original_apply = source._apply

    def spy_apply(*args: Any) -> None:
        applied_on.append(threading.current_thread().name)
        original_apply(*args)

    monkeypatch.setattr(source, "_apply", spy_apply)
    source.start()
    try:
        before = repr(source._state)
        factory.pin(17).drive_low()
        deadline = time.monotonic() + 3.0
        while len(raw.put_threads) < 2 and time.monotonic() < deadline:  # wait for the held edge
            time.sleep(0.005)
        factory.pin(17).drive_high()
        factory.pin(27).drive_low()
        factory.pin(27).drive_high()
        # the callbacks ran (down, held, up, down, up) but changed nothing besides the queue
        assert len(raw.put_threads) == 5
        assert any(name != threading.current_thread().name for name in raw.put_threads)  # the hold thread
        assert repr(source._state) == before and applied_on == []

        time.sleep(0.05)  # let UP's bounce window pass so its press is accepted
        events = source.poll()
        assert kinds(events) == [("hold", "OK"), ("release", "OK"), ("press", "UP"), ("release", "UP")]
        assert set(applied_on) == {threading.current_thread().name}
    finally:
        source.stop()


def test_pin_already_in_use_reports_disconnected_not_crash(factory) -> None:
    first = GpioButtonSource({"OK": 17}, pin_factory=factory)
    second = GpioButtonSource({"UP": 27, "DOWN": 17}, pin_factory=factory)
    first.start()
    second.start()
    assert first.status.connected
    assert not second.status.connected and "GPIO buttons unavailable" in second.status.message
    assert second.devices == {}  # GPIO27, claimed before the failure, was given back
    Button(27, pin_factory=factory).close()
    first.stop()
    assert first.status.message == "stopped"
    second.start()  # pin 17 was released by stop()
    assert second.status.connected
    second.stop()


def test_pin_map_validation() -> None:
    with pytest.raises(ValueError, match="unknown button 'FIRE'"):
        GpioButtonSource({"FIRE": 4})
    with pytest.raises(ValueError, match="BCM pin number"):
        GpioButtonSource({"OK": 40})
    with pytest.raises(ValueError, match="used by two buttons"):
        GpioButtonSource({"OK": 17, "UP": 17})
    with pytest.raises(ValueError, match="needs a 'pins' table"):
        make_button_source({"type": "gpio"})


def test_registry_with_lowercase_names_and_injected_factory(factory) -> None:
    clock = FakeClock(0.0)
    source = make_button_source(
        {"type": "gpio", "pins": {"ok": 17, "back": 6}, "bounce_time": 0.01, "hold_time": 2.0},
        pin_factory=factory, clock=clock,
    )
    source.start()
    try:
        factory.pin(6).drive_low()
        clock.advance(0.1)
        factory.pin(6).drive_high()
        assert kinds(source.poll()) == [("press", "BACK"), ("release", "BACK")]
        assert source.devices["OK"].hold_time == 2.0  # type: ignore[attr-defined]
    finally:
        source.stop()


# -- lgpio's notification FIFO (.lgd-nfy0) --------------------------------------------------
FAKE_LGPIO = '''
import os
# as lgpio does on import: its working directory is $LG_WD (changing the program's to it) or the
# current one; there it makes its FIFO, which its Python side then opens by a relative name
work = os.environ.get("LG_WD") or os.getcwd()
os.chdir(work)
os.mkfifo(os.path.join(work, ".lgd-nfy0"))
_file = os.open(".lgd-nfy0", os.O_RDONLY | os.O_NONBLOCK)
'''


@pytest.fixture
def fake_lgpio(tmp_path, monkeypatch):
    """An `lgpio` that behaves as the real one on import, run from someone's folder."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "lgpio.py").write_text(FAKE_LGPIO)
    monkeypatch.syspath_prepend(str(lib))
    monkeypatch.delitem(sys.modules, "lgpio", raising=False)
    monkeypatch.delenv("LG_WD", raising=False)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.chdir(home)
    yield home
    sys.modules.pop("lgpio", None)


def test_lgpio_leaves_its_fifo_out_of_the_current_folder_and_the_folder_as_it_was(fake_lgpio) -> None:
    """`dicetable check --press-test` run from someone's home left lgpio's FIFO there (root's, with
    sudo); where the folder cannot be written lgpio did not load and gpiozero sent the staff to
    reinstall python3-lgpio. Under the unit it sat among the journals on the SD card."""
    from hardware.button_gpio import load_lgpio

    load_lgpio()
    assert "lgpio" in sys.modules                            # loaded
    assert os.getcwd() == str(fake_lgpio)                    # the program's folder is still its own
    assert list(fake_lgpio.iterdir()) == []                  # nothing left in it
    work = Path(os.environ["LG_WD"])
    assert (work / ".lgd-nfy0").exists() and work != fake_lgpio


def test_lgpio_uses_the_folder_lg_wd_names(fake_lgpio, tmp_path, monkeypatch) -> None:
    """The unit names its runtime folder (/run/dicetable: memory, emptied at every stop)."""
    from hardware.button_gpio import load_lgpio

    run = tmp_path / "run"
    run.mkdir()
    monkeypatch.setenv("LG_WD", str(run))
    load_lgpio()
    assert (run / ".lgd-nfy0").exists() and os.getcwd() == str(fake_lgpio)


def test_the_unit_puts_lgpio_in_its_runtime_folder() -> None:
    """The service's WorkingDirectory is the journal folder: lgpio's FIFO stayed there, on the card."""
    unit = (Path(__file__).resolve().parents[1] / "systemd" / "dicetable.service").read_text()
    assert "RuntimeDirectory=dicetable" in unit.splitlines()
    assert "Environment=LG_WD=/run/dicetable" in unit.splitlines()


def test_pins_not_to_be_had_at_start_are_claimed_when_they_are_free(factory, caplog) -> None:
    """At boot the pins may not be the table's yet (held by `dicetable check --press-test`, udev
    still giving them their group): before, the panel stayed dead until the table restarted."""
    clock = FakeClock(0.0)
    other = Button(17, pin_factory=factory)                     # someone else holds OK's pin
    source = GpioButtonSource({"OK": 17, "UP": 27}, pin_factory=factory, clock=clock)
    with caplog.at_level("INFO", logger="hardware.button_gpio"):
        source.start()
        assert not source.status.connected and "GPIO buttons unavailable" in source.status.message
        for _ in range(5):                                      # tried again, said once
            clock.advance(1.0)
            source.poll()
        assert not source.status.connected
        other.close()                                           # the pin is free
        clock.advance(30.0)
        source.poll()
    assert source.status.connected
    assert [r.levelname for r in caplog.records] == ["ERROR", "INFO"]
    pin = factory.pin(17)
    pin.drive_low()
    clock.advance(0.1)
    pin.drive_high()
    clock.advance(0.1)
    assert kinds(source.poll()) == [("press", "OK"), ("release", "OK")]
    source.stop()
