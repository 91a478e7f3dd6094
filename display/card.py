"""The HINT card: how a game is played, in the biggest type that fits its panel.

A card that does not fit even at the least legible size (several house rules changed at once
made Pok'n Roll's one line too long at 800x480, and the final standings' narrower panel cut
the standard cards of two games) is split into pages, never cut and never shrunk below
`theme.min_text`: the controller turns them (`HelpView.page`), "1/2" by the title says so.
"""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from . import theme
from .draw import panel, text, wrap
from .label_room import fitting_form
from .view import HelpView


@dataclass(frozen=True)
class CardLine:
    """One line of a paragraph as a page shows it."""

    text: str
    paragraph: int                       # 0: what the game is (bold, no bullet); the others: bullets
    first: bool                          # its paragraph's first line: the bullet goes here
    gap: bool                            # a paragraph's gap above it (never at a page's top)


@dataclass(frozen=True)
class CardLayout:
    size: int                            # the paragraphs' type size, the same on every page
    pages: tuple[tuple[CardLine, ...], ...]


@dataclass(frozen=True)
class CardFrame:
    """Where the card's parts go in its panel: one place for drawing and for counting pages."""

    x: int
    width: int
    top: int                             # the title's top
    title_size: int
    body: int                            # the first paragraph's top
    bottom: int                          # the paragraphs' bottom (above the foot)
    foot_y: int
    foot_size: int
    indent: int                          # the bullets' column (a disc: not every font has a bullet glyph)
    s: float


def card_frame(help: HelpView, rect: pygame.Rect, s: float) -> CardFrame:
    """The card's frame in `rect` on a screen of scale `s`."""
    pad = int(16 * s)
    title_size = int(36 * s)
    foot_size = theme.legible(26, s)
    has_foot = bool(help.foot or help.next_foot)
    return CardFrame(rect.x + pad, rect.width - 2 * pad, rect.y + pad, title_size,
                     rect.y + pad + int(title_size * 1.25),
                     rect.bottom - pad - (int(foot_size * 1.3) if has_foot else 0),
                     rect.bottom - pad - foot_size, foot_size, int(22 * s), s)


def _steps(size: int) -> tuple[int, int]:
    """A line's height and a paragraph gap at type `size`."""
    return int(size * 1.12), int(size * 0.45)


def _blocks(paragraphs: tuple[str, ...], size: int, frame: CardFrame) -> list[list[str]]:
    """Each paragraph wrapped at `size`: the first in bold at full width, the others beside a bullet."""
    return [wrap(p, size, frame.width - (frame.indent if i else 0), bold=(i == 0)) for i, p in enumerate(paragraphs)]


def _one_page(blocks: list[list[str]]) -> tuple[CardLine, ...]:
    return tuple(CardLine(line, i, j == 0, bool(i) and j == 0) for i, lines in enumerate(blocks)
                 for j, line in enumerate(lines))


def _paginate(blocks: list[list[str]], size: int, room: int) -> tuple[tuple[CardLine, ...], ...]:
    """The lines in pages of `room` px: a paragraph that does not fit below the others starts the
    next page (read whole, not broken across a button press); only one longer than a page goes on
    over the next."""
    line_h, gap = _steps(size)
    pages: list[tuple[CardLine, ...]] = []
    page: list[CardLine] = []
    used = 0
    for i, lines in enumerate(blocks):
        if page and used + gap + line_h * len(lines) > room:
            pages.append(tuple(page))
            page, used = [], 0
        for j, line in enumerate(lines):
            gap_above = j == 0 and bool(page)
            step = line_h + (gap if gap_above else 0)
            if page and used + step > room:
                pages.append(tuple(page))
                page, used, gap_above, step = [], 0, False, line_h
            page.append(CardLine(line, i, j == 0, gap_above))
            used += step
    return tuple(pages + [tuple(page)])


def card_layout(help: HelpView, frame: CardFrame) -> CardLayout:
    """The card on one page in the biggest type that fits it (as it always was drawn), else in
    the fewest pages, in the biggest type that keeps them that few."""
    least = theme.min_text(frame.s)
    sizes = range(max(int(40 * frame.s), least), least - 1, -1)
    room = frame.bottom - frame.body
    for size in sizes:
        blocks = _blocks(help.paragraphs, size, frame)
        line_h, gap = _steps(size)
        if sum(len(b) for b in blocks) * line_h + gap * (len(blocks) - 1) <= room:
            return CardLayout(size, (_one_page(blocks),))
    paged = [CardLayout(size, _paginate(_blocks(help.paragraphs, size, frame), size, room)) for size in sizes]
    return min(paged, key=lambda layout: (len(layout.pages), -layout.size))


def draw_card(surface: pygame.Surface, help: HelpView, rect: pygame.Rect, s: float) -> None:
    """How the game is played: the first paragraph (what the game is) in bold, the others as
    bullets; the page `help.page` of it when it takes more than one."""
    panel(surface, rect, theme.PANEL)
    frame = card_frame(help, rect, s)
    layout = card_layout(help, frame)
    count = len(layout.pages)
    page = min(max(help.page, 0), count - 1)
    marker = f"{page + 1}/{count}" if count > 1 else ""
    room = frame.width
    if marker:
        room -= theme.font(frame.title_size, True).size(marker)[0] + int(12 * s)
    # (its shorter form where it would be cut: "How to play Object... 1/8" at 320x240 is "Objective cards 1/8")
    title = fitting_form(help.title, help.short, room, theme.font(theme.min_text(s), True))
    text(surface, title, (frame.x, frame.top), frame.title_size, theme.ACCENT, bold=True, max_width=room)
    if marker:
        text(surface, marker, (frame.x + frame.width, frame.top), frame.title_size, theme.ACCENT, bold=True,
             anchor="topright")
    _draw_lines(surface, layout.pages[page], layout.size, frame)
    foot = help.next_foot if page < count - 1 and help.next_foot else help.foot
    if foot:
        text(surface, foot_parts(foot, frame.foot_size, frame.width), (frame.x, frame.foot_y), frame.foot_size,
             theme.MUTED, max_width=frame.width)


def foot_parts(foot: str, size: int, width: int) -> str:
    """The foot's first " · " parts that fit `width` at `size` whole (at least the first, which
    says how to turn or close the card): at 320x240 it was cut mid-word, "HINT: next page · the
    other buttons work as..."; on lines of their own the parts took a page's room for three
    lines, Classic's card 7 pages to 9."""
    parts = foot.split(" · ")
    f = theme.font(size)
    kept = next(n for n in range(len(parts), 0, -1) if n == 1 or f.size(" · ".join(parts[:n]))[0] <= width)
    return " · ".join(parts[:kept])


def _draw_lines(surface: pygame.Surface, lines: tuple[CardLine, ...], size: int, frame: CardFrame) -> None:
    """One page's lines from the frame's body down."""
    line_h, gap = _steps(size)
    y = frame.body
    for line in lines:
        y += gap if line.gap else 0
        bullet = line.paragraph > 0
        if bullet and line.first:
            pygame.draw.circle(surface, theme.ACCENT, (frame.x + frame.indent // 3, y + int(size * 0.55)),
                               max(2, size // 7))
        text(surface, line.text, (frame.x + (frame.indent if bullet else 0), y), size, theme.TEXT,
             bold=not bullet, max_width=frame.width)
        y += line_h
