"""The installed `dicetable` command: the service's crash back-off, then the program.

Imports nothing of the program before the back-off (controller/start_backoff.py) has had its
say: what makes the table stop as it starts is most often an import (numpy, OpenCV or pygame
after an update), and `controller.cli` imports numpy and pygame. The back-off applies only to
`dicetable run` started by systemd with a runtime folder (`RuntimeDirectory=` sets
`RUNTIME_DIRECTORY`); every other command, and the table run by hand, start at once.
"""
from __future__ import annotations

import logging
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from . import start_backoff
from .logsetup import log_crashes, log_handler
from .watchdog import Watchdog

log = logging.getLogger("dicetable")


def service_folder(argv: Sequence[str], environ: Mapping[str, str]) -> Path | None:
    """The runtime folder systemd gave `dicetable run`, or None (by hand, or another command)."""
    runtime = environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    if not runtime or "run" not in argv:
        return None
    return Path(runtime)


class WaitingScreen:
    """The table's screen while it waits: why, and when it tries again. Whatever fails here
    (pygame itself may be what keeps the table from starting) leaves the screen alone: the log
    has said it."""

    def __init__(self, fullscreen: bool, headless: bool) -> None:
        self.fullscreen, self.headless = fullscreen, headless
        self.screen: Any = None
        self.streak = 0
        self.shown: int | None = None

    def open(self, streak: int) -> None:
        self.streak = streak
        try:
            from display.screen import Screen

            self.screen = Screen((1280, 720), fullscreen=self.fullscreen, headless=self.headless)
        except Exception as exc:  # noqa: BLE001  (an import that fails is the likeliest reason to be here)
            log.warning("cannot show the wait on the screen: %s", exc)
            self.screen = None

    def view(self, left: float) -> Any:
        from display.view import MessageView, PromptView, TableView

        return TableView("setup", "The table keeps stopping as it starts",
                         prompt=PromptView("", f"Next try in {left:.0f} s",
                                           hint="Staff: journalctl -u dicetable -p warning"),
                         message=MessageView(start_backoff.screen_text(self.streak), "error"))

    def tick(self, left: float) -> None:
        """Redrawn as the whole seconds left change; the window's events read (else it hangs)."""
        if self.screen is None or self.shown == round(left):
            return
        try:
            self.screen.show(self.view(left))
            for _event in self.screen.events():
                pass
            self.shown = round(left)
        except Exception as exc:  # noqa: BLE001
            log.warning("cannot show the wait on the screen: %s", exc)
            self.close()

    def close(self) -> None:
        if self.screen is not None:
            try:
                self.screen.close()
            except Exception:  # noqa: BLE001
                pass
            self.screen = None


class Stopped(BaseException):
    """SIGTERM before the table's loop took it over (while waiting, or while the program loads):
    staff stopped, restarted or updated the table. A BaseException, as SystemExit is: no
    `except Exception` on the way (the start error screen's) may take it for a failure."""


def on_term(signum: int, frame: Any) -> None:
    raise Stopped()


def back_off(folder: Path, argv: Sequence[str], *, clock: Callable[[], float] | None = None,
             sleep: Callable[[float], None] | None = None, environ: Mapping[str, str] | None = None) -> None:
    """Wait as long as the starts before this one call for (Stopped: staff stopped the table
    meanwhile). The clock and sleep are time's, looked up now."""
    clock = clock or time.monotonic
    sleep = sleep or time.sleep
    screen = WaitingScreen("--fullscreen" in argv, "--headless" in argv)
    watchdog = Watchdog(environ, clock=clock)   # (WatchdogSec= counts from the start, the wait included)

    def tick(left: float) -> None:
        watchdog.ping()
        screen.tick(left)

    handler = log_handler(sys.stderr, environ)
    log.addHandler(handler)
    level = log.level
    log.setLevel(logging.INFO)
    try:
        start_backoff.before_start(folder, clock=clock, sleep=sleep, tick=tick,
                                   waiting=lambda streak, seconds: screen.open(streak))
    finally:
        screen.close()
        log.removeHandler(handler)
        log.setLevel(level)


#: what a Ctrl-C (SIGINT) ends the program with, as a shell reports it (128 + 2)
INTERRUPTED = 130


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    log_crashes(sys.stderr)                # (an import that fails below is logged as an error)
    folder = service_folder(args, os.environ)
    try:
        code = start(folder, args)
    except KeyboardInterrupt:              # (Ctrl-C while Python loads the program's libraries)
        print("dicetable: stopped (Ctrl-C) while it was starting.", file=sys.stderr)
        code = INTERRUPTED
    if folder is not None and code in (0, INTERRUPTED):   # (stopped, not failed: the next start is a first one)
        start_backoff.clear(folder / start_backoff.RECORD)
    return code


def start(folder: Path | None, args: list[str]) -> int:
    """The program, after the back-off when systemd starts it (`folder`: its runtime folder)."""
    if folder is None:
        from .cli import main as cli_main

        return cli_main(args)
    # a stop (SIGTERM) from here until the table's loop takes it over ends the program cleanly
    # and clears the count: a restart by staff, even during a start that was going to fail,
    # starts at once
    before = signal.signal(signal.SIGTERM, on_term)
    try:
        back_off(folder, args)
        from .cli import main as cli_main

        return cli_main(args)
    except Stopped:
        return 0
    finally:
        signal.signal(signal.SIGTERM, before)


if __name__ == "__main__":
    sys.exit(main())
