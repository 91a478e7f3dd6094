"""`dicetable read` / `bench` CLI contract: JSON lines shape, error lines, exit codes, --annotate."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import cli

REPO = Path(__file__).resolve().parents[1]
FIX = REPO / "tests" / "fixtures" / "photos"
PHOTO = FIX / "nellbyler_IMG_20191209_100541.jpg"


def run(argv, capsys):
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    cli.register(sub)
    args = parser.parse_args(argv)
    rc = args.func(args)
    return rc, capsys.readouterr().out


@pytest.fixture
def bad_files(tmp_path):
    files = {
        "empty.jpg": b"",
        "corrupt.jpg": b"\xff\xd8\xff\xe0" + b"\x00garbage" * 20,
        "text.png": b"this is not an image\n",
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    cv2.imwrite(str(tmp_path / "one.png"), np.zeros((1, 1, 3), np.uint8))
    cv2.imwrite(str(tmp_path / "black.png"), np.zeros((120, 160, 3), np.uint8))
    cv2.imwrite(str(tmp_path / "white.png"), np.full((120, 160, 3), 255, np.uint8))
    return tmp_path


def test_read_json_contract(capsys):
    rc, out = run(["read", "--json", str(PHOTO)], capsys)
    assert rc == 0
    lines = out.strip().splitlines()
    assert len(lines) == 1
    rec = json.loads(lines[0])
    assert set(rec) == {"image", "dice", "problems", "ms"}
    assert rec["image"] == str(PHOTO)
    assert sorted(d["value"] for d in rec["dice"]) == [3, 5]
    for d in rec["dice"]:
        assert set(d) == {"value", "box", "centre", "confidence"}
        assert len(d["box"]) == 4 and len(d["centre"]) == 2 and 0 <= d["confidence"] <= 1
    xs = [d["centre"][0] for d in rec["dice"]]
    assert xs == sorted(xs)
    assert isinstance(rec["ms"], float) and rec["ms"] > 0


def test_read_errors_do_not_stop_other_images(bad_files, capsys):
    paths = [str(bad_files / n) for n in ("empty.jpg", "corrupt.jpg", "text.png")]
    paths += [str(PHOTO), str(bad_files / "missing.jpg")]
    rc, out = run(["read", "--json", *paths], capsys)
    assert rc == 1
    recs = [json.loads(x) for x in out.strip().splitlines()]
    assert [r["image"] for r in recs] == paths
    for r in recs:
        if r["image"] == str(PHOTO):
            assert "dice" in r and "error" not in r
        else:
            assert set(r) == {"image", "error"} and r["error"]


def test_read_says_what_a_path_that_is_not_an_image_file_is(bad_files, capsys):
    """`dicetable read photos/` is an easy slip: the error names the folder as a folder, not as
    a missing file, and says what to give instead."""
    paths = [str(bad_files), "/dev/null", str(bad_files / "missing.jpg")]
    rc, out = run(["read", "--json", *paths], capsys)
    assert rc == 1
    errors = [json.loads(x)["error"] for x in out.strip().splitlines()]
    assert errors[0].startswith("a folder") and "*.jpg" in errors[0]
    assert errors[1] == "not a regular file"
    assert errors[2] == "file not found"


def test_read_degenerate_images_are_read_with_problems(bad_files, capsys):
    paths = [str(bad_files / n) for n in ("one.png", "black.png", "white.png")]
    rc, out = run(["read", "--json", *paths], capsys)
    assert rc == 0  # decodable images are "read", their problems say why there are no dice
    recs = [json.loads(x) for x in out.strip().splitlines()]
    codes = [{p["code"] for p in r["problems"]} for r in recs]
    assert codes == [{"bad_frame"}, {"too_dark"}, {"too_bright"}]
    assert all(r["dice"] == [] for r in recs)


def test_read_human_output_and_annotate(tmp_path, capsys):
    out_dir = tmp_path / "ann"
    rc, out = run(["read", "--annotate", str(out_dir), str(PHOTO)], capsys)
    assert rc == 0
    assert str(PHOTO) in out and "2 dice" in out
    files = list(out_dir.iterdir())
    assert len(files) == 1
    img = cv2.imread(str(files[0]))
    src = cv2.imread(str(PHOTO))
    assert img.shape == src.shape and not np.array_equal(img, src)


def test_bench_targets_are_registrable():
    assert "vision" in cli.BENCH_TARGETS


def test_module_main_subprocess(tmp_path):
    bad = tmp_path / "x.txt"
    bad.write_text("nope")
    p = subprocess.run([sys.executable, "-m", "vision.cli", "read", "--json", str(PHOTO), str(bad)],
                       cwd=REPO, capture_output=True, text=True, timeout=60)
    assert p.returncode == 1
    recs = [json.loads(x) for x in p.stdout.strip().splitlines()]
    assert "dice" in recs[0] and "error" in recs[1]


@pytest.mark.parametrize("where, error", [
    ("afile.jpg", "--annotate {dir}/afile.jpg: that is a file, not a folder"),
    ("not/there", "--annotate {dir}/not/there: the folder {dir}/not does not exist (create it first)"),
])
def test_read_annotate_that_cannot_be_a_folder_is_one_line_before_any_reading(tmp_path, capsys, where, error):
    (tmp_path / "afile.jpg").write_bytes(b"x")
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["read", "--annotate", str(tmp_path / where), str(PHOTO)])
    assert args.func(args) == 2
    assert capsys.readouterr() == ("", "dicetable read: " + error.format(dir=tmp_path) + "\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile.jpg"]   # nothing made


# options before, between or after the positionals: each order gives the same arguments
BENCH_ORDERS = [
    ["bench", "vision", "DIR", "--limit", "5"],
    ["bench", "vision", "--limit", "5", "DIR"],
    ["bench", "--limit", "5", "vision", "DIR"],
    ["bench", "--json", "vision", "--limit", "5", "DIR"],
]


@pytest.mark.parametrize("entry", ["vision.cli", "controller.cli"])
@pytest.mark.parametrize("argv", BENCH_ORDERS, ids=[" ".join(a) for a in BENCH_ORDERS])
def test_bench_options_go_anywhere(monkeypatch, entry, argv):
    import importlib

    seen = []
    monkeypatch.setitem(cli.BENCH_TARGETS, "vision", lambda args: seen.append((args.dir, args.limit)) or 0)
    assert importlib.import_module(entry).main(argv) == 0
    assert seen == [("DIR", 5)]


def test_read_options_go_between_the_images(capsys):
    assert cli.main(["read", str(PHOTO), "--json", str(PHOTO)]) == 0
    assert [json.loads(line)["image"] for line in capsys.readouterr().out.splitlines()] == [str(PHOTO)] * 2


@pytest.mark.parametrize("argv, unrecognized", [
    (["bench", "vision", "A", "B"], "B"),
    (["bench", "vision", "--limit", "5", "A", "--bogus"], "--bogus"),
])
def test_words_left_over_are_still_unrecognized(capsys, argv, unrecognized):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(f"error: unrecognized arguments: {unrecognized}")


def _png_of_one_grey(path: Path, w: int, h: int) -> None:
    """A valid 8-bit grey PNG of w x h, written row by row (a big one is a few hundred KB)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    z = zlib.compressobj(9)
    row = b"\x00" + b"\x5a" * w
    idat = b"".join(z.compress(row) for _ in range(h)) + z.flush()
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def test_read_a_file_whose_decoder_raises_is_an_error_line(tmp_path, capsys):
    """OpenCV raises (cv2.error) for an OpenEXR file, its build leaves the codec off: that was a
    traceback that stopped the images after it."""
    exr = tmp_path / "x.exr"
    exr.write_bytes(b"\x76\x2f\x31\x01" + b"\x02\x00\x00\x00" + b"\x00" * 200)
    rc, out = run(["read", "--json", str(exr), str(PHOTO)], capsys)
    assert rc == 1
    recs = [json.loads(x) for x in out.strip().splitlines()]
    assert recs[0]["image"] == str(exr) and recs[0]["error"].startswith("not a decodable image")
    assert "Traceback" not in recs[0]["error"] and "\n" not in recs[0]["error"]
    assert recs[1]["image"] == str(PHOTO) and len(recs[1]["dice"]) == 2


