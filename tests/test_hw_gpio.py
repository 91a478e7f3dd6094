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
from gpiozero.pins.mock import MockFactory, MockPin

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
    assert source.poll() == []  # up, but not yet for bounce_time: it may be chatter
    clock.advance(0.03)
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
        time.sleep(0.03)  # (a release counts once the pin has stayed up for bounce_time)
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
    clock.advance(0.03)
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
        time.sleep(0.05)  # longer than hold_time: a hold (timed by poll, from the edges' times)
        factory.pin(17).drive_high()
        factory.pin(27).drive_low()
        factory.pin(27).drive_high()
        # the callbacks ran (down, up, down, up) but changed nothing besides the queue
        assert len(raw.put_threads) == 4
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
        clock.advance(0.02)
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


# -- buttons as real arcade buttons fail: chatter, jammed, held at boot, pressed together, a freeze --
@pytest.fixture
def panel(factory):
    """A panel with the table's own times (bounce 20 ms, hold 1 s), on a virtual clock."""
    clock = FakeClock(100.0)
    source = GpioButtonSource(PINS, bounce_time=0.02, hold_time=1.0, pin_factory=factory, clock=clock)
    source.start()
    yield source, clock, factory
    source.stop()


def chatter(pin, clock, ms: list[float], final: str) -> None:
    """A worn switch: the pin flips at each step of `ms` (milliseconds apart), ending `final`."""
    level = final
    for step in ms:
        level = "low" if level == "high" else "high"
        getattr(pin, f"drive_{level}")()
        clock.advance(step / 1000)
    getattr(pin, f"drive_{final}")()


#: 40 ms of contact bounce, open and closed a few ms at a time, as a worn arcade switch does
BOUNCE_MS = [3, 2, 6, 1, 9, 4, 12, 3]


def test_a_worn_switch_chattering_for_40_ms_on_press_and_release_is_one_press(panel) -> None:
    """Edges more than bounce_time (20 ms) after the first were taken as new presses: a switch that
    bounced for 40 ms on closing and opening gave two or three presses (OK: accept, then choose)."""
    source, clock, factory = panel
    pin = factory.pin(17)
    chatter(pin, clock, BOUNCE_MS, "low")
    clock.advance(0.15)
    events = source.poll()
    chatter(pin, clock, BOUNCE_MS, "high")
    clock.advance(0.1)
    events += source.poll()
    assert kinds(events) == [("press", "OK"), ("release", "OK")]


def test_chatter_in_the_middle_of_a_long_press_leaves_it_one_hold(panel) -> None:
    """A long OK (correct the dice) on a worn switch that opened for a few ms half-way: the first
    opening was taken as the release (a short OK: the reading accepted), then a second press."""
    source, clock, factory = panel
    pin = factory.pin(17)
    pin.drive_low()
    clock.advance(0.5)
    events = source.poll()
    chatter(pin, clock, [2, 5, 1, 4], "low")                 # the contact opens and closes for 12 ms
    clock.advance(0.3)
    events += source.poll()
    clock.advance(0.5)
    events += source.poll()
    pin.drive_high()
    clock.advance(0.1)
    events += source.poll()
    assert kinds(events) == [("hold", "OK"), ("release", "OK")]
    assert events[0].timestamp == pytest.approx(101.0)     # timed from the press, not from the chatter


def test_a_short_press_ending_just_before_the_hold_time_is_a_press(panel) -> None:
    source, clock, factory = panel
    pin = factory.pin(17)
    pin.drive_low()
    clock.advance(0.99)
    pin.drive_high()                                        # up before 1 s, seen after it
    clock.advance(0.05)
    assert kinds(source.poll()) == [("press", "OK"), ("release", "OK")]


def test_a_button_jammed_down_acts_once_is_named_and_the_others_still_work(panel, caplog) -> None:
    """A stuck arcade switch or a spilt drink holds OK down for minutes: one hold (one action), then
    the screen and the log say 'OK button stuck: call staff'; UP still works; OK is taken back once
    it comes up. Before, nothing said why OK did nothing."""
    source, clock, factory = panel
    ok, up = factory.pin(17), factory.pin(27)
    events: list[ButtonEvent] = []
    with caplog.at_level("INFO", logger="hardware"):
        ok.drive_low()
        for _ in range(180):                                 # three minutes, polled every second
            clock.advance(1.0)
            events += source.poll()
            if clock() == 105.0:                             # meanwhile another button works
                up.drive_low()
                clock.advance(0.1)
                up.drive_high()
        assert source.status.connected and source.status.warning == "OK button stuck: call staff"
        chatter(ok, clock, [3, 50, 4], "low")                # a wet switch flickers: not a new press
        clock.advance(5.0)
        events += source.poll()
        ok.drive_high()
        clock.advance(1.5)
        events += source.poll()
    assert kinds(events) == [("hold", "OK"), ("press", "UP"), ("release", "UP"), ("release", "OK")]
    assert source.status.warning == ""
    said = [r.getMessage() for r in caplog.records]
    assert sum("OK button stuck" in m and "call staff" in m for m in said) == 1
    assert any("OK button up again" in m for m in said)
    ok.drive_low()                                           # taken back: it presses again
    clock.advance(0.1)
    ok.drive_high()
    clock.advance(0.1)
    assert kinds(source.poll()) == [("press", "OK"), ("release", "OK")]


