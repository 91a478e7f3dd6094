"""Synthetic tray renderer: determinism, truth that matches the pixels, real pip layouts."""
from __future__ import annotations

import itertools
import json
import math

import cv2
import numpy as np
import pytest

from vision.synthetic import (
    DIE_COLOURS, PIP_LAYOUTS, HandSpec, ThrowAnimation, TrayStyle, main, render_scene, render_tray, throw_frames,
)

QUIET = dict(noise_sigma=0.0)


def inner_mask(d, shape, frac=0.78) -> np.ndarray:
    """Pixels of the die's top face (shrunk a little so the bevel is left out)."""
    h = d.size_px * frac / 2
    a = math.radians(d.angle_deg)
    c, s = math.cos(a), math.sin(a)
    pts = [(d.centre[0] + c * u - s * v, d.centre[1] + s * u + c * v) for u, v in ((-h, -h), (h, -h), (h, h), (-h, h))]
    m = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(m, [np.round(np.array(pts)).astype(np.int32)], 255)
    return m > 0


def count_pips(image: np.ndarray, d, dark_pips: bool) -> int:
    """Independent check: blobs of pip colour inside the face."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    face = inner_mask(d, image.shape)
    pips = (grey < 110) if dark_pips else (grey > 150)
    blobs = (pips & face).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(blobs, connectivity=8)
    min_area = max(3, 0.25 * math.pi * (0.088 * d.size_px) ** 2)
    return int(sum(1 for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= min_area))


def test_same_seed_same_image_and_truth():
    a = render_tray([3, 5, 1], seed=4)
    b = render_tray([3, 5, 1], seed=4)
    c = render_tray([3, 5, 1], seed=5)
    assert np.array_equal(a.image, b.image)
    assert a.truth == b.truth
    assert not np.array_equal(a.image, c.image)
    assert a.image.dtype == np.uint8 and a.image.shape == (480, 640, 3)
    assert [d.value for d in a.truth] == [3, 5, 1]


@pytest.mark.parametrize("bad", [[0], [7], [3, 9], ["3"], [2.5], [True], [None]])
def test_bad_values_are_refused_clearly(bad):
    with pytest.raises(ValueError, match=r"from 1 to 6"):
        render_tray(bad)


def test_other_bad_requests_are_refused():
    with pytest.raises(ValueError, match="held"):
        render_tray([1], held=[8])
    with pytest.raises(ValueError, match="colour"):
        render_tray([1], colours=["chartreuse"])
    with pytest.raises(ValueError, match="cannot fit"):
        render_tray([1] * 30, die_px=120)
    with pytest.raises(ValueError, match="style"):
        TrayStyle.preset("plaid")
    with pytest.raises(ValueError, match="size"):
        render_tray([1], size=(10, 10))


@pytest.mark.parametrize("n", range(0, 9))
def test_n_dice_inside_frame_without_overlap(n):
    shot = render_tray(list(itertools.islice(itertools.cycle(range(1, 7)), n)), seed=n, die_px=55)
    assert len(shot.truth) == n
    for d in shot.truth:
        x0, y0, x1, y1 = d.box
        assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 480
    for a, b in itertools.combinations(shot.truth, 2):
        assert math.dist(a.centre, b.centre) > 1.05 * max(a.size_px, b.size_px)


def test_truth_boxes_hold_the_dice():
    empty = render_tray([], seed=1, **QUIET).image.astype(int)
    for seed, style in [(1, TrayStyle()), (2, TrayStyle.preset("dark")), (3, TrayStyle.preset("light"))]:
        empty = render_tray([], seed=seed, style=style, **QUIET).image.astype(int)
        shot = render_tray([1, 2, 3, 4, 5, 6], seed=seed, style=style, **QUIET)
        changed = np.abs(shot.image.astype(int) - empty).max(axis=2) > 25
        for d in shot.truth:
            x0, y0, x1, y1 = d.box
            face = inner_mask(d, shot.image.shape)
            assert changed[face].mean() > 0.5, (seed, d)          # the face differs from bare felt
            inside = np.zeros_like(changed)
            inside[y0:y1, x0:x1] = True
            assert face[~inside].sum() == 0                         # and lies within the box
            # the box is tight: a margin 6 px around it is mostly felt (shadows aside)
            assert changed[max(0, y0 - 12):y0 - 6, x0:x1].mean() < 0.5 if y0 >= 12 else True


@pytest.mark.parametrize("die_px", [30, 60, 110])
def test_pip_counts_match_values(die_px):
    for seed in range(3):
        shot = render_tray([1, 2, 3, 4, 5, 6], seed=seed, die_px=die_px, size=(800, 600), **QUIET)
        for d in shot.truth:
            assert count_pips(shot.image, d, dark_pips=True) == d.value, (seed, d)
        black = render_tray([6, 5, 4, 3, 2, 1], seed=seed, die_px=die_px, size=(800, 600), colours=["black"],
                            style=TrayStyle.preset("light"), **QUIET)
        for d in black.truth:
            assert count_pips(black.image, d, dark_pips=False) == d.value, (seed, d)


def test_pip_layouts_are_the_real_ones():
    assert {v: len(p) for v, p in PIP_LAYOUTS.items()} == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}
    assert PIP_LAYOUTS[1] == ((0.0, 0.0),)
    for v in (2, 3):  # on a diagonal
        assert all(abs(u - w) < 1e-9 for u, w in PIP_LAYOUTS[v])
    assert (0.0, 0.0) in PIP_LAYOUTS[5] and (0.0, 0.0) not in PIP_LAYOUTS[4]
    assert len({u for u, _ in PIP_LAYOUTS[6]}) == 2          # two columns of three


def test_every_colour_renders():
    shot = render_tray([1, 2, 3, 4, 5, 6, 1, 2], seed=3, colours=DIE_COLOURS[:8], die_px=45)
    assert [d.colour for d in shot.truth] == list(DIE_COLOURS[:8])
    rest = DIE_COLOURS[8:] + ("red/black",)
    shot = render_tray([k % 6 + 1 for k in range(len(rest))], seed=3, colours=rest, die_px=45)
    assert [d.colour for d in shot.truth] == list(rest)


def test_touching_and_leaning():
    shot = render_tray([2, 3, 4, 5], seed=7, touching=1, leaning=[3])
    a, b = shot.truth[0], shot.truth[1]
    assert a.extra["touching_with"] == 1 and b.extra["touching_with"] == 0
    assert math.dist(a.centre, b.centre) < 1.1 * max(a.size_px, b.size_px)
    assert shot.truth[3].leaning and not shot.truth[2].leaning


def test_held_dice_stay_put_and_thrown_dice_avoid_them():
    shots = [render_tray([1, 2, 3], seed=s, held=[6, 6]) for s in range(4)]
    held = [[d.centre for d in s.truth if d.extra.get("held")] for s in shots]
    assert all(h == held[0] for h in held) and len(held[0]) == 2
    assert all(c[1] > 480 - 1.6 * 60 for c in held[0])       # bottom strip
    for s in shots:
        for d in s.truth[:3]:
            assert all(math.dist(d.centre, c) > d.size_px for c in held[0])


def test_hand_and_glare():
    shot = render_tray([1, 2], seed=2, hands=HandSpec(edge="left", pos=0.5, reach=250, width=100))
    x0, y0, x1, y1 = shot.hand_box
    assert x0 == 0 and x1 > 200
    patch = shot.image[y0:y1, x0:x1].reshape(-1, 3).astype(int)
    skin = (patch[:, 2] > patch[:, 1] + 20) & (patch[:, 1] > patch[:, 0] + 15)
    assert skin.mean() > 0.2
    glared = render_tray([3], seed=2, glare=(320, 240))
    grey = cv2.cvtColor(glared.image, cv2.COLOR_BGR2GRAY)
    assert grey[230:250, 310:330].min() >= 250
    assert (grey >= 250).mean() > 0.01


def test_blur_and_noise_options():
    sharp = render_tray([5], seed=1, die_px=80, **QUIET)
    blurred = render_tray([5], seed=1, die_px=80, motion_blur=15, **QUIET)
    lap = lambda im: cv2.Laplacian(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var()  # noqa: E731
    assert lap(blurred.image) < 0.5 * lap(sharp.image)
    noisy = render_scene(sharp.truth, seed=9, noise_sigma=4).image
    diff = noisy.astype(int) - sharp.image.astype(int)
    assert 2.5 < diff.std() < 6


def test_throw_animation_phases_and_still_frames():
    anim = ThrowAnimation([3, 5, 1], held=[6], seed=4, still_frames=5)
    frames = list(anim)
    assert len(frames) == len(anim.phases)
    order = [p for i, p in enumerate(anim.phases) if i == 0 or anim.phases[i - 1] != p]
    assert order == ["idle", "hand", "tumble", "settle", "still"]
    still = [f for f, p in zip(frames, anim.phases) if p == "still"]
    assert len(still) == 5
    for a, b in zip(still, still[1:]):
        assert not np.array_equal(a, b)                       # sensor noise differs
        assert np.abs(a.astype(int) - b.astype(int)).mean() < 4
    tumble = [f for f, p in zip(frames, anim.phases) if p == "tumble"]
    assert np.abs(tumble[0].astype(int) - still[-1].astype(int)).mean() > 4
    assert sorted(d.value for d in anim.final.truth) == [1, 3, 5, 6]
    assert np.array_equal(anim.final.image, frames[-1])
    # the final frame really shows the final dice: pips countable
    for d in anim.final.truth:
        assert count_pips(frames[-1], d, dark_pips=True) == d.value
    # idle frames show only the held die, which never moves
    idle = frames[0]
    held = [d for d in anim.final.truth if d.extra.get("held")][0]
    assert count_pips(idle, held, dark_pips=True) == 6
    assert len(list(throw_frames([2], seed=1, fps=20))) > len(list(throw_frames([2], seed=1, fps=10)))


def test_cli_writes_png_and_truth(tmp_path, capsys):
    assert main([str(tmp_path), "--values", "3,5,1", "--seed", "4"]) == 0
    img = cv2.imread(str(tmp_path / "tray.png"))
    assert img.shape == (480, 640, 3)
    truth = json.loads((tmp_path / "truth.json").read_text())
    assert [d["value"] for d in truth["dice"]] == [3, 5, 1]
    assert np.array_equal(img, render_tray([3, 5, 1], seed=4).image)
    assert main([str(tmp_path / "bad"), "--values", "3,8"]) == 2
    assert "1 to 6" in capsys.readouterr().err
