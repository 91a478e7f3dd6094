"""The camera and the button panels the table can use from a config file with mistakes in them.

A café's table must start whatever the file says: a [camera] it cannot build is left unused (the
screen says why, as of a camera unplugged), a [[buttons.sources]] panel it cannot build is left
out and the others work. Kept apart from the table's app so that `dicetable check` says the same
without importing the screen.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from hardware import FrameSourceError, make_button_source, make_frame_source

from .config import Config

log = logging.getLogger(__name__)


class UnsetCamera:
    """The camera of a [camera] section the table could not use (a wrong or misspelt setting): it
    never opens, so the screen says why (as of a camera unplugged) while the game menu works and
    the staff fix the file; before, the table did not start at all."""

    name = "camera"

    def __init__(self, why: str) -> None:
        self.why = why

    def open(self) -> None:
        raise FrameSourceError(f"not set up, fix [camera] in the config file ({self.why})", self.name)

    def reconnect(self) -> None:
        self.open()

    def read(self) -> None:
        return None

    def close(self) -> None:
        pass


def usable_hardware(config: Config) -> tuple[Config, Any]:
    """The config with the [buttons] panels that can be built (a bad one left out; none left: the
    default), and the camera source (an UnsetCamera for a [camera] that cannot be); each mistake
    among `problems`, logged. The table starts with whatever is right in the file."""
    problems: list[str] = []
    try:
        frames: Any = make_frame_source(config.camera)
    except Exception as exc:  # noqa: BLE001  (a ValueError naming the key, or a driver's own)
        problems.append(f"{_where(config)}{words(exc)}: the camera is not used until it is fixed")
        frames = UnsetCamera(str(exc))
    buttons = config.buttons
    try:
        make_button_source(buttons)
    except Exception as exc:  # noqa: BLE001
        buttons, said = usable_panels(config, exc)
        problems += said
    for problem in problems:
        log.error("%s", problem)
    return replace(config, buttons=buttons, problems=config.problems + tuple(problems)), frames


def usable_panels(config: Config, exc: Exception) -> tuple[dict[str, Any], list[str]]:
    """The [[buttons.sources]] that build, each other one a problem; the default panel if none."""
    sources = config.buttons.get("sources") if config.buttons.get("type") == "multi" else None
    kept, said = [], []
    for i, source in enumerate(sources if isinstance(sources, list) else []):
        try:
            make_button_source(source)
            kept.append(source)
        except Exception as one:  # noqa: BLE001
            said.append(f"{_where(config)}[[buttons.sources]] #{i + 1}: {words(one)}: that panel is left out until it is fixed")
    if kept:
        return _known_keys_only({**config.buttons, "sources": kept}, config, said)
    default = Config().buttons
    return dict(default), said or [f"{_where(config)}{words(exc)}: the buttons are the default ({default['type']}) "
                                   "until it is fixed"]


#: the settings of [buttons] itself when its panels are [[buttons.sources]] (hardware.buttons._build_multi)
MULTI_KEYS = ("type", "name", "sources")


def _known_keys_only(buttons: dict[str, Any], config: Config, said: list[str]) -> tuple[dict[str, Any], list[str]]:
    """`buttons` without the settings of [buttons] itself that it does not know, each said. Every
    panel built, and yet the whole did not: a `[buttons.serial]` with a `port` (as `dicetable check`
    once advised for the box) or a misspelt key under [buttons] stopped the table from starting at
    all ("The table cannot start"), while the check said nothing of the buttons and "ready"."""
    unknown = sorted(set(buttons) - set(MULTI_KEYS))
    if not unknown:
        return buttons, said
    return {k: v for k, v in buttons.items() if k in MULTI_KEYS}, said + [
        f"{_where(config)}[buttons] unknown key(s) {unknown}: each panel's settings (a box's port too) go in "
        "its [[buttons.sources]]"]


def words(exc: Exception) -> str:
    """A settings error in words: a ValueError's message names the key; any other error (a value
    of a kind a source did not expect) is named with its type."""
    return str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"


def _where(config: Config) -> str:
    return f"{config.path}: " if config.path else ""
