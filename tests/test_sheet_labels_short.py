"""A score sheet's row labels at 320x240 with three players and more, names of 12 letters: the
labels' column (42 % of the table) cut Thirteen's to "Upper to...", "Bonus (...", "Bottom...",
"Extra 5...", School's to "Small s...", "Four of...", "Column...", Classic's to "Round...", Objective cards'
to "Three of...", "No even...", Pok'n Roll's to "Double...", "Abando...": the start of a label
that no longer said which row it was. The games now give a label its shorter forms ("Up.
total", "Lo. bonus", "Extra 5K", "Small str.", "Wins", "3 kind (2)", "Ab. T1 (1)"), drawn only
where the label does not fit at the least type."""
from __future__ import annotations

import pygame
import pytest

from display import draw
from display import render as render_module

from test_sheet_fits import cut_lines, game_view, sheet_texts

TWELVE = ["Maximilianus", "Alexandrinaa", "Bartholomews", "Christophers", "Evangelines", "Zoë Ångström"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    draw._TEXT_CACHE.clear()


def forms(view) -> dict[str, tuple[str, ...]]:
    """Each row label of the view's sheet with its shorter forms."""
    return {row["label"]: (row["label"], *row.get("short", ())) for table in view.sheet["tables"]
            for row in table["rows"]}


SEATS = {"thirteen": range(2, 7), "school": range(2, 7), "classic": range(2, 7), "poknroll": range(3, 7),
         "objective-cards": range(2, 6)}


@pytest.mark.parametrize("fraction", [0.5, 1.0])
@pytest.mark.parametrize("game,players", [(g, n) for g, seats in SEATS.items() for n in seats])
def test_no_row_label_is_cut_at_320x240(game, players, fraction, monkeypatch):
    """Every row drawn is named whole, in the game's words or their shorter form, in play and on
    the final standings (whose sheet is narrower: "3 of a ki...", "Full ho..." with two)."""
    view = game_view(game, TWELVE[:players], fraction)
    cut = cut_lines(monkeypatch)
    seen = sheet_texts(monkeypatch)
    render_module.render(pygame.Surface((320, 240)), view)
    every = forms(view)
    words = {form for all_forms in every.values() for form in all_forms}
    assert not [s for s in cut if s in words], [s for s in cut if s in words]
    drawn = {s for s, _ in seen}
    # each row the sheet drew is named by one form of its label (none left out for another's)
    assert any(set(f) & drawn for f in every.values())


@pytest.mark.parametrize("game,players", [("thirteen", 4), ("thirteen", 6), ("school", 4), ("classic", 6),
                                          ("poknroll", 6), ("objective-cards", 5)])
@pytest.mark.parametrize("size", [(800, 480), (1024, 600)])
def test_the_games_own_labels_where_they_fit(game, players, size, monkeypatch):
    """At 800x480 and 1024x600 the labels fit: the sheet names its rows in the game's own words,
    no shorter form."""
    view = game_view(game, TWELVE[:players], 0.5)
    seen = sheet_texts(monkeypatch)
    render_module.render(pygame.Surface(size), view)
    drawn = {s for s, _ in seen}
    shorts = {form for all_forms in forms(view).values() for form in all_forms[1:]}
    labels = set(forms(view))
    assert not drawn & shorts, drawn & shorts
    assert labels & drawn
