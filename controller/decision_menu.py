"""The decision's menu: what a player may choose when the game waits for a decision.

Built from the game's expectation (`Decide`) and the dice on the table: "throw again" (with
the dice held), the game's options with their points, a line per die to hold on a panel
without HOLD buttons, and the help card where there is no HINT button. Pure functions: the
table flow (controller/table.py) keeps the cursor and the holds, and applies the choice.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .die_faces import face_name
from .help_card import HOW_TO_PLAY
from .rules import Decide
from .rules.base import Expectation, Input, multiset_contains


@dataclass
class MenuEntry:
    """One line of the decision menu: a game option, 'throw again', or a die to hold."""

    label: str
    action: str              # "option" | "reroll" | "die" | "help" (the card, on a panel without HINT)
    key: str = ""            # option key
    index: int = -1          # die position
    points: int | None = None
    enabled: bool = True     # shown greyed: the rules would refuse it as things stand
    note: str = ""           # what it does besides its points ("give up", "+10 early"): Option.note
    short: tuple[str, ...] = ()   # shorter forms of `label` for a narrow menu: Option.short


def decision_menu(exp: Decide, tray_values: Sequence[int], holds: Sequence[bool],
                  faces: Sequence[str] | None, hint_button: bool) -> list[MenuEntry]:
    """The menu of `exp` over the dice `tray_values` (`holds`: which are held, one per die when
    the decision may throw again), the dice named in `faces`."""
    entries: list[MenuEntry] = []
    if exp.reroll is not None:
        n_held = sum(holds)
        rethrow = len(tray_values) - n_held
        label = f"Throw {rethrow} again" if rethrow else "Keep all"
        allowed = exp.reroll.min_rethrow <= rethrow <= exp.reroll.max_rethrow
        entries.append(MenuEntry(label, "reroll", enabled=allowed))
    for opt in exp.options:
        entries.append(MenuEntry(opt.label, "option", key=opt.key, points=opt.points, note=opt.note,
                                 short=opt.short))
    if exp.reroll is not None:
        for i, v in enumerate(tray_values):
            state = "release" if holds[i] else "hold"
            entries.append(MenuEntry(f"Die {i + 1} ({face_name(v, faces)}): {state}", "die", index=i))
    if not hint_button:
        # the panel has no HINT: the card is a menu line, last (never where the cursor starts)
        entries.append(MenuEntry(HOW_TO_PLAY, "help"))
    return entries


def first_entry(exp: Decide, entries: Sequence[MenuEntry]) -> int:
    """Where the cursor starts: on the first real choice, "throw again" if offered, else the
    best-scoring option; never on an abandon (a quick double OK would give up the hand)."""
    first = next((i for i, e in enumerate(entries) if e.action == "reroll"), None)
    if first is not None:
        return first
    scored = [(e.points, -i) for i, e in enumerate(entries) if e.action == "option" and e.points is not None]
    quits = {o.key for o in exp.options if is_abandon(o)}
    options = [i for i, e in enumerate(entries) if e.action == "option"]
    return (-max(scored)[1] if scored
            else next((i for i in options if entries[i].key not in quits), options[0] if options else 0))


def chosen_words(entry: MenuEntry, tray_values: Sequence[int], holds: Sequence[bool],
                 faces: Sequence[str] | None) -> str:
    """A menu line as the choice it makes, for the take-back messages ("Throw 3 again, keeping
    K K", "Chance, 22 points")."""
    if entry.action == "reroll":
        kept = [face_name(v, faces) for v, h in zip(tray_values, holds) if h]
        return entry.label + (f", keeping {' '.join(kept)}" if kept else "")
    if entry.points is not None:
        label = f"{entry.label}: {entry.note}" if entry.note else entry.label
        return f"{label}, {entry.points} point{'' if entry.points in (1, -1) else 's'}"
    return entry.label


def holds_fit(exp, player: int, values: Sequence[int]) -> bool:
    """Whether dice of `values` can be held by `player` at the expectation `exp`: a decision in
    the open (a secret one's holds are never shown before its player opens the menu) where they
    may throw again, with those dice among its own."""
    return (isinstance(exp, Decide) and exp.reroll is not None and not exp.secret and exp.player == player
            and multiset_contains(exp.reroll.dice, list(values)))


def holds_of(tray_values: Sequence[int], values: Sequence[int]) -> list[bool]:
    """The holds that hold dice of `values` on the tray `tray_values`, by value, as the rules keep
    them (which of two alike dice is marked does not matter)."""
    left = list(values)
    holds = []
    for v in tray_values:
        holds.append(v in left)
        if v in left:
            left.remove(v)
    return holds


def secret_chosen_words(who: str, made: Decide, now: Expectation) -> str:
    """The banner after `who`'s secret choice `made`: said to be all theirs only when it is. A
    player with a second secret choice to make (the 2-player variant's second card, on the menu
    they opened) was told *Ann has chosen (kept secret)* over that open menu: she could take it
    for done and turn away, leaving her hand on the shared screen and her choice to the next
    presses, anyone's."""
    if isinstance(now, Decide) and now.secret and now.player == made.player:
        return f"{who} has chosen (kept secret). {who}: one more choice, on this menu."
    return f"{who} has chosen (kept secret)."


def is_final(exp: Decide, data: Input) -> bool:
    """Whether a choice stands for good, never offered back by BACK twice: a secret one (anyone
    could press BACK, and its player alone knows whether it was a slip), or one that showed what
    was secret (objective cards' STOP turns every card over: chosen again, knowing them)."""
    return exp.secret or exp.reveals(data)


def is_abandon(option) -> bool:
    """A game's own abandon choice (Pok'n Roll's hand), which the ABANDON button makes."""
    return option.key == "ABANDON" or option.group == "abandon"
