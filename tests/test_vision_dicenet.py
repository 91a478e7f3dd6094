"""The learned stages (vision/dicenet.py): shipped models, finding, classifying, falling back."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import dicenet, reader
from vision.synthetic import TrayStyle, render_tray


def test_models_ship_small_and_load():
    for path, most in ((dicenet.DET_FILE, 1_000_000), (dicenet.CLS_FILE, 1_000_000), (dicenet.VERIFY_FILE, 2_000_000)):
        assert path.is_file(), path
        assert path.stat().st_size < most
    assert dicenet.available() and dicenet.verifier_available()
    crop = dicenet.crops(np.full((200, 200, 3), 120, np.uint8), [((100.0, 100.0), 40.0)], dicenet.VERIFY_SIZE)
    assert dicenet.classify(crop, dicenet.VERIFY_FILE).shape == (1, 7)


@pytest.mark.parametrize("style,die_px,colours", [
    ("green", 60, ["white"]), ("light", 34, ["red", "blue", "black"]), ("dark", 90, ["yellow", "white"]),
    ("blue", 28, ["ivory"]), ("dim", 50, ["green", "marbled"]),
])
def test_finds_and_reads_rendered_dice(style, die_px, colours):
    """Rendered trays (a few of the many looks the nets were trained on), at the calibrated die
    size: nearly every die found once, at about its size, and read right."""
    right = found_once = total = extras = 0
    for seed in range(4):
        values = [(seed * 3 + k) % 6 + 1 for k in range(5)]
        shot = render_tray(values, seed=100 + seed, style=TrayStyle.preset(style), die_px=die_px, colours=colours)
        found = dicenet.find_dice(shot.image, die_px=die_px)
        probs = dicenet.classify(dicenet.crops(shot.image, [(f.centre, f.side) for f in found]))
        matched = 0
        for t in shot.truth:
            x0, y0, x1, y1 = t.box
            hits = [(f, p) for f, p in zip(found, probs) if x0 <= f.centre[0] <= x1 and y0 <= f.centre[1] <= y1]
            total += 1
            if len(hits) == 1:
                f, p = hits[0]
                found_once += 1
                assert 0.6 * (x1 - x0) <= f.side <= 1.6 * (x1 - x0)
                right += int(np.argmax(p)) == t.value
            matched += len(hits)
        extras += len(found) - matched
    assert found_once >= 0.95 * total, f"{found_once}/{total} found once"
    assert right >= 0.9 * total, f"{right}/{total} read right"
    assert extras <= 2


def test_empty_and_odd_frames_give_nothing():
    assert dicenet.find_dice(np.full((480, 640, 3), 90, np.uint8)) == []
    assert dicenet.find_dice(np.zeros((8, 8, 3), np.uint8)) == []
    assert dicenet.classify(np.zeros((0, dicenet.CLS_SIZE, dicenet.CLS_SIZE, 3), np.uint8)).shape == (0, 7)
    p = dicenet.classify(dicenet.crops(np.full((200, 200, 3), 120, np.uint8), [((100.0, 100.0), 40.0)]))
    assert p.shape == (1, 7) and abs(float(p.sum()) - 1.0) < 1e-4
    assert int(np.argmax(p[0])) == 0   # a plain patch is not a die


def _finds_on(found: list[dicenet.Found], t) -> list[dicenet.Found]:
    """The finds whose centre is on the rendered die `t` (inside its box)."""
    return [f for f in found if t.box[0] <= f.centre[0] <= t.box[2] and t.box[1] <= f.centre[1] <= t.box[3]]


def test_without_a_die_size_the_dice_are_measured_first():
    """No calibration: a coarse pass then the right scale, for big and for small dice."""
    for die_px, size in ((100, (800, 600)), (30, (640, 480))):
        shot = render_tray([1, 3, 5, 6], seed=8, die_px=die_px, size=size)
        found = dicenet.find_dice(shot.image)
        for t in shot.truth:
            hits = _finds_on(found, t)
            assert len(hits) == 1, (die_px, t)
            assert 0.6 <= hits[0].side / (t.box[2] - t.box[0]) <= 1.6


def test_calibrated_die_size_sets_the_scale():
    shot = render_tray([2, 5, 6], seed=5, die_px=100, size=(800, 600))
    found = dicenet.find_dice(shot.image, die_px=100)
    assert len(found) == 3
    for t in shot.truth:   # each die found once, at about the size of its box
        hits = _finds_on(found, t)
        assert len(hits) == 1 and 0.7 <= hits[0].side / (t.box[2] - t.box[0]) <= 1.4


def test_the_detector_looks_only_in_its_region_and_finds_there_what_the_whole_frame_does():
    """A region is cut on the detector's output grid: the dice well inside it are found where a
    whole-frame pass finds them; the dice outside are not looked for."""
    shot = render_tray([1, 2, 3, 4, 5, 6], seed=8, die_px=40, size=(640, 480))
    whole = dicenet.find_dice(shot.image, die_px=40)
    assert len(whole) == 6
    region = (320.0, 0.0, 640.0, 480.0)
    part = dicenet.find_dice(shot.image, die_px=40, region=region)
    inside = [t for t in shot.truth if t.box[0] > 320 + 40]
    outside = [t for t in shot.truth if t.box[2] < 320]
    assert inside and outside        # (the seed lays the dice out so)
    for t in inside:
        (a,), (b,) = _finds_on(whole, t), _finds_on(part, t)
        assert abs(a.centre[0] - b.centre[0]) < 1 and abs(a.centre[1] - b.centre[1]) < 1
        assert abs(a.side - b.side) < 1
    assert not any(_finds_on(part, t) for t in outside)


@pytest.mark.parametrize("region", [(-500.0, -500.0, -400.0, -400.0), (300.0, 200.0, 302.0, 201.0),
                                    (600.0, 440.0, 5000.0, 5000.0)])
def test_a_region_off_or_at_the_frame_edge_still_runs_the_detector(region):
    """Regions outside the frame or smaller than the net's least input are widened, not refused."""
    shot = render_tray([2, 4], seed=3, die_px=40, size=(640, 480))
    found = dicenet.find_dice(shot.image, die_px=40, region=region)
    assert isinstance(found, list)


