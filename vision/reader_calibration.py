"""What the reader takes from a calibration, read defensively: it is a hint, never a reason to fail.

Why its own module: a calibration is a dict loaded from a file staff may have edited, or one
written by an older dicetable, or taken at another frame size. These functions turn it into
the few numbers the reader (vision/reader.py) uses -- the tray box and the dice's size in the
pixels of the image read, the sides that had a wall, the felt's edges measured there -- and
leave out whatever is missing or malformed (a view of another shape is refused, with the
problem to report). Moved out of reader.py unchanged; `reader` re-exports `calibration_scale`
(controller/check.py and the tests import it from there).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from vision.tray_moved import SIDES
from vision.types import CALIBRATION_SIZE, Problem, view_scale


def calibration_scale(cal: Any, size: tuple[int, int]) -> float | None:
    """How the calibration's pixels map to a frame of `size` (width, height): 1 when it was taken
    at that size (or says no size: calibrations written by hand, or before sizes were kept);
    the ratio of the widths when the camera sends the same view at another size (calibrated from
    stills at 1280 x 960, read at 640 x 480); None when the view has another shape (another crop
    of the sensor), where no box of the calibration can be placed."""
    try:
        cw, ch = (float(v) for v in cal.get("frame_size"))
    except (AttributeError, TypeError, ValueError):
        return 1.0
    w, h = size
    if not (cw > 0 and ch > 0 and w > 0 and h > 0):
        return 1.0
    return view_scale((cw, ch), (w, h))


def _calibration(cal: Any, size: tuple[int, int], f: float, w: int, h: int
                 ) -> tuple[tuple[int, int, int, int] | None, float | None, Problem | None]:
    """Pull the optional keys we use, ignoring anything malformed (calibration is a hint).
    `f` maps the pixels of the frame (`size`) to the `w` x `h` image read. A calibration taken
    at another size of the same view is scaled to it; one of another shape is not used, and the
    problem returned says so."""
    tray = die_px = None
    if not isinstance(cal, dict):
        return None, None, None
    scale = calibration_scale(cal, size)
    if scale is None:
        fw, fh = cal["frame_size"]
        return None, None, Problem(CALIBRATION_SIZE, f"the calibration was taken on {fw}x{fh} frames and the "
                                                     f"camera sends {size[0]}x{size[1]}, another view: run "
                                                     f"dicetable calibrate again")
    f *= scale
    try:
        t = [float(v) * f for v in cal.get("tray")]  # type: ignore[union-attr]
        if len(t) == 4:
            x0, y0 = max(0, int(t[0])), max(0, int(t[1]))
            x1, y1 = min(w, int(round(t[2]))), min(h, int(round(t[3])))
            if x1 - x0 >= 16 and y1 - y0 >= 16:
                tray = (x0, y0, x1, y1)
    except (TypeError, ValueError):
        pass
    try:
        d = float(cal.get("die_px")) * f  # type: ignore[arg-type]
        if np.isfinite(d) and 4 <= d <= max(w, h):
            die_px = d
    except (TypeError, ValueError):
        pass
    return tray, die_px, None


def _walls(cal: Any) -> list[str]:
    """The calibrated tray's sides that had a wall past them (none in an older calibration, or
    in a tray box written by hand: those are never called moved)."""
    walls = cal.get("walls") if isinstance(cal, dict) else None
    return [s for s in walls if s in SIDES] if isinstance(walls, (list, tuple)) else []


def _wall_edges(cal: Any, k: float) -> dict[str, list[float]]:
    """The felt's edges the calibration measured at its walled sides (`wall_edges`: the whole
    side's and its two halves'), in px of the image read (`k` of the calibration's pixels);
    none in an older calibration, or a malformed one."""
    edges = cal.get("wall_edges") if isinstance(cal, dict) else None
    if not isinstance(edges, dict):
        return {}
    try:
        out = {s: [float(x) * k if float(x) >= 0 else float("nan")      # (-1: a half not found)
                   for x in (v if isinstance(v, (list, tuple)) else [v])] for s, v in edges.items() if s in SIDES}
    except (TypeError, ValueError):
        return {}
    return {s: v for s, v in out.items() if v and np.isfinite(v[0])}
