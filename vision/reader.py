"""The pip reader: camera frame in, dice values (and what made them uncertain) out.

`read` is the one entry point the rest of dicetable uses. It never raises: a bad frame gives a
Reading with a problem and no dice, because the game loop must keep running whatever the
camera sends. Pipeline: normalise the frame -> segment die bodies (vision.segment) -> read each
face on a rotated canonical crop (vision.pips) -> attach problems -> sort left to right.
"""
from __future__ import annotations

import time
from typing import Any

import cv2
import numpy as np

from vision import pips, segment, verifier as face_verifier
from vision.reader_input import exposure_problem, to_bgr
from vision.types import (
    BLURRED, DICE_TOUCHING, DIE_LEANING, FOREIGN_OBJECT, GLARE, PARTLY_OUT_OF_VIEW,
    UNSURE_VALUE, BAD_FRAME, Die, Problem, Reading,
)

_MESSAGES = {
    DICE_TOUCHING: "dice touching (separated)",
    DIE_LEANING: "die leaning: top face unclear",
    GLARE: "glare on a die face",
    PARTLY_OUT_OF_VIEW: "die partly out of view",
    UNSURE_VALUE: "die found but value unsure",
}


# The learned face verifier (vision/verifier.py) can check each classical face read. Off by
# default: on the odd (never trained on) halves it reads more dice right (nellbyler 66.9 ->
# 71.3%, casino 82.7 -> 89.9%) but does not lower the wrong-value rate (nellbyler 1.9% both;
# casino 1.4 -> 2.2%), reads a fixture's marbled 5 as a 3 at p 0.93, and costs ~0.2 ms a die.
# A table players trust must prefer "unsure" to a wrong value, so it stays opt-in.
USE_VERIFIER = False
VERIFIER_RESCUE = 0.7     # classical None: take the verifier's value at this probability or more
VERIFIER_VETO = 0.5       # classical value: the verifier names another one this surely -> None


def combine(value: int | None, conf: float, v_value: int | None, v_prob: float,
            rescue: bool = True) -> tuple[int | None, float]:
    """Classical read (value, confidence) and verifier read (value or None, probability) -> one.

    Agreement raises the confidence; a disagreement where the verifier is surer than the
    classical read (and at least VERIFIER_VETO) gives None (an unread die is
    better than a wrong one); a classical None is replaced only by a very sure verifier. The
    result is never a value the two stages disagree on with the verifier sure of its own.
    `rescue=False` (a die cut by the frame or tray edge): the verifier may only confirm or veto.
    """
    if value is not None:
        if v_value == value:
            return value, 1.0 - (1.0 - conf) * (1.0 - 0.8 * v_prob)
        if v_value is not None and v_prob >= VERIFIER_VETO and v_prob > conf:
            return None, min(conf, 1.0 - v_prob) * 0.5
        return value, conf
    if rescue and v_value is not None and v_prob >= VERIFIER_RESCUE:
        return v_value, 0.9 * v_prob
    return None, conf


def _verify(face: np.ndarray, value: int | None, conf: float, rescue: bool = True
            ) -> tuple[int | None, float]:
    v_value, v_prob = face_verifier.classify(face)
    return combine(value, conf, v_value, v_prob, rescue)


def read(frame: np.ndarray, calibration: dict | None = None, verifier: bool = USE_VERIFIER) -> Reading:
    """Every die in view, left to right, plus the problems seen. Never raises.

    `verifier`: check each face with the learned verifier (vision/verifier.py) as well."""
    t0 = time.perf_counter()
    try:
        return _read(frame, calibration, t0, verifier)
    except Exception as exc:  # noqa: BLE001 - last line of defence: the table must keep going
        size = _size_of(frame)
        return Reading((), (Problem(BAD_FRAME, f"reader failed: {type(exc).__name__}: {exc}"),),
                       ms=(time.perf_counter() - t0) * 1000, size=size)


def _size_of(frame: Any) -> tuple[int, int]:
    try:
        shp = np.asarray(frame).shape
        return (int(shp[1]), int(shp[0])) if len(shp) >= 2 else (0, 0)
    except Exception:  # noqa: BLE001
        return (0, 0)


def _calibration(cal: Any, f: float, w: int, h: int) -> tuple[tuple[int, int, int, int] | None, float | None]:
    """Pull the optional keys we use, ignoring anything malformed (calibration is a hint)."""
    tray = die_px = None
    if not isinstance(cal, dict):
        return None, None
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
    return tray, die_px


def _read(frame: Any, calibration: dict | None, t0: float, verifier: bool = USE_VERIFIER) -> Reading:
    size = _size_of(frame)
    bgr, bad = to_bgr(frame)
    if bgr is None:
        return Reading((), (bad,) if bad else (), ms=(time.perf_counter() - t0) * 1000, size=size)
    f = bgr.shape[1] / max(size[0], 1)        # <1 when a huge frame was downscaled
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    exp = exposure_problem(gray)
    if exp is not None:
        return Reading((), (exp,), ms=(time.perf_counter() - t0) * 1000, size=size)
    tray, die_px = _calibration(calibration, f, bgr.shape[1], bgr.shape[0])

    seg = segment.segment(bgr, die_px=die_px, tray=tray)
    dice: list[Die] = []
    problems: list[Problem] = []
    inv = 1.0 / f
    sharp = []
    for c in seg.candidates:
        side = max(c.size)
        face = pips.face_crop(bgr, c.centre, side, c.angle)
        mask = None
        if c.contour is not None:
            tm = pips.face_transform(c.centre, side, c.angle)
            mask = pips.crop_mask(c.contour.astype(np.float32) / seg.scale, tm)
        fr = pips.read_face(face, mask)
        codes: list[str] = []
        aspect = max(c.size) / max(min(c.size), 1e-6)
        if fr.value is None and not c.partial and not _solid_die(c, aspect, seg.die_px) \
                and not _pipped_blob(c, aspect, fr):
            continue  # not clearly a die and no readable face: a speck, a fixture, a shadow
        value, conf = fr.value, fr.confidence
        if verifier:
            value, conf = _verify(face, value, conf, rescue=not c.at_border)
        if c.partial:
            value, conf = None, 0.0   # some pips may be out of view: never guess
        if c.at_border:
            codes.append(PARTLY_OUT_OF_VIEW)
            conf *= 0.7
        if c.leaning:
            codes.append(DIE_LEANING)
            conf *= 0.8
        if c.touching:
            codes.append(DICE_TOUCHING)
        if fr.glare or c.glare:
            codes.append(GLARE)
        if value is None:
            codes.append(UNSURE_VALUE)
        sharp.append(_sharpness(face))
        box = tuple(int(round(v * inv)) for v in c.box)
        dice.append(Die(value, box, (c.centre[0] * inv, c.centre[1] * inv), round(float(conf), 3),
                        tuple(codes)))
        for code in codes:
            problems.append(Problem(code, _MESSAGES[code], box))
    for fb in seg.foreign:
        problems.append(Problem(FOREIGN_OBJECT, "large object that is not a die",
                                tuple(int(round(v * inv)) for v in fb)))
    for gb in seg.glare:
        problems.append(Problem(GLARE, "glare on the tray (a die there may be hidden)",
                                tuple(int(round(v * inv)) for v in gb)))
    if sharp and float(np.median(sharp)) < 8.0 and sum(d.value is None for d in dice) >= len(dice) / 2:
        problems.append(Problem(BLURRED, "dice too blurred to read"))
    dice.sort(key=lambda d: (d.centre[0], d.centre[1]))
    return Reading(tuple(dice), tuple(problems), ms=(time.perf_counter() - t0) * 1000, size=size)


def detect(frame: Any, calibration: dict | None = None
           ) -> list[tuple[tuple[float, float], tuple[int, int, int, int]]]:
    """Die candidates only (centre, box in frame pixels), no faces read: for the detection bench."""
    try:
        size = _size_of(frame)
        bgr, _bad = to_bgr(frame)
        if bgr is None:
            return []
        f = bgr.shape[1] / max(size[0], 1)
        tray, die_px = _calibration(calibration, f, bgr.shape[1], bgr.shape[0])
        seg = segment.segment(bgr, die_px=die_px, tray=tray)
        inv = 1.0 / f
        return [((c.centre[0] * inv, c.centre[1] * inv), tuple(int(round(v * inv)) for v in c.box))
                for c in seg.candidates]
    except Exception:  # noqa: BLE001
        return []


# A die-sized blob this full and square is kept unread (fill >= 0.78, aspect <= 1.45). A lone
# die whose body is translucent or dark against a rim or a shadow has a ragged outline (fill
# ~0.72-0.78 of its rotated box): alone on the surface it is kept down to this fill. (Allowing it
# for touching pieces as well found more nellbyler dice but added extras on oblique photos.)
SOLID_FILL_LONE = 0.72
SOLID_ASPECT_LONE = 1.4


def _solid_die(c: segment.Candidate, aspect: float, die_px: float | None) -> bool:
    """Shape alone says die (square, filled, not round, die-sized): keep it even unread."""
    if c.roundness >= 0.8 or not (c.fill >= 0.78 and aspect <= 1.45 or c.isolated
                                  and c.fill >= SOLID_FILL_LONE and aspect <= SOLID_ASPECT_LONE):
        return False
    if not (c.isolated or c.touching):
        return False   # cut out of a wall, a board, a hand: only a readable face makes it a die
    if die_px:
        side = float(np.sqrt(c.area))
        return 0.6 * die_px <= side <= 1.4 * die_px
    return True


def _pipped_blob(c: segment.Candidate, aspect: float, fr: pips.FaceRead) -> bool:
    """A lone, roughly square blob on which the face stage saw a pip layout it could not trust
    (a swirl through the pips of a marbled die): a die, returned unread rather than dropped."""
    return (c.isolated and len(fr.pips) >= 2 and aspect <= 1.3 and c.fill >= 0.7
            and c.roundness < 0.8)


def _sharpness(face: np.ndarray) -> float:
    """Std of the Laplacian on the canonical crop: pip edges make it high when in focus."""
    g = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(g, cv2.CV_32F).std())


def read_die(crop: np.ndarray, verifier: bool = USE_VERIFIER) -> tuple[int | None, float]:
    """Value and confidence of a single-die crop (the die fills the crop or sits in it).

    The face stage's own crop reader (`pips.crop_views`) locates the die, reads it both as
    located and as the whole crop, and keeps the more confident reading. Never raises.
    """
    try:
        bgr, _bad = to_bgr(crop)
        if bgr is None:
            return None, 0.0
        fr, face = pips.crop_views(bgr)
        if verifier and face is not None:
            return _verify(face, fr.value, fr.confidence)
        return fr.value, fr.confidence
    except Exception:  # noqa: BLE001
        return None, 0.0


def _warm_up() -> None:
    """One read of a tiny drawn die at import: the first call of several OpenCV and numpy
    routines costs far more than the later ones, and the first real frame should not pay it."""
    img = np.full((96, 128, 3), 70, np.uint8)
    cv2.rectangle(img, (44, 30), (78, 64), (235, 235, 235), -1)
    for x, y in ((52, 38), (70, 38), (61, 47), (52, 56), (70, 56)):
        cv2.circle(img, (x, y), 3, (20, 20, 20), -1)
    read(img)
    read(img, verifier=False)


_warm_up()
