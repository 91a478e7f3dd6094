"""Play any game in a terminal with real dice: players type the values they read off the table.

This is the table without a camera. It asks the same questions the screen will ask, and bad
typing gets a clear message and the question again, never a traceback.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Callable, TextIO

from .draws import draw
from .rules import Decide, GameState, IllegalInput, Throw
from .rules.base import Input, RerollSpec, choose_input, cut, dice_input, multiset_contains, reroll_input, shown
from .tablelog import LogError, TableLog
from .terminal_sheet import sheet_text

HELP = ("Commands: 'sheet' shows the score sheet, 'rules' how the game is played, 'undo' takes back the "
        "last thing typed (a typo in the dice, a slip on the choices; not a secret choice, nor a choice "
        "that turned cards over), 'quit' stops (a game played with --log is kept), 'help' this text.\n"
        "To keep dice and throw the others again: 'keep' (or 'k' where no face is a King) and the dice to keep.")


class InputError(ValueError):
    """What the player typed cannot be understood; the message says what is expected."""


def face_labels(expect: Throw | None) -> list[str]:
    if expect is not None and expect.faces:
        return list(expect.faces)
    return [str(v) for v in range(1, 7)]


def game_labels(log: TableLog) -> list[str]:
    """The face labels of the game, even when play starts at a decision (a resumed log).

    Every game starts with a Throw, and a game's face labels depend only on its options.
    """
    try:
        first = log.start().expects()
    except LogError:
        return face_labels(None)
    return face_labels(first if isinstance(first, Throw) else None)


def keep_words(labels: list[str]) -> tuple[str, ...]:
    """'keep' always; the short 'k' only where no face is labelled K ('K K' must mean two Kings)."""
    if any(label.upper() == "K" for label in labels):
        return ("keep",)
    return ("keep", "k")


def _keep_command(text: str, labels: list[str]) -> str | None:
    """The dice part of 'keep 6 6' / 'k 66' / 'k:6,6', or None if `text` is not a keep command."""
    low = text.lower()
    for word in keep_words(labels):
        if low.startswith(word) and (len(low) == len(word) or low[len(word)] in " ,:;0123456789"):
            return text[len(word):].strip(" :,;")
    return None


def parse_dice(text: str, labels: list[str], count: int = 3) -> list[int]:
    """'3 3 5', '3,3,5', '335' (pips) or 'K K 10' (poker faces) -> faces 1..6. `count`: the
    dice asked for, as many as an empty line's example shows (Pok'n Roll's one white die
    was answered "e.g. 3 3 5")."""
    text = text.strip()
    if not text:
        example = [labels[i] for i in (2, 2, 4, 1, 5, 0) * 2][:max(1, count)]
        raise InputError(f"type the dice values, e.g. {' '.join(example)}")
    tokens = [t for t in re.split(r"[\s,;]+", text) if t]
    pips = labels == [str(v) for v in range(1, 7)]
    if pips and len(tokens) == 1 and tokens[0].isdigit():
        tokens = list(tokens[0])
    lookup = {label.upper(): i + 1 for i, label in enumerate(labels)}
    values = []
    for tok in tokens:
        face = lookup.get(tok.upper())
        if face is None:
            raise InputError(f"{shown(tok)} is not a die face (faces: {' '.join(labels)}{_pips_key(tok, labels)})")
        values.append(face)
    return values


def _pips_key(tok: str, labels: list[str]) -> str:
    """For pips typed in a game of other faces (Classic's 9 10 J Q K A, thrown with ordinary
    dice, whose players read 1 to 6): the key the table's prompt gives, "1=9 ... 6=A"."""
    if labels == [str(v) for v in range(1, 7)] or tok not in {"1", "2", "3", "4", "5", "6"}:
        return ""
    return "; on ordinary dice " + " ".join(f"{i}={label}" for i, label in enumerate(labels, 1))


