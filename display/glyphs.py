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

import re
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
#: the machine's other families tried at most: a letter no font has is looked for in each once (a
#: desktop's hundreds of fonts, each opened, made the first frame with such a name wait seconds)
MORE_FONTS = 48


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
    others = sorted(n for n in names if n not in PREFERRED)[:MORE_FONTS]
    order = [n for n in PREFERRED if n in names] + others
    paths: list[str] = []
    for name in order:
        if any(word in name for word in _LEFT_OUT):
            continue
        path = pygame.font.match_font(name, bold=True)    # (the bundled font is a bold one)
        if path and path not in paths:
            paths.append(path)
    return tuple(paths)


@lru_cache(maxsize=128)       # (every font of the chain: PREFERRED and MORE_FONTS)
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


#: what joins the words of one name (דוד כהן, בן-דוד): a comma or a colon ends it ("Winners: A, B")
_WITHIN_A_NAME = " -'\u05f3\u05f4"
#: the mark of a name cut short (display.labels, draw's lines): part of the name it cuts. A
#: right-to-left name cut kept "..." after its logical start, and the start was drawn on the run's
#: right, the "..." beyond it: read right to left, the ellipsis came first, before the name's start
#: (and a name kept "start...end" was read end first). Within the run, it is read where it is.
CUT = "..."
#: the seat number that keeps a name apart from another's, "Ann #3" ("Ann...#3" cut): part of the
#: name's label, read after it, so a right-to-left name's is drawn on its left, where its reading
#: ends: "#3 דוד". It was drawn on the right, where a Hebrew reader starts, and a cut name had
#: its dots on one side and its number on the other ("...וד#3")
SEAT_TAG = re.compile(r" ?#\d+(?![\w])")


def visual(text: str) -> str:
    """`text` in the order a left-to-right screen draws it: each run of right-to-left letters
    (with the spaces, hyphens and marks between them) reversed in place, Arabic shaped first. The
    lines are the table's, in English: a name in Hebrew inside one stays where it is, read right
    to left, and a list of names ("Winners: محمد, דוד") keeps its order."""
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
        while k < n and (is_rtl(text[k]) or text[k] in _WITHIN_A_NAME or text.startswith(CUT, k)
                         or unicodedata.bidirectional(text[k]) in ("WS", "NSM", "BN")):
            if is_rtl(text[k]):
                last = k
            k += len(CUT) if text.startswith(CUT, k) else 1
        while last + 1 < n and unicodedata.category(text[last + 1]).startswith("M"):
            last += 1                   # (a mark on the run's last letter)
        if text.startswith(CUT, last + 1):
            last += len(CUT)            # (a name cut: its "..." read after it, on its left)
        run = "".join(reversed(_clusters(text[i:last + 1])))
        tag = SEAT_TAG.match(text, last + 1)
        if tag:                         # (its seat number read after it too, on its left)
            out.append(tag.group().lstrip(" ") + (" " if tag.group().startswith(" ") else ""))
            last = tag.end() - 1
        out.append(run)
        i = last + 1
    return "".join(out)


# ---- the font

@lru_cache(maxsize=64)
def _size_per_ascent(path: str) -> float:
    """The size of the font at `path` per px of the bundled font's ascent at which its capitals
    stand as high as the bundled font's (the same size in px is not: DejaVu's are larger)."""
    ref = 100
    probe, bundled = pygame.font.Font(path, ref), pygame.font.Font(None, ref)
    cap = (probe.metrics("H") or [None])[0]
    cap_bundled = (bundled.metrics("H") or [None])[0]
    ratio = (cap_bundled[3] / cap[3]) if cap and cap_bundled and cap[3] else 1.0
    return ref / bundled.get_ascent() * ratio


@lru_cache(maxsize=256)
def _font_at(path: str, size: int, bold: bool) -> pygame.font.Font:
    f = pygame.font.Font(path, max(1, size))
    f.set_bold(bold)
    return f


