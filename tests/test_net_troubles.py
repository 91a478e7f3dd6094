"""The nets' troubles at the table (vision/dicenet.py, controller/reader_notice.py).

Before: onnxruntime raising as it ran a net (mid-game) made every reading after it "the camera's
picture cannot be used", for the rest of the evening, and no die was read; another net copied in
a model file's place did the same; a model file missing, cut short or replaced by a folder was
said only by `dicetable check` (the table read worse without a word). Now a net onnxruntime fails
to run runs on OpenCV's dnn, one that fails there too is set aside (the classical stages read),
and each is said once on screen and in the log; the game goes on, every throw applied.

Driven through the real table app on rendered trays, as test_knock_told_once's games are."""
from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from controller.setup_menu import SetupResult
from test_knock_told_once import Table, calibrated_tray
from test_vision_net_runtime import needs_ort
from vision import dicenet, net_runtime, reader
from vision.synthetic import TrayStyle, render_tray

ROOT = Path(__file__).resolve().parents[1]



@pytest.fixture()
def fresh(monkeypatch: pytest.MonkeyPatch):
    """No net loaded, no trouble told, the shipped model files, the default runtime."""
    monkeypatch.setattr(dicenet, "_NETS", {})
    monkeypatch.setattr(dicenet, "_BROKEN", set())
    monkeypatch.setattr(dicenet, "_TROUBLES", {}, raising=False)
    for name in ("DET_FILE", "CLS_FILE", "VERIFY_FILE"):
        monkeypatch.setattr(dicenet, name, getattr(dicenet, name))
    net_runtime.use(None)
    yield monkeypatch
    net_runtime.use(None)


@pytest.fixture(scope="module")
def calibration():
    return calibrated_tray()


def thrown(table: Table) -> list[list[int]]:
    """The dice of each throw the game took, as its log holds them."""
    return [sorted(i["values"]) for i in table.app.flow.log.inputs if i.get("type") == "dice"]


def rendered_values(throw: int) -> list[int]:
    """The values Table.throw rendered at its `throw`-th throw."""
    return sorted(int(v) for v in np.random.default_rng(throw).integers(1, 7, 5))


def said(caplog, words: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and words in r.getMessage()]


