"""A frame segmented more than once in one calibrated read (the size checks: without a die size,
then at the dice's own size) has its frame-level work done once (vision/segment.py, FrameWork):
the area-averaged copy, its Lab, colour gradient, contrast and washed-out pixels were computed
again by every segmentation of the same frame at the same working scale (~0.6 ms of a 640 x 480
frame each time). Counted, not timed; the reading must be the same as with that work redone."""
from __future__ import annotations

import numpy as np
import pytest

from vision import reader, segment
from vision.calibrate import calibrate
from vision.synthetic import TrayStyle, render_tray

GREEN = TrayStyle.preset("green", border_px=40)


@pytest.fixture(scope="module")
def calibration() -> dict:
    """The café's 55 px dice, calibrated as `dicetable calibrate` does."""
    empty = [render_tray([], seed=i, style=GREEN, die_px=55).image for i in range(2)]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=GREEN, die_px=55).image for i in range(2)]
    return calibrate(empty, throws, reader=reader.read).to_dict()


def _counted(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """A list that grows by one each time `segment.<name>` runs."""
    calls: list[int] = []
    real = getattr(segment, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(segment, name, counted)
    return calls


def _segmentations(monkeypatch: pytest.MonkeyPatch, share: bool) -> list[float | None]:
    """The die size of each segmentation made; with `share` False each redoes its frame work."""
    sizes: list[float | None] = []
    real = segment.segment

    def seg(*args, **kwargs):
        sizes.append(kwargs.get("die_px"))
        if not share:
            kwargs.pop("like", None)
        return real(*args, **kwargs)

    monkeypatch.setattr(segment, "segment", seg)
    return sizes


def _as_tuples(r) -> tuple:
    return ([(d.value, d.box, d.centre, d.confidence, d.problems) for d in r.dice],
            [(p.code, p.message, p.box) for p in r.problems])


@pytest.mark.parametrize("seed", [300, 302])
def test_bigger_dice_touching_segmented_three_times_compute_the_frame_once(calibration, monkeypatch, seed):
    """70 px dice, two touching, on a tray calibrated with 55 px ones: the read segments the
    frame at the calibrated size, without a size (the bigger-dice check), then at the dice's own
    size, all three at the same working scale. Before: the frame's Lab gradient was computed 3
    times; now once. The reading is the same as with it computed for each segmentation."""
    frame = render_tray([6, 2, 3, 4, 5], seed=seed, style=GREEN, die_px=70, touching=2).image
    with monkeypatch.context() as m:
        sizes = _segmentations(m, share=False)
        alone = reader.read(frame, calibration)
    assert len(sizes) == 3 and sizes[1] is None, sizes            # (the scenario this test is about)
    assert any(p.code == "die_size" for p in alone.problems), alone.problems
    with monkeypatch.context() as m:
        grads = _counted(m, "gradient")
        shared = reader.read(frame, calibration)
    assert len(grads) == 1
    assert _as_tuples(shared) == _as_tuples(alone)


def test_a_segmentation_of_another_frame_or_scale_is_not_taken():
    """`like` is taken only for the very array it was made from, at the same working scale: a
    camera that reuses its buffer, or a segmentation at another die size, computes its own."""
    a = render_tray([1, 2, 3], seed=5, style=GREEN).image
    b = a.copy()
    first = segment.segment(a, die_px=55.0, refine=False)
    assert segment.frame_work(a, first.scale, first) is first.frame
    assert segment.frame_work(b, first.scale, first) is not first.frame
    assert segment.frame_work(a, 0.25, first) is not first.frame
    b[:] = 0
    assert segment.segment(b, die_px=55.0, refine=False, like=first).candidates == []


def test_painting_the_surface_colour_is_numpys():
    """`painted` sets the same pixels to the same numbers as numpy's `img[off > 0] = fill`
    (the fill is the surface's median colour, a float32 triple)."""
    rng = np.random.default_rng(3)
    img = rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)
    off = np.where(rng.random((240, 320)) < 0.3, 255, 0).astype(np.uint8)
    for fill in (np.array([140.0, 121.0, 133.0], np.float32), np.array([0.0, 255.0, 128.0], np.float32)):
        want = img.copy()
        want[off > 0] = fill
        got = segment.painted(img, off, fill)
        assert np.array_equal(got, want)
        assert got is not img and not np.shares_memory(got, img)
