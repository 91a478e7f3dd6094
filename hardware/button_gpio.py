"""Arcade buttons wired to the Pi's GPIO pins, through gpiozero.

gpiozero calls back on its own threads, so the callbacks here do exactly one thing: put a
raw edge (button, "down"/"held"/"up", time) on a thread-safe queue. Turning edges into
press/hold/release events - including debouncing - happens in `poll()`, on the caller's
thread, where it can be reasoned about and tested with an injected clock.
"""
from __future__ import annotations

import atexit
import logging
import os
import queue
import shutil
import tempfile
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ._config import boolean, check_keys, positive, table, text
from .buttons import HOLD, PRESS, RELEASE, ButtonEvent, Clock, SourceStatus, check_button_name, drain
from .retry import Backoff

log = logging.getLogger(__name__)

DOWN, HELD, UP = "down", "held", "up"
RawEdge = tuple[str, str, float]


# gpiozero's "Unable to load any default pin factory!" on a Pi: the venv cannot see lgpio
NO_PIN_LIBRARY = ("no library reaches the pins: on Raspberry Pi OS, apt install python3-lgpio and make the venv "
                  "with --system-site-packages, docs/install.md steps 2 and 4")


def lgpio_workdir() -> str:
    """Where lgpio is to put its notification FIFO (`.lgd-nfy0`): $LG_WD when set (the unit sets
    its runtime folder, /run/dicetable), else a private temporary folder removed at exit.

    lgpio makes the FIFO in its working directory, the current one unless LG_WD names another:
    under the unit that was the journal folder on the SD card, where it stayed after every stop
    (lgpio never removes it); run from a folder its user cannot write (`dicetable check` from
    someone's home, a read-only WorkingDirectory), lgpio failed to load and gpiozero said no pin
    library could be found, sending the staff to reinstall python3-lgpio."""
    if os.environ.get("LG_WD"):
        return os.environ["LG_WD"]
    folder = tempfile.mkdtemp(prefix="dicetable-lgpio-")
    atexit.register(shutil.rmtree, folder, True)
    os.environ["LG_WD"] = folder
    return folder


def load_lgpio() -> None:
    """Import lgpio (when installed) with LG_WD set, then go back to the current directory:
    lgpio changes the whole program's directory to LG_WD, and the relative paths of a config
    (a camera's image folder) would then point elsewhere."""
    here = os.getcwd()
    lgpio_workdir()
    try:
        import lgpio  # noqa: F401  (gpiozero's first choice of pin library)
    except ImportError:
        pass                    # (not a Pi, or not installed: gpiozero says so, see NO_PIN_LIBRARY)
    except Exception:           # (its FIFO could not be made: gpiozero tries the other libraries)
        log.warning("lgpio could not start in %s", os.environ.get("LG_WD"), exc_info=True)
    finally:
        os.chdir(here)


@dataclass
class _ButtonState:
    down: bool = False          # debounced state
    held: bool = False          # a hold was reported during this press
    last_accept: float = float("-inf")
    raw_down: bool = False      # last state the pin reported, bounce included
    raw_t: float = float("-inf")


