"""The header's status line in the room the title leaves it.

A status says where the game is, then what to do now ("Round 1 of 6 — Ann: keep dice and throw
the others once, or keep all 5"). Where it is too long it was drawn without its middle parts,
else as its last part, else cut with "...": at 320x240 that was every play screen ("Round 2 of
13: Fay, choose a catego...", "Ann: keep dice and thro...", "Cy: abandon or continue? (turn
1,...") and the setup menu's "Classic poker dice · step..."; the round was never on screen,
while the question it was cut from is the prompt panel's own. Now, before any cut, the status is
drawn as the longest start of it that ends where a part ends (" — ", " · ", " (") and fits:
"Round 1 of 6", "Round 2 of 13: Fay, choose a category", "Hand 1, turn 1 — in: Ann, Bob".
A start never ends inside a player's name ("Ann (guest)" is not drawn "Ann").
"""
from __future__ import annotations

from typing import Sequence

from . import theme
from .draw import printable

# where a status may end short: between its parts, and before a parenthesis
PART_ENDS = (" — ", " · ", " (")
# and before what says when, which the screen under it shows: Objective cards' "Game over after 10
# rounds" had no shorter form, and at 320x240 both it and the title beside it were cut
WHEN_ENDS = (" after ",)
# and at a comma or a colon where no player's name follows it ("Round 8 of 13: Ann, choose a
# category" ends at "Ann"), never in a list of names ("winners: Ann, Bob" would lose Bob, or
# both); before a name only where it ends the status's first words ("Game over: Cy wins ...")
LIST_ENDS = (", ", ": ")


def status_forms(status: str, players: Sequence[str] = ()) -> list[str]:
    """The forms of `status` to try, the first that fits drawn: whole; its first and last parts
    (" — "); its last part; then its starts ending at a part's end, longest first."""
    parts = status.split(" — ")
    forms = [status]
    if len(parts) > 2:
        forms.append(f"{parts[0]} — {parts[-1]}")
    if len(parts) > 1:
        forms.append(parts[-1])
    return forms + [start for start in status_starts(status, players) if start not in forms]


def status_starts(status: str, players: Sequence[str] = ()) -> list[str]:
    """The starts of `status` that end where one of its parts does (`PART_ENDS`, `WHEN_ENDS`, and `LIST_ENDS`
    before anything but a player's name when the players are known), longest first, none ending
    inside a player's name."""
    inside = set()
    for name in players:
        at = status.find(name) if name else -1
        while at >= 0:
            inside.update(range(at + 1, at + len(name)))
            at = status.find(name, at + 1)
    ends = {i for sep in PART_ENDS + WHEN_ENDS for i in _all(status, sep)}
    if players:
        lists = {i for sep in LIST_ENDS for i in _all(status, sep)}
        before_name = {i for i in lists if any(name and status.startswith(name, i + 2) for name in players)}
        ends |= lists - before_name
        # (before a name, only where nothing has been said yet: "Game over: Cy wins with 377" is
        # "Game over", never "... — winners" with no one after it)
        first = min(ends, default=len(status))
        ends |= {i for i in before_name if i < first}
    ends = sorted((i for i in ends if i > 0 and i not in inside), reverse=True)
    return [status[:i].rstrip(" ,:") for i in ends]


def _all(text: str, sep: str) -> list[int]:
    """Every index where `sep` starts in `text`."""
    out, at = [], text.find(sep)
    while at >= 0:
        out.append(at)
        at = text.find(sep, at + 1)
    return out


def status_line(status: str, size: int, least: int, width: int, players: Sequence[str] = ()) -> tuple[int, str]:
    """The status to draw in `width` and its size: the first of `status_forms` that fits at a
    size from `size` down to `least` (the least legible); else its last part, to be cut."""
    for line in status_forms(status, players):
        for k in range(max(size, least), least - 1, -1):
            if theme.font(k).size(printable(line))[0] <= width:
                return k, line
    parts = status.split(" — ")
    return least, parts[-1]


def title_room(title: str, status: str, width: int, gaps: int, least: int, players: Sequence[str] = ()) -> int:
    """The width the header's title may take of a header `width` wide, where `gaps` px go
    around it and the status: half, as before, unless the title needs more (bold, at the least
    type `least`) and the narrowest form of the status leaves it that room: at 320x240 the final
    standings were titled "Classic poker dice: fina..." beside "winner: Ann", the header half empty."""
    half = width // 2
    need = theme.font(least, True).size(printable(title))[0]
    if need <= half or not status:
        return half
    narrowest = min(theme.font(least).size(printable(form))[0] for form in status_forms(status, players))
    return max(half, min(need, width - gaps - narrowest))
