"""A settled reading of the tray taken into the game: staged for the players to check, or refused with why.

The settle tracker hands the table a reading once the tray is still (controller/runner.py calls
TableFlow.on_reading, on_found_tray, on_dice_moved, on_tray_empty, on_tray_disturbed). Before a
reading may count as a throw it is checked against what the table already knows: the number of
dice the game waits for, the dice held (they must still be there, with their faces), the dice
already played (a tray only nudged or swept over is not a throw), the dice's places on a camera
plugged back at another size, a die in the glare, a thing left lying in the tray (told once).
A tray it cannot take is said in the players' words and kept at hand for a long OK, which enters
the dice by hand (controller/dice_correcting.py takes it from there).

These are functions of the flow (controller/table.py), as the screen's are (table_screen.py): the
state stays on `TableFlow`, where the screen, the resume and the tests read it; only the deciding
moved here, so that the flow keeps its phases and the one place the game changes (`_apply`). They
log under the flow's logger name, `controller.table`, which the staff filter on.
"""
from __future__ import annotations

import logging
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Callable, Sequence

from vision.left_things import left_boxes, same_place
from vision.types import CAMERA_MOVED, UNSURE_VALUE, Die, Reading, view_scale

from .die_faces import face_name, sorted_faces
from .gathered import DROPPED_WORDS, GATHERED_WORDS, looks_gathered
from .knock_notice import BACK_WORDS, banner_words
from .rules import Throw
from .rules.base import multiset_contains, multiset_minus
from .size_notice import banner_words as size_banner_words
from .table_phases import CONFIRM, CORRECT, DECIDE, MIN_CONFIDENCE, OVER, WAIT_DICE
from .tray_places import box_distance, same_spot, scaled_boxes
from .tray_words import (LEFT_WORDS, asked_in_glare, die_trouble_words, glare_ask_words, glare_count_words,
                         glare_words, glared, staff_notice_words)

if TYPE_CHECKING:
    from .table import TableFlow

log = logging.getLogger("controller.table")

# Problems that make a reading unusable as it is (players must fix the tray or correct it).
BLOCKING = {"die_leaning", "foreign_object", "dice_covered", "partly_out_of_view", "bad_frame", "too_dark",
            "too_bright", "blurred", "unsure_value"}


def take_settled(flow: TableFlow, reading: Reading) -> None:
    """A final reading from the settle tracker (the tray is still and readings agree)."""
    before = flow.message
    take_reading(flow, reading)
    if flow.phase == WAIT_DICE and flow.message is not before and flow.message is not None:
        flow._said_of_tray = flow.message      # (why this tray is not taken: stale once it changes)