def test_missing_or_broken_model_falls_back_to_classical(tmp_path, monkeypatch):
    bad = tmp_path / "broken.onnx"
    bad.write_bytes(b"not a network")
    monkeypatch.setattr(dicenet, "DET_FILE", bad)
    assert not dicenet.available()
    monkeypatch.setattr(dicenet, "DET_FILE", tmp_path / "missing.onnx")
    assert not dicenet.available()
    shot = render_tray([3, 4], seed=11)
    r = reader.read(shot.image)
    assert sorted(d.value for d in r.dice) == [3, 4]


def test_reader_uses_the_learned_stages_by_default(monkeypatch):
    shot = render_tray([1, 6, 2], seed=21)
    calls = []
    real = dicenet.find_dice
    monkeypatch.setattr(dicenet, "find_dice", lambda *a, **k: calls.append(1) or real(*a, **k))
    r = reader.read(shot.image)
    assert calls and sorted(d.value for d in r.dice) == [1, 2, 6]
    calls.clear()
    assert sorted(d.value for d in reader.read(shot.image, learned=False).dice) == [1, 2, 6]
    assert not calls


def test_unsure_classifier_gives_no_value(monkeypatch):
    """Probabilities spread over values: the die is reported, unread and flagged, never guessed."""
    shot = render_tray([4], seed=3)
    monkeypatch.setattr(dicenet, "classify", lambda batch, rotations=None: np.tile(
        np.array([0.05, 0.3, 0.1, 0.1, 0.35, 0.05, 0.05], np.float32), (len(batch), 1)))
    r = reader.read(shot.image)
    assert [d.value for d in r.dice] == [None]
    assert "unsure_value" in r.dice[0].problems


