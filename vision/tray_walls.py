"""Where the tray's surface ends and its walls begin, at the segmenter's working scale.

Why its own module: dice lie on the felt; the walls, rims and the table around the tray are
neither dice nor objects in it, yet they differ from the felt as much as a die does. This is
everything the segmenter (vision/segment.py) does about them: find the felt (`_surface`: its
colour near the frame's centre, closed by its convex hull, corners hidden by dice put back),
keep only die-thick foreground in the margin past it (`_at_wall`), and take the long straight
wall bands off a die that touches them (`_wall_bands`, `_off_the_wall`). Moved out of
segment.py unchanged.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.blob_shape import _K3, _Blob, _die_like, _local_mask, _parts
from vision.surface_model import _odd, _robust_threshold, distance_to_colour


SURFACE_DIST = 25.0     # colour distance (shading forgiven) within which a pixel is tray surface
WALL_MARGIN = 0.3       # a die against the wall may overhang the surface by this many sides


def _surface(fg: np.ndarray, lab: np.ndarray, roi_mask: np.ndarray | None, contrast: float
             ) -> tuple[np.ndarray, np.ndarray] | None:
    """The tray surface the dice lie on, as a work-scale mask, and its colour.

    The surface is the plain (not foreground) region of the frame's own surface colour (taken
    near the frame centre: the camera looks at the tray), shading forgiven as in
    surface_distance; its largest piece is closed over by its convex hull (a tray seen from
    above is convex: dice and objects on it are holes or bays in it; the wall and the table
    around it, even of the same colour, are outside). None when the surface is the
    whole frame (or region of interest) anyway, or no convincing surface is found."""
    h, w = fg.shape
    # half resolution is plenty for a region this coarse
    hs, ws = max(8, h // 2), max(8, w // 2)
    fgs = cv2.resize(fg, (ws, hs), interpolation=cv2.INTER_NEAREST)
    labs = cv2.resize(lab, (ws, hs), interpolation=cv2.INTER_AREA)
    free = cv2.bitwise_not(fgs)
    roi_s = None
    if roi_mask is not None:
        roi_s = cv2.resize(roi_mask, (ws, hs), interpolation=cv2.INTER_NEAREST)
        free &= roi_s
    cen = free[hs // 4:hs - hs // 4, ws // 4:ws - ws // 4] > 0
    if cen.sum() < 0.2 * cen.size:
        return None
    px = labs[hs // 4:hs - hs // 4, ws // 4:ws - ws // 4][cen]
    px = px[:: max(1, len(px) // 2000)]
    # (median colour; partitioning contiguous rows is faster than a strided axis 0)
    ref = np.partition(np.ascontiguousarray(px.T), len(px) // 2, axis=1)[:, len(px) // 2].astype(np.float32)
    d = distance_to_colour(labs, ref.astype(np.uint8))
    # the surface's own spread (texture, uneven light) around its colour, near the centre; its
    # floor follows the frame's contrast like foreground_mask's: in a dim frame the wall is as few
    # colour steps from the floor as the floor's own noise in a bright one, and a fixed floor
    # took the walls and the table in, so that the whole tray became one "foreign object"
    gate = _robust_threshold(d[hs // 4:hs - hs // 4, ws // 4:ws - ws // 4][cen], 6.0, SURFACE_DIST * contrast, 60.0)
    free &= cv2.compare(d, float(np.float32(gate)), cv2.CMP_LT) if d.dtype == np.float32 and min(d.shape) > 4 \
        else (d < gate).astype(np.uint8) * 255
    # cut thin bridges through gaps in a rim: the table outside is not the tray
    free = cv2.erode(free, _K3)
    n, lbl, stats, _c = cv2.connectedComponentsWithStats(free, connectivity=4)
    if n <= 1:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    # the piece the camera looks at: most of the middle of the frame, where the surface's colour
    # was taken (the largest piece can be the table around the tray, under a vignette as dark
    # as the floor)
    middle = np.bincount(lbl[hs // 4:hs - hs // 4, ws // 4:ws - ws // 4].ravel(), minlength=n)[1:]
    big = int(np.argmax(middle)) + 1
    total = float(cv2.countNonZero(roi_s)) if roi_s is not None else float(hs * ws)
    if areas[big - 1] < 0.2 * total:
        return None
    x, y, bw, bh = (int(v) for v in stats[big, :4])
    cs, _ = cv2.findContours((lbl[y:y + bh, x:x + bw] == big).astype(np.uint8), cv2.RETR_EXTERNAL,
                             cv2.CHAIN_APPROX_SIMPLE)
    hull = _corners_back(cv2.convexHull(np.concatenate(cs) + np.array([x, y], np.int32)), ws, hs)
    if cv2.contourArea(hull) > 0.96 * total:
        return None
    hull = np.round((hull.astype(np.float32) + 0.5) * np.array([w / ws, h / hs], np.float32)).astype(np.int32)
    hm = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(hm, hull, 255)
    if roi_mask is not None:
        hm &= roi_mask
    return hm, ref


def _corners_back(hull: np.ndarray, w: int, h: int) -> np.ndarray:
    """A tray's corner hidden by dice (they gather there) is cut off the hull by a short chord:
    drop short edges of a near-quadrilateral hull and meet its neighbours' lines instead."""
    peri = cv2.arcLength(hull, True)
    poly = cv2.approxPolyDP(hull, 0.01 * peri, True).reshape(-1, 2).astype(np.float64)
    if not 5 <= len(poly) <= 8:
        return hull
    area0 = cv2.contourArea(poly.astype(np.float32))
    while len(poly) > 4:
        n = len(poly)
        lens = np.hypot(*(np.roll(poly, -1, axis=0) - poly).T)
        i = int(np.argmin(lens))          # edge poly[i] -> poly[i+1]
        if lens[i] > 0.12 * peri:
            break
        a0, a1 = poly[(i - 1) % n], poly[i]
        b0, b1 = poly[(i + 1) % n], poly[(i + 2) % n]
        d1, d2 = a1 - a0, b1 - b0
        den = d1[0] * d2[1] - d1[1] * d2[0]
        if abs(den) < 1e-9:
            break
        t = ((b0[0] - a0[0]) * d2[1] - (b0[1] - a0[1]) * d2[0]) / den
        p = a0 + t * d1
        if not (-2 <= p[0] <= w + 1 and -2 <= p[1] <= h + 1):
            break
        new = np.delete(poly, (i + 1) % n, axis=0)
        new[i if (i + 1) % n else i - 1] = p
        if cv2.contourArea(new.astype(np.float32)) > 1.06 * area0:
            break
        poly = new
    return np.round(poly).astype(np.int32).reshape(-1, 1, 2)


