"""Things in the tray that are not dice, outlined on the tray's picture.

The reader names a thing that is not a die (a phone left lying in the tray, a hand, a card) and
the table says so in words ("Something that is not a die lies in the tray ..."), but the picture
showed only the dice: players looked for the thing the words meant, or could not tell whether
the table had taken a card for a die. Each such thing is outlined with a dashed line (not a die's
solid frame, and not by colour alone) and tagged "not a die".
"""
from __future__ import annotations

from typing import Sequence

import pygame

from . import theme

THING_WORDS = "not a die"


def thing_rect(box: Sequence[int], dst: pygame.Rect, k: float) -> pygame.Rect:
    """`box` (x0, y0, x1, y1 in image pixels) on the screen, the image drawn at `dst` scaled by `k`,
    kept inside the picture."""
    r = pygame.Rect(dst.x + int(box[0] * k), dst.y + int(box[1] * k),
                    max(4, int((box[2] - box[0]) * k)), max(4, int((box[3] - box[1]) * k)))
    return r.clip(dst)


def _dashed_rect(surface: pygame.Surface, colour: tuple[int, int, int], r: pygame.Rect, width: int,
                 dash: int) -> None:
    """A rectangle outline of dashes `dash` px long (gaps as long), `width` px thick, inside `r`."""
    for x in range(r.left, r.right, 2 * dash):
        end = min(x + dash, r.right)
        pygame.draw.rect(surface, colour, (x, r.top, end - x, width))
        pygame.draw.rect(surface, colour, (x, r.bottom - width, end - x, width))
    for y in range(r.top, r.bottom, 2 * dash):
        end = min(y + dash, r.bottom)
        pygame.draw.rect(surface, colour, (r.left, y, width, end - y))
        pygame.draw.rect(surface, colour, (r.right - width, y, width, end - y))


def draw_things(surface: pygame.Surface, things: Sequence[Sequence[int]], dst: pygame.Rect, k: float,
                s: float) -> list[pygame.Rect]:
    """Outline each of `things` (boxes in image pixels) on the picture drawn at `dst` (scale `k`),
    its tag inside its top left corner when it fits there; returns the outlines' rects. Drawn
    before the dice's marks, which stay on top."""
    drawn = []
    width, dash = max(2, int(3 * s)), max(6, int(12 * s))
    font = theme.font(theme.min_text(s), True)
    tag = font.render(THING_WORDS, True, theme.BG)
    for box in things:
        r = thing_rect(box, dst, k)
        if r.width < 4 or r.height < 4:
            continue
        _dashed_rect(surface, theme.CROSS, r, width, dash)
        pill = tag.get_rect(topleft=(r.x + width + 2, r.y + width + 2)).inflate(8, 2)
        if pill.width <= r.width - 2 * width and pill.height <= r.height - 2 * width:
            pygame.draw.rect(surface, theme.CROSS, pill, border_radius=5)
            surface.blit(tag, tag.get_rect(center=pill.center))
        drawn.append(r)
    return drawn