class PressedPin(MockPin):
    """A button held down as the pins are claimed: the pull-up does not lift the pin."""

    def _set_pull(self, value: str) -> None:
        self._pull = value


@pytest.fixture
def ok_held_at_start(factory):
    """A panel (OK 17, UP 27) started with OK held down, on a clock of the test's: (source, clock)."""
    clock = FakeClock(0.0)
    factory.pin(17, pin_class=PressedPin)
    source = GpioButtonSource({"OK": 17, "UP": 27}, pin_factory=factory, clock=clock)
    source.start()
    try:
        yield source, clock
    finally:
        source.stop()


def test_a_button_held_as_the_table_starts_is_no_press(factory, ok_held_at_start) -> None:
    """Held through the boot (or as the pins are claimed again), then let go: no ghost press."""
    source, clock = ok_held_at_start
    clock.advance(3.0)
    assert source.poll() == []
    factory.pin(17).drive_high()
    clock.advance(0.5)
    assert source.poll() == []
    factory.pin(17).drive_low()                          # the next press is a press
    clock.advance(0.1)
    factory.pin(17).drive_high()
    clock.advance(0.1)
    assert kinds(source.poll()) == [("press", "OK"), ("release", "OK")]


def test_a_button_jammed_down_at_boot_is_named_as_stuck(factory, ok_held_at_start) -> None:
    """A drink spilt overnight: OK down from the start gave no event and no word, ever."""
    source, clock = ok_held_at_start
    clock.advance(11.0)
    assert source.poll() == [] and source.status.warning == "OK button stuck: call staff"
    factory.pin(17).drive_high()
    clock.advance(1.5)
    assert source.poll() == [] and source.status.warning == ""


def test_two_buttons_pressed_together_are_both_taken_in_the_order_let_go(panel) -> None:
    """HOLD2 and HOLD1 pressed with one hand, OK and UP together: each one press, in time order."""
    source, clock, factory = panel
    h1, h2 = factory.pin(5), factory.pin(6 if 6 in PINS.values() else 17)
    factory.pin(5).drive_low()
    factory.pin(17).drive_low()
    clock.advance(0.1)
    factory.pin(17).drive_high()
    clock.advance(0.004)                                     # within each other's bounce time
    factory.pin(5).drive_high()
    clock.advance(0.05)
    assert kinds(source.poll()) == [("press", "OK"), ("release", "OK"), ("press", "HOLD1"), ("release", "HOLD1")]
    assert h1 is factory.pin(5) and h2 is factory.pin(17)


def test_presses_made_while_the_table_was_busy_make_one_move_not_twenty(panel, caplog) -> None:
    """The table's loop held up for 6 s (a slow card, a long redraw) while a player pressed DOWN
    twenty times: before, twenty cursor moves (or twenty OKs: accept and choose) the moment it
    ended (or while it was still loading, after the pins were claimed and before its first poll).
    The first press counts; the rest are said in the log."""
    source, clock, factory = panel
    down = factory.pin(22)
    for _ in range(20):
        down.drive_low()
        clock.advance(0.1)
        down.drive_high()
        clock.advance(0.2)
    with caplog.at_level("WARNING", logger="hardware"):
        events = source.poll()
    assert kinds(events) == [("press", "DOWN"), ("release", "DOWN")] + [("release", "DOWN")] * 19
    assert "19 presses made while the table was busy" in caplog.text
    for _ in range(3):                                       # the table is taking presses again
        down.drive_low()
        clock.advance(0.1)
        down.drive_high()
        clock.advance(0.1)
        assert kinds(source.poll()) == [("press", "DOWN"), ("release", "DOWN")]


def test_a_stuck_time_no_longer_than_the_hold_time_is_refused(factory) -> None:
    """stuck_after_s = 0.5 with hold_time = 1: every long press (BACK, ABANDON on a short panel,
    a correction) would have been a stuck button, never a hold."""
    with pytest.raises(ValueError, match="stuck_after_s must be longer than hold_time"):
        make_button_source({"type": "gpio", "pins": {"OK": 17}, "stuck_after_s": 0.5}, pin_factory=factory)
    source = make_button_source({"type": "gpio", "pins": {"OK": 17}, "stuck_after_s": 0}, pin_factory=factory)
    assert source._stuck.after_s == 0                         # 0: never stuck