def _at_wall(fg: np.ndarray, core: np.ndarray, roi_mask: np.ndarray | None, est: float | None
             ) -> np.ndarray:
    """Foreground on the tray surface (`core`), plus what of it reaches a little beyond: a die
    against the wall overhangs the surface edge (its sides, perspective, a loose calibration),
    while the wall and rim there are thin bands. In that margin only pixels of die-thick
    foreground are kept (an opening with a kernel of about half a die peels the bands off)."""
    if est is None or est < 4:
        return cv2.morphologyEx(fg & core, cv2.MORPH_OPEN, _K3)
    m = _odd(2 * WALL_MARGIN * est)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (m, m))
    zone = cv2.dilate(core, disc)
    if roi_mask is not None:
        zone &= roi_mask
    inner = cv2.erode(core, disc)          # well inside: everything counts
    k = _odd(0.45 * est)
    thick = cv2.morphologyEx(fg & zone, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    out = (fg & inner) | (thick & zone)
    return cv2.morphologyEx(out, cv2.MORPH_OPEN, _K3)


WALL_RUN = 2.0          # a straight run of foreground past the surface this many dice long is a wall ...
WALL_FRAME = 0.25       # ... and this share of the frame's width (a run along x) or height (along y)


def _wall_bands(past: np.ndarray, est: float) -> np.ndarray:
    """The wall and rim bands in `past` (foreground just past the tray surface): its runs along
    the frame's rows or columns WALL_RUN dice long or more. A die overhangs the surface by less
    than its own side; a wall runs along the whole side. Without this, a die against a wall (or
    a hair from it: its shadow joins them) kept the band beside it as part of its die-thick
    blob, out to the frame's edge when a lowered camera puts the wall there: the die was
    "partly out of view" (x1.15-1.2: every throw against the walls asked again)."""
    h, w = past.shape[:2]
    along_x, along_y = (max(3, int(round(max(WALL_RUN * est, WALL_FRAME * side)))) for side in (w, h))
    rows = cv2.morphologyEx(past, cv2.MORPH_OPEN, np.ones((1, along_x), np.uint8))
    cols = cv2.morphologyEx(past, cv2.MORPH_OPEN, np.ones((along_y, 1), np.uint8))
    return rows | cols


def _off_the_wall(b: _Blob, walls: np.ndarray, die_area: float) -> _Blob | None:
    """The die in blob `b` (which reaches the frame's or the tray region's edge) once the wall
    bands `walls` (work pixels, `_wall_bands`) are taken off it, when what is left is one die;
    None otherwise (a hand, a heap, a die the frame cuts: they keep their blob)."""
    m, ox, oy = _local_mask(b.contour)
    hh, ww = m.shape
    ys, xs = max(0, oy), max(0, ox)
    sub = walls[ys:oy + hh, xs:ox + ww]
    m[ys - oy:ys - oy + sub.shape[0], xs - ox:xs - ox + sub.shape[1]] &= cv2.bitwise_not(sub)
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, _K3)
    parts = _parts(m, ox, oy, 0.4 * die_area)
    return parts[0] if len(parts) == 1 and _die_like(parts[0], die_area) else None