def parse_decision(text: str, expect: Decide, labels: list[str]) -> Input:
    """A number from the list, an option key, or 'k ...' to keep dice and throw the rest."""
    text = text.strip()
    if not text:
        raise InputError("choose a number from the list")
    low = text.lower()
    spaced = " ".join(low.replace("_", " ").split())
    for opt in expect.options:   # an option's own key or label first ("Keep all 5" is not a keep command)
        # (its key also with spaces: "raise 4" for RAISE_4, whose label is "Raise to 4", was refused
        # while "bet 2" passed; "two pairs" for TWO_PAIRS, labelled "2 pairs" in Thirteen)
        if low in (opt.key.lower(), opt.label.lower()) or spaced == opt.key.lower().replace("_", " "):
            return choose_input(expect.player, opt.key)
    if expect.reroll is not None:
        rest = _keep_command(text, labels)
        if rest is not None:
            keep = parse_dice(rest, labels) if rest else []
            if not multiset_contains(expect.reroll.dice, keep):
                # (the rules' own words name the dice as numbers: "cannot keep [6, 6]" of K K 9 J A)
                raise InputError(f"cannot keep {cut(show_dice(sorted(keep), labels))}: the dice are "
                                 f"{show_dice(expect.reroll.dice, labels)}")
            return reroll_input(expect.player, keep)
    # ASCII digits only: str.isdigit() also takes '²' (beside the 1 on a French keyboard) and
    # '¹', which int() refuses; and a number past 4,300 digits, which int() refuses as well
    if re.fullmatch(r"[0-9]+", text):
        n = int(text) if len(text) <= 9 else 0      # (0: out of the list, as any huge number is)
        if not 1 <= n <= len(expect.options):
            raise InputError(f"choose a number from 1 to {len(expect.options)}")
        return choose_input(expect.player, expect.options[n - 1].key)
    if expect.reroll is not None:
        try:
            typed = parse_dice(text, labels)
        except InputError:
            pass
        else:   # bare dice: say how to keep them rather than guess
            raise InputError(keep_advice(text, typed, expect.reroll, labels))
    raise InputError(f"{shown(text)} is not one of the choices")


def keep_advice(text: str, typed: list[int], spec: RerollSpec, labels: list[str]) -> str:
    """What to type for dice typed bare at a decision: 'k' and them, when keeping them is legal;
    else how to score or what may be kept (all five dice typed again got 'e.g. k 4 4 4 4 1',
    which is then refused: keeping all five is not a throw)."""
    word = keep_words(labels)[-1]
    rethrow = len(spec.dice) - len(typed)
    if multiset_contains(spec.dice, typed) and spec.min_rethrow <= rethrow <= spec.max_rethrow:
        return f"to keep dice and throw the others again, type {word!r} and the dice, e.g. {word} {text}"
    return (f"to score the dice, choose a number from the list; to throw some again, type {word!r} "
            f"and the dice to keep, from {show_dice(spec.dice, labels)}")


def show_dice(values, labels: list[str]) -> str:
    return " ".join(labels[v - 1] for v in values)


def describe(state: GameState, expect: Throw | Decide, labels: list[str]) -> str:
    who = state.player_name(expect.player)
    if isinstance(expect, Throw):
        lines = [expect.prompt or f"{who}: throw {expect.count} dice"]
        if expect.held:
            lines.append(f"  held on the table: {show_dice(expect.held, labels)}")
        faces = "" if labels == [str(v) for v in range(1, 7)] else f" ({' '.join(labels)})"
        lines.append(f"  type the {expect.count} value(s) you read off the new dice{faces}:")
        return "\n".join(lines)
    lines = [expect.prompt or f"{who}: decide"]
    for i, opt in enumerate(expect.options, 1):
        pts = f"  ({opt.points:+d})" if opt.points is not None else ""
        lines.append(f"  {i:>2}. {opt.label}{': ' + opt.note if opt.note else ''}{pts}")
    if expect.reroll is not None:
        spec = expect.reroll
        lines.append(f"  {keep_words(labels)[-1]} <dice to keep>: keep those and throw the others again"
                     f" (dice: {show_dice(spec.dice, labels)})")
    return "\n".join(lines)


