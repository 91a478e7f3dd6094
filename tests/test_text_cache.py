"""The screen's rendered text is bounded by its bytes, and the sheet's lines outlive a move's.

A table draws every frame for months. The lines it rendered were kept up to 4,000 and then all
dropped at once: 29 KB a line at 1280x720, so a kiosk's screen text grew by 80 MB over 8 games
(160 to 240 MB resident), and at the drop every line of the sheet was rendered again.
"""
from __future__ import annotations

import pygame
import pytest

from display import draw
from display.text_cache import MAX_BYTES, SurfaceCache


def kept_bytes() -> int:
    return sum(img.get_pitch() * img.get_height() for img in draw._TEXT_CACHE.values())


@pytest.fixture
def surface():
    pygame.font.init()
    draw._TEXT_CACHE.clear()
    yield pygame.Surface((1280, 720))
    draw._TEXT_CACHE.clear()


def test_a_day_of_one_off_lines_keeps_the_screen_text_under_its_bound(surface):
    """Each move's status line is drawn and never again: 3,000 of them (a few days of games)."""
    for n in range(3_000):
        draw.text(surface, f"Round {n % 10 + 1} of 10 — active: Ann, rolls used {n}, best hand so far {n * 7}",
                  (0, 0), 34)
    assert kept_bytes() <= MAX_BYTES
    assert len(draw._TEXT_CACHE) > 100        # (still a cache)


def test_the_sheet_drawn_every_frame_is_not_rendered_again_as_one_off_lines_come_and_go(surface, monkeypatch):
    """A frame: the sheet's 50 lines and three new ones (a message, a status, a preview). Over
    1,500 frames the sheet's lines are rendered once, not again each time the cache is full."""
    rendered: list[str] = []
    real = draw.render_line

    def counting(f, s, colour):
        rendered.append(s)
        return real(f, s, colour)

    monkeypatch.setattr(draw, "render_line", counting)
    sheet = [f"Row {i}: 12 24 36" for i in range(50)]
    for frame in range(1_500):
        for i, line in enumerate(sheet):
            draw.text(surface, line, (0, i), 20)
        for what in ("Move", "Status", "Preview"):
            draw.text(surface, f"{what} {frame}: Ann scored {frame % 50} points", (0, 700), 20)
    assert sum(1 for s in rendered if s.startswith("Row ")) == len(sheet)


def test_the_least_recently_drawn_line_goes_first_and_the_newest_stays():
    cache = SurfaceCache(max_bytes=3 * 400 * 10)
    lines = {k: pygame.Surface((100, 10), pygame.SRCALPHA) for k in "abcd"}
    for k in "abc":
        cache.put(k, lines[k])
    cache.get("a")                         # (drawn again: the most recent now)
    cache.put("d", lines["d"])
    assert [cache.get(k) is not None for k in "abcd"] == [True, False, True, True]
    assert cache.bytes == 3 * 400 * 10
    big = pygame.Surface((1000, 100), pygame.SRCALPHA)
    cache.put("big", big)                  # (larger than the bound alone: kept, the others go)
    assert len(cache) == 1 and cache.get("big") is big
