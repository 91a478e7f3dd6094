"""Calibration: tray, die size and light from rendered frames; the [vision] config section."""
from __future__ import annotations

import argparse
import os
import stat
import tomllib

import cv2
import numpy as np
import pytest

import controller.calibrate as calibrate_module
from controller.calibrate import load_calibration, register, replace_section, save_calibration
from vision.calibrate import Calibration, calibrate
from vision.synthetic import HandSpec, TrayStyle, render_tray, tray_rect
from vision.types import Die, Reading


def frames(style: TrayStyle, die_px: float, n_empty=3, n_throw=3, values=(1, 2, 3, 4, 5), **kw):
    empty = [render_tray([], seed=i, style=style, die_px=die_px, **kw).image for i in range(n_empty)]
    throws = [render_tray(list(values), seed=50 + i, style=style, die_px=die_px, **kw) for i in range(n_throw)]
    return empty, throws


@pytest.mark.parametrize("style,die_px", [
    (TrayStyle(), 60), (TrayStyle.preset("dark"), 32), (TrayStyle.preset("light"), 90),
    (TrayStyle.preset("blue", border_px=50), 45), (TrayStyle(border_px=30, die_colours=("red", "black")), 110),
])
def test_die_size_and_tray_recovered(style, die_px):
    empty, throws = frames(style, die_px, values=(1, 2, 3) if die_px > 100 else (1, 2, 3, 4, 5))
    cal = calibrate(empty, [t.image for t in throws])
    assert cal.die_px == pytest.approx(die_px, rel=0.15)
    assert cal.dice_seen >= 3
    true_tray = tray_rect((640, 480), style)
    assert all(abs(a - b) <= 12 for a, b in zip(cal.tray, true_tray)), (cal.tray, true_tray)
    bg = np.array(style.felt_bgr, float)
    assert np.abs(np.array(cal.background_bgr) - bg).max() < 0.35 * bg.max() + 10
    assert cal.frame_size == (640, 480)


def test_reader_boxes_keep_only_dice():
    style = TrayStyle()
    empty, throws = frames(style, 60)
    # a hand in the throw frames: the blob measure must not care
    hand = [render_tray([1, 2, 3, 4, 5], seed=50 + i, die_px=60, hands=HandSpec("top", 0.5, 200, 90)) for i in range(3)]

    def reader(frame):
        shot = next(s for s in hand if s.image is frame)
        return Reading(tuple(Die(d.value, d.box, d.centre, 0.9) for d in shot.truth))

    cal = calibrate(empty, [s.image for s in hand], reader=reader)
    assert cal.die_px == pytest.approx(60, rel=0.15)


def test_reader_alone_when_no_blob_is_measurable():
    style = TrayStyle()
    empty, _ = frames(style, 60)
    same = [e.copy() for e in empty]                    # "throw" frames showing nothing
    box = (100, 100, 170, 170)
    cal = calibrate(empty, same, reader=lambda f: Reading((Die(3, box, (135.0, 135.0), 0.9),)))
    assert cal.die_px == pytest.approx(70 / 1.2, rel=0.01)
    assert calibrate(empty, same).die_px == 0.0
    assert any("No dice found" in a for a in calibrate(empty, same).advice)


def test_good_light_has_no_advice():
    empty, throws = frames(TrayStyle(), 60)
    cal = calibrate(empty, [t.image for t in throws])
    assert cal.advice == [] and cal.ok


def test_dark_render_gets_too_dark_advice():
    empty, throws = frames(TrayStyle.preset("dim"), 60)
    cal = calibrate(empty, [t.image for t in throws])
    assert any(a.startswith("Too dark: mean brightness") and "/255" in a for a in cal.advice), cal.advice
    assert cal.brightness < 40


def test_dark_felt_with_bright_dice_is_not_too_dark():
    empty, throws = frames(TrayStyle.preset("dark"), 60)
    cal = calibrate(empty, [t.image for t in throws])
    assert not any("Too dark" in a for a in cal.advice)