def take_reading(flow: TableFlow, reading: Reading) -> None:
    """take_settled's work: the reading taken, refused with a reason, or staged."""
    places_for(flow, reading)
    flow.last_reading = reading
    before = flow.message
    # (a knock, dice or frames of another size told once, not at every throw: see
    # controller/knock_notice.py, size_notice.py; the reader read where the tray now is, at
    # the dice's own size or the whole view: the game goes on)
    moved = next((p.message for p in reading.problems if p.code == CAMERA_MOVED), None)
    told = flow.knocks.seen(moved)
    tell_staff(flow, told, BACK_WORDS if told == "back" else moved or "", banner_words)
    sizes = flow.sizes.seen(reading)
    for what, words in sizes:
        tell_staff(flow, what, words, size_banner_words)
    # (kept across restarts at each settled reading, the readings counted toward a notice's
    # being gone included: controller/told_kept.py writes only what changed)
    flow.on_staff_told()
    if flow.phase == OVER:
        return
    if flow.phase == CORRECT:
        # players are correcting by hand: the camera does not overrule them; the tray is read
        # if they leave the correction with BACK (they may have fixed it meanwhile)
        flow._seen_while_correcting = reading
        return
    if flow.phase == CONFIRM:
        flow.pending = None  # a newer still tray replaces the one being shown
        flow.phase = WAIT_DICE
    flow._correctable = None  # (an older reading's offer goes with it)
    exp = flow.expect
    if not isinstance(exp, Throw):
        if flow.phase == DECIDE and reading.dice and tray_changed(flow, reading):
            if mostly_as_before(flow, reading):
                say_turned(flow, reading)       # (a hand knocked a die: nobody threw)
            else:
                flow.say(f"{flow.state.player_name(exp.player)}: decide first (OK on the menu), then throw.",
                         "warning")
        elif flow.phase == DECIDE and reading.dice:
            # the same dice, slid by a hand large enough for the tracker to call it a throw
            follow_tray(flow, reading)
        return
    held = list(exp.held)
    want = len(held) + exp.count
    found = len(reading.dice)
    if found != want:
        # a die the camera cannot see (or a thing it takes for one) would otherwise hold the
        # game up for good: the players may enter the dice themselves
        where = f" ({len(held)} held + {exp.count} thrown)" if held else ""
        seen = "1 die" if found == 1 else f"{found} dice"
        fix = (f"Put the held {sorted_faces(held, exp)} back in the tray beside them"
               if held_taken_out(flow, reading, exp)
               else glare_count_words(reading, found < want) or "Fix the tray or throw again")
        flow.say(f"I see {seen}; the game needs {want}{where}. {fix}, or hold OK to enter the values.", "warning")
        offer_correction(flow, reading)
        return
    if lost_dice_again(flow, reading, exp):
        flow.on_found_tray(reading)     # (the dice last played, seen by a camera with another view)
        return
    if lying_as_played(flow, reading, exp):
        flow.say(f"Those are the dice read before, only moved, not thrown. {throw_asked(flow, exp)}", "warning")
        return
    reading = held_as_set(flow, reading, exp)
    problems = [p for p in reading.problems if p.code in BLOCKING]
    doubtful = [i for i, d in enumerate(reading.dice) if d.value is None or d.confidence < MIN_CONFIDENCE]
    if problems or doubtful:
        flow.say(die_trouble_words(reading.dice, problems, doubtful), "warning")
        offer_correction(flow, reading)
        return
    values = [int(d.value) for d in reading.dice]  # type: ignore[arg-type]
    if not multiset_contains(values, held):
        flow.say(f"A held die changed: the held dice should be {sorted_faces(held, exp)}, "
                 f"I see {sorted_faces(values, exp)}. "
                 "Put them back as they were, or hold OK to enter the values.", "warning")
        offer_correction(flow, reading)
        return
    glare = glared(reading.dice)
    check = [i for i, d in enumerate(reading.dice) if d.confidence < flow.check_below or i in glare]
    if flow.message is before and not flow.banner.page_shown:
        # (about an earlier tray: "I see 4 dice" beside "Is this right?"; not the last move's
        # notes, whose page went, unread and for good, as the next player's dice were read)
        flow.message = None
    asked = asked_in_glare(reading.dice)
    # (outlined only for the glare, read surely: no "I am not sure" said of them, no "3?")
    sure = [i for i in glare if i not in asked and reading.dice[i].confidence >= flow.check_below]
    if asked:
        flow.say(glare_ask_words(asked), "warning")
    elif glare:
        flow.say(glare_words(glare), "warning")
    else:
        tell_left(flow, reading)
    gathered = looks_gathered(values, [v for v, _box in flow.played], held, exp.count)
    if gathered:
        flow.say(GATHERED_WORDS, "warning")
    stage(flow, values, [d.box for d in reading.dice], exp, check, wait_for_ok=bool(asked), sure=sure)
    flow._gathered_for = flow.pending if gathered else None


def tell_left(flow: TableFlow, reading: Reading) -> None:
    """Say once that the dice were read around a thing left lying in the tray (a phone, a
    cup), the first time a throw is taken with it there: the players see why it did not stop
    the throw, and that it is better out. Not again while it lies there."""
    lying = left_boxes(reading)
    told = [box for box in flow._left_told if same_place(box, lying)]    # (a thing taken out: forgotten)
    new = [box for box in lying if not same_place(box, told)]
    flow._left_told = told + new
    if new:
        flow.say(LEFT_WORDS)


