"""Pip reader: committed real photos, self-drawn synthetic dice, and every kind of bad input."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from round_things import paint_round_thing
from vision.bench import default_photos_dir
from vision.reader import read, read_die
from vision.types import BAD_FRAME, BLURRED, FOREIGN_OBJECT, TOO_BRIGHT, TOO_DARK, UNSURE_VALUE, Reading

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "photos"

# Pip centres in units of the pip offset from the face centre.
LAYOUT = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def draw_die(img: np.ndarray, centre: tuple[float, float], size: float, value: int, angle: float,
             body: tuple[int, int, int], pip: tuple[int, int, int]) -> None:
    """A rounded square with round pips, rotated by `angle` degrees, drawn in place."""
    s = 4  # supersample for anti-aliased edges
    half = size / 2
    pad = int(size) + 4
    tile = np.zeros((pad * s, pad * s, 3), np.uint8)
    alpha = np.zeros((pad * s, pad * s), np.uint8)
    c = pad * s / 2
    r = 0.18 * size * s
    x0, x1 = int(c - half * s), int(c + half * s)
    for a_img in (tile, alpha):
        colour = body if a_img is tile else 255
        cv2.rectangle(a_img, (int(x0 + r), x0), (int(x1 - r), x1), colour, -1)
        cv2.rectangle(a_img, (x0, int(x0 + r)), (x1, int(x1 - r)), colour, -1)
        for cx in (x0 + r, x1 - r):
            for cy in (x0 + r, x1 - r):
                cv2.circle(a_img, (int(cx), int(cy)), int(r), colour, -1)
    a = 0.27 * size * s
    for px, py in LAYOUT[value]:
        cv2.circle(tile, (int(c + px * a), int(c + py * a)), int(0.09 * size * s), pip, -1, cv2.LINE_AA)
    m = cv2.getRotationMatrix2D((c, c), angle, 1.0 / s)
    m[0, 2] += centre[0] - c
    m[1, 2] += centre[1] - c
    h, w = img.shape[:2]
    warped = cv2.warpAffine(tile, m, (w, h), flags=cv2.INTER_AREA)
    wa = cv2.warpAffine(alpha, m, (w, h), flags=cv2.INTER_AREA).astype(np.float32)[:, :, None] / 255
    img[:] = (img * (1 - wa) + warped * wa).astype(np.uint8)


def tray(w: int = 640, h: int = 480, colour=(200, 200, 205), seed: int = 0,
         gradient: float = 0.25) -> np.ndarray:
    """A tray with uneven light (linear falloff) and a little sensor noise."""
    rng = np.random.default_rng(seed)
    img = np.empty((h, w, 3), np.float32)
    img[:] = colour
    ramp = 1.0 - gradient * np.linspace(0, 1, w)[None, :, None]
    img *= ramp
    img += rng.normal(0, 3, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


WHITE, BLACK = (235, 235, 235), (25, 25, 25)
RED, GREEN, BLUE = (40, 40, 200), (60, 160, 40), (170, 60, 30)
YELLOW = (40, 210, 230)
STYLES = [  # (body, pip) in BGR: light dice with dark pips, dark dice with light pips
    (WHITE, BLACK), (RED, WHITE), (GREEN, WHITE), (BLUE, WHITE), (BLACK, WHITE), (YELLOW, BLACK),
]


def scene(specs, w=640, h=480, tray_colour=(200, 200, 205), seed=0):
    img = tray(w, h, tray_colour, seed)
    for centre, size, value, angle, body, pip in specs:
        draw_die(img, centre, size, value, angle, body, pip)
    return img


def assert_values(reading: Reading, expected: list[int]) -> None:
    assert reading.values == expected, (reading.values, reading.problem_codes())


# ---------------------------------------------------------------- synthetic dice drawn here


@pytest.mark.parametrize("body,pip", STYLES)
def test_each_value_each_colour_light_tray(body, pip):
    specs = [((80 + i * 95, 240), 50, v, 17 * i, body, pip) for i, v in enumerate(range(1, 7))]
    r = read(scene(specs))
    assert_values(r, [1, 2, 3, 4, 5, 6])
    assert all(d.confidence > 0.4 for d in r.dice)


@pytest.mark.parametrize("body,pip", [(WHITE, BLACK), (RED, WHITE), (YELLOW, BLACK)])
def test_dark_tray(body, pip):
    specs = [((100 + i * 110, 200 + 40 * (i % 2)), 56, v, 30 + 11 * i, body, pip)
             for i, v in enumerate([6, 5, 4, 3, 2])]
    r = read(scene(specs, tray_colour=(40, 70, 30)))  # green felt
    assert_values(r, [6, 5, 4, 3, 2])


@pytest.mark.parametrize("size", [26, 32, 40, 80, 120])
def test_sizes(size):
    xs = [size + 10, 2 * size + 60 + size, 3 * size + 110 + 2 * size]
    w = max(640, int(xs[-1] + size + 20))
    specs = [((x, 240), size, v, 20, WHITE, BLACK) for x, v in zip(xs, [5, 3, 6])]
    r = read(scene(specs, w=w))
    assert_values(r, [5, 3, 6])


@pytest.mark.parametrize("size", [25, 28])
@pytest.mark.parametrize("body,pip", STYLES)
def test_the_smallest_dice_in_every_colour(size, body, pip):
    """The issue's smallest dice (25 px on a 640 px frame; once a known weakness of the classical
    reader, marked xfail until 2026-11-21), five of them at several turns."""
    xs = [35, 2 * size + 95, 3 * size + 140, 400, 520]
    for angle in (0, 20, 45):
        specs = [((x, 200 + 30 * (i % 2)), size, v, angle + 7 * i, body, pip)
                 for i, (x, v) in enumerate(zip(xs, [5, 3, 6, 1, 2]))]
        assert_values(read(scene(specs)), [5, 3, 6, 1, 2])


@pytest.mark.parametrize("angle", [0, 15, 30, 45, 60, 80])
def test_rotations(angle):
    specs = [((160, 240), 60, 6, angle, RED, WHITE), ((460, 240), 60, 2, angle, WHITE, BLACK)]
    assert_values(read(scene(specs)), [6, 2])


def test_touching_pair_is_separated():
    specs = [((300, 240), 60, 4, 0, WHITE, BLACK), ((361, 240), 60, 3, 0, RED, WHITE)]
    r = read(scene(specs))
    assert_values(r, [4, 3])


def test_sorted_left_to_right_and_boxes_contain_centres():
    specs = [((500, 100), 50, 1, 10, WHITE, BLACK), ((120, 380), 50, 2, 40, WHITE, BLACK),
             ((300, 250), 50, 3, 70, WHITE, BLACK)]
    r = read(scene(specs))
    assert_values(r, [2, 3, 1])
    for d in r.dice:
        x0, y0, x1, y1 = d.box
        assert x0 <= d.centre[0] <= x1 and y0 <= d.centre[1] <= y1
        assert 35 <= x1 - x0 <= 90


def test_calibration_is_used_and_tolerated():
    specs = [((200, 240), 50, 5, 10, WHITE, BLACK), ((560, 240), 50, 2, 10, WHITE, BLACK)]
    img = scene(specs)
    r = read(img, {"tray": [0, 0, 400, 480], "die_px": 50})
    assert_values(r, [5])  # the die outside the tray region is ignored
    assert_values(read(img, {"tray": "nonsense", "die_px": -3}), [5, 2])
    assert_values(read(img, {"die_px": 50.0}), [5, 2])


def test_empty_tray_has_no_dice():
    r = read(tray())
    assert r.dice == ()


def test_unreadable_die_is_not_invented():
    """A die-shaped blank patch must not get a value."""
    img = tray()
    cv2.rectangle(img, (300, 220), (350, 270), WHITE, -1)
    r = read(img)
    for d in r.dice:
        assert d.value is None and UNSURE_VALUE in d.problems


def test_grayscale_and_rgba_frames_read():
    specs = [((200, 240), 60, 4, 10, WHITE, BLACK), ((450, 240), 60, 6, 30, WHITE, BLACK)]
    img = scene(specs)
    assert_values(read(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)), [4, 6])
    assert_values(read(cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)), [4, 6])
    assert_values(read(img.astype(np.float32) / 255.0), [4, 6])


def test_huge_frame_is_downscaled_and_boxes_in_frame_pixels():
    specs = [((1500, 1200), 300, 5, 20, WHITE, BLACK), ((4000, 3000), 300, 2, 20, WHITE, BLACK)]
    img = scene(specs, w=8000, h=6000)
    r = read(img)
    assert r.size == (8000, 6000)
    assert len(r.dice) == 2
    assert abs(r.dice[0].centre[0] - 1500) < 60 and abs(r.dice[1].centre[1] - 3000) < 60
    assert r.dice[1].value == 2


def test_huge_frame_values():
    specs = [((1500, 1200), 300, 5, 20, WHITE, BLACK), ((4000, 3000), 300, 2, 20, WHITE, BLACK)]
    assert_values(read(scene(specs, w=8000, h=6000)), [5, 2])


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("frame,code", [
    (None, BAD_FRAME),
    (np.zeros((0, 0, 3), np.uint8), BAD_FRAME),
    (np.zeros((1, 1, 3), np.uint8), BAD_FRAME),
    (np.zeros((5,), np.uint8), BAD_FRAME),
    (np.zeros((10, 10, 7), np.uint8), BAD_FRAME),
    ("not an image", BAD_FRAME),
    (np.array([["a", "b"]], dtype=object), BAD_FRAME),
    (np.zeros((480, 640, 3), np.uint8), TOO_DARK),
    (np.full((480, 640, 3), 255, np.uint8), TOO_BRIGHT),
    (np.full((480, 640), np.nan, np.float32), TOO_DARK),
])
def test_bad_frames_never_raise(frame, code):
    r = read(frame)
    assert isinstance(r, Reading)
    assert r.dice == ()
    assert code in r.problem_codes()


def test_uint16_frame():
    specs = [((320, 240), 60, 3, 10, WHITE, BLACK)]
    img = scene(specs).astype(np.uint16) * 257
    assert_values(read(img), [3])


def test_read_die_bad_input():
    assert read_die(None) == (None, 0.0)
    assert read_die(np.zeros((1, 1, 3), np.uint8)) == (None, 0.0)
    v, c = read_die(np.full((60, 60, 3), 128, np.uint8))
    assert v is None


@pytest.mark.parametrize("value", range(1, 7))
def test_read_die_on_synthetic_crop(value):
    img = tray(70, 70, (40, 90, 30), seed=value, gradient=0.0)
    draw_die(img, (35, 35), 52, value, 25, RED, WHITE)
    v, conf = read_die(img)
    assert v == value and conf > 0.4


# ---------------------------------------------------------------- committed real photos


def _fixture_entries():
    return json.loads((FIXTURES / "labels.json").read_text())


# Known weaknesses on the committed photos: these dice must be FOUND and returned unread (value
# None, flagged unsure) -- never with a wrong value. (image, label index)
KNOWN_UNREAD = {
    "learned": {},   # (the classifier now reads the marbled 5 below too)
    "classical": {
        ("nellbyler_IMG_20191209_100300.jpg", 1): "marbled swirl through the pips",
        # a translucent purple 1 whose pip glare splits it into two overlapping blobs
        ("nellbyler_IMG_20191209_100300.jpg", 0): "glare splits the single pip",
        # two dark dice in the tray's far corner, seen off-axis
        ("nellbyler_IMG_20191208_112431.jpg", 0): "a dark 6 touching a white 4",
        ("nellbyler_IMG_20191208_112431.jpg", 1): "a swirled 4 whose side face shows",
    },
}


@pytest.mark.parametrize("stages", ["learned", "classical"])
@pytest.mark.parametrize("entry", _fixture_entries(), ids=lambda e: e["image"])
def test_fixture_photos_exact(entry, stages):
    img = cv2.imread(str(FIXTURES / entry["image"]))
    assert img is not None
    learned = stages == "learned"
    want = [d["value"] for d in entry["dice"]]
    if entry["dice"][0]["box"] is None:
        v, _conf = read_die(img, learned=learned)
        assert [v] == want
        return
    r = read(img, learned=learned)
    assert len(r.dice) == len(want), [(d.value, d.centre) for d in r.dice]
    # each labelled die is matched by a die whose centre is in its box, with the right value
    # (or, for a known weakness, no value at all and the unsure flag)
    for i, d in enumerate(entry["dice"]):
        x0, y0, x1, y1 = d["box"]
        hits = [p for p in r.dice if x0 - 5 <= p.centre[0] <= x1 + 5 and y0 - 5 <= p.centre[1] <= y1 + 5]
        if (entry["image"], i) in KNOWN_UNREAD[stages]:
            assert [p.value for p in hits] == [None]
            assert "unsure_value" in hits[0].problems
        else:
            assert [p.value for p in hits] == [d["value"]]


@pytest.mark.parametrize("light", [0.3, 0.25])
def test_fixture_photos_read_in_a_dim_room(light):
    """The committed tray photos at under a third of their light (the tray ~55 grey levels, the
    brightest pixels ~70) read every die right: a dim frame is brought up by a digital gain
    before it is read (reader_input.brightened). Without it, 16 and 17 of 19."""
    right = total = 0
    for entry in _fixture_entries():
        if entry["dice"][0]["box"] is None:
            continue
        img = cv2.imread(str(FIXTURES / entry["image"]))
        r = read(np.clip(img * light, 0, 255).astype(np.uint8))
        for d in entry["dice"]:
            x0, y0, x1, y1 = d["box"]
            hits = [p.value for p in r.dice if x0 - 5 <= p.centre[0] <= x1 + 5 and y0 - 5 <= p.centre[1] <= y1 + 5]
            right += hits == [d["value"]]
            total += 1
    assert (right, total) == (19, 19)


# ---------------------------------------------------------------- leaning dice


OFF_AXIS = "nellbyler_IMG_20191208_112431.jpg"


def test_flat_dice_seen_off_axis_are_not_reported_leaning():
    """The camera looks at this tray from the front: flat dice show a band of side face and
    their outlines run long enough to look cocked. Their top faces read cleanly, so no die is
    reported leaning (the table would stop the game for nothing)."""
    from vision import segment
    from vision.types import DIE_LEANING
    img = cv2.imread(str(FIXTURES / OFF_AXIS))
    assert sum(c.leaning for c in segment.segment(img).candidates) >= 2   # the outlines do look cocked
    r = read(img)
    assert sorted(d.value for d in r.dice) == [1, 3, 4, 4, 6]
    assert DIE_LEANING not in r.problem_codes()


def _felt_with_a_flat_one() -> np.ndarray:
    """Green felt with a flat white 1 at the left; the die under test goes at x 300-384."""
    img = np.full((480, 640, 3), (60, 120, 40), np.uint8)
    cv2.rectangle(img, (100, 100), (160, 160), (235, 235, 235), -1)
    cv2.circle(img, (130, 130), 6, (20, 20, 20), -1)
    return img


def _cocked_die(top: int) -> np.ndarray:
    """A white die 84 x 60 px in outline: `top` px of it a tilted top face showing 3 (pips
    squeezed across the tilt), the rest a shaded side face showing 2."""
    img = _felt_with_a_flat_one()
    xm = 384 - top
    cv2.rectangle(img, (300, 200), (xm, 260), (190, 190, 190), -1)
    cv2.rectangle(img, (xm, 200), (384, 260), (235, 235, 235), -1)
    for x0, x1, pts in ((300, xm, ((0.25, 0.25), (0.75, 0.75))),
                        (xm, 384, ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)))):
        for u, v in pts:
            axes = (max(2, int(5 * (x1 - x0) / 60)), 5)
            cv2.ellipse(img, (int(x0 + u * (x1 - x0)), int(200 + v * 60)), axes, 0, 0, 360, (20, 20, 20), -1)
    return img


def _die_beside_slab(slab: int) -> np.ndarray:
    """A flat white 3, 60 px, with a pale slab `slab` px wide 2 px to its right."""
    img = _felt_with_a_flat_one()
    cv2.rectangle(img, (300, 200), (360, 260), (235, 235, 235), -1)
    for x, y in ((315, 215), (330, 230), (345, 245)):
        cv2.circle(img, (x, y), 5, (20, 20, 20), -1)
    cv2.rectangle(img, (362, 195), (362 + slab, 265), (200, 200, 200), -1)
    return img


def test_die_on_its_edge_is_reported_leaning():
    """Two faces of equal width: no face is on top, the die is reported leaning (blocking)."""
    from vision.types import DIE_LEANING
    r = read(_cocked_die(top=42))
    edge = [d for d in r.dice if d.centre[0] > 250]
    assert len(edge) == 1 and DIE_LEANING in edge[0].problems
    assert [d.value for d in r.dice if d.centre[0] < 250] == [1]


def test_die_tilted_a_little_is_read_by_its_top_face():
    """A die tilted ~20 degrees: its top face is most of the outline and reads cleanly. It is
    reported with that value, not as leaning (see reader.LEANING_CLEAR_READ)."""
    from vision.types import DIE_LEANING
    r = read(_cocked_die(top=56))
    edge = [d for d in r.dice if d.centre[0] > 250]
    assert [d.value for d in edge] == [3] and DIE_LEANING not in edge[0].problems


def test_oblong_blob_the_detector_calls_no_die_is_still_reported():
    """A die glued to a pale slab (a cocked die's side face, a box lid): the detector's crop of
    the whole says "not a die", but the blob's own crop does not: it is reported, unread and
    leaning, rather than lost (the table then asks for the tray to be fixed)."""
    from vision.types import DIE_LEANING, UNSURE_VALUE
    r = read(_die_beside_slab(36))
    right = [d for d in r.dice if d.centre[0] > 250]
    assert len(right) == 1 and right[0].value in (3, None)
    if right[0].value is None:
        assert {DIE_LEANING, UNSURE_VALUE} <= set(right[0].problems)


def test_strict_leaning_flags_every_oblong_outline(monkeypatch):
    """LEANING_CLEAR_READ above 1 restores the outline-only rule (no read is clear enough)."""
    from vision import reader
    from vision.types import DIE_LEANING
    monkeypatch.setattr(reader, "LEANING_CLEAR_READ", 1.01)
    r = read(cv2.imread(str(FIXTURES / OFF_AXIS)))
    assert DIE_LEANING in r.problem_codes()


# ---------------------------------------------------------------- vision.synthetic (optional)


def test_on_synthetic_renderer_if_present():
    syn = pytest.importorskip("vision.synthetic")
    if not hasattr(syn, "render_tray"):
        pytest.skip("vision.synthetic.render_tray not available")
    right = total = 0
    for seed in range(12):
        vals = [(seed + k) % 6 + 1 for k in range(1 + seed % 5)]
        try:
            shot = syn.render_tray(vals, seed=seed)
        except Exception as exc:  # the renderer is someone else's work in progress
            pytest.skip(f"render_tray failed: {exc}")
        r = read(shot.image)
        for t in shot.truth:
            x0, y0, x1, y1 = t.box
            hits = [d for d in r.dice if x0 <= d.centre[0] <= x1 and y0 <= d.centre[1] <= y1]
            total += 1
            right += int(len(hits) == 1 and hits[0].value == t.value)
    assert total > 0
    assert right / total >= 0.8, f"{right}/{total} synthetic dice read right"


def test_solid_die_ragged_outline_kept_only_when_alone():
    """A lone die-sized blob with a ragged outline (fill 0.74: a translucent or dark die against
    a rim) is kept unread; the same shape cut from a heap, or a round or long one, is not."""
    from vision.reader import _solid_die
    from vision.segment import Candidate

    def cand(fill: float, isolated: bool = True, touching: bool = False, roundness: float = 0.65,
             size: tuple[float, float] = (40.0, 40.0)) -> Candidate:
        return Candidate(centre=(100.0, 100.0), size=size, angle=0.0, box=(80, 80, 120, 120),
                         area=1600.0 * fill, fill=fill, touching=touching, isolated=isolated,
                         roundness=roundness)

    def aspect(c: Candidate) -> float:
        return max(c.size) / min(c.size)

    lone = cand(0.74)
    assert _solid_die(lone, aspect(lone), 40.0)
    cut = cand(0.74, isolated=False, touching=True)
    assert not _solid_die(cut, aspect(cut), 40.0)
    assert _solid_die(cand(0.8, isolated=False, touching=True), 1.0, 40.0)
    assert not _solid_die(cand(0.74, roundness=0.82), 1.0, 40.0)
    long_ = cand(0.74, size=(48.0, 32.0))
    assert not _solid_die(long_, aspect(long_), 40.0)
    assert not _solid_die(cand(0.70), 1.0, 40.0)


# ------------------------------------------------ outlines redone only where they decide something


def _counting_refine(monkeypatch) -> list[int]:
    from vision import segment
    calls: list[int] = []
    real = segment._refine
    monkeypatch.setattr(segment, "_refine", lambda *a: calls.append(1) or real(*a))
    return calls


def test_clearly_read_dice_keep_their_coarse_outlines(monkeypatch):
    """Redoing a blob's outline at full resolution costs ~0.2 ms a die; a die read clearly, away
    from the edge of the view, needs none of what the tight outline decides (cut, leaning, a
    second crop)."""
    calls = _counting_refine(monkeypatch)
    specs = [((130 + i * 95, 200 + 40 * (i % 2)), 50, v, 23 * i, WHITE, BLACK) for i, v in enumerate((6, 2, 5, 3, 4))]
    assert_values(read(scene(specs)), [6, 2, 5, 3, 4])
    assert calls == []


def test_a_die_near_the_edge_of_the_view_gets_its_tight_outline(monkeypatch):
    """Whether a die is cut by the edge of the view is decided on its tight outline."""
    calls = _counting_refine(monkeypatch)
    specs = [((320, 240), 50, 3, 10, WHITE, BLACK), ((606, 240), 50, 5, 0, WHITE, BLACK)]
    r = read(scene(specs))
    assert_values(r, [3, 5])
    assert not r.problem_codes()
    assert len(calls) == 1


def _read_with_every_outline_refined(img, monkeypatch):
    from vision import segment
    real = segment.segment
    with monkeypatch.context() as m:
        m.setattr(segment, "segment", lambda *a, **k: real(*a, **{**k, "refine": True}))
        return read(img)


def _lazy_scenes():
    from vision.synthetic import render_tray
    for e in _fixture_entries():
        if e["dice"][0]["box"] is not None:
            yield e["image"], cv2.imread(str(FIXTURES / e["image"]))
    for seed, extra in enumerate(({}, {"touching": 1}, {"leaning": (0,)}, {"glare": True}, {"die_px": 28})):
        yield f"render {extra}", render_tray([(seed + k) % 6 + 1 for k in range(5)], seed=40 + seed, **extra).image


@pytest.mark.parametrize("name,img", list(_lazy_scenes()), ids=lambda v: v if isinstance(v, str) else "")
def test_coarse_outlines_read_the_same_as_tight_ones(name, img, monkeypatch):
    """The reader's values, problems and centres do not depend on which outlines it left coarse."""
    lazy = read(img)
    eager = _read_with_every_outline_refined(img, monkeypatch)
    assert [(d.value, d.problems, d.centre, round(d.confidence, 3)) for d in lazy.dice] \
        == [(d.value, d.problems, d.centre, round(d.confidence, 3)) for d in eager.dice]
    assert lazy.problem_codes() == eager.problem_codes()
    for d in lazy.dice:
        assert d.box[0] <= d.centre[0] <= d.box[2] and d.box[1] <= d.centre[1] <= d.box[3]


# ------------------------------------------------------- dice touching edge to edge, in a row


def _row(n: int, size: int) -> tuple[np.ndarray, list[tuple[float, int]]]:
    """n white dice 2, 3, ... side by side, edge to edge, on the light tray: (image, [(x, value)])."""
    dice = [(120 + i * size, i + 2) for i in range(n)]
    return scene([((x, 240), size, v, 0, WHITE, BLACK) for x, v in dice]), dice


def test_two_dice_edge_to_edge_are_both_read():
    """The detector finds the 2 by one corner (a crop of it shows a single pip): the crop of
    the classical blob, surer, is what is read."""
    img, _dice = _row(2, 46)
    assert_values(read(img), [2, 3])


@pytest.mark.parametrize("n,size", [(3, 46), (4, 46), (5, 46), (5, 54)])
def test_a_row_of_touching_dice_never_gets_a_wrong_value(n, size):
    """Long rows of touching white dice on a light tray are a known weakness (dice missed: the
    table sees too few dice and asks again); what is read must be right. Where the detector saw
    a corner of a die and the die's own blob reads another value, the die is unsure; where a
    pip of the 2 is found as a die of its own on the 2's face (5 dice of 54 px: read 1 at 0.96
    until 2026-11-25), that find is unsure."""
    img, dice = _row(n, size)
    r = read(img)
    for d in r.dice:
        if d.value is not None:
            x, v = min(dice, key=lambda xv: abs(xv[0] - d.centre[0]))
            assert d.value == v, (d.value, d.centre, r.values)


@pytest.mark.parametrize("small, big, unsure", [
    # (value, centre, box side) of a small find and a bigger one; is the small one made unsure?
    ((1, (104, 222), 33), (2, (126, 240), 68), True),     # a pip of a 2, on its face
    ((2, (133, 366), 40), (3, (133, 380), 74), True),     # two pips of a 3 seen obliquely
    ((1, (104, 222), 33), (None, (126, 240), 68), False),  # beside an unread find: may be the face
    ((1, (104, 222), 33), (1, (126, 240), 68), False),     # the same die found twice: value right
    ((1, (80, 240), 33), (2, (126, 240), 68), False),      # beside the face, not on it
    ((1, (104, 222), 60), (2, (126, 240), 68), False),     # as big as the other: two dice
])
def test_a_find_on_the_face_of_a_bigger_die_that_reads_otherwise_is_unsure(small, big, unsure):
    from vision.reader import _on_another_face, _Pending

    def pending(value, centre, side):
        box = (centre[0] - side / 2, centre[1] - side / 2, centre[0] + side / 2, centre[1] + side / 2)
        return _Pending(value, box, centre, 0.9, [], side)
    a, b = pending(*small), pending(*big)
    assert _on_another_face([a, b]) == ([a] if unsure else [])


def test_the_same_frame_is_read_the_same_every_time():
    """The touching-dice split falls back on k-means, whose seeds come from OpenCV's global
    random generator: unseeded, this frame was cut three ways in six reads (and a still tray
    would never settle)."""
    from vision import segment
    img, _dice = _row(5, 54)
    cuts = {str([(c.centre, c.box) for c in segment.segment(img).candidates]) for _ in range(6)}
    reads = {str([(d.value, d.centre, d.problems) for d in read(img).dice]) for _ in range(6)}
    assert len(cuts) == 1 and len(reads) == 1


@pytest.mark.parametrize("style,colour", [("green", "translucent_green"), ("red", "translucent_red"),
                                          ("blue", "translucent_blue")])
def test_dice_the_colour_of_the_felt_are_read(style, colour):
    """The classical segmenter cannot outline a die of the felt's own colour (test_vision_segment
    marks those xfail); the learned detector and classifier read every one, in crowds too.
    (Black dice on black felt: test_black_dice_on_black_felt_*.)"""
    from vision.synthetic import TrayStyle, render_tray
    for n in (1, 4, 8):
        shot = render_tray([(k % 6) + 1 for k in range(n)], seed=n, style=TrayStyle.preset(style), colours=[colour])
        r = read(shot.image)
        assert len(r.dice) == n
        for t in shot.truth:
            x0, y0, x1, y1 = t.box
            assert [d.value for d in r.dice if x0 <= d.centre[0] <= x1 and y0 <= d.centre[1] <= y1] == [t.value]


def test_black_dice_on_black_felt_are_not_too_dark():
    """98% of such a frame is darker than 40 grey levels, which alone used to mean "frame too
    dark" (blocking: the table could not be played on black felt with black dice). The white
    pips show the light is on: the frame is read, and "too dark" stands only if nothing reads."""
    from vision.synthetic import TrayStyle, render_tray
    read_right = 0
    for seed in range(6):
        for v in (1, 2, 5, 6):
            shot = render_tray([v], seed=seed, style=TrayStyle.preset("dark"), colours=["black"])
            r = read(shot.image)
            assert r.values == [v] or (r.values == [] and r.problem_codes() == {TOO_DARK}), r
            read_right += r.values == [v]
    assert read_right >= 20          # 21 of 24 here; a lone black 1 or 2 is sometimes not found


def _truth_read(shot, r) -> tuple[int, int]:
    """(dice of `shot` read right, values reported where no die of that value is)."""
    def at(t, d):
        return t.box[0] <= d.centre[0] <= t.box[2] and t.box[1] <= d.centre[1] <= t.box[3]
    right = sum(1 for t in shot.truth if [d.value for d in r.dice if at(t, d)] == [t.value])
    wrong = sum(1 for d in r.dice if d.value is not None and not any(at(t, d) and t.value == d.value
                                                                     for t in shot.truth))
    return right, wrong


def _tally(shots) -> tuple[int, int]:
    """(dice read right, wrong values) over rendered shots, each read once."""
    right = wrong = 0
    for shot in shots:
        r_, w_ = _truth_read(shot, read(shot.image))
        right, wrong = right + r_, wrong + w_
    return right, wrong


def test_black_dice_on_black_felt_in_a_crowd():
    """The segmenter sees only the pips of black dice on black felt and takes a pip for a die
    (16 px for 60 px dice), so the detector looked for dice a quarter of their size: most dice
    came out unread. A frame that reads that badly is read again at the detector's own measure
    of the dice (RESCALE_RATIO). Before: 0 of 8 dice in two of these scenes; now none is wrong."""
    from vision.synthetic import TrayStyle, render_tray
    right, wrong = _tally(render_tray([(k % 6) + 1 for k in range(n)], seed=n * 10 + seed,
                                      style=TrayStyle.preset("dark"), colours=["black"])
                          for n in (4, 6, 8) for seed in range(4))
    assert wrong == 0
    assert right >= 60       # 65 of 72 here (without the second reading: 57)


@pytest.mark.parametrize("values, seed", [([6, 4, 6, 2, 3], 508), ([2, 2, 5, 2, 5], 523)])
def test_one_pip_of_a_black_two_is_not_read_as_a_one(values, seed):
    """Black dice on black felt: the detector took one pip of a 2 for a small die (~45 px among
    ~70 px dice) and the classifier read it as a 1, 0.91 and 0.83 sure: a value invented for the
    game. Read again at the size of the frame's other dice, it shows its second pip; it is now
    unsure (the table asks), never a 1."""
    from vision.synthetic import TrayStyle, render_tray
    shot = render_tray(values, seed=seed, style=TrayStyle.preset("dark"), colours=["black"])
    r = read(shot.image)
    right, wrong = _truth_read(shot, r)
    assert wrong == 0
    assert right >= len(values) - 2
    twos = [t for t in shot.truth if t.value == 2]
    on_a_two = [d for d in r.dice for t in twos
                if t.box[0] <= d.centre[0] <= t.box[2] and t.box[1] <= d.centre[1] <= t.box[3]]
    unsure = [d for d in on_a_two if d.value is None]
    assert unsure and all(UNSURE_VALUE in d.problems and d.confidence < 0.5 for d in unsure)


def test_the_detector_reads_around_what_the_segmenter_saw_down_to_a_lone_pip(monkeypatch):
    """The detector reads only the part of the frame around what the segmenter saw (half its
    time on the Byler trays). A translucent green 1 on green felt shows the segmenter nothing
    but its pip, away from the other dice: the pip alone must bring it into that part (with
    only die-sized blobs counted, this die went unseen)."""
    from vision import dicenet, segment, reader as reader_mod
    from vision.synthetic import TrayStyle, render_tray
    regions: list = []
    real = dicenet.find_dice
    monkeypatch.setattr(dicenet, "find_dice", lambda *a, **k: regions.append(k.get("region")) or real(*a, **k))
    shot = render_tray([4, 6, 5, 1, 1], seed=545072, style=TrayStyle.preset("green"),
                       colours=["translucent_green"], touching=1)
    r = read(shot.image)
    right, wrong = _truth_read(shot, r)
    assert (right, wrong) == (5, 0)
    (x0, y0, x1, y1), = regions
    assert (x1 - x0) * (y1 - y0) < 0.8 * 640 * 480     # a part of the frame, not all of it
    lone = next(t for t in shot.truth if t.value == 1 and t.centre[1] > 300)
    assert x0 < lone.box[0] and lone.box[2] < x1 and y0 < lone.box[1] and lone.box[3] < y1
    # without a die-like blob the segmenter's view is not trusted: the whole frame is read
    assert reader_mod._where_to_look(segment.Segmentation([], 40.0, [], 0.5, seen=(10, 10, 50, 50))) is None


def test_a_small_one_among_big_dice_keeps_its_value(monkeypatch):
    """Sets mix sizes (the Byler trays do): a real small 1 is looked at again at the others'
    size, and still reads 1 there."""
    from vision import dicenet, reader as reader_mod
    looked: list[dict] = []
    real = reader_mod._small_ones_read_again
    monkeypatch.setattr(reader_mod, "_small_ones_read_again",
                        lambda bgr, pending: looked.append(real(bgr, pending)) or looked[-1])
    specs = [((120, 240), 64, 6, 10, RED, WHITE), ((260, 240), 64, 5, 25, RED, WHITE),
             ((400, 240), 64, 4, 40, RED, WHITE), ((520, 240), 36, 1, 15, WHITE, BLACK)]
    assert_values(read(scene(specs)), [6, 5, 4, 1])
    (again,) = looked                       # the small 1 was read again at the others' size ...
    assert [dicenet.best_value(p)[0] for p in again.values()] == [1]   # ... and is still a 1


def _pending_one(centre: tuple[float, float], side: float):
    from vision import reader as reader_mod
    x, y = centre
    return reader_mod._Pending(1, (x - side / 2, y - side / 2, x + side / 2, y + side / 2), centre, 0.95, [], side)


def test_a_small_one_whose_outline_cannot_be_seen_is_unsure():
    """A die read 1 that is much smaller than the dice read other values, with its face's colour
    all around it (a pip of a big black die on black felt), may be a pip of a bigger die: it is
    made unsure. A small 1 that stands out from the felt keeps its value, and so does a 1 as big
    as the other dice."""
    from vision import reader as reader_mod
    img = tray(colour=(30, 30, 32), gradient=0.0)                   # dark felt
    draw_die(img, (150, 200), 160, 2, 0, BLACK, WHITE)              # a big black 2 ...
    pip = (150 - 0.27 * 160, 200 - 0.27 * 160)                        # ... one of its pips
    draw_die(img, (420, 200), 150, 5, 0, RED, WHITE)
    draw_die(img, (560, 380), 60, 1, 0, WHITE, BLACK)               # a real small 1
    five = reader_mod._Pending(5, (345, 125, 495, 275), (420, 200), 0.97, [], 150)
    as_pip, small_one = _pending_one(pip, 60), _pending_one((560, 380), 60)
    assert reader_mod._outline_unseen(img, pip, 60)
    assert not reader_mod._outline_unseen(img, (560, 380), 60)
    assert reader_mod._ones_inside_a_bigger_face(img, [as_pip, small_one, five]) == [as_pip]
    # as big as the dice read other values: a die of the felt's colour, not a pip
    assert reader_mod._ones_inside_a_bigger_face(img, [_pending_one(pip, 140), five]) == []
    # every die reads 1: those whose outline is unseen are unsure, one that stands out is kept
    other_pip = _pending_one((150 + 0.27 * 160, 200 + 0.27 * 160), 60)
    assert reader_mod._ones_inside_a_bigger_face(img, [as_pip, small_one, other_pip]) == [as_pip, other_pip]
    assert reader_mod._ones_inside_a_bigger_face(img, [as_pip]) == []       # a lone 1: nothing to go by
    # at the frame's corner only what is in view counts; a frame too small to judge: not unseen
    assert reader_mod._outline_unseen(img, (2, 2), 60)
    assert not reader_mod._outline_unseen(img[:2, :2], (1, 1), 60)
    # on green felt the black 2's pips are pips of a die that can be seen
    green = tray(colour=(40, 70, 30), gradient=0.0)
    draw_die(green, (150, 200), 160, 2, 0, BLACK, WHITE)
    assert not reader_mod._outline_unseen(green, pip, 60)
    # a real throw of all 1s, white dice on green felt, keeps its values
    for x in (300, 420, 540):
        draw_die(green, (x, 380), 60, 1, 15, WHITE, BLACK)
    assert reader_mod._ones_inside_a_bigger_face(green, [_pending_one((x, 380), 60) for x in (300, 420, 540)]) == []


def test_a_frame_that_reads_well_is_read_once(monkeypatch):
    from vision import dicenet
    calls = []
    real = dicenet.find_dice
    monkeypatch.setattr(dicenet, "find_dice", lambda *a, **k: calls.append(a[1:]) or real(*a, **k))
    specs = [((130 + i * 95, 220), 50, v, 11 * i, WHITE, BLACK) for i, v in enumerate((6, 2, 5))]
    assert_values(read(scene(specs)), [6, 2, 5])
    assert len(calls) == 1 and calls[0][0] is not None      # at the segmenter's die size, once


def test_a_dim_room_is_read():
    """The renderer's dim trays (98% of the frame below 40 grey levels, the brightest pixels
    47-61) were all refused as too dark; the dice are readable, and none is read wrong."""
    from vision.synthetic import DIE_COLOURS, TrayStyle, render_tray
    rng = np.random.default_rng(3)
    right, wrong = _tally(render_tray([int(v) for v in rng.integers(1, 7, 4)], seed=100 + seed,
                                      style=TrayStyle.preset("dim"), colours=[colour])
                          for colour in DIE_COLOURS for seed in range(3))
    assert wrong == 0 and right >= 170      # 175 of 192 here (24 refused before, 168 without the gain)


def test_only_a_dim_frame_is_brightened():
    """The digital gain lifts a dim frame's bright end towards BRIGHT_END, at most MAX_GAIN
    times; a well-lit frame, and dark felt in good light (its white pips are bright), are the
    very same array, untouched."""
    from vision.reader_input import BRIGHT_END, MAX_GAIN, brightened
    from vision.synthetic import TrayStyle, render_tray
    lit = render_tray([1, 2, 3, 4, 5], seed=3).image
    assert brightened(lit) is lit
    felt = render_tray([1, 2, 3, 4, 5], seed=3, style=TrayStyle.preset("dark"), colours=["black"]).image
    assert brightened(felt) is felt

    def bright_end(img):
        return float(np.percentile(img.max(axis=2), 99.9))
    for light in (0.5, 0.3, 0.15):
        dim = (lit * light).astype(np.uint8)
        up = brightened(dim)
        assert up.shape == dim.shape and up.dtype == np.uint8
        gain = min(MAX_GAIN, BRIGHT_END / bright_end(dim))
        assert bright_end(up) == pytest.approx(gain * bright_end(dim), abs=3)
        assert bright_end(up) <= BRIGHT_END + 3


# Touching pairs of dice the felt's colour in a dim room (colour, die px, seed): brought up by
# the gain, the segmenter sees only their pips, and each pip read as a die showing 1.
_PIPS_AS_DICE = [("green", 45, 2), ("marbled_green", 45, 1), ("marbled_green", 75, 0)]


@pytest.mark.parametrize("colour, px, seed", _PIPS_AS_DICE)
def test_pips_of_dice_the_felt_colour_are_not_read_as_ones(colour, px, seed):
    """A frame that reads mostly 1s is checked against the detector's own measure of the dice;
    read at that size, the dice that hold several of the first reading's finds count once. Before:
    5 wrong values in each of these trays (4 pips read 1); now none, and 3-4 dice of 6 right."""
    from vision.synthetic import DIE_COLOURS, STYLES, TrayStyle, render_tray
    k, j = list(STYLES).index("dim"), list(DIE_COLOURS).index(colour)
    vals = [(k + j + px + i + seed) % 6 + 1 for i in range(6)]
    shot = render_tray(vals, seed=1000 + 31 * k + 7 * j + px + 9973 * seed, style=TrayStyle.preset("dim"),
                       colours=[colour], die_px=px, touching=3)
    right, wrong = _truth_read(shot, read(shot.image))
    assert wrong == 0 and right >= 3


def test_finds_inside_one_bigger_die_count_once():
    from vision.reader import _n_read_apart
    from vision.types import Die

    def die(v, x, y, s):
        return Die(v, (x - s / 2, y - s / 2, x + s / 2, y + s / 2), (x, y), 0.9)
    pips_read = [die(1, 100, 100, 20), die(1, 120, 110, 20), die(1, 300, 300, 20), die(None, 500, 500, 20),
                 die(4, 700, 100, 20)]
    bigger = [die(5, 110, 105, 70), die(6, 310, 300, 70)]
    assert _n_read_apart(pips_read, bigger) == 3      # the two 1s in the first die once, the 1 in the second, the 4
    assert _n_read_apart(pips_read, []) == 4


def test_a_dim_tray_is_still_too_dark():
    """Lights nearly off (12% of a tray's light): the advice is "too dark", no dice."""
    from vision.synthetic import render_tray
    shot = render_tray([1, 2, 3, 4, 5], seed=3)
    dim = (shot.image.astype(np.float32) * 0.12).astype(np.uint8)
    r = read(dim)
    assert r.dice == () and r.problem_codes() == {TOO_DARK}


def test_gold_dice_in_a_dim_room_are_read_not_refused_as_too_dark():
    """A gold die's light is in its red and green: in a dim room its brightest grey was 39, under
    the bar of "some detail lit enough to read", and every such tray was refused (0 of 12 dice).
    The bar is now taken on each pixel's brightest channel (50 here), as the digital gain is."""
    from vision import render_bench
    t = render_bench.run(["dim"], ["gold"]).total
    assert t.right >= 11 and t.wrong == 0, t


def test_hot_pixels_on_a_black_frame_are_still_too_dark():
    """Bright specks alone (hot pixels, a LED) let the frame be read; nothing reads, so it is
    too dark."""
    img = np.zeros((480, 640, 3), np.uint8)
    rng = np.random.default_rng(5)
    img[rng.integers(0, 480, 60), rng.integers(0, 640, 60)] = 255
    r = read(img)
    assert r.dice == () and r.problem_codes() == {TOO_DARK}


def test_translucent_dice_of_the_felts_colour_under_glare():
    """Translucent green dice on green felt, a lamp's glare beside them: the segmenter measures
    their pips, not them, and the detector at that scale read one pip of a 2 as a 1 (13 wrong
    values in these 12 scenes, none right). Fewer than half the finds reading is the cue to read
    again at the detector's own measure: 21 of 30 right here. Still a known weakness: 6 values
    in two scenes (seeds 5 and 7) stay wrong."""
    from vision.synthetic import TrayStyle, render_tray
    right, wrong = _tally(render_tray([2, 5, 3][: 2 + seed % 2], seed=seed, style=TrayStyle.preset("glare"),
                                      colours=["translucent_green"]) for seed in range(12))
    assert right >= 18 and wrong <= 6, (right, wrong)


def _tray_with_round_things(kind: str, seed: int, rng: np.random.Generator, gap: tuple[float, float] | None
                           ) -> tuple[Any, np.ndarray, list[tuple[float, float, float]]]:
    """A rendered tray of three dice with two round things painted in it: apart from the dice
    (`gap` None: over 1.5 die sides from any), or touching one (centres `gap` die sides apart)."""
    from vision.synthetic import TrayStyle, render_tray
    style = TrayStyle.preset("dark" if seed % 2 else "green")
    shot = render_tray([(seed + k) % 6 + 1 for k in range(3)], seed=900 + seed, style=style)
    img = shot.image.copy()
    side = float(np.median([t.box[2] - t.box[0] for t in shot.truth]))
    placed: list[tuple[float, float, float]] = []
    for _ in range(400):
        if len(placed) == 2:
            break
        r = side * rng.uniform(0.45, 0.6)
        x, y = rng.uniform(60, img.shape[1] - 60), rng.uniform(60, img.shape[0] - 60)
        near = min(np.hypot(x - (t.box[0] + t.box[2]) / 2, y - (t.box[1] + t.box[3]) / 2) for t in shot.truth)
        fits = near > 1.5 * side if gap is None else gap[0] * side < near < gap[1] * side
        if fits and all(np.hypot(x - p[0], y - p[1]) > 3 * side for p in placed):
            paint_round_thing(img, (x, y), r, kind, rng)
            placed.append((x, y, r))
    return shot, img, placed


@pytest.mark.parametrize("kind", ["coin", "token", "button"])
def test_round_things_in_the_tray_get_no_value_and_are_reported(kind):
    """A die is never round. The nets read a disc with a mark at its centre as a 1, up to 0.98
    sure (16 of 16 coins and 9 of 16 tokens here before the segmenter's disc cue): a value
    invented for the game. The segmenter sees the disc's round outline (segment.DISC), so no die
    is reported on it, the players are told something that is not a die is in the tray (a
    foreign object: the table waits until it is taken out) and the dice beside it still read."""
    rng = np.random.default_rng(5)
    things = on_a_thing = told = right = dice = 0
    for seed in range(8):
        shot, img, placed = _tray_with_round_things(kind, seed, rng, None)
        reading = read(img)
        things += len(placed)
        for x, y, rad in placed:
            on_a_thing += any(np.hypot(d.centre[0] - x, d.centre[1] - y) < rad for d in reading.dice)
            told += any(p.code == FOREIGN_OBJECT and p.box is not None and p.box[0] <= x <= p.box[2]
                        and p.box[1] <= y <= p.box[3] for p in reading.problems)
        shot_right, _wrong = _truth_read(shot, reading)
        right, dice = right + shot_right, dice + len(shot.truth)
    assert things >= 12
    assert on_a_thing == 0, f"{on_a_thing} of {things} round things ({kind}) reported as dice"
    assert told >= 0.75 * things, f"{told} of {things} round things ({kind}) reported as objects"
    assert right >= 0.9 * dice, f"{right}/{dice} dice beside them read right"


ROUND_THING_TOUCHING = pytest.mark.xfail(strict=True, reason=(
    "known limit: a round thing touching a die joins its blob, so the disc cue does not see it: "
    "11 of 16 coins and 1 of 16 tokens valued, and 16-18 of 24 dice beside them read right "
    "(docs/vision.md, Limits)"))


@pytest.mark.parametrize("kind", [pytest.param(k, marks=ROUND_THING_TOUCHING) for k in ("coin", "token", "button")])
def test_round_things_touching_a_die_get_no_value(kind):
    """The same things pushed against a die (centres 0.75-1.05 die sides apart)."""
    rng = np.random.default_rng(5)
    things = valued = right = dice = 0
    for seed in range(8):
        shot, img, placed = _tray_with_round_things(kind, seed, rng, (0.75, 1.05))
        reading = read(img)
        things += len(placed)
        valued += sum(1 for x, y, rad in placed for d in reading.dice
                      if d.value is not None and np.hypot(d.centre[0] - x, d.centre[1] - y) < rad)
        shot_right, _wrong = _truth_read(shot, reading)
        right, dice = right + shot_right, dice + len(shot.truth)
    assert things >= 12
    assert valued == 0, f"{valued} of {things} round things ({kind}) read as dice"
    assert right >= 0.9 * dice, f"{right}/{dice} dice beside them read right"


# Byler dice the nets read less than surely and the classical face stage confirms only when it
# weighs colour by hue (image, label index): three dark swirled dice with red pips, a red 1.
_BY_HUE = [("IMG_20191208_111304.jpg", 6), ("IMG_20191208_112104.jpg", 6),
           ("IMG_20191208_112905.jpg", 0), ("IMG_20191209_095919.jpg", 4)]


@pytest.mark.skipif(not default_photos_dir().is_dir(), reason="shared dice-photos not available")
def test_unsure_dice_agreed_by_hue(monkeypatch):
    """These dice read right only through agreement by hue (pips.HUE_W); without it, unread.
    Over the whole Byler set: 882 -> 886 of 909 read right, no die more wrong (docs/vision.md)."""
    from vision import pips
    root = default_photos_dir() / "nellbyler_d6"
    entries = {e["image"].split("/")[-1]: e for e in json.loads((root / "labels.json").read_text())}

    def value_at(name: str, i: int) -> int | None:
        e = entries[name]
        x0, y0, x1, y1 = e["dice"][i]["box"]
        r = read(cv2.imread(str(root / e["image"])))
        hits = [d.value for d in r.dice if x0 <= d.centre[0] <= x1 and y0 <= d.centre[1] <= y1]
        assert len(hits) == 1
        return hits[0]
    assert [value_at(n, i) for n, i in _BY_HUE] == [entries[n]["dice"][i]["value"] for n, i in _BY_HUE]
    monkeypatch.setattr(pips, "HUE_W", pips.LAB_W)
    assert [value_at(n, i) for n, i in _BY_HUE] == [None] * 4


@pytest.mark.parametrize("streak", [0, 4, 8, 12])
def test_mild_motion_blur_is_read(streak):
    """A streak up to a fifth of a die (12 px on 60 px dice): every die read, nothing said."""
    from vision.synthetic import render_tray
    for seed in range(3):
        shot = render_tray([1, 2, 3, 4, 5, 6], seed=seed, die_px=60, motion_blur=streak)
        r = read(shot.image)
        assert _truth_read(shot, r) == (6, 0) and BLURRED not in r.problem_codes()


def test_a_shaken_camera_is_said_and_its_doubtful_values_dropped():
    """Streaks of a quarter and a third of a die: the frame is reported blurred (blocking at the
    table, which waits for a sharp frame), only values 0.95 sure stand, and none of them is wrong.
    Without the check: 46 right and 8 wrong over these 12 trays, nothing said."""
    from vision.synthetic import render_tray
    right = wrong = said = 0
    for streak in (16, 20):
        for seed in range(6):
            shot = render_tray([1, 2, 3, 4, 5, 6], seed=seed, die_px=60, motion_blur=streak)
            r = read(shot.image)
            r_, w_ = _truth_read(shot, r)
            right, wrong, said = right + r_, wrong + w_, said + (BLURRED in r.problem_codes())
            assert all(d.confidence >= 0.95 for d in r.dice if d.value is not None) or BLURRED not in r.problem_codes()
    assert said >= 11 and wrong <= 1


def test_directional_sharpness_tells_a_streak_from_an_oblique_view():
    """A die seen from the side is squashed but sharp; a streaked one is soft one way."""
    from vision.reader import _directional_sharpness
    face = np.full((48, 48), 230, np.uint8)
    for x, y in ((14, 14), (34, 14), (24, 24), (14, 34), (34, 34)):
        cv2.circle(face, (x, y), 4, 20, -1, cv2.LINE_AA)
    squashed = cv2.resize(face, (48, 29), interpolation=cv2.INTER_AREA)
    line = np.zeros((9, 9), np.float32)
    line[4, :] = 1 / 9
    streaked = cv2.filter2D(face, -1, line)
    assert _directional_sharpness(face) > 0.8
    assert _directional_sharpness(squashed) > 0.6
    assert _directional_sharpness(streaked) < 0.5


def test_pips_of_big_black_dice_on_dark_felt_are_not_read_as_ones():
    """Found by `python -m vision.render_bench --die-px 120`: six black dice of 120 px on the dark
    felt read "1 1 1 1 1 5" (five pips of two 2s and a 5). The number of finds matched the dice,
    so the table would have offered it. Those 1s are far smaller than the 5 and their face's
    colour goes on past their corners: unsure now, and nothing is read wrong."""
    from vision import render_bench
    t = render_bench.run(["dark"], ["black"], seeds=6, die_px=120).total
    assert t.wrong == 0, t      # (trays 2 and 5 read "1 1 1 1": every die a pip, none bigger)


def test_a_huge_frame_is_thinned_before_its_pixels_are_converted(monkeypatch):
    """A 20000 x 20000 float frame was converted to float32 whole (three 4.8 GB copies) before
    it was downscaled to 1600 px; a 20000 x 20000 view now converts ~3300 x 3300."""
    import numpy as np

    from vision import reader, reader_input

    seen = []
    real = reader_input._to_uint8
    monkeypatch.setattr(reader_input, "_to_uint8", lambda a: seen.append(a.shape) or real(a))
    frame = np.broadcast_to(np.float64(0.4), (20000, 20000, 3))
    r = reader.read(frame)
    assert seen and max(seen[0][:2]) <= 3400
    assert r.size == (20000, 20000) and "bad_frame" not in r.problem_codes()


def test_an_object_array_is_named_as_such():
    import numpy as np

    from vision import reader

    r = reader.read(np.array([[1, 2], [3, None]], dtype=object))
    assert [p.message for p in r.problems] == ["frame is not an array of numbers"]
