"""What the reader's problems become at the table, as the players meet them: a game at the
headless table (real settle tracker, reader, flow and screen code) fed rendered trays, one
problem at a time. Each test says what the players see, that the game is left as it was, and
that the table carries on by itself once the problem is gone."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.table import CONFIRM, CORRECT, DECIDE, WAIT_DICE, TableFlow
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


def banner(p: FixturePlayer) -> str:
    view = p.flow.view(p.runner.last_image, p.runner.camera_note(), p.runner.tray_advice())
    return view.message.text if view.message else ""


def caption(p: FixturePlayer) -> str:
    return p.flow.view(p.runner.last_image, p.runner.camera_note()).tray.caption


# ----------------------------------------------------------------------------- too dark
def test_a_lamp_gone_dark_is_said_not_called_an_empty_tray(tmp_path):
    """Dice thrown while the lamp over the tray is off: the screen said "Tray empty" over them.
    It says it is too dark, and what to do; once the light is back the throw is read."""
    p = table(tmp_path)
    show(p, render_tray([], seed=1, size=SIZE, style=STYLE).image, 12)   # the tray empty
    show(p, with_hand(), 5)                                             # the throw, the lamp going off
    show(p, dark())
    assert caption(p) == "Too dark to see the dice"
    assert "is the light over the tray on?" in banner(p) and "hold OK" in banner(p)
    assert p.flow.phase == WAIT_DICE and p.flow.log.inputs == []
    show(p, tray())                                                  # the lamp is on again
    assert p.flow.phase == CONFIRM and sorted(p.flow.pending) == sorted(THROW)
    assert "dark" not in banner(p)


def test_a_tray_that_stays_too_dark_is_played_by_entering_the_values(tmp_path):
    """The banner's last resort, "hold OK to enter the values", is there while it is dark."""
    p = table(tmp_path)
    show(p, render_tray([], seed=1, size=SIZE, style=STYLE).image, 12)
    show(p, with_hand(), 5)
    show(p, dark())
    p.press("OK", "hold")
    assert p.flow.phase == CORRECT and p.flow.pending == [1, 1, 1, 1, 1]    # (nothing read: all from 1)
    for n in range(1, 6):
        p.press(f"HOLD{n}")
        p.press("DOWN")                      # (1 turns to 6)
    p.press("OK", "hold")
    assert p.flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 6, 6, 6, 6]}]


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


# ----------------------------------------------------------------------- a hand in the tray
def test_a_hand_in_the_tray_says_take_it_out_and_the_throw_is_read_once_it_is_out(tmp_path):
    """A hand resting in the tray among the thrown dice: never read (it hides a die), the banner
    says to take it out; once it is out, the same dice are the throw, with nothing pressed."""
    p = table(tmp_path)
    show(p, render_tray([], seed=1, size=SIZE, style=STYLE).image, 12)
    show(p, with_hand())
    assert caption(p) == "Something that is not a die is in the tray"
    assert "take it out" in banner(p)
    assert p.flow.phase == WAIT_DICE and p.flow.log.inputs == []
    show(p, tray())
    assert p.flow.phase == CONFIRM and sorted(p.flow.pending) == sorted(THROW)
    assert "take it out" not in banner(p)


# ----------------------------------------------------------------------- a die under glare
def test_a_die_in_a_lamps_glare_is_checked_not_taken_on_trust(tmp_path):
    """A 6 half washed out by the lamp's glare was read 3 (0.93 sure, flagged glare) and taken
    with the others, plain, in a moment: Ann's 6 6 2 3 5 went in as 6 5 2 3 3. The die is now
    outlined for the players to check, the banner says why, and a long OK corrects it."""
    p = table(tmp_path)
    shot = tray(2, glare=True)
    show(p, render_tray([], seed=2, size=SIZE, style=STYLE).image, 12)
    show(p, shot)
    flow = p.flow
    assert flow.phase == CONFIRM and flow.pending == [6, 5, 2, 3, 3]     # (the reader's misread)
    assert flow.pending_check == [3]
    assert flow.message.text.startswith("Die 4 is in the lamp's glare")
    marks = p.flow.view(shot).tray.dice
    assert marks[3].doubtful and marks[3].position == 4
    for press in ("hold OK", "press HOLD4", "press UP", "press UP", "press UP", "hold OK"):
        kind, name = press.split()
        p.press(name, kind)
    assert flow.log.inputs == [{"type": "dice", "player": 0, "values": [6, 5, 2, 6, 3]}]


