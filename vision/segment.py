"""Find die bodies on a frame: what differs from the local tray surface, cut into die-sized pieces.

Why this way: dice come in every colour, trays are light or dark, and the light is uneven, so
neither a fixed colour nor a global threshold works. A die is a compact patch that differs from
the surface *around it* -- by colour (a red die on green felt) or at least by its outline, pips
and shading (a white die on a white table) -- so two cues are combined:

* colour distance from a smooth model of the surface (a large median filter: dice are small
  compared to its window), thresholded relative to the frame's own noise;
* colour-gradient strength (edges, pips), also relative to the frame's own texture.

Pieces are then judged by their size relative to the dice of the same frame (the die size is
estimated from the compact, square blobs of the scene, or taken from the calibration), so no
threshold is in pixels: touching dice are split (colour edges between them, then distance-
transform peaks, then k-means on the expected count), long straight bands (tray walls and rims)
are peeled off, round blobs (fixtures, coins, glare spots) and thin ones are rejected, and big
compact ones (a hand) are reported as foreign objects. Work is done at reduced resolution: die
bodies are large, only the pips need full detail.

This module runs those steps and judges each blob; the steps live in their own modules:
vision/surface_model.py (the surface model, distances, thresholds), vision/blob_shape.py (a
blob's measures and masks), vision/touching_dice.py (cutting a blob into dice) and
vision/tray_walls.py (the felt and the walls past it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import cv2
import numpy as np

from vision.blob_shape import ROUND, _Blob, _blob, _blobs, _die_like, _fill_mask, _local_mask
from vision.surface_model import (  # noqa: F401 - the five segment does not call: re-exported
    _gt, _median, _odd, _robust_threshold, background_lab, colour_distance, distance_to_colour, fill_holes,
    foreground_mask, frame_contrast, gradient, painted, surface_distance,
)
from vision.touching_dice import (  # noqa: F401 - all but _split: re-exported (tests reach them as segment.X)
    THICK_FRAC, _CHROMA_X2, _at_frame_edge, _chroma_x2, _die_thick, _split,
)
from vision.tray_walls import _at_wall, _off_the_wall, _surface, _wall_bands

DEBUG = False
WORK_SIDE = 320          # long side of the segmentation image
KERNEL_DICE = 3.0        # background median window, in die widths
MIN_WORK_DIE = 12.0      # a die narrower than this (work pixels) cannot be segmented reliably
MAX_WORK_DIE = 36.0      # larger dice are worked on at lower resolution (speed)
TRAY_PAD = 0.3           # calibrated tray region padded by this many die sides
MIN_DIE_FRAC = 0.025     # smallest die side we look for, as a fraction of the frame's long side
MAX_DIE_FRAC = 0.25      # largest
FOREIGN_DICE = 2.0       # blobs bigger than this many dice may be foreign objects
FOREIGN_EDGES = 0.13     # edge pixels per blob pixel below which a big blob is not a heap of dice
LEANING_ASPECT = 1.3     # outline aspect above which a die surely shows a second face
DISC = 0.9               # roundness over this (ROUND: blob_shape): a true disc (coins, tokens), never a die
DISC_AREA = (0.3, 2.5)   # discs of these areas (x a die's) are die-sized round things: see Segmentation.discs
SEEN_AREA = (0.02, 3.0)  # blobs of these areas (x a die's) may be or hold a die: see Segmentation.seen
SEEN_PIP = 0.2           # ... those under this area only if compact (a pip, not a line of the rim)


@dataclass
class Candidate:
    """One die-sized blob, in full-frame coordinates."""

    centre: tuple[float, float]
    size: tuple[float, float]       # rotated-rect width, height
    angle: float                    # rotated-rect angle in degrees
    box: tuple[int, int, int, int]  # axis-aligned x0, y0, x1, y1
    area: float                     # blob area in full-frame pixels
    fill: float                     # area / rotated-rect area: ~0.9 for a die, 0.78 for a disc
    touching: bool = False          # was split from a blob holding two or more dice
    isolated: bool = True           # a blob on its own (not cut out of a heap, wall or board)
    at_border: bool = False         # cut by the frame or tray edge
    contour: np.ndarray | None = None  # work-scale contour (for the face mask / annotation)
    roundness: float = 0.0          # area / min enclosing circle area (square 0.64, disc 1.0)
    glare: bool = False             # part of the die is washed out (saturated)
    leaning: bool = False           # outline clearly longer one way: a second face shows
    partial: bool = False           # only part of the die is in view: its face cannot be trusted


@dataclass(frozen=True)
class FrameWork:
    """What a segmentation computes from the frame alone at its working scale, whatever the die
    size and tray: the area-averaged copy, its Lab, colour gradient, contrast and washed-out
    pixels. A second segmentation of the same frame at the same scale (without a die size for
    the size checks, at the dice's own size after them) takes it instead of computing it again
    (~0.6 ms of a 640 x 480 frame's 3-7 ms segmentation)."""

    source: np.ndarray       # the frame it was computed from (reused only for that very array)
    scale: float
    small: np.ndarray
    lab: np.ndarray
    grad: np.ndarray
    contrast: float
    sat: np.ndarray


def frame_work(bgr: np.ndarray, scale: float, like: "Segmentation | None" = None) -> FrameWork:
    """`like`'s FrameWork when it was made from `bgr` itself at `scale`, else computed."""
    fw = like.frame if like is not None else None
    if fw is not None and fw.source is bgr and fw.scale == scale:
        return fw
    H, W = bgr.shape[:2]
    small = cv2.resize(bgr, (max(1, round(W * scale)), max(1, round(H * scale))),
                       interpolation=cv2.INTER_AREA) if scale < 1.0 else bgr
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    return FrameWork(bgr, scale, small, lab, gradient(lab), frame_contrast(lab),
                     cv2.inRange(small, (245, 245, 245), (255, 255, 255)))


@dataclass
class Segmentation:
    candidates: list[Candidate]
    die_px: float | None            # estimated die side in full-frame pixels
    foreign: list[tuple[int, int, int, int]]  # large blobs that are not dice
    scale: float                    # work / full
    glare: list[tuple[int, int, int, int]] = field(default_factory=list)  # washed-out patches
    # The box around everything that may be or hold a die: the candidates, and the blobs from a
    # pip to a few dice in size (a round die, a die and its shadow, the lone pip of a die the
    # colour of the felt). The learned detector looks only around it: most of a tray is empty.
    seen: tuple[int, int, int, int] | None = None
    # the frame as the segmenter worked on it (area-averaged to `scale`): the detector's own
    # downscale starts with the same step on most frames and takes this copy instead
    work: np.ndarray | None = field(default=None, repr=False, compare=False)
    # redoes a candidate's outline at full resolution (None: the frame was worked on at full size)
    refiner: Callable[[Candidate], Candidate] | None = field(default=None, repr=False, compare=False)
    # Die-sized discs (centre x, y and radius, full-frame pixels): a coin or a board game's
    # token in the tray. The segmenter passes them over, but the learned stages take a disc with
    # a mark at its centre for a 1; this outline cue tells them apart (on the Byler trays the
    # roundest blob of a real die is 0.86, a disc's 0.95).
    discs: list[tuple[float, float, float]] = field(default_factory=list)
    # Segmented at a given die size: the die side its own blobs show (full-frame pixels, as a
    # segmentation without a die size estimates it first), or None. Measured on blobs found
    # already, it costs nothing; the bigger-dice check asks it before segmenting again.
    blob_px: float | None = None
    # the frame-level work it was made from (see FrameWork), for a second segmentation of the frame
    frame: FrameWork | None = field(default=None, repr=False, compare=False)
    _refined: dict[int, Candidate] = field(default_factory=dict, repr=False, compare=False)

    def refined(self, c: Candidate) -> Candidate:
        """`c` with its outline redone at full resolution (once; `c` itself when that is done
        already, when the frame was segmented at full size or when the colour cue alone does
        not hold the die). `segment(refine=False)` leaves this to the caller: the learned
        reader needs the tight outline only for the few dice whose flags or read it decides."""
        if self.refiner is None:
            return c
        r = self._refined.get(id(c))
        if r is None:
            r = self.refiner(c)
            if r is not c:
                _mark(r, self.glare)
            self._refined[id(c)] = self._refined[id(r)] = r
        return r


def _estimate_die_side(blobs: list[_Blob], long_side: float) -> float | None:
    """Median side of the blobs that look like single dice (square, well filled, not round)."""
    lo, hi = (MIN_DIE_FRAC * long_side) ** 2, (MAX_DIE_FRAC * long_side) ** 2
    sides = [np.sqrt(b.area) for b in blobs
             if lo <= b.area <= hi and b.fill > 0.78 and b.aspect < 1.3 and b.roundness < ROUND]
    if len(sides) >= 3:
        # Dice of one set have one size: take the largest well-populated size, not specks.
        s = np.sort(sides)
        return float(np.median(s[s >= 0.6 * np.median(s)]))
    if not sides:
        # No lone die: a heap or a row of touching dice is about one die thick, so twice the
        # deepest point of its distance transform is a die side.
        for b in blobs:
            if not (lo <= b.area <= 12 * hi) or b.roundness >= ROUND or b.fill < 0.45:
                continue
            m, _x, _y = _local_mask(b.contour)
            side = 2.0 * float(cv2.distanceTransform(m, cv2.DIST_L2, 3).max())
            if MIN_DIE_FRAC * long_side <= side <= MAX_DIE_FRAC * long_side:
                sides.append(side)
    if not sides:
        return None
    return float(np.median(sides))


def _work_scale(H: int, W: int, die_px: float | None) -> float:
    scale = min(1.0, WORK_SIDE / max(H, W))
    if die_px:
        scale = min(1.0, max(scale, MIN_WORK_DIE / die_px))
        if die_px * scale > MAX_WORK_DIE:
            scale = MAX_WORK_DIE / die_px
    return scale


def segment(bgr: np.ndarray, die_px: float | None = None,
            tray: tuple[int, int, int, int] | None = None, refine: bool = True,
            like: Segmentation | None = None) -> Segmentation:
    """Find die-sized blobs. `die_px` / `tray` come from calibration when available.

    `refine=False` returns the blobs' outlines as found at the working resolution (a pixel or
    two wide); `Segmentation.refined` redoes one at full resolution when it is needed.
    `like`: a segmentation of this same `bgr` array already made; its frame-level work is
    taken when it was done at the scale this one works at (`frame_work`)."""
    H, W = bgr.shape[:2]
    scale = _work_scale(H, W, die_px)
    fw = frame_work(bgr, scale, like)
    small, lab = fw.small, fw.lab
    h, w = small.shape[:2]
    long_side = float(max(h, w))

    roi_mask = None
    rx0, ry0, rx1, ry1 = 0.0, 0.0, float(w), float(h)   # region of interest, work px
    if tray is not None:
        # The calibrated tray is the felt; a die against the wall reaches a little past it (its
        # sides, perspective, a loose calibration): pad by a fraction of a die.
        pad = TRAY_PAD * (die_px if die_px else MIN_DIE_FRAC * 2 * max(H, W))
        rx0, ry0 = max(0.0, (tray[0] - pad) * scale), max(0.0, (tray[1] - pad) * scale)
        rx1, ry1 = min(float(w), (tray[2] + pad) * scale), min(float(h), (tray[3] + pad) * scale)
        roi_mask = np.zeros((h, w), np.uint8)
        roi_mask[int(round(ry0)):int(round(ry1)), int(round(rx0)):int(round(rx1))] = 255

    grad, contrast = fw.grad, fw.contrast
    # Background kernel: several dice wide. Without calibration, start from a fraction of the
    # frame, then redo with a kernel sized from the dice found if it was far off.
    kfrac = 0.22 if not die_px else min(0.8, KERNEL_DICE * die_px * scale / long_side)
    fg, bg, dthr, gthr = _mask(lab, grad, kfrac, roi_mask, contrast)
    # The surface the dice lie on: walls, rims and the table around the tray are left out (they
    # are neither dice nor objects in the tray), and the surface model is redone without them.
    surf = _surface(fg, lab, roi_mask, contrast)
    off = fill = core = None
    floors = (0.0, 0.0)
    if surf is not None:
        hull, fill = surf
        off = cv2.bitwise_not(hull)
        # (thresholds never below the whole frame's: a plain surface's low noise would let
        # shadows glue neighbouring dice together)
        floors = (0.0, gthr)
        fg, bg, dthr, gthr = _mask(lab, grad, kfrac, hull, contrast, off, fill, keep=roi_mask, floors=floors)
        surf2 = _surface(fg, lab, roi_mask, contrast)
        core = hull if surf2 is None else surf2[0]
        off = cv2.bitwise_not(core)
    elif tray is not None:
        core = np.zeros((h, w), np.uint8)
        x0, y0, x1, y1 = [int(round(v * scale)) for v in tray]
        core[max(0, y0):max(0, y1), max(0, x0):max(0, x1)] = 255
    est = die_px * scale if die_px else None
    raw = None          # the foreground before _at_wall: what of it lies past `core` holds the walls (_off_the_wall)
    if core is not None:
        if est is None:
            est = _estimate_die_side(_blobs(fg & core), long_side)
        raw = fg
        fg = _at_wall(fg, core, roi_mask, est)
    blobs = _blobs(fg)
    if est is None:
        est = _estimate_die_side(blobs, long_side)
    if not die_px and est is not None:
        k2 = min(0.8, max(0.08, KERNEL_DICE * est / long_side))
        if abs(k2 - kfrac) > 0.35 * kfrac:
            if core is None:
                fg, bg, dthr, gthr = _mask(lab, grad, k2, roi_mask, contrast)
            else:
                fg, bg, dthr, gthr = _mask(lab, grad, k2, core, contrast, off, fill, keep=roi_mask,
                                           floors=floors)
                raw = fg
                fg = _at_wall(fg, core, roi_mask, est)
            blobs = _blobs(fg)
            est = _estimate_die_side(blobs, long_side) or est

    cands: list[Candidate] = []
    foreign: list[tuple[int, int, int, int]] = []
    if est is None:
        return Segmentation(cands, None, foreign, scale, frame=fw)
    die_area = est * est
    inv = 1.0 / scale
    border = 1.5

    def add(b: _Blob, touching: bool, isolated: bool = True) -> Candidate | None:
        """The blob as a candidate, or None when a candidate is already there (the same die seen twice)."""
        (cx, cy), (rw, rh), ang = b.rect
        for o in cands:  # a die inside a rim blob's hole is seen twice: keep the first
            if np.hypot(o.centre[0] * scale - cx, o.centre[1] * scale - cy) < 0.5 * est:
                return None
        bx, by, bw, bh = cv2.boundingRect(b.contour)
        at_border = bx <= rx0 + border or by <= ry0 + border or bx + bw >= rx1 - border \
            or by + bh >= ry1 - border
        cands.append(Candidate(
            centre=(cx * inv, cy * inv), size=(rw * inv, rh * inv), angle=ang,
            box=_full_box((bx, by, bw, bh), inv, W, H), area=b.area * inv * inv, fill=b.fill,
            touching=touching, at_border=at_border, contour=b.contour, roundness=b.roundness,
            isolated=isolated))
        return cands[-1]

    # Glare: washed-out patches bigger than half a die (a specular spot, a lamp reflection).
    sat = fw.sat
    glare: list[tuple[int, int, int, int]] = []
    glare_work: list[tuple[int, int, int, int]] = []
    if cv2.countNonZero(sat):
        ng, _gl, gstats, _gc = cv2.connectedComponentsWithStats(sat, connectivity=8)
        for i in range(1, ng):
            gx, gy, gw, gh, ga = gstats[i]
            if ga >= 0.6 * die_area:
                glare_work.append((gx, gy, gx + gw, gy + gh))
                glare.append(_full_box((gx, gy, gw, gh), inv, W, H))

    def in_glare(b: _Blob) -> bool:
        bx, by, bw, bh = cv2.boundingRect(b.contour)
        return any(bx < g[2] and g[0] < bx + bw and by < g[3] and g[1] < by + bh for g in glare_work)

    def glare_only(b: _Blob) -> bool:
        """A big smooth blob that is mostly a glare spot and its halo (not a hand)."""
        if not glare_work or not in_glare(b):
            return False
        m, ox, oy = _local_mask(b.contour)
        hh, ww = m.shape
        ys, xs = max(0, oy), max(0, ox)
        s_ = np.zeros_like(m)
        sub = sat[ys:oy + hh, xs:ox + ww]
        s_[ys - oy:ys - oy + sub.shape[0], xs - ox:xs - ox + sub.shape[1]] = sub
        k = _odd(1.2 * est)
        rest = cv2.countNonZero(m & ~cv2.dilate(s_, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))))
        return rest < FOREIGN_DICE * die_area

    def cut_by(b: _Blob) -> bool:
        """The blob reaches the edge of the frame (or of the tray's region)."""
        bx, by, bw, bh = cv2.boundingRect(b.contour)
        return bx <= rx0 + border or by <= ry0 + border or bx + bw >= rx1 - border or by + bh >= ry1 - border

    walls: list[np.ndarray] = []      # the wall bands, found once, for the first blob that needs them
    for b in blobs:
        if b.area < 0.2 * die_area:
            continue
        if raw is not None and core is not None and cut_by(b):
            if not walls:
                walls.append(_wall_bands(raw & cv2.bitwise_not(core), est))
            own = _off_the_wall(b, walls[0], die_area)
            if own is not None and not cut_by(own):
                b = own
        if _die_like(b, die_area):
            add(b, False)
            continue
        cut_by_frame = cut_by(b)
        if cut_by_frame and b.area <= 1.3 * die_area and b.fill > 0.72 and b.roundness < ROUND \
                and max(b.rect[1]) <= 1.4 * est and min(b.rect[1]) >= 0.3 * est:
            cut = add(b, False)   # a die partly out of view: flagged, never given a value
            if cut is not None:   # (when it was a die seen twice, the first one's flag is left as it is)
                cut.partial = True
            continue
        if b.area < 0.3 * die_area:
            continue
        if b.roundness >= ROUND:
            continue  # a disc: a fixture, a coin, a glare spot
        parts, edge_density = _split(b, lab, gthr, est)
        _, _, bw, bh = cv2.boundingRect(b.contour)
        if DEBUG:
            hull_ = cv2.convexHull(b.contour)
            print("blob", round(b.area / die_area, 2), "fill", round(b.fill, 2), "min/est",
                  round(min(bw, bh) / est, 2), "edges", round(edge_density, 3), "solid",
                  round(b.area / max(cv2.contourArea(hull_), 1e-6), 2), "parts", len(parts),
                  "mean", [round(v) for v in cv2.mean(lab, _fill_mask(b.contour, lab.shape[:2]))[:3]],
                  "sat", round(cv2.mean(sat, _fill_mask(b.contour, lab.shape[:2]))[0] / 255, 2))
        rest = b.area - sum(p.area for p, _t in parts)   # what is not cut out as dice
        if b.area > FOREIGN_DICE * die_area and rest > die_area and b.fill > 0.25 and min(bw, bh) > 1.4 * est \
                and edge_density < FOREIGN_EDGES:
            # Much bigger than a die, not a thin band (a rim) and smooth (a heap of dice is
            # full of outlines and pips): a hand, a cup. Nothing in it is read.
            hull = cv2.convexHull(b.contour)
            if b.area / max(cv2.contourArea(hull), 1e-6) > 0.35 and not glare_only(b):
                foreign.append(_full_box(cv2.boundingRect(b.contour), inv, W, H))
                continue
        if in_glare(b):
            for part, _touching in parts:
                add(part, False, False)   # glare halo pieces count only if a face reads
            continue
        for part, touching in parts:
            add(part, touching, False)
    for c in cands:
        _mark(c, glare)
    lo, hi = SEEN_AREA[0] * die_area, SEEN_AREA[1] * die_area
    seen = [c.box for c in cands] + [
        _full_box(cv2.boundingRect(b.contour), inv, W, H) for b in blobs
        if lo <= b.area <= hi and (b.area >= SEEN_PIP * die_area or b.aspect < 2.0)]
    own = _estimate_die_side(blobs, long_side) if die_px else None
    seg = Segmentation(cands, est * inv, foreign, scale, glare, seen=_enclosing(seen), work=small,
                       discs=_discs(blobs, die_area, inv), blob_px=own * inv if own else None, frame=fw)
    if scale < 1.0:
        die = est * inv
        seg.refiner = lambda c: _refine(bgr, c, bg, scale, dthr, die)
        if refine:
            seg.candidates = [seg.refined(c) for c in cands]
    return seg


