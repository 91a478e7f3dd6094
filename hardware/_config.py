"""Small helpers to validate config dicts, so a typo in config.toml fails loudly at start-up."""
from __future__ import annotations

import math
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
