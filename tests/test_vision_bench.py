"""Benchmark on the shared labelled photos (skipped where /work/shared is absent) + matching."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import bench, cli, conditions


def test_match_centre_in_box_and_extras():
    labels = [{"value": 3, "box": [0, 0, 10, 10]}, {"value": 5, "box": [20, 0, 30, 10]}]
    preds = [(5, 5, 3), (26, 4, 4), (100, 100, 1)]
    pairs, extras = bench.match(preds, labels)
    assert sorted(pairs) == [(0, 0), (1, 1)]
    assert extras == 1


@pytest.mark.parametrize("h, w", [(640, 640), (480, 640), (960, 1280), (200, 300), (1000, 400)])
def test_photos_are_also_timed_as_the_cameras_640x480_frame(h, w):
    """The speed target is per 640 x 480 frame: any photo becomes one, cut from its centre."""
    import numpy as np
    img = np.zeros((h, w, 3), np.uint8)
    img[h // 2 - 5:h // 2 + 5, w // 2 - 5:w // 2 + 5] = 255       # a mark at the centre
    vga = bench.as_vga(img)
    assert vga.shape == (480, 640, 3)
    assert vga[240, 320].min() == 255 and vga[0, 0].max() == 0


def _sources_from_fixtures(root: Path) -> Path:
    """A folder of labelled sources, in the benchmark's format, from the committed fixtures."""
    fix = Path(__file__).resolve().parent / "fixtures" / "photos"
    entries = json.loads((fix / "labels.json").read_text())
    for src in {e["source"] for e in entries}:
        d = root / src / "images"
        d.mkdir(parents=True)
        sel = [e for e in entries if e["source"] == src]
        for e in sel:
            shutil.copy(fix / e["image"], d / e["image"])
        (root / src / "labels.json").write_text(json.dumps(
            [{"image": "images/" + e["image"], "dice": e["dice"]} for e in sel]))
    return root


def test_bench_on_fixture_copy(tmp_path):
    """The bench runs on any folder of sources: build one from the committed fixtures."""
    _sources_from_fixtures(tmp_path)
    res = {r.source: r for r in bench.run(tmp_path)}
    assert res["nellbyler_d6"].images == 4 and res["nellbyler_d6"].dice_labelled == 19
    # every die found, none wrong; known weaknesses are returned unread (value None): see
    # KNOWN_UNREAD in test_vision_reader.py (learned: none; classical: the marbled swirl, a
    # glare-split 1 and two dice seen off-axis)
    assert res["nellbyler_d6"].dice_found == 19 and res["nellbyler_d6"].dice_right == 19
    classical = {r.source: r for r in bench.run(tmp_path, learned=False)}
    assert classical["nellbyler_d6"].dice_found == 19 and classical["nellbyler_d6"].dice_right == 15
    assert res["nellbyler_d6"].extras == 0
    # flat dice seen off-axis are not reported leaning by the learned stages; the classical
    # reader (outline alone) reports two of them
    assert res["nellbyler_d6"].dice_leaning == 0 and classical["nellbyler_d6"].dice_leaning == 2
    assert res["casino_crops_chase"].read_right == 1.0
    # every scene is also timed as a 640 x 480 frame (in a pass of its own, as a camera stream);
    # single-die crops are not camera frames
    assert len(res["nellbyler_d6"].ms_vga) == 4 and all(ms > 0 for ms in res["nellbyler_d6"].ms_vga)
    assert res["casino_crops_chase"].ms_vga == []
    assert "| nellbyler_d6 | 4 | 19 |" in bench.table(list(res.values()))


def test_detection_counts_and_halves():
    labels = [{"value": 3, "box": [0, 0, 10, 10]}, {"value": 5, "box": [20, 0, 30, 10]},
              {"value": 1, "box": [40, 0, 50, 10]}]
    centres = [(5, 5), (24, 4), (26, 6), (100, 100)]
    found, dups, inside = bench.detection_counts(centres, labels)
    assert (found, dups, inside) == (1, 1, 3)
    entries = [{"i": i} for i in range(7)]
    assert [e["i"] for e in bench.select(entries, "even")] == [0, 2, 4, 6]
    assert [e["i"] for e in bench.select(entries, "odd", limit=2)] == [1, 3]
    with pytest.raises(ValueError):
        bench.select(entries, "third")


