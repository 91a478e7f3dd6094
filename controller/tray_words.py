"""The reader's problems in the players' words, with what to do about each.

The reader says what it saw for the log and `dicetable read --json` ("die found but value
unsure", "frame too dark (98th percentile 17)"); the players need to know which die, and whether
to throw again, take a hand out, or call the staff. Plain data and small functions: the table
flow and the runner word the same problem the same way.
"""
from __future__ import annotations

from typing import Sequence

from vision.types import (BAD_FRAME, BLURRED, DICE_COVERED, DIE_LEANING, FOREIGN_OBJECT, GLARE, PARTLY_OUT_OF_VIEW,
                          TOO_BRIGHT, TOO_DARK, UNSURE_VALUE, Die, Problem, Reading)

BY_HAND = "hold OK to enter the values"
UNSTEADY = "unsteady"       # not a reader's code: a still tray whose readings keep disagreeing

# What keeps the camera from reading the whole tray: (the tray's caption, the banner's advice). The
# caption is one line under the tray (at 800x480 "Readings disagree: straighten the dice or throw
# again" was cut after "or throw"); the banner holds what to do.
TRAY_TROUBLE: dict[str, tuple[str, str]] = {
    FOREIGN_OBJECT: ("Something that is not a die is in the tray",
                     "A hand or something that is not a die is in the tray: take it out. The dice are read "
                     "once it is out (a thing left lying still, around it from the next throw)."),
    DICE_COVERED: ("The dice are covered",
                   "Something covers the dice (a cup?): lift it. Dice seen again as they lay are not a throw; "
                   "thrown again, they count."),
    TOO_DARK: ("Too dark to see the dice",
               f"Too dark to see the dice: is the light over the tray on? The dice are read once it is. If it "
               f"stays dark, call the staff, or {BY_HAND}."),
    TOO_BRIGHT: ("Too bright to see the dice",
                 f"Too much light on the tray to see the dice (a lamp or the sun shining on it): shade the tray, "
                 f"or call the staff, or {BY_HAND}."),
    BAD_FRAME: ("The camera's picture cannot be used",
                f"The camera's picture cannot be used: call the staff if this stays, or {BY_HAND}."),
    BLURRED: ("The picture is blurred",
              f"The camera's picture is blurred: keep the table still. If it stays blurred (the camera out of "
              f"focus or loose), call the staff, or {BY_HAND}."),
    UNSTEADY: ("Readings disagree",
               f"The camera reads the dice differently from one picture to the next: straighten the dice or "
               f"throw again, or {BY_HAND}."),
}
# the order in which they are named when several are seen at once
TRAY_ORDER = (FOREIGN_OBJECT, DICE_COVERED, TOO_DARK, TOO_BRIGHT, BAD_FRAME, BLURRED)

# A die's own problem that stops the throw ("{n}": the die's number, left to right). A cocked die
# or one off the camera's view is thrown again, as poker-dice players do (the rules in
# ../shared/rules do not say otherwise); or the players enter what they see.
DIE_TROUBLE: dict[str, str] = {
    DIE_LEANING: f"Die {{n}} is leaning (cocked), its top face unclear: throw again, or {BY_HAND}.",
    PARTLY_OUT_OF_VIEW: f"Die {{n}} is partly out of the camera's view: throw again, or {BY_HAND}.",
    UNSURE_VALUE: f"I cannot read die {{n}} for sure: throw again, or {BY_HAND}.",
}
DIE_ORDER = (DIE_LEANING, PARTLY_OUT_OF_VIEW)
# A die too unsure to be read that lies in a lamp's glare: the glare is why (it hides pips), and
# the players see the spot on it. "I cannot read die 4 for sure" gave no reason.
GLARE_UNREAD = f"I cannot read die {{n}} in the lamp's glare: throw again, or {BY_HAND}."


def tray_trouble_words(codes: set[str]) -> str | None:
    """The banner's words for the first of `codes` that keeps the whole tray from being read."""
    code = next((c for c in TRAY_ORDER if c in codes), None)
    return None if code is None else TRAY_TROUBLE[code][1]


def die_trouble_words(dice: Sequence[Die], problems: Sequence[Problem], doubtful: Sequence[int]) -> str:
    """Why a still tray whose dice are all there is not taken, and what to do: the whole tray's
    problem first, then a die's own (numbered left to right, as the correction numbers them),
    then a die read unsurely. The settle tracker's own words for a die whose value changes from
    frame to frame ("die 3 reads 1 or 2 from one frame to the next") already name it."""
    tray = tray_trouble_words({p.code for p in problems})
    if tray is not None:
        return tray
    for code in DIE_ORDER:
        n = next((i + 1 for i, d in enumerate(dice) if code in d.problems), None)
        if n is not None:
            return DIE_TROUBLE[code].format(n=n)
        if any(p.code == code for p in problems):
            return DIE_TROUBLE[code].replace("Die {n}", "A die")
    flicker = next((p for p in problems if p.code == UNSURE_VALUE and " reads " in p.message), None)
    if flicker is not None:
        return f"{flicker.message[:1].upper()}{flicker.message[1:]}. Throw again, or {BY_HAND}."
    n = doubtful[0] + 1 if doubtful else next((i + 1 for i, d in enumerate(dice) if UNSURE_VALUE in d.problems), 1)
    if n <= len(dice) and GLARE in dice[n - 1].problems:
        return GLARE_UNREAD.format(n=n)
    return DIE_TROUBLE[UNSURE_VALUE].format(n=n)


