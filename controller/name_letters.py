"""The accented letters of a name typed with the buttons: Zoë, Søren, Łukasz, José-María.

The menu's letter cycle is A-Z, a-z, digits, space and -'. : a café player could type "Zoe",
"Soren", "Lukasz", never their name. Putting every accented letter in the cycle would make each
plain letter a long way off, so the accents are one step aside: a long DOWN on a letter turns it
into the next of its accented forms (e, é, è, ê, ë, ē, ... and back to e), and UP/DOWN go on from
its plain letter. The forms are those of Latin-1 and Latin Extended-A (and Romanian's ș ț),
which the bundled font draws, and the letters with a stroke or joined (ø, ł, đ, ß, æ, œ).
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

#: letters whose plain letter Unicode does not decompose to, as a keyboard without them writes them
_AKIN = {"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ß": "s", "æ": "a", "Æ": "A",
         "œ": "o", "Œ": "O", "ð": "d", "Ð": "D", "þ": "t", "Þ": "T", "ı": "i", "ħ": "h", "Ħ": "H",
         "ŧ": "t", "Ŧ": "T"}
_RANGES = (range(0xC0, 0x180), range(0x218, 0x21C))     # Latin-1, Latin Extended-A; Ș ș Ț ț


def plain(ch: str) -> str:
    """The plain letter `ch` is an accented form of ("é": "e", "Ł": "L"), else `ch` itself."""
    if ch in _AKIN:
        return _AKIN[ch]
    base = unicodedata.normalize("NFD", ch)[:1]
    return base if len(ch) == 1 and base.isascii() and base.isalpha() and base != ch else ch


@lru_cache(maxsize=1)
def _forms() -> dict[str, tuple[str, ...]]:
    forms: dict[str, list[str]] = {}
    for cp in (c for r in _RANGES for c in r):
        ch = chr(cp)
        if ch.isalpha() and plain(ch) != ch:
            forms.setdefault(plain(ch), []).append(ch)
    return {base: (base, *others) for base, others in forms.items()}


def accents_of(ch: str) -> tuple[str, ...]:
    """`ch`'s plain letter and its accented forms, in the order a long DOWN turns through them;
    () for a letter without any (b, q, a digit, a space)."""
    return _forms().get(plain(ch), ())


def next_accent(ch: str) -> str:
    """The form a long DOWN turns `ch` into (the first again after the last); `ch` if it has none."""
    forms = accents_of(ch)
    if not forms:
        return ch
    return forms[(forms.index(ch) + 1) % len(forms)] if ch in forms else forms[0]
