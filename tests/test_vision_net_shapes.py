"""The face classifier and verifier are not re-planned from one call to the next
(vision/dicenet.py, `classify`).

An OpenCV net re-plans its layers whenever its input's shape differs from its last one. The
classifier ran on a batch as long as the frame's dice, then on the second views, the verifier on
the doubtful ones, the turned ones: the shape changed at almost every call, every frame. Now they
read crop by crop (one shape). Counted (inputs of a new shape given to a net object), not timed;
a crop's probabilities are the same bit for bit alone or in a batch."""
from __future__ import annotations

import numpy as np
import pytest

from vision import dicenet, net_runtime, reader
from vision.calibrate import calibrate
from vision.synthetic import TrayStyle, render_tray

GREEN = TrayStyle.preset("green", border_px=40)

pytestmark = pytest.mark.skipif(not dicenet.available(), reason="model files missing")


class _Net:
    """A real net that counts the inputs of a shape other than its last one (a re-plan)."""

    def __init__(self, real, replans: list[tuple]) -> None:
        self._real, self._replans, self._shape = real, replans, None

    def setInput(self, blob: np.ndarray) -> None:  # noqa: N802 (OpenCV's name)
        if blob.shape != self._shape:
            if self._shape is not None:
                self._replans.append(blob.shape)
            self._shape = blob.shape
        self._real.setInput(blob)

    def forward(self):
        return self._real.forward()


@pytest.fixture()
def replans(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """Fresh OpenCV nets that log each re-plan (onnxruntime, where installed, does not re-plan so:
    this is about OpenCV, the runtime where it is not)."""
    log: list[tuple] = []
    real_read = dicenet.cv2.dnn.readNetFromONNX
    monkeypatch.setattr(dicenet.cv2.dnn, "readNetFromONNX", lambda path: _Net(real_read(path), log))
    monkeypatch.setattr(dicenet, "_NETS", {})
    monkeypatch.setattr(net_runtime, "_wanted", net_runtime.OPENCV)
    return log


@pytest.fixture(scope="module")
def frames() -> tuple[dict, list[np.ndarray]]:
    """A calibration and throws of 2, 5, 6, 3 dice (a glare on one): the dice counts change."""
    empty = [render_tray([], seed=i, style=GREEN).image for i in range(2)]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=GREEN).image for i in range(2)]
    cal = calibrate(empty, throws, reader=reader.read).to_dict()
    shots = [render_tray([3, 5], seed=10, style=GREEN).image,
             render_tray([1, 2, 3, 4, 5], seed=11, style=GREEN).image,
             render_tray([6, 5, 4, 3, 2, 1], seed=12, style=GREEN).image,
             render_tray([2, 4, 6, 1, 3], seed=13, style=GREEN, glare=True).image,
             render_tray([6, 6, 1], seed=14, style=GREEN).image]
    return cal, shots


def test_classifier_batches_of_any_size_do_not_replan(replans: list[tuple]) -> None:
    rng = np.random.default_rng(3)
    crops = rng.integers(0, 256, (9, dicenet.CLS_SIZE, dicenet.CLS_SIZE, 3), np.uint8)
    dicenet.classify(crops[:2])
    for n in (5, 1, 9, 3, 5):
        dicenet.classify(crops[:n])
    assert replans == []


def test_a_crop_reads_the_same_alone_and_in_a_batch() -> None:
    rng = np.random.default_rng(4)
    crops = rng.integers(0, 256, (7, dicenet.CLS_SIZE, dicenet.CLS_SIZE, 3), np.uint8)
    whole = dicenet.classify(crops)
    for i in range(len(crops)):
        assert np.array_equal(dicenet.classify(crops[i:i + 1])[0], whole[i])


def test_reads_of_changing_dice_counts_do_not_replan_the_nets(replans: list[tuple], frames) -> None:
    cal, shots = frames
    for img in shots:                  # (the first round plans each shape once)
        reader.read(img, cal)
    first_round = len(replans)
    readings = [reader.read(img, cal) for img in shots]
    assert [len(r.dice) for r in readings] == [2, 5, 6, 5, 3]
    # (the detector looks only around what the segmenter saw: its input is that box, frame by frame)
    crops = [shape for shape in replans[first_round:] if shape[2:] == (dicenet.CLS_SIZE, dicenet.CLS_SIZE)]
    assert crops == [], f"the classifiers re-planned for {crops}"