@pytest.mark.parametrize("values, seed, said", [
    ([2, 5, 5, 1, 3], 4, "I see 4 dice; the game needs 5. The lamp's glare on the tray may hide a die: throw again"),
    ([5, 4, 4, 4, 6], 3, "I see 7 dice; the game needs 5. The lamp's glare on the tray may look like a die: throw "
                         "again"),
], ids=["a die hidden", "the glare taken for dice"])
def test_a_count_thrown_off_by_a_lamps_glare_says_so(tmp_path, values, seed, said):
    """A lamp's spot on the tray hides a die, or is taken for two: "I see 4 dice; the game needs
    5. Fix the tray or throw again" (fix what?). It names the glare; the game is untouched."""
    p = table(tmp_path)
    show(p, render_tray([], seed=seed, size=SIZE, style=STYLE).image, 12)
    show(p, render_tray(values, seed=seed, size=SIZE, style=STYLE, glare=True).image)
    assert p.flow.phase == WAIT_DICE and p.flow.log.inputs == []
    assert p.flow.message.text == said + ", or hold OK to enter the values."


# ---------------------------------------------------------------------- a die not read for sure
@pytest.mark.parametrize("image, said", [
    (lambda: tray(1, motion_blur=14), "I cannot read die 4 for sure: throw again, or hold OK to enter the values."),
    (lambda: partly_out(), "Die 5 is partly out of the camera's view: throw again, or hold OK to enter the values."),
], ids=["blurred die", "die partly out of view"])
def test_a_die_that_stops_the_throw_is_named_by_its_number_with_what_to_do(tmp_path, image, said):
    """The banner said the reader's words, "Die found but value unsure. Throw again, ..." (which
    die?) or "Die partly out of view. ..."; it names the die, numbered left to right as the
    correction numbers them, and carries that number on the tray. The game is untouched, and a
    throw that reads is taken."""
    p = table(tmp_path)
    show(p, render_tray([], seed=1, size=SIZE, style=STYLE).image, 12)
    show(p, image())
    assert p.flow.phase == WAIT_DICE and p.flow.log.inputs == []
    assert p.flow.message.text == said
    # the die named carries its number on the tray (no other die does): players need not count
    n = int(said.split("die ", 1)[1][0]) if "read die" in said else int(said.split()[1])
    marks = p.flow.view(p.runner.last_image).tray.dice
    assert [m.position for m in marks] == [n if i == n - 1 else 0 for i in range(len(marks))]
    assert marks[n - 1].doubtful
    show(p, render_tray([], seed=1, size=SIZE, style=STYLE).image, 12)
    show(p, tray(3))
    p.settle_confirmation()
    assert p.flow.phase == DECIDE and sorted(p.flow.log.inputs[0]["values"]) == sorted(THROW)


def partly_out() -> np.ndarray:
    """THROW with its 5 pushed against the camera's right edge, a sliver of it cut off."""
    shot = render_tray(THROW, seed=1, size=SIZE, style=STYLE)
    dice = list(shot.truth)
    dice[4] = dataclasses.replace(dice[4], centre=(SIZE[0] - 8, dice[4].centre[1]))
    return render_scene(dice, seed=1, size=SIZE, style=STYLE).image


# ------------------------------------------------------------- a hand in the tray while a reading is shown
def thrown_again(seed: int = 1) -> np.ndarray:
    """THROW with its 2 thrown again by hand (a cocked die, as players do): a 4, a little away."""
    shot = render_tray(THROW, seed=seed, size=SIZE, style=STYLE)
    dice = list(shot.truth)
    k = next(i for i, d in enumerate(dice) if d.value == 2)
    x, y = dice[k].centre
    dice[k] = dataclasses.replace(dice[k], value=4, centre=(x + 12 if x < SIZE[0] / 2 else x - 12, y), angle_deg=20.0)
    return render_scene(dice, seed=seed, size=SIZE, style=STYLE).image


def test_a_die_thrown_again_while_the_reading_is_shown_is_the_throw(tmp_path):
    """Ann sees a die cocked and reaches in to throw it again while the reading is shown. The
    reading under her hand went in after its moment (1.5 s), and the die thrown again was
    refused: "Ann: decide first (OK on the menu), then throw". The moment now waits for the
    tray to be still again, and the new tray is the reading."""
    p = table(tmp_path)
    show(p, render_tray([], seed=1, size=SIZE, style=STYLE).image, 12)
    show(p, tray())
    assert p.flow.phase == CONFIRM and sorted(p.flow.pending) == sorted(THROW)
    show(p, with_hand(), 30)                           # 3 s with her hand in the tray
    assert p.flow.phase == CONFIRM and p.flow.log.inputs == []
    assert "take it out" in banner(p)                  # (why the reading waits)
    view = p.flow.view(p.runner.last_image, p.runner.camera_note(), p.runner.tray_advice())
    assert view.prompt.hint == "Accepted once the tray is still again"
    show(p, thrown_again())
    p.settle_confirmation()
    assert len(p.flow.log.inputs) == 1 and sorted(p.flow.log.inputs[0]["values"]) == [3, 4, 5, 6, 6]


