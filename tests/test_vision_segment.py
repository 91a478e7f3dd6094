"""Die finding (vision.segment) and the problem flags the reader derives from it.

Detection is checked on its own (every die found exactly once, nothing else), so that a face
reader's weakness cannot hide a detector's and the other way round.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import segment
from vision.reader import detect, read
from vision.synthetic import DIE_COLOURS, STYLES, TrayStyle, render_scene, render_tray
from vision.types import (
    DICE_TOUCHING, DIE_LEANING, FOREIGN_OBJECT, GLARE, PARTLY_OUT_OF_VIEW, UNSURE_VALUE,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "photos"


def found_once(centres, truth) -> tuple[int, int]:
    """(true dice holding exactly one detected centre, detections outside every true box)."""
    found = sum(1 for t in truth
                if sum(t.box[0] <= x <= t.box[2] and t.box[1] <= y <= t.box[3] for x, y in centres) == 1)
    extras = sum(1 for x, y in centres
                 if not any(t.box[0] <= x <= t.box[2] and t.box[1] <= y <= t.box[3] for t in truth))
    return found, extras


def assert_all_found(shot) -> None:
    centres = [c for c, _box in detect(shot.image, learned=False)]
    found, extras = found_once(centres, shot.truth)
    assert (found, extras) == (len(shot.truth), 0), (shot.seed, [t.colour for t in shot.truth])


# ------------------------------------------------------------------ clean rendered trays


@pytest.mark.parametrize("style", [s for s in STYLES if s != "glare"])
@pytest.mark.parametrize("n", range(1, 9))
def test_every_style_preset_all_dice_found(style, n):
    for seed in range(2):
        assert_all_found(render_tray([(k % 6) + 1 for k in range(n)], seed=seed * 11 + n,
                                     style=TrayStyle.preset(style)))


# A die of the felt's own colour is found only by its outline and pips; on these renders the
# outline is too soft. Known weakness, kept visible here.
_SAME_AS_FELT = {("green", "translucent_green"), ("dark", "black"), ("red", "translucent_red"),
                 ("blue", "translucent_blue")}


@pytest.mark.parametrize("style", ["green", "light", "dark", "blue", "red"])
@pytest.mark.parametrize("colour", DIE_COLOURS)
def test_every_die_colour(style, colour):
    if (style, colour) in _SAME_AS_FELT:
        pytest.xfail("die of the felt's own colour: outline too soft on the render")
    for n in (1, 4, 8):
        shot = render_tray([(k % 6) + 1 for k in range(n)], seed=n, style=TrayStyle.preset(style),
                           colours=[colour])
        centres = [c for c, _box in detect(shot.image, learned=False)]
        found, extras = found_once(centres, shot.truth)
        assert extras == 0
        assert found >= len(shot.truth) - (1 if n == 8 else 0)  # one miss allowed in a crowd


@pytest.mark.parametrize("die_px", [26, 40, 80, 120])
def test_die_sizes(die_px):
    n = 4 if die_px >= 80 else 6
    assert_all_found(render_tray(list(range(1, n + 1)), seed=3, die_px=die_px))


def test_calibration_die_px_and_tray_are_used():
    shot = render_tray([1, 2, 3], seed=5)
    side = float(np.median([t.size_px for t in shot.truth]))
    seg = segment.segment(shot.image, die_px=side)
    assert abs(seg.die_px - side) < 0.5
    assert len(seg.candidates) == 3
    # a tray region that leaves out the right half ignores the dice there
    h, w = shot.image.shape[:2]
    seg = segment.segment(shot.image, tray=(0, 0, w // 2, h))
    want = sum(1 for t in shot.truth if t.box[2] < w // 2)
    assert len(seg.candidates) == want


def test_empty_tray_and_flat_frames_find_nothing():
    shot = render_tray([], seed=1) if _empty_ok() else None
    if shot is not None:
        assert detect(shot.image) == []
    assert segment.segment(np.full((240, 320, 3), 128, np.uint8)).candidates == []


def _empty_ok() -> bool:
    try:
        render_tray([], seed=1)
        return True
    except ValueError:
        return False


def test_sizes_are_relative_to_the_frame():
    """The same scene at half and double resolution gives the same dice."""
    shot = render_tray([3, 1, 6, 2], seed=8)
    base = sorted((round(x / 10), round(y / 10)) for (x, y), _b in detect(shot.image))
    for f in (0.5, 2.0):
        img = cv2.resize(shot.image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        got = sorted((round(x / f / 10), round(y / f / 10)) for (x, y), _b in detect(img))
        assert len(got) == len(base)
        for a, b in zip(base, got):
            assert abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


# ------------------------------------------------------------------ committed photos


def _photo_entries():
    return [e for e in json.loads((FIXTURES / "labels.json").read_text())
            if e["dice"] and e["dice"][0]["box"] is not None]


@pytest.mark.parametrize("entry", _photo_entries(), ids=lambda e: e["image"])
def test_fixture_photos_every_die_found_once(entry):
    img = cv2.imread(str(FIXTURES / entry["image"]))
    centres = [c for c, _b in detect(img, learned=False)]
    for d in entry["dice"]:
        x0, y0, x1, y1 = d["box"]
        assert sum(x0 <= x <= x1 and y0 <= y <= y1 for x, y in centres) == 1, d
    assert len(centres) == len(entry["dice"])  # round fixtures on the strip are not dice


def _same_candidate(a: segment.Candidate, b: segment.Candidate) -> bool:
    fa, fb = dataclasses.asdict(a), dataclasses.asdict(b)
    ca, cb = fa.pop("contour"), fb.pop("contour")
    return fa == fb and (ca is None) == (cb is None) and (ca is None or np.array_equal(ca, cb))


@pytest.mark.parametrize("entry", _photo_entries(), ids=lambda e: e["image"])
def test_outlines_left_coarse_refine_to_the_ones_segment_gives(entry, monkeypatch):
    """segment(refine=False) leaves each blob's full-resolution outline to
    Segmentation.refined (the learned reader asks only for the few it needs): asked for, it
    is the outline segment() gives, flags (leaning, glare) included, and it is redone once."""
    img = cv2.imread(str(FIXTURES / entry["image"]))
    eager = segment.segment(img)
    lazy = segment.segment(img, refine=False)
    calls = []
    real = segment._refine
    monkeypatch.setattr(segment, "_refine", lambda *a: calls.append(1) or real(*a))
    assert len(lazy.candidates) == len(eager.candidates) == len(entry["dice"])
    refined = [lazy.refined(c) for c in lazy.candidates]
    assert all(_same_candidate(r, e) for r, e in zip(refined, eager.candidates))
    assert any(r is not c for r, c in zip(refined, lazy.candidates))   # the outlines did change
    assert len(calls) == len(refined)
    assert all(lazy.refined(c) is r and lazy.refined(r) is r for c, r in zip(lazy.candidates, refined))
    assert len(calls) == len(refined)                                   # (and only once each)


def test_full_size_work_has_nothing_to_refine():
    """A frame small enough to be segmented at full size: its outlines are already tight."""
    shot = render_tray([2, 5], style=TrayStyle.preset("green"), seed=3, size=(320, 240), die_px=30)
    seg = segment.segment(shot.image, refine=False)
    assert seg.scale == 1.0 and seg.candidates
    assert all(seg.refined(c) is c for c in seg.candidates)


# ------------------------------------------------------------------ problem flags


def test_touching_pair_flagged_and_only_the_pair():
    for seed in range(4):
        shot = render_tray([1, 2, 3, 4], seed=seed, touching=1)
        r = read(shot.image)
        assert len(r.dice) == 4
        flagged = [d for d in r.dice if DICE_TOUCHING in d.problems]
        assert len(flagged) == 2, seed
        assert sorted(d.value for d in flagged) == [1, 2]  # the renderer pairs the first two


def test_apart_dice_are_not_flagged_touching():
    for seed in range(4):
        r = read(render_tray([1, 2, 3, 4, 5], seed=seed).image)
        if len(r.dice) == 5 and all(DICE_TOUCHING not in d.problems for d in r.dice):
            continue
        shot = render_tray([1, 2, 3, 4, 5], seed=seed)
        # the renderer may place two dice in contact by chance: then the flag is right
        xs = [t.centre for t in shot.truth]
        close = min(np.hypot(a[0] - b[0], a[1] - b[1]) for i, a in enumerate(xs) for b in xs[i + 1:])
        assert close < 1.3 * shot.truth[0].size_px, seed


def test_hand_is_a_foreign_object_and_not_dice():
    seen = 0
    for seed in range(1, 4):
        shot = render_tray([1, 2, 3, 4], seed=seed, hands=True)
        r = read(shot.image)
        boxes = [p.box for p in r.problems if p.code == FOREIGN_OBJECT]
        seen += bool(boxes)
        hx0, hy0, hx1, hy1 = shot.hand_box
        for d in r.dice:  # nothing read inside the hand
            x, y = d.centre
            inside_die = any(t.box[0] <= x <= t.box[2] and t.box[1] <= y <= t.box[3] for t in shot.truth)
            assert inside_die or not (hx0 <= x <= hx1 and hy0 <= y <= hy1)
    assert seen == 3


def test_glare_is_reported_and_not_read_as_dice():
    for seed in range(4):
        shot = render_tray([1, 2, 3, 4], seed=seed, glare=True)
        r = read(shot.image)
        assert GLARE in r.problem_codes(), seed
        for d in r.dice:
            assert d.value is None or any(
                t.box[0] <= d.centre[0] <= t.box[2] and t.box[1] <= d.centre[1] <= t.box[3]
                for t in shot.truth)


def test_die_cut_by_the_frame_is_flagged_and_never_valued():
    shot = render_tray([5, 2], seed=1)
    t = shot.truth
    moved = render_scene([dataclasses.replace(t[0], centre=(8.0, 200.0)), t[1]], seed=1)
    r = read(moved.image)
    cut = [d for d in r.dice if PARTLY_OUT_OF_VIEW in d.problems]
    assert len(cut) == 1 and cut[0].value is None and UNSURE_VALUE in cut[0].problems
    assert DIE_LEANING not in cut[0].problems


def test_strongly_oblong_die_is_flagged_leaning():
    """A die whose outline is 1.4 times longer one way shows two faces."""
    img = np.full((480, 640, 3), (60, 120, 40), np.uint8)
    cv2.rectangle(img, (300, 200), (384, 260), (235, 235, 235), -1)   # 84 x 60: cocked die
    cv2.rectangle(img, (300, 200), (322, 260), (190, 190, 190), -1)   # its shaded side face
    for x, y in ((337, 215), (370, 245), (337, 245), (370, 215)):
        cv2.circle(img, (x, y), 5, (20, 20, 20), -1)
    cv2.rectangle(img, (100, 100), (160, 160), (235, 235, 235), -1)   # a flat die beside it
    cv2.circle(img, (130, 130), 6, (20, 20, 20), -1)
    seg = segment.segment(img)
    lean = [c for c in seg.candidates if c.leaning]
    assert len(lean) == 1 and lean[0].centre[0] > 250


# ------------------------------------------------------------------ trays with walls


def test_brief_case_tray_with_wooden_border_is_read_whole():
    """The table's demo: a wooden border around the felt was taken for the surface and the felt
    for a huge foreign object (the table then waited forever)."""
    shot = render_tray([1, 2, 3, 4, 5], seed=5, style=TrayStyle(border_px=28, die_px=50.0))
    r = read(shot.image)
    assert FOREIGN_OBJECT not in r.problem_codes()
    assert sorted(r.values) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("border", [0, 16, 28, 40])
@pytest.mark.parametrize("style", [s for s in STYLES if s not in ("dim", "glare")])
def test_walls_and_table_are_neither_dice_nor_foreign(border, style):
    for n, size, die in ((3, (640, 480), 50.0), (6, (640, 480), 44.0), (4, (400, 300), 40.0)):
        b = border if size[0] == 640 else min(border, 16)
        shot = render_tray([(k % 6) + 1 for k in range(n)], seed=31 + n + border,
                           style=TrayStyle.preset(style, border_px=b), die_px=die, size=size)
        r = read(shot.image)
        assert FOREIGN_OBJECT not in r.problem_codes(), (border, style, n)
        found, extras = found_once([d.centre for d in r.dice], shot.truth)
        assert extras == 0 and found >= n - 1, (border, style, n, r.values)
        assert all(PARTLY_OUT_OF_VIEW not in d.problems for d in r.dice)


def test_throw_animation_final_frames_in_walled_trays():
    from vision.synthetic import ThrowAnimation
    for size, border, die in (((640, 480), 28, 50.0), ((400, 300), 16, 46.0)):
        for seed in range(3):
            values = [(seed + 2 * k) % 6 + 1 for k in range(3 + seed)]
            anim = ThrowAnimation(values, seed=seed, size=size,
                                  style=TrayStyle(border_px=border, die_px=die))
            r = read(anim.final.image)
            assert FOREIGN_OBJECT not in r.problem_codes(), (size, seed)
            assert sorted(v for v in r.values if v is not None) == sorted(values), (size, seed)


@pytest.mark.parametrize("border", [16, 28, 40])
def test_hand_in_a_walled_tray_is_still_reported(border):
    seen = 0
    for seed in range(1, 5):
        shot = render_tray([1, 2, 3, 4], seed=seed, hands=True, style=TrayStyle(border_px=border))
        seen += FOREIGN_OBJECT in read(shot.image).problem_codes()
    assert seen >= 3


@pytest.mark.parametrize("style", ["green", "dark", "light"])
def test_calibrated_dice_against_the_wall_are_whole_and_read(style):
    """The calibrated tray is the felt: a die against the wall is inside and fully visible."""
    from vision.calibrate import calibrate
    from vision.synthetic import die_extent, tray_rect
    st = TrayStyle.preset(style, border_px=28, die_px=50.0)
    empty = [render_tray([], seed=i, style=st).image for i in range(3)]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=st).image for i in range(3)]
    c = calibrate(empty, throws)
    cal = {"tray": list(c.tray), "die_px": c.die_px}
    x0, y0, x1, y1 = tray_rect((640, 480), st)
    t = render_tray([2, 3, 4, 5, 6], seed=7, style=st).truth
    for ang in (0.0, 30.0):
        e = die_extent(50.0, ang) + 1
        pos = [(x0 + e, 240.0), (x1 - e, 200.0), (320.0, y0 + e), (250.0, y1 - e), (330.0, 250.0)]
        shot = render_scene([dataclasses.replace(t[i], centre=pos[i], angle_deg=ang) for i in range(5)],
                            seed=11, style=st)
        r = read(shot.image, cal)
        assert sorted(r.values) == [2, 3, 4, 5, 6], (style, ang, r.values)
        assert all(PARTLY_OUT_OF_VIEW not in d.problems for d in r.dice)


def test_calibrated_die_straddling_the_tray_edge_is_still_cut():
    """Padding the calibrated region must not hide a die that really leaves it."""
    shot = render_tray([5, 2], seed=1)
    t = shot.truth
    moved = render_scene([dataclasses.replace(t[0], centre=(400.0, 200.0)),
                          dataclasses.replace(t[1], centre=(200.0, 240.0))], seed=1)
    r = read(moved.image, {"tray": [0, 0, 400, 480], "die_px": t[0].size_px})
    cut = [d for d in r.dice if d.centre[0] > 360]
    assert len(cut) == 1 and PARTLY_OUT_OF_VIEW in cut[0].problems and cut[0].value is None
    assert [d.value for d in r.dice if d.centre[0] < 300] == [2]


# --- the speed-ups stand in for slower operations: they must give the very same numbers ---------

def test_fast_median_is_numpys_median():
    rng = np.random.default_rng(3)
    for n in (1, 2, 3, 8, 999, 1000, 8001):
        for scale in (1.0, 60.0):
            v = (rng.random(n) * scale).astype(np.float32)
            if n > 3:
                v[: n // 3] = np.round(v[: n // 3])          # ties
            assert segment._median(v) == float(np.median(v))
            k = segment._robust_threshold(v, 6.0, 0.0, 1e9)
            med = float(np.median(v))
            ref = float(np.clip(med + 6.0 * max(1.4826 * float(np.median(np.abs(v - med))), 0.5), 0.0, 1e9))
            assert k == ref


def test_exposure_percentiles_from_the_histogram_are_numpys():
    from vision.reader_input import _percentiles_u8
    rng = np.random.default_rng(4)
    for shape in ((1, 1), (1, 7), (16, 16), (241, 320), (37, 53)):
        for img in (rng.integers(0, 256, shape), np.full(shape, 77),
                    np.clip(rng.normal(200, 9, shape), 0, 255)):
            img = img.astype(np.uint8)
            assert _percentiles_u8(img, (2, 50, 98)) == [float(p) for p in np.percentile(img, (2, 50, 98))]


def test_distance_to_one_colour_is_surface_distance_to_its_image():
    rng = np.random.default_rng(5)
    lab = rng.integers(0, 256, (40, 56, 3)).astype(np.uint8)
    for ref in ((62, 131, 131), (200, 100, 160), (0, 128, 128)):
        ref = np.array(ref, np.uint8)
        want = segment.surface_distance(lab, np.broadcast_to(ref, lab.shape).astype(np.uint8))
        # (OpenCV's vector paths round the last bit differently with the buffers' alignment:
        # surface_distance itself differs this much between two copies of one input)
        np.testing.assert_allclose(segment.distance_to_colour(lab, ref), want, rtol=3e-7, atol=0)


def test_chroma_lookup_and_threshold_masks_match_the_array_versions():
    rng = np.random.default_rng(6)
    lab = rng.integers(0, 256, (30, 41, 3)).astype(np.uint8)
    assert np.array_equal(cv2.LUT(lab, segment._CHROMA_X2), segment._chroma_x2(lab))
    d = (rng.random((30, 41)) * 90).astype(np.float32)
    for t in (0.0, 12.345678, float(d[3, 4]), 90.0):
        assert np.array_equal(segment._gt(d, t), (d > t).astype(np.uint8) * 255)


def _contour_of(mask: np.ndarray) -> np.ndarray:
    cs, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return max(cs, key=cv2.contourArea)


def test_sprawling_chain_of_dice_is_die_thick_and_a_thin_band_is_not():
    """A diagonal chain of touching dice fills little of its bounding rectangle, yet is all
    die-thick (cut into dice); an L-shaped rim band is not (left alone)."""
    d = 20
    chain = np.zeros((200, 200), np.uint8)
    x = y = 20
    for i in range(7):
        cv2.rectangle(chain, (x, y), (x + d - 1, y + d - 1), 255, -1)
        x, y = (x + d - 2, y) if i % 2 == 0 else (x, y + d - 2)
    b = segment._blob(_contour_of(chain))
    assert segment._die_thick(b, float(d)) >= segment.THICK_FRAC
    assert not segment._at_frame_edge(b, chain.shape)
    band = np.zeros((200, 200), np.uint8)
    cv2.rectangle(band, (20, 20), (180, 26), 255, -1)
    cv2.rectangle(band, (20, 20), (26, 180), 255, -1)
    assert segment._die_thick(segment._blob(_contour_of(band)), float(d)) < 0.2
    arm = np.zeros((200, 200), np.uint8)
    cv2.rectangle(arm, (60, 120), (120, 199), 255, -1)
    assert segment._at_frame_edge(segment._blob(_contour_of(arm)), arm.shape)


# ------------------------------------------------------------------ round things

def _disc_under(seg: segment.Segmentation, box: tuple[float, float, float, float]) -> bool:
    return any(box[0] <= x <= box[2] and box[1] <= y <= box[3] for x, y, _r in seg.discs)


@pytest.mark.parametrize("style", ["green", "light", "dark", "blue", "red"])
def test_no_die_is_a_disc(style):
    """The disc cue (segment.DISC) takes a find away from the dice: no die of any colour, alone
    or in a crowd, may have a disc under it."""
    for colour in DIE_COLOURS:
        for n in (1, 5):
            shot = render_tray([(k % 6) + 1 for k in range(n)], seed=n + 7, style=TrayStyle.preset(style),
                               colours=[colour])
            seg = segment.segment(shot.image, refine=False)
            assert not any(_disc_under(seg, t.box) for t in shot.truth), (colour, n, seg.discs)


@pytest.mark.parametrize("fill", [(60, 150, 190), (175, 178, 180), (40, 40, 40)])
def test_a_die_sized_disc_is_a_disc_and_a_big_or_small_one_is_not(fill):
    """Brass, silver or a dark coin beside three dice: a disc (x, y, radius) where it lies; a
    plate three dice wide and a pip-sized dot are not die-sized, so they are not."""
    shot = render_tray([2, 4, 6], seed=4, style=TrayStyle.preset("green"))
    side = float(np.median([t.box[2] - t.box[0] for t in shot.truth]))
    h, w = shot.image.shape[:2]
    spots = [(x, y) for x in np.linspace(0.1 * w, 0.9 * w, 9) for y in np.linspace(0.1 * h, 0.9 * h, 9)
             if min(np.hypot(x - (t.box[0] + t.box[2]) / 2, y - (t.box[1] + t.box[3]) / 2)
                    for t in shot.truth) > 2.5 * side]
    found = []
    for r in (0.5 * side, 1.6 * side, 0.1 * side):
        img = shot.image.copy()
        x, y = spots[0]
        cv2.circle(img, (round(x), round(y)), round(r), fill, -1, cv2.LINE_AA)
        seg = segment.segment(img, refine=False)
        found.append([d for d in seg.discs if np.hypot(d[0] - x, d[1] - y) < 0.2 * side])
    coin, plate, dot = found
    assert len(coin) == 1 and abs(coin[0][2] - 0.5 * side) < 0.15 * side, coin
    assert plate == [] and dot == []


def _shared_photos() -> Path:
    from vision.bench import default_photos_dir
    return default_photos_dir()


@pytest.mark.skipif(not _shared_photos().is_dir(), reason="shared dice-photos not available")
@pytest.mark.parametrize("source", ["nellbyler_d6", "roboflow_dice_v3_epanemu"])
def test_no_real_die_is_a_disc(source):
    """On every labelled photo of real dice (top-down trays; oblique board scenes), no die has
    a disc under it: the cue never costs a real die."""
    root = _shared_photos() / source
    dice = 0
    for entry in json.loads((root / "labels.json").read_text()):
        img = cv2.imread(str(root / entry["image"]))
        seg = segment.segment(img, refine=False)
        boxes = [d["box"] for d in entry["dice"] if d["box"] is not None]
        dice += len(boxes)
        assert not any(_disc_under(seg, b) for b in boxes), (entry["image"], seg.discs)
    assert dice > 500


@pytest.mark.skipif(not _shared_photos().is_dir(), reason="shared dice-photos not available")
@pytest.mark.parametrize("how, k", [("dim", 0.55), ("dim", 0.45), ("vignette", 0.55), ("vignette", 0.4)])
def test_a_dim_tray_is_not_a_foreign_object(how, k):
    """The Byler trays at half their light, or under a strong vignette: the surface is still
    found, so the tray with its walls is never taken for one big object (which hides every die
    in it and stops the table). With a fixed floor for the surface's colour gate and the largest
    piece of surface colour taken for the floor (the table around the tray could be it), 1 tray
    was at 0.55 of its light, and 3 and 4 under these vignettes."""
    from vision import conditions
    change = conditions.gain(k) if how == "dim" else conditions.vignette(k)
    root = _shared_photos() / "nellbyler_d6"
    for entry in json.loads((root / "labels.json").read_text()):
        img = change(cv2.imread(str(root / entry["image"])), entry["image"])
        h, w = img.shape[:2]
        big = [b for b in segment.segment(img, refine=False).foreign
               if (b[2] - b[0]) * (b[3] - b[1]) > 0.25 * w * h]
        assert big == [], entry["image"]
