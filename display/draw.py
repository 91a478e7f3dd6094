"""Small drawing helpers shared by the screens (text that fits, panels, camera images)."""
from __future__ import annotations

import unicodedata

import numpy as np
import pygame

from . import theme
from .glyphs import can_draw
from .text_cache import SurfaceCache


# Glyphs the bundled font lacks, replaced by what it has (it has Latin-1 and a few more).
FALLBACK = {"✕": "X", "✗": "X", "×": "x", "■": "#", "□": "-", "▣": "+", "▲": "^", "▼": "v", "✓": "+", "★": "*",
            "…": "...", "•": "·", "→": "->", "←": "<-"}


def printable(s: str) -> str:
    """`s` as the screen can draw it: a glyph no font has replaced by its stand-in or "?",
    a control character (a tab or a line break in a player's name) by a space, an invisible
    format mark left out. Never a tofu box on screen: the font draws the same empty box for
    every glyph it lacks, so "日本" and "한국" were drawn alike, and a tab or a newline as a box.
    (The fonts have the same glyphs at every size, so the size drawn at does not matter.)"""
    if s.isascii() and s.isprintable():
        return s
    out = []
    for ch in unicodedata.normalize("NFC", s):     # (a decomposed "Zoë" was drawn "Zoe?")
        if ch in FALLBACK:
            out.append(FALLBACK[ch])
        elif unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            out.append(" ")
        elif unicodedata.category(ch) == "Cf":
            continue
        elif has_glyph(ch):
            out.append(ch)
        else:
            out.append("?")
    return "".join(out)


def has_glyph(ch: str) -> bool:
    """Whether the screen can draw `ch`: the bundled font has it, or one of the machine's fonts
    (display.glyphs: Nguyễn's "ễ", Hebrew, Arabic with DejaVu; CJK where such a font is installed)."""
    return can_draw(ch)


def render_line(f: pygame.font.Font, s: str, colour) -> pygame.Surface:
    """f.render(s), which raises for text that draws nothing ("Text has zero width": a name of a
    zero-width space or a soft hyphen, copied into the config from a web page or a document) and
    for a NUL character (a name in a JSON log): such a text is drawn as nothing, its line's height
    kept, and NULs are left out; raised, it stopped the screen and the table."""
    s = s.replace("\0", "")
    try:
        return f.render(s, True, colour)
    except pygame.error:
        return pygame.Surface((0, f.get_height()), pygame.SRCALPHA)


#: bounded by the bytes of its pixels (text_cache): bounded by 4,000 lines, it grew by 80 MB a kiosk's day
_TEXT_CACHE = SurfaceCache()


def _render_fitted(s: str, size: int, colour, bold: bool, max_width: int | None,
                   min_size: int = 10) -> pygame.Surface:
    """The line rendered at `size`, shrunk (then cut with an ellipsis) to fit `max_width`.
    Cached: a sheet redraws the same few hundred strings every frame."""
    key = (s, size, colour, bold, max_width, min_size)
    img = _TEXT_CACHE.get(key)
    if img is not None:
        return img
    f = theme.font(size, bold)
    s = printable(s)
    img = render_line(f, s, colour)
    if max_width is not None and img.get_width() > max_width:
        # the font has no size below theme.MIN_FONT: shrinking further would loop for nothing
        floor = max(min_size, theme.MIN_FONT)
        while size > floor and img.get_width() > max_width:
            size = max(floor, min(size - 1, int(size * 0.9)))
            img = render_line(theme.font(size, bold), s, colour)
        if img.get_width() > max_width:
            img = _cut_to_fit(s, theme.font(size, bold), colour, max_width)
    _TEXT_CACHE.put(key, img)
    return img


def _cut_to_fit(s: str, f: pygame.font.Font, colour, max_width: int) -> pygame.Surface:
    """The longest start of `s` that fits `max_width` with an ellipsis; on a space too narrow
    for even "..." (a tiny screen), an empty line of the text's height: drawing nothing beats
    drawing over the neighbours, and a search that always ends beats one that could not."""
    lo, hi = 0, len(s) - 1                  # keep s[:n] + "...": the widest n that fits
    best = None
    while lo <= hi:
        n = (lo + hi) // 2
        img = render_line(f, s[:n].rstrip() + "...", colour)
        if img.get_width() <= max_width:
            best, lo = img, n + 1
        else:
            hi = n - 1
    if best is not None:
        return best
    return pygame.Surface((0, f.get_height()), pygame.SRCALPHA)


def text(surface: pygame.Surface, s: str, pos: tuple[int, int], size: int, colour=theme.TEXT,
         bold: bool = False, anchor: str = "topleft", max_width: int | None = None,
         min_size: int = 10) -> pygame.Rect:
    """Draw one line; shrink it to `max_width` (not below `min_size`, then cut with an ellipsis)
    rather than let it overflow. Never below the screen's legible minimum (`theme.min_text`):
    a line asked for smaller, or shrunk to fit, is drawn at that minimum (and cut if it must)."""
    floor = theme.min_text(theme.scale(surface))
    min_size = max(int(min_size), floor)
    size = max(int(size), floor)
    img = _render_fitted(s, size, tuple(colour), bold, max_width, min_size)
    rect = img.get_rect(**{anchor: pos})
    surface.blit(img, rect)
    return rect


def wrap(s: str, size: int, width: int, bold: bool = False) -> list[str]:
    f = theme.font(size, bold)
    words, lines, line = s.split(), [], ""
    for w in words:
        trial = f"{line} {w}".strip()
        if f.size(trial)[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = w
    if line:
        lines.append(line)
    return lines


def panel(surface: pygame.Surface, rect: pygame.Rect, colour=theme.PANEL, radius: int = 10) -> None:
    pygame.draw.rect(surface, colour, rect, border_radius=radius)


def bgr_to_surface(image: np.ndarray) -> pygame.Surface:
    """An OpenCV BGR (or grey) frame as a pygame surface."""
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    # read as BGR where it lies (no channel flip copy: that was a third of a 1080p frame's drawing);
    # the surface shares the array's memory, so it is scaled into a surface of its own at once
    image = np.ascontiguousarray(image[:, :, :3])
    return pygame.image.frombuffer(image, (image.shape[1], image.shape[0]), "BGR")


def fit_rect(src: tuple[int, int], dst: pygame.Rect) -> pygame.Rect:
    """The largest rect of the source's aspect ratio centred in dst (empty, never of a negative
    size, when dst has no room: a tray squeezed by a very flat screen)."""
    sw, sh = src
    k = max(0.0, min(dst.width / max(1, sw), dst.height / max(1, sh)))
    w, h = int(sw * k), int(sh * k)
    return pygame.Rect(dst.centerx - w // 2, dst.centery - h // 2, w, h)