def _discs(blobs: list[_Blob], die_area: float, inv: float) -> list[tuple[float, float, float]]:
    """The die-sized blobs that are true discs, as (x, y, radius) in full-frame pixels."""
    return [(b.circle[0] * inv, b.circle[1] * inv, b.circle[2] * inv) for b in blobs
            if b.roundness >= DISC and DISC_AREA[0] * die_area <= b.area <= DISC_AREA[1] * die_area]


def _enclosing(boxes: list[tuple[int, int, int, int]]) -> tuple[int, int, int, int] | None:
    if not boxes:
        return None
    b = np.array(boxes)
    return int(b[:, 0].min()), int(b[:, 1].min()), int(b[:, 2].max()), int(b[:, 3].max())


def _mark(c: Candidate, glare: list[tuple[int, int, int, int]]) -> None:
    """The flags that follow from a candidate's outline: leaning, glare on it.

    A cocked die shows a side face: its outline is clearly longer one way than a flat die's.
    Only strongly oblong outlines count: flat dice away from the optical axis show a sliver of
    a side face too (perspective), and a false alarm would stop the game for nothing.
    """
    c.leaning = not c.partial and max(c.size) / max(min(c.size), 1e-6) > LEANING_ASPECT
    x0, y0, x1, y1 = c.box
    c.glare = any(x0 < g[2] and g[0] < x1 and y0 < g[3] and g[1] < y1 for g in glare)


