"""The room a question over a menu needs to be read whole: its fewest lines and the cursor's row.

At 320x240 a banner over the prompt ("Ann scored 40 in 4 of a kind after throw 2") left the
panel 58 px: one line of question over the cursor's row, and Thirteen's question read
"Bob: choose a c..." for the whole turn after every score (its shortest form, "Bob: choose a
category or throw again", takes two lines). The same where the cursor's row has a note on a
second line. The menu scrolls in whatever room it has, the question does not: where its fewest
lines and the cursor's row do not fit, the prompt takes what it lacks from the tray, as a prompt
with no menu does (up to 2/5 of the tray's height, `render._play_columns`), never for more rows.
"""
from __future__ import annotations

from typing import Callable

from .menu_question import menu_question


def question_least_lines(text: str, lines_of: Callable[[str], list[str]], most: int = 3) -> int | None:
    """The fewest lines (at most `most`) any form of the menu question `text` is drawn whole in
    (display.menu_question's forms and clause-ending starts); None when none fits in `most`."""
    lines = menu_question(text, lines_of, most, lambda _t: False)
    return len(lines) if lines else None


def question_room(text: str, lines_of: Callable[[str], list[str]], pad: int, text_step: int, gap: int,
                  cursor_h: int) -> int | None:
    """The least height of the prompt panel that shows the question over a menu whole (its fewest
    lines, `text_step` each) over the cursor's row (`cursor_h`, after `gap`), inside `pad`; None
    when no form of the question fits three lines (then nothing is asked of the tray)."""
    t = question_least_lines(text, lines_of)
    return None if t is None else 2 * pad + t * text_step + gap + cursor_h
