"""Letters the bundled font lacks, drawn with a font of the machine's that has them.

pygame's bundled font has Latin-1, Latin Extended-A, Greek and Cyrillic: a café's Nguyễn,
محمد or דוד were drawn "Nguy?n", "?ح??" and "???", and a seat named so in the config was
offered as "Player 3". The machine's own fonts (DejaVu on Raspberry Pi OS and Debian; Noto CJK
or WenQuanYi where the staff installed them) often have those letters: a letter the bundled font
lacks is drawn with the first of them that has it (nothing downloaded; none found, the letter
stays "?", and a name with such letters is offered under a stand-in, see controller.names).

The screen draws left to right, one glyph a letter: Hebrew and Arabic came out backwards, and
Arabic's letters unjoined. A right-to-left run is drawn in its visual order, Arabic's letters in
their joined forms (the Unicode presentation forms: a letter's form depends on its neighbours).
`TableFont` measures and draws the same way, so that a layout measured is the layout drawn.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

import pygame

#: families looked at first, in order (sans faces like the bundled one, then wide-coverage ones);
#: the machine's other fonts after them. Colour emoji fonts are left out: pygame cannot scale them.
PREFERRED = ("dejavusans", "notosans", "freesans", "liberationsans", "notosanscjksc", "notosanscjk",
             "notosanscjkjp", "notosanscjkkr", "wenquanyizenhei", "wenquanyimicrohei", "droidsansfallbackfull",
             "droidsansfallback", "nanumgothic", "unfonts", "notosansarabic", "notosanshebrew", "symbola",
             "unifont")
_LEFT_OUT = ("color", "emoji")      # (NotoColorEmoji has bitmaps at one size only: pygame raises)


def _freetype():
    import pygame.freetype

    if not pygame.freetype.get_init():
        pygame.freetype.init()
    return pygame.freetype


@lru_cache(maxsize=1)
def _bundled():
    return _freetype().Font(None, 12)     # the same file `theme.font` loads


@lru_cache(maxsize=4096)
def bundled_has(ch: str) -> bool:
    """Whether pygame's bundled font has a glyph for `ch`. (`pygame.font.Font.metrics` cannot
    tell: it gives the metrics of the font's empty box for a glyph it lacks; freetype gives none.)"""
    if ch.isascii():
        return ch.isprintable()
    return _bundled().get_metrics(ch)[0] is not None


@lru_cache(maxsize=1)
def fallback_paths() -> tuple[str, ...]:
    """The machine's font files to draw a letter the bundled font lacks, in the order tried."""
    if not pygame.font.get_init():
        pygame.font.init()
    try:
        names = pygame.font.get_fonts()
    except Exception:               # (no fc-list, no font folder: none)
        return ()
    order = [n for n in PREFERRED if n in names] + sorted(n for n in names if n not in PREFERRED)
    paths: list[str] = []
    for name in order:
        if any(word in name for word in _LEFT_OUT):
            continue
        path = pygame.font.match_font(name, bold=True)    # (the bundled font is a bold one)
        if path and path not in paths:
            paths.append(path)
    return tuple(paths)


@lru_cache(maxsize=64)
def _probe(path: str):
    try:
        return _freetype().Font(path, 12)
    except Exception:               # (a font file that cannot be read: not used)
        return None


@lru_cache(maxsize=4096)
def fallback_for(ch: str) -> str | None:
    """The first of `fallback_paths` with a glyph for `ch`, None if none has it."""
    for path in fallback_paths():
        probe = _probe(path)
        try:
            if probe is not None and probe.get_metrics(ch)[0] is not None:
                return path
        except Exception:
            continue
    return None


def can_draw(ch: str) -> bool:
    """Whether the screen can draw `ch`: with the bundled font, or with one of the machine's."""
    return bundled_has(ch) or fallback_for(ch) is not None


# ---- right to left

def is_rtl(ch: str) -> bool:
    """A letter of a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko...)."""
    return unicodedata.bidirectional(ch) in ("R", "AL")


def _form(ch: str, form: str) -> str | None:
    """Arabic letter `ch` in its presentation `form` ("ISOLATED", "FINAL", "INITIAL", "MEDIAL")."""
    try:
        return unicodedata.lookup(f"{unicodedata.name(ch)} {form} FORM")
    except (KeyError, ValueError):
        return None


def _joins_both(ch: str) -> bool:
    """A dual-joining Arabic letter (BEH, MEEM: joins the letters on both sides)."""
    return _form(ch, "INITIAL") is not None


def _joins_before(ch: str) -> bool:
    """An Arabic letter that joins the letter before it (dual-joining, or right-joining: ALEF, DAL)."""
    return _form(ch, "FINAL") is not None


_LAM = "\u0644"
_LAM_ALEF = {"\u0627": "ARABIC LIGATURE LAM WITH ALEF", "\u0622": "ARABIC LIGATURE LAM WITH ALEF WITH MADDA ABOVE",
             "\u0623": "ARABIC LIGATURE LAM WITH ALEF WITH HAMZA ABOVE",
             "\u0625": "ARABIC LIGATURE LAM WITH ALEF WITH HAMZA BELOW"}


