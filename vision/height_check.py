"""What an older calibration leaves unchecked: the camera's height, a knock of a few pixels.

The reader follows a camera knocked, turned, raised or lowered since calibration by the felt's
edges the calibration measured at the tray's walls (`wall_edges`, since 2026-11-27). A
calibration made before has none: the reader then cannot tell a camera raised or lowered (no
measure of the tray's size: raised, nothing is said; lowered by 5-10%, the dice against the walls
are "partly out of view" and the throw asked again, nobody told why), nor a knock under 2% of the
frame. One made before `walls` is not checked for a knock at all. The edges are not measured at
the table from its own frames instead: a camera moved since calibration would then be taken as
the calibrated one, and never told. So the table says it in its log at each start, and
`dicetable check` says it with the command that calibrates again (a minute's work for the staff).
"""
from __future__ import annotations

import math
from typing import Any, Mapping

from vision.tray_moved import SIDES

#: the words when the calibration has walls but not their edges
NO_EDGES = ("made before the felt's edges were measured (no wall_edges): a camera raised or lowered, or "
            "knocked by less than 2% of the frame, goes unnoticed")
#: the words when it has not even the walls
NO_WALLS = "made before the tray's walls were measured (no walls): a camera knocked, raised or lowered goes unnoticed"


def _edges_usable(edges: Any, walls: list[str]) -> bool:
    """Whether `edges` (a calibration's `wall_edges`) holds a finite edge for one of `walls` at
    least, as the reader takes them (vision/reader.py `_wall_edges`)."""
    if not isinstance(edges, Mapping):
        return False
    for side, value in edges.items():
        first = value[0] if isinstance(value, (list, tuple)) and value else value
        try:
            if side in walls and math.isfinite(float(first)) and float(first) >= 0:
                return True
        except (TypeError, ValueError):
            continue
    return False


def unchecked(calibration: Mapping[str, Any] | None) -> str | None:
    """What the reader cannot check with `calibration` (a `[vision]` table's calibration keys),
    in the staff's words; None when it checks all it can: a calibration with its walls' edges,
    one that found no walls (a tray filling the view: nothing past it to watch), none at all, or a
    tray box written by hand (no `calibrated_at`: never checked, on purpose)."""
    if not isinstance(calibration, Mapping) or not calibration.get("tray") or not calibration.get("calibrated_at"):
        return None
    walls = calibration.get("walls")
    if walls is None:
        return NO_WALLS
    walls = [s for s in walls if s in SIDES] if isinstance(walls, (list, tuple)) else []
    if walls and not _edges_usable(calibration.get("wall_edges"), walls):
        return NO_EDGES
    return None