def _refine(bgr: np.ndarray, c: Candidate, bg: np.ndarray, scale: float, thr: float,
            die: float) -> Candidate:
    """Redo a die's outline at full resolution, by colour distance only, inside its coarse blob.

    The coarse blob comes from a half-size image and includes the edge cue, so it runs a pixel
    or two wide; the face reader wants the die's own square, as tight as the pixels allow.
    """
    H, W = bgr.shape[:2]
    inv = 1.0 / scale
    x0, y0, x1, y1 = c.box
    pad = int(round(0.2 * die)) + 2
    x0, y0, x1, y1 = max(0, x0 - pad), max(0, y0 - pad), min(W, x1 + pad), min(H, y1 + pad)
    if x1 - x0 < 8 or y1 - y0 < 8 or c.contour is None:
        return c
    win = bgr[y0:y1, x0:x1]
    lab = cv2.cvtColor(win, cv2.COLOR_BGR2LAB)
    bx0, by0 = int(x0 * scale), int(y0 * scale)
    bx1, by1 = min(bg.shape[1], int(np.ceil(x1 * scale)) + 1), min(bg.shape[0], int(np.ceil(y1 * scale)) + 1)
    bgw = cv2.resize(bg[by0:by1, bx0:bx1], (int(round((bx1 - bx0) * inv)), int(round((by1 - by0) * inv))),
                     interpolation=cv2.INTER_LINEAR)
    ox, oy = x0 - int(round(bx0 * inv)), y0 - int(round(by0 * inv))
    bgw = bgw[oy:oy + (y1 - y0), ox:ox + (x1 - x0)]
    if bgw.shape[:2] != lab.shape[:2]:
        return c
    d = surface_distance(lab, bgw)
    m = _gt(d, thr)
    region = np.zeros_like(m)
    cnt_full = np.round(c.contour.astype(np.float32) * inv - np.array([x0, y0], np.float32)).astype(np.int32)
    cv2.drawContours(region, [cnt_full], -1, 255, cv2.FILLED)
    k = _odd(0.12 * die)
    region = cv2.dilate(region, np.ones((k, k), np.uint8))
    m &= region
    k2 = _odd(0.06 * die)
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((k2, k2), np.uint8))
    m = fill_holes(m)
    cs, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cs:
        return c
    best = max(cs, key=cv2.contourArea)
    b = _blob(best)
    if not (0.35 * c.area <= b.area <= 1.2 * c.area) or b.fill < 0.72 or b.aspect > 1.45 \
            or b.roundness >= ROUND:
        return c   # the colour cue alone does not hold the die (white on white): keep coarse
    (cx, cy), (rw, rh), ang = b.rect
    bxx, byy, bww, bhh = cv2.boundingRect(best)
    return Candidate(
        centre=(cx + x0, cy + y0), size=(rw, rh), angle=ang,
        box=(bxx + x0, byy + y0, bxx + x0 + bww, byy + y0 + bhh), area=b.area, fill=b.fill,
        touching=c.touching, at_border=c.at_border, isolated=c.isolated, partial=c.partial,
        contour=(best.astype(np.float32) + np.array([x0, y0], np.float32)) * scale,
        roundness=b.roundness)


def _mask(lab: np.ndarray, grad: np.ndarray, kfrac: float, roi_mask: np.ndarray | None,
          contrast: float, off: np.ndarray | None = None, fill: np.ndarray | None = None,
          keep: np.ndarray | None = None, floors: tuple[float, float] = (0.0, 0.0)
          ) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Foreground of the frame; thresholds from the pixels of `roi_mask`. The result is limited
    to `roi_mask`, or with an `off` region (see background_lab) to `keep` (None: whole frame)."""
    bg = background_lab(lab, kfrac, off, fill)
    dist = surface_distance(lab, bg)
    mask, thr, gthr = foreground_mask(dist, roi_mask, grad, contrast, clip=off is None, floors=floors)
    if off is not None and keep is not None:
        mask &= keep
    k3 = np.ones((3, 3), np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, k3)
    return fill_holes(mask, max_hole=mask.size / 40), bg, thr, gthr


def _full_box(r: tuple[int, int, int, int], inv: float, W: int, H: int) -> tuple[int, int, int, int]:
    x, y, w, h = r
    return (max(0, int(x * inv)), max(0, int(y * inv)),
            min(W, int(round((x + w) * inv))), min(H, int(round((y + h) * inv))))
