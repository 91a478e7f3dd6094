"""systemd's watchdog: a table whose loop hangs is restarted, not left frozen on its screen.

Every failure the table knows of is caught and told, but a loop that never comes back (a camera
or GPIO driver that blocks for good) would leave the kiosk frozen until someone pulls the
plug. With `WatchdogSec=` in the unit, systemd hands the program a socket (`NOTIFY_SOCKET`) and
the interval (`WATCHDOG_USEC`); the loop says `WATCHDOG=1` twice an interval, and when it stops
saying it systemd restarts the table (the journal then resumes the game). Without those
variables (a terminal, the demo, the tests) nothing is sent. No dependency: one datagram on a
unix socket, the sd_notify protocol.
"""
from __future__ import annotations

import logging
import os
import socket
import time
from typing import Callable, Mapping

log = logging.getLogger(__name__)


class Watchdog:
    def __init__(self, environ: Mapping[str, str] | None = None, clock: Callable[[], float] = time.monotonic):
        env = os.environ if environ is None else environ
        self.clock = clock
        self.address: str | None = None
        self.interval: float | None = None        # seconds between pings (half of systemd's)
        self._last = float("-inf")
        self._failed = False
        address = env.get("NOTIFY_SOCKET", "")
        if not address:
            return
        # (an abstract socket is written with a leading @)
        self.address = "\0" + address[1:] if address.startswith("@") else address
        pid = env.get("WATCHDOG_PID", "")
        usec = env.get("WATCHDOG_USEC", "")
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            self.interval = int(usec) / 1e6 / 2

    def ready(self) -> None:
        """The table is up (for a unit of Type=notify; harmless otherwise)."""
        self._send("READY=1")

    def ping(self) -> None:
        """From the loop, as often as it likes: a ping goes out once per half interval."""
        if self.interval is None:
            return
        now = self.clock()
        if now - self._last >= self.interval:
            self._last = now
            self._send("WATCHDOG=1")

    def _send(self, message: str) -> None:
        if self.address is None:
            return
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.sendto(message.encode(), self.address)
        except OSError as exc:
            if not self._failed:             # said once: the table goes on either way
                log.warning("cannot notify systemd at %s: %s", self.address.replace("\0", "@"), exc)
                self._failed = True
