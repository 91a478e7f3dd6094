"""Which rows of a score table are drawn when its panel cannot hold them all.

A table's rows have a least height (the legible type needs it); a panel shorter than all of
them at that height (Thirteen's 18 rows at 320x240, School's 18 under its title, Pok'n Roll's
board over its totals footer) used to be drawn on past its bottom: the last rows, the Total
among them, fell off the screen or under the footer, drawn over its words. Now the rows drawn
are those that fit: the totals always, and of the others a run around what the player is
choosing (the cursor's cell, else the previews), the top ones when nothing is chosen.
"""
from __future__ import annotations

from typing import Any, Sequence


def _marked(row: dict[str, Any], key: str, value: Any) -> bool:
    return any(cell.get(key) == value for cell in row.get("cells", ()))


def rows_shown(rows: Sequence[dict[str, Any]], room: int) -> list[int]:
    """The indices (in order) of the rows drawn when `room` rows fit: all of them when they fit;
    else the "total" rows (the last ones, if even those are too many, a row left for the rest)
    and a run of the others around the highlighted cells (the cursor), else the previews,
    else from the top."""
    n = len(rows)
    if n <= room:
        return list(range(n))
    if room <= 0:
        return []
    totals = [i for i, row in enumerate(rows) if row.get("kind") == "total"]
    kept = totals[len(totals) - min(len(totals), room - 1):] if room > 1 else []
    others = [i for i in range(n) if i not in kept]
    k = room - len(kept)
    focus = ([j for j, i in enumerate(others) if _marked(rows[i], "highlight", True)]
             or [j for j, i in enumerate(others) if _marked(rows[i], "kind", "preview")])
    start = 0
    if focus:
        lo, hi = focus[0], focus[-1]
        start = lo - (k - (hi - lo + 1)) // 2 if hi - lo + 1 <= k else lo
    start = max(0, min(start, len(others) - k))
    return sorted(others[start:start + k] + kept)