def take_found_tray(flow: TableFlow, reading: Reading) -> None:
    """The tray as the table found it on starting, nothing seen moving yet: dice left from
    the game before, or lying there through a restart. They were not thrown now (they
    used to count as the first player's throw after the usual moment); they are taken as
    the dice already played, so that moving them is not a throw either. At a decision they
    are the dice decided on, found on the tray."""
    exp = flow.expect
    if flow.phase == DECIDE:
        found_at_decision(flow, reading)
        return
    if flow.phase == CORRECT:
        flow.on_reading(reading)
        found_while_correcting(flow, reading)
        return
    if flow.phase != WAIT_DICE or not isinstance(exp, Throw) or exp.drawn:
        flow.on_reading(reading)
        return
    places_for(flow, reading)
    flow._places_lost = None
    flow.last_reading = reading
    flow.played = [(int(d.value), d.box) for d in reading.dice if d.value is not None]
    if reading.dice:
        flow.say(f"The dice in the tray were there before: they do not count. {throw_asked(flow, exp)}")


def found_while_correcting(flow: TableFlow, reading: Reading) -> None:
    """The tray found as a game resumes in the middle of a correction (resume_correction): the
    dice being corrected are marked where they lie when they are the same dice and the players
    have changed none yet (as dice_correcting.placed places dice offered after a resume). Before, they were
    numbered in a row along the bottom of the picture, away from the dice they stand for."""
    amending = flow._amending
    found = [(int(d.value), tuple(d.box)) for d in reading.dice if d.value is not None]
    if (amending is None or len(found) != len(reading.dice) or list(flow.pending or ()) != list(amending.values)
            or Counter(v for v, _ in found) != Counter(amending.values)):
        return
    values, boxes = [v for v, _ in found], [b for _, b in found]
    flow._amending = replace(amending, values=tuple(values), boxes=tuple(boxes))
    flow.pending, flow.pending_boxes = list(values), list(boxes)
    flow.tray_values, flow.tray_boxes = list(values), list(boxes)
    flow.played = found


def found_at_decision(flow: TableFlow, reading: Reading) -> None:
    """The tray found at a decision (a game resumed there): the dice decided on, found on it;
    or, where the table knows none (a decision with no dice to throw again: Pok'n Roll's
    abandon, Objective cards' cards, Classic's bets, the last throw's box), the dice it shows,
    as the table had them before the cut; or another player's (betting Classic's decision
    on dice thrown before). Never a throw: nobody threw while the table was off. It was
    taken for one at every decision of the second kind (*Ann: decide first (OK on the
    menu), then throw.* as the table came back), and its dice were not shown."""
    if flow.tray_values and not tray_changed(flow, reading):
        flow.on_reading(reading)            # (the dice decided on: their places, holds kept)
        return
    places_for(flow, reading)
    flow.last_reading = reading
    if flow.tray_values:
        flow.played = [(int(d.value), d.box) for d in reading.dice if d.value is not None]
    elif all(d.value is not None for d in reading.dice):
        follow_tray(flow, reading)


def places_for(flow: TableFlow, reading: Reading) -> None:
    """Bring the dice's places the table keeps (the dice played, decided on, staged, to correct or
    to take back) to the pixels of `reading`'s frame. A camera plugged back may send another size:
    the places kept, in the old frame's pixels, then matched no die of the new frames, and the dice
    lying as played, swept over by a hand, were taken as the next player's throw. The same view at
    another size is scaled; another shape (another crop of the sensor) cannot be placed: the
    places are forgotten, as after a power cut, and the same dice seen next while a throw is
    awaited are taken as found lying there, not thrown (the throw is asked for again)."""
    places_at(flow, (int(reading.size[0]), int(reading.size[1])))


def places_at(flow: TableFlow, size: tuple[int, int]) -> None:
    """The dice's places brought to frames of `size` (see places_for); the view's picture
    brings them too, so that the marks and HOLD numbers stay on their dice before the next
    reading (none comes while the dice lie still)."""
    if size[0] <= 0 or size[1] <= 0:
        return
    old, flow._places_size = flow._places_size, size
    if old is None or old == size:
        return
    scale = view_scale(old, size)
    log.info("camera frames now %dx%d (were %dx%d): the dice's places %s", *size, *old,
             "scaled" if scale is not None else "forgotten (another view)")
    if scale is None and flow.played:
        flow._places_lost = Counter(v for v, _ in flow.played)
    move_places(flow, lambda boxes: scaled_boxes(boxes, scale) if scale is not None else [])


def lost_dice_again(flow: TableFlow, reading: Reading, exp: Throw) -> bool:
    """Whether `reading` may be the dice last played, whose places were forgotten for another
    view: the same faces, none placed since. Other faces are a throw, and count at once."""
    return (flow._places_lost is not None and not flow.played and not exp.drawn
            and Counter(d.value for d in reading.dice) == flow._places_lost)