def test_detect_stage_on_fixture_copy(tmp_path):
    fix = Path(__file__).resolve().parent / "fixtures" / "photos"
    entries = [e for e in json.loads((fix / "labels.json").read_text()) if e["source"] == "nellbyler_d6"]
    d = tmp_path / "nellbyler_d6" / "images"
    d.mkdir(parents=True)
    for e in entries:
        shutil.copy(fix / e["image"], d / e["image"])
    (tmp_path / "nellbyler_d6" / "labels.json").write_text(json.dumps(
        [{"image": "images/" + e["image"], "dice": e["dice"]} for e in entries]))
    (res,) = bench.run(tmp_path, stage="detect")
    assert res.det_labelled == 19 and res.det_recall == 1.0 and res.det_precision == 1.0
    assert res.dice_right == 0          # nothing read in the detect stage
    assert "| nellbyler_d6 | 4 | 19 | 100.0% | 100.0% | 0 | 0 |" in bench.table([res], "detect")
    assert bench.main([str(tmp_path), "--stage", "detect", "--half", "odd"]) == 0


def test_bench_reads_with_the_models_it_is_given(tmp_path, monkeypatch, capsys):
    """`--models DIR` is how nets trained on one half of the photos are measured on the other
    half: the bench must read with DIR's files. A classifier file that does not load there
    sends the reader back to its classical stages, so the fixtures then read as the classical
    reader reads them (15 of 19 Byler dice right, not 19)."""
    from vision import dicenet
    for name in ("DET_FILE", "CLS_FILE", "VERIFY_FILE"):
        monkeypatch.setattr(dicenet, name, getattr(dicenet, name))     # put back after the test
    photos = _sources_from_fixtures(tmp_path / "photos")
    assert bench.main([str(photos), "--models", str(tmp_path / "missing")]) == 2
    assert "no model files" in capsys.readouterr().err
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "face_classifier.onnx").write_bytes(b"not a network")
    assert bench.main([str(photos), "--models", str(tmp_path / "models"), "--source", "nellbyler_d6",
                       "--passes", "1", "--json"]) == 0
    out = capsys.readouterr()
    assert "face_classifier.onnx" in out.err and dicenet.CLS_FILE == tmp_path / "models" / "face_classifier.onnx"
    assert dicenet.DET_FILE.parent == dicenet.MODEL_DIR              # the files DIR lacks stay shipped
    nb = json.loads(out.out)["sources"][0]
    assert nb["dice_found"] == 19 and round(nb["read_right"] * 19) == 15


SHARED = bench.default_photos_dir()


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared dice-photos not available")
def test_bench_cli_on_shared_photos(capsys):
    import argparse
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    cli.register(sub)
    args = parser.parse_args(["bench", "vision", str(SHARED), "--limit", "3", "--json"])
    assert args.func(args) == 0
    out = json.loads(capsys.readouterr().out)
    names = {s["source"]: s for s in out["sources"]}
    assert "nellbyler_d6" in names and "casino_crops_chase" in names
    nb = names["nellbyler_d6"]
    assert nb["images"] == 3 and nb["dice_labelled"] > 0
    assert 0 < nb["dice_found"] <= nb["dice_labelled"] + nb["extras"]
    assert nb["median_ms"] > 0 and nb["median_ms_640x480"] > 0 and out["max_rss_mb"] > 0
    assert names["casino_crops_chase"]["median_ms_640x480"] == 0     # single-die crops: no frame