def _fallback_scale(path: str, letters: str, ascent: int, bold: bool) -> tuple[int, float]:
    """The size of the font at `path` whose capitals stand as high as the bundled font's of
    `ascent`, and how much smaller `letters` must be drawn to stay under the line's top
    (Vietnamese's Ễ, two marks over a capital: its top was cut off). A letter reaching below the
    line (Hebrew's ן) is not made smaller for it: the line is drawn taller (see `render`); the
    bundled font's descent is a few px, and the name came out too small to read at 320x240."""
    size = round(ascent * _size_per_ascent(path))
    boxes = [m for m in _font_at(path, size, bold).metrics(letters) if m]
    top = max((m[3] for m in boxes), default=0)
    return size, min(1.0, ascent / top if top > 0 else 1.0)


class TableFont(pygame.font.Font):
    """pygame's bundled font, with the letters it lacks drawn from the machine's fonts and right-
    to-left runs in their visual order: `size` measures what `render` draws."""

    _RUNS_KEPT = 512            # lines whose runs are kept (a sheet measures the same lines each frame)

    def _runs(self, text: str) -> list[tuple[pygame.font.Font | None, str]] | None:
        """`text` as runs of (font, letters), None for the bundled font; None when it draws all."""
        if text.isascii():
            return None
        kept = self.__dict__.setdefault("_kept", {})
        if text not in kept:
            if len(kept) >= self._RUNS_KEPT:
                kept.clear()
            kept[text] = self._split(text)
        return kept[text]

    def _split(self, text: str) -> list[tuple[pygame.font.Font | None, str]] | None:
        shown = visual(text)
        if all(bundled_has(ch) or unicodedata.category(ch).startswith(("M", "C", "Z")) for ch in shown):
            return None if shown == text else [(None, shown)]
        runs: list[tuple[str | None, str]] = []
        for ch in shown:
            if runs and unicodedata.category(ch).startswith("M"):
                runs[-1] = (runs[-1][0], runs[-1][1] + ch)      # (a mark goes with its letter's font)
                continue
            path = None if bundled_has(ch) else fallback_for(ch)
            if runs and runs[-1][0] == path:
                runs[-1] = (path, runs[-1][1] + ch)
            else:
                runs.append((path, ch))
        runs = _spaces_joined(runs)
        # (one scale for the line: a name's words drawn at two sizes, "דוד" and a smaller "כהן")
        ascent, bold = self.get_ascent(), self.get_bold()
        sized = {path: _fallback_scale(path, "".join(t for p, t in runs if p == path), ascent, bold)
                 for path, _ in runs if path}
        scale = min((k for _, k in sized.values()), default=1.0)
        return [(_font_at(path, int(sized[path][0] * scale) if scale < 1.0 else sized[path][0], bold)
                 if path else None, letters) for path, letters in runs]

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
        base = self.get_ascent()
        tops = [base - (_baseline(f, letters) if f else base) for (f, _), (_, letters) in zip(parts, runs)]
        height = max([self.get_height()] + [y + img.get_height() for y, (_, img) in zip(tops, parts)])
        out = pygame.Surface((width, height), pygame.SRCALPHA)
        if background is not None:
            out.fill(background)
        x = 0
        for y, (_, img) in zip(tops, parts):
            out.blit(img, (x, y))
            x += img.get_width()
        return out


def _spaces_joined(runs: list[tuple[str | None, str]]) -> list[tuple[str | None, str]]:
    """A space between two runs of the same machine font drawn in that font: one name's words
    (דוד כהן, Nguyễn Thị) are one run, spaced as that font spaces them."""
    out: list[tuple[str | None, str]] = []
    for i, (path, letters) in enumerate(runs):
        if (path is None and letters.isspace() and out and out[-1][0] is not None and i + 1 < len(runs)
                and runs[i + 1][0] == out[-1][0]):
            out[-1] = (out[-1][0], out[-1][1] + letters)
        elif out and out[-1][0] is not None and out[-1][0] == path:
            out[-1] = (path, out[-1][1] + letters)
        else:
            out.append((path, letters))
    return out


def _baseline(f: pygame.font.Font, letters: str) -> int:
    """Where the baseline lies in `f.render(letters)`: SDL_ttf makes room above the font's
    ascent for a letter that stands higher (two marks over a capital), and moves it down so."""
    return max([f.get_ascent()] + [m[3] for m in f.metrics(letters) if m])