def move_places(flow: TableFlow, move: Callable[[Sequence], list]) -> None:
    """Apply `move` (boxes -> boxes; [] forgets them) to every die place the flow keeps."""
    flow.tray_boxes = move(flow.tray_boxes)
    played = move([box for _, box in flow.played])
    flow.played = list(zip((v for v, _ in flow.played), played))
    flow.pending_boxes = move(flow.pending_boxes) or flow._row_boxes(len(flow.pending_boxes))
    if flow._correctable is not None:
        values, boxes, unsure = flow._correctable
        flow._correctable = (values, move(boxes) or flow._row_boxes(len(values)), unsure)
    for name, field in (("_last_read", "boxes"), ("_amending", "boxes"), ("_last_choice", "tray_boxes"),
                        ("_take_back_armed_for", "tray_boxes")):
        kept = getattr(flow, name)
        if kept is not None:
            setattr(flow, name, replace(kept, **{field: tuple(move(getattr(kept, field)))}))


def throw_asked(flow: TableFlow, exp: Throw) -> str:
    """The throw still awaited, in the prompt's own words ("Ann: throw all 5 dice."), so that a
    message beside the prompt does not word the same throw another way."""
    if exp.prompt:
        return exp.prompt.rstrip(".") + "."
    return f"{flow.state.player_name(exp.player)}: throw {exp.count} {'die' if exp.count == 1 else 'dice'}."


def tray_emptied(flow: TableFlow) -> None:
    """The tray was seen empty: the dice last accepted were taken out, so dice that lie
    there next were thrown (or put) anew, wherever they lie. Dice shown that looked
    gathered up (the faces read before, moved) and are picked up before they counted were
    not a throw: they are dropped (see gathered.py)."""
    if pending_gathered(flow):
        exp = flow.expect
        log.info("dice with the faces read before (%s) picked up before they counted: not taken", flow.pending)
        flow.pending, flow._gathered_for = None, None
        flow.phase = WAIT_DICE
        flow.say(DROPPED_WORDS + (f" {throw_asked(flow, exp)}" if isinstance(exp, Throw) else ""))
    flow.played = []
    flow._places_lost = None


def dice_slid(flow: TableFlow, reading: Reading, changed: Sequence[int]) -> None:
    """Dice were slid by hand, not thrown. While waiting for a throw this may be the throw
    (a gentle one); during a decision it only moves the dice, unless a value changed."""
    places_for(flow, reading)
    if flow.phase in (WAIT_DICE, CONFIRM):
        flow.on_reading(reading)
        return
    flow.last_reading = reading
    if flow.phase != DECIDE:
        return
    if not tray_changed(flow, reading):
        follow_tray(flow, reading)
    elif changed and flow.tray_boxes:    # (else the tray is not the one decided on: betting Classic)
        say_turned(flow, reading)


def mostly_as_before(flow: TableFlow, reading: Reading) -> bool:
    """Whether most dice of `reading` lie, unchanged, where the dice decided on lay."""
    return bool(flow.tray_boxes) and len(reading.dice) == len(flow.tray_values) and \
        2 * sum(lies_as_before(flow, d) for d in reading.dice) > len(reading.dice)


def say_turned(flow: TableFlow, reading: Reading) -> None:
    """A die of the tray decided on shows another face: named by its number on screen (the
    marks stay where the dice were decided on; the reading's order is not theirs)."""
    odd = next((d for d in reading.dice if not lies_as_before(flow, d)), None)
    which = "A die"
    if odd is not None and flow.tray_boxes:
        k = min(range(len(flow.tray_boxes)), key=lambda k: box_distance(flow.tray_boxes[k], odd.box))
        which = f"Die {k + 1}"
    # (or thrown before the menu was: a die thrown again looks the same)
    keeps = " ".join(face_name(v, flow._faces) for v in flow.tray_values)
    flow.say(f"{which} was turned over. The game keeps {keeps}: put it back as it was, or to throw it "
             "again choose that on the menu first.", "warning")


