"""A die cut by the frame's edge, found twice at one place, stays "partly out of view".

The segmenter keeps the first of two finds at one place (a die inside a tray rim's hole is seen
twice). The second find of a die partly out of view used to set the flag on whatever candidate
was last, which cleared the first find's "partly out of view": a die whose face is half outside
the picture could then be given a value.
"""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision import blob_shape, segment
from vision.reader import read
from vision.synthetic import render_scene, render_tray
from vision.types import PARTLY_OUT_OF_VIEW


def _a_five_cut_by_the_left_edge() -> np.ndarray:
    """A 5 whose left part is outside the picture, and a whole 2."""
    t = render_tray([5, 2], seed=1).truth
    return render_scene([dataclasses.replace(t[0], centre=(8.0, 200.0)), t[1]], seed=1).image


def _each_cut_blob_found_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every blob at the frame's left edge is found again, as another outline of the same place."""
    found_once = blob_shape._blobs

    def twice(mask: np.ndarray) -> list[blob_shape._Blob]:
        out = []
        for b in found_once(mask):
            out.append(b)
            if cv2.boundingRect(b.contour)[0] <= 2:
                out.append(blob_shape._blob(b.contour.copy()))
        return out

    monkeypatch.setattr(segment, "_blobs", twice)


def _cut(candidates: list[segment.Candidate]) -> list[segment.Candidate]:
    return [c for c in candidates if c.centre[0] < 40]


def test_the_cut_die_is_flagged_when_found_once() -> None:
    cut = _cut(segment.segment(_a_five_cut_by_the_left_edge()).candidates)
    assert len(cut) == 1 and cut[0].partial


def test_a_second_find_of_the_cut_die_leaves_it_flagged(monkeypatch: pytest.MonkeyPatch) -> None:
    _each_cut_blob_found_twice(monkeypatch)
    cut = _cut(segment.segment(_a_five_cut_by_the_left_edge()).candidates)
    assert len(cut) == 1
    assert cut[0].partial, "the second find cleared the first one's 'partly out of view'"


def test_a_cut_die_found_twice_is_never_given_a_value(monkeypatch: pytest.MonkeyPatch) -> None:
    _each_cut_blob_found_twice(monkeypatch)
    r = read(_a_five_cut_by_the_left_edge())
    cut = [d for d in r.dice if d.centre[0] < 40]
    assert len(cut) == 1 and PARTLY_OUT_OF_VIEW in cut[0].problems and cut[0].value is None
