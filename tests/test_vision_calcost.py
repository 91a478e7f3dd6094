"""What a calibrated read does per frame (vision/die_size.py `OwnSize`): the frame is segmented
without a die size at most once, however many of the size checks (bigger dice, smaller dice, the
read again at the smaller size) need it. Counted, not timed."""
from __future__ import annotations

import pytest

from vision import reader, segment
from vision.calibrate import calibrate
from vision.synthetic import ThingSpec, TrayStyle, render_tray

STYLE = TrayStyle.preset("light", border_px=40)
COIN_AND_PHONE = (ThingSpec("coin", (200.0, 180.0), 50.0), ThingSpec("phone", (420.0, 300.0), 150.0, 20.0))


@pytest.fixture(scope="module")
def calibration() -> dict:
    """What `dicetable calibrate` saves for a light felt tray with a wooden rim."""
    empty = render_tray([], seed=1, style=STYLE).image
    throw = render_tray([1, 2, 3, 4, 5], seed=2, style=STYLE).image
    return calibrate([empty], [throw], reader=reader.read).to_dict()


def sizeless_segmentations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one each time a frame is segmented without a die size."""
    calls: list[int] = []
    real = segment.segment

    def counted(*args, **kwargs):
        if kwargs.get("die_px") is None:
            calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(segment, "segment", counted)
    return calls


@pytest.mark.parametrize("seed", [14, 101])
def test_a_phone_and_a_coin_by_the_dice_do_not_segment_the_frame_without_a_size(calibration, monkeypatch, seed):
    """A coin and a phone left by the dice (things not dice, and a die it could not read) made
    both size checks segment the same frame without a die size: twice before fix-calcost, once
    before fix-calcost2, for nothing (~7-10 ms of a 640 x 480 frame). Neither check segments it
    now: the calibrated segmentation's blobs (`Segmentation.blob_px`) and the dice's boxes
    (`die_size.boxes_smaller`) measure the dice as calibrated. The reading is the same."""
    frame = render_tray([6, 6, 1, 2], seed=seed, style=STYLE, things=COIN_AND_PHONE).image
    calls = sizeless_segmentations(monkeypatch)
    r = reader.read(frame, calibration)
    assert r.problems and not any(p.code == "bad_frame" for p in r.problems), r.problems
    assert len(calls) == 0


def test_dice_read_again_at_their_smaller_size_segment_the_frame_without_a_size_once(calibration, monkeypatch):
    """Before: 34 px dice on a tray calibrated with 60 px ones were segmented without a size to
    measure them, then again by the read at their size (its bigger-dice check)."""
    frame = render_tray([1, 2, 3, 4, 5], seed=14, style=STYLE, die_px=34.0).image
    calls = sizeless_segmentations(monkeypatch)
    r = reader.read(frame, calibration)
    assert sorted(d.value for d in r.dice) == [1, 2, 3, 4, 5], r.problems
    assert len(calls) == 1


def test_the_calibrated_benchmark_counts_each_stage_and_puts_the_reader_back(calibration):
    """`python -m vision.calcost_bench` times the reader's stages by wrapping them: each frame's
    stages are counted (the runs do not depend on the machine's load), and the reader's own
    functions are back in place afterwards (a table reading after it is not slowed)."""
    from vision import calcost_bench

    frame = render_tray([6, 6, 1, 2], seed=14, style=STYLE, things=COIN_AND_PHONE).image
    before = {(m.__name__, a): getattr(m, a) for m, a, _n in calcost_bench.STAGES}
    best, stages, calls = calcost_bench.measure([("coin and phone", frame, calibration)], 1)
    assert calls[0]["segment"] == 1 and calls[0]["felt_past_tray"] == 1   # calibrated only (see above)
    assert set(stages[0]) >= {"segment", "detector", "classifier", "other"} and best[0] > 0
    assert {(m.__name__, a): getattr(m, a) for m, a, _n in calcost_bench.STAGES} == before
    assert "segment" in calcost_bench.report("one", best, stages, calls)
