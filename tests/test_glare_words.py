"""What the table says of the dice it outlines to check, against what the reader knows of each:
its confidence and whether it lay in a lamp's glare. Since the reader's second look
(vision/glare_look.py) most dice in the glare are read surely and taken after their moment, but
the prompt said of each "I am not sure of it" and tagged it "3?", even read 1.0 sure: untrue,
and shown at many throws, so players learnt to ignore it. Each case is the reading itself."""
from __future__ import annotations

from dataclasses import replace

from controller.table import CONFIRM, CORRECT, DECIDE
from display.render import face_tag
from table_helpers import Press
from test_table_flow_guards import die, make
from test_tray_problems import SIZE, STYLE, show, table, tray
from vision.synthetic import render_tray
from vision.types import GLARE, Problem, Reading


def glare_tray(tmp_path, seed: int):
    """The headless table (real reader) shown the throw 6 6 2 3 5 with a lamp's spot on it."""
    p = table(tmp_path)
    shot = tray(seed, glare=True)
    show(p, render_tray([], seed=seed, size=SIZE, style=STYLE).image, 12)
    show(p, shot)
    return p, shot


def flow_with(confidences, glared=()):
    """A flow shown 6 5 2 3 6 read at `confidences`, the dice at `glared` in the lamp's glare."""
    flow, clock = make(check_seconds=4.0)
    dice = tuple(replace(die(i, v, c), problems=(GLARE,) if i in glared else ())
                 for i, (v, c) in enumerate(zip([6, 5, 2, 3, 6], confidences)))
    flow.on_reading(Reading(dice, tuple(Problem(GLARE, "glare on a die face", dice[i].box) for i in glared)))
    return flow, clock


def test_a_die_in_the_glare_read_surely_is_not_said_to_be_unsure(tmp_path):
    """Rendered tray 5: the 3 under the lamp is read 1.0 sure by the real reader (the second look
    confirms it). It is outlined and named for a check, as the glare asks, and taken after its
    moment; the prompt said "Check die 4 (outlined): I am not sure of it." and its tag "3?"."""
    p, shot = glare_tray(tmp_path, 5)
    flow = p.flow
    assert flow.phase == CONFIRM and flow.pending_check == [3] and not flow.waits_for_ok
    assert flow.last_reading.dice[3].confidence >= 0.99 and GLARE in flow.last_reading.dice[3].problems
    view = flow.view(shot)
    assert flow.message.text == "Die 4 is in the lamp's glare: check its value."
    assert view.prompt.text.startswith("Is this right? Check die 4 (outlined). OK accepts")
    assert "not sure" not in view.prompt.text
    assert [face_tag(m) for m in view.tray.dice] == ["6", "2", "5", "3", "6"]
    assert view.tray.dice[3].doubtful and view.tray.dice[3].position == 4     # still outlined and numbered
    assert view.prompt.hint == "Accepted automatically in a moment"


def test_a_die_in_the_glare_read_unsurely_is_said_to_be_unsure_and_waits_for_ok(tmp_path):
    """Rendered tray 2: the 6 under the lamp read 3 at 0.93: not sure, tagged "3?", and taken
    only with OK. (These words were true before; they stay.)"""
    p, shot = glare_tray(tmp_path, 2)
    flow = p.flow
    view = flow.view(shot)
    assert flow.waits_for_ok and flow.pending_check == [3]
    assert "Check die 4 (outlined): I am not sure of it." in view.prompt.text
    assert face_tag(view.tray.dice[3]) == "3?"
    assert view.prompt.hint == "Taken only with OK: the glare may hide pips"


def test_a_die_read_unsurely_without_glare_is_said_to_be_unsure():
    """A 2 read 0.8 sure, no glare: named as unsure, tagged "2?", no word of a lamp."""
    flow, _ = flow_with([0.99, 0.99, 0.8, 0.99, 0.99])
    view = flow.view()
    assert flow.message is None and "Check die 3 (outlined): I am not sure of it." in view.prompt.text
    assert [face_tag(m) for m in view.tray.dice] == ["6", "5", "2?", "3", "6"]