def test_glare_and_uneven_light_advice():
    empty, throws = frames(TrayStyle(), 60, glare=(200, 150))
    cal = calibrate(empty, [t.image for t in throws])
    glare = [a for a in cal.advice if a.startswith("Glare:")]
    assert glare and "% of the tray is saturated" in glare[0]
    assert not any("Uneven" in a for a in cal.advice)
    empty, throws = frames(TrayStyle(vignette=0.8, gradient=0.3), 60)
    cal = calibrate(empty, [t.image for t in throws])
    assert any(a.startswith("Uneven light: corners") for a in cal.advice), cal.advice


@pytest.mark.parametrize("amplitude", [0.05, 0.2])
def test_a_flickering_lamp_is_named_not_taken_for_noise(amplitude):
    """Bands of light moving over the empty tray from frame to frame (a mains lamp, a rolling
    shutter) get their own advice, naming the fix (mains_hz); before, bands of +-20% were
    reported as "Noisy image ... add light", which does not cure them, and +-5% as nothing."""
    from vision.conditions import flicker_bands
    empty, throws = frames(TrayStyle(), 60, n_empty=4)
    empty = [flicker_bands(f, amplitude, 160, 0.3 * i) for i, f in enumerate(empty)]
    cal = calibrate(empty, [t.image for t in throws])
    flicker = [a for a in cal.advice if a.startswith("Flickering light:")]
    assert flicker and "mains_hz" in flicker[0], cal.advice
    assert not any(a.startswith("Noisy image") for a in cal.advice), cal.advice
    assert cal.die_px == pytest.approx(60, rel=0.15)
    # one frame of the tray, or frames that differ only by their exposure, show no flicker
    assert not any("Flickering" in a for a in calibrate(empty[:1], [t.image for t in throws]).advice)
    plain = frames(TrayStyle(), 60, n_empty=4)[0]
    steps = [cv2.convertScaleAbs(f, alpha=k) for f, k in zip(plain, (1, 1.1, 0.9, 1.05))]
    assert not any("Flickering" in a for a in calibrate(steps, [t.image for t in throws]).advice)


def test_bad_frames_are_value_errors():
    empty, throws = frames(TrayStyle(), 60, n_empty=1, n_throw=1)
    with pytest.raises(ValueError, match="same size"):
        calibrate(empty, [cv2.resize(throws[0].image, (320, 240))])
    with pytest.raises(ValueError, match="no empty frames"):
        calibrate([], [throws[0].image])
    with pytest.raises(ValueError, match="not an image"):
        calibrate([np.zeros((2, 2, 3), np.uint8)], [throws[0].image])


def test_dict_round_trip_has_reader_keys():
    cal = Calibration(tray=(10, 20, 600, 460), die_px=61.5, frame_size=(640, 480), advice=["Too dark: x"])
    d = cal.to_dict()
    assert d["tray"] == [10, 20, 600, 460] and d["die_px"] == 61.5
    assert Calibration.from_dict(d) == cal
    assert Calibration.from_dict({**d, "walls": ["left", "north", "top"]}).walls == ["left", "top"]
    with pytest.raises(ValueError):
        Calibration.from_dict({"die_px": 3})
    with pytest.raises(ValueError):
        Calibration.from_dict({"tray": [5, 5, 1, 1], "die_px": 3})


OTHER = """# dicetable config
title = "café"

[buttons]
pins = [5, 6, 13]   # arcade buttons
debounce_ms = 30

[vision]
tray = [0, 0, 1, 1]
die_px = 1.0
old_key = "gone"

[display]
fullscreen = true
names = ["Ann", "Bob"]
"""


