"""The smallest screen a café may fit, 320x240 (a small HDMI or SPI panel): what is drawn there
is drawn apart, never one text over another, whatever it has to leave off."""
from __future__ import annotations

import dataclasses

import pygame
import pytest

from controller.bench_table import late_game
from controller.table import DECIDE
from display import render as render_module
from display import theme
from display.view import MessageView, TableView

SMALL = (320, 240)
GAMES = ["thirteen", "classic", "school", "poknroll", "objective-cards"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


def texts_drawn(monkeypatch, module) -> list[tuple[str, pygame.Rect]]:
    """Every line `module` draws from now on, with its rect on screen."""
    seen: list[tuple[str, pygame.Rect]] = []
    real = module.text

    def text(surface, s, *a, **kw):
        rect = real(surface, s, *a, **kw)
        if rect.width:
            seen.append((s, rect))
        return rect

    monkeypatch.setattr(module, "text", text)
    return seen


def overlaps(lines: list[tuple[str, pygame.Rect]]) -> list[tuple[str, str]]:
    return [(a, b) for i, (a, ra) in enumerate(lines) for b, rb in lines[i + 1:] if ra.colliderect(rb)]


def decisions(game: str, fraction: float) -> TableView:
    flow, rest = late_game(game, fraction)
    while flow.phase != DECIDE and rest:
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    return flow.view(None)


@pytest.mark.parametrize("banner", [False, True])
@pytest.mark.parametrize("game", GAMES)
def test_the_prompt_panels_lines_never_lie_over_each_other(game, banner, monkeypatch):
    """At 320x240 the buttons' hint and "more below", placed up from the panel's foot, were drawn
    over the question and the cursor's menu row (School: "HOLD 1-5 keep" over "Bob: choose a
    ro...", "UP/DOWN choose" over "Throw 5 again"). Now each line has its own place in the panel,
    the cursor's row and the question's first line always among them."""
    for fraction in (0.2, 0.5, 0.8):
        view = decisions(game, fraction)
        if banner:
            view = dataclasses.replace(view, message=MessageView("Dice moved: throw again.", "warning"))
        surface = pygame.Surface(SMALL)
        s = render_module.theme.scale(surface)
        lower = render_module._columns_for(surface, view)[1]
        if banner:
            used = render_module._banner_layout(view.message, lower.width, s)[2]
            lower = pygame.Rect(lower.x, lower.y + used, lower.width, lower.height - used)
        seen = texts_drawn(monkeypatch, render_module)
        render_module._prompt(surface, view.prompt, lower, s)
        monkeypatch.undo()
        assert not overlaps(seen), (fraction, overlaps(seen))
        assert all(lower.contains(r) for _, r in seen), (fraction, [(t, r) for t, r in seen if not lower.contains(r)])
        assert seen[0][0][:3] == view.prompt.text[:3]                        # the question's first line
        cursor = [o.label for o in view.prompt.options if o.selected]
        assert all(any(label.startswith(c[:4]) for label, _ in seen) for c in cursor)


NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
FINAL_HINT = "OK: a new game · hold OK: play again (Ann, Bob) · BACK twice: undo the last choice"


def final_view(standings, message: str = "") -> TableView:
    from display.view import PromptView

    return TableView("final", "Classic: final standings", "Game over", standings=tuple(standings),
                     sheet={"players": [st.name for st in standings], "tables": []},
                     prompt=PromptView("", "", hint=FINAL_HINT),
                     message=MessageView(message, "info") if message else None)


@pytest.mark.parametrize("players", [2, 5, 6, 8])
@pytest.mark.parametrize("message", ["", "Tie-break: sudden-death rounds between Ann and Bob"])
def test_the_final_standings_never_lie_over_each_other(players, message, monkeypatch):
    """At 320x240 a tie-break message over five or more standings left them 8 px apart, each
    drawn over the next and under the buttons' hint. Each standing has its own line now; the
    message goes above the sheet when the standings' panel has no room for it, and is drawn
    whole; "OK: a new game" stays."""
    from display.view import Standing

    standings = [Standing(NAMES[i], 300 - 10 * i, i + 1, i == 0) for i in range(players)]
    seen = texts_drawn(monkeypatch, render_module)
    render_module.render(pygame.Surface(SMALL), final_view(standings, message))
    assert not overlaps(seen), overlaps(seen)
    drawn = [line for line, _ in seen]
    assert all(f"{st.place}. {st.name}" in drawn and str(st.score) in drawn for st in standings)
    assert "OK: a new game" in drawn
    if message:
        assert " ".join(line for line in drawn if line not in {f"{st.place}. {st.name}" for st in standings}
                        ).count("between Ann and Bob") == 1
        assert all(r.bottom <= SMALL[1] for _, r in seen)


@pytest.mark.parametrize("winners", [("Ann", "Bob"), ("Maximilian", "Bartholomew"),
                                     ("Maximilian-Alexander", "Maximilian-Alexandra", "Christopher")])
def test_every_tied_winner_is_named_in_the_heading(winners, monkeypatch):
    """At 320x240 "Winners: Maximilian, Bartholomew" wrapped on three lines and was drawn on two:
    "Winners:" over "Maximilian,", the second winner left off. Names that do not fit two lines
    are cut apart on the second, every winner named."""
    from display.view import Standing

    standings = [Standing(name, 30, 1, True) for name in winners] + [Standing("Cy", 20, len(winners) + 1)]
    seen = texts_drawn(monkeypatch, render_module)
    render_module.render(pygame.Surface(SMALL), final_view(standings))
    heading = " ".join(line for line, r in seen if r.top > 30 and not line[0].isdigit()       # (not the title)
                       and not any(part.startswith(line) or part.endswith(line)     # (nor the hints' lines:
                                   for part in FINAL_HINT.split(" · ")))              # a part on two at 320x240)
    assert heading.startswith("Winners: ")
    named = heading.removeprefix("Winners: ").split(", ")
    assert len(named) == len(winners) and len(set(named)) == len(winners), heading
    assert all(label[0] == name[0] and label != "..." for label, name in zip(named, winners)), heading
    assert not overlaps(seen)


@pytest.mark.parametrize("key", ["HINT", "OK"])
@pytest.mark.parametrize("mode", ["play", "final", "setup"])
@pytest.mark.parametrize("game", GAMES)
def test_the_how_to_play_cards_foot_is_never_cut_mid_word(game, mode, key, monkeypatch):
    """At 320x240 the card's foot was cut: "HINT: next page · the other buttons work as...". It
    keeps its first parts that fit whole (how to turn or close the card), on every page."""
    from controller.help_card import help_card
    from controller.rules import GAMES as RULES
    from display import card as card_module
    from display.render import help_pages

    first = help_card(RULES[game], key=key)
    pages = help_pages(first, mode, SMALL)
    assert pages > 1                                       # both feet: "next page" and "close"
    feet = []
    real = card_module.text
    for page in range(pages):
        seen = []
        monkeypatch.setattr(card_module, "text", lambda surface, s, pos, size, *a, **kw: (
            seen.append((s, size, kw.get("max_width"))), real(surface, s, pos, size, *a, **kw))[1])
        render_module.render(pygame.Surface(SMALL), TableView(mode, "Thirteen",
                                                              help=help_card(RULES[game], page=page, key=key)))
        monkeypatch.undo()
        feet.append(seen[-1])
    assert all(foot.startswith(f"{key}: next page") for foot, *_ in feet[:-1])
    assert feet[-1][0].startswith(f"{key} again")
    assert not [foot for foot, size, width in feet if theme.font(size).size(foot)[0] > width], set(feet)
    feet = [foot for foot, *_ in feet]
    assert all(set(foot.split(" · ")) <= set(first.foot.split(" · ")) | set(first.next_foot.split(" · "))
               for foot in feet)


LONG = ["Maximilian-Alexander", "Maximilian-Alexandra", "Anne-Charlotte Dupont", "Bartholomew",
        "Christopher-Robin", "Jean-Baptiste"]


@pytest.mark.parametrize("game, moves", [("school", 60), ("poknroll", 60), ("poknroll", 200)])
def test_the_totals_footer_of_six_long_names_names_every_total(game, moves, monkeypatch):
    """At 320x240 School's totals footer of six long names was cut on its second line ("A...
    105 · B... 158 · C... 1..."): two players' totals lost. Every total is drawn, whole, each
    after its player's label (the names cut to their seat numbers where they must be)."""
    import random

    from controller.autoplay import AutoPlayer
    from controller.rules import new_game
    from controller.runner import VirtualClock
    from controller.table import TableFlow
    from controller.tablelog import TableLog
    from display import sheet as sheet_module

    state, bot = new_game(game, LONG), AutoPlayer(random.Random(3))
    for _ in range(moves):
        state = state.apply(bot.next_input(state))
    view = TableFlow(state, TableLog(game, LONG), clock=VirtualClock()).view(None)
    calls = []
    real = sheet_module.text
    monkeypatch.setattr(sheet_module, "text", lambda surface, s, pos, size, *a, **kw: (
        calls.append((s, size, kw.get("max_width"))), real(surface, s, pos, size, *a, **kw))[1])
    render_module.render(pygame.Surface(SMALL), view)
    footer = [(s, size, width) for s, size, width in calls if s == calls[-1][0] or s == calls[-2][0]][-2:]
    assert all(theme.font(size).size(s)[0] <= width for s, size, width in footer), footer
    parts = " · ".join(s for s, *_ in footer).removeprefix("Totals: ").split(" · ")
    assert [p.rsplit(" ", 1)[1] for p in parts] == [str(t) for t in view.sheet["totals"]], parts
    assert len({p.rsplit(" ", 1)[0] for p in parts}) == 6


@pytest.mark.parametrize("fraction", [0.1, 0.6, 0.9])
def test_classic_of_8_players_shows_the_acting_players_column_whole(fraction, monkeypatch):
    """Eight players' columns of Classic at 320x240 were 12 px wide, too narrow even for a digit:
    every hand was drawn as a cut mark. The sheet shows the columns that hold their hands, the
    acting player's among them, and says which they are ("7-8 of 8")."""
    from display import sheet as sheet_module

    flow, rest = late_game("classic", fraction, most=8)
    while flow.phase != DECIDE and rest:
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    view = flow.view(None)
    table = view.sheet["tables"][0]
    assert len(table["columns"]) == 8
    fitted = []
    real = sheet_module.cell_lines
    monkeypatch.setattr(sheet_module, "cell_lines", lambda c, size, bold, width, *a: (
        fitted.append((c, width, real(c, size, bold, width, *a))), fitted[-1][2])[1])
    seen = texts_drawn(monkeypatch, sheet_module)
    render_module.render(pygame.Surface(SMALL), view)
    assert fitted
    cut = [(c, lines) for c, width, (k, lines) in fitted if any(theme.font(k).size(ln)[0] > width for ln in lines)]
    assert not cut, cut
    drawn = [line for line, _ in seen]
    acting = table["columns"][table["active_column"]]
    assert acting in drawn
    assert any(line.endswith(" of 8") for line in drawn)