def held_as_set(flow: TableFlow, reading: Reading, exp: Throw) -> Reading:
    """`reading` with each unread die that lies just where a held die lay given the value
    it had (players set it by hand when the camera could not read it), to be checked
    (outlined) rather than entered by hand again at every throw. A held die never read
    surely otherwise stopped every throw after it: "I cannot read die 3 for sure"."""
    held = Counter(exp.held)
    dice = list(reading.dice)
    filled: list[tuple] = []
    for i, die in enumerate(dice):
        if die.value is not None and die.confidence >= MIN_CONFIDENCE:
            continue
        value = next((v for v, box in flow.played if held[v] > 0 and same_spot(box, die.box)), None)
        if value is not None:
            held[value] -= 1
            dice[i] = replace(die, value=value, confidence=MIN_CONFIDENCE,
                              problems=tuple(c for c in die.problems if c != UNSURE_VALUE))
            filled.append(tuple(die.box))
    if not filled:
        return reading
    problems = tuple(p for p in reading.problems if not (p.code == UNSURE_VALUE and p.box is not None
                                                         and tuple(p.box) in filled))
    return replace(reading, dice=tuple(dice), problems=problems)


def held_taken_out(flow: TableFlow, reading: Reading, exp: Throw) -> bool:
    """Whether the tray shows just the dice thrown, the held ones taken out to keep them
    safe: "throw again" would then be a second try at the throw, not a fix."""
    values = [d.value for d in reading.dice]
    return (bool(exp.held) and len(values) == exp.count and None not in values
            and not multiset_contains(values, list(exp.held)))


def lying_as_played(flow: TableFlow, reading: Reading, exp: Throw) -> bool:
    """Whether most of the dice to throw still lie just where the last accepted dice lay,
    with the same faces (beyond the held dice, which stay). A hand reaching in for the dice
    nudges one of them, or sweeps over the tray: the tracker sees a moved die or a large
    motion, but the tray was not thrown, and its dice (already in the game) must not count
    again as the next throw. (One die of a real throw may land where one lay: most do not.)"""
    left = list(flow.played)
    same = 0
    for die in reading.dice:
        hit = next((k for k, (value, box) in enumerate(left)
                    if value == die.value and same_spot(box, die.box)), None)
        if hit is not None:
            left.pop(hit)
            same += 1
    return same - len(exp.held) > exp.count / 2


def follow_tray(flow: TableFlow, reading: Reading) -> None:
    """The dice decided on, slid by hand: their marks, HOLD numbers and holds follow them
    (a mark left on an empty spot named the die there no longer). Dice decided on whose
    places were not known (a game resumed after a power cut) are found on the tray."""
    moved = bool(flow.tray_boxes) and not all(lies_as_before(flow, d) for d in reading.dice)
    holds = holds_carried(flow, reading) if flow.holds else []
    flow.tray_values = [int(d.value) for d in reading.dice]  # type: ignore[arg-type]
    flow.tray_boxes = [d.box for d in reading.dice]
    flow.played = list(zip(flow.tray_values, flow.tray_boxes))
    flow.holds = holds
    if moved:
        flow.say("Dice moved: the dice held stay held." if any(holds) else "Dice moved.")


def lies_as_before(flow: TableFlow, die: Die) -> bool:
    """Whether a die lies where a die of its face lay on the tray decided on."""
    return any(v == die.value and same_spot(b, die.box) for v, b in zip(flow.tray_values, flow.tray_boxes))


def holds_carried(flow: TableFlow, reading: Reading) -> list[bool]:
    """The holds for the dice of `reading` (the tray decided on, some dice slid): each die
    keeps the hold of the die it was, the one left in its place, else the nearest of its
    face. A knocked die must not release the dice a player has just held (they threw them
    all again without noticing); and keeping is by faces, so two dice of a face are alike."""
    old = list(range(len(flow.tray_values)))
    order = sorted(range(len(reading.dice)), key=lambda i: not lies_as_before(flow, reading.dice[i]))
    holds = [False] * len(reading.dice)
    for i in order:
        die = reading.dice[i]
        same = [k for k in old if flow.tray_values[k] == die.value]
        if not same:
            continue
        k = min(same, key=lambda k: box_distance(flow.tray_boxes[k], die.box) if flow.tray_boxes else k)
        old.remove(k)
        holds[i] = flow.holds[k]
    return holds


