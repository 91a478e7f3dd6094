"""The USB button box's line protocol (documented in docs/hardware.md), as a pure parser.

Kept apart from the port handling so every odd byte sequence can be tested without a port.
"""
from __future__ import annotations

from .buttons import BUTTON_NAMES, HOLD, PRESS, RELEASE

#: longest accepted line, terminator excluded; longer lines are noise and are discarded
MAX_LINE = 64
VERBS = {"P": PRESS, "H": HOLD, "R": RELEASE}
HEARTBEAT = "PING"


class ProtocolError(ValueError):
    """A line that is not part of the protocol (counted and logged, never fatal)."""


def parse_line(raw: bytes) -> tuple[str, str] | None:
    """One line (terminator removed) -> (kind, button name), or None for ignorable lines.

    Ignorable: blank lines, `#` comments (banner, firmware version...) and the `PING`
    heartbeat. Raises ProtocolError for anything else that is not `P|H|R <BUTTON>`.
    """
    if len(raw) > MAX_LINE:
        raise ProtocolError(f"line longer than {MAX_LINE} bytes")
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise ProtocolError("non-ASCII bytes") from None
    if any(ch < " " and ch != "\t" for ch in text) or "\x7f" in text:
        raise ProtocolError("control characters")
    text = text.strip()
    if not text or text.startswith("#"):
        return None
    fields = text.split()
    if len(fields) == 1 and fields[0].upper() == HEARTBEAT:
        return None
    if len(fields) != 2:
        raise ProtocolError(f"expected '<P|H|R> <BUTTON>', got {text[:20]!r}")
    verb, name = fields[0].upper(), fields[1].upper()
    if verb not in VERBS:
        raise ProtocolError(f"unknown verb {fields[0][:8]!r}")
    if name not in BUTTON_NAMES:
        raise ProtocolError(f"unknown button {fields[1][:12]!r}")
    return VERBS[verb], name


class LineSplitter:
    """Turns a byte stream into lines: CR, LF or CRLF end a line; over-long lines are dropped.

    `feed()` returns complete lines; a line longer than MAX_LINE is reported once as the
    sentinel `None` (so the caller can count it) and the rest of it, up to the next line
    end, is discarded.
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buffer = bytearray()
        self._discarding = False

    def reset(self) -> None:
        self._buffer.clear()
        self._discarding = False

    @property
    def discarding(self) -> bool:
        """Whether the rest of an over-long line is being dropped (up to its line end)."""
        return self._discarding

    def pending(self) -> bool:
        """Whether part of a line has come and not its end (a line cut by an unplug)."""
        return bool(self._buffer) or self._discarding

    def drop_partial(self) -> bytes:
        """Drop the start of a line whose end has not come (not an over-long line being discarded:
        that one ends at its line end); what was dropped, b"" when nothing was."""
        if self._discarding:
            return b""
        dropped = bytes(self._buffer)
        self._buffer.clear()
        return dropped

    def feed(self, data: bytes) -> list[bytes | None]:
        out: list[bytes | None] = []
        for byte in data:
            if byte in (0x0A, 0x0D):
                if self._discarding:
                    self._discarding = False
                elif self._buffer:
                    out.append(bytes(self._buffer))
                self._buffer.clear()
                continue
            if self._discarding:
                continue
            self._buffer.append(byte)
            if len(self._buffer) > self.max_line:
                out.append(None)
                self._buffer.clear()
                self._discarding = True
        return out
