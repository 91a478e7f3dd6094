"""What runs the nets (vision/net_runtime.py): onnxruntime where installed, OpenCV's dnn otherwise.

onnxruntime reads a Byler frame ~2.5 ms faster on one core (docs/benchmarks.md), but it has no
wheel for 32-bit Raspberry Pi OS: there OpenCV stays. So: both runtimes must read the committed
photos and rendered trays the same (values, boxes, problems; confidences within a rounding step),
and a table where onnxruntime does not import must read as before, on OpenCV."""
from __future__ import annotations

import builtins
import functools
import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import dicenet, net_runtime, reader
from vision.synthetic import TrayStyle, render_tray

PHOTOS = Path(__file__).parent / "fixtures" / "photos"

try:
    import onnxruntime  # noqa: F401  (a dependency where it has a wheel: pyproject.toml)
    HAVE_ORT = True
except ImportError:
    HAVE_ORT = False

needs_ort = pytest.mark.skipif(not HAVE_ORT, reason="onnxruntime not installed (32-bit Pi OS: no wheel)")


@pytest.fixture()
def fresh(monkeypatch: pytest.MonkeyPatch):
    """No net loaded yet, onnxruntime not yet looked for, the default runtime asked for."""
    monkeypatch.setattr(dicenet, "_NETS", {})
    monkeypatch.setattr(dicenet, "_BROKEN", set())
    monkeypatch.setattr(net_runtime, "_ort", None)
    monkeypatch.setattr(net_runtime, "_ort_failed", None)
    monkeypatch.setattr(net_runtime, "_wanted", None)
    yield
    net_runtime.use(None)


@pytest.fixture()
def no_onnxruntime(monkeypatch: pytest.MonkeyPatch, fresh) -> None:
    """onnxruntime cannot be imported, as on armv7l (or a wheel whose library does not load)."""
    real_import = builtins.__import__

    def refuse(name, *args, **kwargs):
        if name == "onnxruntime" or name.startswith("onnxruntime."):
            raise ModuleNotFoundError("No module named 'onnxruntime'")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "onnxruntime", raising=False)
    monkeypatch.setattr(builtins, "__import__", refuse)


RENDERED = {"green": [3, 5], "light": [1, 2, 3, 4, 5], "red": [6, 5, 4, 3, 2, 1]}
NAMES = [e["image"] for e in json.loads((PHOTOS / "labels.json").read_text())] + list(RENDERED)


@functools.cache
def _frame(name: str) -> np.ndarray:
    """A committed photo (640 px wide at most, as the table's camera frames are; the casino ones
    are crops of one die) or a rendered tray."""
    if name in RENDERED:
        seed = 10 + list(RENDERED).index(name)
        return render_tray(RENDERED[name], seed=seed, style=TrayStyle.preset(name, border_px=40)).image
    img = cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR)
    scale = min(1.0, 640 / img.shape[1])
    return cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def _read_with(runtime: str, img: np.ndarray):
    net_runtime.use(runtime)
    return reader.read(img)


def test_without_onnxruntime_the_nets_run_on_opencv_and_read(no_onnxruntime) -> None:
    """The fallback: no exception, every net on OpenCV's dnn, and the dice read as they are."""
    net = net_runtime.load(dicenet.CLS_FILE)
    assert isinstance(net, net_runtime.OpenCvNet)
    assert net_runtime.describe() == f"OpenCV {cv2.__version__} dnn: onnxruntime not installed"
    assert dicenet.available() and dicenet.verifier_available()
    assert all(n.runtime == net_runtime.OPENCV for n in dicenet._NETS.values())
    shot = render_tray([1, 2, 3, 4, 5], seed=11, style=TrayStyle.preset("green", border_px=40))
    assert sorted(d.value for d in reader.read(shot.image).dice) == [1, 2, 3, 4, 5]


def test_asked_for_onnxruntime_without_it_still_reads_on_opencv(no_onnxruntime) -> None:
    net_runtime.use(net_runtime.ONNXRUNTIME)
    assert isinstance(net_runtime.load(dicenet.DET_FILE), net_runtime.OpenCvNet)


def test_a_missing_or_broken_model_file_loads_as_none_on_either_runtime(fresh, tmp_path: Path) -> None:
    broken = tmp_path / "face_classifier.onnx"
    broken.write_bytes(b"\x08\x07not a model at all")
    for runtime in net_runtime.RUNTIMES:
        net_runtime.use(runtime)
        assert net_runtime.load(broken) is None
        assert net_runtime.load(tmp_path / "missing.onnx") is None


def test_an_unknown_runtime_is_refused() -> None:
    with pytest.raises(ValueError):
        net_runtime.use("tensorflow")


@needs_ort
def test_onnxruntime_is_the_default_where_installed(fresh) -> None:
    assert isinstance(net_runtime.load(dicenet.DET_FILE), net_runtime.OrtNet)
    assert net_runtime.describe().startswith("onnxruntime ")