def test_config_round_trip_preserves_other_sections(tmp_path):
    path = tmp_path / "etc" / "config.toml"
    cal = Calibration(tray=(12, 8, 630, 470), die_px=58.25, frame_size=(640, 480),
                      background_bgr=(52.0, 110.5, 38.0), advice=['Glare: 3% "hot" spot\\ here'],
                      walls=["left", "top", "bottom"])
    path.parent.mkdir()
    path.write_text("")
    save_calibration(cal, path)                          # an empty file
    assert load_calibration(path) == cal
    path.write_text(OTHER, encoding="utf-8")
    save_calibration(cal, path)
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert data["buttons"] == {"pins": [5, 6, 13], "debounce_ms": 30}
    assert data["display"] == {"fullscreen": True, "names": ["Ann", "Bob"]}
    assert data["title"] == "café"
    assert "old_key" not in data["vision"]
    assert "pins = [5, 6, 13]   # arcade buttons" in text           # comments kept byte for byte
    assert text.index("[buttons]") < text.index("[vision]") < text.index("[display]")
    assert load_calibration(path) == cal
    save_calibration(cal, path)                                      # idempotent
    assert path.read_text(encoding="utf-8") == text


def test_config_edge_cases(tmp_path):
    assert load_calibration(tmp_path / "missing.toml") is None
    p = tmp_path / "c.toml"
    p.write_text("[display]\nfullscreen = false\n")
    assert load_calibration(p) is None
    cal = Calibration(tray=(0, 0, 640, 480), die_px=60.0)
    save_calibration(cal, p)
    assert tomllib.loads(p.read_text())["display"] == {"fullscreen": False}
    broken = tmp_path / "broken.toml"
    broken.write_text("[display\nx = ")
    with pytest.raises(ValueError, match="not valid TOML"):
        save_calibration(cal, broken)
    assert broken.read_text() == "[display\nx = "
    assert replace_section("", "vision", {"a": 1}) == "[vision]\na = 1\n"


def test_a_missing_config_is_refused_never_created(tmp_path):
    """A calibration saved before install step 5 made a root-only file holding just [vision]:
    the table's user could not read it and the table could not start."""
    cal = Calibration(tray=(0, 0, 640, 480), die_px=60.0)
    path = tmp_path / "etc" / "config.toml"
    with pytest.raises(ValueError, match=r"no config file at .*sudo mkdir -p .*etc && sudo cp "
                                         r"/opt/dicetable/src/systemd/config.example.toml"):
        save_calibration(cal, path)
    assert not path.parent.exists()
    with pytest.raises(ValueError, match="is a folder, not a file"):
        save_calibration(cal, tmp_path)


def test_saving_keeps_the_config_files_mode_owner_and_link(tmp_path):
    """The file is replaced through a temp file (mkstemp: 0600, owned by whoever runs
    calibrate): the config's own mode and owner are put back on it."""
    real = tmp_path / "config.toml"
    real.write_text("[display]\nfullscreen = true\n")
    real.chmod(0o640)
    owner = (os.getuid(), os.getgid())
    if os.geteuid() == 0:
        owner = (1234, 4321)                    # as after `chown dicetable:` (only root can)
        os.chown(real, *owner)
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    save_calibration(Calibration(tray=(0, 0, 640, 480), die_px=60.0), link)
    st = real.stat()
    assert (stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid) == (0o640, *owner)
    assert link.is_symlink() and load_calibration(link) is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml", "link.toml"]   # no temp file left


def _cli(argv):
    parser = argparse.ArgumentParser(prog="dicetable")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli_calibrate_saves_and_advises(tmp_path, capsys):
    empty, throws = frames(TrayStyle.preset("dim"), 60, n_empty=2, n_throw=2)
    paths = []
    for name, img in [("e0", empty[0]), ("e1", empty[1]), ("t0", throws[0].image), ("t1", throws[1].image)]:
        cv2.imwrite(str(tmp_path / f"{name}.png"), img)
        paths.append(str(tmp_path / f"{name}.png"))
    cfg = tmp_path / "config.toml"
    cfg.write_text("[buttons]\npins = [1]\n")
    code = _cli(["calibrate", "--empty", *paths[:2], "--throw", *paths[2:], "--config", str(cfg)])
    out = capsys.readouterr().out
    assert code == 0
    assert "die size:" in out and "Too dark" in out
    assert "tray walls: none in view" in out          # the dim render's tray fills the frame
    cal = load_calibration(cfg)
    assert cal is not None and cal.die_px == pytest.approx(60, rel=0.15)
    assert tomllib.loads(cfg.read_text())["buttons"] == {"pins": [1]}