def test_a_hand_passing_over_a_reading_shown_leaves_it_to_be_accepted(tmp_path):
    """A hand over the tray and out again, the dice as they were: the reading is accepted a
    moment after the tray is still again, with nothing pressed."""
    p = table(tmp_path)
    show(p, render_tray([], seed=1, size=SIZE, style=STYLE).image, 12)
    show(p, tray())
    show(p, with_hand(), 30)
    assert p.flow.phase == CONFIRM
    show(p, tray(), 40)                                 # 4 s: still, then the moment
    assert p.flow.phase == DECIDE and sorted(p.flow.log.inputs[0]["values"]) == sorted(THROW)


# ------------------------------------------------------------------ the reading's prompt, whole
def test_the_prompt_of_a_reading_with_every_die_to_check_is_drawn_whole_at_800x480(monkeypatch):
    """Every die outlined (a tray in too bright a light: all in the glare): the prompt "Is this
    right? Check dice 1, 2, 3, 4 and 5 (outlined): I am not sure of them. OK accepts · hold OK to
    correct · BACK to throw again" was cut after "BACK to" with no mark, in a panel with room
    left: a question had three lines at most, also with no menu under it."""
    import pygame

    from controller.rules import new_game
    from controller.tablelog import TableLog
    from display import render as render_module
    from display.view import MessageView
    from table_helpers import Clock
    from test_small_screen import texts_drawn
    from vision.types import Die, Reading

    pygame.font.init()
    flow = TableFlow(new_game("thirteen", ["Ann", "Bob"], None), TableLog("thirteen", ["Ann", "Bob"], {}),
                     clock=Clock(), screen_size=(800, 480))
    dice = tuple(Die(v, (20 + 70 * i, 40, 70 + 70 * i, 90), (45 + 70 * i, 65), 0.95, ("glare",))
                 for i, v in enumerate(THROW))
    flow.on_reading(Reading(dice))
    view = flow.view(None)
    assert flow.phase == CONFIRM and view.prompt.text.endswith("BACK to throw again")
    surface = pygame.Surface((800, 480))
    s = render_module.theme.scale(surface)
    lower = render_module._columns_for(surface, view)[1]
    used = render_module._banner_layout(view.message or MessageView(""), lower.width, s)[2]
    lower = pygame.Rect(lower.x, lower.y + used, lower.width, lower.height - used)
    seen = texts_drawn(monkeypatch, render_module)
    render_module._prompt(surface, view.prompt, lower, s)
    monkeypatch.undo()
    assert " ".join(line for line, _ in seen).startswith(view.prompt.text)


def test_dice_seen_too_many_are_not_numbered_on_the_tray(tmp_path):
    """The glare's spot taken for two dice (7 of 5): the message names no die, and the
    correction keeps the surest five, numbered anew; numbers on the tray would not be theirs."""
    p = table(tmp_path)
    show(p, render_tray([], seed=3, size=SIZE, style=STYLE).image, 12)
    show(p, render_tray([5, 4, 4, 4, 6], seed=3, size=SIZE, style=STYLE, glare=True).image)
    marks = p.flow.view(p.runner.last_image).tray.dice
    assert len(marks) == 7 and any(m.doubtful for m in marks)
    assert all(m.position == 0 for m in marks)


def test_once_the_tray_changes_what_was_said_of_the_tray_before_and_its_marks_go(tmp_path):
    """A die cut by the view's edge: the die is named and marked "5". Then a hand comes in, or
    the camera's picture blurs: "Die 5 is partly out of the camera's view" stayed in the banner
    and the old reading's outlines ("?", "5") over the hand and bare felt, the caption saying
    otherwise. The banner now says what is in the tray now, and no outline stands over it."""
    p = table(tmp_path)
    show(p, render_tray([], seed=1, size=SIZE, style=STYLE).image, 12)
    show(p, partly_out())
    assert "partly out" in banner(p) and any(m.position == 5 for m in p.flow.view(p.runner.last_image).tray.dice)
    show(p, with_hand(), 20)
    view = p.flow.view(p.runner.last_image, p.runner.camera_note(), p.runner.tray_advice())
    assert view.tray.caption == "Something that is not a die is in the tray" and view.tray.dice == ()
    assert "take it out" in view.message.text
    assert p.flow.phase == WAIT_DICE and p.flow.log.inputs == []