def shape_arabic(text: str) -> str:
    """`text` (logical order) with each Arabic letter in the form its neighbours give it, and
    LAM + ALEF as their one ligature (written so, always). Marks (harakat) are passed over."""
    letters = [i for i, ch in enumerate(text) if not unicodedata.category(ch).startswith("M")]
    out = list(text)
    for k, i in enumerate(letters):
        ch = text[i]
        if _form(ch, "ISOLATED") is None and not _joins_before(ch):
            continue
        prev = text[letters[k - 1]] if k > 0 else ""
        nxt = text[letters[k + 1]] if k + 1 < len(letters) else ""
        after = prev and _joins_both(prev) and _joins_before(ch)
        if ch == _LAM and nxt in _LAM_ALEF:
            out[i] = unicodedata.lookup(f"{_LAM_ALEF[nxt]} {'FINAL' if after else 'ISOLATED'} FORM")
            out[letters[k + 1]] = ""
            continue
        if out[i] == "":
            continue                # (the ALEF of a LAM-ALEF ligature)
        before = nxt and _joins_both(ch) and _joins_before(nxt)
        form = {(True, True): "MEDIAL", (True, False): "FINAL", (False, True): "INITIAL"}.get(
            (bool(after), bool(before)), "ISOLATED")
        out[i] = _form(ch, form) or _form(ch, "ISOLATED") or ch
    return "".join(out)


def _clusters(run: str) -> list[str]:
    """`run` cut into letters with their combining marks (a mark stays after its letter)."""
    out: list[str] = []
    for ch in run:
        if out and unicodedata.category(ch).startswith("M"):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def visual(text: str) -> str:
    """`text` in the order a left-to-right screen draws it: each run of right-to-left letters
    (with the spaces and marks between them) reversed in place, Arabic shaped first. The lines
    are the table's, in English: a name in Hebrew inside one stays where it is, read right to left."""
    if not any(is_rtl(ch) for ch in text):
        return text
    text = shape_arabic(text)
    out, i, n = [], 0, len(text)
    while i < n:
        if not is_rtl(text[i]):
            out.append(text[i])
            i += 1
            continue
        last, k = i, i + 1
        while k < n and unicodedata.bidirectional(text[k]) not in ("L", "EN", "LRE", "LRO", "LRI"):
            if is_rtl(text[k]):
                last = k
            k += 1
        while last + 1 < n and unicodedata.category(text[last + 1]).startswith("M"):
            last += 1                   # (a mark on the run's last letter)
        out.append("".join(reversed(_clusters(text[i:last + 1]))))
        i = last + 1
    return "".join(out)


# ---- the font

@lru_cache(maxsize=128)
def _fallback_font(path: str, ascent: int, bold: bool) -> pygame.font.Font:
    """The font at `path` sized so that its capitals stand as high as the bundled font's whose
    ascent is `ascent` (the same size in px is not the same size on screen: DejaVu's is larger)."""
    ref = 100
    probe = pygame.font.Font(path, ref)
    bundled = pygame.font.Font(None, ref)
    cap = (probe.metrics("H") or [(0, 0, 0, 0, 0)])[0][3] or probe.get_ascent()
    cap_bundled = (bundled.metrics("H") or [(0, 0, 0, 0, 0)])[0][3] or bundled.get_ascent()
    size = max(1, round(ref * ascent / bundled.get_ascent() * cap_bundled / cap))
    f = pygame.font.Font(path, size)
    f.set_bold(bold)
    return f


class TableFont(pygame.font.Font):
    """pygame's bundled font, with the letters it lacks drawn from the machine's fonts and right-
    to-left runs in their visual order: `size` measures what `render` draws."""

    def _runs(self, text: str) -> list[tuple[pygame.font.Font | None, str]] | None:
        """`text` as runs of (font, letters), None for the bundled font; None when it draws all."""
        if text.isascii():
            return None
        shown = visual(text)
        if all(bundled_has(ch) or unicodedata.category(ch).startswith(("M", "C", "Z")) for ch in shown):
            return None if shown == text else [(None, shown)]
        runs: list[tuple[pygame.font.Font | None, str]] = []
        for ch in shown:
            path = None
            if not bundled_has(ch) and not (runs and unicodedata.category(ch).startswith("M")):
                path = fallback_for(ch)
            if runs and unicodedata.category(ch).startswith("M"):
                runs[-1] = (runs[-1][0], runs[-1][1] + ch)      # (a mark goes with its letter's font)
                continue
            font = _fallback_font(path, self.get_ascent(), self.get_bold()) if path else None
            if runs and runs[-1][0] is font:
                runs[-1] = (font, runs[-1][1] + ch)
            else:
                runs.append((font, ch))
        return runs

    def size(self, text) -> tuple[int, int]:  # type: ignore[override]
        runs = self._runs(str(text)) if isinstance(text, str) else None
        if runs is None:
            return super().size(text)
        width = 0
        for f, s in runs:
            width += f.size(s)[0] if f else super().size(s)[0]
        return width, self.get_height()

    def render(self, text, antialias, color, background=None) -> pygame.Surface:  # type: ignore[override]
        runs = self._runs(str(text)) if isinstance(text, str) else None
        if runs is None:
            return super().render(text, antialias, color, background)
        if len(runs) == 1 and runs[0][0] is None:
            return super().render(runs[0][1], antialias, color, background)
        parts = []
        for f, s in runs:
            parts.append((f, f.render(s, antialias, color) if f else super().render(s, antialias, color)))
        width = sum(img.get_width() for _, img in parts)
        out = pygame.Surface((width, self.get_height()), pygame.SRCALPHA)
        if background is not None:
            out.fill(background)
        x, base = 0, self.get_ascent()
        for f, img in parts:
            out.blit(img, (x, base - (f.get_ascent() if f else base)))
            x += img.get_width()
        return out
