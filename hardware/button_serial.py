"""Buttons from a USB serial button box (line protocol in docs/hardware.md).

USB cables get pulled in a café. The reader thread treats a vanished port as a normal
state: status goes "disconnected" with the reason, and it reopens the port with backoff
until the box is back. Noise on the line is counted and logged, never fatal.
"""
from __future__ import annotations

import errno
import logging
import os
import queue
import threading
import time
from collections import deque
from dataclasses import replace
from typing import Any, Callable

from ._config import boolean, check_keys, positive, text, whole
from .button_flicker import FlickerWatch
from .buttons import (BUSY_AFTER_S, HOLD, PRESS, RELEASE, STUCK_AFTER_S, BusyFilter, ButtonEvent, Clock, SourceStatus,
                      StuckWatch, drain)
from .device_paths import is_pattern, matches, stable_links
from .device_words import errno_of, serial_words
from .retry import Backoff
from .serial_protocol import HEARTBEAT, LineSplitter, ProtocolError, parse_line

log = logging.getLogger(__name__)

Opener = Callable[[], Any]
#: where udev keeps a USB serial device's stable names (they follow it to its new /dev/ttyUSBn)
SERIAL_BY_ID = "/dev/serial/by-id"
#: garbage lines logged one by one; after them, one line sums up the garbage of each...
GARBAGE_LOG_FIRST = 5
#: ...this many seconds (a box at the wrong baud rate sends hundreds of such lines a second)
GARBAGE_LOG_EVERY_S = 60.0
#: garbage lines in a row, with no line understood between them, before the screen says so
GARBAGE_ALARM = 20
#: ...or garbage come at this many moments (each this many seconds after the last one counted),
#: with no line understood since the first: a box at another speed sends mostly no line end at all
#: (see _wrong_bytes), and a player presses three times before giving up (ASSUMPTION); a power-up's
#: stray bytes are one moment, a cut line's rest another
GARBAGE_MOMENTS, GARBAGE_MOMENT_S = 3, 0.5
#: moments further back than this are forgotten: a stray byte now and then (a noisy cable, a box
#: that never sends PING) is not a wrong speed
GARBAGE_WINDOW_S = 30.0
#: bytes no box sends in the protocol (ASCII text, tab, CR and LF): what a UART at another speed
#: than the box's makes of its bits (NUL, bytes over 0x7F, control bytes)
_NOT_SENT = bytes(b for b in range(256) if b >= 0x7F or (b < 0x20 and b not in (0x09, 0x0A, 0x0D)))
#: a box plugged back may send again the last press it sent before (its firmware's buffer): the
#: same press as the last one taken, as the first within this many seconds of reconnecting, is not
#: taken again (ASSUMPTION: no player presses the same button again within a second of the replug)
REPLAY_S = 1.0
#: ASSUMPTION: a box sends a line in one go (64 bytes take 67 ms even at 9600 baud, and a USB bridge
#: holds bytes back 16 ms at most): the start of a line followed by this long a silence was cut short
#: (the box reset, or brown-out, mid-line) and its end is never coming
CUT_LINE_S = 0.5
#: ASSUMPTION: a box that sends the PING heartbeat (every 2 s, docs/hardware.md) and then nothing at
#: all for this long has hung (its firmware stuck, the port still open): said, and its port reopened
SILENT_AFTER_S = 10.0


class FloodGuard:
    """Tells the presses a hand can make from those of a box that floods (a loose contact inside
    it, its firmware gone wrong): the same button twice within `same_button_s`, or more than
    `most` presses within `window_s`, are not a player's (a box sends a press when its button
    comes back up: one button pressed twice takes a hand 80 ms or more). A flood ends once no press has come for
    `calm_s`. Before, every one of them reached the game: a box sending "P OK" in a loop accepted
    readings and chose boxes by itself."""

    def __init__(self, same_button_s: float = 0.02, most: int = 20, window_s: float = 1.0,
                 calm_s: float = 2.0) -> None:
        self.same_button_s, self.most, self.window_s, self.calm_s = same_button_s, most, window_s, calm_s
        self.flooding = False
        self._last: dict[str, float] = {}
        self._recent: deque[float] = deque()
        self._last_seen = float("-inf")

    def allow(self, name: str, now: float) -> bool:
        """Whether a press or hold of `name` arriving at `now` is let through."""
        self._last_seen = now
        self._recent.append(now)
        while self._recent and self._recent[0] <= now - self.window_s:
            self._recent.popleft()
        too_soon = now - self._last.get(name, float("-inf")) < self.same_button_s
        self._last[name] = now
        if len(self._recent) > self.most:
            self.flooding = True
        return not (self.flooding or too_soon)

    def calmed(self, now: float) -> bool:
        """End a flood once no press has come for calm_s; True when it has just ended."""
        if not self.flooding or now - self._last_seen < self.calm_s:
            return False
        self.flooding = False
        self._recent.clear()
        return True


