"""The whole suite's setting: the machine's fonts as a Raspberry Pi OS or Debian table has them.

Letters the bundled font lacks are drawn with a font of the machine's (display/glyphs.py). The
tests of names in letters no font has (日本, 한국: drawn "?", offered as "Player N") would pass
here and fail on a desktop with Noto CJK installed: the suite sees DejaVu alone, the font those
systems ship, wherever it runs (none, where the machine has no DejaVu: those tests skip).
"""
from __future__ import annotations


def pytest_configure(config) -> None:
    from display import glyphs

    dejavu = tuple(path for path in glyphs.fallback_paths() if "dejavu" in path.lower())
    glyphs.fallback_paths = lambda: dejavu       # (fallback_for looks it up by name, not yet cached)