@needs_ort
def test_both_runtimes_give_the_nets_the_same_outputs(fresh) -> None:
    """Each net on real inputs of the committed frames: the same logits and heat to 1e-4 (measured: 3e-5)."""
    nets = {rt: (net_runtime.use(rt), {p.stem: net_runtime.load(p) for p in
                                      (dicenet.DET_FILE, dicenet.CLS_FILE, dicenet.VERIFY_FILE)})[1]
            for rt in net_runtime.RUNTIMES}
    assert {type(n) for n in nets[net_runtime.OPENCV].values()} == {net_runtime.OpenCvNet}
    assert {type(n) for n in nets[net_runtime.ONNXRUNTIME].values()} == {net_runtime.OrtNet}
    net_runtime.use(net_runtime.OPENCV)
    checked = 0
    for img in map(_frame, NAMES):
        small = dicenet.shrink(img, 256, 192)
        det = [nets[rt]["dice_detector"].run(dicenet._blob(small)) for rt in net_runtime.RUNTIMES]
        assert det[0].shape == det[1].shape == (1, 4, 48, 64)
        assert np.abs(det[0] - det[1]).max() < 1e-4
        found = dicenet.find_dice(img)
        for key, size in (("face_classifier", dicenet.CLS_SIZE), ("face_verifier", dicenet.VERIFY_SIZE)):
            blob = dicenet._blob(dicenet.crops(img, [(f.centre, f.side) for f in found], size))
            for i in range(len(blob)):
                out = [nets[rt][key].run(blob[i:i + 1]) for rt in net_runtime.RUNTIMES]
                assert np.abs(out[0] - out[1]).max() < 1e-4
                checked += 1
    assert checked > 60


@needs_ort
@pytest.mark.parametrize("name", NAMES)
def test_both_runtimes_read_the_same(fresh, name: str) -> None:
    """The same dice, values, boxes and problems; a confidence (3 decimals) off by one step at most."""
    old, new = (_read_with(rt, _frame(name)) for rt in net_runtime.RUNTIMES)
    assert old.dice
    assert [(d.value, d.box, d.problems) for d in new.dice] == [(d.value, d.box, d.problems) for d in old.dice]
    assert [(p.code, p.box) for p in new.problems] == [(p.code, p.box) for p in old.problems]
    assert max(abs(a.confidence - b.confidence) for a, b in zip(old.dice, new.dice)) <= 0.0011


def test_dicetable_check_says_what_runs_the_nets(no_onnxruntime) -> None:
    """Staff (or whoever helps them) see at `dicetable check` whether the faster runtime is used."""
    from controller.check import OK, check_models

    [found] = check_models()
    assert found.level == OK
    assert found.text == f"model files load (run by OpenCV {cv2.__version__} dnn: onnxruntime not installed)"


def test_an_onnxruntime_whose_library_does_not_load_leaves_the_nets_on_opencv(fresh, monkeypatch) -> None:
    """A wheel for another CPU or a missing system library: the import fails with an OSError."""
    real_import = builtins.__import__

    def broken(name, *args, **kwargs):
        if name == "onnxruntime":
            raise OSError("libonnxruntime.so.1: cannot open shared object file")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "onnxruntime", raising=False)
    monkeypatch.setattr(builtins, "__import__", broken)
    assert isinstance(net_runtime.load(dicenet.DET_FILE), net_runtime.OpenCvNet)
    assert net_runtime.describe() == f"OpenCV {cv2.__version__} dnn: onnxruntime does not load"
    shot = render_tray([6, 6, 1], seed=14, style=TrayStyle.preset("green", border_px=40))
    assert sorted(d.value for d in reader.read(shot.image).dice) == [1, 6, 6]


def test_onnxruntime_is_asked_for_only_where_it_has_a_wheel():
    """pyproject asked for onnxruntime wherever the machine is x86_64 or aarch64: on an Intel Mac
    (x86_64, no onnxruntime 1.32 wheel for macOS x86_64) `pip install -e .`, the README's first
    command, stopped with "No matching distribution found". Linux only, where the wheels are."""
    import tomllib
    markers = pytest.importorskip("packaging.markers")
    deps = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"][
        "dependencies"]
    ort = next(d for d in deps if d.startswith("onnxruntime"))
    marker = markers.Marker(ort.split(";", 1)[1])
    where = {(system, machine): marker.evaluate({"platform_system": system, "platform_machine": machine})
             for system, machine in [("Linux", "x86_64"), ("Linux", "aarch64"), ("Linux", "armv7l"),
                                     ("Darwin", "x86_64"), ("Darwin", "arm64"), ("Windows", "AMD64")]}
    assert where == {("Linux", "x86_64"): True, ("Linux", "aarch64"): True, ("Linux", "armv7l"): False,
                     ("Darwin", "x86_64"): False, ("Darwin", "arm64"): False, ("Windows", "AMD64"): False}
