"""The accented letters of a name typed with the buttons: Zoë, Søren, Łukasz, José-María.

The menu's letter cycle is A-Z, a-z, digits, space and -'. : a café player could type "Zoe",
"Soren", "Lukasz", never their name. Putting every accented letter in the cycle would make each
plain letter a long way off, so the accents are one step aside: a long DOWN on a letter turns it
into the next of its accented forms (e, é, è, ê, ë, ē, ... and back to e), and UP/DOWN go on from
its plain letter. The forms are those of Latin-1 and Latin Extended-A (and Romanian's ș ț),
which the bundled font draws, and the letters with a stroke or joined (ø, ł, đ, ß, æ, œ).

Greek and Cyrillic names (Ελένη, Дмитрий) had no letters at all. Each is an alphabet of its own,
never in the Latin cycle (which would put the Latin letters further off): a long DOWN on the "_"
that ends the name turns the alphabet of that letter (Latin, Greek, Cyrillic, Latin ...), and UP/
DOWN then go through that alphabet (capitals, small letters, then the digits and signs all share);
a letter takes the alphabet of the one before it, so a name is switched once, not each letter. A
long DOWN on a Greek or Cyrillic letter turns it into its accented forms as on a Latin one
(ε, έ; ι, ί, ϊ, ΐ; е, ѐ, ё; и, ѝ, й).
"""
from __future__ import annotations

import string
import unicodedata
from functools import lru_cache

#: letters whose plain letter Unicode does not decompose to, as a keyboard without them writes them
_AKIN = {"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ß": "s", "æ": "a", "Æ": "A",
         "œ": "o", "Œ": "O", "ð": "d", "Ð": "D", "þ": "t", "Þ": "T", "ı": "i", "ħ": "h", "Ħ": "H",
         "ŧ": "t", "Ŧ": "T"}
_RANGES = (range(0xC0, 0x180), range(0x218, 0x21C),     # Latin-1, Latin Extended-A; Ș ș Ț ț
           range(0x386, 0x3D0), range(0x400, 0x460))    # Greek's accented letters, Cyrillic's

LATIN, GREEK, CYRILLIC = "Latin", "Greek", "Cyrillic"
#: each alphabet's letters in the order UP goes through them (its accented forms: a long DOWN)
ALPHABETS: dict[str, str] = {
    LATIN: string.ascii_uppercase + string.ascii_lowercase,
    GREEK: "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ" "αβγδεζηθικλμνξοπρσςτυφχψω",
    CYRILLIC: "АБВГҐДЕЄЖЗИІКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ" "абвгґдеєжзиіклмнопрстуфхцчшщъыьэюя",
}
#: what every alphabet's cycle ends with, after its letters
SHARED = string.digits + " -'."


def plain(ch: str) -> str:
    """The plain letter `ch` is an accented form of ("é": "e", "Ł": "L"), else `ch` itself."""
    if ch in _AKIN:
        return _AKIN[ch]
    base = unicodedata.normalize("NFD", ch)[:1]
    return base if len(ch) == 1 and base != ch and alphabet_of(base) is not None else ch


def alphabet_of(ch: str) -> str | None:
    """The alphabet whose cycle holds `ch` or its plain letter (Latin, Greek, Cyrillic), None for
    a digit, a sign, the end mark or a letter of none."""
    for name, letters in ALPHABETS.items():
        if ch in letters:
            return name
    base = unicodedata.normalize("NFD", ch)[:1] if len(ch) == 1 else ""
    if ch in _AKIN:
        base = _AKIN[ch]
    return next((name for name, letters in ALPHABETS.items() if base and base in letters), None)


def next_alphabet(name: str) -> str:
    """The alphabet a long DOWN on the end mark turns to: Latin, Greek, Cyrillic, Latin ..."""
    names = list(ALPHABETS)
    return names[(names.index(name) + 1) % len(names)] if name in names else LATIN


@lru_cache(maxsize=1)
def _forms() -> dict[str, tuple[str, ...]]:
    forms: dict[str, list[str]] = {}
    for cp in (c for r in _RANGES for c in r):
        ch = chr(cp)
        if ch.isalpha() and plain(ch) != ch:
            forms.setdefault(plain(ch), []).append(ch)
    # (by code point, Greek's letters with two marks, ΐ ΰ, after those with one: ι, ί, ϊ, ΐ)
    return {base: (base, *sorted(others, key=lambda ch: (len(unicodedata.normalize("NFD", ch)) > 2, ch)))
            for base, others in forms.items()}


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