def test_an_unsure_die_is_looked_at_again_turned(monkeypatch):
    """Without the verifier: unsure at first sight, sure over the three other right-angle
    turns, the four views averaged give the die its value. A die read sure at once is not
    looked at again (the extra views cost time)."""
    monkeypatch.setattr(reader, "USE_VERIFIER", False)
    shot = render_tray([4, 2], seed=3)
    batches: list[np.ndarray] = []
    first = np.array([0.02, 0.05, 0.05, 0.05, 0.6, 0.2, 0.03], np.float32)    # 4, but unsure
    turned = np.array([0.0, 0.0, 0.0, 0.0, 0.9, 0.1, 0.0], np.float32)        # 4, sure

    def classify(batch, rotations=None):
        batches.append(batch)
        return np.tile(first if len(batches) == 1 else turned, (len(batch), 1))
    monkeypatch.setattr(dicenet, "classify", classify)
    r = reader.read(shot.image)
    assert [d.value for d in r.dice] == [4, 4]
    assert all(abs(d.confidence - (0.6 + 3 * 0.9) / 4) < 1e-3 for d in r.dice)
    assert len(batches) == 2 and len(batches[1]) == 3 * len(batches[0])
    assert np.array_equal(batches[1][0], np.rot90(batches[0][0]))     # the first die, turned once
    batches.clear()
    monkeypatch.setattr(dicenet, "classify", lambda batch, rotations=None: batches.append(batch) or np.tile(
        turned, (len(batch), 1)))
    assert [d.value for d in reader.read(shot.image).dice] == [4, 4] and len(batches) == 1


def test_training_crops_sheared_about_the_die():
    """The oblique-view augmentation keeps the die centred: a crop of a lone bright square stays
    brightest at its centre, sheared or not."""
    from vision import train_dicenet as td

    img = np.zeros((200, 200, 3), np.uint8)
    img[80:120, 80:120] = 255
    scene = [(img, [(100.0, 100.0, 40.0, 3)], [])]
    X, Y = td.classifier_samples(scene, 30, np.random.default_rng(1), neg_frac=0.0, shear=0.3)
    c = dicenet.CLS_SIZE // 2
    assert (Y == 3).all()
    assert (X[:, c - 2:c + 2, c - 2:c + 2].mean(axis=(1, 2, 3)) > X.mean(axis=(1, 2, 3))).all()


def test_training_samples_mark_every_die():
    """The training data builder (no PyTorch needed for it): one heat peak per die in view, at
    the die's size, and classifier crops labelled with the value of the die they centre on."""
    from vision import train_dicenet as td

    scenes = td.render_scenes(3, seed=4)
    assert scenes and all(len(s) == 3 for s in scenes)
    rng = np.random.default_rng(0)
    X, H, Z, M = td.detector_samples(scenes, 6, rng)
    assert X.shape == (6, dicenet.DET_PATCH, dicenet.DET_PATCH, 3) and X.dtype == np.uint8
    assert H.max() == 1.0 and M.sum() >= 1
    sides = np.exp(Z[:, 0][M[:, 0] > 0])
    assert ((sides > 0.5 * dicenet.DET_DIE_MIN) & (sides < 2.5 * dicenet.DET_DIE_MAX)).all()
    assert np.array_equal(H == 1.0, M > 0)          # peaks exactly where sizes are trained
    Xc, Y = td.classifier_samples(scenes, 40, rng, neg_frac=0.0)
    assert Xc.shape == (40, dicenet.CLS_SIZE, dicenet.CLS_SIZE, 3)
    assert set(Y.tolist()) <= {1, 2, 3, 4, 5, 6}
    _Xn, Yn = td.classifier_samples(scenes, 40, rng, neg_frac=1.0)
    assert (Yn == 0).mean() > 0.6
    Xv, _Yv = td.classifier_samples(scenes, 8, rng, size=40)     # a verifier on its own crop size
    assert Xv.shape == (8, 40, 40, 3)


@pytest.mark.parametrize("size, out", [((640, 640), (256, 256)), ((640, 480), (256, 192)),
                                       ((640, 480), (640, 480)), ((100, 80), (160, 128))])
