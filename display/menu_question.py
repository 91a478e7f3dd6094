"""A question over a menu, kept whole on a small panel: the game's words, else fewer of them.

At 320x240 the prompt panel holds ~90 px: the question, the menu's cursor row and the buttons'
hint. The hint's lines were kept before the question's, and every question over a menu with dice
to hold was cut to its first line: "Ann: choose a r...", "Ann: choose a c...", "Ann: stop, or
h...", Classic's "Ann: keep dice..." (at 480x320 "Ann: choose a row, or hold..." over three lines
of hint and a blank line). Who acts is on that line, what to do was not. Now the question goes
before the hint: in the game's words where they leave the menu a row more, else in the fewest
lines of the forms below (the same choice: the menu's rows name each option, the tray numbers
the dice to hold), never cut inside a clause; the hint takes the lines left, whole parts only.
"""
from __future__ import annotations

from typing import Callable

from .prompt_parts import question_start

#: the games' menu questions said in fewer words (the menu's own rows, "Throw 5 again", "Keep
#: all 5", "Stop", say the rest); the bracket after them ("(throw 1 of 3)") may be left off as
#: any question's is (display.prompt_parts)
SHORTER: tuple[tuple[str, str], ...] = (
    (", or hold dice and throw again", " or throw again"),                   # School, Thirteen, Objective cards
    ("keep dice and throw the others once, or keep all 5", "throw again or keep all 5"),   # Classic
    ("objective card in secret", "card"),       # Objective cards (the gate before the menu said it is secret)
)


def menu_question_forms(text: str) -> list[str]:
    """`text` and its shorter forms, the game's own words first."""
    forms = [text]
    for long, short in SHORTER:
        if long in forms[-1]:
            forms.append(forms[-1].replace(long, short))
    return forms


def menu_question(text: str, wrap_lines: Callable[[str], list[str]], most: int, room: Callable[[int], bool]
                  ) -> list[str] | None:
    """The question's lines over a menu: the first of `text`'s forms (whole, else its longest start
    ending a clause) on at most `most` lines that `room(lines)` says leave room for the rest (the
    hint whole, the menu more than its cursor's row); where none does, the first on the fewest
    lines. None when no form fits whole (the question is then cut as before)."""
    forms = menu_question_forms(text)

    def said(form: str, lines: int) -> str | None:
        def fits(q: str) -> bool:
            return len(wrap_lines(q)) <= lines
        return form if fits(form) else question_start(form, fits)

    for form in forms:
        start = said(form, most)
        if start is not None and room(len(wrap_lines(start))):
            return wrap_lines(start)
    for lines in range(1, most + 1):
        for form in forms:
            start = said(form, lines)
            if start is not None:
                return wrap_lines(start)
    return None