def onnxruntime_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on onnxruntime raises as it runs any net (a library fault mid-game)."""
    def run(self, blob):
        raise RuntimeError("[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero status code returned")
    monkeypatch.setattr(net_runtime.OrtNet, "run", run)


@needs_ort
def test_onnxruntime_raising_mid_game_the_game_goes_on_on_opencv(fresh, tmp_path, calibration, caplog):
    """Two throws, then onnxruntime raises at every run: before, the next three throws were never
    read (each reading "the camera's picture cannot be used"); now OpenCV's dnn runs the nets,
    each throw is read and taken, and the staff are told once on screen and once in the log."""
    table = Table(tmp_path, calibration)
    with caplog.at_level(logging.INFO):
        for _ in range(2):
            table.throw(0)
        onnxruntime_raises(fresh)
        table.banners.clear()
        for _ in range(3):
            table.throw(0)
    assert thrown(table) == [rendered_values(i) for i in range(5)]
    told = said(caplog, "onnxruntime failed to run")
    assert len(told) == len(set(told)) >= 2 and all("OpenCV" in t for t in told), told    # detector, classifier
    assert any("onnxruntime failed to run dice_detector.onnx" in b for b in table.banners), set(table.banners)
    assert not any("cannot be used" in b for b in table.banners), set(table.banners)
    assert table.app.flow.reader_notice is None           # (the same readings: nothing lasting)
    assert all(n.runtime == net_runtime.OPENCV for k, n in dicenet._NETS.items() if "verifier" not in k[1])


def test_another_net_in_the_detectors_place_is_told_and_the_dice_still_read(fresh, tmp_path, calibration, caplog):
    """The classifier's file copied over the detector's (a bad copy, a mistaken update): it loads,
    then fails to run on onnxruntime and gives a wrong output on OpenCV, which broke the reader
    further on. Now it is set aside, said once, and the classical stages read the throws."""
    folder = tmp_path / "models"
    folder.mkdir()
    shutil.copy(dicenet.CLS_FILE, folder / dicenet.DET_FILE.name)
    fresh.setattr(dicenet, "DET_FILE", folder / dicenet.DET_FILE.name)
    with caplog.at_level(logging.INFO):
        table = Table(tmp_path, calibration)
        for _ in range(3):
            table.throw(0)
    assert thrown(table) == [rendered_values(i) for i in range(3)]
    told = said(caplog, "dice_detector.onnx fails to run")
    assert len(told) == 1 and "classical stages" in told[0], told
    assert not any("cannot be used" in b for b in table.banners), set(table.banners)
    notice = table.app.flow.reader_notice
    assert notice is not None and "dice_detector.onnx fails to run" in notice.text and "Reinstall" in notice.text


def _cut(path: Path) -> None:
    path.write_bytes(dicenet.CLS_FILE.read_bytes()[:30_000])


def _folder(path: Path) -> None:
    path.mkdir()


def _empty(path: Path) -> None:
    path.write_bytes(b"")


@pytest.mark.parametrize("spoil,words", [(None, "is missing"), (_cut, "is damaged"), (_folder, "is a folder"),
                                         (_empty, "is damaged")], ids=["missing", "cut", "folder", "empty"])
def test_a_bad_classifier_file_is_said_at_the_start_and_the_game_is_played(fresh, tmp_path, calibration, caplog,
                                                                            spoil, words):
    """The classifier's model file missing, cut short by a full card, emptied, or a folder in its
    place: the menu says so at the start (before: not a word at the table), the log once, each game
    keeps it as its notice, and the throws are read by the classical stages and taken."""
    bad = tmp_path / "models" / dicenet.CLS_FILE.name
    bad.parent.mkdir()
    if spoil is not None:
        spoil(bad)
    fresh.setattr(dicenet, "CLS_FILE", bad)
    with caplog.at_level(logging.INFO):
        table = Table(tmp_path, calibration, new=False)
        menu = table.app.menu.message
        assert menu is not None and f"Dice reader: the model file face_classifier.onnx {words}" in menu.text
        table.app.menu.done = SetupResult("thirteen", ("Ann",), {})
        table.app.start_new()
        for _ in range(2):
            table.throw(0)
    assert thrown(table) == [rendered_values(i) for i in range(2)]
    told = said(caplog, "face_classifier.onnx")
    assert len(told) == 1 and words in told[0], told
    assert "classical stages" in table.app.flow.reader_notice.text


def test_a_verifier_that_fails_to_run_leaves_the_classifier_reading(fresh, monkeypatch, tmp_path):
    """The optional verifier's file holding the detector (it loads, and gives heat maps, not a
    value): set aside, said once, and the frame read again without it, every die right."""
    shutil.copy(dicenet.DET_FILE, tmp_path / dicenet.VERIFY_FILE.name)
    monkeypatch.setattr(dicenet, "VERIFY_FILE", tmp_path / dicenet.VERIFY_FILE.name)
    monkeypatch.setattr(reader, "VERIFY_BELOW", 1.01)       # (every die looked at by the verifier)
    shot = render_tray([1, 2, 3, 4, 5], seed=11, style=TrayStyle.preset("green", border_px=40))
    reading = reader.read(shot.image)
    assert sorted(d.value for d in reading.dice) == [1, 2, 3, 4, 5], reading.problems
    assert [t.lasting for t in dicenet.troubles()] == [True]
    assert "face_verifier.onnx fails to run" in dicenet.troubles()[0].words
    assert not dicenet.verifier_available()


@needs_ort
def test_onnxruntime_writes_no_telemetry_in_the_tables_home(tmp_path):
    """onnxruntime 1.32 wrote a device id and an SQLite database under $HOME/.cache/Microsoft at
    each start (the service's HOME is /var/lib/dicetable, on the SD card), and ran a thread for it."""
    env = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    env.pop("ORT_DISABLE_TELEMETRY", None)
    code = ("from vision import dicenet, net_runtime\n"
            "assert dicenet.available() and dicenet.verifier_available()\n"
            "assert net_runtime.describe().startswith('onnxruntime')\n")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, timeout=120)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == []


@needs_ort
def test_a_session_onnxruntime_cannot_make_is_said_once_and_opencv_reads(fresh, tmp_path, calibration, caplog):
    """onnxruntime refusing to make a session of a good model file (a library fault, a CPU it was
    not built for): OpenCV's dnn reads it. Before, only a warning in the log said so; now the
    menu too, once, and the throws are read as well."""
    def refuse(self, path, ort):
        raise RuntimeError("[ONNXRuntimeError] : 1 : FAIL : session could not be created")
    fresh.setattr(net_runtime.OrtNet, "__init__", refuse)
    fresh.setattr(net_runtime, "refused", {}, raising=False)
    with caplog.at_level(logging.INFO):
        table = Table(tmp_path, calibration, new=False)
        menu = table.app.menu.message
        assert menu is not None and "onnxruntime cannot load dice_detector.onnx" in menu.text
        assert "onnxruntime cannot load face_classifier.onnx" in menu.text and "read as well" in menu.text
        table.app.menu.done = SetupResult("thirteen", ("Ann",), {})
        table.app.start_new()
        for _ in range(2):
            table.throw(0)
    assert thrown(table) == [rendered_values(i) for i in range(2)]
    told = said(caplog, "onnxruntime cannot load")
    assert len(told) == len(set(told)) and all(any(f"load {n};" in t for t in told)
                                               for n in ("dice_detector.onnx", "face_classifier.onnx")), told
    assert table.app.flow.reader_notice is None


def test_dicetable_check_runs_each_net_once(fresh, tmp_path):
    """The detector's file holding the classifier loads: `dicetable check` said *model files load*
    and the table failed at the first throw. Now check runs each net and says it fails."""
    from controller.check import FAIL, check_models

    shutil.copy(dicenet.CLS_FILE, tmp_path / dicenet.DET_FILE.name)
    fresh.setattr(dicenet, "DET_FILE", tmp_path / dicenet.DET_FILE.name)
    [found] = check_models()
    assert found.level == FAIL and "dice_detector.onnx fails to run" in found.text, found
