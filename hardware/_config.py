"""Small helpers to validate config dicts, so a typo in config.toml fails loudly at start-up."""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any, Iterable, Mapping


def check_keys(config: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    """Raise ValueError naming any key of `config` (besides "type") not in `allowed`."""
    known = set(allowed) | {"type"}
    unknown = sorted(set(config) - known)
    if unknown:
        raise ValueError(f"[{where}] unknown key(s) {unknown}; known keys: {sorted(known)}")


def positive(value: Any, key: str, where: str, *, allow_zero: bool = False) -> float:
    """Return `value` as a float, refusing negatives (and zero unless allowed) with a clear message,
    and nan and inf, which TOML writes and which every comparison lets through (a hold_time of
    nan made every press short; an fps of inf, no pause between frames)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"[{where}] {key} must be a number, got {value!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"[{where}] {key} must be a finite number, got {value!r}")
    if number < 0 or (number == 0 and not allow_zero):
        raise ValueError(f"[{where}] {key} must be {'>= 0' if allow_zero else '> 0'}, got {value!r}")
    return number


# A [camera] or [buttons] value of the wrong kind went through int(), bool() or tuple() as it was:
# `repeat = "abc"` said only "invalid literal for int() with base 10: 'abc'", `repeat = inf` or
# `baudrate = inf` raised OverflowError and `pins = [17]` or `fourcc = 5` TypeError (tracebacks
# out of `dicetable check`), and `loop = "no"` was true. These name the section and the key.
def whole(value: Any, key: str, where: str, *, low: int | None = None, high: int | None = None) -> int:
    """`value` as an int within [low, high]: an int, or a float with nothing after the point
    (TOML's 2.0); never true/false, text, nan or inf."""
    ok = isinstance(value, int) or (isinstance(value, float) and math.isfinite(value) and value.is_integer())
    if isinstance(value, bool) or not ok:
        raise ValueError(f"[{where}] {key} must be a whole number, got {value!r}")
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        span = f"from {low} to {high}" if low is not None and high is not None else (
            f">= {low}" if low is not None else f"<= {high}")
        raise ValueError(f"[{where}] {key} must be {span}, got {value!r}")
    return number


def boolean(value: Any, key: str, where: str) -> bool:
    """`value` if it is true or false: bool("no") is true."""
    if not isinstance(value, bool):
        raise ValueError(f"[{where}] {key} must be true or false (no quotes), got {value!r}")
    return value


def text(value: Any, key: str, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"[{where}] {key} must be a text in quotes, got {value!r}")
    return value


def size_pair(value: Any, key: str, where: str, *, high: int = 10000) -> tuple[int, int]:
    """A [width, height] in pixels."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ValueError(f"[{where}] {key} must be [width, height] in pixels, got {value!r}")
    return (whole(value[0], f"{key} width", where, low=1, high=high),
            whole(value[1], f"{key} height", where, low=1, high=high))


def table(value: Any, key: str, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"[{where}] {key} must be a table ({key} = {{ ... }} or [{where}.{key}]), got {value!r}")
    return value


def a_path(value: Any, key: str, where: str) -> Path:
    """A file or folder: a text in the config (a Path from code)."""
    if not isinstance(value, (str, os.PathLike)):
        raise ValueError(f"[{where}] {key} must be a file or folder in quotes, got {value!r}")
    return Path(value)
