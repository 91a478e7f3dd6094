"""The prompt's lines cut where a part of it ends, never inside one, on a small panel.

At 320x240 the prompt panel is ~114 px wide and holds about four lines: the buttons' hint was
kept to the lines that fitted with the rest joined onto the last and cut ("hold OK: enter t...",
"dice · UP/DOWN..."), a button named without what it does, and a question too long for its lines
was cut the same way ("Ann: throw all 5..."). A hint is now kept to its first whole parts (the
" · " between them), and a question to its longest start that ends a sentence or a clause, when
either fits the lines the panel gives it; the cut with "..." stays only where not even one part
or one clause fits (a screen smaller than any café's, or one word wider than the panel)."""
from __future__ import annotations

import re
from typing import Callable, Sequence

SEPARATOR = " · "
#: where a question's start may end whole: a sentence's end, a clause's comma, before a bracket;
#: never before "or" ("Ann: stop, or hold dice and throw again" is not "Ann: stop": an order)
_CLAUSE_END = re.compile(r"[.!?](?= )|,(?= (?!or\b))|(?= \()")


def whole_part_lines(hint: str, lines: Sequence[str], kept: int) -> int:
    """How many of the hint's first `kept` lines (`lines`: the hint wrapped, each a piece of it as
    written) to draw so that the last drawn ends one of its " · " parts: `kept` when the last does,
    fewer when it ends inside a part (that part is left off whole), 0 when even the first part
    needs more than `kept` lines."""
    ends: list[bool] = []
    pos = 0
    for line in lines[:kept]:
        at = hint.find(line, pos)
        if at < 0:                      # (not a piece of the hint as written: keep the lines as they are)
            return kept
        pos = at + len(line)
        ends.append(pos == len(hint) or hint.startswith(SEPARATOR, pos))
    return max((i + 1 for i, end in enumerate(ends) if end), default=0)


def question_start(text: str, fits: Callable[[str], bool]) -> str | None:
    """The longest start of the question `text` that ends a sentence or a clause ("Ann: throw all
    5 dice." of "Ann: throw all 5 dice. Pips count as 1=9 ...") and `fits` the lines it has, without
    its trailing comma; None when none does (the question is then cut as before). Never inside a
    bracket: the comma of Pok'n Roll's "(turn 1, secret)" left "Ann: abandon or continue? (turn 1"
    at 320x240, a bracket opened and not closed; the start before it is "Ann: abandon or continue?"."""
    starts = [text[:m.start() + (1 if text[m.start()] in ".!?" else 0)] for m in _CLAUSE_END.finditer(text)]
    for start in sorted(set(starts), key=len, reverse=True):
        start = start.strip()
        if start and start.count("(") <= start.count(")") and fits(start):
            return start
    return None
