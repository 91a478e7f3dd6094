"""Small test doubles shared by the hardware tests."""
from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, Callable


class FakeClock:
    """Time that moves only when a test says so."""

    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        self.t += dt


def box_on_loop(t0: float) -> Iterator[tuple[Any, Any, FakeClock]]:
    """A USB box's source (its real reader thread) reading a pyserial loop:// port on a clock
    starting at `t0`: what a test writes to the port is what the box sends. For a fixture to
    `yield from`; the reader is stopped and the port closed after the test."""
    import serial

    from hardware.button_serial import SerialButtonSource

    port = serial.serial_for_url("loop://", timeout=0.01)
    clock = FakeClock(t0)
    source = SerialButtonSource("loop://", opener=lambda: port, read_timeout_s=0.01, clock=clock, busy_after_s=0)
    source.start()
    wait_for(lambda: source.status.connected, what="the box connected")
    yield source, port, clock
    source.stop()
    port.close()


def kinds(events) -> list[tuple[str, str]]:
    return [(e.kind, e.name) for e in events]


def wait_for(condition: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
    """The first true value of `condition`, polled: a deadline for a thread's condition on a
    loaded machine, not a speed (tests assert no time)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.002)
    raise AssertionError(f"{what}: not met in time")


class QuietPanel:
    """Buttons that are there and give what a test puts in `queue` at the next poll (nothing else)."""

    status = type("Status", (), {"connected": True, "message": "", "warning": ""})()

    def __init__(self) -> None:
        self.queue: list[Any] = []

    def feed(self, event: Any) -> bool:
        return False

    def poll(self) -> list[Any]:
        out, self.queue = self.queue, []
        return out

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass
