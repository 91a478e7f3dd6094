"""The pip reader: camera frame in, dice values (and what made them uncertain) out.

`read` is the one entry point the rest of dicetable uses. It never raises: a bad frame gives a
Reading with a problem and no dice, because the game loop must keep running whatever the
camera sends. Pipeline: normalise the frame -> segment die bodies (vision.segment) -> read each
face on a rotated canonical crop (vision.pips) -> attach problems -> sort left to right.

This module keeps that flow and the nets' steps; its inputs and checks have modules of their
own: vision/reader_input.py (the frame), vision/reader_calibration.py (the calibration's
hints), vision/pending_dice.py (the read dice and the frame-wide doubts on them) and
vision/blur.py (focus and camera shake).
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import dicenet, pips, segment
from vision.blur import SHAKE_SURE, _camera_shaken, _directional_sharpness, _sharpness  # noqa: F401 - (its test)
from vision.die_size import OwnSize, bigger_dice, reads_better, smaller_size, smaller_told
from vision.glare_look import glare_looked_again
from vision.pending_dice import (  # noqa: F401 - _outline_unseen: re-exported (its test)
    LONE_PIP_SIZE, _on_another_face, _ones_inside_a_bigger_face, _outline_unseen, _Pending, _side_of,
)
from vision.reader_calibration import _calibration, _wall_edges, _walls, calibration_scale
from vision.reader_input import brightened, exposure_problem, has_lit_detail, to_bgr
from vision.tray_moved import Knock, felt_past_both, felt_past_tray, moved_words, tray_shift, tray_zoom
from vision.types import (
    BLURRED, CAMERA_MOVED, DICE_TOUCHING, DIE_LEANING, FOREIGN_OBJECT, GLARE, PARTLY_OUT_OF_VIEW,
    TOO_DARK, UNSURE_VALUE, BAD_FRAME, Die, Problem, Reading,
)

_MESSAGES = {
    DICE_TOUCHING: "dice touching (separated)",
    DIE_LEANING: "die leaning: top face unclear",
    GLARE: "glare on a die face",
    PARTLY_OUT_OF_VIEW: "die partly out of view",
    UNSURE_VALUE: "die found but value unsure",
}


# The learned stages (vision/dicenet.py) find the dice and read their faces when their model
# files load; the classical segmenter still runs for what it alone reports (leaning dice, hands
# and other objects, glare on the tray, dice cut by the edge) and gives the die size.
USE_LEARNED = True
NET_MIN_PROB = 0.75       # the classifier must be this sure of a value; below, the die is "unsure"
NET_AGREE_PROB = 0.4      # ... or this sure, when the classical face stage reads the same value
SECOND_LOOK_FROM = 0.3    # a die read this sure but below NET_MIN_PROB is looked at again
USE_VERIFIER = True       # the verifier net reads what the classifier is unsure of (when its file is there)
VERIFY_BELOW = 0.9        # ... the dice the classifier reads less sure than this
GLARE_LOOK = True         # a die read in a lamp's glare is looked at again (vision.glare_look)
NET_SURE_DIE = 0.5        # an unread find with no classical blob is kept only with this much heat
NET_NOT_DIE = 0.5         # "not a die" this likely (and likelier than any value): dropped
CROP_SHARPNESS = 0.5      # classifier crops are smaller than face crops: their Laplacian runs higher
# An oblong outline alone does not make a die leaning: a flat die seen off the camera's axis
# shows a band of side face too (on the nellbyler trays 52 of the 909 labelled dice, all lying
# flat, were flagged by outline alone; a top-down camera's wide lens does the same near the
# tray's edges). The top face of a cocked die is tilted and foreshortened, and one on its edge
# shows two faces: its read is what tells them apart. The cost: a die cocked up to ~20-30
# degrees whose top face still reads clearly is reported with that face's value.
LEANING_CLEAR_READ = 0.9  # a die read at least this sure is not reported leaning, whatever its outline
LEANING_NOT_DIE = 0.9     # an oblong blob the detector passed over, "not a die" this likely: dropped
LEANING_SAME_DIE = 0.6    # ... or one this close (x die side) to a reported die: its side face or shadow
# The classical blobs' outlines are redone at full resolution (segment.Segmentation.refined, ~0.2
# ms a blob) only where they decide something: the dice read less sure than this on the
# detector's crop (the tight outline's crop is read too where the two disagree: a die whose
# side face the detector took in reads better on its top face alone), dice whose coarse blob
# already disagrees with the detector's find however sure its read (a die found by its corner:
# a crop of one corner of a 2 shows a 1), dice near the edge of the view (cut?), unsure ones
# (leaning?), glare, and the blobs the detector passed over.
SECOND_VIEW_BELOW = 0.9
RESCALE_RATIO = 1.6       # a frame that reads badly is read again at the detector's own die size this far off
PART_OF_BLOB = 0.75       # a find this much smaller than its blob, and off its centre, saw part of a die
DETECT_MARGIN = 1.5       # the detector looks this many die sides around what the segmenter saw


def read(frame: np.ndarray, calibration: dict | None = None, learned: bool = USE_LEARNED) -> Reading:
    """Every die in view, left to right, plus the problems seen. Never raises.

    `learned=False` uses the classical stages alone (also what happens when the model files
    are missing)."""
    t0 = time.perf_counter()
    try:
        # a net that fails to run on any runtime is set aside by dicenet (told once): the frame
        # is read again without it, as when its model file is missing (at most once a net)
        for _ in range(3):
            try:
                return _read(frame, calibration, t0, learned)
            except dicenet.NetFailed:
                pass
        return _read(frame, calibration, t0, learned)
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


def _shift_words(shift: tuple[int, int], frame_per_px: float) -> str:
    """"12 px right, 20 px up": a tray's move in the camera frame's pixels."""
    return Knock(shift[0], shift[1]).words(frame_per_px).removeprefix("moved ")


def _read(frame: Any, calibration: dict | None, t0: float, learned: bool = USE_LEARNED, resized: bool = False,
          own: OwnSize | None = None) -> Reading:
    """`read`; `own`: the frame's segmentation without a die size, from the read at the
    calibrated size when this one reads the same frame again at the dice's own size."""
    size = _size_of(frame)
    bgr, bad = to_bgr(frame)
    if bgr is None:
        return Reading((), (bad,) if bad else (), ms=(time.perf_counter() - t0) * 1000, size=size)
    f = bgr.shape[1] / max(size[0], 1)        # <1 when a huge frame was downscaled
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    exp = exposure_problem(gray)
    # A dark frame with some detail lit enough to read is a dark tray or a dim room, not a dark
    # camera: it is read, and "too dark" stands only if no die reads (black dice on black felt).
    if exp is not None and not (exp.code == TOO_DARK and has_lit_detail(bgr)):
        return Reading((), (exp,), ms=(time.perf_counter() - t0) * 1000, size=size)
    bgr = brightened(bgr)
    tray, die_px, other_shape = _calibration(calibration, size, f, bgr.shape[1], bgr.shape[0])
    # a knocked camera or a pushed tray: dice on the felt outside the calibrated box would not be
    # read at all; the whole view is read instead (the die size still holds), and the staff told
    walls = _walls(calibration)
    edges = _wall_edges(calibration, f * (calibration_scale(calibration, size) or 1.0)) if tray is not None else {}
    moved = felt_past_tray(bgr, tray, walls) if tray is not None else None
    # (unless the felt's edges show the tray grown about the frame's centre: a camera lowered)
    zoom = tray_zoom(bgr, tray, walls, edges) if moved is not None and tray is not None else None
    # (or the felt past both sides of an axis, past the edges' reach: lowered so far the walls leave the frame)
    grown = felt_past_both(bgr, tray, walls) if moved is not None and zoom is None and tray is not None else None
    if moved is not None and zoom is None:
        tray = None
    # knocked by a little, the felt stays inside that band: the tray is found again as calibration
    # finds it, and the box moved with it (a die by the wall was "partly out of view", then unread)
    # (with the felt's edges the calibration measured, moves from 4 px and turns from 0.5 degrees;
    # a camera raised or lowered from 2%: the box and the dice's size scaled with the tray)
    shift = zoom or (tray_shift(bgr, tray, walls, edges) if tray is not None else None)
    if zoom is not None:
        moved = None
    if shift is not None and tray is not None:
        tray = shift.box(tray, bgr.shape[1], bgr.shape[0])
        die_px = die_px * shift.scale if die_px is not None else None

    learned = learned and dicenet.available()
    # (the learned path redoes the blobs' outlines at full resolution only where they matter)
    seg = segment.segment(bgr, die_px=die_px, tray=tray, refine=not learned)
    # dice bigger than the calibrated ones would be "objects that are not dice": read at their size
    # (segmented without a die size once a frame, for both size checks and the read again)
    own_size = own if own is not None and own.tray == tray else OwnSize(bgr, tray, seg)
    other_size = bigger_dice(bgr, seg, die_px, tray, not learned, 1.0 / f, own_size) if die_px is not None else None
    if other_size is not None:
        seg, die_px = other_size[0], other_size[1]
    dice: list[Die] = []
    problems: list[Problem] = []
    inv = 1.0 / f
    sharp: list[tuple[np.ndarray, float]] = []   # (crop, scale of its sharpness), one a die
    if learned:
        finds = _learned_dice(bgr, seg, die_px, tray, inv, dice, problems, sharp)
        if die_px is None and (2 * _n_read(dice) < max(finds, len(dice), 1) or _mostly_ones(dice)):
            seg = _at_the_detectors_scale(bgr, seg, tray, inv, dice, problems, sharp)
    else:
        _classical_dice(bgr, seg, inv, dice, problems, sharp)
    if exp is not None and not _n_read(dice):
        return Reading((), (exp,), ms=(time.perf_counter() - t0) * 1000, size=size)
    if other_shape is not None:
        problems.append(other_shape)
    if other_size is not None:
        problems.append(other_size[2])
    if grown is not None:
        problems.append(Problem(CAMERA_MOVED, f"the camera was lowered since calibration (its felt reaches past the "
                                              f"{grown[0]} and {grown[1]} sides): run dicetable calibrate again"))
    elif moved is not None:
        problems.append(Problem(CAMERA_MOVED, f"the tray is not where it was calibrated (its felt reaches past "
                                              f"the {moved} side): run dicetable calibrate again"))
    elif shift is not None:
        problems.append(Problem(CAMERA_MOVED, moved_words(shift, 1.0 / f)))
    for fb in seg.foreign:
        problems.append(Problem(FOREIGN_OBJECT, "large object that is not a die",
                                tuple(int(round(v * inv)) for v in fb)))
    for gb in seg.glare:
        problems.append(Problem(GLARE, "glare on the tray (a die there may be hidden)",
                                tuple(int(round(v * inv)) for v in gb)))
    # (sharpness is measured only when it could matter: most dice unread)
    if sharp and sum(d.value is None for d in dice) >= len(dice) / 2 \
            and float(np.median([_sharpness(img) * k for img, k in sharp])) < 8.0:
        problems.append(Problem(BLURRED, "dice too blurred to read"))
    elif dice and _camera_shaken(bgr, dice, f):
        problems.append(Problem(BLURRED, "dice smeared: the camera moved during the exposure"))
        dice = [_unsure(d, problems) if d.value is not None and d.confidence < SHAKE_SURE else d for d in dice]
    dice.sort(key=lambda d: (d.centre[0], d.centre[1]))
    reading = Reading(tuple(dice), tuple(problems), ms=(time.perf_counter() - t0) * 1000, size=size)
    if die_px is not None and other_size is None and not resized and isinstance(calibration, dict):
        reading = _at_smaller_size(frame, calibration, t0, learned, bgr, die_px, tray, reading, len(seg.candidates),
                                   1.0 / f, own_size)
    return reading


def _at_smaller_size(frame: Any, calibration: dict, t0: float, learned: bool, bgr: np.ndarray, die_px: float,
                     tray: tuple[int, int, int, int] | None, reading: Reading, blobs: int,
                     frame_per_px: float, own_size: OwnSize | None = None) -> Reading:
    """`reading` (at the calibrated `die_px`, px of `bgr`; `blobs` the calibrated segmentation's
    candidates), or, when it asks for something or found dice the segmentation did not, and
    the dice are smaller than calibrated, the frame read again at their size with the staff's
    notice, if that reads it better (vision/die_size.py)."""
    own = smaller_size(bgr, die_px, tray, reading, blobs, own_size, frame_per_px)
    if own is None:
        return reading
    cal = dict(calibration, die_px=float(calibration["die_px"]) * own / die_px)
    again = _read(frame, cal, t0, learned, resized=True, own=own_size)
    if not reads_better(again, reading):
        return reading
    told = smaller_told(own * frame_per_px, die_px * frame_per_px)
    return Reading(again.dice, again.problems + (told,), ms=(time.perf_counter() - t0) * 1000, size=again.size)


def _learned_dice(bgr: np.ndarray, seg: segment.Segmentation, die_px: float | None,
                  tray: tuple[int, int, int, int] | None, inv: float,
                  dice: list[Die], problems: list[Problem], sharp: list[tuple[np.ndarray, float]]) -> int:
    """Dice found and read by the learned stages, with the classical candidates' flags.
    Returns how many of the detector's finds the classifier did not call "not a die" (some of
    those are dropped too: not read, and backed by nothing)."""
    found = _detector_finds(bgr, seg, die_px)
    h, w = bgr.shape[:2]
    x0, y0, x1, y1 = tray if tray is not None else (0, 0, w, h)
    # inside the tray (a die half over its edge is kept, and reported cut), not on a hand
    found = [f for f in found if x0 - 0.3 * f.side <= f.centre[0] <= x1 + 0.3 * f.side
             and y0 - 0.3 * f.side <= f.centre[1] <= y1 + 0.3 * f.side
             and not any(b[0] <= f.centre[0] <= b[2] and b[1] <= f.centre[1] <= b[3] for b in seg.foreign)]
    claimed: set[int] = set()
    matched: list[segment.Candidate | None] = []   # (as segmented: coarse outlines)
    for f in found:
        c = _nearest(seg.candidates, f, claimed)
        if c is not None:
            claimed.add(id(c))
        matched.append(c)
    # blobs the detector passed over are proposals too (a die against a wall in an unusual
    # light): the classifier reads them like the rest, and only a read one is kept
    n_found = len(found)
    for c in (c for c in seg.candidates if id(c) not in claimed):
        r = seg.refined(c)
        if not r.leaning:
            found.append(dicenet.Found(r.centre, _side_of(r.box), 0.0))
            matched.append(c)
    views = [(f.centre, f.side) for f in found]
    crops = dicenet.crops(bgr, views)
    first = dicenet.classify(crops)
    # Where the two stages disagree on where a die is (a die against a wall found by its corner,
    # a die whose side face the detector took in), the classical blob's tight crop is read as
    # well and the surer read kept: for the dice read less than SECOND_VIEW_BELOW sure, and for
    # any whose coarse blob already disagrees with the find.
    second: dict[int, int] = {}
    for i, (f, c) in enumerate(zip(found, matched)):
        if c is not None and (float(first[i, 1:].max()) < SECOND_VIEW_BELOW or _disagree(f, c)):
            r = seg.refined(c)
            if _disagree(f, r):
                second[i] = len(views)
                views.append((r.centre, _side_of(r.box)))
    if len(views) > len(found):
        more = dicenet.crops(bgr, views[len(found):])
        crops = np.concatenate([crops, more])
        first = np.concatenate([first, dicenet.classify(more)])
    probs = _second_look(bgr, views, crops, first)
    used: set[int] = set()
    die_like = 0            # detector finds the classifier did not call "not a die"
    pending: list[_Pending] = []      # the dice to report, once the frame-wide checks are done
    for i, (f, c) in enumerate(zip(found, matched)):
        p, crop, centre = probs[i], crops[i], f.centre
        j = second.get(i)
        # a find smaller than its blob and off its centre saw part of a die (a crop of one
        # corner of a 2 shows a 1): when the blob's own crop reads another value, neither is trusted
        split_views = j is not None and _part_of_blob(f, seg.refined(c)) \
            and dicenet.best_value(probs[j])[0] != dicenet.best_value(p)[0]
        if j is not None and probs[j][1:].max() > p[1:].max():
            p, crop, centre = probs[j], crops[j], seg.refined(c).centre
        k, pk = dicenet.best_value(p)
        pbg = float(p[0])
        if _not_a_die(p):
            continue
        disc = _round_thing(centre, f.side, c, seg.discs)
        if disc is not None:
            # a coin or a token, however die-like its face: no value, and the players are told
            problems.append(Problem(FOREIGN_OBJECT, "round object (a coin or a token?), not a die",
                                    tuple(int(round(v * inv)) for v in disc)))
            continue
        die_like += i < n_found
        value: int | None = k if pk >= NET_MIN_PROB and not split_views else None
        conf = pk
        if i >= n_found and value is None:
            continue  # a classical blob the classifier cannot read either: a speck, a fixture
        if value is None and c is None and (f.score < NET_SURE_DIE or pbg >= 0.2):
            continue  # neither read nor backed by a classical blob: likely a pattern, not a die
        if value is None and c is not None and pk >= NET_AGREE_PROB:
            # unsure: the classical face stage reads the same die on its own; agreement counts
            agreed = _classical_agrees(bgr, seg.refined(c), seg, k)
            if agreed is not None:
                value, conf = k, 1.0 - (1.0 - pk) * (1.0 - agreed)
        clear_face = value is not None and conf >= LEANING_CLEAR_READ
        if c is not None:
            used.add(id(c))
            if not clear_face or c.glare or _near_edge(c.box, (x0, y0, x1, y1), f.side):
                c = seg.refined(c)
        bx0, by0, bx1, by1 = f.box
        box = (max(0, bx0), max(0, by0), min(w, bx1), min(h, by1))
        # a die whose centre is this close to the edge of the view (tray) is cut: over a fifth of
        # it is out. The classical blob's centre, when there is one, is the die's outline at full
        # resolution; the detector's can sit a few pixels off against a wall.
        m = 0.3 * (die_px or (min(max(c.size), f.side) if c is not None else f.side))
        cx, cy = c.centre if c is not None else centre
        cut = not (x0 <= cx - m and cx + m <= x1 and y0 <= cy - m and cy + m <= y1)
        codes: list[str] = []
        if c is not None:
            box = c.box
            cut = cut or c.partial
        if cut:
            value, conf = None, 0.0   # some pips may be out of view: never guess
        if cut or c is not None and c.at_border:
            codes.append(PARTLY_OUT_OF_VIEW)
            conf *= 0.7
        if c is not None and c.leaning and not clear_face:
            codes.append(DIE_LEANING)
            conf *= 0.8
        if c is not None and c.touching:
            codes.append(DICE_TOUCHING)
        if c is not None and c.glare:
            codes.append(GLARE)
        if value is None:
            codes.append(UNSURE_VALUE)
        sharp.append((crop, CROP_SHARPNESS))
        pending.append(_Pending(value, box, centre, conf, codes, f.side))
    for i, p in _small_ones_read_again(bgr, pending).items():
        if dicenet.best_value(p)[0] != 1:      # one pip of a bigger die: its centre is off, never guess
            pending[i].make_unsure(min(pending[i].conf, float(p[1])))
    doubted = _on_another_face(pending) + _ones_inside_a_bigger_face(bgr, pending)
    for d in {id(d): d for d in doubted}.values():       # (a die in both is made unsure once)
        d.make_unsure(0.0)
    if GLARE_LOOK:       # a die in a lamp's glare: a second, turned look
        glare_looked_again(bgr, pending, _verifier())
    for d in pending:
        _add(dice, problems, d.value, d.box, d.centre, d.conf, d.codes, inv)
    _edge_on_dice(bgr, [r for r in map(seg.refined, (c for c in seg.candidates if id(c) not in used))
                        if r.leaning], [(d.centre, d.side) for d in pending], dice, problems, inv)
    return die_like


def _small_ones_read_again(bgr: np.ndarray, pending: list[_Pending]) -> dict[int, np.ndarray]:
    """The dice read 1 that are clearly smaller than the frame's other dice, read again at their
    size: {index into `pending`: class probabilities}.

    Where the segmenter sees no body (black dice on black felt show it only their pips), the
    detector may take one pip of a 2 for a small die, and the classifier reads its crop as a 1,
    surely. Such a find is clearly smaller than the other dice, so a die read 1 under
    LONE_PIP_SIZE of their median side is read again at that side (by the verifier): a pip of a
    2 now shows its neighbour and reads 2, a real small die still reads 1 (sets mix sizes: on
    the Byler trays all 11 such 1s do)."""
    sides = [(i, d.side) for i, d in enumerate(pending) if d.value is not None]
    views: list[tuple[tuple[float, float], float]] = []
    which: list[int] = []
    for i, d in enumerate(pending):
        if d.value != 1:
            continue
        others = [s for j, s in sides if j != i]
        if len(others) < 2:
            continue
        typical = float(np.median(others))
        if d.side < LONE_PIP_SIZE * typical:
            views.append((d.centre, typical))
            which.append(i)
    if not views:
        return {}
    model = _verifier()
    probs = dicenet.classify(dicenet.crops(bgr, views, dicenet.VERIFY_SIZE if model else None), model)
    return dict(zip(which, probs))


def _at_the_detectors_scale(bgr: np.ndarray, seg: segment.Segmentation,
                            tray: tuple[int, int, int, int] | None, inv: float, dice: list[Die],
                            problems: list[Problem], sharp: list[tuple[np.ndarray, float]]) -> segment.Segmentation:
    """Fewer than half the detector's finds read (or none found) at the segmenter's die size:
    was that size wrong?

    Black dice on black felt, or translucent dice of the felt's colour, show the segmenter
    little but their pips, and its die size comes out a third of the real one; the detector
    then looks for dice that small and reads a crop around one pip of a 2 as a 1. The detector
    measures the dice itself (its coarse passes); where that is over RESCALE_RATIO off the
    segmenter's size, the frame is read again at it, and that reading is kept unless it reads
    fewer dice, the first reading's dice that lie in one die of the second counted once (pips of
    one die). (Only for frames that read badly, or read mostly 1s, the face a lone pip shows:
    the segmenter's size is the better one on the whole, see docs/vision.md.)"""
    side = dicenet.die_size(bgr)
    if not side or seg.die_px and max(side / seg.die_px, seg.die_px / side) < RESCALE_RATIO:
        return seg
    seg2 = segment.segment(bgr, die_px=side, tray=tray, refine=False, like=seg)
    dice2: list[Die] = []
    problems2: list[Problem] = []
    sharp2: list[tuple[np.ndarray, float]] = []
    _learned_dice(bgr, seg2, side, tray, inv, dice2, problems2, sharp2)
    if _n_read(dice2) < _n_read_apart(dice, dice2):
        return seg
    dice[:], problems[:], sharp[:] = dice2, problems2, sharp2
    return seg2


def _detector_finds(bgr: np.ndarray, seg: segment.Segmentation, die_px: float | None) -> list[dicenet.Found]:
    """The detector's finds at the calibrated die size (else the segmenter's), looking only
    around what the segmenter saw and starting from its downscaled copy of the frame."""
    return dicenet.find_dice(bgr, die_px or seg.die_px, region=_where_to_look(seg), area=seg.work)


def _where_to_look(seg: segment.Segmentation) -> dicenet.Box | None:
    """The part of the frame the detector reads: around what the segmenter saw (None: all of it).

    Dice lie on a small part of a tray, and the detector's time goes with the pixels it reads
    (on the Byler trays as 640x480, a median 43% of the frame: ~1.3 ms less). Whatever differs from the tray's
    surface, down to the lone pip of a die the felt's colour, is in `seg.seen`; the margin is
    for a die beside it that the colour cue missed altogether, and for the net's view around a
    die. A frame where the segmenter found no die-like blob is read whole: its colour cue has
    failed there. (Where its die size was far off, what it saw is redone at the detector's
    size: `_at_the_detectors_scale`.)"""
    if seg.seen is None or not seg.candidates or not seg.die_px:
        return None
    m = DETECT_MARGIN * seg.die_px
    x0, y0, x1, y1 = seg.seen
    return (x0 - m, y0 - m, x1 + m, y1 + m)


def _mostly_ones(dice: list[Die]) -> bool:
    """Two or more dice read, at least half of them 1s: maybe pips read as dice."""
    ones = sum(d.value == 1 for d in dice)
    return ones >= 2 and 2 * ones >= _n_read(dice)


def _n_read_apart(dice: list[Die], bigger: list[Die]) -> int:
    """How many of `dice` were given a value, those whose centres lie in one die of `bigger`
    (read at a larger scale) counted once: they were parts of one die."""
    seen: set[int] = set()
    n = 0
    for d in dice:
        if d.value is None:
            continue
        j = next((j for j, b in enumerate(bigger)
                  if b.box[0] <= d.centre[0] <= b.box[2] and b.box[1] <= d.centre[1] <= b.box[3]), None)
        if j is None or j not in seen:
            n += 1
        if j is not None:
            seen.add(j)
    return n


def _unsure(d: Die, problems: list[Problem]) -> Die:
    """`d` without its value (the frame doubts it), and the problem said."""
    problems.append(Problem(UNSURE_VALUE, _MESSAGES[UNSURE_VALUE], d.box))
    return Die(None, d.box, d.centre, d.confidence, d.problems + (UNSURE_VALUE,))


def _n_read(dice: list[Die]) -> int:
    """How many of the dice were given a value."""
    return sum(d.value is not None for d in dice)


def _edge_on_dice(bgr: np.ndarray, oblong: list[segment.Candidate],
                  reported: list[tuple[tuple[float, float], float]],
                  dice: list[Die], problems: list[Problem], inv: float) -> None:
    """Oblong blobs no reported die stands for: a die on its edge (the classifier rightly sees
    no face, but the die must be reported, unread and leaning), unless the blob lies on a
    reported die (its side face or its shadow) or the classifier is sure it is no die at all
    (a wall's corner, a shadow between dice). Rare, so their crops are a batch of their own."""
    oblong = [c for c in oblong
              if not any(np.hypot(c.centre[0] - x, c.centre[1] - y) < LEANING_SAME_DIE * max(_side_of(c.box), s)
                         for (x, y), s in reported)]
    if not oblong:
        return
    probs = dicenet.classify(dicenet.crops(bgr, [(c.centre, _side_of(c.box)) for c in oblong]))
    for c, p in zip(oblong, probs):
        if float(p[0]) < LEANING_NOT_DIE:
            _add(dice, problems, None, c.box, c.centre, 0.0, [DIE_LEANING, UNSURE_VALUE], inv)


def _second_look(bgr: np.ndarray, views: list[tuple[tuple[float, float], float]], crops: np.ndarray,
                 probs: np.ndarray) -> np.ndarray:
    """Dice the classifier is not sure of are looked at again; the sure ones (most) are not.

    With the verifier (a net with twice the classifier's multiply-adds, too slow for every die)
    the dice the classifier reads less than VERIFY_BELOW sure get the verifier's reading
    instead, and those the verifier is unsure of are also turned. Without it the classifier's
    own unsure dice are turned."""
    model = _verifier()
    if model is None:
        return _turned_if_unsure(crops, probs, None)
    doubt = _sure_between(probs, SECOND_LOOK_FROM, VERIFY_BELOW)
    if len(doubt):
        probs = probs.copy()
        vcrops = crops[doubt] if crops.shape[1] == dicenet.VERIFY_SIZE \
            else dicenet.crops(bgr, [views[i] for i in doubt], dicenet.VERIFY_SIZE)
        probs[doubt] = _turned_if_unsure(vcrops, dicenet.classify(vcrops, model), model)
    return probs


def _verifier() -> Path | None:
    """The verifier's model file when it is used and loads; None: the classifier looks again."""
    return dicenet.VERIFY_FILE if USE_VERIFIER and dicenet.verifier_available() else None


def _turned_if_unsure(crops: np.ndarray, probs: np.ndarray, model: Path | None) -> np.ndarray:
    """The unsure rows of `probs` averaged over the crops' four right-angle turns."""
    unsure = _sure_between(probs, SECOND_LOOK_FROM, NET_MIN_PROB)
    if len(unsure):
        probs = probs.copy()
        probs[unsure] = dicenet.classify_turned(crops[unsure], probs[unsure], model)
    return probs


def _sure_between(probs: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Indices of the rows whose likeliest value has a probability in [lo, hi)."""
    if not len(probs):
        return np.zeros(0, np.intp)
    top = probs[:, 1:].max(axis=1)
    return np.nonzero((top >= lo) & (top < hi))[0]


def _classical_face(bgr: np.ndarray, c: segment.Candidate, seg: segment.Segmentation
                    ) -> tuple[pips.FaceRead, np.ndarray]:
    """The classical face stage on a candidate: its canonical crop, read under its outline."""
    face, mask = _face_and_mask(bgr, c, seg)
    return pips.read_face(face, mask), face


def _classical_agrees(bgr: np.ndarray, c: segment.Candidate, seg: segment.Segmentation,
                      value: int) -> float | None:
    """The classical face stage's confidence when it reads `value` on its own (0.5 or more),
    weighing colour as usual or else by hue (coloured pips on a swirled body); else None."""
    face, mask = _face_and_mask(bgr, c, seg)     # (one crop for both weighings)
    for weights in (pips.LAB_W, pips.HUE_W):
        fr = pips.read_face(face, mask, weights)
        if fr.value == value and fr.confidence >= 0.5:
            return fr.confidence
    return None


def _face_and_mask(bgr: np.ndarray, c: segment.Candidate, seg: segment.Segmentation
                   ) -> tuple[np.ndarray, np.ndarray | None]:
    """A candidate's canonical face crop, and its outline in that crop (None without one)."""
    side = max(c.size)
    face = pips.face_crop(bgr, c.centre, side, c.angle)
    if c.contour is None:
        return face, None
    tm = pips.face_transform(c.centre, side, c.angle)
    return face, pips.crop_mask(c.contour.astype(np.float32) / seg.scale, tm)


def _round_thing(centre: tuple[float, float], side: float, c: segment.Candidate | None,
                 discs: list[tuple[float, float, float]]) -> tuple[float, float, float, float] | None:
    """The box of the die-sized disc this find lies on (a coin, a board game's number token),
    or None. A die's top face is a square: the learned stages read a disc with a mark at its
    centre as a 1, but its outline is round (segment.DISC). A find nearer its own square blob
    than the disc is that die."""
    for x, y, r in discs:
        d = np.hypot(centre[0] - x, centre[1] - y)
        if d < 0.5 * r and 0.3 * side <= r <= 0.9 * side \
                and (c is None or d < np.hypot(centre[0] - c.centre[0], centre[1] - c.centre[1])):
            return x - r, y - r, x + r, y + r
    return None


def _not_a_die(p: np.ndarray) -> bool:
    """The classifier's "not a die" is likely, and likelier than any value."""
    return float(p[0]) >= NET_NOT_DIE and float(p[0]) >= float(p[1:].max())


def _near_edge(box: tuple[int, int, int, int], view: tuple[int, int, int, int], margin: float) -> bool:
    """`box` comes within `margin` of the view's edge (where a die may be cut)."""
    return (box[0] - view[0] < margin or box[1] - view[1] < margin
            or view[2] - box[2] < margin or view[3] - box[3] < margin)


def _disagree(f: dicenet.Found, c: segment.Candidate) -> bool:
    cside = _side_of(c.box)
    return abs(cside - f.side) > 0.3 * cside or _off_centre(f, c)


def _part_of_blob(f: dicenet.Found, c: segment.Candidate) -> bool:
    """The find is clearly smaller than the blob and off its centre: it saw part of it."""
    return f.side < PART_OF_BLOB * _side_of(c.box) and _off_centre(f, c)


def _off_centre(f: dicenet.Found, c: segment.Candidate) -> bool:
    """The find is over a quarter of the blob's side away from its centre."""
    return float(np.hypot(c.centre[0] - f.centre[0], c.centre[1] - f.centre[1])) > 0.25 * _side_of(c.box)


def _nearest(cands: list[segment.Candidate], f: dicenet.Found, used: set[int]) -> segment.Candidate | None:
    """The classical candidate of this found die: the nearest whose centre is within half a die
    of it, or else one whose box holds the found centre."""
    best, bd = None, 0.5 * f.side
    for c in cands:
        d = float(np.hypot(c.centre[0] - f.centre[0], c.centre[1] - f.centre[1]))
        if d < bd and id(c) not in used:
            best, bd = c, d
    if best is None:
        for c in cands:
            if id(c) not in used and c.box[0] <= f.centre[0] <= c.box[2] and c.box[1] <= f.centre[1] <= c.box[3]:
                return c
    return best


def _add(dice: list[Die], problems: list[Problem], value: int | None, box: Any, centre: tuple[float, float],
         conf: float, codes: list[str], inv: float) -> None:
    box = tuple(int(round(v * inv)) for v in box)
    dice.append(Die(value, box, (centre[0] * inv, centre[1] * inv), round(float(conf), 3), tuple(codes)))
    for code in codes:
        problems.append(Problem(code, _MESSAGES[code], box))


def _classical_dice(bgr: np.ndarray, seg: segment.Segmentation, inv: float,
                    dice: list[Die], problems: list[Problem], sharp: list[tuple[np.ndarray, float]]) -> None:
    """Dice found by the classical segmenter and read by the classical face stage."""
    for c in seg.candidates:
        fr, face = _classical_face(bgr, c, seg)
        codes: list[str] = []
        aspect = max(c.size) / max(min(c.size), 1e-6)
        if fr.value is None and not c.partial and not _solid_die(c, aspect, seg.die_px) \
                and not _pipped_blob(c, aspect, fr):
            continue  # not clearly a die and no readable face: a speck, a fixture, a shadow
        value, conf = fr.value, fr.confidence
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
        sharp.append((face, 1.0))
        _add(dice, problems, value, c.box, c.centre, conf, codes, inv)


def detect(frame: Any, calibration: dict | None = None, learned: bool = USE_LEARNED
           ) -> list[tuple[tuple[float, float], tuple[int, int, int, int]]]:
    """Die candidates only (centre, box in frame pixels), no faces read: for the detection bench.
    The learned detector's finds (before the classifier drops what is not a die), or the
    classical segmenter's candidates."""
    try:
        size = _size_of(frame)
        bgr, _bad = to_bgr(frame)
        if bgr is None:
            return []
        bgr = brightened(bgr)
        f = bgr.shape[1] / max(size[0], 1)
        tray, die_px, _ = _calibration(calibration, size, f, bgr.shape[1], bgr.shape[0])
        inv = 1.0 / f
        if learned and dicenet.available():
            seg = segment.segment(bgr, die_px=die_px, tray=tray, refine=False)
            found = _detector_finds(bgr, seg, die_px)
            probs = dicenet.classify(dicenet.crops(bgr, [(d.centre, d.side) for d in found]))
            # what the classifier calls "not a die" (fixtures, screw heads) is not found, nor a
            # die-like find on a disc (a coin)
            keep = [d for d, p in zip(found, probs)
                    if not _not_a_die(p) and _round_thing(d.centre, d.side, None, seg.discs) is None]
            return [((d.centre[0] * inv, d.centre[1] * inv), tuple(int(round(v * inv)) for v in d.box))
                    for d in keep]
        seg = segment.segment(bgr, die_px=die_px, tray=tray)
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


def read_die(crop: np.ndarray, learned: bool = USE_LEARNED) -> tuple[int | None, float]:
    """Value and confidence of a single-die crop (the die fills most of the crop).

    The learned classifier (with its second look) reads the crop when it is sure; otherwise the
    classical crop reader (`pips.crop_views`: locates the die, reads it as located and as the
    whole crop) answers.
    Never raises.
    """
    try:
        bgr, _bad = to_bgr(crop)
        if bgr is None:
            return None, 0.0
        if learned and dicenet.available():
            h, w = bgr.shape[:2]
            view = [((w / 2, h / 2), 0.8 * min(w, h))]
            net_crop = dicenet.crops(bgr, view)
            p = _second_look(bgr, view, net_crop, dicenet.classify(net_crop))[0]
            k, pk = dicenet.best_value(p)
            if pk >= NET_MIN_PROB:
                return k, round(pk, 3)
        fr, _face = pips.crop_views(bgr)
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
    read(img, learned=False)


_warm_up()