@pytest.mark.parametrize("style,colour,die_px", [("dark", "black", 40), ("dark", "black", 60), ("dark", "black", 80),
                                                  ("glare", "translucent_green", 60)])
def test_dice_that_differ_from_the_felt_only_by_their_pips(style, colour, die_px):
    """Black dice on black felt (translucent dice of the felt's colour): only the pips differ
    from the empty tray, and their median (9-14 px) was saved as the die size, with advice to
    lower the camera; the calibrated reader then found no die at all. The reader's boxes now
    measure the dice no blob shows, and the advice names the real trouble."""
    from vision.reader import read
    empty, throws = frames(TrayStyle.preset(style), die_px, colours=[colour])
    cal = calibrate(empty, [t.image for t in throws], reader=read)
    assert cal.die_px == pytest.approx(die_px, rel=0.15)
    assert not any(a.startswith("Dice look small") for a in cal.advice), cal.advice
    if colour == "black":
        assert any(a.startswith("Low contrast") for a in cal.advice), cal.advice


def test_cli_calibrate_measures_black_dice_on_black_felt(tmp_path, capsys):
    """`dicetable calibrate` passes the pip reader, so the case above is measured from the command too."""
    empty, throws = frames(TrayStyle.preset("dark"), 60, n_empty=2, n_throw=2, colours=["black"])
    paths = []
    for name, img in [("e0", empty[0]), ("e1", empty[1]), ("t0", throws[0].image), ("t1", throws[1].image)]:
        cv2.imwrite(str(tmp_path / f"{name}.png"), img)
        paths.append(str(tmp_path / f"{name}.png"))
    cfg = tmp_path / "config.toml"
    cfg.write_text("")
    assert _cli(["calibrate", "--empty", *paths[:2], "--throw", *paths[2:], "--config", str(cfg)]) == 0
    assert "Low contrast" in capsys.readouterr().out
    cal = load_calibration(cfg)
    assert cal is not None and cal.die_px == pytest.approx(60, rel=0.15)


def test_cli_bad_images_exit_2_without_traceback(tmp_path, capsys):
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not a png")
    cfg = tmp_path / "config.toml"
    cfg.write_text("[display]\n")
    code = _cli(["calibrate", "--empty", str(junk), "--throw", str(tmp_path / "nope.png"), "--config", str(cfg)])
    err = capsys.readouterr().err
    assert code == 2
    assert "cannot read empty image" in err and "Traceback" not in err
    assert cfg.read_text() == "[display]\n"


def test_cli_an_image_its_decoder_raises_on_is_named_not_a_traceback(tmp_path, capsys):
    # OpenCV raises (cv2.error) for an OpenEXR file: its build leaves the codec off
    exr = tmp_path / "empty.exr"
    exr.write_bytes(b"\x76\x2f\x31\x01" + b"\x02\x00\x00\x00" + b"\x00" * 200)
    cfg = tmp_path / "config.toml"
    cfg.write_text("[display]\n")
    code = _cli(["calibrate", "--empty", str(exr), "--throw", str(exr), "--config", str(cfg)])
    err = capsys.readouterr().err
    assert code == 2 and f"cannot read empty image {exr}: not a decodable image" in err
    assert "Traceback" not in err and cfg.read_text() == "[display]\n"


def _write(tmp_path, **images):
    for name, img in images.items():
        cv2.imwrite(str(tmp_path / f"{name}.png"), img)
    return {name: str(tmp_path / f"{name}.png") for name in images}


