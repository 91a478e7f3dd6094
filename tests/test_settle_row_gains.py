"""The settle tracker's per-frame update (every camera frame pays it) matched each row's light by
numpy's median of the row's ratios, twice a frame: its overhead (a median that checks for NaNs,
a mean of the two middle values) was a fifth of the motion check. `settle.row_medians` takes the
same gains, bit for bit, by one partition of the rows. Counted, not timed."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import settle
from vision.settle import SettleTracker
from vision.synthetic import render_tray


@pytest.mark.parametrize("shape", [(114, 160), (120, 161), (9, 7), (5, 2), (3, 1), (2, 3)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_medians_are_numpys_bit_for_bit(shape, dtype):
    rng = np.random.default_rng(sum(shape))
    for a in ((rng.random(shape) * 3 + 0.2).astype(dtype),          # ratios of two frames' pixels
              (np.round(rng.random(shape) * 4) + 1).astype(dtype)):  # ties: a flat tray
        want = np.median(a, axis=1, keepdims=True)
        got = settle.row_medians(a)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want)


def test_a_camera_frame_takes_no_numpy_median(monkeypatch):
    """Before: each update of a still tray called np.median twice (the previous frame, and the
    first frame of the still spell)."""
    frames = [render_tray([3, 5, 1], seed=s).image for s in (4, 4, 4, 5, 5, 5, 5)]
    tracker = SettleTracker()
    calls: list[int] = []
    real = np.median

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(settle.np, "median", counted)
    for i, f in enumerate(frames):
        tracker.update(f, 0.1 * i)
    assert calls == []


def test_a_camera_frame_is_made_grey_before_it_is_shrunk(monkeypatch):
    """Before: the tray's crop of every camera frame was area-averaged down in its three colour
    channels, then made grey (~0.3 ms of a ~0.6 ms update); it is now made grey first, within a
    grey level of the same picture."""
    frame = render_tray([3, 5, 1], seed=4).image
    shrunk: list[int] = []
    real = settle.cv2.resize

    def watched(src, *args, **kwargs):
        shrunk.append(src.ndim)
        return real(src, *args, **kwargs)

    tracker = SettleTracker(tray=(40, 40, 600, 440))
    monkeypatch.setattr(settle.cv2, "resize", watched)
    small = tracker._small(frame)
    monkeypatch.undo()
    crop = frame[40:440, 40:600]
    colour_first = cv2.GaussianBlur(cv2.cvtColor(cv2.resize(crop, small.shape[::-1], interpolation=cv2.INTER_AREA),
                                                 cv2.COLOR_BGR2GRAY), (3, 3), 0)
    assert shrunk == [2]
    assert np.abs(small.astype(int) - colour_first).max() <= 1
