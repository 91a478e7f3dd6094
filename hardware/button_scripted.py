"""Button presses from a script: tests and headless play (format in docs/hardware.md).

The whole script is validated when it is loaded, so a typo fails at start-up with its line
number rather than half-way through a game. Lines that are not button events (`throw d12345.jpg`,
`choose STAND`, ...) are passed through as `directive` events: the source never sleeps or waits,
the controller decides what a directive means.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ._config import a_path, check_keys, text, whole
from .buttons import BUTTON_NAMES, DIRECTIVE, HOLD, PRESS, RELEASE, ButtonEvent, Clock, SourceStatus

EVENT_VERBS = (PRESS, HOLD, RELEASE)
_DIRECTIVE_RE = re.compile(r"^[a-z][a-z0-9_-]*$")


@dataclass(frozen=True)
class ScriptStep:
    kind: str                 # press | hold | release | directive
    name: str                 # button name, or the directive word
    args: tuple[str, ...]
    line: int                 # 1-based line number in the script, for messages


def read_script(path: str | Path) -> str:
    """A script file's text; ValueError naming the file when it cannot be one. A byte-order mark,
    which Windows editors put first, is dropped: the first line was refused as "not an event or a
    directive word: '\\ufeffgame ...'", naming a character nobody can see."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ValueError(f"cannot read button script {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"cannot read button script {path}: not a text file (a script is UTF-8 text)") from None


def parse_script(lines: Iterable[str], origin: str = "script") -> list[ScriptStep]:
    """Parse script lines; ValueError("<origin> line N: ...") on the first invalid line."""
    steps: list[ScriptStep] = []
    for number, raw in enumerate(lines, start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        words = text.split()
        word = words[0].lower()
        if word in EVENT_VERBS:
            if len(words) != 2:
                raise ValueError(f"{origin} line {number}: expected '{word} <BUTTON>', got {raw.strip()!r}")
            button = words[1].upper()
            if button not in BUTTON_NAMES:
                raise ValueError(
                    f"{origin} line {number}: unknown button {words[1]!r} (known: {', '.join(BUTTON_NAMES)})"
                )
            steps.append(ScriptStep(word, button, (), number))
        elif _DIRECTIVE_RE.match(word) and word.isascii():
            steps.append(ScriptStep(DIRECTIVE, word, tuple(words[1:]), number))
        else:
            raise ValueError(
                f"{origin} line {number}: not an event ('press|hold|release <BUTTON>') "
                f"or a directive word: {raw.strip()!r}"
            )
    return steps


class ScriptedButtonSource:
    """Replays a parsed script, `per_poll` events per `poll()` (0 = everything left).

    A directive always ends a batch, so the controller can act on `throw` before it
    polls for the presses that follow it. Timestamps come from `clock` at poll time.
    """

    def __init__(
        self,
        steps: Iterable[ScriptStep],
        *,
        per_poll: int = 1,
        clock: Clock | None = None,
        name: str = "scripted",
    ) -> None:
        self.steps = list(steps)
        self.per_poll = whole(per_poll, "per_poll", "buttons", low=0)
        self.clock = clock or time.monotonic
        self.name = text(name, "name", "buttons")
        self.position = 0
        self._running = False

    @classmethod
    def from_text(cls, text: str, origin: str = "script", **kwargs: Any) -> "ScriptedButtonSource":
        return cls(parse_script(text.splitlines(), origin), **kwargs)

    @classmethod
    def from_file(cls, path: str | Path, **kwargs: Any) -> "ScriptedButtonSource":
        return cls.from_text(read_script(path), origin=str(path), **kwargs)

    @classmethod
    def from_config(cls, config: dict[str, Any], *, clock: Clock | None = None) -> "ScriptedButtonSource":
        check_keys(config, {"path", "script", "per_poll", "name"}, "buttons")
        kwargs: dict[str, Any] = {"per_poll": config.get("per_poll", 1), "clock": clock,
                                  "name": config.get("name", "scripted")}
        if ("path" in config) == ("script" in config):
            raise ValueError("[buttons] scripted source needs exactly one of 'path' or 'script'")
        if "path" in config:
            return cls.from_file(a_path(config["path"], "path", "buttons"), **kwargs)
        script = config["script"]
        if not isinstance(script, (str, list)):
            raise ValueError(f"[buttons] script must be a text or a list of lines, got {script!r}")
        lines = script.splitlines() if isinstance(script, str) else [str(line) for line in script]
        return cls(parse_script(lines, "[buttons] script"), **kwargs)

    @property
    def finished(self) -> bool:
        return self.position >= len(self.steps)

    @property
    def status(self) -> SourceStatus:
        if not self._running:
            return SourceStatus(False, "not started")
        return SourceStatus(True, "script finished" if self.finished else "")

    def start(self) -> None:
        self._running = True

    def stop(self) -> None:
        self._running = False

    def rewind(self) -> None:
        self.position = 0

    def feed(self, event: Any) -> bool:
        """Not a pygame-driven source: ignores window events (see KeyboardButtonSource)."""
        return False

    def poll(self) -> list[ButtonEvent]:
        if not self._running:
            return []
        events: list[ButtonEvent] = []
        now = self.clock()
        while not self.finished and (self.per_poll == 0 or len(events) < self.per_poll):
            step = self.steps[self.position]
            self.position += 1
            events.append(ButtonEvent(step.kind, step.name, now, self.name, step.args))
            if step.kind == DIRECTIVE:
                break
        return events
