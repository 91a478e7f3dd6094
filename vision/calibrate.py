"""Calibration: learn the tray, the die size and the light from a few frames, and say what to fix.

Each café table has its own camera height, tray and lamp. Rather than tune the reader by hand,
the staff take a few frames of the empty tray and a few of a throw; this module finds

  * the tray region: the bounding box of the uniform surface grown from the centre of the empty
    tray (the whole frame when the tray fills it);
  * the background colour of the empty tray (mean and spread, BGR);
  * the die size in px (side of the top face), from blobs that differ from the empty tray in the
    throw frames; a reader callable, if given (`dicetable calibrate` passes the pip reader),
    says which blobs are dice, and measures by its boxes the dice no blob shows (black dice on
    black felt differ from the tray by their pips alone);
  * lighting advice: plain sentences for the person setting up the table.

The result goes into the `[vision]` section of the dicetable config: the dict form has `tray`
([x0, y0, x1, y1]) and `die_px` (float), exactly what `reader.read(frame, calibration=...)`
accepts. This module also checks the frames the staff give (`no_picture`, `empty_tray_problem`,
`throw_problem`, `check_images`, `check_sizes`) and says the result (`describe`).

    cal = calibrate(empty_frames, throw_frames)

Saving it into the config file (the TOML merge, the safe write, the staff's messages for a full
card or Ctrl-C) and the `dicetable calibrate` command are the table's business:
controller/calibrate.py. Vision knows no file of the table's and imports nothing of the
controller (tests/test_layers.py).
"""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Callable, Sequence

import cv2
import numpy as np

from .die_size import box_side
from .tray_moved import SIDES, felt_edges, felt_past_tray, walled_sides
from .types import BAD_FRAME, BLURRED, FOREIGN_OBJECT, TOO_BRIGHT, TOO_DARK, Reading

Box = tuple[int, int, int, int]
Reader = Callable[[np.ndarray], Reading]

# Lighting limits (grey levels 0..255 on the tray surface).
TOO_DARK_MEAN = 60.0
TOO_BRIGHT_MEAN = 215.0
SATURATED_LEVEL = 250
GLARE_FRACTION = 0.005
UNEVEN_FRACTION = 0.30
NOISE_STD = 6.0
# Between empty frames a pixel changing by more than this (grey levels, or share of its darkest
# value, whichever is more) saw something come or go: a lamp's flicker (+-20%) or noise do not.
MOVED_LEVELS, MOVED_SHARE = 40.0, 0.8
FLICKER_STD = 0.02                    # rows' light moving this much between frames (std, of the mean)
DICE_BRIGHT_ENOUGH = 150.0            # 99.5th percentile grey of a throw frame
DIE_PX_MIN, DIE_PX_MAX = 25.0, 150.0
LOW_CONTRAST = 45.0                   # dice differing from the empty tray by less (median, grey levels)
BLOB_OF_BOX = (0.6, 1.5)               # a blob this size (x the side a reader's die box implies) is that die