def tray_changed(flow: TableFlow, reading: Reading) -> bool:
    return Counter(d.value for d in reading.dice) != Counter(flow.tray_values)


def stage(flow: TableFlow, values: list[int], boxes: list, exp: Throw, check: Sequence[int] = (),
           wait_for_ok: bool = False, sure: Sequence[int] = ()) -> None:
    """Show the reading for the players to check: taken by itself after its moment, or,
    `wait_for_ok` (a die in the glare read unsurely), only with their OK or correction.
    `sure`: the dice of `check` read surely, outlined only for the lamp's glare."""
    if not flow.hint_button:
        flow.help_page = None    # (OK is the reading's now, not the card's: "OK accepts")
    flow.pending = values
    flow.pending_new = multiset_minus(values, exp.held)
    flow.pending_boxes = boxes
    flow.pending_check = list(check)
    flow.pending_sure = list(sure)
    flow.phase = CONFIRM
    wait = max(flow.confirm_seconds, flow.check_seconds) if check else flow.confirm_seconds
    flow._confirm_at = float("inf") if wait_for_ok else flow.clock() + wait


def tray_disturbed(flow: TableFlow) -> None:
    """Something moves in the tray, or rests there (a hand), while a reading is shown: a
    player reaching in to throw a cocked die again or to straighten one. The reading shown is
    of the tray before: it is not accepted by itself until the tray has been still for its
    moment again (OK still accepts it at once). It was: the dice under the hand went in after
    the moment, and the die thrown again was refused (*decide first, then throw*)."""
    if flow.phase == CONFIRM:
        wait = max(flow.confirm_seconds, flow.check_seconds) if flow.pending_check else flow.confirm_seconds
        flow._confirm_at = max(flow._confirm_at, flow.clock() + wait)
    elif flow.phase == WAIT_DICE and flow.message is not None and flow.message is flow._said_of_tray:
        # why the tray before was not taken ("Die 5 is partly out of the camera's view") stood
        # over the hand, the new throw or the blurred picture, the caption saying otherwise
        flow.message = None


def pending_gathered(flow: TableFlow) -> bool:
    """Whether the reading shown is the one that looked gathered up (not since corrected)."""
    return flow.phase == CONFIRM and flow.pending is not None and flow.pending is flow._gathered_for


def offer_correction(flow: TableFlow, reading: Reading) -> None:
    """Keep the reading at hand so that a long OK can correct it."""
    exp = flow.expect
    assert isinstance(exp, Throw)
    flow._correctable = hand_entry(flow, exp, reading.dice)


def hand_entry(flow: TableFlow, exp: Throw, dice: Sequence[Die]) -> tuple[list[int], list, list[int]]:
    """The dice as players start entering them by hand: those read, in their order (the
    surest when the tray shows more than the game needs); then, for each die the camera
    did not see, a held value the reading lacks, else 1, drawn in a row along the bottom
    of the camera image (it has no place of its own). Last, the positions of the dice
    whose value is a stand-in (unread, unsure or unseen), for the players to set first."""
    want = len(exp.held) + exp.count
    kept = sorted(sorted(range(len(dice)), key=lambda i: -dice[i].confidence)[:want])
    values = [dice[i].value or 1 for i in kept]
    boxes = [tuple(dice[i].box) for i in kept]
    unsure = [k for k, i in enumerate(kept) if dice[i].value is None or dice[i].confidence < MIN_CONFIDENCE]
    if kept:    # (with nothing read, every die is entered: none stands out)
        unsure += list(range(len(kept), want))
    unseen = multiset_minus(list(exp.held), values)
    sides = sorted(b[2] - b[0] for b in boxes)
    missing = want - len(values)
    values += [unseen[k] if k < len(unseen) else 1 for k in range(missing)]
    boxes += flow._row_boxes(missing, sides[len(sides) // 2] if sides else None)
    return values, boxes, unsure


def tell_staff(flow: TableFlow, what: str, words: str, banner: Callable[[str], str]) -> None:
    """A staff notice as its watcher decided: "tell" logs the reader's `words` as a warning
    and shows their `banner` form; "back" logs that the condition told is gone; "" nothing."""
    if what == "back":
        log.info("%s", words)
    elif what == "tell":
        log.warning("%s", staff_notice_words(words))
        flow.say(banner(words), "warning", logged=False)