class GpioButtonSource:
    """Buttons from a `{name: BCM pin}` map; buttons close to ground, internal pull-ups.

    Events: a short press gives `press` then `release` (both when the button goes up); a
    press longer than `hold_time` gives `hold` (when the time is reached) then `release`
    only. Edges closer than `bounce_time` to the last accepted edge are ignored; if the pin
    ends up in the other state once that time has passed, the change is applied then.
    """

    def __init__(
        self,
        pins: Mapping[str, int],
        *,
        pull_up: bool = True,
        bounce_time: float = 0.02,
        hold_time: float = 1.0,
        pin_factory: Any = None,
        clock: Clock | None = None,
        raw_queue: Any = None,
        name: str = "gpio",
    ) -> None:
        if not pins:
            raise ValueError("[buttons] gpio source needs a 'pins' table, e.g. OK = 17")
        pins = table(pins, "pins", "buttons")
        self.pins: dict[str, int] = {}
        for button, pin in pins.items():
            upper = check_button_name(button, "buttons.pins")
            if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
                raise ValueError(f"[buttons.pins] {button} must be a BCM pin number 0..27, got {pin!r}")
            self.pins[upper] = pin
        used = sorted(self.pins.values())
        if len(set(used)) != len(used):
            raise ValueError(f"[buttons.pins] a pin is used by two buttons: {self.pins}")
        self.pull_up = boolean(pull_up, "pull_up", "buttons")
        self.bounce_time = positive(bounce_time, "bounce_time", "buttons", allow_zero=True)
        self.hold_time = positive(hold_time, "hold_time", "buttons")
        self.pin_factory = pin_factory
        self.clock = clock or time.monotonic
        self.name = text(name, "name", "buttons")
        self.devices: dict[str, Any] = {}
        self._raw: Any = raw_queue if raw_queue is not None else queue.SimpleQueue()
        self._state = {button: _ButtonState() for button in self.pins}
        self._status = SourceStatus(False, "not started")
        self._backoff = Backoff(1.0, 30.0)
        self._retry_at: float | None = None   # when to claim the pins again after a failure

    @classmethod
    def from_config(
        cls, config: dict[str, Any], *, pin_factory: Any = None, clock: Clock | None = None
    ) -> "GpioButtonSource":
        check_keys(config, {"pins", "pull_up", "bounce_time", "hold_time", "name"}, "buttons")
        return cls(
            config.get("pins") or {},
            pull_up=config.get("pull_up", True),
            bounce_time=config.get("bounce_time", 0.02),
            hold_time=config.get("hold_time", 1.0),
            pin_factory=pin_factory,
            clock=clock,
            name=config.get("name", "gpio"),
        )

    @property
    def status(self) -> SourceStatus:
        return self._status

    def _edge_callback(self, button: str, edge: str) -> Callable[[], None]:
        """The only code that runs on gpiozero's threads: one queue put."""
        put, clock = self._raw.put, self.clock

        def callback() -> None:
            put((button, edge, clock()))

        return callback

    def start(self) -> None:
        """Claim the pins. A failure (not a Pi, pin busy) is reported in `status`, not raised."""
        if self.devices:
            return
        try:
            if self.pin_factory is None:
                load_lgpio()
            from gpiozero import Button

            for button, pin in self.pins.items():
                device = Button(
                    pin,
                    pull_up=self.pull_up,
                    bounce_time=self.bounce_time or None,
                    hold_time=self.hold_time,
                    pin_factory=self.pin_factory,
                )
                self.devices[button] = device
                device.when_pressed = self._edge_callback(button, DOWN)
                device.when_held = self._edge_callback(button, HELD)
                device.when_released = self._edge_callback(button, UP)
        except Exception as exc:
            self._failed(exc)
            return
        if self._retry_at is not None:
            log.info("%s: GPIO buttons working again", self.name)
        self._retry_at = None
        self._backoff.reset()
        self._status = SourceStatus(True, "")

    def _failed(self, exc: Exception) -> None:
        """The pins could not be claimed: said once, and tried again later (poll). At boot the pins
        may not be the table's yet (udev still setting their group, `dicetable check` holding them):
        before, the panel stayed dead until the table was restarted."""
        self._close_devices()
        message = f"GPIO buttons unavailable: {exc}"
        if type(exc).__name__ == "BadPinFactory":     # (gpiozero found no library for the pins)
            message += f" ({NO_PIN_LIBRARY})"
        if message != self._status.message:
            log.error("%s: %s", self.name, message)
        self._status = SourceStatus(False, message)
        self._retry_at = self.clock() + self._backoff.next_delay()

    def _close_devices(self) -> None:
        devices, self.devices = self.devices, {}
        for device in devices.values():
            try:
                device.close()
            except Exception:
                log.debug("%s: error closing %r", self.name, device, exc_info=True)

    def stop(self) -> None:
        self._close_devices()
        self._retry_at = None
        self._status = SourceStatus(False, "stopped")

    def feed(self, event: Any) -> bool:
        """Not a pygame-driven source: ignores window events (see KeyboardButtonSource)."""
        return False

    # -- edges -> events (caller's thread) ---------------------------------------------
    def poll(self) -> list[ButtonEvent]:
        if self._retry_at is not None and self.clock() >= self._retry_at:
            self.start()
        events: list[ButtonEvent] = []
        for button, edge, t in drain(self._raw):
            self._apply(button, edge, t, events)
        now = self.clock()
        for button, state in self._state.items():
            self._settle(button, state, now, events)
        return events

    def _apply(self, button: str, edge: str, t: float, out: list[ButtonEvent]) -> None:
        state = self._state[button]
        self._settle(button, state, t, out)
        if edge == HELD:
            if state.down and not state.held:
                state.held = True
                out.append(ButtonEvent(HOLD, button, t, self.name))
            return
        state.raw_down, state.raw_t = edge == DOWN, t
        if t - state.last_accept >= self.bounce_time:
            self._accept(button, state, state.raw_down, t, out)

    def _settle(self, button: str, state: _ButtonState, now: float, out: list[ButtonEvent]) -> None:
        """Apply a change that arrived during the bounce window once the window is over."""
        if state.raw_down != state.down and now - state.last_accept >= self.bounce_time:
            self._accept(button, state, state.raw_down, state.raw_t, out)

    def _accept(self, button: str, state: _ButtonState, down: bool, t: float, out: list[ButtonEvent]) -> None:
        if down == state.down:
            return
        state.down, state.last_accept = down, t
        if down:
            state.held = False
            return
        if not state.held:
            out.append(ButtonEvent(PRESS, button, t, self.name))
        out.append(ButtonEvent(RELEASE, button, t, self.name))
        state.held = False
