"""Image files whose names are not UTF-8 (copied from another system, a camera's card, a zip).

Python names such a file with a lone surrogate (b"2\\xff.png" is '2\\udcff.png'), and OpenCV's
cv2.imread and cv2.imwrite, given that name, killed the process with a segmentation fault: the
folder camera took the table down with it, `dicetable play --fixtures` and `dicetable read
--annotate` died without a word. Each case runs in its own process, so that the old code's crash
is a failed test, not the end of the test run.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
NAME = b"2\xff.png"            # not UTF-8


def _images(folder: Path) -> Path:
    """A folder holding a grey image under a plain name and the same under a name that is not UTF-8."""
    folder.mkdir()
    ok, png = cv2.imencode(".png", np.full((120, 160, 3), 128, np.uint8))
    assert ok
    (folder / "1.png").write_bytes(png.tobytes())
    with open(os.path.join(os.fsencode(folder), NAME), "wb") as fh:
        fh.write(png.tobytes())
    return folder


def _run(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *args], cwd=tmp_path, env=env, capture_output=True, timeout=120)


FOLDER_CAMERA = """
import sys
from hardware import make_frame_source
source = make_frame_source({"type": "folder", "path": sys.argv[1]})
source.open()
frames = [source.read(), source.read()]
print(sum(f is not None and int(f.image.mean()) == 128 for f in frames))
"""


def test_the_folder_camera_reads_an_image_whose_name_is_not_utf8(tmp_path):
    folder = _images(tmp_path / "frames")
    done = _run(["-c", FOLDER_CAMERA, str(folder)], tmp_path)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-500:]
    assert done.stdout.decode().strip() == "2"


def test_read_annotates_an_image_whose_name_is_not_utf8(tmp_path):
    folder = _images(tmp_path / "photos")
    out = tmp_path / "annotated"
    out.mkdir()
    photo = os.path.join(os.fsencode(folder), NAME).decode(sys.getfilesystemencoding(), "surrogateescape")
    done = _run(["-m", "controller.cli", "read", "--annotate", str(out), photo], tmp_path)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-500:]
    assert os.listdir(os.fsencode(out)) == [b"2\xff.annotated.png"]


def test_a_fixture_game_takes_an_image_whose_name_is_not_utf8(tmp_path):
    folder = _images(tmp_path / "fixtures")
    script = tmp_path / "script.txt"
    script.write_text("game thirteen Ann,Bob\nthrow\nthrow\n", encoding="utf-8")
    done = _run(["-m", "controller.cli", "play", "--fixtures", str(folder), "--script", str(script), "--headless"],
                tmp_path)
    # (the grey images hold no dice: the script ends before the game, exit 3, after both were shown)
    assert done.returncode == 3, done.stderr.decode(errors="replace")[-500:]
    assert b"could not be read" not in done.stdout + done.stderr

