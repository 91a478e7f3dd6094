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
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

from ._config import boolean, check_keys, positive, table, text
from .buttons import (HOLD, PRESS, RELEASE, BUSY_AFTER_S, STUCK_AFTER_S, ButtonEvent, Clock, SourceStatus,
                      BusyFilter, StuckWatch, check_button_name, drain)
from .button_flicker import FlickerWatch
from .device_words import gpio_words
from .gpio_guard import PinGuard
from .retry import Backoff

log = logging.getLogger(__name__)

DOWN, UP = "down", "up"
#: a stuck button counts again once it has stayed up this long (a wet switch flickers)
STUCK_RELEASE_S = 1.0
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
    down: bool = False          # debounced state: the button is pressed
    down_at: float = 0.0        # when the press began (its first edge)
    held: bool = False          # a hold was reported during this press (no press follows)
    stuck: bool = False         # down for stuck_after_s: ignored until it comes up for good
    silent: bool = False        # down since the pins were claimed: never reported (no ghost press)
    raw_down: bool = False      # last state the pin reported, bounce included
    raw_t: float = float("-inf")  # when it reported it
    up_from: float | None = None  # first up edge of a release not yet lasting bounce_time


class GpioButtonSource:
    """Buttons from a `{name: BCM pin}` map; buttons close to ground, internal pull-ups.

    Events: a short press gives `press` then `release` (both when the button goes up); a
    press longer than `hold_time` gives `hold` (when the time is reached) then `release`
    only. A press begins at its first down edge; it ends once the pin has stayed up for
    `bounce_time`, so a worn switch's chatter (on closing, on opening, or in the middle of a
    long press) is one press. Holds are timed here, from the press's first edge, not by
    gpiozero's hold thread, which started again at every bounce. A button down for
    `stuck_after_s` is stuck: named in `status.warning` and the log, and ignored until it has
    stayed up for `STUCK_RELEASE_S`; a button already down when the pins are claimed is never
    reported (no ghost press at boot) and is named as stuck the same way. A button that presses
    itself (a loose wire: more than 10 presses within a second) is put aside and named the same way
    until it stops (`FlickerWatch`).
    """

    def __init__(
        self,
        pins: Mapping[str, int],
        *,
        pull_up: bool = True,
        bounce_time: float = 0.02,
        hold_time: float = 1.0,
        stuck_after_s: float = STUCK_AFTER_S,
        busy_after_s: float = BUSY_AFTER_S,
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
        self._guard = PinGuard()          # (its pins' events: shut off before they are closed)
        self._raw: Any = raw_queue if raw_queue is not None else queue.SimpleQueue()
        self._state = {button: _ButtonState() for button in self.pins}
        self._status = SourceStatus(False, "not started")
        self._backoff = Backoff(1.0, 30.0)
        self._retry_at: float | None = None   # when to claim the pins again after a failure
        self.bounces: dict[str, int] = {}     # per button, the bounces taken as part of a press (worn?)
        self._stuck = StuckWatch(positive(stuck_after_s, "stuck_after_s", "buttons", allow_zero=True), self.name,
                                 self.hold_time)
        self._busy = BusyFilter(positive(busy_after_s, "busy_after_s", "buttons", allow_zero=True), self.name)
        self._flicker = FlickerWatch(self.name)

    @classmethod
    def from_config(
        cls, config: dict[str, Any], *, pin_factory: Any = None, clock: Clock | None = None
    ) -> "GpioButtonSource":
        check_keys(config, {"pins", "pull_up", "bounce_time", "hold_time", "stuck_after_s", "busy_after_s", "name"},
                   "buttons")
        return cls(
            config.get("pins") or {},
            pull_up=config.get("pull_up", True),
            bounce_time=config.get("bounce_time", 0.02),
            hold_time=config.get("hold_time", 1.0),
            stuck_after_s=config.get("stuck_after_s", STUCK_AFTER_S),
            busy_after_s=config.get("busy_after_s", BUSY_AFTER_S),
            pin_factory=pin_factory,
            clock=clock,
            name=config.get("name", "gpio"),
        )

    @property
    def busy_after_s(self) -> float:
        """How long a pause between two polls is the table busy (0: never; see BusyFilter)."""
        return self._busy.after_s

    @property
    def status(self) -> SourceStatus:
        warning = "; ".join(w for w in (self._stuck.warning, self._flicker.warning) if w)
        return replace(self._status, warning=warning) if warning and self._status.connected else self._status

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

            factory = self._factory()
            self._guard = PinGuard()
            for button, pin in self.pins.items():
                if factory is not None:
                    self._guard.watch(factory.pin(pin))
                device = Button(
                    pin,
                    pull_up=self.pull_up,
                    bounce_time=self.bounce_time or None,
                    hold_time=self.hold_time,
                    pin_factory=factory,
                )
                self.devices[button] = device
                device.when_pressed = self._edge_callback(button, DOWN)
                device.when_released = self._edge_callback(button, UP)
                self._claimed(button, device.is_pressed)
        except Exception as exc:
            self._failed(exc)
            return
        if self._retry_at is None:
            self._busy.started(self.clock())
        if self._retry_at is not None:
            log.info("%s: GPIO buttons working again", self.name)
        self._retry_at = None
        self._backoff.reset()
        self._status = SourceStatus(True, "")

    def _claimed(self, button: str, pressed: bool) -> None:
        """Start `button` as its pin is now. One already down (held through the boot, jammed, or
        pressed as the pins are claimed again) is not a press: it is silent until it comes up,
        and named as stuck if it stays down."""
        now = self.clock()
        if not pressed:
            self._stuck.freed(button, now)
        self._state[button] = _ButtonState(down=pressed, down_at=now, held=pressed, silent=pressed,
                                           raw_down=pressed, raw_t=now)

    def pressed(self) -> list[str]:
        """The buttons down now (stuck, or down since the pins were claimed, included)."""
        return [button for button, state in self._state.items() if state.down]

    def _failed(self, exc: Exception) -> None:
        """The pins could not be claimed: said once, and tried again later (poll). At boot the pins
        may not be the table's yet (udev still setting their group, `dicetable check` holding them):
        before, the panel stayed dead until the table was restarted."""
        self._close_devices()
        words = gpio_words(exc)         # (EACCES, EBUSY, ENODEV in the staff's words; None: its own are)
        message = f"GPIO buttons unavailable: {words or exc}"
        if type(exc).__name__ == "BadPinFactory":     # (gpiozero found no library for the pins)
            message += f" ({NO_PIN_LIBRARY})"
        if message != self._status.message:
            log.error("%s: %s", self.name, message)
            if words:
                log.debug("%s: the pin library said: %s", self.name, exc)
        self._status = SourceStatus(False, message)
        self._retry_at = self.clock() + self._backoff.next_delay()

    def _factory(self) -> Any | None:
        """The pin factory the buttons are made with: the one given, else gpiozero's default,
        made as gpiozero makes it for its first device (its pins are guarded before any device
        takes them: `PinGuard.watch`)."""
        if self.pin_factory is not None:
            return self.pin_factory
        from gpiozero import Device

        if Device.pin_factory is None:
            make = getattr(Device, "_default_pin_factory", None)   # (gpiozero's own, not public:
            if make is None:                                        # another version may lack it)
                log.warning("%s: this gpiozero makes its pin factory its own way: its pins' events "
                            "are not shut off before a stop", self.name)
                return None
            Device.pin_factory = make()
        return Device.pin_factory

    def _close_devices(self) -> None:
        """Close the pins, their events shut off first (`PinGuard`): an edge arriving as they
        closed raised inside gpiozero on its thread."""
        self._guard.close()
        devices, self.devices = self.devices, {}
        for device in devices.values():
            try:
                device.when_pressed = device.when_released = None
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
        events.sort(key=lambda e: e.timestamp)   # (two buttons at once: in the order they were pressed)
        return self._busy.filter(self._flicker.filter(events, now), now)

    def _apply(self, button: str, edge: str, t: float, out: list[ButtonEvent]) -> None:
        """One raw edge, after what was due before it."""
        if edge not in (DOWN, UP):
            return
        state = self._state[button]
        self._settle(button, state, t, out)
        state.raw_down, state.raw_t = edge == DOWN, t
        if edge == DOWN and not state.down:
            state.down, state.down_at, state.held, state.up_from = True, t, False, None
        elif edge == DOWN and state.up_from is not None and not (state.stuck or state.silent):
            self.bounces[button] = self.bounces.get(button, 0) + 1    # (the contact opened and closed)
        elif edge == UP and state.down and state.up_from is None:
            state.up_from = t

    def _settle(self, button: str, state: _ButtonState, now: float, out: list[ButtonEvent]) -> None:
        """What the edges so far mean at `now`: a release once the pin has stayed up for
        bounce_time, a hold once the press has lasted hold_time, a stuck button after stuck_after_s."""
        if not state.down:
            return
        if state.stuck or state.silent:
            self._settle_ignored(button, state, now, out)
            return
        steady = now - state.raw_t >= self.bounce_time
        hold_at = state.down_at + self.hold_time
        if not state.raw_down and steady:
            self._release(button, state, hold_at, out)
            return
        if state.raw_down and steady:
            state.up_from = None                      # (it bounced, and is still pressed)
        if not state.held and now >= hold_at and (state.up_from is None or state.up_from >= hold_at):
            state.held = True
            out.append(ButtonEvent(HOLD, button, hold_at, self.name))
        if state.raw_down and self._stuck.is_stuck(button, state.down_at, now):
            state.stuck = True

    def _release(self, button: str, state: _ButtonState, hold_at: float, out: list[ButtonEvent]) -> None:
        """The button has come up (at up_from): a press, or the end of a hold."""
        up = state.up_from if state.up_from is not None else state.raw_t
        if not state.held and up >= hold_at:
            state.held = True
            out.append(ButtonEvent(HOLD, button, hold_at, self.name))
        if not state.held:
            out.append(ButtonEvent(PRESS, button, up, self.name))
        out.append(ButtonEvent(RELEASE, button, up, self.name))
        state.down, state.held, state.up_from = False, False, None

    def _settle_ignored(self, button: str, state: _ButtonState, now: float, out: list[ButtonEvent]) -> None:
        """A stuck button counts again once it has stayed up for STUCK_RELEASE_S: a wet switch
        that flickers must not act again (a second long DOWN is the game abandoned). One down
        since the pins were claimed counts once it has come up, and says nothing then."""
        if state.raw_down:
            state.up_from = None
            if state.silent:
                state.stuck = state.stuck or self._stuck.is_stuck(button, state.down_at, now)
            return
        if now - state.raw_t < (STUCK_RELEASE_S if state.stuck else self.bounce_time):
            return
        up = state.up_from if state.up_from is not None else state.raw_t
        if not state.silent:
            out.append(ButtonEvent(RELEASE, button, up, self.name))   # (the end of its hold)
        self._stuck.freed(button, now)
        state.down = state.held = state.stuck = state.silent = False
        state.up_from = None