def named_trouble(die: Die) -> bool:
    """Whether `die` has a problem of its own that stops the throw (leaning, cut by the view's
    edge): outlined and numbered on the tray, as the message names it, even when read."""
    return any(code in die.problems for code in DIE_ORDER)


def glare_words(glared: Sequence[int]) -> str:
    """What the banner says of the dice (positions) read in a lamp's glare: which to check."""
    if len(glared) == 1:
        return f"Die {glared[0] + 1} is in the lamp's glare: check its value."
    numbers = [str(i + 1) for i in glared]
    return f"Dice {', '.join(numbers[:-1])} and {numbers[-1]} are in the lamp's glare: check their values."


def glare_ask_words(asked: Sequence[int]) -> str:
    """What the banner says of dice in the glare read too unsurely to be taken without the players'
    OK: which, and what to do. Why (the glare may hide pips) is the prompt's hint. It said "... and
    may show more pips than I see: check, then OK (hold OK to correct).": at 320x240 drawn only as
    far as "than I see:", what to do cut off."""
    which = f"Die {asked[0] + 1} is" if len(asked) == 1 else \
        f"Dice {', '.join(str(i + 1) for i in asked[:-1])} and {asked[-1] + 1} are"
    return f"{which} in the lamp's glare: check {'it' if len(asked) == 1 else 'them'}, then OK."


def glare_count_words(reading: Reading, too_few: bool) -> str | None:
    """Why the camera may see a die too few or too many, when a lamp's glare lies on the tray
    where no die was found: a die under it is lost, or the glare's spot is taken for dice (on 150
    rendered trays with a lamp's spot: 23 showed 4 dice of 5, 16 six to eight). "Fix the tray"
    said nothing of it; None without such glare."""
    boxes = {tuple(d.box) for d in reading.dice}
    if not any(p.code == GLARE and p.box is not None and tuple(p.box) not in boxes for p in reading.problems):
        return None
    return ("The lamp's glare on the tray may hide a die: throw again" if too_few
            else "The lamp's glare on the tray may look like a die: throw again")


# A die in the glare read at least this surely may be taken by itself after `check_seconds` (it is
# outlined for the players to check); one read less surely waits for their OK. The glare hides
# pips: of 201 valued dice under a lamp's spot on rendered trays (400x300, five felts), 7 were read
# wrong, every one as fewer pips than it had (a 6 as a 3 at 0.977, a 3 as a 2 at 0.77), and all
# went in by themselves; none of them was read at 0.99 or more (8 of the 194 right ones were).
GLARE_SURE = 0.99


def check_words(check: Sequence[int], sure: Sequence[int]) -> str:
    """The prompt's words for the dice (positions) outlined to check, `sure` those among them
    read surely and outlined only for the lamp's glare (the banner says so). It said of every one
    "I am not sure of it", of a die in the glare read 0.998 sure too: since the second look
    (vision/glare_look.py) most dice in the glare are such, and players learnt to ignore it."""
    if not check:
        return ""
    names = [str(i + 1) for i in check]
    which = f"die {names[0]}" if len(names) == 1 else f"dice {', '.join(names[:-1])} and {names[-1]}"
    unsure = [str(i + 1) for i in check if i not in sure]
    if not unsure:
        return f"Check {which} (outlined). "
    if len(unsure) == len(check):
        return f"Check {which} (outlined): I am not sure of {'it' if len(check) == 1 else 'them'}. "
    doubt = f"die {unsure[0]}" if len(unsure) == 1 else f"dice {', '.join(unsure[:-1])} and {unsure[-1]}"
    return f"Check {which} (outlined): I am not sure of {doubt}. "


def asked_in_glare(dice: Sequence[Die]) -> list[int]:
    """The dice (positions) in a lamp's glare read too unsurely to be taken without the players'
    OK (GLARE_SURE); a surely read die in the glare is only checked."""
    return [i for i in glared(dice) if dice[i].confidence < GLARE_SURE]


def glared(dice: Sequence[Die]) -> list[int]:
    """The dice read under a lamp's glare: their value is checked, not taken on trust (a 6 half
    washed out read 3 at 0.93 and was taken; on rendered trays with a lamp's spot, 2 of 73
    valued dice under glare were read wrong, none of 646 others)."""
    return [i for i, d in enumerate(dice) if GLARE in d.problems and d.value is not None]


# Said once, as the dice of a throw are first read around a thing left lying in the tray (see
# vision.left_things): what the table does about it, and that it is better out.
LEFT_WORDS = "Something that is not a die lies in the tray: the dice are read around it. Take it out when you can."


def staff_notice_words(message: str) -> str:
    """A notice for the staff (the camera moved since calibration, a calibration of another view)
    as the players read it: for whom it is, and that their game goes on. It read as a problem of
    theirs ("The tray is not where it was calibrated ...: run dicetable calibrate again.")."""
    return f"For the staff: {message}. The game goes on."