def test_read_a_truncated_jpeg_is_an_error_not_an_empty_tray(tmp_path, capsys):
    """libjpeg fills what is missing with grey and only warns: a half-copied photo read as a tray
    with fewer dice (or none), no problem said. Appended data after the image (a phone's motion
    video) is no truncation."""
    data = PHOTO.read_bytes()
    half, tail = tmp_path / "half.jpg", tmp_path / "tail.jpg"
    half.write_bytes(data[: len(data) // 2])
    tail.write_bytes(data + b"\x00\x00\x00\x18ftypmp42" + b"\x11" * 5000)
    rc, out = run(["read", "--json", str(half), str(tail)], capsys)
    recs = [json.loads(x) for x in out.strip().splitlines()]
    assert recs[0] == {"image": str(half), "error": "truncated JPEG (the file ends before the image does)"}
    assert sorted(d["value"] for d in recs[1]["dice"]) == [3, 5]
    assert rc == 1


def test_read_a_decompression_bomb_is_refused_before_it_is_decoded(tmp_path, capsys):
    """A PNG of one grey, 10000 x 6000 (60 megapixels) in a few hundred KB: decoded, 180 MB, and a
    20000 x 20000 one 1.2 GB (2.4 GB peak, 13 s) before it was found to hold nothing."""
    bomb = tmp_path / "bomb.png"
    _png_of_one_grey(bomb, 10000, 6000)
    assert bomb.stat().st_size < 1_000_000
    rc, out = run(["read", "--json", str(bomb), str(PHOTO)], capsys)
    recs = [json.loads(x) for x in out.strip().splitlines()]
    assert recs[0] == {"image": str(bomb), "error": "image too large (10000x6000, over 50 megapixels)"}
    assert len(recs[1]["dice"]) == 2 and rc == 1
    from vision import image_file

    assert image_file.image_size(bomb.read_bytes()) == (10000, 6000)


def test_read_a_huge_jpeg_is_decoded_at_a_fraction_of_its_size(tmp_path):
    """libjpeg decodes at 1/2, 1/4 or 1/8 of the size at that cost: a JPEG over the limit is
    read (the reader downscales to 1600 px anyway), not decoded whole."""
    big = tmp_path / "big.jpg"
    assert cv2.imwrite(str(big), np.full((7000, 8000), 90, np.uint8))
    img, err = cli._load_image(str(big))
    assert err is None and img.shape == (3500, 4000, 3) and img.dtype == np.uint8


def test_read_says_a_broken_link(tmp_path, capsys):
    (tmp_path / "broken.jpg").symlink_to(tmp_path / "gone.jpg")
    rc, out = run(["read", "--json", str(tmp_path / "broken.jpg")], capsys)
    assert json.loads(out)["error"] == "broken symbolic link" and rc == 1


def test_read_a_file_too_big_to_be_an_image_is_not_read_whole(tmp_path, capsys, monkeypatch):
    """A video or a disk image given by mistake was read whole into memory before decoding."""
    from vision import image_file

    blob = tmp_path / "video.jpg"
    blob.write_bytes(b"\x00" * 5000)
    monkeypatch.setattr(image_file, "MAX_FILE_BYTES", 4096)
    rc, out = run(["read", "--json", str(blob)], capsys)
    assert json.loads(out)["error"].startswith("file too large for an image") and rc == 1


def test_read_annotate_keeps_one_copy_per_image_when_names_clash(tmp_path, capsys):
    """a/x.jpg, a/x.png and b/x.jpg all became x.annotated.png: two of three copies silently
    overwritten. Into a folder that exists already, as the old copies there are replaced."""
    for sub, name in (("a", "x.jpg"), ("a", "x.png"), ("b", "x.jpg")):
        (tmp_path / sub).mkdir(exist_ok=True)
        (tmp_path / sub / name).write_bytes(PHOTO.read_bytes())
    out_dir = tmp_path / "ann"
    out_dir.mkdir()
    paths = [str(tmp_path / "a" / "x.jpg"), str(tmp_path / "a" / "x.png"), str(tmp_path / "b" / "x.jpg")]
    rc, _ = run(["read", "--json", "--annotate", str(out_dir), *paths], capsys)
    assert rc == 0
    assert sorted(p.name for p in out_dir.iterdir()) == ["x-2.annotated.png", "x-3.annotated.png", "x.annotated.png"]


def test_read_annotate_that_cannot_be_written_is_said_and_fails(tmp_path, capsys):
    """cv2.imwrite returns False on a name too long for the file system: the copy was lost
    without a word and the exit code was 0."""
    long = tmp_path / ("L" * 246 + ".jpg")
    long.write_bytes(PHOTO.read_bytes())
    out_dir = tmp_path / "ann"
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    cli.register(sub)
    args = parser.parse_args(["read", "--json", "--annotate", str(out_dir), str(long), str(PHOTO)])
    rc = args.func(args)
    cap = capsys.readouterr()
    assert rc == 1
    assert [len(json.loads(x)["dice"]) for x in cap.out.strip().splitlines()] == [2, 2]
    assert "--annotate: cannot write" in cap.err
    assert [p.name for p in out_dir.iterdir()] == [PHOTO.stem + ".annotated.png"]


def test_a_reading_of_one_die_says_die(capsys):
    """The plain line of a photo with one die said "1 dice"; the JSON line is unchanged."""
    one = FIX / "casino_DJI_20241005231450_0114_D_detection_1.jpg"
    assert cli.main(["read", str(one), str(PHOTO)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"{one}: 1 die [" in lines[0]
    assert " dice [" in lines[1] and ": 1 " not in lines[1]
