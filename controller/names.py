"""Players' names as they come in from outside the menu (the config's seats, `--players`).

The menu's letters make a one-line name the screen can draw; a name typed in the config file
or on a command line can hold anything: a tab or a line break (TOML's "A\\tB", a pasted name),
an invisible mark, letters the screen's font does not have (日本, 한국, العربية, emoji: each
drawn "?", so two such names look alike). They are cleaned, or said, where they come in.
"""
from __future__ import annotations

import unicodedata

from display.draw import has_glyph


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
    seen: list[str] = []
    for ch in name:
        if not ch.isspace() and not has_glyph(ch) and ch not in seen:
            seen.append(ch)
    return "".join(seen)


def shown_name(name: str) -> str:
    """`name` as the table can show it: the symbols no font of the machine has left out (an
    emoji typed after a name: "Zoë 🎲" is "Zoë"; the seat was offered as "Player 4"), "" when a
    letter of it has none (王小明 where no Chinese font is installed) or no letter is left."""
    kept = []
    for ch in name:
        if ch.isspace() or has_glyph(ch):
            kept.append(ch)
        elif unicodedata.category(ch)[0] not in "SPMC":     # a letter or a digit: the name is lost
            return ""
    shown = " ".join("".join(kept).split())
    return shown if any(unicodedata.category(ch)[0] in "LN" for ch in shown) else ""


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