def test_default_dir_env_override(monkeypatch, tmp_path):
    monkeypatch.setenv("DICETABLE_PHOTOS", str(tmp_path))
    assert bench.default_photos_dir() == tmp_path


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared dice-photos not available")
def test_learned_stages_beat_the_classical_reader_on_unseen_photos():
    """Accuracy floors on the odd halves (the learned stages never trained on them), well under
    the measured figures (nellbyler 95.6%, 0 extras / classical 68.6%, casino 97.8%): a regression guard,
    not the benchmark. Wrong values stay rare: the reader prefers 'unsure'. (The reader without
    the verifier: test_the_verifier_earns_its_place.)"""
    nb = bench.bench_source(SHARED / "nellbyler_d6", half="odd")
    nb_classical = bench.bench_source(SHARED / "nellbyler_d6", half="odd", learned=False)
    assert nb.read_right >= 0.93, nb.summary()
    assert nb.read_right >= nb_classical.read_right + 0.2
    assert nb.det_recall >= 0.97 and nb.extras <= 4
    # the odd half's dice lie flat: a leaning flag is a false alarm that stops the table
    # (measured: 1 of 456; 28 when an oblong outline alone made a die leaning)
    assert nb.dice_leaning <= 5, nb.summary()
    casino = bench.bench_source(SHARED / "casino_crops_chase", half="odd")
    assert casino.read_right >= 0.95, casino.summary()


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared dice-photos not available")
def test_the_verifier_earns_its_place(monkeypatch):
    """Without the verifier (its model file is optional) the reader keeps its earlier floor; with
    it, it reads clearly more (measured 93.0% -> 95.6%: 12 dice of 456)."""
    from vision import reader
    with_it = bench.bench_source(SHARED / "nellbyler_d6", half="odd", passes=1)
    monkeypatch.setattr(reader, "USE_VERIFIER", False)
    without = bench.bench_source(SHARED / "nellbyler_d6", half="odd", passes=1)
    assert without.read_right >= 0.89, without.summary()
    assert with_it.read_right >= without.read_right + 0.015


def _plain_frames(root: Path, shape: tuple[int, int], n: int = 3) -> None:
    """A source folder `trays` of n plain grey frames of `shape` (h, w), one labelled die each."""
    import cv2
    import numpy as np
    d = root / "trays" / "images"
    d.mkdir(parents=True)
    entries = []
    for i in range(n):
        cv2.imwrite(str(d / f"{i}.png"), np.full((*shape, 3), 90 + i, np.uint8))
        entries.append({"image": f"images/{i}.png", "dice": [{"value": 1, "box": [0, 0, 10, 10]}]})
    (root / "trays" / "labels.json").write_text(json.dumps(entries))


def test_640x480_timings_are_a_stream_of_same_size_frames(tmp_path, monkeypatch):
    """The table reads frame after frame of one size; the 640 x 480 timings are taken the same
    way, after the full-size reads, not interleaved with frames of another size."""
    _plain_frames(tmp_path, (600, 600))
    shapes = []
    real = bench.read
    monkeypatch.setattr(bench, "read", lambda img, **k: shapes.append(img.shape[:2]) or real(img, **k))
    res = bench.run(tmp_path, passes=2)[0]
    assert shapes == [(600, 600)] * 3 + [(480, 640)] * 3 * 2
    assert len(res.ms_vga) == len(res.ms_vga_first) == 3