def test_cli_refuses_swapped_empty_and_throw_images(tmp_path, capsys):
    """`--empty THROW --throw EMPTY` said "lighting looks fine" and saved: the difference of the
    two is the same either way round. The images are now checked as --camera checks its frames."""
    empty, throws = frames(TrayStyle(), 60, n_empty=2, n_throw=2)
    p = _write(tmp_path, e0=empty[0], e1=empty[1], t0=throws[0].image, t1=throws[1].image)
    cfg = tmp_path / "config.toml"
    cfg.write_text("[display]\n")
    code = _cli(["calibrate", "--empty", p["t0"], p["t1"], "--throw", p["e0"], p["e1"], "--config", str(cfg)])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "look swapped" in err
    assert f"--empty {p['t0']}: I see 5 dice in the tray: it must be empty." in err
    assert f"--throw {p['e1']}: I see no dice in the tray." in err
    assert cfg.read_text() == "[display]\n"


def test_cli_names_the_one_image_that_shows_the_wrong_thing(tmp_path, capsys):
    empty, throws = frames(TrayStyle(), 60, n_empty=1, n_throw=2)
    p = _write(tmp_path, e0=empty[0], t0=throws[0].image, t1=throws[1].image)
    cfg = tmp_path / "config.toml"
    cfg.write_text("")
    assert _cli(["calibrate", "--empty", p["e0"], p["t0"], "--throw", p["t1"], "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert "do not show what they were given as" in err and "swapped" not in err
    assert f"--empty {p['t0']}: I see 5 dice" in err
    assert p["e0"] not in err and p["t1"] not in err
    assert "[vision]" not in cfg.read_text()


def test_cli_refuses_a_missing_config_and_says_to_copy_the_example(tmp_path, capsys):
    """Before install step 5, `sudo dicetable calibrate` made /etc/dicetable/config.toml itself."""
    empty, throws = frames(TrayStyle(), 60, n_empty=1, n_throw=1)
    cv2.imwrite(str(tmp_path / "e.png"), empty[0])
    cv2.imwrite(str(tmp_path / "t.png"), throws[0].image)
    cfg = tmp_path / "nonexist" / "c.toml"
    code = _cli(["calibrate", "--empty", str(tmp_path / "e.png"), "--throw", str(tmp_path / "t.png"),
                 "--config", str(cfg)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"no config file at {cfg}" in err and "docs/install.md step 5" in err and "Traceback" not in err
    assert not cfg.parent.exists()


def test_cli_refuses_a_config_it_cannot_save_into_before_measuring(tmp_path, capsys, monkeypatch):
    """Without sudo, calibrate measured everything (with --camera: after every Enter) and then said
    "cannot save ...: [Errno 13] Permission denied: '/etc/dicetable/.config-es3_do_y.toml'"."""
    empty, throws = frames(TrayStyle(), 60, n_empty=1, n_throw=1)
    cv2.imwrite(str(tmp_path / "e.png"), empty[0])
    cv2.imwrite(str(tmp_path / "t.png"), throws[0].image)
    cfg = tmp_path / "config.toml"
    cfg.write_text("[display]\nfullscreen = true\n")
    monkeypatch.setattr(calibrate_module, "_may_write", lambda folder: folder != tmp_path, raising=False)
    code = _cli(["calibrate", "--empty", str(tmp_path / "e.png"), "--throw", str(tmp_path / "t.png"),
                 "--config", str(cfg)])
    captured = capsys.readouterr()
    assert code == 2
    assert f"cannot save into {cfg}: this login may not write in {tmp_path}. Put sudo before" in captured.err
    assert "die size" not in captured.out and "[vision]" not in cfg.read_text()


def test_a_misspelt_config_path_names_the_tables_own_config(tmp_path, capsys, monkeypatch):
    """`--config /etc/dicetable/confg.toml` beside the real file: before, the only advice was to copy
    the example to the misspelt name, and the table would never read that calibration."""
    own = tmp_path / "config.toml"
    own.write_text("")
    monkeypatch.setattr(calibrate_module, "DEFAULT_CONFIG", str(own))
    code = _cli(["calibrate", "--empty", "e.png", "--throw", "t.png", "--config", str(tmp_path / "confg.toml")])
    err = capsys.readouterr().err
    assert code == 2
    assert f"The table's own config is {own}: give that to --config, or leave --config out." in err


# ----------------------------------------------------------------- calibrated at another size


def test_calibration_scale_maps_the_same_view_and_refuses_another_shape():
    from vision.reader import calibration_scale

    cal = {"tray": [10, 10, 600, 460], "die_px": 60, "frame_size": [1280, 960]}
    assert calibration_scale(cal, (1280, 960)) == 1.0
    assert calibration_scale(cal, (640, 480)) == 0.5          # the same view, half the pixels
    assert calibration_scale(cal, (2028, 1520)) == pytest.approx(2028 / 1280)
    assert calibration_scale(cal, (1920, 1080)) is None       # 16:9: another crop of the sensor
    for unsized in ({"tray": [0, 0, 9, 9]}, {"frame_size": "640x480"}, {"frame_size": [0, 0]}):
        assert calibration_scale(unsized, (640, 480)) == 1.0  # written by hand, or before sizes were kept


def _calibrated_on_big_stills():
    """Calibrated from 1280 x 960 stills (as docs/install.md takes them with rpicam-still) of a
    tray whose dice are 100 px there: the camera may well send 640 x 480 frames of the same view."""
    style = TrayStyle.preset("green", border_px=50)
    empty, throws = frames(style, 100, n_empty=2, n_throw=2, size=(1280, 960))
    return style, calibrate(empty, [t.image for t in throws]).to_dict()


def test_a_calibration_from_bigger_stills_of_the_same_view_is_scaled_to_the_frames():
    """Before, the box and the die size were taken as 640 x 480 pixels: a die twice its size was
    looked for, dice were lost and the tray was called moved (measured on these 3 trays: 14 of 18
    dice read, `camera_moved` on all 3). Now all read, as uncalibrated, with no problem."""
    from vision.reader import read

    style, cal = _calibrated_on_big_stills()
    for seed in (100, 101, 103):
        big = render_tray([1, 2, 3, 4, 5, 6], seed=seed, style=style, die_px=100, size=(1280, 960)).image
        frame = cv2.resize(big, (640, 480), interpolation=cv2.INTER_AREA)
        r = read(frame, cal)
        assert sorted(d.value for d in r.dice) == [1, 2, 3, 4, 5, 6], seed
        assert r.problem_codes() == set(), seed


def test_a_calibration_of_another_shape_is_not_used_and_the_staff_are_told():
    """A camera set to 16:9 frames after a 4:3 calibration sees another part of the sensor: no box
    of the calibration can be placed, so the frame is read as uncalibrated, and the problem says
    what to do (the table shows it to the staff and plays on)."""
    from vision.reader import read
    from vision.types import CALIBRATION_SIZE

    style, cal = _calibrated_on_big_stills()
    big = render_tray([2, 3, 5], seed=7, style=style, die_px=100, size=(1280, 960)).image
    wide = cv2.resize(big, (640, 480), interpolation=cv2.INTER_AREA)[60:420]     # 640 x 360
    r = read(wide, cal)
    told = [p for p in r.problems if p.code == CALIBRATION_SIZE]
    assert len(told) == 1 and "1280x960" in told[0].message and "640x360" in told[0].message
    assert "calibrate again" in told[0].message
    plain = read(wide)
    assert [(d.value, d.box) for d in r.dice] == [(d.value, d.box) for d in plain.dice]
    assert r.problem_codes() - {CALIBRATION_SIZE} == plain.problem_codes()