def test_shrink_gives_the_size_asked_and_averages_fine_detail(size, out):
    """The detector's input: any size asked for; a fine pattern shrunk by 2.5x comes out as its
    average grey (area-averaged first), not as aliased stripes."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w]
    img = np.repeat((((xx + yy) % 2) * 255).astype(np.uint8)[:, :, None], 3, axis=2)
    small = dicenet.shrink(img, *out)
    assert small.shape == (out[1], out[0], 3)
    if out[0] < w:
        assert abs(float(small.mean()) - 127.5) < 3 and float(small.std()) < 20


def test_shrink_takes_an_area_averaged_copy_of_the_size_its_first_step_makes():
    """The segmenter's working copy of a 640 x 480 frame (area-averaged to 320 x 240) is the
    detector's first downscale step too: given, it is taken instead of being made again, and
    the detector's finds are bit for bit the same; a copy of another size is not taken."""
    from vision import segment
    shot = render_tray([1, 3, 5, 6], seed=21, die_px=37, size=(640, 480))
    seg = segment.segment(shot.image, refine=False)
    assert seg.work is not None and seg.work.shape == (240, 320, 3)
    assert np.array_equal(seg.work, cv2.resize(shot.image, (320, 240), interpolation=cv2.INTER_AREA))
    plain = dicenet.shrink(shot.image, 272, 204)
    assert np.array_equal(dicenet.shrink(shot.image, 272, 204, area=seg.work), plain)
    marked = seg.work.copy()
    marked[:] = 7
    assert (dicenet.shrink(shot.image, 272, 204, area=marked) == 7).all()      # taken
    other = np.full((200, 300, 3), 7, np.uint8)
    assert np.array_equal(dicenet.shrink(shot.image, 272, 204, area=other), plain)   # not taken
    region = reader._where_to_look(seg)
    a = dicenet.find_dice(shot.image, die_px=37, region=region)
    b = dicenet.find_dice(shot.image, die_px=37, region=region, area=seg.work)
    assert len(a) == 4 and [(f.centre, f.side, f.score) for f in a] == [(f.centre, f.side, f.score) for f in b]


@pytest.mark.parametrize("side, angle, centre", [(120.0, 0.0, (320, 240)), (90.0, 33.0, (320, 240)),
                                                  (120.0, 33.0, (6, 470)), (20.0, 10.0, (320, 240))])
def test_crops_are_anti_aliased_and_where_the_die_is(side, angle, centre):
    """A classifier crop of a big die is area-averaged (a fine pattern comes out grey, not as
    stripes) and maps the frame exactly as the plain warp does (a ramp comes out the same)."""
    cx, cy = centre
    s = dicenet.CLS_SIZE / (dicenet.CLS_MARGIN * side)
    m = cv2.getRotationMatrix2D((cx, cy), angle, s)
    m[0, 2] += dicenet.CLS_SIZE / 2 - cx
    m[1, 2] += dicenet.CLS_SIZE / 2 - cy
    yy, xx = np.mgrid[0:480, 0:640].astype(np.float32)
    ramp = np.dstack([xx * 0.3, yy * 0.4, (xx + yy) * 0.2])
    plain = cv2.warpAffine(ramp, m, (dicenet.CLS_SIZE,) * 2, flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REFLECT)
    # (compared where the crop shows the frame: beyond its edge both mirror, a little differently)
    inv = cv2.invertAffineTransform(m)
    v, u = np.mgrid[0:dicenet.CLS_SIZE, 0:dicenet.CLS_SIZE]
    sx, sy = inv[0, 0] * u + inv[0, 1] * v + inv[0, 2], inv[1, 0] * u + inv[1, 1] * v + inv[1, 2]
    inside = (sx >= 4) & (sx <= 635) & (sy >= 4) & (sy <= 475)
    assert inside.sum() > 100
    assert np.abs(dicenet.warp_crop(ramp, m, dicenet.CLS_SIZE) - plain)[inside].max() < 0.1
    fine = np.repeat((((xx + yy) % 2) * 255).astype(np.uint8)[:, :, None], 3, axis=2)
    crop = dicenet.warp_crop(fine, m, dicenet.CLS_SIZE)
    if s < 0.5:     # the cases where the whole-number part of the downscale is averaged
        assert abs(float(crop.mean()) - 127.5) < 4 and float(crop.std()) < 20
    if angle == 0.0 and centre == (320, 240):   # the axis-aligned crop is crops()' crop
        assert np.array_equal(crop, dicenet.crops(fine, [((cx, cy), side)])[0])