def test_640x480_timing_keeps_each_frames_fastest_pass(tmp_path, monkeypatch):
    """Other work on a shared machine only adds time to a read: each frame's fastest read over the
    stream passes is its time, and the first pass is reported beside it. A scripted clock gives
    every read its duration, so this checks the arithmetic, not the machine's speed."""
    _plain_frames(tmp_path, (480, 640))
    # ms each read takes: three full-size reads, then three passes over the 640 x 480 frames
    durations = iter([1.0, 1.0, 1.0, 5.0, 5.0, 5.0, 3.0, 7.0, 4.0, 6.0, 2.0, 9.0])
    now = [0.0]
    monkeypatch.setattr(bench.time, "perf_counter", lambda: now[0])

    def scripted_read(img, **kw):
        now[0] += next(durations) / 1000
        return real(img, **kw)
    real = bench.read
    monkeypatch.setattr(bench, "read", scripted_read)
    res = bench.run(tmp_path, passes=3)[0]
    assert res.ms_vga == pytest.approx([3.0, 2.0, 4.0])
    assert res.ms_vga_first == pytest.approx([5.0, 5.0, 5.0])
    assert res.median_ms_vga == pytest.approx(3.0) and res.median_ms_vga_first == pytest.approx(5.0)
    summary = res.summary()
    assert summary["median_ms_640x480"] == 3.0 and summary["median_ms_640x480_first_pass"] == 5.0
    assert "| 3.0 (5.0) |" in bench.table([res])


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared dice-photos not available")
@pytest.mark.parametrize("index", [63, 81, 109])
def test_a_die_the_segmenter_passes_over_is_still_in_the_detectors_view(index):
    """In these Byler trays one clearly visible die gives the segmenter a blob too round to be
    a candidate, apart from the other dice. The detector reads only the part of the frame
    around what the segmenter saw: that part is drawn round every blob of a die's size, not
    just the candidates, or this die is never looked for."""
    import cv2

    from vision.reader import read
    entry = json.loads((SHARED / "nellbyler_d6" / "labels.json").read_text())[index]
    img = cv2.imread(str(SHARED / "nellbyler_d6" / entry["image"]))
    r = read(img)
    pairs, extras = bench.match([(d.centre[0], d.centre[1], d.value) for d in r.dice], entry["dice"])
    assert len(pairs) == len(entry["dice"]) and not extras


@pytest.mark.parametrize("condition", sorted(conditions.CONDITIONS))
def test_committed_photos_read_under_another_light(tmp_path, condition):
    """The committed photos, changed as a café's camera might send them (dim, overexposed, a
    lamp's colour, a vignette, noise, blur, the camera turned or higher or lower), still read:
    measured 19 of 19 tray dice under each but noise (18); under "darker" 16 before dim frames
    were brought up by a gain."""
    res = {r.source: r for r in bench.run(_sources_from_fixtures(tmp_path), passes=1, condition=condition)}
    nb = res["nellbyler_d6"]
    assert nb.dice_right >= 18 and nb.extras == 0, nb.summary()
    assert res["casino_crops_chase"].read_right == 1.0


def test_conditions_are_repeatable_and_keep_the_frame():
    img = cv2.imread(str(Path(__file__).resolve().parent / "fixtures" / "photos" / "nellbyler_IMG_20191209_100225.jpg"))
    assert conditions.apply(None, img, "x") is img and conditions.apply("dim", None, "x") is None
    for name in conditions.CONDITIONS:
        a, b = conditions.apply(name, img, "x.jpg"), conditions.apply(name, img, "x.jpg")
        mount = conditions.CONDITIONS[name]
        if isinstance(mount, conditions.Mount):     # another mount: the frame turned or scaled
            w, h = round(img.shape[1] * mount.scale), round(img.shape[0] * mount.scale)
            assert a.shape[:2] == ((w, h) if mount.quarters % 2 else (h, w)), name
        else:
            assert a.shape == img.shape, name
        assert a.dtype == np.uint8
        assert np.array_equal(a, b), name                 # the same photo changes the same way twice
        assert not np.array_equal(a, img), name
    other = conditions.apply("noise", img, "y.jpg")       # ... and noise differs between photos
    assert not np.array_equal(other, conditions.apply("noise", img, "x.jpg"))


@pytest.mark.parametrize("mount", [conditions.Mount(q, k) for q in range(4) for k in (1.0, 0.7, 1.5)],
                         ids=lambda m: f"{m.quarters}x90-x{m.scale}")
