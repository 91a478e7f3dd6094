"""Read the value of one die from a square crop around its top face.

Why this way: pips may be darker or lighter than the face (black on white, white on black,
red on blue, yellow on black ...), so we do not pick a polarity: a pip is a small compact patch
whose *colour distance from the face colour* is high and which the face surrounds. The face
colour is what differs from the crop border (the table) near the centre, or the border colour
itself when the die is the colour of the table. The low-distance region around the centre is
the die body: it gives the die's size and centre in the crop, so all geometry is relative to
the die, not to the camera or to how loose the crop is.

Candidates are taken at several thresholds (and eroded, to split touching pips), then the
reader looks for the subset that is a real die face: the layout of 1..6 at any rotation (2 and
3 on a diagonal, 4 a square, 5 a square and its centre, 6 two rows of three), pips of one size
and one colour, spacing in proportion to the die, no comparable candidate left out on the
face. The confidence is how clean that fit is, lowered when another value fits almost as
well; below MIN_CONFIDENCE the value is None (an unread die is better than a wrong one).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

N = 48  # canonical face size in pixels
DEBUG = False  # print subset scores (development aid)
_LAST: dict = {}
MIN_CONFIDENCE = 0.6  # below this the value is None
MAX_CANDIDATES = 9    # strongest pip candidates considered per face
CROP_MARGIN = 1.15    # face crops span this much more than the die side they are given
LOCAL = True          # measure pips against the local face colour (marbled dice, uneven light)
DOUBLE_DROP_MIN_K = 7  # sets "k+2 strongest less two" for k >= this (7: off, no gain measured)
# Pip evidence where a layout wants plain face, relative to the pips' own contrast: above
# EMPTY_T (EMPTY_T_ONE for a lone pip) it costs EMPTY_W per unit.
EMPTY_W, EMPTY_T = 1.0, 0.35
EMPTY_T_ONE = 0.35
_RING16 = np.stack([np.cos(np.arange(16) * np.pi / 8), np.sin(np.arange(16) * np.pi / 8)], 1).astype(np.float32)

# Pip layouts in units of the pip offset `a` from the face centre.
_LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([[0, 0]], np.float32),
    2: np.array([[-1, -1], [1, 1]], np.float32),
    3: np.array([[-1, -1], [0, 0], [1, 1]], np.float32),
    4: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32),
    5: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1], [0, 0]], np.float32),
    6: np.array([[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]], np.float32),
}
# Real dice differ in how far the pips sit from the centre along each axis (a 6's rows are
# often tighter than its columns are apart), and a slightly tilted die squashes its face: fit
# each layout with a few aspect ratios (duplicates pad every value to the same count).
_ASPECTS = {1: (1.0,) * 4, 2: (1.0,) * 4, 3: (1.0,) * 4, 4: (0.8, 1.0, 1.0, 1.25),
            5: (0.8, 1.0, 1.0, 1.25), 6: (0.65, 0.8, 1.0, 1.2)}
_NA = 4
_TPL = np.zeros((7, _NA, 6, 2), np.float32)   # value, aspect, point (padded to 6), xy; rms 1
_TPL_MASK = np.zeros((7, 6), bool)
_T_RMS = np.zeros(7, np.float32)               # rms of the unit layout: a = rms_fit / _T_RMS
for _v, _t in _LAYOUTS.items():
    _TPL_MASK[_v, :_v] = True
    _T_RMS[_v] = float(np.sqrt((_t ** 2).sum(axis=1).mean()))
    for _i, _asp in enumerate(_ASPECTS[_v]):
        _tt = _t * np.array([1.0, _asp], np.float32)
        _r = float(np.sqrt((_tt ** 2).sum(axis=1).mean()))
        _TPL[_v, _i, :_v] = _tt / max(_r, 1e-6)
# Grid positions a value leaves empty (same normalised frame as _TPL), padded to 8.
_EMPTY = np.zeros((7, _NA, 8, 2), np.float32)
_EMPTY_MASK = np.zeros((7, 8), bool)
_GRID = np.array([[x, y] for y in (-1, 0, 1) for x in (-1, 0, 1)], np.float32)
for _v, _t in _LAYOUTS.items():
    _e = np.array([g for g in _GRID if not any((g == p).all() for p in _t)], np.float32)
    if _v == 6:  # the other pair of middles: a 6's columns must not be a 3x3 of pips
        _e = np.array([g for g in _e if g[0] == 0 and g[1] != 0] + [[0, 0]], np.float32)
    _EMPTY_MASK[_v, :len(_e)] = True
    for _i, _asp in enumerate(_ASPECTS[_v]):
        _tt = _t * np.array([1.0, _asp], np.float32)
        _r = float(np.sqrt((_tt ** 2).sum(axis=1).mean())) if _v > 1 else 1.0
        _EMPTY[_v, _i, :len(_e)] = _e * np.array([1.0, _asp], np.float32) / _r
# Rotations tried around the orientation estimated from the pips themselves (mod 90 degrees).
_JIT = np.deg2rad(np.array([0.0, 90.0], np.float32))


@dataclass
class FaceRead:
    value: int | None
    confidence: float
    pips: list[tuple[float, float, float]] = field(default_factory=list)  # x, y, area (crop px)
    glare: bool = False
    reason: str = ""


# --------------------------------------------------------------------------- crops

def face_transform(centre: tuple[float, float], side: float, angle: float, n: int = N) -> np.ndarray:
    """2x3 affine taking frame pixels to the n x n axis-aligned face crop.

    The crop spans CROP_MARGIN x side: pips near the edge of a die whose outline was found a
    little small stay whole, and the reader measures the die itself inside the crop.
    """
    s = n / max(side * CROP_MARGIN, 1.0)
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), float(angle), s)
    m[0, 2] += n / 2.0 - centre[0]
    m[1, 2] += n / 2.0 - centre[1]
    return m


def face_crop(bgr: np.ndarray, centre: tuple[float, float], side: float, angle: float,
              n: int = N) -> np.ndarray:
    """Rotate the die to the axes and resample its square to n x n.

    A die much larger than n is first shrunk with area averaging (warpAffine alone would
    alias small pips away).
    """
    m = face_transform(centre, side, angle, n)
    side = side * CROP_MARGIN
    if side > 1.5 * n:
        r = 0.75 * side + 2
        x0, y0 = max(0, int(centre[0] - r)), max(0, int(centre[1] - r))
        x1, y1 = min(bgr.shape[1], int(centre[0] + r) + 1), min(bgr.shape[0], int(centre[1] + r) + 1)
        if x1 - x0 >= 2 and y1 - y0 >= 2:
            f = 1.5 * n / float(side)
            small = cv2.resize(bgr[y0:y1, x0:x1], (max(1, round((x1 - x0) * f)), max(1, round((y1 - y0) * f))),
                               interpolation=cv2.INTER_AREA)
            fx, fy = small.shape[1] / float(x1 - x0), small.shape[0] / float(y1 - y0)
            s_inv = np.array([[1.0 / fx, 0.0], [0.0, 1.0 / fy]])
            m2 = m[:, :2] @ s_inv
            t2 = m[:, :2] @ np.array([x0 - 0.5 + 0.5 / fx, y0 - 0.5 + 0.5 / fy]) + m[:, 2]
            return cv2.warpAffine(small, np.hstack([m2, t2[:, None]]), (n, n), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
    return cv2.warpAffine(bgr, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def crop_mask(contour_frame: np.ndarray, m: np.ndarray, n: int = N) -> np.ndarray:
    """The die's blob outline mapped into the face crop (pips must lie inside it)."""
    pts = contour_frame.reshape(-1, 2).astype(np.float32)
    q = pts @ m[:, :2].T + m[:, 2]
    mask = np.zeros((n, n), np.uint8)
    cv2.fillPoly(mask, [np.round(q).astype(np.int32)], 255)
    return mask


