"""A move's notes as the banner's pages.

A move can leave several notes (School's last entry: the entry, a row award, a column award,
"Game over"); the banner draws four lines, and the table showed the last two notes joined, so
the row award of School's last entry was never on screen. Here the notes are joined (" · ") into
one page while the page fits the banner, and a page starts again where the next note does not
fit. A note too long for a banner alone (an Objective cards round of captures at 320x240) is cut
between words into pages of its own, "…" saying where it goes on. The table shows the pages in
turn; every word of every note is on one of them.
"""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

from .word_break import cut_at

JOIN = " · "
MORE = "…"
GLUE = "\0"          # (marks a piece of a word cut into pieces: see _join)


def banner_pages(notes: Sequence[str], holds: Callable[[str], bool]) -> list[str]:
    """The pages of `notes`, each one `holds` (drawn whole in the banner), in the notes' order."""
    pages: list[str] = []
    for piece in (p for note in notes for p in _pieces(note, holds)):
        if pages and holds(pages[-1] + JOIN + piece):
            pages[-1] += JOIN + piece
        else:
            pages.append(piece)
    return pages


def _pieces(note: str, holds: Callable[[str], bool]) -> Iterable[str]:
    """`note` whole if it holds, else cut between words, each piece but the last ending in "…"
    and each but the first starting with it. (A word too wide for a page alone is a piece of
    its own, and a word too long for a page is cut into pages: see `_word_pieces`.)"""
    if holds(note):
        yield note
        return
    words, start = [piece for word in note.split() for piece in _word_pieces(word, holds)], ""
    while words:
        taken = 1
        while taken < len(words) and holds(_join([start] * bool(start) + words[:taken + 1]
                                                 + [MORE] * (taken + 1 < len(words)))):
            taken += 1
        last = taken == len(words)
        yield _join([start] * bool(start) + words[:taken] + [MORE] * (not last))
        words, start = words[taken:], MORE


def _word_pieces(word: str, holds: Callable[[str], bool]) -> list[str]:
    """`word` whole if a page holds it between two "…", else cut (after a "/", "_", "-" where it
    can) into pieces that do: a button box's /dev/serial/by-id/... path took six lines of a
    320x240 banner that draws four, and lost its end (which box) below the banner's foot."""
    def fits(piece: str) -> bool:
        return holds(f"{MORE} {piece} {MORE}")

    pieces: list[str] = []
    while not fits(word) and len(word) > 1:
        cut = cut_at(word, fits)
        pieces.append(word[:cut])
        word = word[cut:]
    return [GLUE * bool(i) + piece for i, piece in enumerate(pieces + [word])]


def _join(parts: list[str]) -> str:
    """`parts` joined by spaces, but a word's later piece (`GLUE`) joined to the piece before it
    with none: a path cut into pieces read "...-20261127- 020900-damaged.jsonl" on one page."""
    return " ".join(parts).replace(f"{MORE} {GLUE}", f"{MORE} ").replace(f" {GLUE}", "")
