"""The advice `dicetable calibrate` prints, from the frames staff really take: dice touching in
a throw, a hand left in an "empty" frame. Advice that names the wrong trouble sends them to
change what is fine (the dice, the lamp's mains setting) and calibrate again and again."""
from __future__ import annotations

import dataclasses

import numpy as np

import pytest

from vision.calibrate import calibrate, check_images, empty_tray_problem, throw_problem
from vision.reader import read
from vision.synthetic import HandSpec, TrayStyle, render_tray

GREEN = TrayStyle.preset("green", border_px=40)
LIGHT = TrayStyle.preset("light", border_px=40)


def _empty(style: TrayStyle, n: int = 2) -> list:
    return [render_tray([], seed=i, style=style, die_px=55).image for i in range(n)]


@pytest.mark.parametrize("style,colours,touching", [
    (GREEN, ("white",), 2),            # white dice on green felt, two pairs touching
    (LIGHT, None, 2),                  # coloured dice on light felt, two pairs touching
    (LIGHT, ("black",), 0),            # black dice on light felt: what the advice itself recommends
])
def test_dice_that_stand_out_are_not_called_low_contrast(style, colours, touching):
    """Before: "Low contrast between dice and tray: use dice that stand out from the felt" for
    each of these (on 14 of 16 rendered calibrations with two pairs touching, and for black dice
    on light felt): dice the reader found but no lone blob measured (touching, or with a shadow
    joined) were all counted as differing too little from the felt."""
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=style, die_px=55, colours=colours,
                          touching=touching).image for i in range(2)]
    cal = calibrate(_empty(style), throws, reader=read)
    assert cal.die_px == pytest.approx(55, rel=0.15)
    assert not any(a.startswith("Low contrast") for a in cal.advice), cal.advice


def test_black_dice_on_black_felt_are_still_called_low_contrast():
    dark = TrayStyle.preset("dark", border_px=40)
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=dark, die_px=55, colours=("black",)).image
              for i in range(2)]
    cal = calibrate(_empty(dark), throws, reader=read)
    assert any(a.startswith("Low contrast") for a in cal.advice), cal.advice


# a hand resting on the tray's near wall, still (the camera takes still frames: it is waited
# out only while it moves); the first the reader sees, the second it does not
SEEN_HAND = HandSpec("bottom", 0.5, 220, 100)
UNSEEN_HAND = HandSpec("left", 0.3, 280, 110)


@pytest.mark.parametrize("hand", [SEEN_HAND, UNSEEN_HAND])
def test_a_hand_in_one_empty_frame_gives_no_lighting_advice(hand):
    """Before: "Flickering light: ... set mains_hz in [camera] to the mains (50 or 60)" for a
    hand over one of the two empty frames (its rows' light differed between the frames)."""
    empty = [render_tray([], seed=0, style=GREEN, die_px=55, hands=hand).image, _empty(GREEN)[1]]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=GREEN, die_px=55).image for i in range(2)]
    cal = calibrate(empty, throws, reader=read)
    assert cal.advice == [], cal.advice
    assert cal.die_px == pytest.approx(55, rel=0.1)


def test_a_hand_in_an_empty_frame_is_named_and_the_image_refused():
    """Before: the frame was taken as the empty tray (the reader saw no die in it)."""
    hand = render_tray([], seed=0, style=GREEN, die_px=55, hands=SEEN_HAND).image
    assert empty_tray_problem(read, hand) == ("I see a hand or an object in the tray: it must be empty, "
                                              "and nothing over it.")
    assert empty_tray_problem(read, _empty(GREEN)[0]) is None
    throw = render_tray([1, 2, 3, 4, 5], seed=50, style=GREEN, die_px=55).image
    with pytest.raises(ValueError, match=r"--empty hand.png: I see a hand or an object"):
        check_images(read, [("hand.png", hand), ("empty.png", _empty(GREEN)[1])], [("throw.png", throw)])


def test_a_throw_in_the_dark_says_why_no_dice_are_seen():
    """The lamp over the tray off: before, "I see no dice in the tray." and nothing else, at every
    Enter of --camera, with the dice in plain sight of the staff."""
    dark = dataclasses.replace(GREEN, brightness=0.1)
    throw = render_tray([1, 2, 3, 4, 5], seed=50, style=dark, die_px=55).image
    assert throw_problem(read, throw) == ("I see no dice in the tray: it is too dark to see them. Is the lamp "
                                          "over the tray on?")
    assert throw_problem(read, _empty(GREEN)[0]) == "I see no dice in the tray."


def test_a_camera_knocked_between_the_empty_frames_and_the_throws_is_named_and_nothing_saved(tmp_path, capsys):
    """Before: saved ("lighting looks fine"), and the table then said "the tray is not where it
    was calibrated" from its first throw on."""
    import cv2

    from controller.cli import main

    def knocked(img):                     # the picture 30 px up: the camera tipped as the dice were thrown
        return cv2.warpAffine(img, np.float32([[1, 0, 0], [0, 1, -30]]), (img.shape[1], img.shape[0]),
                              borderMode=cv2.BORDER_REPLICATE)

    paths = []
    for i, img in enumerate(_empty(GREEN) + [knocked(render_tray([1, 2, 3, 4, 5], seed=50 + i, style=GREEN,
                                                                 die_px=55).image) for i in range(2)]):
        paths.append(str(tmp_path / f"{i}.png"))
        cv2.imwrite(paths[-1], img)
    cfg = tmp_path / "config.toml"
    cfg.write_text("# the café's table\n[camera]\ntype = \"folder\"\n")
    assert main(["calibrate", "--empty", *paths[:2], "--throw", *paths[2:], "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert "the camera or the tray moved between the empty frames and throw 1" in err and "top side" in err
    assert cfg.read_text() == "# the café's table\n[camera]\ntype = \"folder\"\n"


@pytest.mark.parametrize("style", [GREEN, LIGHT, TrayStyle.preset("blue", border_px=70)])
def test_a_lamp_glaring_in_the_middle_of_the_tray_still_finds_the_tray(style):
    """A lamp straight over the tray, its reflection in the middle of the felt: before, the tray
    was "the whole view" (on 38 of 54 such rendered trays, 6 felts, 3 borders, 3 sizes; now 0): its
    walls unwatched ("a moved camera cannot be noticed"), and the table's wood taken for the
    tray's dark corners. Now the tray, and the advice to move the lamp or use a diffuser."""
    from vision.synthetic import tray_rect

    empty = [render_tray([], seed=i, style=style, die_px=55, glare=(320, 240)).image for i in range(2)]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=style, die_px=55, glare=(320, 240)).image
              for i in range(2)]
    cal = calibrate(empty, throws, reader=read)
    truth = tray_rect((640, 480), style)
    assert all(abs(a - b) <= 12 for a, b in zip(cal.tray, truth)), (cal.tray, truth)
    assert sorted(cal.walls) == ["bottom", "left", "right", "top"]
    assert any(a.startswith("Glare:") for a in cal.advice), cal.advice