def play_terminal(state: GameState, log: TableLog, ask: Callable[[str], str], out: TextIO,
                  save: Callable[[], None] | None = None, rng: random.Random | None = None,
                  resume: str = "") -> GameState:
    """Run the game to its end (or until 'quit' / end of input). Returns the last state.
    Dice nobody throws (`Throw.drawn`) are drawn here (`controller.draws`). `resume`: the
    command that goes on with the game saved (none: it is not saved)."""
    labels = game_labels(log)
    last_sheet_status = None
    shown_notes = tuple(state.sheet().notes)      # what the game said before this session
    undo = Undo("the game was resumed" if log.inputs else "the start")
    while not state.is_over:
        expect = state.expects()
        if isinstance(expect, Throw):
            labels = face_labels(expect)
        sheet = state.sheet()
        if sheet.status != last_sheet_status:
            print("\n" + sheet.status, file=out)
            last_sheet_status = sheet.status
        if isinstance(expect, Throw) and expect.drawn:
            data = draw(expect, rng)
            state = state.apply(data)
            print(f"{expect.prompt}: drawn {show_dice(data['values'], labels)}", file=out)
            shown_notes = tell_notes(state, shown_notes, out)
            log.inputs.append(data)
            undo.stands(len(log.inputs), "the last dice drawn")   # (a draw is not there to be tried again)
            if save:
                save()
            continue
        print(describe(state, expect, labels), file=out)
        try:
            text = ask("> ")
        except EOFError:
            print(f"\nEnd of input: the game stops here. {kept_words(resume)}", file=out)
            return state
        except KeyboardInterrupt:     # (Ctrl-C: the program ends as interrupted, saying what is kept)
            print(f"\nInterrupted: the game stops here. {kept_words(resume)}", file=out)
            raise
        cmd = text.strip().lower()
        if cmd in ("quit", "exit", "q"):
            print(f"Stopped. {kept_words(resume)}", file=out)
            return state
        if cmd in ("help", "?"):
            print(HELP, file=out)
            continue
        if cmd == "sheet":
            print(sheet_text(state, expect), file=out)
            continue
        if cmd == "rules":
            card = state.rules_card(state.options)
            print(f"How to play {state.title}:\n" + "\n".join(f"  - {p}" for p in card), file=out)
            continue
        if cmd == "undo":
            if not undo.states:
                print(f"  ! {undo.refusal(len(log.inputs))}", file=out)
                continue
            state = undo.states.pop()
            undone = log.inputs.pop()
            print(f"  Undone: {_said(undone, state.expects(), labels)}.", file=out)
            last_sheet_status = None
            if save:
                save()
            continue
        try:
            if isinstance(expect, Throw):
                data = dice_input(expect.player, parse_dice(text, labels, expect.count))
            else:
                data = parse_decision(text, expect, labels)
            previous, state = state, state.apply(data)
        except (InputError, IllegalInput) as exc:
            print(f"  ! {exc}. Try again.", file=out)
            continue
        shown_notes = tell_notes(state, shown_notes, out)
        log.inputs.append(data)
        why = standing(previous, expect, data)
        if why:
            undo.stands(len(log.inputs), why[0], why[1])
        else:
            undo.states.append(previous)
        if save:
            save()
    print("\n" + state.sheet().to_text(), file=out)
    print("\n" + state.result().to_text(), file=out)
    return state


def kept_words(resume: str) -> str:
    """What is left of a game stopped before its end. Each stop said "the log keeps every input
    so far", also of a game played without --log, which nothing kept: its players looked for
    a log to go on with."""
    if resume:
        return f"The log keeps every input so far: {resume} goes on with it."
    return "This game was not saved (a game started with --log FILE is kept, to go on with later)."


@dataclass
class Undo:
    """What 'undo' may take back: the inputs typed this session, back to the last one that stands
    for good (dice the program drew, a choice the table never takes back either)."""

    since: str                                # what undo cannot go back past, in words
    states: list[GameState] = field(default_factory=list)   # the state before each input it may undo
    why: str = ""                             # why the input it stops at stands, while it is the last
    at: int = 0                               # that input's number (the log's length after it)

    def stands(self, inputs: int, since: str, why: str = "") -> None:
        """Input number `inputs` stands for good: nothing before it is undone either."""
        self.states.clear()
        self.since, self.why, self.at = since, why, inputs

    def refusal(self, inputs: int) -> str:
        """The line said to an 'undo' with nothing to take back, the game having `inputs` inputs:
        why the last one stands, when it is the one that does, else how far undo went."""
        if self.why and self.at == inputs:
            return self.why
        return f"Nothing to undo since {self.since}."


def standing(before: GameState, expect: Throw | Decide, data: Input) -> tuple[str, str] | None:
    """Why a choice stands for good, as at the table, where BACK twice never takes it back (the
    terminal's undo took a secret choice back, and named the card it undid): (what undo stops at, in
    words; the line that says why), or None for an input undo may take back."""
    if not isinstance(expect, Decide):
        return None
    who = before.player_name(expect.player)
    if expect.secret:
        return (f"{who}'s secret choice", f"{who}'s secret choice stands: only {who} knows whether it was a "
                "slip (undo takes back nothing from before it).")
    if expect.reveals(data):
        label = expect.option(data["option"]).label
        return ("the cards were turned over", f"{who}'s choice '{label}' stands: it turned the cards over, "
                "and chosen again it would be chosen knowing them.")
    return None


def tell_notes(state: GameState, shown: tuple[str, ...], out: TextIO) -> tuple[str, ...]:
    """Print the sheet's notes not shown yet (what the last input did: a score doubled, an award
    won or lost), as the table's banner says them; return the notes now on the sheet. At the end
    the final sheet prints them."""
    notes = tuple(state.sheet().notes)
    if not state.is_over:
        for note in notes:
            if note not in shown:
                print(f"  note: {note}", file=out)
    return notes


def _said(data: Input, expect, labels: list[str]) -> str:
    """An input in the words the players saw, to say what 'undo' took back."""
    if data.get("type") == "dice":
        return "the dice " + show_dice(data["values"], labels)
    if data.get("type") == "reroll":
        return "keep " + (show_dice(data["keep"], labels) or "nothing") + " and throw the others again"
    label = next((o.label for o in getattr(expect, "options", ()) if o.key == data.get("option")), data.get("option"))
    return f"the choice {label}"
