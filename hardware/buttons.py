"""Button presses from any panel (GPIO, USB serial box, keyboard, script), one event type.

Every source turns its input into `ButtonEvent`s on a thread-safe queue and the controller
drains them with `poll()` from its own loop: device threads never touch game state.
"""
from __future__ import annotations

import logging
import queue
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Protocol, runtime_checkable

log = logging.getLogger(__name__)

Clock = Callable[[], float]

HOLD_BUTTONS = ("HOLD1", "HOLD2", "HOLD3", "HOLD4", "HOLD5")
#: every button the game knows (HINT shows how the game on the table is played)
BUTTON_NAMES: tuple[str, ...] = HOLD_BUTTONS + ("OK", "UP", "DOWN", "BACK", "ABANDON", "HINT")

PRESS = "press"        # a short press, reported when the button is released
HOLD = "hold"          # the button has been down longer than hold_time (no press follows)
RELEASE = "release"    # the button went up (after a press or a hold)
DIRECTIVE = "directive"  # scripted sources only: an instruction for the controller (e.g. wait-throw)
EVENT_KINDS = (PRESS, HOLD, RELEASE, DIRECTIVE)


@dataclass(frozen=True)
class ButtonEvent:
    """Something a player did. `source` says which panel; `args` only for directives."""

    kind: str
    name: str
    timestamp: float
    source: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True)
class SourceStatus:
    """Whether a source can currently deliver presses, and if not, why (shown on screen).

    `warning` names what a working source cannot take (a button stuck down): the other buttons
    work, so the source is still connected, but the players must be told and staff called."""

    connected: bool
    message: str = ""
    warning: str = ""


def check_button_name(name: str, where: str) -> str:
    """Upper-case `name` and make sure it is a known button, else ValueError naming `where`."""
    upper = str(name).strip().upper()
    if upper not in BUTTON_NAMES:
        raise ValueError(f"[{where}] unknown button {name!r}; known: {', '.join(BUTTON_NAMES)}")
    return upper


@runtime_checkable
class ButtonSource(Protocol):
    name: str

    @property
    def status(self) -> SourceStatus: ...

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def poll(self) -> list[ButtonEvent]:
        """All events since the last poll, oldest first; never blocks."""
        ...

    def feed(self, event: Any) -> bool:
        """Offer a pygame event from the display's loop; True if the source used it."""
        ...


#: ASSUMPTION: no player holds a button down this long; one down longer is stuck (a jammed
#: arcade switch, a spilt drink): named on screen and in the log, the others still working
STUCK_AFTER_S = 10.0
#: ASSUMPTION: a poll this long after the one before means the table was busy (frozen): of the
#: presses made meanwhile only the first counts, so a burst after a freeze is not a burst of moves
BUSY_AFTER_S = 2.0


class StuckWatch:
    """The buttons of one source held down for `after_s` or more: said once in the log when one
    sticks and when it is let go, and named in the source's status warning meanwhile.

    A button jammed down gave the one hold it is (one action) and then nothing, without a word:
    the players pressed it again and again and thought the table had hung."""

    def __init__(self, after_s: float, source: str, hold_time: float = 0.0) -> None:
        if after_s and after_s <= hold_time:      # (every long press would be taken as stuck)
            raise ValueError(f"[buttons] stuck_after_s must be longer than hold_time ({hold_time:g} s), or 0 "
                             f"for never; got {after_s:g}")
        self.after_s = after_s
        self.source = source
        self.stuck: dict[str, float] = {}

    def is_stuck(self, name: str, down_since: float, now: float) -> bool:
        """Whether `name`, down since `down_since`, is stuck at `now` (said the first time)."""
        if name in self.stuck:
            return True
        if not self.after_s or now - down_since < self.after_s:
            return False
        self.stuck[name] = down_since
        log.error("%s: %s button stuck (down for %.0f s): call staff; it is ignored until it comes up, the "
                  "other buttons work", self.source, name, now - down_since)
        return True

    def freed(self, name: str, now: float) -> None:
        """`name` came up: a stuck button is taken back."""
        since = self.stuck.pop(name, None)
        if since is not None:
            log.info("%s: %s button up again after %.0f s: it is taken again", self.source, name, now - since)

    @property
    def warning(self) -> str:
        """What the screen says while a button is stuck ("OK button stuck: call staff")."""
        names = [n for n in BUTTON_NAMES if n in self.stuck]
        if not names:
            return ""
        return f"{' and '.join(names)} button{'s' if len(names) > 1 else ''} stuck: call staff"


