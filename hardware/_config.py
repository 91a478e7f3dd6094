"""Small helpers to validate config dicts, so a typo in config.toml fails loudly at start-up."""
from __future__ import annotations

from typing import Any, Iterable, Mapping


def check_keys(config: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    """Raise ValueError naming any key of `config` (besides "type") not in `allowed`."""
    known = set(allowed) | {"type"}
    unknown = sorted(set(config) - known)
    if unknown:
        raise ValueError(f"[{where}] unknown key(s) {unknown}; known keys: {sorted(known)}")


def positive(value: Any, key: str, where: str, *, allow_zero: bool = False) -> float:
    """Return `value` as a float, refusing negatives (and zero unless allowed) with a clear message."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"[{where}] {key} must be a number, got {value!r}") from None
    if number < 0 or (number == 0 and not allow_zero):
        raise ValueError(f"[{where}] {key} must be {'>= 0' if allow_zero else '> 0'}, got {value!r}")
    return number