class SerialButtonSource:
    """Reads the box in a daemon thread; `poll()` drains the events it queued.

    `pluggable`: a box may simply not be plugged in (a café without one, the example config kept):
    beside other panels it is said on screen only once it has worked (MultiButtonSource.status).

    `opener()` returns an open pyserial-like port (read/in_waiting/close); the default opens
    `port` with `serial.serial_for_url`, so "loop://" and "socket://" URLs work as well as
    /dev/ttyACM0. When the box disconnects while a button is held, a `release` is queued
    for it so the controller does not think it is still down.
    """

    pluggable = True

    def __init__(
        self,
        port: str = "/dev/ttyACM0",
        *,
        baudrate: int = 115200,
        read_timeout_s: float = 0.1,
        reconnect_initial_s: float = 0.5,
        reconnect_max_s: float = 5.0,
        flood_guard: bool = True,
        stuck_after_s: float = STUCK_AFTER_S,
        busy_after_s: float = BUSY_AFTER_S,
        silent_after_s: float = SILENT_AFTER_S,
        opener: Opener | None = None,
        clock: Clock | None = None,
        name: str = "serial",
    ) -> None:
        self.port = text(port, "port", "buttons")
        self.baudrate = whole(baudrate, "baudrate", "buttons", low=1, high=10_000_000)
        self.read_timeout_s = positive(read_timeout_s, "read_timeout_s", "buttons")
        initial = positive(reconnect_initial_s, "reconnect_initial_s", "buttons")
        self.backoff = Backoff(initial, max(positive(reconnect_max_s, "reconnect_max_s", "buttons"), initial))
        self.opener = opener or self._open_port
        self.clock = clock or time.monotonic
        self.name = text(name, "name", "buttons")
        self.garbage_count = 0
        self.last_garbage: str = ""
        self.disconnects = 0
        self.last_heard: float | None = None
        self._queue: queue.SimpleQueue[ButtonEvent] = queue.SimpleQueue()
        self._status = SourceStatus(False, "not started")
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._splitter = LineSplitter()
        self._held: dict[str, float] = {}       # buttons the box said are held, and since when
        self._held_garbled: set[str] = set()    # of them, those with garbage since (their R may be lost)
        self._repeats_said: set[str] = set()    # of them, those whose hold the box has sent again
        self.holds_repeated = 0                 # holds sent again with no release between, not taken
        self._last_press: tuple[str, str] | None = None   # (kind, name) of the last press let through
        self._replay: tuple[tuple[str, str], float] | None = None  # that press, and the reconnection's time
        self._garbage_run = 0                    # garbage lines since the last line understood
        self._garbage_moments: list[float] = []  # when garbage came since then (see GARBAGE_MOMENTS)
        self._garbage_alarm = False              # the box is said unreadable (until a line is understood)
        self._garbage_logged_at: float | None = None
        self._garbage_unlogged = 0
        self.flood = FloodGuard() if boolean(flood_guard, "flood_guard", "buttons") else None
        # one button of the box pressing itself (a loose wire or a wet switch inside it): the flood
        # guard above takes only what no hand can do over all buttons (more than 20 presses a second,
        # or 20 ms apart), so an OK flickering 16 times a second played the game by itself
        self._flicker = FlickerWatch(self.name) if self.flood is not None else None
        self.flood_dropped = 0                  # presses not let through (a flood, or too soon)
        self.replays_dropped = 0                # presses sent again by a box plugged back
        self.stale_dropped = 0                  # presses the port held when it was taken (see _drop_waiting)
        self._skip_to_newline = False           # the rest of a line cut as the port was taken
        self._last_bytes_at: float | None = None   # when the box last sent anything (see _drop_cut_line)
        self._stuck = StuckWatch(positive(stuck_after_s, "stuck_after_s", "buttons", allow_zero=True), self.name)
        self._busy = BusyFilter(positive(busy_after_s, "busy_after_s", "buttons", allow_zero=True), self.name)
        self.silent_after_s = positive(silent_after_s, "silent_after_s", "buttons", allow_zero=True)
        self.heartbeat = False                  # the box has sent PING: its silence means something
        self.silences = 0                       # times it went silent and its port was reopened
        self._silent_run = 0                    # of them since it last sent a line (0: not silent)
        self._connected_at: float | None = None
        self.known: str | None = None           # the box's /dev/serial/by-id/ link, once it has opened
        self._node: str | None = None           # the device node it was last opened as

    @classmethod
    def from_config(
        cls, config: dict[str, Any], *, opener: Opener | None = None, clock: Clock | None = None
    ) -> "SerialButtonSource":
        check_keys(config, {"port", "baudrate", "read_timeout_s", "reconnect_initial_s", "reconnect_max_s",
                            "flood_guard", "stuck_after_s", "busy_after_s", "silent_after_s", "name"}, "buttons")
        return cls(
            port=config.get("port", "/dev/ttyACM0"),
            baudrate=config.get("baudrate", 115200),
            read_timeout_s=config.get("read_timeout_s", 0.1),
            reconnect_initial_s=config.get("reconnect_initial_s", 0.5),
            reconnect_max_s=config.get("reconnect_max_s", 5.0),
            flood_guard=config.get("flood_guard", True),
            stuck_after_s=config.get("stuck_after_s", STUCK_AFTER_S),
            busy_after_s=config.get("busy_after_s", BUSY_AFTER_S),
            silent_after_s=config.get("silent_after_s", SILENT_AFTER_S),
            opener=opener,
            clock=clock,
            name=config.get("name", "serial"),
        )

    def _open_port(self) -> Any:
        """Open `port`; a pattern (`/dev/ttyACM*`) opens the first of its matches that opens: a box
        plugged back while the table still held its old port comes back under the next number
        (/dev/ttyACM1), and a fixed name then waited for ever for a port that was never coming.
        Once the box has opened, its /dev/serial/by-id/ link (which udev points at its new node) is
        tried first (see `stable_links`): a plain `/dev/ttyUSB0` follows the box as a webcam does."""
        import serial

        known = [self.known] if self.known and os.path.exists(self.known) else []
        if not is_pattern(self.port):
            if not known:
                port = serial.serial_for_url(self.port, baudrate=self.baudrate, timeout=self.read_timeout_s)
                self._opened(self.port)
                return port
            candidates = known + [p for p in [self.port] if p not in known]
        else:
            candidates = known + matches(self.port)
        errors: list[Exception] = []
        for path in candidates:
            try:
                port = serial.serial_for_url(path, baudrate=self.baudrate, timeout=self.read_timeout_s)
            except (serial.SerialException, OSError) as exc:
                errors.append(exc)
                continue
            self._opened(path)
            return port
        if errors:          # (the first one's errno says why: serial_words)
            raise serial.SerialException(errno_of(errors[0]), "; ".join(str(e) for e in errors))
        raise serial.SerialException(errno.ENOENT, f"no port matches {self.port}")

    def _opened(self, path: str) -> None:
        """The box opened as `path`: remember its by-id link; log the node when it is another than
        last time (the first time through a pattern, and a box back under another name)."""
        node = os.path.realpath(path) if path.startswith("/") else path
        links = stable_links(node, SERIAL_BY_ID)
        if links:
            self.known = links[0]
        if node != self._node and (node != self.port or self._node is not None):
            also = f" ({self.known})" if self.known else ""
            log.info("%s: button box %s opened as %s%s", self.name, self.port, node, also)
        self._node = node

    # -- ButtonSource ------------------------------------------------------------------
    @property
    def busy_after_s(self) -> float:
        """How long a pause between two polls is the table busy (0: never; see BusyFilter)."""
        return self._busy.after_s

    @property
    def status(self) -> SourceStatus:
        flicker = self._flicker.warning if self._flicker is not None else ""
        warning = "; ".join(w for w in (self._stuck.warning, flicker) if w)
        return replace(self._status, warning=warning) if warning and self._status.connected else self._status

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._busy.started(self.clock())
        self._status = SourceStatus(False, f"connecting to {self.port}")
        self._thread = threading.Thread(target=self._run, name=f"buttons-{self.name}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=max(1.0, 5 * self.read_timeout_s))
        self._status = SourceStatus(False, "stopped")

    def poll(self) -> list[ButtonEvent]:
        events = drain(self._queue)
        now = self.clock()
        for event in events:
            if event.kind == RELEASE:
                self._stuck.freed(event.name, now)
        for name, since in dict(self._held).items():    # (after the drain: a release queued is seen)
            self._stuck.is_stuck(name, since, now)
        if self._flicker is not None:        # (a button that presses itself: put aside and named)
            events = self._flicker.filter(events, now)
        return self._busy.filter(events, now)

    def feed(self, event: Any) -> bool:
        """Not a pygame-driven source: ignores window events (see KeyboardButtonSource)."""
        return False

    # -- reader thread -----------------------------------------------------------------
    def _run(self) -> None:
        port: Any = None
        try:
            while not self._stop.is_set():
                if port is None:
                    port = self._connect()
                    if port is None:
                        continue
                try:
                    data = port.read(max(1, int(port.in_waiting or 0)))
                except Exception as exc:  # SerialException/OSError on unplug; anything else is as fatal
                    self._lost(exc)
                    self._close(port)
                    port = None
                    self._stop.wait(self.backoff.next_delay())
                    continue
                if data:
                    self._handle(data)
                self._check_calm(self.clock())
                if self._silent(self.clock()):
                    self._close(port)
                    port = None
                    self._stop.wait(self.backoff.next_delay())
        finally:
            if port is not None:
                self._close(port)

    def _connect(self) -> Any:
        try:
            port = self.opener()
        except Exception as exc:
            message = f"button box on {self.port} not available: {serial_words(exc, self.port)}"
            if self._status.message != message:
                log.warning("%s: %s", self.name, message)
                log.debug("%s: the serial library said: %s", self.name, exc)
            self._status = SourceStatus(False, message)
            self._stop.wait(self.backoff.next_delay())
            return None
        self.backoff.reset()
        self._splitter.reset()
        self._drop_waiting(port)
        if self.disconnects and self._last_press is not None:
            self._replay = (self._last_press, self.clock())
        self._garbage_run = 0
        self._garbage_moments.clear()
        self._garbage_alarm = False
        self._connected_at = self.clock()
        if self._silent_run:                # (still silent: named until it sends a line, not every reopening)
            log.debug("%s: button box port %s opened again", self.name, self.port)
            return port
        self._status = SourceStatus(True, "")
        log.info("%s: button box connected on %s", self.name, self.port)
        return port

    def _drop_waiting(self, port: Any) -> None:
        """Drop the presses the port already holds as the table takes it: they were made before
        anyone listened (the table starting, or restarting, a box's or a bridge's buffer), on a
        screen nobody saw answer them. Before, they were taken at the table's first poll as moves of
        the game on screen (an OK pressed five times at a black screen during a restart: a reading
        accepted, a box chosen...). What comes once the port is taken is read as always; the end of
        a line cut at the taking is as old as its start, and dropped with it."""
        try:
            waiting = int(port.in_waiting or 0) if port is not None else 0
            data = port.read(waiting) if waiting > 0 else b""
        except Exception:           # (a port failing here fails at its first read too, and is said then)
            log.debug("%s: could not look at what the port held", self.name, exc_info=True)
            return
        complete, newline, cut = data.rpartition(b"\n")
        self._skip_to_newline = bool(cut)
        presses = 0
        for line in LineSplitter().feed(complete + newline):
            try:
                parsed = parse_line(line) if line is not None else None
            except ProtocolError:
                continue
            presses += parsed is not None and parsed[0] in (PRESS, HOLD)
        if presses:
            log.warning("%s: %d press%s sent by the button box before the table took it (made while nobody "
                        "listened): not taken", self.name, presses, "es" if presses > 1 else "")
            self.stale_dropped += presses

    def _silent(self, now: float) -> bool:
        """Whether a box that sends its heartbeat has sent nothing for `silent_after_s` (a hung
        firmware: the port open, no error, and no press ever coming): then it is taken as lost, so
        the screen names it and its port is reopened (which restarts many boxes: DTR). Before, the
        table waited for it without a word, and the players took the table for hung. A box that
        never sent PING is never taken as silent (nobody pressing is no fault)."""
        if not (self.heartbeat and self.silent_after_s) or self._connected_at is None:
            return False
        heard = max(self._connected_at, self.last_heard if self.last_heard is not None else self._connected_at)
        if now - heard < self.silent_after_s:
            return False
        self.silences += 1
        self._silent_run += 1
        if self._silent_run == 1:
            self._lost(None, f"the button box on {self.port} has sent nothing for {now - heard:.0f} s, not even its "
                             "heartbeat: hung? If that lasts, unplug it and plug it back")
        else:
            self._lost(None, self._status.message, quiet=True)
        return True

    def _lost(self, exc: BaseException | None, message: str = "", quiet: bool = False) -> None:
        """The port lost (`exc`), or given up as `message`; `quiet`: said before (a box still silent)."""
        self.disconnects += 1
        message = message or f"button box on {self.port} disconnected: {serial_words(exc, self.port)}"
        (log.debug if quiet else log.warning)("%s: %s", self.name, message)
        if exc is not None:
            log.debug("%s: the serial library said: %s", self.name, exc)
        self._status = SourceStatus(False, message)
        now = self.clock()
        for name in sorted(self._held):
            self._queue.put(ButtonEvent(RELEASE, name, now, self.name))
        self._held.clear()
        self._held_garbled.clear()
        self._repeats_said.clear()
        if self._splitter.pending():
            self._last_press = None     # (a line cut by the unplug: the box sending it again is no replay)

    def _close(self, port: Any) -> None:
        try:
            port.close()
        except Exception:
            log.debug("%s: error closing port", self.name, exc_info=True)

    def _drop_cut_line(self, now: float) -> None:
        """The start of a line followed by `CUT_LINE_S` of silence was cut short (the box reset
        mid-line, a brown-out): dropped as garbage before what comes now. Before, it was glued to
        the box's next line, so the first press after the cut ("P O" + "P OK": "P OP OK") was
        garbage and did nothing, and a line end come late made a press of an old line."""
        last, self._last_bytes_at = self._last_bytes_at, now
        if last is None or now - last < CUT_LINE_S or not self._splitter.pending():
            return
        cut = self._splitter.drop_partial()
        if cut:
            self._garbage(f"a line cut short ({cut[:12]!r}), its end not sent within {CUT_LINE_S:g} s")

    def _handle(self, data: bytes) -> None:
        self._drop_cut_line(self.clock())
        if self._wrong_bytes(data):
            self._garbage_moment("not text")
        if self._skip_to_newline:           # (the rest of a line cut as the port was taken: old too)
            _, newline, data = data.partition(b"\n")
            if not newline:
                return
            self._skip_to_newline = False
        for line in self._splitter.feed(data):
            if line is None:
                self._garbage("over-long line")
                continue
            try:
                parsed = parse_line(line)
            except ProtocolError as exc:
                self._garbage(str(exc))
                continue
            self.last_heard = self.clock()
            self._understood()
            if parsed is None:
                self.heartbeat = self.heartbeat or line.strip().upper() == HEARTBEAT.encode()
                continue
            kind, name = parsed
            if kind == HOLD and self._hold_repeated(name):
                continue
            if kind in (PRESS, HOLD) and not self._let_through(name, self.last_heard):
                continue
            if kind in (PRESS, HOLD) and self._replayed((kind, name), self.last_heard):
                continue
            if kind == HOLD:
                self._held[name] = self.last_heard
            elif kind == RELEASE:
                self._held.pop(name, None)
                self._held_garbled.discard(name)
                self._repeats_said.discard(name)
            self._queue.put(ButtonEvent(kind, name, self.last_heard, self.name))

    def _hold_repeated(self, name: str) -> bool:
        """Whether `H name` repeats the hold the box reported already, with no release between: a
        firmware that sends H again while the button stays down (every hold time, as some button
        libraries do), with the button jammed or held long. Each was a hold of its own: a jammed
        ABANDON (or a long DOWN, its alias) abandoned the game in 2 s, and the button was never named
        as stuck (each H took its time afresh). A hold after garbage is a new one (its R may have been
        the garbage)."""
        if name not in self._held or name in self._held_garbled:
            self._held_garbled.discard(name)
            return False
        self.holds_repeated += 1
        if name not in self._repeats_said:
            self._repeats_said.add(name)
            log.warning("%s: the button box sent H %s again with no R %s between: the same hold, not taken again",
                        self.name, name, name)
        return True

    def _replayed(self, press: tuple[str, str], now: float) -> bool:
        """Whether `press`, the first since the box was plugged back, is the last one taken before,
        sent again: a box that repeats its last line as it reconnects made a second move (an OK that
        accepted a reading then chose a box)."""
        replay, self._replay = self._replay, None
        self._last_press = press
        if self.flood is None or replay is None or replay[0] != press or now - replay[1] > REPLAY_S:
            return False
        self.replays_dropped += 1
        log.warning("%s: the button box sent %s %s again as it came back: not taken twice", self.name, *press)
        return True

    def _let_through(self, name: str, now: float) -> bool:
        """A press or hold a hand can have made (see FloodGuard); the start of a flood is said."""
        if self.flood is None:
            return True
        self._check_calm(now)
        was = self.flood.flooding
        if self.flood.allow(name, now):
            return True
        self.flood_dropped += 1
        if self.flood.flooding and not was:
            message = (f"the button box on {self.port} sends presses faster than hands can (a button stuck "
                       f"inside it, or its firmware): they are ignored until it stops; check the box")
            log.error("%s: %s", self.name, message)
            self._status = SourceStatus(False, message)
        return False

    def _check_calm(self, now: float) -> None:
        if self.flood is not None and self.flood.calmed(now):
            log.info("%s: the button box on %s has stopped flooding (%d presses ignored): its presses count again",
                     self.name, self.port, self.flood_dropped)
            self._status = SourceStatus(True, "")

    def _wrong_bytes(self, data: bytes) -> bool:
        """Whether `data` holds bytes no box sends, or comes while the rest of an over-long line is
        dropped: both are seen here, as they come, since neither may ever make a line. A box at
        another speed sends mostly no line end at all (9600 baud read at 115200: NUL bytes only), so
        its garbage was one over-long line and then nothing, however often the players pressed."""
        return bool(data) and (len(data.translate(None, _NOT_SENT)) < len(data) or self._splitter.discarding)

    def _garbage(self, reason: str) -> None:
        self._held_garbled.update(self._held)   # (a release may have been this line)
        self.garbage_count += 1
        self.last_garbage = reason
        self._garbage_run += 1
        self._log_garbage(reason)
        if self._garbage_run == GARBAGE_ALARM:
            self._say_unreadable(reason)
        self._garbage_moment(reason)

    def _garbage_moment(self, reason: str) -> None:
        """Garbage came now: at GARBAGE_MOMENTS moments apart with nothing understood, the box is said
        unreadable (a box at another speed: each press, each heartbeat, is such a moment)."""
        now = self.clock()
        moments = self._garbage_moments
        if moments and now - moments[-1] < GARBAGE_MOMENT_S:
            return
        moments.append(now)
        moments[:] = [t for t in moments if now - t <= GARBAGE_WINDOW_S]
        if len(moments) >= GARBAGE_MOMENTS:
            self._say_unreadable(reason)

    def _say_unreadable(self, reason: str) -> None:
        """The screen and the log (once, until a line is understood) say the box cannot be read."""
        if self._garbage_alarm:
            return
        self._garbage_alarm = True
        message = (f"the button box on {self.port} sends what the table cannot read ({reason}): check that "
                   f"the box's speed is baudrate = {self.baudrate} in [buttons], and that it is the button box")
        log.error("%s: %s", self.name, message)
        self._status = SourceStatus(False, message)

    def _log_garbage(self, reason: str) -> None:
        """The first garbage lines one by one, then one line a minute that counts them: one line per
        100 was still 40 log lines a second from a box flooding at 115200 baud, for as long as it did."""
        now = self.clock()
        if self.garbage_count <= GARBAGE_LOG_FIRST:
            log.warning("%s: ignored garbage line #%d (%s)", self.name, self.garbage_count, reason)
            self._garbage_logged_at = now
            return
        self._garbage_unlogged += 1
        if self._garbage_logged_at is None or now - self._garbage_logged_at >= GARBAGE_LOG_EVERY_S:
            log.warning("%s: ignored %d more garbage lines (%d in all; the last: %s)", self.name,
                        self._garbage_unlogged, self.garbage_count, reason)
            self._garbage_logged_at, self._garbage_unlogged = now, 0

    def _understood(self) -> None:
        """A line of the protocol: a box that sent only garbage until now, or nothing (see _silent),
        is understood again."""
        if self._silent_run:
            log.info("%s: the button box on %s sends again (its port was opened again %d time%s meanwhile)",
                     self.name, self.port, self._silent_run, "s" if self._silent_run > 1 else "")
            self._silent_run = 0
            self._status = SourceStatus(True, "")
        if self._garbage_alarm:
            log.info("%s: the button box on %s is understood again", self.name, self.port)
            self._status = SourceStatus(True, "")
        self._garbage_run = 0
        self._garbage_moments.clear()
        self._garbage_alarm = False
