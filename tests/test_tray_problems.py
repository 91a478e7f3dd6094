"""What the reader's problems become at the table, as the players meet them: a game at the
headless table (real settle tracker, reader, flow and screen code) fed rendered trays, one
problem at a time. Each test says what the players see, that the game is left as it was, and
that the table carries on by itself once the problem is gone."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np

from controller.table import WAIT_DICE
from controller.table_cli import FixturePlayer
from hardware.button_scripted import parse_script
from vision.synthetic import HandSpec, TrayStyle, render_scene, render_tray

STYLE = TrayStyle(die_px=46.0)
SIZE = (400, 300)
THROW = [6, 6, 2, 3, 5]


def tray(seed: int = 1, **kw) -> np.ndarray:
    """The throw THROW, rendered as the table's fixtures are (the same seed: the same places)."""
    style = kw.pop("style", STYLE)
    return render_tray(THROW, seed=seed, size=SIZE, style=style, **kw).image


def dark(seed: int = 1) -> np.ndarray:
    """The same dice with the lamp over the tray off: 8% of its light (not black: the camera's
    black-picture notice does not fire), too dark for the reader to find a die."""
    return tray(seed, style=dataclasses.replace(STYLE, brightness=0.08))


def with_hand(seed: int = 1) -> np.ndarray:
    """The same dice with a hand reaching in over them."""
    shot = render_tray(THROW, seed=seed, size=SIZE, style=STYLE)
    return render_scene(shot.truth, seed=seed, size=SIZE, style=STYLE,
                        hand=HandSpec(edge="left", pos=0.6, reach=160.0)).image


def table(tmp_path: Path, script: str = "game thirteen Ann,Bob\n") -> FixturePlayer:
    """A headless table with `script` played; frames are fed with `show`."""
    (tmp_path / "good.png").write_bytes(cv2.imencode(".png", tray())[1].tobytes())
    p = FixturePlayer(tmp_path, parse_script(script.splitlines(), "test"), None, None)
    p.run()
    return p


def show(p: FixturePlayer, image: np.ndarray, frames: int = 20) -> None:
    """The camera sees `image` for `frames` frames (a tenth of a second each), nothing pressed."""
    for _ in range(frames):
        p.t += 0.1
        p.clock.advance(0.1)
        p.runner.feed_frame(image, p.t)
        p.flow.tick()


def caption(p: FixturePlayer) -> str:
    return p.flow.view(p.runner.last_image, p.runner.camera_note()).tray.caption


# ----------------------------------------------------------------------------- too dark
def test_dice_lying_through_a_dark_spell_are_not_the_next_throw(tmp_path):
    """Ann keeps 6 6 and is to throw the other three again. A hand passes over the tray while
    the lamp is off, and the light comes back on the dice as they lay: nobody threw. The dark
    frames were taken for an empty tray, so the table forgot the dice played, and took the 2 3 5
    lying there as Ann's throw."""
    p = table(tmp_path, "game thirteen Ann,Bob\nthrow good.png\nwait\nkeep 6 6\n")
    assert p.flow.log.inputs[-1] == {"type": "reroll", "player": 0, "keep": [6, 6]}
    before = list(p.flow.log.inputs)
    show(p, with_hand(), 5)
    show(p, dark())
    assert caption(p) != "Tray empty"
    show(p, tray())
    p.settle_confirmation()
    assert p.flow.log.inputs == before and p.flow.phase == WAIT_DICE