def test_the_verifier_reads_what_the_classifier_doubts(monkeypatch):
    """A die the classifier reads below VERIFY_BELOW is read again by the verifier, on its own
    crops, and the verifier's reading counts (here it turns a narrow, wrong 0.8 into a sure 5);
    a die read sure at once is not sent (the verifier costs twice the classifier a crop)."""
    shot = render_tray([4, 2], seed=3)
    calls: list[tuple[object, int, int]] = []
    doubtful = np.array([0.0, 0.0, 0.0, 0.0, 0.8, 0.2, 0.0], np.float32)     # 4, 0.8: accepted alone
    sure = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.97, 0.03], np.float32)       # 5, sure

    def classify(batch, model=None):
        calls.append((model, len(batch), batch.shape[1]))
        return np.tile(sure if model == dicenet.VERIFY_FILE else doubtful, (len(batch), 1))
    monkeypatch.setattr(dicenet, "classify", classify)
    monkeypatch.setattr(dicenet, "VERIFY_SIZE", 40)
    r = reader.read(shot.image)
    assert [d.value for d in r.dice] == [5, 5]
    assert calls[0][0] is None and calls[1] == (dicenet.VERIFY_FILE, calls[0][1], 40)
    assert len(calls) == 2      # the verifier was sure: no turned views
    calls.clear()
    monkeypatch.setattr(reader, "VERIFY_BELOW", 0.75)
    assert [d.value for d in reader.read(shot.image).dice] == [4, 4] and len(calls) == 1


def test_without_the_verifier_file_the_classifier_looks_again(tmp_path, monkeypatch):
    monkeypatch.setattr(dicenet, "VERIFY_FILE", tmp_path / "missing.onnx")
    assert not dicenet.verifier_available() and dicenet.available()
    shot = render_tray([3, 6, 1], seed=5)
    assert sorted(d.value for d in reader.read(shot.image).dice) == [1, 3, 6]


def test_training_round_tokens_are_round_light_and_not_dice():
    """`--tokens`: some "not a die" crops get a round thing painted at their centre (a coin, a
    number token). It is labelled 0, light (a dark disc with a dot is, at 25 px, a dark die's 1),
    and round: it covers the crop's centre and leaves its corners as they were."""
    from vision import train_dicenet as td

    rng = np.random.default_rng(3)
    C = dicenet.CLS_SIZE
    felt = np.full((C, C, 3), 40, np.uint8)
    yy, xx = np.mgrid[0:C, 0:C]
    inner = np.hypot(xx - C / 2 + 0.5, yy - C / 2 + 0.5) < 0.6 * C / (2 * dicenet.CLS_MARGIN)
    for _ in range(30):
        out = td._round_token(felt, rng)
        changed = np.abs(out.astype(int) - felt).max(axis=2) > 30
        assert changed[inner].mean() > 0.5         # (its mark may be dark, as the felt)
        assert not changed[0, 0] and not changed[0, -1] and not changed[-1, 0] and not changed[-1, -1]
        assert out[changed].mean() > 80
    img = np.zeros((200, 200, 3), np.uint8)
    img[80:120, 80:120] = 255
    scene = [(img, [(100.0, 100.0, 40.0, 3)], [])]
    _X, Y = td.classifier_samples(scene, 60, np.random.default_rng(1), neg_frac=1.0, token_frac=1.0)
    assert (Y == 0).sum() > 40


def test_training_photos_by_half_with_the_byler_trays_on_their_own(tmp_path):
    """`--byler-half all` takes every Byler tray while the other sources keep `--half`, so nets can
    learn from all Byler photos and still be measured on the others' unseen halves."""
    import json

    import cv2
    from vision import train_dicenet as td

    for src in ("nellbyler_d6", "roboflow_dice_v3_epanemu", "casino_crops_chase"):
        (tmp_path / src / "images").mkdir(parents=True)
        entries = []
        for i in range(5):
            cv2.imwrite(str(tmp_path / src / "images" / f"{i}.png"), np.full((20, 20, 3), 10 * i, np.uint8))
            entries.append({"image": f"images/{i}.png", "dice": [{"value": i + 1, "box": [2, 2, 12, 12]}]})
        (tmp_path / src / "labels.json").write_text(json.dumps(entries))

    def values(photos: dict, src: str) -> list[int]:
        return [dice[0][3] for _img, dice in photos[src]]

    even = td.load_photos(tmp_path, "even")
    assert all(values(even, s) == [1, 3, 5] for s in even)
    mixed = td.load_photos(tmp_path, "even", byler_half="all")
    assert values(mixed, "nellbyler_d6") == [1, 2, 3, 4, 5]
    assert values(mixed, "roboflow_dice_v3_epanemu") == values(mixed, "casino_crops_chase") == [1, 3, 5]
    assert values(td.load_photos(tmp_path, "odd", byler_half="even"), "nellbyler_d6") == [1, 3, 5]
    assert values(td.load_photos(tmp_path, "odd"), "casino_crops_chase") == [2, 4]
