"""Where the log goes: a terminal gets timed lines; systemd's journal gets each line's priority.

journald stores every line a service prints on stderr at the unit's default priority (info)
unless the line starts with a `<N>` syslog prefix (sd-daemon(3), `SyslogLevelPrefix=`, on by
default). Without the prefix, `journalctl -u dicetable -p warning` (docs/install.md, section 10)
showed nothing at all, warnings and errors included. systemd says stderr is the journal by
setting `JOURNAL_STREAM` to its device and inode; the prefix is written only then.
"""
from __future__ import annotations

import logging
import os
import sys
from types import TracebackType
from typing import IO, Mapping

TERMINAL_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

#: syslog priorities (journalctl -p): err 3, warning 4, info 6, debug 7
PRIORITIES = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6))


def priority(levelno: int) -> int:
    """The syslog priority of a Python log level (a level between two takes the lower one's)."""
    return next((p for level, p in PRIORITIES if levelno >= level), 7)


class JournalFormatter(logging.Formatter):
    """`<N>name: message`, with every line of a traceback prefixed too (else each is an info
    line of its own); no time, as journald stamps each line itself."""

    def __init__(self) -> None:
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).rstrip("\n").split("\n"))


def is_journal(stream: IO[str], environ: Mapping[str, str] | None = None) -> bool:
    """Is `stream` the journal's stream systemd gave this process (not a terminal or a pipe the
    program was started with by hand, which inherits the variable)?"""
    env = os.environ if environ is None else environ
    expected = env.get("JOURNAL_STREAM", "")
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):     # (a stream without a file: pytest's capture)
        return False
    return bool(expected) and expected == f"{st.st_dev}:{st.st_ino}"


def log_handler(stream: IO[str], environ: Mapping[str, str] | None = None) -> logging.Handler:
    """The handler for the program's log on `stream` (stderr)."""
    handler = logging.StreamHandler(stream)
    journal = is_journal(stream, environ)
    handler.setFormatter(JournalFormatter() if journal else logging.Formatter(TERMINAL_FORMAT))
    return handler


def log_crashes(stream: IO[str], environ: Mapping[str, str] | None = None) -> None:
    """Have an uncaught exception logged like an error, traceback included: a table that crashes
    at start-up (a library that no longer imports after an update) printed its traceback as info,
    which `journalctl -p warning` does not show, while systemd restarted it every two seconds.
    Only under systemd: a terminal shows Python's own traceback as it is."""
    if not is_journal(stream, environ):
        return
    handler = log_handler(stream, environ)

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, value, tb)
            return
        record = logging.LogRecord("dicetable", logging.CRITICAL, __file__, 0, "crashed: %s: %s",
                                   (kind.__name__, value), (kind, value, tb))
        handler.handle(record)

    sys.excepthook = hook


def log_warnings(stream: IO[str], environ: Mapping[str, str] | None = None) -> None:
    """Have Python's warnings (gpiozero falling back to another pin factory, a library's
    deprecations) go through the log under systemd, as warnings: printed by Python they reached
    the journal without a prefix, filed as info. A terminal shows them as Python prints them.
    Shown whatever the command's log level, as Python would have shown them."""
    if is_journal(stream, environ):
        logging.captureWarnings(True)
        logging.getLogger("py.warnings").setLevel(logging.WARNING)
