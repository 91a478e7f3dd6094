"""Colours and type sizes, chosen to be read from across a café table.

Dark background, near-white text, one accent per meaning; sizes scale with the screen height so
the same layout works on the 800x480 Pi display and a 1920x1080 TV.
"""
from __future__ import annotations

from functools import lru_cache

import pygame

BG = (14, 18, 24)
PANEL = (28, 34, 44)
PANEL_LIGHT = (44, 52, 66)
GRID = (70, 80, 96)
BOX_FREE = (125, 135, 150)     # a free box's outline: 3:1 and more on PANEL and PANEL_LIGHT (GRID was 1.5-2)
TEXT = (240, 242, 245)
MUTED = (165, 172, 184)
ACCENT = (255, 204, 0)         # the player to act, the cursor
SCORE = (120, 220, 140)        # written scores
CROSS = (255, 145, 135)        # crosses, zeros, errors (4.5:1 on PANEL_LIGHT as a protanope sees it)
PREVIEW = (110, 200, 255)      # what the current dice would score
AWARD = (255, 170, 60)
WINNER = (255, 215, 0)
HELD = (90, 170, 255)
DOUBT = (255, 140, 0)
INFO_BG = (30, 70, 120)
WARN_BG = (140, 90, 0)
ERROR_BG = (150, 30, 30)

CELL_COLOURS = {
    "score": SCORE, "cross": CROSS, "award": AWARD, "preview": PREVIEW, "total": TEXT,
    "tick": SCORE, "hand": TEXT, "info": MUTED, "empty": MUTED,
}


def scale(surface: pygame.Surface) -> float:
    """1.0 at 720 px high; everything is sized from this."""
    w, h = surface.get_size()
    return max(0.5, min(h / 720.0, w / 1280.0 * 1.25))


MIN_FONT = 10                  # px: the smallest type `font` gives at all (a floor for measuring)

# The smallest type a player must read, in px of type size (pygame's bundled font: capitals ~0.48
# of the size, lines ~0.66). On the 7" 800x480 Pi display (0.193 mm a pixel) 20 px type has
# capitals ~10 px = ~1.9 mm, ~6.5 arc minutes at 1 m: clearly above the ~5' acuity limit, and
# the most a 20-row score sheet allows in 480 px (its rows are ~20 px). Lines came out at
# 10-17 px before (hints, cells, School's sheet) and could not be read from the table; what does
# not fit at this size is shortened, wrapped or given room, never shrunk further.
MIN_TEXT = 20


def min_text(s: float) -> int:
    """The smallest type size drawn on a screen of scale `s`: 20 px at 800x480, 30 at 1080p."""
    return max(MIN_TEXT, int(20 * s))


def legible(size: float, s: float) -> int:
    """Type `size` (px at scale 1) on a screen of scale `s`, never below `min_text`: the size a
    layout measures with must be the size `draw.text` draws at."""
    return max(int(size * s), min_text(s))


@lru_cache(maxsize=256)   # (every size from the 20 px minimum up, bold or not: 64 evicted fonts in use)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    from .glyphs import TableFont   # pygame's bundled font, the letters it lacks from the machine's fonts

    f = TableFont(None, max(MIN_FONT, int(size)))
    f.set_bold(bold)
    return f
