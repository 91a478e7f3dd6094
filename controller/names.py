"""Players' names as they come in from outside the menu (the config's seats, `--players`).

The menu's letters make a one-line name the screen can draw; a name typed in the config file
or on a command line can hold anything: a tab or a line break (TOML's "A\\tB", a pasted name),
an invisible mark, letters the screen's font does not have (日本, 한국, العربية, emoji: each
drawn "?", so two such names look alike). They are cleaned, or said, where they come in.
"""
from __future__ import annotations

import unicodedata


def clean_name(raw: str) -> str:
    """`raw` on one line: each run of spaces, tabs and line breaks one space, other control
    characters and invisible format marks left out, no space at either end; letters composed
    (NFC: an editor's "e" + combining diaeresis is "ë", which the font has, and the same name
    typed either way is one name)."""
    out = []
    for ch in unicodedata.normalize("NFC", str(raw)):
        kind = unicodedata.category(ch)
        if ch.isspace() or kind in ("Zl", "Zp"):
            out.append(" ")
        elif kind not in ("Cc", "Cf"):
            out.append(ch)
    return " ".join("".join(out).split())


def undrawable(name: str) -> str:
    """The letters of `name` the table's screen cannot draw (each in order, once), "" for none."""
    from display.draw import has_glyph      # (here: a log read without a screen needs no pygame)

    seen: list[str] = []
    for ch in name:
        if not ch.isspace() and not has_glyph(ch) and ch not in seen:
            seen.append(ch)
    return "".join(seen)


def shown_name(name: str) -> str:
    """`name` as the table can show it: the symbols no font of the machine has left out (an
    emoji typed after a name: "Zoë 🎲" is "Zoë"; the seat was offered as "Player 4"), "" when a
    letter of it has none (王小明 where no Chinese font is installed) or no letter is left."""
    from display.draw import has_glyph

    kept = []
    for ch in name:
        if ch.isspace() or has_glyph(ch):
            kept.append(ch)
        elif unicodedata.category(ch)[0] not in "SPMC":     # a letter or a digit: the name is lost
            return ""
    shown = " ".join("".join(kept).split())
    return shown if any(unicodedata.category(ch)[0] in "LN" for ch in shown) else ""


def logged_names(raw: list[str]) -> list[str]:
    """The players' names of a table log or a journal, as those typed anywhere else are: cleaned
    to one line and composed (NFC). A header edited by hand, or written by a build that did not
    clean them, held "Ann\\nB" (the terminal's prompt broke over two lines) or a decomposed "Zoë"
    (`--players Zoë` did not match it on a resume). A name that cleaning would empty or make
    another's is kept apart by its seat ("Zoë #2"), not refused: the game is not lost over it.
    Names the rules refuse as they were (empty, repeated) are left so, for the rules to say."""
    if not all(name.strip() for name in raw) or len(set(raw)) < len(raw):
        return list(raw)
    out: list[str] = []
    for seat, name in enumerate(raw):
        cleaned = clean_name(name)
        if not cleaned:
            cleaned = free_name(seat, set(out) | set(raw))
        elif cleaned in out:
            cleaned = f"{cleaned} #{seat + 1}"
            if cleaned in out or cleaned in raw:
                cleaned = free_name(seat, set(out) | set(raw))
        out.append(cleaned)
    return out


def players_from(text: str | None, what: str = "--players") -> list[str]:
    """The names of `--players Ann,Bob`, each cleaned to one line ([] for none). ValueError for
    an empty one: ",Bob" or "Ann,,Bob" was a missing name, and the game started without it."""
    names = [clean_name(part) for part in (text or "").split(",")]
    if not any(names):
        return []
    if not all(names):
        raise ValueError(f"{what} {text!r}: an empty name between commas "
                         "(names are separated by commas, so a name cannot hold one)")
    return names


def free_name(seat: int, taken: set[str]) -> str:
    """"Player N" for seat `seat` (0 first), the next free number if another seat has it."""
    n = seat + 1
    while f"Player {n}" in taken:
        n += 1
    return f"Player {n}"


def stand_in(name: str, seat: int, taken: set[str]) -> str:
    """The name seat `seat` plays under when the screen cannot draw a letter of `name`: what of
    it the screen can show (an emoji left out), else "Player N"; never one of `taken`."""
    shown = shown_name(name)
    return shown if shown and shown not in taken else free_name(seat, taken)


def drawable_players(names: list[str]) -> tuple[list[str], str]:
    """`names` as a game shown on the table's screen plays them, and what was changed ("" for
    nothing). The menu offered "Player 1" for a seat named 王小明 where no font has its letters,
    but a game started from a command line or a script (`dicetable play --players 王小明,Ann
    --screenshots DIR`) was drawn "???", and two such names "??? #1", "?? #3": each path now
    takes the same stand-in, and says so."""
    out = list(names)
    said = []
    for seat, name in enumerate(names):
        if not undrawable(name):
            continue
        out[seat] = stand_in(name, seat, set(out[:seat] + out[seat + 1:]))
        said.append(f"Seat {seat + 1}'s name has letters this screen lacks: it is {out[seat]} for now.")
    return out, " ".join(said)