def test_an_unsure_die_and_a_sure_die_in_the_glare_are_told_apart():
    """Die 3 read 0.8 sure, die 4 read 0.998 sure in the glare: both outlined, but only die 3 is
    said to be unsure and tagged "?" (the prompt said "I am not sure of them")."""
    flow, clock = flow_with([0.99, 0.99, 0.8, 0.998, 0.99], glared=(3,))
    view = flow.view()
    assert flow.pending_check == [2, 3] and not flow.waits_for_ok
    assert flow.message.text == "Die 4 is in the lamp's glare: check its value."
    assert "Check dice 3 and 4 (outlined): I am not sure of die 3." in view.prompt.text
    assert [face_tag(m) for m in view.tray.dice] == ["6", "5", "2?", "3", "6"]
    clock.t += 4.1
    flow.tick()
    assert flow.phase == DECIDE and flow.log.inputs[-1]["values"] == [6, 5, 2, 3, 6]


def test_two_dice_in_the_glare_read_surely_and_one_unsurely_in_it():
    """Dice 1 and 5 in the glare read 0.995, die 2 in it read 0.95 (under GLARE_SURE): the
    reading waits for OK, and only die 2 is said to be unsure."""
    flow, _ = flow_with([0.995, 0.95, 0.99, 0.99, 0.995], glared=(0, 1, 4))
    view = flow.view()
    assert flow.waits_for_ok and flow.pending_check == [0, 1, 4]
    assert "Check dice 1, 2 and 5 (outlined): I am not sure of die 2." in view.prompt.text
    assert [face_tag(m) for m in view.tray.dice] == ["6", "5?", "2", "3", "6"]


def test_a_sure_die_in_the_glare_stays_sure_through_a_correction_left():
    """Opened to correct and left with BACK, the reading shown again says the same of its dice;
    while correcting, the sure die in the glare is not tagged "?" either."""
    flow, _ = flow_with([0.99, 0.99, 0.8, 0.998, 0.99], glared=(3,))
    flow.on_button(Press("OK", "hold"))
    assert flow.phase == CORRECT
    assert [face_tag(m) for m in flow.view().tray.dice] == ["6", "5", "2?", "3", "6"]
    flow.on_button(Press("BACK"))
    assert flow.phase == CONFIRM
    assert "Check dice 3 and 4 (outlined): I am not sure of die 3." in flow.view().prompt.text
    assert [face_tag(m) for m in flow.view().tray.dice] == ["6", "5", "2?", "3", "6"]


def test_a_die_too_unsure_to_read_in_the_glare_is_said_to_be_in_the_glare():
    """Die 4 in the lamp's glare read 3 at 0.4 (under MIN_CONFIDENCE), or not at all: the banner
    said "I cannot read die 4 for sure", no word of the glare that the table knew was why. The
    throw is refused as before, the game untouched; without glare the words are as they were."""
    from controller.table import WAIT_DICE
    from vision.types import UNSURE_VALUE

    for value, codes in ((3, (GLARE,)), (None, (GLARE, UNSURE_VALUE)), (3, ())):
        flow, _ = make(check_seconds=4.0)
        dice = [die(i, v, 0.99) for i, v in enumerate([6, 5, 2, 3, 6])]
        dice[3] = replace(die(3, value, 0.4), problems=codes)
        problems = tuple(Problem(c, c, dice[3].box) for c in codes)
        flow.on_reading(Reading(tuple(dice), problems))
        assert flow.phase == WAIT_DICE and flow.log.inputs == []
        why = "in the lamp's glare" if GLARE in codes else "for sure"
        assert flow.message.text == f"I cannot read die 4 {why}: throw again, or hold OK to enter the values."
        assert flow.view().tray.dice[3].doubtful and flow.view().tray.dice[3].position == 4


def test_the_banner_of_a_die_waiting_for_ok_says_what_to_do_whole_at_320x240(tmp_path, monkeypatch):
    """Rendered tray 2 at 320x240: the banner "Die 4 is in the lamp's glare and may show more pips
    than I see: check, then OK (hold OK to correct)." was drawn as far as "than I see:", what to
    do cut off (the prompt under it cut to "Is this right? Ch..."). The banner now says only the
    die and what to do; why (the glare may hide pips) is the prompt's hint."""
    import pygame

    from display import render as render_module
    from test_small_screen import texts_drawn

    p, shot = glare_tray(tmp_path, 2)
    assert p.flow.waits_for_ok
    pygame.font.init()
    drawn = texts_drawn(monkeypatch, render_module)
    render_module.render(pygame.Surface((320, 240)), p.flow.view(shot))
    words = " ".join(s for s, _ in drawn)
    assert "Die 4" in words and "then OK" in words
