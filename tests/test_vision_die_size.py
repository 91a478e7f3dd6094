"""Dice bigger than the ones the table was calibrated with (vision/die_size.py): the staff
calibrated with the café's 55 px dice, the players then threw their own bigger ones."""
from __future__ import annotations

import pytest

from vision.calibrate import calibrate
from vision.reader import read
from vision.synthetic import HandSpec, TrayStyle, render_tray

STYLE = TrayStyle.preset("green", border_px=40)
BLOCKING = {"die_leaning", "foreign_object", "partly_out_of_view", "unsure_value", "dice_touching"}


@pytest.fixture(scope="module")
def calibration() -> dict:
    """What `dicetable calibrate` saves for this tray, from two empty frames and two throws of
    the café's 55 px dice."""
    empty = [render_tray([], seed=i, style=STYLE, die_px=55).image for i in range(2)]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=STYLE, die_px=55).image for i in range(2)]
    cal = calibrate(empty, throws, reader=read)
    assert cal.die_px == pytest.approx(55, rel=0.1)
    return cal.to_dict()


@pytest.mark.parametrize("die_px", [80, 95])
@pytest.mark.parametrize("seed", [200, 201, 203])
def test_dice_bigger_than_calibrated_are_read_and_the_staff_told(calibration, die_px, seed):
    """Before: 2 of 60 such dice read on 12 trays (80 px; 95 px: none), each tray refused as
    "a large object that is not a die" (a hand to take out, the players were told)."""
    tray = render_tray([6, 2, 3, 4, 5], seed=seed, style=STYLE, die_px=die_px)
    r = read(tray.image, calibration=calibration)
    assert sorted(d.value for d in r.dice) == [2, 3, 4, 5, 6], r.problems
    assert not r.problem_codes() & BLOCKING, r.problems
    told = [p for p in r.problems if p.code == "die_size"]
    assert len(told) == 1 and "calibrate again" in told[0].message
    assert f"calibrated {calibration['die_px']:.0f} px" in told[0].message


@pytest.mark.parametrize("values", [[], [3], [2, 5], [1, 2, 3, 4, 5]])
@pytest.mark.parametrize("side", ["top", "bottom", "left"])
def test_a_hand_over_dice_of_the_calibrated_size_is_not_called_bigger_dice(calibration, values, side):
    """A hand is bigger than a die too: it stays a hand (an object in the tray), never bigger dice."""
    for seed in range(2):
        tray = render_tray(values, seed=seed, style=STYLE, die_px=55,
                           hands=HandSpec(side, 0.5, 200 + 20 * seed, 90 + 10 * seed))
        assert "die_size" not in read(tray.image, calibration=calibration).problem_codes()


def test_dice_of_the_calibrated_size_touching_are_not_called_bigger(calibration):
    for seed in range(4):
        tray = render_tray([1, 2, 3, 4, 5], seed=seed, style=STYLE, die_px=55, touching=2)
        assert "die_size" not in read(tray.image, calibration=calibration).problem_codes()


def _throw(seed: int) -> list[int]:
    import numpy as np

    return [int(v) for v in np.random.default_rng(seed).integers(1, 7, 5)]


@pytest.mark.parametrize("die_px, seed", [(22, 301), (22, 302), (22, 310), (22, 311), (28, 302), (28, 304),
                                          (34, 302), (34, 306)])
def test_dice_smaller_than_calibrated_are_read_and_the_staff_told(calibration, die_px, seed):
    """Calibrated with 55 px dice, the players throw 22-34 px ones. Before, these throws were
    asked again for no reason the players could see: a die "partly out of view" or unread, or
    a die missing (the segmenter took the small dice for specks; 5-8 of 20 such green trays a
    size). They are read at the dice's own size now, and the staff told to calibrate again."""
    values = _throw(seed)
    r = read(render_tray(values, seed=seed, style=STYLE, die_px=die_px).image, calibration=calibration)
    assert sorted(d.value for d in r.dice if d.value is not None) == sorted(values), r.problems
    assert len(r.dice) == 5 and not r.problem_codes() & BLOCKING, r.problems
    told = [p for p in r.problems if p.code == "die_size"]
    assert len(told) == 1 and "smaller than the ones calibrated" in told[0].message
    assert "calibrate again" in told[0].message


@pytest.mark.parametrize("seed", range(6))
def test_a_leaning_die_of_the_calibrated_size_is_not_called_smaller_dice(calibration, seed):
    """A throw asked again for a leaning die of the calibrated size stays asked, never read at
    another size (the second segmentation measures the calibrated dice)."""
    values = _throw(seed)
    r = read(render_tray(values, seed=seed, style=STYLE, die_px=55, leaning=[0]).image, calibration=calibration)
    assert "die_size" not in r.problem_codes(), r.problems
