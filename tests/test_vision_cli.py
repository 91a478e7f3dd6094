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
