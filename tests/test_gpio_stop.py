"""A GPIO panel stopped while its buttons are pressed stops quietly: no exception inside gpiozero
on the thread that saw the edge (lgpio's; here the thread driving the MockFactory pins). Pressing
as the panel stopped raised *AttributeError: 'NoneType' object has no attribute 'holding'* and
*TypeError: 'NoneType' object is not callable* there (22 in 30 stops)."""
from __future__ import annotations

import threading
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from hardware.button_gpio import GpioButtonSource
from hw_helpers import FakeClock

PINS = {"OK": 17, "UP": 27, "DOWN": 22, "HOLD1": 5}


@pytest.fixture
def raised(monkeypatch) -> list[str]:
    """The exceptions that end threads from now on."""
    seen: list[str] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append(f"{args.exc_type.__name__}: "
                                                                          f"{args.exc_value}"))
    return seen


def press_from_another_thread(pin: MockPin) -> None:
    """A press and release, made on a thread of its own (as lgpio's callback thread makes them)."""
    thread = threading.Thread(target=lambda: (pin.drive_low(), pin.drive_high()))
    thread.start()
    thread.join()


def test_a_press_as_a_pin_closes_raises_nothing_and_is_not_taken(raised, monkeypatch) -> None:
    """Deterministic: each pin is pressed just as gpiozero closes it (its button's hold thread
    already gone): the old panel raised AttributeError ('holding') on the pressing thread."""
    factory = MockFactory()
    try:
        source = GpioButtonSource(PINS, bounce_time=0.02, hold_time=5.0, pin_factory=factory,
                                  clock=FakeClock(0.0))
        source.start()
        assert source.status.connected
        real_close = MockPin.close

        def close(pin: Any) -> None:
            press_from_another_thread(pin)
            real_close(pin)

        monkeypatch.setattr(MockPin, "close", close)
        source.stop()
        monkeypatch.setattr(MockPin, "close", real_close)
        assert raised == []
        assert source.poll() == []          # (the presses made as it stopped are not taken)
    finally:
        factory.reset()


def test_stopping_a_panel_whose_buttons_are_being_pressed_raises_nothing(raised) -> None:
    """10 stops while another thread presses the four pins as fast as it can."""
    for _ in range(10):
        factory = MockFactory()
        try:
            source = GpioButtonSource(PINS, bounce_time=0, hold_time=0.5, pin_factory=factory)
            source.start()
            pins = [factory.pin(p) for p in PINS.values()]
            stopped = threading.Event()

            def press() -> None:
                while not stopped.is_set():
                    for pin in pins:
                        pin.drive_low()
                        pin.drive_high()

            thread = threading.Thread(target=press)
            thread.start()
            source.stop()
            stopped.set()
            thread.join()
        finally:
            factory.reset()
    assert raised == []


def test_the_panel_works_again_after_a_stop(raised) -> None:
    """Stopped and started again, its pins' events are taken again (a new guard)."""
    factory = MockFactory()
    try:
        clock = FakeClock(0.0)
        source = GpioButtonSource(PINS, bounce_time=0.02, hold_time=5.0, pin_factory=factory, clock=clock)
        source.start()
        source.stop()
        source.start()
        assert source.status.connected
        pin = factory.pin(PINS["OK"])
        pin.drive_low()
        clock.advance(0.1)
        pin.drive_high()
        clock.advance(0.1)
        assert [(e.kind, e.name) for e in source.poll()] == [("press", "OK"), ("release", "OK")]
        source.stop()
        assert raised == []
    finally:
        factory.reset()



def test_a_pin_class_without_the_private_method_the_guard_wraps_still_gives_a_working_panel(monkeypatch) -> None:
    """The guard wraps a method gpiozero does not make public (a pin class's `_call_when_changed`):
    with a version whose pins lack it the panel starts and works, unguarded, instead of *GPIO
    buttons unavailable* for good (AttributeError as its pins were claimed)."""
    factory = MockFactory()
    for klass in type.mro(MockPin):
        if "_call_when_changed" in vars(klass):
            monkeypatch.delattr(klass, "_call_when_changed")
    try:
        source = GpioButtonSource(PINS, bounce_time=0.0, hold_time=5.0, pin_factory=factory, clock=FakeClock(0.0))
        source.start()
        assert source.status.connected, source.status.message
        source.stop()
    finally:
        factory.reset()
