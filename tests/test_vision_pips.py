"""Face stage alone (vision.pips): rendered faces, committed real crops, bad crops, face bench."""
from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import face_bench, pips
from vision.synthetic import die_box, render_scene
from vision.types import TrueDie

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "photos"

# body/pip colours: light dice with dark pips, dark dice with light pips, coloured pips on light
# and dark bodies, translucent bodies.
COLOURS = ["white", "ivory", "black", "red", "green", "blue", "yellow", "translucent_red",
           "translucent_blue", "white/red", "black/gold", "red/black"]
SIZES = [25, 32, 45, 70, 100, 120]


def _render(px: int, colour: str, seed: int) -> list[tuple[int, np.ndarray]]:
    """Six dice (values 1..6) at assorted rotations; returns (value, face crop) per die.

    The crop is cut as a detector box would be: centre and side, rotation unknown (0)."""
    dice = []
    for i, v in enumerate(range(1, 7)):
        ang = float((i * 37 + seed * 11 + px) % 90)
        c = (px + (i % 3) * px * 2.0 + px, px + (i // 3) * px * 2.0 + px)
        dice.append(TrueDie(v, c, die_box(c, px, ang), float(px), ang, False, colour))
    shot = render_scene(dice, seed=seed + px, size=(max(64, px * 7 + 40), max(64, px * 5 + 40)))
    return [(t.value, pips.face_crop(shot.image, t.centre, t.size_px, 0.0)) for t in shot.truth]


@pytest.mark.parametrize("px", SIZES)
def test_rendered_faces_every_value_colour_rotation(px):
    wrong, unread = [], []
    for ci, colour in enumerate(COLOURS):
        for value, face in _render(px, colour, ci):
            fr = pips.read_face(face)
            if fr.value is None:
                unread.append((colour, value))
            elif fr.value != value:
                wrong.append((colour, value, fr.value))
            else:
                assert 0.0 < fr.confidence <= 1.0
    assert not wrong, wrong
    assert len(unread) <= 2, unread  # of 72 faces


@pytest.mark.parametrize("angle", range(0, 90, 10))
def test_rotation_does_not_matter(angle):
    dice = []
    for i, v in enumerate(range(1, 7)):
        c = (60.0 + i * 90.0, 80.0)
        dice.append(TrueDie(v, c, die_box(c, 48, angle), 48.0, float(angle), False, "red"))
    shot = render_scene(dice, seed=angle, size=(620, 160))
    for t in shot.truth:
        # the same die read with the rotation unknown and with it known
        assert pips.read_face(pips.face_crop(shot.image, t.centre, t.size_px, 0.0)).value == t.value
        assert pips.read_face(pips.face_crop(shot.image, t.centre, t.size_px, float(angle))).value == t.value


@pytest.mark.parametrize("sigma", [1.0, 2.0])
@pytest.mark.parametrize("colour", ["white", "red", "black"])
def test_blurred_faces(colour, sigma):
    for value, face in _render(60, colour, 3):
        assert pips.read_face(cv2.GaussianBlur(face, (0, 0), sigma)).value == value


@pytest.mark.xfail(reason="known weakness: very heavy blur (sigma 5 % of the die) fades a 3's corners "
                          "and it reads 1", strict=False)
def test_very_blurred_faces_never_wrong():
    for value, face in _render(60, "white", 3):
        assert pips.read_face(cv2.GaussianBlur(face, (0, 0), 2.5)).value in (None, value)


# ---------------------------------------------------------------- committed real photos

def _fixture_faces():
    out = []
    for e in json.loads((FIXTURES / "labels.json").read_text()):
        img = cv2.imread(str(FIXTURES / e["image"]))
        for k, d in enumerate(e["dice"]):
            out.append(pytest.param(e["image"], d, img, id=f"{e['image'][:30]}-{k}"))
    return out


@pytest.mark.parametrize("image,die,img", _fixture_faces())
def test_fixture_faces_never_wrong(image, die, img):
    assert img is not None
    if die["box"] is None:
        fr = pips.read_crop(img)
    else:
        x0, y0, x1, y1 = die["box"]
        fr = pips.read_face(pips.face_crop(img, ((x0 + x1) / 2, (y0 + y1) / 2), max(x1 - x0, y1 - y0), 0.0))
    assert fr.value in (None, die["value"]), (image, die, fr)


def test_fixture_faces_mostly_read():
    right = total = 0
    for e in json.loads((FIXTURES / "labels.json").read_text()):
        img = cv2.imread(str(FIXTURES / e["image"]))
        for d in e["dice"]:
            if d["box"] is None:
                fr = pips.read_crop(img)
            else:
                x0, y0, x1, y1 = d["box"]
                fr = pips.read_face(pips.face_crop(img, ((x0 + x1) / 2, (y0 + y1) / 2), max(x1 - x0, y1 - y0), 0.0))
            right += fr.value == d["value"]
            total += 1
    # 18 of 22 measured: unread are a 1 and a 6 of ..._100300 and two dice seen off-axis (..._112431)
    assert total == 22 and right >= 18


def test_casino_crops_read_whole():
    for e in json.loads((FIXTURES / "labels.json").read_text()):
        if e["dice"][0]["box"] is None:
            img = cv2.imread(str(FIXTURES / e["image"]))
            fr = pips.read_crop(img)
            assert fr.value == e["dice"][0]["value"] and fr.confidence >= pips.MIN_CONFIDENCE


# ---------------------------------------------------------------- bad crops

@pytest.mark.parametrize("crop", [
    np.zeros((0, 0, 3), np.uint8), np.zeros((1, 1, 3), np.uint8), np.zeros((48, 48, 3), np.uint8),
    np.full((48, 48, 3), 255, np.uint8), np.full((48, 48, 3), 128, np.uint8),
    np.full((5, 300, 3), 90, np.uint8), np.full((48, 48), 200, np.uint8),
    np.full((48, 48, 3), np.nan, np.float32), np.zeros((48, 48, 3, 2), np.uint8),
    np.random.default_rng(0).integers(100, 104, (48, 48, 3)).astype(np.uint8),
    None, "not an image", [[1, 2], [3, 4]],
], ids=lambda c: type(c).__name__ + (str(getattr(c, "shape", "")) if hasattr(c, "shape") else ""))
def test_bad_crops_give_none_without_raising(crop):
    fr = pips.read_face(crop)
    assert fr.value is None and fr.confidence <= 0.5
    fr = pips.read_crop(crop)
    assert fr.value is None


def test_noise_is_not_a_die():
    rng = np.random.default_rng(1)
    unread = 0
    for _ in range(20):
        noise = rng.integers(0, 255, (48, 48, 3)).astype(np.uint8)
        unread += pips.read_face(noise).value is None
    assert unread >= 18


def test_other_crop_sizes_are_resampled():
    value, face = _render(60, "blue", 1)[4]
    big = cv2.resize(face, (150, 150), interpolation=cv2.INTER_CUBIC)
    assert pips.read_face(big).value == value


def test_crop_mask_limits_pips_to_the_body():
    value, face = _render(60, "white", 2)[5]
    full = np.full((pips.N, pips.N), 255, np.uint8)
    assert pips.read_face(face, full).value == value


# ---------------------------------------------------------------- face bench on shared photos

def _photos() -> Path:
    env = os.environ.get("DICETABLE_PHOTOS")
    return Path(env) if env else Path(__file__).resolve().parents[1].parent / "shared" / "dice-photos"


@pytest.mark.skipif(not _photos().is_dir(), reason="shared dice-photos not available")
def test_face_bench_on_shared_photos(tmp_path):
    results = face_bench.run(_photos(), half="odd", limit=6, keep_failures=True)
    by = {r.source: r for r in results}
    assert "nellbyler_d6" in by and by["nellbyler_d6"].n > 20
    for name in ("nellbyler_d6", "casino_crops_chase"):
        r = by[name]
        assert r.right + r.unsure + r.wrong == r.n == r.confusion.sum()
        assert r.rate(r.right) >= 0.5 and r.rate(r.wrong) <= 0.1, face_bench.table(results)
    assert "| nellbyler_d6 |" in face_bench.table(results)
    face_bench.dump(by["nellbyler_d6"], tmp_path)  # writes a mosaic when there are failures
    assert face_bench.main(["--photos", str(_photos()), "--limit", "2", "--source", "casino",
                            "--json"]) == 0


def test_cached_layout_tables_match_the_candidate_sets():
    """The per-count tables the layout fit reuses describe exactly the candidate sets."""
    for m in range(pips.MAX_CANDIDATES + 1):
        idx, valid, ks = pips._SUBSETS[m]
        sub = pips._SUB[m]
        assert sub.s == len(ks)
        assert np.array_equal(sub.kf, ks.astype(np.float32))
        # sets come grouped by size, and every group is listed once
        assert [k for k, _a, _b in sub.groups] == sorted(set(ks.tolist()))
        for k, a, b in sub.groups:
            assert (ks[a:b] == k).all()
        if m > 1:
            for s in range(len(ks)):
                used = set(idx[s, :ks[s]].tolist())
                assert [not sub.other[s, j] for j in range(m)] == [j in used for j in range(m)]


_LAYOUT = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
           4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
           6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _swirled_face(value: int, seed: int) -> np.ndarray:
    """A dark blue die with light swirl streaks and red pips, as a canonical 48 px face crop
    (drawn here, apart from the renderer: the family of dice the Byler odd half leaves unread)."""
    rng = np.random.default_rng(seed)
    img = np.full((pips.N, pips.N, 3), (200, 200, 200), np.uint8)
    cv2.rectangle(img, (5, 5), (42, 42), (70, 40, 25), -1)
    for _ in range(3):
        pts = np.array([[rng.uniform(6, 42), rng.uniform(6, 42)] for _ in range(4)], np.int32)
        cv2.polylines(img, [pts], False, (190, 185, 175), 2, cv2.LINE_AA)
    for dx, dy in _LAYOUT[value]:
        cv2.circle(img, (24 + 11 * dx, 24 + 11 * dy), 3, (45, 40, 200), -1, cv2.LINE_AA)
    return img


def test_coloured_pips_on_a_swirled_die_read_by_hue():
    """The swirl's light streaks stand out from the body as much as the red pips do in full
    colour, so no layout fits; weighed by hue (HUE_W) the pips stand out alone. Measured: 20 of
    24 faces read by hue, none wrong; none in full colour."""
    by_hue = [pips.read_face(_swirled_face(v, s), weights=pips.HUE_W).value for v in range(1, 7) for s in range(4)]
    in_colour = [pips.read_face(_swirled_face(v, s)).value for v in range(1, 7) for s in range(4)]
    want = [v for v in range(1, 7) for _s in range(4)]
    assert sum(g == w for g, w in zip(by_hue, want)) >= 18
    assert all(g in (None, w) for g, w in zip(by_hue, want))
    assert all(g in (None, w) for g, w in zip(in_colour, want)) and in_colour.count(None) >= 20