@dataclass
class Calibration:
    """What the vision code needs to know about one table."""

    tray: Box
    die_px: float                                   # side of a die's top face, px (0: not found)
    frame_size: tuple[int, int] = (0, 0)            # width, height
    background_bgr: tuple[float, float, float] = (0.0, 0.0, 0.0)
    background_std: tuple[float, float, float] = (0.0, 0.0, 0.0)
    brightness: float = 0.0                         # mean grey level of the empty tray
    dice_seen: int = 0                              # blobs measured for die_px
    advice: list[str] = field(default_factory=list)
    calibrated_at: str = ""
    # the tray's sides with a wall or the table past them: the reader watches them for felt, a
    # sign that the camera or the tray has moved (vision/tray_moved.py)
    walls: list[str] = field(default_factory=list)
    # where the felt ends at each of those sides, to a fraction of a pixel: the reader measures
    # them again on every frame, to follow a knock of a few pixels (tray_moved.felt_edges)
    wall_edges: dict[str, list[float]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when a die size was found and nothing needs fixing."""
        return self.die_px > 0 and not self.advice

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["tray"] = [int(v) for v in self.tray]
        d["die_px"] = round(float(self.die_px), 2)
        d["frame_size"] = [int(v) for v in self.frame_size]
        d["background_bgr"] = [round(float(v), 2) for v in self.background_bgr]
        d["background_std"] = [round(float(v), 2) for v in self.background_std]
        d["brightness"] = round(float(self.brightness), 2)
        d["advice"] = list(self.advice)
        d["walls"] = list(self.walls)
        d["wall_edges"] = {str(k): [round(float(x), 2) if math.isfinite(float(x)) else -1.0 for x in v]
                           for k, v in self.wall_edges.items()}
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Calibration":
        """Inverse of to_dict; unknown keys are ignored, `tray` and `die_px` are required."""
        try:
            tray = tuple(int(v) for v in d["tray"])
            die_px = float(d["die_px"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"calibration needs tray [x0, y0, x1, y1] and die_px: {exc}") from None
        if len(tray) != 4 or tray[2] <= tray[0] or tray[3] <= tray[1]:
            raise ValueError(f"calibration tray must be [x0, y0, x1, y1] with x1 > x0 and y1 > y0, got {list(tray)}")
        known = {f.name for f in fields(cls)}
        kw: dict[str, Any] = {k: v for k, v in d.items() if k in known and k not in ("tray", "die_px")}
        for k in ("frame_size",):
            if k in kw:
                kw[k] = tuple(int(v) for v in kw[k])
        for k in ("background_bgr", "background_std"):
            if k in kw:
                kw[k] = tuple(float(v) for v in kw[k])
        if "advice" in kw:
            kw["advice"] = [str(a) for a in kw["advice"]]
        if "walls" in kw:
            kw["walls"] = [str(s) for s in kw["walls"] if s in SIDES]
        if "wall_edges" in kw:
            edges = kw["wall_edges"] if isinstance(kw["wall_edges"], dict) else {}
            kw["wall_edges"] = {str(k): [float(x) for x in (v if isinstance(v, (list, tuple)) else [v])]
                                for k, v in edges.items() if k in SIDES}
        return cls(tray=tray, die_px=die_px, **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- measuring


def _check_frames(frames: Sequence[np.ndarray], what: str) -> list[np.ndarray]:
    if not frames:
        raise ValueError(f"no {what} frames given")
    out = []
    for i, f in enumerate(frames):
        if not isinstance(f, np.ndarray) or f.ndim not in (2, 3) or f.shape[0] < 16 or f.shape[1] < 16:
            raise ValueError(f"{what} frame {i} is not an image (need an array of at least 16x16 px)")
        if f.ndim == 2:
            f = cv2.cvtColor(f, cv2.COLOR_GRAY2BGR)
        elif f.shape[2] == 4:
            f = cv2.cvtColor(f, cv2.COLOR_BGRA2BGR)
        if f.dtype != np.uint8:
            raise ValueError(f"{what} frame {i} has dtype {f.dtype}; expected 8-bit images")
        out.append(f)
    return out


def _median_frame(frames: list[np.ndarray]) -> np.ndarray:
    if len(frames) == 1:
        return frames[0]
    return np.median(np.stack(frames), axis=0).astype(np.uint8)


def find_tray(empty: np.ndarray) -> Box:
    """Bounding box of the uniform surface grown from the centre of an empty-tray frame."""
    h, w = empty.shape[:2]
    scale = min(1.0, 320.0 / w)
    small = cv2.resize(empty, (max(16, int(w * scale)), max(16, int(h * scale))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    sh, sw = small.shape[:2]
    region = _felt_region(small)
    region = cv2.morphologyEx(region, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    largest = _largest_region(region)
    if largest is None:
        return 0, 0, w, h
    x, y, bw, bh = largest
    if bw * bh < 0.15 * sw * sh:
        return 0, 0, w, h                  # no convincing surface: use everything
    x, y, x1s, y1s = _to_wall(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (x, y, x + bw, y + bh))
    x0, y0 = int(math.floor(x / scale)), int(math.floor(y / scale))
    x1, y1 = int(math.ceil(x1s / scale)), int(math.ceil(y1s / scale))
    # snap to the frame edge when within 2 % (the tray fills the frame on that side)
    snap_x, snap_y = 0.02 * w, 0.02 * h
    x0 = 0 if x0 <= snap_x else x0
    y0 = 0 if y0 <= snap_y else y0
    x1 = w if x1 >= w - snap_x else min(w, x1)
    y1 = h if y1 >= h - snap_y else min(h, y1)
    return x0, y0, x1, y1


def _largest_region(region: np.ndarray) -> tuple[int, int, int, int] | None:
    """The box (x, y, w, h) of the largest 4-connected part of `region` (255 on it), or None.

    The table finds the tray again on every calibrated frame (tray_moved.tray_shift): the
    labelling with statistics took ~0.25 ms of its ~0.65 at 320 x 240, where the region is one
    part on every frame measured (70 of 70); labelled alone and measured by its box, 0.1 ms."""
    n, labels = cv2.connectedComponents(region, connectivity=4)
    if n <= 1:
        return None
    if n > 2:
        areas = np.bincount(labels.ravel(), minlength=n)
        region = (labels == 1 + int(np.argmax(areas[1:]))).astype(np.uint8)
    x, y, bw, bh = cv2.boundingRect(region)
    return int(x), int(y), int(bw), int(bh)


def _felt_region(small: np.ndarray) -> np.ndarray:
    """The largest uniform surface grown from points over the middle of the view (255 on it).

    Grown from one of nine points near the centre, the one closest to their surroundings'
    median colour, a lamp's glare in the middle of the tray put all nine in its halo: the
    surface grown was a pixel, the tray the whole view (walls unwatched), and the light advice
    compared the table's corners with the felt ("Uneven light ... add a second lamp")."""
    sh, sw = small.shape[:2]
    flags = 4 | cv2.FLOODFILL_MASK_ONLY | (255 << 8)
    best = np.zeros((sh, sw), np.uint8)
    best_area = 0
    for fy in (0.3, 0.4, 0.5, 0.6, 0.7):
        for fx in (0.3, 0.4, 0.5, 0.6, 0.7):
            x, y = int(sw * fx), int(sh * fy)
            if best[y, x] or int(small[y, x].min()) >= SATURATED_LEVEL:
                continue                     # (on the surface already found; in a glare spot)
            mask = np.zeros((sh + 2, sw + 2), np.uint8)
            cv2.floodFill(small.copy(), mask, (x, y), (0, 0, 0), (3, 3, 3), (3, 3, 3), flags)
            area = int(np.count_nonzero(mask))
            if area > best_area:
                best, best_area = mask[1:-1, 1:-1].copy(), area
    return best


def _to_wall(grey: np.ndarray, box: Box) -> Box:
    """Push each side of the grown region out to the tray wall: the felt darkens gradually in the
    wall's shadow (the flood fill stops early there); the wall itself is the strongest edge nearby."""
    h, w = grey.shape
    g = grey.astype(np.float32)
    x0, y0, x1, y1 = box
    out = [x0, y0, x1, y1]
    rows = g[y0 + (y1 - y0) // 4:y1 - (y1 - y0) // 4, :]
    cols = g[:, x0 + (x1 - x0) // 4:x1 - (x1 - x0) // 4]
    for side, prof, start, step, limit in ((0, rows.mean(axis=0), x0, -1, w), (2, rows.mean(axis=0), x1 - 1, 1, w),
                                           (1, cols.mean(axis=1), y0, -1, h), (3, cols.mean(axis=1), y1 - 1, 1, h)):
        reach = max(2, int(0.06 * limit))
        idx = [start + step * k for k in range(reach + 1) if 0 <= start + step * k + step < limit]
        if not idx:
            continue
        grads = [abs(prof[i + step] - prof[i]) for i in idx]
        k = int(np.argmax(grads))
        typical = float(np.median(np.abs(np.diff(prof)))) + 0.5
        if grads[k] > 4 * typical:
            edge = idx[k]
            out[side] = edge if step < 0 else edge + 1
    return out[0], out[1], out[2], out[3]


def die_blobs(throw: np.ndarray, empty: np.ndarray, tray: Box) -> list[tuple[float, tuple[float, float], float]]:
    """Blobs that differ from the empty tray and look like one die: (side px, centre, contrast)."""
    x0, y0, x1, y1 = tray
    a = cv2.GaussianBlur(throw[y0:y1, x0:x1], (3, 3), 0).astype(np.int16)
    b = cv2.GaussianBlur(empty[y0:y1, x0:x1], (3, 3), 0).astype(np.int16)
    diff = np.abs(a - b).max(axis=2).astype(np.uint8)
    # a drop shadow is the felt made darker by the same factor in every channel: not a die
    ratio = (a.astype(np.float32) + 1) / (b.astype(np.float32) + 1)
    shadow = (ratio.max(axis=2) < 0.97) & (ratio.max(axis=2) - ratio.min(axis=2) < 0.12)
    otsu, _ = cv2.threshold(diff, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    thr = max(30.0, float(otsu) * 0.6)
    mask = ((diff > thr) & ~shadow).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    limit = 0.5 * min(x1 - x0, y1 - y0)
    for c in contours:
        area = cv2.contourArea(c)
        if area < 40:
            continue
        (cx, cy), (rw, rh), _ = cv2.minAreaRect(c)
        if min(rw, rh) < 6 or max(rw, rh) / max(min(rw, rh), 1e-3) > 1.3:
            continue                      # touching dice, a hand, a sliver
        if area / (rw * rh) < 0.75:
            continue                      # not a filled square
        side = (rw + rh) / 2
        if side > limit:
            continue
        m = np.zeros(mask.shape, np.uint8)
        cv2.drawContours(m, [c], -1, 255, -1)
        contrast = float(cv2.mean(diff, mask=m)[0])
        out.append((float(side), (float(cx + x0), float(cy + y0)), contrast))
    return out


def _blobs_of_dice(blobs: list[tuple[float, tuple[float, float], float]], boxes: list[Box]
                   ) -> tuple[list[tuple[float, tuple[float, float], float]], list[tuple[float, Box]]]:
    """Each die the reader found, measured: by the blob that is that die (its centre in the
    die's box, its size the box's within BLOB_OF_BOX), else by the box alone. Returns the blobs
    kept and the (side, box) of the dice measured by their boxes.

    A blob in a die's box is not always the die: black dice on black felt, or translucent dice
    of the felt's colour, differ from the empty tray only by their pips, and the median of those
    (10 px for 60 px dice) would be saved as the die size, with advice to lower the camera, and
    the calibrated reader would then find nothing. A hand is left out as before: it is in no box."""
    kept: list[tuple[float, tuple[float, float], float]] = []
    by_box: list[tuple[float, Box]] = []
    lo, hi = BLOB_OF_BOX
    for x0, y0, x1, y1 in boxes:
        side = box_side((x0, y0, x1, y1))      # (the box of a die turned: 1..1.41 x its side)
        mine = [b for b in blobs if x0 <= b[1][0] <= x1 and y0 <= b[1][1] <= y1 and lo * side <= b[0] <= hi * side]
        if mine:
            kept.append(max(mine, key=lambda b: b[0]))
        else:
            by_box.append((side, (x0, y0, x1, y1)))
    return kept, by_box


def face_contrast(throw: np.ndarray, empty: np.ndarray, box: Box) -> float:
    """How much a die the reader found differs from the empty tray: the median difference over
    the middle half of its box (its top face, whatever its turn: the pips are too few to move a
    median). For the dice no blob measured: touching another die, against a wall, or of the
    felt's colour; only the last are low contrast."""
    h, w = throw.shape[:2]
    x0, y0, x1, y1 = box
    qx, qy = (x1 - x0) / 4, (y1 - y0) / 4
    xa, xb = max(0, int(x0 + qx)), min(w, int(round(x1 - qx)))
    ya, yb = max(0, int(y0 + qy)), min(h, int(round(y1 - qy)))
    if xb <= xa or yb <= ya:
        return 0.0
    a = throw[ya:yb, xa:xb].astype(np.int16)
    b = empty[ya:yb, xa:xb].astype(np.int16)
    return float(np.median(np.abs(a - b).max(axis=2)))


def lighting_advice(empty_frames: list[np.ndarray], tray: Box,
                    throw_frames: Sequence[np.ndarray] = ()) -> tuple[list[str], float]:
    """Human advice about the light on the empty tray, and its mean brightness.

    A dark felt is dark on purpose: "too dark" needs the dice (the brightest things in the throw
    frames) to be dim too, when throw frames are given."""
    x0, y0, x1, y1 = tray
    med = _median_frame(empty_frames)
    surf = med[y0:y1, x0:x1]
    grey = cv2.cvtColor(surf, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mean = float(grey.mean())
    advice: list[str] = []
    bright_dice = False
    if len(throw_frames):
        tops = [float(np.percentile(cv2.cvtColor(f[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY), 99.5)) for f in throw_frames]
        bright_dice = float(np.median(tops)) >= DICE_BRIGHT_ENOUGH
    if mean < TOO_DARK_MEAN and not bright_dice:
        advice.append(f"Too dark: mean brightness {mean:.0f}/255, add light or raise exposure.")
    elif mean > TOO_BRIGHT_MEAN:
        advice.append(f"Too bright: mean brightness {mean:.0f}/255, lower exposure or dim the lamp.")
    saturated = float((surf.max(axis=2) >= SATURATED_LEVEL).mean())
    if saturated > GLARE_FRACTION:
        pct = f"{saturated * 100:.1f}" if saturated < 0.1 else f"{saturated * 100:.0f}"
        advice.append(f"Glare: {pct}% of the tray is saturated, move the lamp or use a diffuser.")
    h, w = grey.shape
    ph, pw = max(2, int(h * 0.12)), max(2, int(w * 0.12))
    iy, ix = int(h * 0.04), int(w * 0.04)
    corners = [grey[iy:iy + ph, ix:ix + pw], grey[iy:iy + ph, w - ix - pw:w - ix],
               grey[h - iy - ph:h - iy, ix:ix + pw], grey[h - iy - ph:h - iy, w - ix - pw:w - ix]]
    # the middle half of the tray; a median, so a glare spot does not count as "centre"
    centre = float(np.median(grey[h // 4:h - h // 4, w // 4:w - w // 4]))
    if centre > 1:
        darkest = min(float(np.median(c)) for c in corners)
        dark = 1.0 - darkest / centre
        if dark > UNEVEN_FRACTION:
            advice.append(f"Uneven light: corners {dark * 100:.0f}% darker than centre, "
                          "light the tray from above or add a second lamp.")
    if len(empty_frames) >= 2:
        stack = np.stack([cv2.cvtColor(f[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY) for f in empty_frames]).astype(np.float32)
        # A lamp flickering with the mains, seen by a rolling shutter, lays bands of light over the
        # rows that move from frame to frame: each row's light, relative to the frame's, changes.
        # That is not noise (more light does not cure it), so it is told apart and taken out first.
        # Pixels where something came or went between the frames (a hand, an arm) are left out:
        # they are neither bands of light nor noise (with them, a hand resting in one empty frame
        # was called a flickering lamp, with the advice to set mains_hz).
        lo = stack.min(axis=0)
        still = (stack.max(axis=0) - lo) <= np.maximum(MOVED_LEVELS, MOVED_SHARE * lo)
        keep = still.mean(axis=1) >= 0.25          # rows mostly in view in every frame
        if keep.sum() < 4:
            return advice, mean
        stack, still = stack[:, keep], still[keep]
        rows = (stack * still).sum(axis=2) / still.sum(axis=1) + 1.0
        rows /= rows.mean(axis=1, keepdims=True)
        rows /= rows.mean(axis=0, keepdims=True)
        banding = float(np.median(rows.std(axis=0)))
        if banding > FLICKER_STD:
            advice.append(f"Flickering light: bands of light move across the tray from frame to frame "
                          f"(rows {banding * 100:.0f}% lighter or darker), a lamp on the mains seen by the "
                          "camera's rolling shutter: set mains_hz in [camera] to the mains (50 or 60), or "
                          "use a lamp that does not flicker.")
            stack /= rows[:, :, None]
        noise = float(stack.std(axis=0)[still].mean())
        if noise > NOISE_STD:
            advice.append(f"Noisy image: frame-to-frame noise {noise:.1f} grey levels, add light so the camera "
                          "can lower its gain.")
    return advice, mean


def _same_view(throws: list[np.ndarray], tray: Box, walls: list[str]) -> None:
    """Raise ValueError when a throw frame shows the felt past a wall of the tray found on the
    empty frames: the camera was knocked, or the tray pushed, between them. The table would
    then say "the tray is not where it was calibrated" from its first throw on, right after a
    calibration that said nothing (the same test as the table's, vision/tray_moved.py)."""
    for i, frame in enumerate(throws):
        side = felt_past_tray(frame, tray, walls)
        if side is not None:
            raise ValueError(f"the camera or the tray moved between the empty frames and throw {i + 1} (the felt "
                             f"now reaches past the tray's {side} side, as the empty tray showed it): take them "
                             "all again, without touching the camera or the tray")


def calibrate(empty_frames: list[np.ndarray], throw_frames: list[np.ndarray],
              reader: Reader | None = None) -> Calibration:
    """Measure tray, background, die size and light from empty-tray and throw frames.

    `reader(frame) -> Reading`, if given, keeps only blobs inside its die boxes (so a hand in a
    throw frame cannot spoil the die size) and fills in when no blob could be measured.
    Raises ValueError for frames that are not images or differ in size, and for throw frames that
    show the tray moved since the empty ones.
    """
    empty = _check_frames(empty_frames, "empty")
    throws = _check_frames(throw_frames, "throw")
    size = empty[0].shape[:2]
    for f in empty + throws:
        if f.shape[:2] != size:
            raise ValueError(f"all frames must have the same size; got {f.shape[1]}x{f.shape[0]} "
                             f"and {size[1]}x{size[0]}")
    bg = _median_frame(empty)
    tray = find_tray(bg)
    walls = walled_sides(bg, tray)
    _same_view(throws, tray, walls)
    x0, y0, x1, y1 = tray
    surf = bg[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32)
    advice, brightness = lighting_advice(empty, tray, throws)
    sides: list[float] = []
    contrasts: list[float] = []
    for frame in throws:
        blobs = die_blobs(frame, bg, tray)
        if reader is not None:
            boxes = [d.box for d in reader(frame).dice]
            if boxes:
                blobs, by_box = _blobs_of_dice(blobs, boxes)
                sides += [side for side, _box in by_box]
                contrasts += [face_contrast(frame, bg, box) for _side, box in by_box]
        sides += [b[0] for b in blobs]
        contrasts += [b[2] for b in blobs]
    die_px = float(np.median(sides)) if sides else 0.0
    if not sides:
        advice.append("No dice found in the throw frames: take them with dice on the same tray, "
                      "with the camera and light unchanged since the empty frames.")
    elif die_px < DIE_PX_MIN:
        advice.append(f"Dice look small ({die_px:.0f} px): lower the camera or zoom in; 40-100 px reads best.")
    elif die_px > DIE_PX_MAX:
        advice.append(f"Dice look large ({die_px:.0f} px): raise the camera so the whole tray is in view.")
    # (each die measured counts: dice touching, whose blobs were not measured, are not low contrast)
    if contrasts and float(np.median(contrasts)) < LOW_CONTRAST:
        advice.append("Low contrast between dice and tray: use dice that stand out from the felt "
                      "(light dice on a dark tray or the other way round).")
    return Calibration(
        tray=tray, die_px=die_px, frame_size=(int(size[1]), int(size[0])),
        background_bgr=tuple(float(v) for v in surf.mean(axis=0)),  # type: ignore[arg-type]
        background_std=tuple(float(v) for v in surf.std(axis=0)),   # type: ignore[arg-type]
        brightness=brightness, dice_seen=len(sides), advice=advice,
        calibrated_at=time.strftime("%Y-%m-%dT%H:%M:%S"), walls=walls,
        wall_edges=felt_edges(bg, tray, walls))


# --------------------------------------------------------------------------- checks of the frames


def _dice(n: int) -> str:
    return "1 die" if n == 1 else f"{n} dice"


# A frame with no picture in it: black (a lens cap, the camera's cable, a lamp and room both off),
# white, or one flat colour (a blank image). As the empty tray, it was measured as a tray of felt
# "BGR 0, 0, 0", "lighting looks fine" (the dice of the throws being bright), and saved over the
# café's calibration: the table then read nothing until calibrated again.
BLACK_MEAN, WHITE_MEAN, FLAT_SPREAD = 6.0, 250.0, 3.0


def no_picture(frame: np.ndarray) -> str | None:
    """What the staff should check when `frame` shows nothing (black, white, one flat colour), or None."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame[:, :, :3], cv2.COLOR_BGR2GRAY)
    mean = float(grey.mean())
    if mean < BLACK_MEAN:
        return ("the picture is black: is the lens cap off, the camera's cable in, the lamp over the tray on?")
    if mean > WHITE_MEAN:
        return "the picture is white: the camera is dazzled (a lamp or the sun straight into it?)."
    lo, hi = np.percentile(grey, (1, 99))
    if float(hi - lo) <= FLAT_SPREAD:
        return "the picture is one flat colour, no tray in it: is the camera covered, or is this the right image?"
    return None


def empty_tray_problem(reader: Reader, frame: np.ndarray) -> str | None:
    """What is wrong with `frame` as an empty tray (dice, a hand or an object in it), or None.
    Dice in the empty frames would be taken for the felt, and a throw measured against them; a
    hand was blended into the felt's colour and its walls, and gave the advice to set mains_hz
    for a flickering lamp."""
    blank = no_picture(frame)
    if blank:
        return blank
    reading = reader(frame)
    n = len(reading.dice)
    if n:
        return f"I see {_dice(n)} in the tray: it must be empty."
    if FOREIGN_OBJECT in reading.problem_codes():
        return "I see a hand or an object in the tray: it must be empty, and nothing over it."
    return None


# Why the reader saw no dice, when it says: with the lamp off, --camera said "I see no dice in the
# tray." at every Enter, and the staff, looking at their dice in the tray, could not tell why.
NO_DICE_BECAUSE = {
    TOO_DARK: "it is too dark to see them. Is the lamp over the tray on?",
    TOO_BRIGHT: "the picture is washed out: shade the tray from the lamp or the sun.",
    FOREIGN_OBJECT: "a hand or an object is in the tray: take it out.",
    BLURRED: "the picture is blurred. Is the camera loose or out of focus?",
    BAD_FRAME: "the camera's picture cannot be used.",
}


def throw_problem(reader: Reader, frame: np.ndarray) -> str | None:
    """What is wrong with `frame` as a throw (no dice in it, and why when the reader says), or None."""
    reading = reader(frame)
    if reading.dice:
        return None
    why = next((NO_DICE_BECAUSE[c] for c in NO_DICE_BECAUSE if c in reading.problem_codes()), None)
    return "I see no dice in the tray." if why is None else f"I see no dice in the tray: {why}"


def check_images(reader: Reader, empty: Sequence[tuple[str, np.ndarray]],
                 throws: Sequence[tuple[str, np.ndarray]]) -> None:
    """Raise ValueError naming each (path, image) that does not show what it was given as: the
    checks `--camera` makes on its frames. Swapped --empty and --throw images measure the same
    die size (the difference is the same), so nothing else would notice."""
    wrong = [f"--empty {p}: {w}" for p, img in empty if (w := empty_tray_problem(reader, img))]
    n_empty = len(wrong)
    wrong += [f"--throw {p}: {w}" for p, img in throws if (w := throw_problem(reader, img))]
    if not wrong:
        return
    swapped = n_empty == len(empty) and len(wrong) - n_empty == len(throws)
    raise ValueError("not calibrated: " + ("the --empty and --throw images look swapped:" if swapped else
                                           "images that do not show what they were given as:")
                     + "".join(f"\n  {w}" for w in wrong)
                     + "\n(Should the reader be wrong, say about a mark on the felt, calibrate with "
                       "--camera, where k keeps a frame it refuses.)")


def check_sizes(named: Sequence[tuple[str, np.ndarray]]) -> None:
    """Raise ValueError naming each image not of the first one's size. Before: "all frames must
    have the same size; got 320x240 and 640x480", the staff left to open every still to find
    the one taken at another size (a phone's picture, an old still of another camera)."""
    (first, img0), others = named[0], named[1:]
    size = img0.shape[:2]
    wrong = [f"{name}: {img.shape[1]}x{img.shape[0]}" for name, img in others if img.shape[:2] != size]
    if wrong:
        raise ValueError(f"not calibrated: the images are not all of the size of {first} ({size[1]}x{size[0]}):"
                         + "".join(f"\n  {w}" for w in wrong)
                         + "\n(Take them all with the table's camera at main_size in [camera], or use --camera.)")


def describe(cal: Calibration) -> str:
    x0, y0, x1, y1 = cal.tray
    lines = [
        f"tray: x {x0}-{x1}, y {y0}-{y1} ({x1 - x0}x{y1 - y0} px of {cal.frame_size[0]}x{cal.frame_size[1]})",
        f"die size: {cal.die_px:.1f} px (from {cal.dice_seen} dice)" if cal.die_px > 0 else "die size: not found",
        "background: BGR " + ", ".join(f"{v:.0f}" for v in cal.background_bgr)
        + f" (spread {max(cal.background_std):.1f}), brightness {cal.brightness:.0f}/255",
        ("tray walls watched for a moved camera: " + ", ".join(cal.walls)) if cal.walls
        else "tray walls: none in view (a moved camera cannot be noticed)",
    ]
    lines += [f"advice: {a}" for a in cal.advice] or ["lighting looks fine."]
    return "\n".join(lines)

