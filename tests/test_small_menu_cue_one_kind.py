"""One kind of scroll cue on a menu at 320x240: where "more above" found room at the end of the
question's last line and "more below" none, the panel showed the words at the top and a
triangle pointing down beside the last row (Thirteen: 173 of 654 menu screens of a three-player
game, the cursor on each row in turn). Now triangles for both where either is a triangle.
Read off the screen as tests/test_small_menu_cue.py does (the words drawn, the muted pieces)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from test_small_menu_cue import NAMES, cursor_at, drawn, first_menu  # noqa: F401  (its fonts fixture too)
from test_small_menu_cue import fonts  # noqa: F401


@pytest.mark.parametrize("banner", [True, False])
@pytest.mark.parametrize("game,fraction", [("thirteen", 0.0), ("thirteen", 0.5), ("school", 0.0), ("classic", 0.0)])
def test_never_words_at_one_end_and_a_triangle_at_the_other(game, fraction, banner, monkeypatch):
    """On main, Thirteen at 320x240: 'more above' over a triangle pointing down."""
    view = first_menu(game, fraction)
    if not banner:
        view = replace(view, message=None)
    for row in range(len(view.prompt.options)):
        panel = drawn(cursor_at(view, row), (320, 240), monkeypatch)
        start, end = panel.window
        words = panel.said("more above") or panel.said("more below")
        assert not (words and (panel.ups or panel.downs)), (row, panel.window, [t for t, _, _ in panel.texts])
        # every hidden end still cued, one way or the other
        if start > 0:
            assert panel.ups or panel.said("more above"), row
        if end < len(view.prompt.options):
            assert panel.downs or panel.said("more below"), row
