"""The screen the table flow hands to display: a `TableView` built from the flow's state.

It only reads the flow (controller/table.py): the sheet with the option under the cursor
previewed, the tray with its marks and caption, the prompt with its hints, the banner's message,
the final standings. Nothing here changes the game or the flow's phase, so what the screen shows
can be reworded without touching how the table takes readings and buttons; and the flow, at
~1,400 lines, no longer also has to say how each phase looks.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from display.recorded import dice_picture
from display.view import DieMark, MessageView, OptionView, PromptView, Standing, TableView, TrayView

from .correction import BLANK, leave_words
from .decision_menu import MenuEntry
from .die_faces import face_name, sorted_faces
from .rules import Decide, Throw
from .short_panel import reworded
from .table_phases import CONFIRM, CORRECT, DECIDE, MIN_CONFIDENCE, OVER, WAIT_DICE
from .tray_owner import tray_head
from .tray_words import check_words, named_trouble

if TYPE_CHECKING:
    from .table import TableFlow

CONFIRM_KEYS = "OK accepts · hold OK to correct · BACK to throw again"   # (a reading's buttons)


def table_view(flow: TableFlow, image=None, camera_note: str = "", tray_advice: MessageView | None = None,
               things: tuple[tuple[int, int, int, int], ...] = ()) -> TableView:
    """What the screen shows now of `flow` (TableFlow.view says what the arguments are)."""
    state = flow.state
    sheet, sheet_json = flow._sheet(_focus(flow))
    faces = flow._faces
    caption = _caption(flow, faces)
    if camera_note and flow.phase == WAIT_DICE:
        caption = camera_note
    # (a note in the caption says the tray is not the last reading's: moving, empty, or not to
    # be read; its marks stood over a hand, a new throw or bare felt, "5" on a die gone)
    marks = () if camera_note and flow.phase == WAIT_DICE else tuple(_marks(flow, faces))
    tray = (_recorded_tray(flow, faces) if _decided_off_tray(flow)
            else TrayView(image, marks, caption, tuple(things) if image is not None else ()))
    if flow.phase == OVER:
        result = state.result()
        standings = []
        place = 1
        for group in result.ranking:
            for i in group:
                # (an abandoned game has no winner: its scores are only as far as it went)
                standings.append(Standing(state.players[i], result.scores[i], place,
                                          i in result.winners and not flow.abandoned))
            place += len(group)
        title = "Game abandoned" if flow.abandoned else f"{state.title}: final standings"
        if flow.abandoned:
            sheet_json = _without_previews(sheet_json)
        status = f"{state.title} abandoned: the scores so far" if flow.abandoned else sheet.status
        hint = " · ".join(h for h in (flow.over_hint, _late_fix_hint(flow)) if h)
        prompt = _named(flow, PromptView("", "", hint=hint)) if hint else None
        message = _message_now(flow)
        if message is None and result.tie_break and not flow.abandoned:
            # equal scores placed apart (or played off): the standings alone do not say why
            message = flow.banner.in_pages(MessageView(f"Tie-break: {result.tie_break}", "info"))
        return TableView("final", title, status, sheet_json, tray, prompt, message,
                         standings=tuple(standings), notes=sheet.notes, help=flow._help())
    advice = tray_advice if flow.phase in (WAIT_DICE, CONFIRM) else None    # (CONFIRM: held by it)
    prompt = _prompt(flow, faces)
    if flow.phase == CONFIRM and advice is not None and not flow.waits_for_ok:
        # (a hand resting in the tray holds the reading's moment: "in a moment" was not so)
        prompt = replace(prompt, hint="Accepted once the tray is still again")
    return TableView("play", state.title, sheet.status, sheet_json, tray, _named(flow, prompt),
                     _message_now(flow, advice), notes=sheet.notes, help=flow._help())


def _message_now(flow: TableFlow, tray_advice: MessageView | None = None) -> MessageView | None:
    """The banner's message: what was just said, else a device down, else what keeps the tray from
    being read, else the lasting notices (an unsaved game, the config's mistakes, a weak reader)."""
    message = (flow.message or flow.device_notice or tray_advice or flow.unsaved or flow.config_notice
               or flow.reader_notice)
    return flow.banner.in_pages(message) if message is not None and not message.pages else message


def _focus(flow: TableFlow) -> str | None:
    """The key of the option under the menu's cursor, if the menu is shown and the cursor is
    on an option: its sheet previews what that option writes (School's "School 2, bank 1"
    writes 6 where the best of the cell, "School 2", shows 8)."""
    entry = _under_cursor(flow) if flow.phase == DECIDE else None
    return entry.key if entry is not None and entry.action == "option" else None


def _under_cursor(flow: TableFlow) -> MenuEntry | None:
    """The menu's entry under the cursor (None: the menu is not shown, or it is empty)."""
    entries = flow.menu() if flow.choices_shown else []
    return entries[flow.cursor] if 0 <= flow.cursor < len(entries) else None


def _marks(flow: TableFlow, faces) -> list[DieMark]:
    if flow.phase in (CONFIRM, CORRECT) and flow.pending is not None:
        # numbered where the prompt names dice by number: the ones to check, and every die
        # while correcting (HOLD1..5 pick the die to correct)
        return [DieMark(tuple(b), face_name(v, faces), selected=(flow.phase == CORRECT and i == flow.correct_index),
                        doubtful=i in flow.pending_check, sure=i in flow.pending_sure,
                        position=i + 1 if flow.phase == CORRECT or i in flow.pending_check else 0)
                for i, (v, b) in enumerate(zip(flow.pending, flow.pending_boxes))]
    if flow.phase == DECIDE and flow.tray_boxes:
        return _decision_marks(flow, flow.tray_boxes, faces)
    if flow.last_reading is not None:
        exp = flow.expect
        # held dice are marked where the tray is the one decided on; after other players'
        # throws (betting Classic) the tray holds their dice, not the held ones
        held = Counter(exp.held) if isinstance(exp, Throw) and flow.tray_boxes else Counter()
        # (numbered while a throw is awaited, the count right: the message names such a die by its
        # number; with a die too many or too few it names none, and the correction numbers anew)
        numbered = (flow.phase == WAIT_DICE and isinstance(exp, Throw)
                    and len(flow.last_reading.dice) == len(exp.held) + exp.count)
        marks = []
        for i, d in enumerate(flow.last_reading.dice):
            is_held = d.value is not None and held[d.value] > 0
            if is_held:
                held[d.value] -= 1
            doubtful = d.value is None or d.confidence < MIN_CONFIDENCE or named_trouble(d)
            marks.append(DieMark(tuple(d.box), face_name(d.value, faces) if d.value else "?", held=is_held,
                                 doubtful=doubtful, position=i + 1 if doubtful and numbered else 0))
        return marks
    return []


def _decision_marks(flow: TableFlow, boxes: Sequence, faces) -> list[DieMark]:
    """The dice decided on, at `boxes`: held, under the cursor, numbered for HOLD1..5."""
    cur = _under_cursor(flow)
    return [DieMark(tuple(b), face_name(v, faces), held=bool(flow.holds and flow.holds[i]),
                    selected=bool(cur and cur.action == "die" and cur.index == i),
                    position=i + 1 if flow.holds and flow.choices_shown else 0)
            for i, (v, b) in enumerate(zip(flow.tray_values, boxes))]


def _decided_off_tray(flow: TableFlow) -> bool:
    """Whether the dice decided on are not the tray's: in betting Classic everyone throws
    before the bets, then each decides on their own first throw while the tray holds the
    last thrower's dice."""
    return flow.phase == DECIDE and bool(flow.tray_values) and not flow.tray_boxes


def _recorded_tray(flow: TableFlow, faces) -> TrayView:
    """The dice decided on, drawn in place of the camera image, named as the player's: the
    live tray there showed another player's dice under this player's name and menu (and,
    in a game resumed after a power cut, unmarked dice until they are found on it)."""
    image, boxes = dice_picture(tuple(flow.tray_values), flow._frame_size)
    who = flow.state.player_name(getattr(flow.expect, "player", None))
    caption = f"{who}'s throw, as recorded: {' '.join(face_name(v, faces) for v in flow.tray_values)}"
    return TrayView(image, tuple(_decision_marks(flow, boxes, faces)), caption)


def _caption(flow: TableFlow, faces) -> str:
    if flow.phase in (CONFIRM, CORRECT) and flow.pending is not None:
        # (while correcting, the values are the players', stand-ins for unread dice included)
        word = "Read: " if flow.phase == CONFIRM else "Setting: "
        return word + " ".join(face_name(v, faces) for v in flow.pending)
    exp = flow.expect
    if flow.phase == WAIT_DICE and isinstance(exp, Throw):
        # (the dice of the throw before, maybe another player's, are not this throw's: under
        # "Bob: throw all 5 dice" and beside Bob's dice refused, "Dice: <Ann's>" misled)
        return "Held: " + sorted_faces(exp.held, exp) if exp.held else ""
    if flow.tray_values:
        return _tray_head(flow) + " ".join(face_name(v, faces) for v in flow.tray_values)
    return ""


def _tray_head(flow: TableFlow) -> str:
    """ "Dice: ", or "Cy's throw: " over another player's whole throw (controller.tray_owner)."""
    return tray_head(flow.expect, flow.phase == DECIDE, bool(flow.tray_boxes), flow.log.inputs,
                     flow.tray_values, flow.state.player_name)


def _named(flow: TableFlow, prompt: PromptView) -> PromptView:
    """The prompt with its buttons named as this panel has them."""
    return replace(prompt, text=reworded(prompt.text, flow.words), hint=reworded(prompt.hint, flow.words),
                   short=reworded(prompt.short, flow.words))


def _prompt(flow: TableFlow, faces) -> PromptView:
    exp = flow.expect
    who = flow.state.player_name(getattr(exp, "player", None))
    if flow.phase == CONFIRM:
        check = check_words(flow.pending_check, flow.pending_sure)
        # (short: at 320x240 under a glare banner the question was cut to "Is this right? Ch...";
        # the dice to check are outlined and tagged on the tray, and the banner names them)
        return PromptView(who, f"Is this right? {check}{CONFIRM_KEYS}",
                          hint="Taken only with OK: the glare may hide pips" if flow.waits_for_ok
                          else "Accepted automatically in a moment",
                          short=f"Is this right? {CONFIRM_KEYS}")
    if flow.phase == CORRECT:
        # (OK on the last die ends the correction, and a long OK on any: the hint said only
        # BACK, and players fixing die 1 pressed OK through every die to get out)
        last = flow.pending is not None and flow.correct_index >= len(flow.pending) - 1
        origin = flow._opened.origin if flow._opened else BLANK
        # ("Enter" where nothing was read: the banner that said so makes way for the prompt)
        verb = "Enter" if origin == BLANK and flow._amending is None else "Correct"
        return PromptView(who, f"{verb} die {flow.correct_index + 1}: UP/DOWN change it, "
                               + ("OK: done" if last else "OK next"),
                          hint=leave_words(origin, late=flow._amending is not None))
    if isinstance(exp, Throw):
        text = exp.prompt or f"{who}: throw {exp.count} dice"
        if exp.held and not flow.tray_boxes:
            text += f", with your held {sorted_faces(exp.held, exp)} back in the tray"
        elif exp.held:     # (into the prompt's own brackets: "(throw 2 of 3, 2 held stay)")
            note = f"{len(exp.held)} held stay"
            text = text[:-1] + f", {note})" if text.endswith(")") else f"{text} ({note})"
        key = ""
        if exp.faces:
            # the camera reads pips: a game of other faces is played with ordinary dice, and
            # the players need the key to read their own throw
            key = ". Pips count as " + " ".join(f"{i}={f}" for i, f in enumerate(exp.faces, 1))
        # a long OK corrects the dice just accepted while it can, else enters the throw by hand
        by_hand = "" if flow.correction_offered is not None or exp.drawn else "hold OK: enter the dice"
        how = "HINT: how to play" if flow.hint_button else "OK: how to play"
        hint = " · ".join(h for h in ("Throw, then let the dice settle", _late_fix_hint(flow), by_hand, how) if h)
        return PromptView(who, text + key, hint=hint)
    assert isinstance(exp, Decide)
    if not flow.choices_shown:
        # (in few words: at 320x240 "...: your choice is secret. Everyone else, please look
        # away." and "...: press OK to see your choices" took 8 lines of a panel that holds 6,
        # and the question was cut to "your choice is s...": the others never read to look away)
        return PromptView(who, f"{who}: secret choice. Everyone else, look away.",
                          hint="press OK to see your choices")
    entries = flow.menu()
    options = tuple(OptionView(e.label, e.points, selected=(i == flow.cursor), enabled=e.enabled, note=e.note,
                               short=e.short)
                    for i, e in enumerate(entries))
    hint = "UP/DOWN choose · OK confirm"
    if exp.reroll is not None:
        hint = ("HOLD 1-5 keep dice" if flow.hold_buttons else "OK on a die holds it") + " · " + hint
    if exp.secret:
        hint += " · BACK hides"
    if _late_fix_hint(flow):
        hint += " · " + _late_fix_hint(flow)
    return PromptView(who, exp.prompt or f"{who}: decide", options, hint)


def _late_fix_hint(flow: TableFlow) -> str:
    """How to undo the last thing applied, while it can be (it is always the last input)."""
    last = flow.correction_offered
    if last is not None:
        # (once the next player is asked to throw, a long OK still reopens the throw before:
        # say whose, or players take it for their own)
        thrower = getattr(last.state.expects(), "player", None)
        if thrower is not None and thrower != getattr(flow.expect, "player", None):
            return f"hold OK: correct {flow.state.player_name(thrower)}'s dice"
        return "hold OK: correct the dice"
    undo = flow.take_back_offered
    return f"BACK twice: undo {flow.state.player_name(undo.player)}'s choice" if undo else ""


def _without_previews(sheet: dict) -> dict:
    """A sheet's JSON without what the decision never made would have scored: an abandoned
    game's "scores so far" showed the last dice's previews like scores, its player's column lit.
    A cell that shows points earned beside points pending says which are earned (`settled`):
    Thirteen's second joker ("40 +40") and Pok'n Roll's ticks with the one a choice would add
    kept their pending points on the final sheet, the previews alone being blanked."""
    def cell(c: dict) -> dict:
        if "settled" in c:
            return c["settled"]
        return {"text": "", "kind": "empty"} if c.get("kind") == "preview" else c

    tables = [{**t, "active_column": None,
               "rows": [{**r, "cells": [cell(c) for c in r["cells"]]} for r in t["rows"]]}
              for t in sheet.get("tables", ())]
    return {**sheet, "tables": tables}
