"""Has the camera (or the tray) moved since calibration?

A calibration says where the tray's felt is, and the reader then looks only there. If the
camera is knocked, or the tray pushed, dice on the part of the felt now outside that box are
not read at all, and the table only says it sees too few dice. The calibrated box is the felt
up to its walls, so just outside each side lies the wall or the table, never felt: when the
felt reaches past a side, the box no longer fits. The reader then reads the whole view (as
without calibration, which works) and says so, so that the staff calibrate again. Only the
sides that had a wall when the tray was calibrated are watched (`walled_sides`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.surface_model import colour_distance

BAND = (0.03, 0.07)     # the band looked at past each side, as fractions of the frame's width/height
FELT_NEAR = 30.0        # surface_model.colour_distance from the felt's colour that is still felt
FELT_SHARE = 0.35       # share of the band past a side that must be felt (dice may lie on the rest)
WALL_SHARE = 0.1        # at calibration, a side with less felt than this past it has a wall
WORK_WIDTH = 160        # the frame is looked at this wide (nearest pixels): only broad regions matter

SIDES = ("left", "top", "right", "bottom")


def felt_shares(bgr: np.ndarray, tray: tuple[int, int, int, int]) -> dict[str, float]:
    """For each side of `tray` (x0, y0, x1, y1 in `bgr`'s pixels) that is not at the frame's
    edge: the share of the band just outside it (its middle half: a tray's corners may be
    round) that has the felt's colour, give or take the shade near a wall.

    The felt's colour is taken from a ring an eighth to a quarter of the way in from the box's
    sides (its middle may hold a lamp's glare; with the box moved, its outer rim may hold the
    wall)."""
    h, w = bgr.shape[:2]
    f = min(1.0, WORK_WIDTH / w)     # (nearest pixels: colours of broad regions need no smoothing)
    small = cv2.resize(bgr, (max(8, round(w * f)), max(8, round(h * f))), interpolation=cv2.INTER_NEAREST)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    sh, sw = lab.shape[:2]
    x0, y0, x1, y1 = (v * f for v in tray)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return {}
    ya, yb = int(y0 + (y1 - y0) / 4), int(y1 - (y1 - y0) / 4)
    xa, xb = int(x0 + (x1 - x0) / 4), int(x1 - (x1 - x0) / 4)
    ring = np.zeros((sh, sw), bool)
    ring[int(y0 + (y1 - y0) / 8):int(y1 - (y1 - y0) / 8), int(x0 + (x1 - x0) / 8):int(x1 - (x1 - x0) / 8)] = True
    ring[ya:yb, xa:xb] = False
    felt = np.round(np.median(lab[ring], axis=0)).astype(np.uint8)[None, None, :]

    def outside(edge: float, direction: int, size: int) -> slice:
        a, b = sorted((edge + direction * BAND[0] * size, edge + direction * BAND[1] * size))
        return slice(int(np.clip(round(a), 0, size)), int(np.clip(round(b), 0, size)))

    bands = {"left": lab[ya:yb, outside(x0, -1, sw)], "top": lab[outside(y0, -1, sh), xa:xb],
             "right": lab[ya:yb, outside(x1, 1, sw)], "bottom": lab[outside(y1, 1, sh), xa:xb]}
    shares = {}
    for side in SIDES:
        band = bands[side]
        if min(band.shape[:2]) >= 2:     # (none at the frame's edge)
            shares[side] = float((colour_distance(band, felt) < FELT_NEAR).mean())
    return shares


def walled_sides(bgr: np.ndarray, tray: tuple[int, int, int, int]) -> list[str]:
    """The sides of `tray` past which the frame shows no felt (a wall, the table): measured at
    calibration, they are the sides `felt_past_tray` watches. A box drawn by hand across a
    larger felt, to leave part of it out, has none, and is never called moved."""
    return [side for side, share in felt_shares(bgr, tray).items() if share < WALL_SHARE]


def felt_past_tray(bgr: np.ndarray, tray: tuple[int, int, int, int], walls: list[str] | tuple[str, ...]
                   ) -> str | None:
    """The first of the `walls` (sides of the calibrated `tray`) past which most of the band is
    now felt, or None: the felt stays inside the box (dice lying in the band cover part of it)."""
    if not walls:
        return None
    shares = felt_shares(bgr, tray)
    return next((side for side in SIDES if side in walls and shares.get(side, 0.0) >= FELT_SHARE), None)


def felt_past_both(bgr: np.ndarray, tray: tuple[int, int, int, int], walls: list[str] | tuple[str, ...]
                   ) -> tuple[str, str] | None:
    """Two opposite `walls` of the calibrated `tray` past both of which the band is felt, or None:
    the tray grown past the box on both sides of an axis, which a camera lowered by 10-20% shows
    (its walls past the felt's edges' reach, or out of the frame) and a knock never does (it moves
    the felt past one side of an axis). Rendered, the 6 styles with 30 and 50 px of table, a throw
    and a throw against the walls each: 0 of 72 frames knocked 60 px sideways or 45 px down, 0 of
    the knock_bench's 240 still frames; lowered x1.2 24 of 24, x1.15 18 of 24, x1.1 7 of 24 (the
    rest measured by the edges or, with 50 px of table, not past the box)."""
    shares = felt_shares(bgr, tray)
    return next(((a, b) for a, b in (("left", "right"), ("top", "bottom"))
                 if a in walls and b in walls and min(shares.get(a, 0.0), shares.get(b, 0.0)) >= FELT_SHARE), None)


# A camera knocked by a little (10-40 px of 640, 1.6-6%) leaves the felt inside the band above:
# not named, while from ~2.5% a die by the wall was "partly out of view" (the box cut it) and from
# 5% unread. The tray's felt is found again as calibration finds it (`calibrate.find_tray`) and its
# sides compared with the calibrated box: when both sides of an axis moved the same way, by
# SHIFT_MIN of the frame or more on average, the tray moved by that (one side is sometimes found
# off by up to ~16 px in the shade by a wall; both sides 10 px the same way under a lamp's glare
# with a phone in the tray, the wall's inner or outer edge taken: 2 of 560 frames at 1.5%).
SHIFT_MIN = 0.02        # fraction of the frame's long side
SHIFT_MAX = 0.1         # fraction of the frame's width (x) or height (y) beyond which it is not this


def _axis_shift(a: int, b: int, least: float) -> int:
    """The shift of an axis whose two sides moved by `a` and `b` px: their mean, when both moved
    the same way, by half of `least` or more each and `least` or more on average; else 0."""
    mean = (a + b) / 2
    if min(abs(a), abs(b)) < least / 2 or a * b <= 0 or abs(mean) < least:
        return 0
    return int(round(mean))


# A knock of ~10 px (1.5% of 640) is below what `find_tray`'s sides can tell (they come from a
# 320 px copy and take a wall's inner or outer edge by turns: ±8-10 px on still frames), yet it
# cuts a die against a wall ("partly out of view"). So at calibration the felt's edge at each
# walled side is measured to a fraction of a pixel (`felt_edges`, kept as `wall_edges`), and on
# every calibrated frame the same measure, made the same way, says how far each wall moved
# (on the knock_bench's still frames, within 0.1 px when no die or hand lies over the wall).
EDGE_REACH = 0.08       # the felt's edge is looked for this far (fraction of the frame) each way
EDGE_STRONG = 0.5       # the felt's edge: the first step from the felt out this strong (share of the strongest)
EDGE_LEAST = 6.0        # grey levels a step must have to be an edge at all (a plain table has none)
EDGE_AGREE = 3.0        # px the two sides of an axis may differ by and still be one move
EDGE_MIN = 4.0          # px an axis must have moved by to be called moved
EDGE_GROUPS = 24        # a side's edge is the median of this many profiles (see _group_means)


def _group_means(grey: np.ndarray, groups: int) -> np.ndarray:
    """The strip `grey` (rows along the side) as `groups` profiles, each the mean of as many
    rows side by side: the median of those profiles is the side's, robust to dice, a hand or a
    phone lying on fewer than half of the groups, and 4x cheaper than a median of every row."""
    k = grey.shape[0] // groups
    return grey[:k * groups].reshape(groups, k, grey.shape[1]).mean(axis=1, dtype=np.float32)


def _middle(profiles: np.ndarray) -> np.ndarray:
    """The median of `profiles` (rows), column by column (np.median's own checks cost more than
    the sort of a dozen rows)."""
    ordered = np.sort(profiles, axis=0)
    n = ordered.shape[0]
    return (ordered[(n - 1) // 2] + ordered[n // 2]) / 2


def _edge_in(profile: np.ndarray, inward: int) -> float | None:
    """Where (index, to a fraction) the felt ends in `profile`, walked from its `inward` end
    (0 or -1): the first local step of at least EDGE_STRONG of the strongest, refined by a
    parabola through the step and its neighbours. None when the strip has no step."""
    p = profile if inward == 0 else profile[::-1]
    if p.size < 5:
        return None
    d = np.abs(p[2:] - p[:-2])                 # step at i + 1: from i to i + 2
    top = float(d.max())
    if top < EDGE_LEAST:
        return None
    mid = d[1:-1]
    peaks = np.flatnonzero((mid >= EDGE_STRONG * top) & (mid >= d[:-2]) & (mid >= d[2:]))
    if peaks.size == 0:
        return None
    i = int(peaks[0]) + 1
    den = float(d[i - 1] - 2 * d[i] + d[i + 1])
    at = i + 1 + (0.5 * float(d[i - 1] - d[i + 1]) / den if den else 0.0)
    return float(at if inward == 0 else profile.size - 1 - at)


def felt_edges(bgr: np.ndarray, tray: tuple[int, int, int, int], sides: list[str] | tuple[str, ...],
               near: dict[str, list[float]] | None = None) -> dict[str, list[float]]:
    """For each of `sides` of `tray` (px of `bgr`): where the felt ends, to a fraction of a
    pixel, [along the middle half of the side, along its first quarter of that, along its
    second]: the two halves tell a turned camera. Looked for within EDGE_REACH of `near[side]`
    (the calibration's edge) or of the box's side, in the grey median across the strip, walked
    from the felt outwards. A side whose whole edge is not found is left out; a half not found
    is NaN."""
    h, w = bgr.shape[:2]
    x0, y0, x1, y1 = tray
    out: dict[str, list[float]] = {}
    for side in sides:
        at = (near or {}).get(side, [dict(zip(SIDES, tray))[side]])[0]
        across = side in ("left", "right")
        size, lo, hi = (w, y0, y1) if across else (h, x0, x1)
        reach = max(4, int(EDGE_REACH * size))
        a, b = int(np.clip(round(at) - reach, 0, size)), int(np.clip(round(at) + reach, 0, size))
        qa, qb = int(lo + (hi - lo) / 4), int(hi - (hi - lo) / 4)
        if b - a < 5:
            continue
        strip = bgr[qa:qb, a:b] if across else bgr[a:b, qa:qb]
        grey = cv2.cvtColor(np.ascontiguousarray(strip), cv2.COLOR_BGR2GRAY)
        grey = grey if across else grey.T
        inward = -1 if side in ("left", "top") else 0
        if grey.shape[0] < EDGE_GROUPS:
            continue
        means = _group_means(grey, EDGE_GROUPS)     # (a half: the first or the last half of the groups)
        half = EDGE_GROUPS // 2
        edges = [_edge_in(_middle(part), inward) for part in (means, means[:half], means[half:])]
        if edges[0] is not None:
            out[side] = [a + e if e is not None else float("nan") for e in edges]
    return out


TURN_MIN = 0.5          # degrees a camera must have turned by to be called turned
TURN_AGREE = 0.5        # degrees the sides' turns may differ from their median by


@dataclass(frozen=True)
class Knock:
    """How the tray lies in the view since calibration: moved by (dx, dy) px, turned by `turn`
    degrees (anticlockwise on the screen) about a point near the frame's centre, and `scale`
    times its calibrated size about the frame's centre (a camera raised: under 1; lowered: over
    1; the move then is what is left once that is taken out)."""

    dx: int = 0
    dy: int = 0
    turn: float = 0.0
    scale: float = 1.0

    def box(self, tray: tuple[int, int, int, int], w: int, h: int) -> tuple[int, int, int, int]:
        """The calibrated `tray` moved (and scaled about the frame's centre) with the tray, and
        grown by how far a turn moved its corners (the box stays square to the frame), kept
        inside the `w` x `h` image."""
        s, cx, cy = self.scale, w / 2, h / 2
        x0, x1 = (int(round(cx + s * (v - cx))) + self.dx for v in (tray[0], tray[2]))
        y0, y1 = (int(round(cy + s * (v - cy))) + self.dy for v in (tray[1], tray[3]))
        t = math.radians(abs(self.turn))
        gx, gy = math.ceil(t * (y1 - y0) / 2), math.ceil(t * (x1 - x0) / 2)
        return max(0, x0 - gx), max(0, y0 - gy), min(w, x1 + gx), min(h, y1 + gy)

    @property
    def zoomed(self) -> str:
        """"raised" (the tray looks smaller), "lowered" (bigger), or "" (its calibrated size)."""
        return "" if self.scale == 1.0 else "raised" if self.scale < 1.0 else "lowered"

    def words(self, frame_per_px: float = 1.0) -> str:
        """"moved 12 px right, 20 px up, turned 1.5 degrees": the move in the camera frame's
        pixels; a zoom first: "the tray looks 10% smaller" (with the move left, from EDGE_MIN,
        after it)."""
        dx, dy = (round(v * frame_per_px) for v in (self.dx, self.dy))
        if self.zoomed:
            dx, dy = (v if abs(v) >= EDGE_MIN * frame_per_px else 0 for v in (dx, dy))
        parts = [f"{abs(dx)} px {'right' if dx > 0 else 'left'}"] if dx else []
        parts += [f"{abs(dy)} px {'down' if dy > 0 else 'up'}"] if dy else []
        turn = [f"turned {abs(self.turn):.1f} degrees"] if self.turn else []
        zoom = [f"the tray looks {round(abs(self.scale - 1) * 100)}% "
                f"{'smaller' if self.scale < 1 else 'bigger'}"] if self.zoomed else []
        return ", ".join(zoom + (["moved " + ", ".join(parts)] if parts else []) + turn)


def _side_turns(now: dict[str, list[float]], edges: dict[str, list[float]], tray: tuple[int, int, int, int]
                ) -> list[float]:
    """How far (degrees, anticlockwise) each side measured both times turned since calibration,
    from the slant between its two halves' edges."""
    turns = []
    for side in now:
        if side in edges and len(edges[side]) == 3 and len(now[side]) == 3:
            across = side in ("left", "right")
            span = ((tray[3] - tray[1]) if across else (tray[2] - tray[0])) / 4
            slant = (now[side][2] - now[side][1]) - (edges[side][2] - edges[side][1])
            if np.isfinite(slant) and span > 0:
                turns.append(math.degrees(math.atan2(slant, span)) * (1 if across else -1))
    return turns


def _turn(now: dict[str, list[float]], edges: dict[str, list[float]], tray: tuple[int, int, int, int]
          ) -> float | None:
    """The camera's turn (degrees) from the slant of the felt's edges since calibration, when
    three sides or more agree on it (a die against a wall slants one); None otherwise."""
    turns = _side_turns(now, edges, tray)
    if len(turns) < 3:
        return None
    mid = float(np.median(turns))
    return mid if sum(abs(t - mid) <= TURN_AGREE for t in turns) >= 3 else None


# A camera arm raised or lowered (the tray 5-20% smaller or bigger about the frame's centre)
# moves the two sides of each axis apart, so no axis was told moved: raised, nothing was said
# (the box, too big, still held the tray); lowered by 5-10%, the box cut the dice by the walls
# ("partly out of view", or unread), from ~10% the felt past the box had the whole view read at
# the calibrated die size. The same edges tell it: each axis's span against the calibrated one
# is the tray's scale, the two axes' the same for a zoom (a hand over one wall changes one axis:
# 0.05-0.09 apart on the knock_bench's still frames, which measure 1 +- 0.0003 on both).
ZOOM_MIN = 0.02         # the tray's size must have changed by this share to be called zoomed
ZOOM_AGREE = 0.01       # the two axes' scales may differ by this much and still be one zoom
ZOOM_MAX = 0.25         # beyond this the edges are past their reach: whatever they found, not the felt's
ZOOM_NOT_TURNED = 5.0   # degrees: a side slanted by TURN_MIN up to this is turned (a die against it: 10-35)


def _turned(now: dict[str, list[float]], edges: dict[str, list[float]], tray: tuple[int, int, int, int]) -> bool:
    """Whether two sides or more slant the same way by TURN_MIN to ZOOM_NOT_TURNED degrees since
    calibration: a camera turned slants every side alike, a zoom none (a die against a wall makes
    its half's edge, and so its side's slant, wild). A camera turned 2 degrees with dice against
    two walls had both axes' spans 2% longer."""
    turns = [t for t in _side_turns(now, edges, tray) if TURN_MIN <= abs(t) <= ZOOM_NOT_TURNED]
    return max(sum(t > 0 for t in turns), sum(t < 0 for t in turns)) >= 2


def _zoom(now: dict[str, list[float]], edges: dict[str, list[float]], tray: tuple[int, int, int, int],
          w: int, h: int) -> Knock | None:
    """The tray scaled about the frame's centre (`w` x `h`) since the calibration measured the
    felt's `edges`, as a Knock with the scale and what move is left, when both axes are measured
    and agree on a scale at least ZOOM_MIN from 1, and the sides do not slant as a turn's do;
    None otherwise."""
    axes = []
    for (a, b), c in ((("left", "right"), w / 2), (("top", "bottom"), h / 2)):
        if not all(side in now and side in edges for side in (a, b)):
            return None
        span = edges[b][0] - edges[a][0]
        if span <= 0:
            return None
        axes.append(((now[b][0] - now[a][0]) / span, a, b, c))
    if abs(axes[0][0] - axes[1][0]) > ZOOM_AGREE or _turned(now, edges, tray):
        return None
    s = (axes[0][0] + axes[1][0]) / 2
    if not ZOOM_MIN <= abs(s - 1) <= ZOOM_MAX:
        return None
    dx, dy = (round(sum(now[side][0] - c - s * (edges[side][0] - c) for side in (a, b)) / 2)
              for _, a, b, c in axes)
    return Knock(dx, dy, 0.0, round(s, 3))


def edge_knock(bgr: np.ndarray, tray: tuple[int, int, int, int], edges: dict[str, list[float]]
               ) -> tuple[list[int | None], float | None, Knock | None]:
    """How far [dx, dy] (px of `bgr`) the tray moved since the calibration measured the felt's
    `edges` (its walled sides'), the camera's turn, and its zoom (`_zoom`: a camera raised or
    lowered): per axis with both sides measured, their mean move when they moved together
    (within EDGE_AGREE), 0 when that is under EDGE_MIN; None for an axis that cannot be told (a
    side without a wall or its edge not found, the sides moved apart: a hand over a wall, a
    zoom, a knock past EDGE_REACH)."""
    now = felt_edges(bgr, tray, list(edges), near=edges)
    moved: list[int | None] = []
    for a, b in (("left", "right"), ("top", "bottom")):
        if a in now and b in now and a in edges and b in edges:
            da, db = now[a][0] - edges[a][0], now[b][0] - edges[b][0]
            mean = (da + db) / 2
            moved.append(None if abs(da - db) > EDGE_AGREE else int(round(mean)) if abs(mean) >= EDGE_MIN else 0)
        else:
            moved.append(None)
    zoom = _zoom(now, edges, tray, bgr.shape[1], bgr.shape[0]) if None in moved else None
    return moved, _turn(now, edges, tray), zoom


def tray_zoom(bgr: np.ndarray, tray: tuple[int, int, int, int], walls: list[str] | tuple[str, ...],
              edges: dict[str, list[float]] | None) -> Knock | None:
    """The calibrated `tray`'s zoom (a Knock with its scale) measured by the felt's `edges` alone,
    or None: for a frame whose felt reaches past the box (`felt_past_tray`), which a camera
    lowered by 10% or more shows, as does a knock past the edges' reach (read in the whole view)."""
    if not edges:
        return None
    return edge_knock(bgr, tray, {s: v for s, v in edges.items() if s in walls})[2]


def tray_shift(bgr: np.ndarray, tray: tuple[int, int, int, int], walls: list[str] | tuple[str, ...],
               edges: dict[str, list[float]] | None = None) -> Knock | None:
    """How far (dx, dy, px of `bgr`) the calibrated `tray` (its walled sides) has moved in the
    view; None when it has not, or cannot be told (an axis without walls on both sides is not
    measured). With the felt's `edges` the calibration measured (`wall_edges`), by `edge_knock`
    (moves from 4 px, turns from 0.5 degrees); without them (a calibration from before
    2026-11-27), or when the edges cannot tell (a knock past their reach), found as calibration
    finds the tray (moves from SHIFT_MIN: 2% of the frame)."""
    if edges:
        by_edges, turn, zoom = edge_knock(bgr, tray, {s: v for s, v in edges.items() if s in walls})
        if zoom is not None:
            return zoom
        turn = turn if turn is not None and abs(turn) >= TURN_MIN else 0.0
        if any(by_edges) or None not in by_edges or turn:     # (moved or turned, or told still)
            dx, dy = (v or 0 for v in by_edges)
            return Knock(dx, dy, round(turn, 1)) if dx or dy or turn else None
    from vision.calibrate import find_tray      # (calibrate imports the reader, which imports this)

    h, w = bgr.shape[:2]
    x_walled = "left" in walls and "right" in walls
    y_walled = "top" in walls and "bottom" in walls
    if not (x_walled or y_walled):
        return None
    found = find_tray(bgr)
    if tuple(found) == (0, 0, w, h):
        return None                             # no surface found (a hand over the tray, the light off)
    d = [found[i] - tray[i] for i in range(4)]
    dx = _axis_shift(d[0], d[2], SHIFT_MIN * max(w, h)) if x_walled else 0
    dy = _axis_shift(d[1], d[3], SHIFT_MIN * max(w, h)) if y_walled else 0
    if (dx == 0 and dy == 0) or abs(dx) > SHIFT_MAX * w or abs(dy) > SHIFT_MAX * h:
        return None
    return Knock(dx, dy)


def moved_words(knock: Knock, frame_per_px: float = 1.0) -> str:
    """The reader's `camera_moved` words for `knock`: "the tray is not where it was calibrated
    (moved 10 px right): ..."; a zoom names the camera's height, which the staff put right: "the
    camera was raised since calibration (the tray looks 10% smaller): run dicetable calibrate
    again"."""
    if knock.zoomed:
        return (f"the camera was {knock.zoomed} since calibration ({knock.words(frame_per_px)}): "
                "run dicetable calibrate again")
    return f"the tray is not where it was calibrated ({knock.words(frame_per_px)}): run dicetable calibrate again"
