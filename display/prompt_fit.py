"""How many of the prompt panel's lines fit its height.

At 320x240 the panel is ~100 px high, and the question (three lines), the buttons' hint (two to
four lines, drawn up from the panel's foot), a menu row and "more below" need ~150: the hint and
"more below" were drawn over the question and the menu. What does not fit is left off, in an
order that keeps what a player needs to act: the cursor's menu row always, the question's first
line (who acts, and what); then the question's later lines go first, then the "more above" and
"more below" lines (UP/DOWN still scroll the menu), then the hint's last lines.
"""
from __future__ import annotations

from typing import Callable


def prompt_fit(text_lines: int, hint_lines: int, height: int, need: Callable[[int, int, bool], int],
               keys_in_question: bool = False) -> tuple[int, int, bool]:
    """The question's and the hint's lines to draw (of `text_lines` and `hint_lines`) and whether
    the menu's "more" lines are, so that `need(text, hint, more)` (the panel's height for them and
    the menu's cursor row) is within `height`; at least the question's first line, when even
    that does not fit (a screen below any café's). Where the question says what to press
    (`keys_in_question`: *Is this right? ... OK accepts · hold OK to correct · BACK to throw
    again*) the hint's later lines go before the question's, down to the hint's first."""
    t, h, more = text_lines, hint_lines, True
    while need(t, h, more) > height:
        if keys_in_question and h > 1:
            h -= 1
        elif t > 1:
            t -= 1
        elif more:
            more = False
        elif h > 0:
            h -= 1
        else:
            break
    return t, h, more