class BusyFilter:
    """When a poll comes `after_s` or more after the one before (the table was busy and took no
    presses), only the first press or hold made meanwhile counts; releases always go through.

    The box's reader thread and gpiozero's callbacks go on queueing presses while the table's
    loop is held up (a slow card, a long redraw): before, twenty impatient presses during a
    freeze were twenty moves the moment it ended, on screens the players never saw. The first
    was made on the screen the game is still at, so it stands."""

    def __init__(self, after_s: float, source: str) -> None:
        self.after_s = after_s
        self.source = source
        self.dropped = 0
        self._last_poll: float | None = None

    def started(self, now: float) -> None:
        """The source has started: what is pressed before the table's first poll (the table still
        loading) is pressed while it was busy, as much as during a freeze."""
        self._last_poll = now

    def filter(self, events: list[ButtonEvent], now: float) -> list[ButtonEvent]:
        busy = bool(self.after_s) and self._last_poll is not None and now - self._last_poll >= self.after_s
        gap = now - self._last_poll if self._last_poll is not None else 0.0
        self._last_poll = now
        if not busy:
            return events
        actions = [e for e in events if e.kind in (PRESS, HOLD)]
        dropped = actions[1:]
        if dropped:
            self.dropped += len(dropped)
            log.warning("%s: %d presses made while the table was busy (%.1f s) were not taken, only the first (%s %s)",
                        self.source, len(dropped), gap, actions[0].name, actions[0].kind)
        return [e for e in events if not any(e is d for d in dropped)]


def drain(q: "queue.SimpleQueue[Any]") -> list[Any]:
    """Everything currently in `q`, without blocking."""
    items = []
    while True:
        try:
            items.append(q.get_nowait())
        except queue.Empty:
            return items


class MultiButtonSource:
    """Several panels at once (e.g. GPIO buttons + the keyboard in the pygame window).

    A source that fails to start does not stop the others; `status` is connected when at
    least one source is, and its message lists the sources that are not. The same button on two
    panels at once is one press, and the busy rule holds over all panels together
    (`button_merge`): the table has one game, whichever panel a press comes from.
    """

    def __init__(self, sources: Iterable[ButtonSource], name: str = "multi", clock: Clock | None = None) -> None:
        from .button_merge import BusyAcrossPanels, SamePress

        self.sources = list(sources)
        self.name = name
        # (the panels' own clock: the table injects one clock into all of them)
        self.clock: Clock = clock or next((s.clock for s in self.sources if callable(getattr(s, "clock", None))),
                                          time.monotonic)
        self._same = SamePress()
        self._worked: set[str] = set()      # the sources seen connected since the start
        self._busy = BusyAcrossPanels({s.name: getattr(s, "busy_after_s", 0.0) for s in self.sources}, name)

    @property
    def status(self) -> SourceStatus:
        """Connected while one source is; the message lists those that are not. The warning names
        the stuck buttons of any, and the sources down while another works: before, nothing on
        screen said why the players at a box unplugged mid-game, or at a GPIO panel whose pins the
        table could not claim, pressed in vain. A device that may simply not be plugged in (a
        `pluggable` source: the example config's box, in a café that has none) is named only once
        it has worked; until then it is in the message and the log."""
        statuses = [(s.name, s.status, getattr(s, "pluggable", False)) for s in self.sources]
        self._worked |= {name for name, st, _ in statuses if st.connected}
        connected = any(st.connected for _, st, _ in statuses)
        down = [(name, f"{name}: {st.message or 'disconnected'}", pluggable)
                for name, st, pluggable in statuses if not st.connected]
        lost = [said for name, said, pluggable in down if connected and (name in self._worked or not pluggable)]
        warnings = [st.warning for _, st, _ in statuses if st.warning]
        return SourceStatus(connected=connected, message="; ".join(said for _, said, _ in down),
                            warning="; ".join(lost + warnings))

    def start(self) -> None:
        for source in self.sources:
            try:
                source.start()
            except Exception:
                log.exception("button source %s failed to start", source.name)
        self._busy.started(self.clock())

    def stop(self) -> None:
        for source in self.sources:
            try:
                source.stop()
            except Exception:
                log.exception("button source %s failed to stop", source.name)

    def poll(self) -> list[ButtonEvent]:
        events: list[ButtonEvent] = []
        for source in self.sources:
            events.extend(source.poll())
            if source.status.connected:
                self._worked.add(source.name)
        events.sort(key=lambda e: e.timestamp)  # stable: same-time events keep source order
        return self._busy.filter(self._same.filter(events), self.clock())

    def feed(self, event: Any) -> bool:
        """Pass a pygame event to the sources that take them; True if one used it."""
        used = False
        for source in self.sources:
            feed = getattr(source, "feed", None)
            if feed is not None and feed(event):
                used = True
        return used