def test_a_mount_moves_the_labels_with_the_dice(mount):
    """Under another mount each labelled box still holds its die: the box cut from the changed
    photo is the box cut from the photo, changed the same way. Each box's top-left quarter is
    white, so a box moved the wrong way round holds another picture."""
    img = np.zeros((64, 96, 3), np.uint8)
    boxes = [[8, 8, 40, 32], [56, 30, 90, 60]]
    for k, (x0, y0, x1, y1) in enumerate(boxes):
        img[y0:y1, x0:x1] = (60 + 80 * k, 200, 90)
        img[y0:(y0 + y1) // 2, x0:(x0 + x1) // 2] = 255
    dice = [{"value": 3, "box": b} for b in boxes] + [{"value": 5, "box": None}]
    moved, out = mount.labels(dice, (96, 64)), mount(img, "x.jpg")
    assert moved[2] == dice[2]                    # a crop's die has no box to move
    for d, m in zip(dice[:2], moved[:2]):
        x0, y0, x1, y1 = d["box"]
        want = mount(img[y0:y1, x0:x1], "x.jpg")
        mx0, my0, mx1, my1 = (int(round(v)) for v in m["box"])
        got = cv2.resize(out[my0:my1, mx0:mx1], (want.shape[1], want.shape[0]), interpolation=cv2.INTER_NEAREST)
        assert np.abs(got.astype(int) - want.astype(int)).mean() < 20, (d, m)
    assert conditions.labels("dim", dice, (96, 64)) is dice
    assert conditions.labels(None, dice, (96, 64)) is dice


def test_an_unknown_condition_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        bench.main([str(tmp_path), "--condition", "moonlight"])
    assert e.value.code == 2 and "moonlight" in capsys.readouterr().err


@pytest.mark.parametrize("cpuinfo, cpu, simd", [
    ("processor\t: 0\nmodel\t\t: 1\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse4_2 fma avx2\n\n"
     "processor\t: 1\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse4_2 fma avx2\n", "AMD EPYC", "AVX2"),
    ("model name\t: Intel(R) Xeon(R)\nflags\t\t: sse4_2 avx2 avx512f avx512bw\n", "Intel(R) Xeon(R)", "AVX-512"),
    ("processor\t: 0\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\nCPU part\t: 0xd08\n\n"
     "Model\t\t: Raspberry Pi 4 Model B Rev 1.4\n", "Raspberry Pi 4 Model B Rev 1.4", "NEON"),
    (None, None, "?"),
])
def test_bench_says_what_machine_its_timings_come_from(tmp_path, cpuinfo, cpu, simd):
    """The same code's 640 x 480 time was 7.3 ms on one day's machine and 13.7 ms on the next:
    every benchmark names the CPU, its widest vector unit and the library versions. A machine
    without /proc/cpuinfo still gets a line."""
    path = tmp_path / "cpuinfo"
    if cpuinfo is not None:
        path.write_text(cpuinfo)
    m = bench.machine(path)
    assert m["simd"] == simd and m["cores"] >= 1
    assert m["opencv"] == cv2.__version__ and m["numpy"] == np.__version__
    if cpu is not None:
        assert m["cpu"] == cpu
    else:
        assert m["cpu"]                     # the architecture's name, or "?"
    assert bench.machine_line().startswith("machine: ")
    assert "machine: " in bench.table([]) and "machine" in bench.to_json([])


def test_dicetable_bench_vision_reads_the_half_asked_for(tmp_path, capsys):
    """The docs give the honest figure as `dicetable bench vision --half odd` (the photos the nets
    never trained on). The command refused `--half` ("unrecognized arguments") and read both
    halves; now each half reads its own images: of the 4 Byler fixtures, indexes 1 and 3 / 0 and 2."""
    from controller import cli as table_cli
    photos = _sources_from_fixtures(tmp_path / "photos")
    seen = {}
    for half in ("odd", "even"):
        assert table_cli.main(["bench", "vision", str(photos), "--half", half, "--passes", "1", "--json"]) == 0
        seen[half] = {s["source"]: s["images"] for s in json.loads(capsys.readouterr().out)["sources"]}
    assert seen["odd"]["nellbyler_d6"] == 2 and seen["even"]["nellbyler_d6"] == 2
    assert table_cli.main(["bench", "rules", "--half", "odd"]) == 2
    assert "--half does not apply here" in capsys.readouterr().err