def locate_die(bgr: np.ndarray) -> tuple[tuple[float, float], float, float]:
    """Centre, side and angle of the one die in a single-die crop (it may fill it or not).

    The die is what differs in colour from the crop's border ring (the table); its rotated
    bounding rectangle gives the square to read. Falls back to the whole crop.
    """
    h, w = bgr.shape[:2]
    full = ((w / 2.0, h / 2.0), float(min(h, w)), 0.0)
    f = 96.0 / max(h, w)
    small = cv2.resize(bgr, (max(8, round(w * f)), max(8, round(h * f))), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32) * LAB_W
    b = max(2, int(0.05 * min(sh, sw)))
    ring = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3),
                           lab[:, :b].reshape(-1, 3), lab[:, -b:].reshape(-1, 3)])
    ref = np.median(ring, axis=0)
    dv = lab - ref
    dist = np.sqrt((dv * dv).sum(axis=2))
    rv = ring - ref
    ring_d = np.sqrt((rv * rv).sum(axis=1))
    thr = max(25.0, 2.0 * float(np.percentile(ring_d, 80)))
    mask = (dist > thr).astype(np.uint8)
    k = max(3, int(0.04 * min(sh, sw)) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    cs, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cs:
        return full
    cx, cy = sw / 2.0, sh / 2.0

    def rank(c: np.ndarray) -> float:
        m = cv2.moments(c)
        if m["m00"] <= 0:
            return -1.0
        off = np.hypot(m["m10"] / m["m00"] - cx, m["m01"] / m["m00"] - cy) / min(sh, sw)
        return m["m00"] * (1.0 - min(off, 0.9))

    best = max(cs, key=rank)
    area = cv2.contourArea(cv2.convexHull(best))
    if area < 0.03 * sh * sw or area > 0.9 * sh * sw:
        return full
    (rx, ry), (rw, rh), ang = cv2.minAreaRect(cv2.convexHull(best))
    side = max(rw, rh)
    if max(rw, rh) > 1.6 * max(min(rw, rh), 1.0):  # not a die-like blob
        return full
    return (rx / f, ry / f), float(side / f), float(ang)


def read_crop(bgr: np.ndarray, margin: float = 1.05) -> FaceRead:
    """Value of a single-die crop (the die fills the crop or sits somewhere in it). Never raises.

    Two views are read: the die as located in the crop (rotated square with a margin) and the
    whole crop; the more confident reading wins (locating fails on dice that fill the crop,
    reading the whole crop fails on dice that sit small in it).
    """
    return crop_views(bgr, margin)[0]


def crop_views(bgr: np.ndarray, margin: float = 1.05) -> tuple[FaceRead, np.ndarray | None]:
    """read_crop, plus the N x N face crop that gave the answer (for benches and dumps)."""
    try:
        img = prepare_image(bgr)
        if img is None:
            return FaceRead(None, 0.0, reason="bad crop"), None
        h, w = img.shape[:2]
        centre, side, angle = locate_die(img)
        views = [face_crop(img, centre, side * margin, angle)]
        if side < 0.9 * min(h, w) or abs(angle % 90.0) > 5.0:
            views.append(face_crop(img, (w / 2.0, h / 2.0), float(min(h, w)) / CROP_MARGIN, 0.0))
        best: tuple[FaceRead, np.ndarray | None] = (FaceRead(None, 0.0, reason="no view"), None)
        for v in views:
            fr = read_face(v)
            if best[1] is None or fr.confidence > best[0].confidence:
                best = (fr, v)
        return best
    except Exception as exc:  # noqa: BLE001 - a bad crop must not stop the table
        return FaceRead(None, 0.0, reason=f"error: {type(exc).__name__}"), None


# --------------------------------------------------------------------------- candidates

LAB_W = np.array([1.0, 2.0, 2.0], np.float32)  # OpenCV 8-bit a/b are compressed vs L
# A second way to weigh colour, for coloured pips on a swirled or marbled body: the swirl differs
# from the body mostly in lightness, red pips in hue. Lightness weighed at 0.3 of the full-colour
# weighting lets the pips stand out where the swirl's white streaks looked like pips too.
HUE_W = np.array([0.3, 2.0, 2.0], np.float32)


def prepare_image(img: object) -> np.ndarray | None:
    """Any image -> BGR uint8 (or None when it cannot hold a die)."""
    if not isinstance(img, np.ndarray) or img.ndim not in (2, 3) or img.size == 0:
        return None
    if img.shape[0] < 8 or img.shape[1] < 8:
        return None
    if img.dtype != np.uint8:
        f = np.nan_to_num(img.astype(np.float32))
        if f.max() <= 1.0:
            f = f * 255.0
        img = np.clip(f, 0, 255).astype(np.uint8)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.shape[2] == 4:
        img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    elif img.shape[2] == 1:
        img = cv2.cvtColor(img[:, :, 0], cv2.COLOR_GRAY2BGR)
    elif img.shape[2] != 3:
        return None
    return np.ascontiguousarray(img)


def _prep(face: object) -> np.ndarray | None:
    """Any crop -> N x N BGR uint8, or None."""
    img = prepare_image(face)
    if img is None:
        return None
    if img.shape[0] != N or img.shape[1] != N:
        interp = cv2.INTER_AREA if img.shape[0] > N else cv2.INTER_LINEAR
        img = cv2.resize(img, (N, N), interpolation=interp)
    return img


_YY, _XX = np.mgrid[0:N, 0:N].astype(np.float32)
_R = np.hypot(_XX - (N - 1) / 2.0, _YY - (N - 1) / 2.0) / N
_CENTRAL = _R < 0.3
_CENTRAL_U8 = _CENTRAL.astype(np.uint8) * 255
_DISK = _R < 0.35
_RING = np.zeros((N, N), bool)
_RING[:3, :] = _RING[-3:, :] = _RING[:, :3] = _RING[:, -3:] = True
_K2 = np.ones((2, 2), np.uint8)
_K3 = np.ones((3, 3), np.uint8)
_K5 = np.ones((5, 5), np.uint8)
_K_SUR = int(0.3 * N) | 1
_INNER2 = np.zeros((N, N), bool)   # all but a 2-pixel border
_INNER2[2:-2, 2:-2] = True
_RING_IDX = np.flatnonzero(_RING)  # (integer takes are faster than boolean masks)
_DISK_IDX = np.flatnonzero(_DISK)
_CENTRAL_IDX = np.flatnonzero(_CENTRAL)
_N_CENTRAL = int(_CENTRAL.sum())


_ONES13 = np.ones((1, 3), np.float32)


def _dist(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Euclidean distance of every pixel of a 3-channel float image from `ref` (a colour or an
    image): one fused OpenCV pass instead of numpy's slow reduction over a length-3 axis."""
    dv = lab - ref
    return cv2.sqrt(cv2.transform(dv * dv, _ONES13))


def _u8(d: np.ndarray) -> np.ndarray:
    """Float map -> uint8, saturating (cv2's rounding conversion; numpy truncated before)."""
    return cv2.min(d, 255.0).astype(np.uint8)


def _q2(x: np.ndarray, q1: float, q2: float) -> tuple[float, float]:
    """Two quantiles of a 1-D array with one partition (same ranks as _q)."""
    n1 = len(x) - 1
    k1 = min(n1, max(0, int(q1 * n1 + 0.5)))
    k2 = min(n1, max(0, int(q2 * n1 + 0.5)))
    p = np.partition(x, (k1, k2))
    return float(p[k1]), float(p[k2])


def _q(x: np.ndarray, q: float) -> np.ndarray:
    """Quantile along axis 0 by partition (np.median/percentile are slow on small arrays)."""
    k = min(len(x) - 1, max(0, int(q * (len(x) - 1) + 0.5)))
    if x.ndim == 2:   # (partitioning contiguous rows is twice as fast as a strided axis 0)
        return np.partition(np.ascontiguousarray(x.T), k, axis=1)[:, k]
    return np.partition(x, k, axis=0)[k]


def _face_colour(lab: np.ndarray) -> np.ndarray:
    """Weighted-Lab colour of the top face.

    The crop border is the table (a box with margin) or the die itself (a tight crop). Pixels
    near the centre that differ from it are the die body, pips, or both: when they are the
    majority there, their median is the face colour, else the die is the border's colour.
    """
    flat = lab.reshape(-1, 3)
    t = _q(flat[_RING_IDX], 0.5)
    disk = flat[_DISK_IDX]
    dv = disk - t
    far = (dv[:, 0] * dv[:, 0] + dv[:, 1] * dv[:, 1] + dv[:, 2] * dv[:, 2]) > 20.0 ** 2
    nf = int(far.sum())
    if nf > 0.4 * len(far):
        return _q(disk[far], 0.5)
    return _q(disk[~far], 0.5) if nf < len(far) else t


@dataclass
class _Face:
    centre: np.ndarray   # (2,) face centre in crop px
    side: float          # die side in crop px
    known: bool          # body found (else: the crop is taken as the die)
    filled: np.ndarray | None = None  # n x n uint8 die outline with the pips filled in
    floor: float = 0.0   # pip-distance level of plain face (texture, noise)


def _body(d8: np.ndarray, t: float, n: int) -> _Face:
    """The face-coloured region around the centre: the die body (pips are holes in it)."""
    low = (d8 <= t).astype(np.uint8)
    cnt, lbl, stats, cents = cv2.connectedComponentsWithStats(low, connectivity=4)
    fallback = _Face(np.array([(n - 1) / 2.0, (n - 1) / 2.0], np.float32), 0.85 * n, False)
    if cnt <= 1:
        return fallback
    votes = np.bincount(np.take(lbl, _CENTRAL_IDX), minlength=cnt)
    votes[0] = 0
    b = int(np.argmax(votes))
    x, y, w, h, area = (int(v) for v in stats[b])
    if votes[b] < 0.3 * _N_CENTRAL:
        return fallback
    touches = int(x == 0) + int(y == 0) + int(x + w == n) + int(y + h == n)
    if touches >= 3 or area > 0.8 * n * n:
        return fallback  # the die is the table's colour (or fills the crop): no outline
    # Fill the pips (holes) and whatever bites into the outline: the filled outer contour.
    comp = (lbl == b).astype(np.uint8)
    cs, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros((n, n), np.uint8)
    cv2.drawContours(filled, [max(cs, key=len)], -1, 1, -1)
    farea = float(filled.sum())
    side = float(np.sqrt(max(farea, area)))
    side = min(side, float(max(w, h)) * 1.05)
    return _Face(np.array(cents[b], np.float32), side, True, filled)


_BELOW: dict[int, np.ndarray] = {}


def _below(m: int) -> np.ndarray:
    """np.tril(np.ones((m, m), bool), -1), cached."""
    t = _BELOW.get(m)
    if t is None:
        t = _BELOW[m] = np.tri(m, m, -1, bool)
    return t


@dataclass
class _Blobs:
    xy: np.ndarray        # (m, 2) centroid
    area: np.ndarray      # (m,)
    contrast: np.ndarray  # (m,) colour distance of the blob from the face colour
    colour: np.ndarray    # (m, 3) weighted Lab of the blob
    surround: np.ndarray  # (m, 3) weighted Lab of the face-coloured pixels around it

    def take(self, idx: np.ndarray) -> "_Blobs":
        return _Blobs(self.xy[idx], self.area[idx], self.contrast[idx], self.colour[idx], self.surround[idx])

    def __len__(self) -> int:
        return len(self.area)


def _candidates(lab: np.ndarray, d: np.ndarray, d8: np.ndarray, levels: list[float],
                allowed: np.ndarray | None, n: int, side: float = 0.85 * N, floor: float = 0.0,
                dm: np.ndarray | None = None) -> _Blobs | None:
    """Compact patches of high pip distance: components at each threshold, the same eroded
    (touching pips come apart), and local maxima (pips that stay joined at every threshold)."""
    b0 = cv2.morphologyEx(cv2.threshold(d8, levels[0], 1, cv2.THRESH_BINARY)[1], cv2.MORPH_OPEN, _K2)
    b1 = cv2.morphologyEx(cv2.threshold(d8, levels[1], 1, cv2.THRESH_BINARY)[1], cv2.MORPH_OPEN, _K2)
    parts = []
    lbl0 = None
    for binm, ero in ((b0, False), (b1, False), (cv2.erode(b0, _K3), True)):
        cnt, lbl, stats, cents = cv2.connectedComponentsWithStats(binm, connectivity=8)
        if lbl0 is None:
            # Maxima are pips only inside compact regions that stay off the crop border.
            s0 = stats
            lbl0 = lbl
            ok0 = ((s0[:, 0] > 0) & (s0[:, 1] > 0) & (s0[:, 0] + s0[:, 2] < n) & (s0[:, 1] + s0[:, 3] < n)
                   & (s0[:, 4] <= 0.3 * n * n))
            ok0[0] = False
        if cnt <= 1:
            continue
        # (a few components: plain Python on the stats beats a dozen tiny array operations)
        amin, amax = (0.0015 if ero else 0.003) * n * n, 0.10 * n * n
        ok = [i for i, (x, y, w, h, area) in enumerate(stats.tolist()[1:], 1)
              if amin <= area <= amax
              and x > 0 and y > 0 and x + w < n and y + h < n     # a pip does not leave the crop
              and max(w, h) <= 2 * min(w, h) + 1 and area >= 0.45 * w * h]
        if not ok:
            continue
        a = stats[ok, 4].astype(np.float32)
        if ero:  # undo the erosion in the size estimate
            a = np.pi * (np.sqrt(a / np.pi) + 1.0) ** 2
        part = np.empty((len(ok), 3), np.float32)
        part[:, :2] = cents[ok]
        part[:, 2] = a
        parts.append(part)
    rows = (parts[0] if len(parts) == 1 else np.concatenate(parts)) if parts else np.zeros((0, 3), np.float32)
    # Pips that touch at every threshold (tight rows, blur) are still separate maxima; their
    # size is the blob's mass over its height.
    ds = cv2.GaussianBlur(d, (0, 0), 1.0)
    pk = (ds >= cv2.dilate(ds, _K5)) & (ds > levels[1]) & ok0[lbl0]
    if n == N:
        pk &= _INNER2
    else:
        pk[:2, :] = False
        pk[-2:, :] = False
        pk[:, :2] = False
        pk[:, -2:] = False
    ys, xs = np.nonzero(pk)
    if len(ys):
        k = 2 * max(2, int(round(0.09 * side))) + 1
        mass = cv2.boxFilter(np.maximum(ds - floor, 0.0), -1, (k, k), normalize=False)
        h = np.maximum(ds[ys, xs] - floor, 1e-3)
        peaks = np.empty((len(ys), 3), np.float32)
        peaks[:, 0] = xs
        peaks[:, 1] = ys
        peaks[:, 2] = np.minimum(mass[ys, xs] / h, k * k)
        if len(rows):
            # A blob holding two maxima is two pips run together: the maxima replace it.
            dd = (rows[:, None, 0] - peaks[None, :, 0]) ** 2 + (rows[:, None, 1] - peaks[None, :, 1]) ** 2
            rows = rows[(dd < (rows[:, 2] / np.pi)[:, None]).sum(axis=1) < 2]
        rows = np.concatenate([rows, peaks])
    if not len(rows):
        return None
    # The same pip seen several ways: an earlier (fuller) outline wins.
    r = np.sqrt(rows[:, 2] / np.pi) + 0.5  # two pips do not overlap
    d2 = (rows[:, None, 0] - rows[None, :, 0]) ** 2 + (rows[:, None, 1] - rows[None, :, 1]) ** 2
    close = (d2 < np.maximum(r[:, None], r[None, :]) ** 2) & _below(len(rows))
    rows = rows[~close.any(axis=1)]
    ix = np.minimum(np.maximum((rows[:, 0] + 0.5).astype(int), 0), n - 1)
    iy = np.minimum(np.maximum((rows[:, 1] + 0.5).astype(int), 0), n - 1)
    if allowed is not None:
        inb = allowed[iy, ix]
        if not inb.any():
            return None
        rows, ix, iy = rows[inb], ix[inb], iy[inb]
    # Colour and contrast at the blob centre (lightly smoothed), face colour around it.
    sm = cv2.blur(lab, (3, 3))
    if dm is None:
        dm = cv2.blur(d, (3, 3))
    face = (1 - b0).astype(np.float32)
    num = cv2.blur(lab * face[:, :, None], (_K_SUR, _K_SUR))
    den = cv2.blur(face, (_K_SUR, _K_SUR))
    sur = num[iy, ix] / np.maximum(den[iy, ix], 1e-3)[:, None]
    con = dm[iy, ix]
    keep = np.nonzero(con > 0.3 * con.max())[0]
    keep = keep[np.argsort(-con[keep])][:MAX_CANDIDATES]
    return _Blobs(rows[keep, :2], rows[keep, 2], con[keep], sm[iy[keep], ix[keep]], sur[keep])


# --------------------------------------------------------------------------- layout

def _subsets(m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Candidate index sets (strongest first): for each k, the k strongest, the k+1 strongest
    less one, and the k+2 strongest less two of the first four (ghost pips, glare ahead of the
    real ones). Returns idx (S, 6) padded with 0, valid mask (S, 6), k (S,)."""
    subs = []
    for k in range(1, 7):
        out = []
        if m >= k:
            out.append(tuple(range(k)))
        if m >= k + 1:
            for i in range(k):
                out.append(tuple(j for j in range(k + 1) if j != i))
        if m >= k + 2 and k >= DOUBLE_DROP_MIN_K:
            for i in range(3):
                for j in range(i + 1, 3):
                    out.append(tuple(x for x in range(k + 2) if x not in (i, j)))
        subs += out
    s = len(subs)
    idx = np.zeros((s, 6), np.int64)
    valid = np.zeros((s, 6), bool)
    ks = np.zeros(s, np.int64)
    for i, t in enumerate(subs):
        idx[i, :len(t)] = t
        valid[i, :len(t)] = True
        ks[i] = len(t)
    return idx, valid, ks


_SUBSETS = {m: _subsets(m) for m in range(0, MAX_CANDIDATES + 1)}


class _Sub:
    """Everything about the candidate sets of a face with m candidates that does not depend on
    the candidates themselves, computed once (the face stage is many small array operations:
    their count, not their size, sets its speed)."""

    def __init__(self, m: int) -> None:
        idx, valid, ks = _SUBSETS[m]
        s = len(ks)
        self.idx, self.valid, self.ks, self.s = idx, valid, ks, s
        self.vf = valid.astype(np.float32)
        self.kf = ks.astype(np.float32)
        self.vf3 = self.vf[:, :, None]
        self.vf4 = self.vf[:, None, None, :]
        self.kf1 = self.kf[:, None]
        self.kf3 = self.kf[:, None, None]
        self.tpl = _TPL[ks]
        self.tplx = self.tpl[:, None, :, None, :, 0]
        self.tply = self.tpl[:, None, :, None, :, 1]
        self.tm = _TPL_MASK[ks]
        self.tm4 = self.tm[:, None, None, :]
        self.pair = (valid[:, :, None] & self.tm[:, None, :])[:, None, None]
        self.ar = np.arange(s)
        self.one = ks == 1
        self.any_one = bool(self.one.any())
        self.t_rms = np.maximum(_T_RMS[ks], 1e-6)
        self.empty_mask = _EMPTY_MASK[ks]
        self.empty_rel_t = np.where(self.one, EMPTY_T_ONE, EMPTY_T)
        other = np.ones((s, m), bool)
        if m > 1:
            other[self.ar[:, None], np.where(valid, idx, idx[:, :1])] = False
        self.other = other
        # sets of each size, in order: (k, first, last + 1)
        self.groups = [(k, int(np.nonzero(ks == k)[0][0]), int(np.nonzero(ks == k)[0][-1]) + 1)
                       for k in range(1, 7) if (ks == k).any()]


_SUB = {m: _Sub(m) for m in range(0, MAX_CANDIDATES + 1)}


def _fit(xy: np.ndarray, sub: _Sub):
    """Fit each candidate set to the layout of its size, at any rotation.

    Returns residual (S,) in units of the pip spacing, spacing a (S,) and centre (S, 2).
    The rotation is estimated from the pips' 4-fold angular moment (corners of every layout
    sit at 45 + j*90 degrees), then refined over a few angles and the 90-degree ambiguity.
    """
    vf3, kf1 = sub.vf3, sub.kf1
    p = xy[sub.idx]                                    # (S, 6, 2)
    c = (p * vf3).sum(axis=1) / kf1
    q = (p - c[:, None, :]) * vf3
    rms = np.sqrt((q * q).sum(axis=(1, 2)) / sub.kf)
    rms = np.maximum(rms, 1e-3)
    q = q / rms[:, None, None]
    z = (q[:, :, 0] + 1j * q[:, :, 1]) ** 4
    th = (np.angle(z.sum(axis=1)) - np.pi) / 4.0      # (S,)
    ang = th[:, None] + _JIT[None, :]                  # (S, J)
    cs, sn = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)
    # Rotate observations by -angle: (S, J, 6, 2)
    qx, qy = q[:, None, :, 0], q[:, None, :, 1]
    cs3, sn3 = cs[:, :, None], sn[:, :, None]
    rx = cs3 * qx + sn3 * qy
    ry = -sn3 * qx + cs3 * qy
    dx = rx[:, :, None, :, None] - sub.tplx            # (S, J, A, 6obs, 6tpl)
    dy = ry[:, :, None, :, None] - sub.tply
    dd = np.sqrt(dx * dx + dy * dy)
    # A set of k takes the first k observations and the first k template points, so one mask
    # (S, 6obs, 6tpl) pads both; padded distances are large and weigh nothing in the sums.
    dd = np.where(sub.pair, dd, 1e3)
    r_obs = (dd.min(axis=4) * sub.vf4).sum(axis=3) / sub.kf3
    r_tpl = (dd.min(axis=3) * sub.tm4).sum(axis=3) / sub.kf3
    r = 0.5 * (r_obs + r_tpl)
    flat = r.reshape(sub.s, -1)
    best = flat.argmin(axis=1)
    res = flat[sub.ar, best]
    res = np.where(sub.one, 0.0, res)
    a = rms / sub.t_rms
    jb, ab = best // _NA, best % _NA
    theta = ang[sub.ar, jb]
    # Where this layout leaves the face empty, in crop pixels (S, 8, 2).
    e = _EMPTY[sub.ks, ab]
    ct, st = np.cos(theta)[:, None], np.sin(theta)[:, None]
    ex = ct * e[:, :, 0] - st * e[:, :, 1]
    ey = st * e[:, :, 0] + ct * e[:, :, 1]
    empty = np.stack([ex, ey], axis=2) * rms[:, None, None] + c[:, None, :]
    return res.astype(np.float32), a.astype(np.float32), c, empty


def _clip01(x: np.ndarray) -> np.ndarray:
    return np.minimum(np.maximum(x, 0.0), 1.0)   # np.clip, without its wrapper's overhead


def _scores(bl: _Blobs, sub: _Sub, res: np.ndarray, a: np.ndarray, cen: np.ndarray, face: _Face,
            n: int) -> tuple[np.ndarray, np.ndarray]:
    """Confidence-like score of each candidate set; -1 where the set cannot be a face.
    Also returns each set's mean pip contrast (the empty-position penalty's scale)."""
    idx, valid, vf, kf, vf3, kf1 = sub.idx, sub.valid, sub.vf, sub.kf, sub.vf3, sub.kf1
    side = face.side
    area = bl.area[idx]
    con = bl.contrast[idx]
    mean_area = (area * vf).sum(axis=1) / kf
    sv = np.sqrt((((area - mean_area[:, None]) * vf) ** 2).sum(axis=1) / kf) / np.maximum(mean_area, 1e-6)
    con_min = np.where(valid, con, 1e9).min(axis=1)
    con_max = np.where(valid, con, -1e9).max(axis=1)
    con_sum = (con * vf).sum(axis=1)
    mcon = np.maximum(con_sum / kf, 1.0)

    def spread(x: np.ndarray) -> np.ndarray:
        mx = (x * vf3).sum(axis=1) / kf1
        dv = (x - mx[:, None, :]) * vf3
        return np.sqrt((dv * dv).sum(axis=(1, 2)) / kf)

    cv = spread(bl.colour[idx]) / mcon
    fv = spread(bl.surround[idx]) / mcon
    off = np.hypot(cen[:, 0] - face.centre[0], cen[:, 1] - face.centre[1]) / side
    pip_r = np.sqrt(mean_area / np.pi)
    one = sub.one
    lo, hi = (0.13, 0.32) if face.known else (0.11 * n / side, 0.36 * n / side)
    bad = np.where(one,
                   (off > 0.25) | (pip_r < 0.04 * side) | (pip_r > 0.2 * side),
                   (a < lo * side) | (a > hi * side) | (pip_r < 0.2 * a) | (pip_r > 0.8 * a) | (off > 0.3))
    weak = 1.0 - con_min / np.maximum(con_max, 1e-6)
    conf = (1.0 - 1.8 * res - 0.6 * sv - 0.5 * np.maximum(0.0, cv - 0.25) - 0.5 * np.maximum(0.0, fv - 0.25)
            - 0.3 * np.maximum(0.0, weak - 0.35) - 1.5 * np.maximum(0.0, off - 0.15))
    conf = np.where(one, 0.88 - 1.5 * np.maximum(0.0, off - 0.12), conf)
    if DEBUG:
        _LAST.update(terms=dict(res=1.8 * res, sv=0.6 * sv, cv=0.5 * np.maximum(0.0, cv - 0.25),
                                fv=0.5 * np.maximum(0.0, fv - 0.25), weak=0.3 * np.maximum(0.0, weak - 0.35),
                                off=1.5 * np.maximum(0.0, off - 0.15), bad=bad))
    # Candidates left out that sit on this face and look like its pips.
    m = len(bl)
    if m > 1:
        dist = np.hypot(bl.xy[None, :, 0] - cen[:, None, 0], bl.xy[None, :, 1] - cen[:, None, 1])
        on_face = np.hypot(bl.xy[:, 0] - face.centre[0], bl.xy[:, 1] - face.centre[1]) < (0.5 * side if face.known else 0.5 * n)
        inside = sub.other & ((dist < np.maximum(0.5 * side, np.where(one, 0.0, 2.1 * a))[:, None]) | on_face[None, :])
        fl = face.floor
        rel_c = np.maximum(bl.contrast[None, :] - fl, 0.0) / np.maximum(con_min - fl, 1e-6)[:, None]
        rel_a = bl.area[None, :] / np.maximum(mean_area, 1e-6)[:, None]
        similar = rel_c * _clip01(1.0 - np.abs(np.log(rel_a)) / 1.2)
        worst = np.where(inside, similar, 0.0).max(axis=1)
        conf = conf - 0.7 * _clip01(worst - 0.3)
        if DEBUG:
            _LAST["terms"]["inside"] = 0.7 * _clip01(worst - 0.3)
    return np.where(bad, -1.0, conf), con_sum


# --------------------------------------------------------------------------- read

def read_face(face: np.ndarray, mask: np.ndarray | None = None, weights: np.ndarray = LAB_W) -> FaceRead:
    """Value and confidence of an N x N axis-aligned face crop (BGR uint8). Never raises.

    The die may sit loosely in the crop (label or detector box with margin) at any rotation.
    `mask` (optional, N x N uint8) marks the die's body: pips must lie inside it. Crops of
    another size are resampled to N x N. `weights`: of Lab's L, a and b in the colour distance
    that makes a pip stand out (HUE_W: by hue more than by lightness).
    """
    try:
        return _read_face(face, mask, weights)
    except Exception as exc:  # noqa: BLE001 - a bad crop must not stop the table
        return FaceRead(None, 0.0, reason=f"error: {type(exc).__name__}")


def _read_face(face: np.ndarray, mask: np.ndarray | None, weights: np.ndarray) -> FaceRead:
    bgr = _prep(face)
    if bgr is None:
        return FaceRead(None, 0.0, reason="bad crop")
    n = N
    lab = np.multiply(cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB), weights, dtype=np.float32)
    allowed = None
    if isinstance(mask, np.ndarray) and mask.shape[:2] == (n, n):
        m8 = mask if mask.dtype == np.uint8 and mask.ndim == 2 else (mask > 0).astype(np.uint8)
        if cv2.countNonZero(m8) > 0.3 * n * n:
            # (erosion is a minimum: nonzero after it whatever the mask's nonzero values)
            body = cv2.erode(m8, _K3, iterations=max(1, n // 24)) > 0
            if np.count_nonzero(body) > 0.25 * n * n:
                allowed = body
    glare = cv2.countNonZero(cv2.inRange(bgr, (246, 246, 246), (255, 255, 255)) & _CENTRAL_U8) > 0.01 * n * n
    ref = _face_colour(lab)
    d = _dist(lab, ref)
    noise, peak = _q2(np.take(d, _DISK_IDX), 0.25, 0.99)  # the face's own texture and noise; its pips
    if peak < max(20.0, 1.6 * noise + 8.0):
        return FaceRead(None, 0.0, glare=glare, reason="no contrast on face")
    d8 = _u8(d)
    otsu, _ = cv2.threshold(np.take(d8, _DISK_IDX).reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    t_body = max(float(otsu), 1.5 * noise + 8.0, 14.0)
    fc = _body(d8, t_body, n)
    region = _DISK
    if fc.known:
        # Measure pips against the face only: the table would set the threshold otherwise.
        inner = cv2.erode(fc.filled, _K3, iterations=2) > 0
        if np.count_nonzero(inner) > 0.08 * n * n:
            region = inner
        body_ok = cv2.dilate(fc.filled, _K3) > 0
        allowed = body_ok if allowed is None else (allowed & body_ok)
    if LOCAL:
        # Marbled dice and uneven light: measure pips against the face colour around them.
        facem = (d8 <= t_body).astype(np.float32)
        num = cv2.blur(lab * facem[:, :, None], (_K_SUR, _K_SUR))
        den = cv2.blur(facem, (_K_SUR, _K_SUR))
        loc = num / np.maximum(den, 1e-3)[:, :, None]
        loc[den <= 0.15] = ref
        d = _dist(lab, loc)
        d8 = _u8(d)
    noise, peak = _q2(d[region], 0.25, 0.99)
    otsu, _ = cv2.threshold(d8[region].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    t0 = max(float(otsu), 1.5 * noise + 8.0, 14.0)
    levels = [t0, t0 + 0.35 * (peak - t0)]
    dm = cv2.blur(d, (3, 3))
    bl = _candidates(lab, d, d8, levels, allowed, n, fc.side, noise, dm)
    if DEBUG:
        _LAST.update(d=d, levels=levels, face=fc, blobs=bl, allowed=allowed)
    if bl is None:
        return FaceRead(None, 0.0, glare=glare, reason="no pips")
    fc.floor = noise
    return _choose(bl, fc, n, glare, dm)


def _empty_penalty(dmap: np.ndarray, sub: _Sub, con_sum: np.ndarray, empty: np.ndarray,
                   cen: np.ndarray, face: _Face, n: int) -> np.ndarray:
    """Evidence of pips where the layout says the face is empty (a 6 read as 4, a 5 as 4 ...).

    The pip-distance map is sampled at the layout's empty grid positions (for a 1: on rings
    where any other value has pips); a strong response there means pips were missed."""
    con = con_sum / sub.ks
    one = sub.one
    pos = empty
    mask = sub.empty_mask
    ixy = np.minimum(np.maximum(np.rint(pos).astype(int), 0), n - 1)
    val = np.where(mask, dmap[ixy[:, :, 1], ixy[:, :, 0]], 0.0).max(axis=1)
    # Empty places off the crop: part of the face is not seen, its missing pips could be there.
    out = mask & ((pos < 1) | (pos > n - 2)).any(axis=2)
    unseen = np.where(one, 0.0, 0.4 * out.sum(axis=1))
    if sub.any_one:
        r = 0.24 * face.side
        ring = np.concatenate([r * _RING16, r * 1.41 * _RING16], 0)  # (32, 2)
        pos1 = cen[:, None, :] + ring[None, :, :]
        ixy1 = np.minimum(np.maximum(np.rint(pos1).astype(int), 0), n - 1)
        val = np.where(one, dmap[ixy1[:, :, 1], ixy1[:, :, 0]].max(axis=1), val)
    rel = np.maximum(val - face.floor, 0.0) / np.maximum(con - face.floor, 1e-6)
    return EMPTY_W * np.maximum(0.0, rel - sub.empty_rel_t) + unseen


def _choose(bl: _Blobs, face: _Face, n: int, glare: bool, dmap: np.ndarray) -> FaceRead:
    sub = _SUB[len(bl)]
    idx, ks = sub.idx, sub.ks
    if sub.s == 0:
        return FaceRead(None, 0.0, glare=glare, reason="no pips")
    res, a, cen, empty = _fit(bl.xy, sub)
    sc, con_sum = _scores(bl, sub, res, a, cen, face, n)
    ep = _empty_penalty(dmap, sub, con_sum, empty, cen, face, n)
    sc = sc - ep
    if DEBUG:
        _LAST["terms"]["empty"] = ep
        _LAST["ks"], _LAST["sc"], _LAST["idx"], _LAST["a"] = ks, sc, idx, a
    if DEBUG:
        print("face", face)
        for i in range(len(ks)):
            print(ks[i], tuple(idx[i, :ks[i]]), "res", round(float(res[i]), 3), "a/side",
                  round(float(a[i]) / face.side, 3), "score", round(float(sc[i]), 3))
    # (plain Python on a few dozen scores beats a dozen tiny numpy calls)
    scl = sc.tolist()
    best_per_k = {}
    for k, i0, i1 in sub.groups:
        j = max(range(i0, i1), key=scl.__getitem__)   # first of equal maxima, as argmax
        best_per_k[k] = (scl[j], j)
    ranked = sorted(best_per_k.items(), key=lambda kv: -kv[1][0])
    value, (conf, j) = ranked[0]
    second = ranked[1][1][0] if len(ranked) > 1 else -1.0
    # A close runner-up with another value makes the reading ambiguous.
    conf = min(conf, 0.55 + 1.5 * (conf - max(second, 0.0)))
    pips = [(float(bl.xy[i, 0]), float(bl.xy[i, 1]), float(bl.area[i])) for i in idx[j, :value]]
    conf = float(min(max(conf, 0.0), 1.0))
    if conf < MIN_CONFIDENCE:
        return FaceRead(None, conf, pips=pips, glare=glare, reason=f"unsure ({value}?)")
    return FaceRead(value, conf, pips=pips, glare=glare)