# --------------------------------------------------------------------------------------
# Registry: config["type"] -> builder (modules imported lazily: gpiozero/serial/pygame
# are only needed by the source that uses them).
# --------------------------------------------------------------------------------------
ButtonBuilder = Callable[..., ButtonSource]
_BUILDERS: dict[str, ButtonBuilder] = {}


def register_button_source(type_name: str, builder: ButtonBuilder) -> None:
    _BUILDERS[type_name] = builder


def button_source_types() -> list[str]:
    return sorted(_BUILDERS)


def make_button_source(config: Mapping[str, Any], **inject: Any) -> ButtonSource:
    """Build (not start) the button source named by `config["type"]`.

    `inject` passes test doubles through (`clock=`, `pin_factory=`, `opener=`). For
    `type = "multi"`, `config["sources"]` is a list of source configs and `inject` goes to
    every child that accepts the keyword.
    """
    kind = config.get("type")
    if kind not in _BUILDERS:
        raise ValueError(f"unknown buttons type {kind!r}; expected one of {button_source_types()}")
    return _BUILDERS[kind](dict(config), **inject)


def _build_multi(config: dict[str, Any], **inject: Any) -> ButtonSource:
    from ._config import check_keys
    from .button_merge import named_apart

    check_keys(config, {"sources", "name"}, "buttons")
    children = config.get("sources") or []
    if not isinstance(children, list) or not children:
        raise ValueError("[buttons] type 'multi' needs a non-empty list 'sources'")
    return MultiButtonSource([make_button_source(child, **inject) for child in named_apart(children)],
                             config.get("name", "multi"), clock=inject.get("clock"))


def _lazy(module: str, cls: str) -> ButtonBuilder:
    def build(config: dict[str, Any], **inject: Any) -> ButtonSource:
        import importlib
        import inspect

        source_cls = getattr(importlib.import_module(f"{__package__}.{module}"), cls)
        accepted = inspect.signature(source_cls.from_config).parameters
        return source_cls.from_config(config, **{k: v for k, v in inject.items() if k in accepted})

    return build


register_button_source("multi", _build_multi)
register_button_source("gpio", _lazy("button_gpio", "GpioButtonSource"))
register_button_source("serial", _lazy("button_serial", "SerialButtonSource"))
register_button_source("keyboard", _lazy("button_keyboard", "KeyboardButtonSource"))
register_button_source("scripted", _lazy("button_scripted", "ScriptedButtonSource"))
