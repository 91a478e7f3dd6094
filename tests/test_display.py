"""The screens, drawn headless and looked at by numbers: every game's busiest screen at both
café sizes, text that never overflows, glyphs the font lacks never drawn as boxes."""
from __future__ import annotations

import numpy as np
import pygame
import pytest

from controller.bench_table import late_game
from controller.table import DECIDE
from display import draw
from display.screen import Screen
from display.view import MessageView, Standing, TableView
from vision.synthetic import TrayStyle, render_tray

SIZES = [(800, 480), (1920, 1080)]
GAMES = ["thirteen", "classic", "school", "poknroll", "objective-cards"]


@pytest.fixture(scope="module")
def tray_image():
    return render_tray([3, 3, 5, 1, 6], seed=2, style=TrayStyle(border_px=28, die_px=50.0)).image


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", GAMES)
def test_busiest_screen_draws_and_is_not_blank(game, size, tray_image, tmp_path):
    flow, rest = late_game(game, 0.6)
    while flow.phase != DECIDE and rest:
        flow.state = flow.state.apply(rest.pop(0))
        flow._enter_phase()
    screen = Screen(size, headless=True)
    screen.show(flow.view(tray_image))
    path = screen.screenshot(tmp_path / "s.png")
    pixels = pygame.surfarray.array3d(pygame.image.load(str(path)))
    assert pixels.shape[:2] == size
    # the sheet side carries text: many distinct colours, not a flat panel
    right = pixels[size[0] // 2:, :, :]
    assert len(np.unique(right.reshape(-1, 3), axis=0)) > 50
    assert right.std() > 15


def test_text_never_overflows_its_width():
    pygame.font.init()
    surface = pygame.Surface((400, 100))
    rect = draw.text(surface, "a very long line that would never fit in a narrow column " * 3, (0, 0), 40,
                     max_width=200)
    assert rect.width <= 200


def test_missing_glyphs_are_replaced_not_drawn_as_boxes():
    pygame.font.init()
    assert draw.printable("✕ ▲ ■□ ✓") == "X ^ #- +"
    assert draw.printable("Round 1 — Ann · 3") == "Round 1 — Ann · 3"   # these the font has


@pytest.mark.parametrize("name, shown", [
    ("日本", "??"), ("한국", "??"), ("🎲Max", "?Max"),           # the font's empty box for each, alike
    ("A\tB", "A B"), ("Li\nne", "Li ne"), ("Bell\x07", "Bell "),  # control characters: boxes too
    ("Zoë Łukasz Ελένη Jørgen Weiß", "Zoë Łukasz Ελένη Jørgen Weiß"),  # these the font has
    ("Zoe\u0308", "Zo\u00eb"),     # decomposed: the font has no combining diaeresis, but has ë
])
def test_names_the_font_cannot_draw_show_no_box(name, shown):
    """A seat named in the config in a script the bundled font lacks was drawn as empty boxes
    (pygame's metrics give the box's for a missing glyph): "Winners: [][], [][]" named nobody."""
    pygame.font.init()
    assert draw.printable(name) == shown


# Texts that draw nothing: pygame raised "Text has zero width" for them (and ValueError for a
# NUL), out of the screen's drawing, which stopped the table: a seat named with a zero-width space
# or a soft hyphen pasted into the config, a name in a JSON log.
INVISIBLE = ["\u200b", "\u00ad", "\ufeff\u2060", "\x00", "A\x00B"]


@pytest.mark.parametrize("line", INVISIBLE)
def test_a_text_that_draws_nothing_is_drawn_as_nothing_not_raised(line):
    pygame.font.init()
    surface = pygame.Surface((400, 100))
    for max_width in (None, 200, 5):
        rect = draw.text(surface, line, (0, 0), 30, max_width=max_width)
        assert rect.width <= (max_width or 400) and rect.height > 0


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_players_whose_names_draw_nothing_get_their_sheet_drawn(size, tray_image):
    from controller.rules import new_game
    from controller.runner import VirtualClock
    from controller.table import TableFlow
    from controller.tablelog import TableLog

    names = ["\u200b", "\u00ad", "A\x00B"]
    flow = TableFlow(new_game("thirteen", names), TableLog("thirteen", names), clock=VirtualClock(),
                     screen_size=size)
    Screen(size, headless=True).show(flow.view(tray_image))


def test_final_screen_names_the_winner_in_big_type(tmp_path):
    screen = Screen((800, 480), headless=True)
    view = TableView("final", "Thirteen: final standings", "Game over",
                     standings=(Standing("Ann", 268, 1, True), Standing("Bob", 253, 2)),
                     message=MessageView("stale warning", "warning"))
    screen.show(view)
    pixels = pygame.surfarray.array3d(screen.surface)
    gold = np.all(np.abs(pixels.astype(int) - np.array([255, 215, 0])) < 30, axis=2)
    assert gold.sum() > 500      # the winner's line is drawn in the winner colour


def test_bench_table_quick_prints_every_figure(capsys):
    """`dicetable bench table --limit N` (quick: no demo subprocess) runs every part and prints
    its figures as JSON; speed targets are judged by people reading it, never asserted here."""
    import json

    from controller import bench_table

    assert bench_table.run(as_json=True, quick=True) == 0
    out = json.loads(capsys.readouterr().out)
    assert {r["game"] for r in out["render"]} == set(GAMES) and out["latency"]["throws"] >= 1
    assert out["frames"]["tracker_update_ms_median"] > 0 and out["frames"]["render_tray_ms_median"] > 0
    assert out["memory"] is None
    assert [r["threaded"] for r in out["stall"]] == [False, True] and out["stall"][1]["passes"] > 0


@pytest.mark.parametrize("width", [60, 73, 90, 120, 160, 240])
@pytest.mark.parametrize("boxes", ["■■■□□□", "■□□□□□□□□□", "■"])
def test_a_row_of_boxes_stays_inside_its_cell(width, boxes):
    """Pok'n Roll's lines of boxes: each player's row must end inside their own column, else the
    rows of neighbouring players run together into one."""
    from display.sheet import draw_ticks

    pygame.init()
    surface = pygame.Surface((width + 40, 60))
    surface.fill((0, 0, 0))
    cell = pygame.Rect(20, 10, width, 40)
    draw_ticks(surface, boxes, cell, (0, 255, 0))
    pixels = pygame.surfarray.array3d(surface)          # (x, y, rgb)
    inked = np.nonzero(pixels.max(axis=2).max(axis=1))[0]
    assert len(inked) and inked.min() >= cell.left and inked.max() < cell.right


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_setup_screen_says_what_the_rule_under_the_cursor_means(size, tmp_path):
    """The house-rules page draws the selected rule's description above the buttons' hint, and
    the games page what the game under the cursor is; a row whose page title says it all (Next)
    does not repeat the title there."""
    from controller.setup_menu import SetupDefaults, SetupMenu
    from display import theme

    def accent_in_footer(menu) -> int:
        screen = Screen(size, headless=True)
        screen.show(menu.view())
        pixels = pygame.surfarray.array3d(pygame.image.load(str(screen.screenshot(tmp_path / "s.png"))))
        footer = pixels[:, int(size[1] * 0.8):, :]                      # the bottom fifth of the screen
        return int(np.all(footer == theme.ACCENT, axis=2).sum())

    menu = SetupMenu(defaults=SetupDefaults(game="poknroll"))
    assert menu.view().prompt.text == menu.games[menu.cursor["game"]].how_to_play[0]
    assert accent_in_footer(menu) > 50                                   # what Pok'n Roll is
    for _ in range(3):
        menu.on_button("press", "OK")
    assert menu.page == "options" and menu.view().prompt.text == menu.view().title    # on "Next"
    assert accent_in_footer(menu) == 0
    menu.on_button("press", "DOWN")                                      # onto a rule
    assert menu.view().prompt.text != menu.view().title
    assert accent_in_footer(menu) > 50


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_final_standings_say_what_the_buttons_do_now(size, tmp_path):
    """At their foot, the standings say how to start a new game (and, while it can, how to undo
    the last choice); without a hint nothing is drawn there."""
    from display import theme
    from display.view import PromptView

    def foot_pixels(prompt) -> tuple[int, int]:
        screen = Screen(size, headless=True)
        screen.show(TableView("final", "Thirteen: final standings", "Game over", prompt=prompt,
                              standings=(Standing("Ann", 268, 1, True), Standing("Bob", 253, 2))))
        pixels = pygame.surfarray.array3d(screen.surface)
        foot = pixels[: size[0] // 3, int(size[1] * 0.8):, :]            # the left panel's bottom fifth
        return int(np.all(foot == theme.ACCENT, axis=2).sum()), int(np.all(foot == theme.MUTED, axis=2).sum())

    assert foot_pixels(None) == (0, 0)
    new_game, undo = foot_pixels(PromptView("", "", hint="OK: a new game · BACK twice: undo Bob's choice"))
    assert new_game > 50 and undo > 50


def test_a_long_hint_is_broken_between_its_parts_rather_than_shrunk():
    """On a small screen the decision's hint (holds, menu, late correction) takes two lines of
    readable type; on a big one, one; a hint of many parts takes as many lines as it needs,
    every part on one of them."""
    from display import render, theme

    pygame.init()
    hint = "HOLD 1-5 keep dice · UP/DOWN choose · OK confirm · hold OK: correct the dice"
    size, width = int(26 * 480 / 720), 314             # the prompt panel's type and width at 800x480
    lines = render._hint_lines(hint, size, width)
    assert lines == ["HOLD 1-5 keep dice · UP/DOWN choose · OK confirm", "hold OK: correct the dice"]
    assert all(theme.font(size).size(line)[0] <= width for line in lines)
    assert render._hint_lines(hint, 26, 1200) == [hint]
    many = render._hint_lines(" · ".join(f"part {i} of a hint" for i in range(9)), size, 200)
    assert " · ".join(many) == " · ".join(f"part {i} of a hint" for i in range(9))
    assert all(theme.font(size).size(line)[0] <= 200 for line in many)
    assert render._hint_lines("", size, 500) == []


def test_the_screen_redraws_only_the_tray_yet_shows_exactly_what_a_whole_render_would(tray_image, monkeypatch):
    """`Screen.show` keeps the drawing outside the tray while only the camera image changes;
    whatever the sequence of views, the screen must show what drawing each view whole shows."""
    from dataclasses import replace

    from display import render as render_module
    from display.view import DieMark, TrayView

    flow, _ = late_game("thirteen")
    base = flow.view(tray_image)
    other_image = tray_image[::-1].copy()                       # the next camera frame
    marks = (DieMark((40, 40, 90, 90), "5", held=True), DieMark((300, 200, 350, 250), "?", doubtful=True))
    final = TableView("final", "Thirteen: final standings", "Game over",
                      standings=(Standing("Ann", 268, 1, True), Standing("Bob", 253, 2)))
    views = [base,
             replace(base, tray=TrayView(other_image, marks, "Dice moving...")),    # only the tray changed
             replace(base, tray=TrayView(tray_image, (), "")),
             replace(base, tray=TrayView(None)),
             replace(base, message=MessageView("Ann scored 12 in Fours", "info")),    # the rest changed
             final, final,
             base]
    screen = Screen((800, 480), headless=True)
    fresh = pygame.Surface((800, 480))
    whole = []
    real_static = render_module.render_static
    monkeypatch.setattr(render_module, "render_static", lambda surface, view: (whole.append(view.mode),
                                                                               real_static(surface, view)))
    for view in views:
        screen.show(view)
        real_static(fresh, view)
        render_module.render_tray(fresh, view)
        assert np.array_equal(pygame.surfarray.array3d(screen.surface), pygame.surfarray.array3d(fresh))
    assert whole == ["play", "play", "final", "play"]   # the first view, the message, the standings, play again


def test_a_die_with_a_hold_number_gets_a_numbered_disc(tray_image):
    from display import theme
    from display.render import render_tray
    from display.view import DieMark, TrayView

    def disc_pixels(position: int) -> int:
        screen = Screen((800, 480), headless=True)
        view = TableView("play", "Thirteen", tray=TrayView(tray_image, (DieMark((200, 150, 260, 210), "6",
                                                                                position=position),)))
        rect = render_tray(screen.surface, view)
        pixels = pygame.surfarray.array3d(screen.surface)[rect.left:rect.right, rect.top:rect.bottom]
        return int(np.all(pixels == theme.TEXT, axis=2).sum())

    assert disc_pixels(3) > disc_pixels(0) + 40


def test_bench_soak_prints_the_memory_after_each_game(capsys):
    from controller.bench_soak import run

    assert run(games=["classic", "classic"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| 1 |") or line.startswith("| 2 |")]
    assert len(rows) == 2 and all("classic" in r for r in rows)
    assert "2 games in one process" in out and "MB after the first" in out



@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", GAMES)
def test_the_help_card_takes_the_sheets_place_and_fits_it(game, size, tray_image, monkeypatch):
    """The HINT card is drawn where the sheet was, in type that fits every paragraph (the card
    of each game, at both screen sizes); the tray and the prompt are drawn as without it."""
    from dataclasses import replace

    from controller.help_card import help_card
    from display import card as card_module
    from display import render as render_module

    flow, _ = late_game(game)
    plain = flow.view(tray_image)
    card = help_card(flow.state)
    shown = replace(plain, help=card)
    surfaces = []
    for view in (plain, shown):
        surface = pygame.Surface(size)
        render_module.render(surface, view)
        surfaces.append(pygame.surfarray.array3d(surface))
    s, _, body = render_module._frame(pygame.Surface(size))
    tray, lower, right = render_module._play_columns(body, s)
    assert np.array_equal(surfaces[0][:right.x], surfaces[1][:right.x])     # left column untouched
    assert not np.array_equal(surfaces[0][right.x:], surfaces[1][right.x:])
    drawn = []
    real_text = card_module.text
    monkeypatch.setattr(card_module, "text",
                        lambda surface, line, *a, **k: (drawn.append(line), real_text(surface, line, *a, **k))[1])
    card_module.draw_card(pygame.Surface(size), card, right, s)
    words = " ".join(drawn).split()
    assert words[-len(card.foot.split()):] == card.foot.split()
    assert " ".join(words[:-len(card.foot.split())]).endswith(card.paragraphs[-1])   # nothing cut


def _one_rule_changed(game: str):
    """The game's house rules changed one at a time: every other choice, the other yes/no, a
    two-digit number (the card states some numbers)."""
    from controller.rules import GAMES as REGISTRY

    for spec in REGISTRY[game].OPTIONS:
        if spec.choices is not None:
            yield from ({spec.name: c} for c in spec.choices if c != spec.default)
        elif isinstance(spec.default, bool):
            yield {spec.name: not spec.default}
        elif isinstance(spec.default, int):
            yield {spec.name: 99 if spec.maximum is None else min(99, spec.maximum)}


@pytest.mark.parametrize("game", GAMES)
def test_the_help_card_under_every_house_rule_fits_at_800x480(game, monkeypatch):
    """The card follows the house rules chosen, so each rule's card must fit the panel too,
    nothing cut, at the legible size or above."""
    from controller.help_card import help_card
    from controller.rules import GAMES as REGISTRY
    from display import card as card_module
    from display import render as render_module

    surface = pygame.Surface((800, 480))
    s, _, body = render_module._frame(surface)
    _, _, right = render_module._play_columns(body, s)
    drawn = []
    real_text = card_module.text
    monkeypatch.setattr(card_module, "text", lambda surface, line, pos, size, *a, **k: (
        drawn.append((line, size)), real_text(surface, line, pos, size, *a, **k))[1])
    for options in [{}, *_one_rule_changed(game)]:
        card = help_card(REGISTRY[game], options)
        drawn.clear()
        card_module.draw_card(surface, card, right, s)
        words = " ".join(line for line, _ in drawn).split()
        body_words = " ".join(words[:-len(card.foot.split())])
        assert body_words.endswith(card.paragraphs[-1]), (options, card.paragraphs)     # nothing cut
        assert min(size for _, size in drawn[1:-1]) >= 20, options


@pytest.mark.parametrize("game", GAMES)
def test_every_rules_description_with_its_standard_fits_two_lines_at_800x480(game):
    """The setup screen draws a rule's description on at most two lines and drops the rest: each
    one, with its standard value, must fit them."""
    from controller.rules import GAMES as REGISTRY
    from controller.setup_menu import SetupDefaults, SetupMenu
    from display import render as render_module

    surface = pygame.Surface((800, 480))
    s, _, body = render_module._frame(surface)
    menu = SetupMenu(defaults=SetupDefaults(game=game))
    for spec in REGISTRY[game].OPTIONS:
        about = menu._about(spec)
        lines = draw.wrap(about[:1].upper() + about[1:], int(30 * s), body.width - int(32 * s))
        assert len(lines) <= 2, about


def test_a_long_description_on_the_setup_screen_goes_on_two_lines(monkeypatch):
    """A house rule's description longer than the screen is wide is wrapped, at the size of the
    rest of the foot, instead of shrunk onto one line."""
    from display import render as render_module
    from display import theme
    from display.view import PromptView, SetupItem

    long = ("which column an entry goes to: the leftmost empty one of the row, or any free one, the player "
            "choosing where it goes each time an entry is written")
    view = TableView("setup", "House rules", setup=(SetupItem("Row fill order", "left to right", True),),
                     prompt=PromptView("", long, hint="OK on a rule changes it"))
    drawn = []
    real_text = render_module.text
    monkeypatch.setattr(render_module, "text", lambda surface, line, pos, size, *a, **k: (
        drawn.append((line, size)), real_text(surface, line, pos, size, *a, **k))[1])
    surface = pygame.Surface((800, 480))
    render_module.render(surface, view)
    about = [(line, size) for line, size in drawn if line not in ("Row fill order", "left to right",
                                                                  "OK on a rule changes it", "House rules")]
    assert len(about) == 2 and " ".join(line for line, _ in about) == long[:1].upper() + long[1:]
    assert about[0][1] == about[1][1] == int(30 * theme.scale(surface))


def _finishes(work, seconds: float = 60.0):
    """Run `work` in a thread and return its result, or fail if it never ends: a hang is for
    ever, so the generous limit only decides how long a failing run takes, not whether it fails."""
    import threading

    result: dict = {}

    def run():
        try:
            result["value"] = work()
        except BaseException as exc:        # re-raised in the test's own thread
            result["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s: a loop that never ends"
    if "error" in result:
        raise result["error"]
    return result.get("value")


@pytest.mark.parametrize("width", [-20, 0, 1, 5, 12, 30])
@pytest.mark.parametrize("line", ["Anna", "Ann", "A", "", "Anna-Lena Schmidt", "✕ ▲"])
def test_text_too_wide_for_even_an_ellipsis_is_cut_to_nothing_rather_than_looping(line, width):
    """A column narrower than "..." (a tiny screen) hung the table for ever: cutting a short line
    to s[:-4] + "..." gave "..." again. Whatever the room, the line fits it (or is not drawn)."""
    pygame.font.init()
    surface = pygame.Surface((100, 40))
    rect = _finishes(lambda: draw.text(surface, line, (0, 0), 24, max_width=width, min_size=12))
    assert rect.width <= max(0, width)


# every size a screen or a mistyped config could have: tiny, flat (1280x72 for 1280x720), tall, huge
ODD_SIZES = [(1, 1), (2, 2), (10, 10), (50, 30), (50, 50), (160, 120), (240, 240), (320, 240),
             (1280, 72), (72, 1280), (100, 1500), (3000, 40)]


def _odd_size_views(tray_image) -> list[TableView]:
    """The views of a whole evening: the setup menu (and its HINT card), a game of eight players
    with long names mid-play (marks on the dice, a message, the HINT card), the final standings."""
    import dataclasses
    import random

    from controller.autoplay import AutoPlayer
    from controller.help_card import help_card
    from controller.rules import GAMES, new_game
    from controller.runner import VirtualClock
    from controller.setup_menu import SetupMenu
    from controller.table import TableFlow
    from controller.tablelog import TableLog
    from display.view import DieMark, PromptView, TrayView

    menu = SetupMenu()
    views = [menu.view()]
    menu.on_button("press", "HINT")
    views.append(menu.view())
    players = [chr(65 + i) + "nna-Lena Schmidt-Oberholzer"[: 4 + 3 * i] for i in range(8)]
    state, bot = new_game("classic", players), AutoPlayer(random.Random(3))
    for _ in range(40):
        state = state.apply(bot.next_input(state))
    play = TableFlow(state, TableLog("classic", players), clock=VirtualClock()).view(tray_image)
    marks = tuple(DieMark((40 + 60 * i, 40, 90 + 60 * i, 90), "K", held=i % 2 == 0, doubtful=i == 1,
                          selected=i == 2, position=i + 1) for i in range(5))
    play = dataclasses.replace(play, tray=TrayView(tray_image, marks, "Settled: K K Q J 10"),
                               message=MessageView("Camera unplugged: check its cable " * 3, "error"))
    views += [play, dataclasses.replace(play, help=help_card(GAMES["classic"]), message=None)]
    views.append(TableView("final", "Classic: final standings", "Game over", sheet=play.sheet,
                           prompt=PromptView("", "", hint="OK: a new game · BACK twice: undo the last choice"),
                           standings=tuple(Standing(name, 300 - i, i + 1, i == 0) for i, name in enumerate(players))))
    return views


@pytest.mark.parametrize("size", ODD_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_draws_at_any_size_without_raising_or_hanging(size, tray_image):
    """The config and --size refuse screens too small to read, but a fullscreen display can be
    any size, and nothing drawn may hang the table (160x120 did) or raise every frame (1280x72:
    'Cannot scale to negative size')."""
    screen = Screen(size, headless=True)
    views = _odd_size_views(tray_image)

    def draw_all():
        for view in views:
            screen.show(view)
            screen.show(view)          # a second time: the tray alone, over the static drawing
        return True

    assert _finishes(draw_all)


def _drawn_text(monkeypatch, module) -> list[str]:
    """Every line `module` draws from now on (its `text` instrumented)."""
    drawn: list[str] = []
    real_text = module.text
    monkeypatch.setattr(module, "text", lambda surface, line, *a, **k: (drawn.append(line),
                                                                          real_text(surface, line, *a, **k))[1])
    return drawn


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_poknroll_draws_its_hand_table_below_the_board(size, tray_image, monkeypatch):
    """Pok'n Roll's sheet has two tables; only the Board was drawn (the hand table, who is in,
    the cups, the white dice, the imaginary player, fell to a footer of totals)."""
    from display import render as render_module
    from display import sheet as sheet_module

    flow, _ = late_game("poknroll", 0.3)
    view = flow.view(tray_image)
    hand = view.sheet["tables"][1]
    drawn = _drawn_text(monkeypatch, sheet_module)
    render_module.render(pygame.Surface(size), view)
    assert view.sheet["tables"][0]["title"] in drawn and hand["title"] in drawn
    assert "In hand" in drawn and not any(line.startswith(("Totals:", "Not shown:")) for line in drawn)
    s, _, body = render_module._frame(pygame.Surface(size))
    placed, hidden, _ = sheet_module.layout_sheet(view.sheet, render_module._play_columns(body, s)[2], s)
    (_, board), (_, below) = placed
    assert not hidden and below.top >= board.bottom and below.height >= 5 * sheet_module.min_row_height(s)


def test_school_shows_the_scores_table_where_there_is_room(tray_image, monkeypatch):
    """School at 1920x1080: the acting player's sheet and the Scores table (every player's
    entries and totals), the other players' sheets named; at 800x480 the own sheet alone."""
    from display import render as render_module
    from display import sheet as sheet_module

    flow, _ = late_game("school", 0.3)
    view = flow.view(tray_image)
    drawn = _drawn_text(monkeypatch, sheet_module)
    render_module.render(pygame.Surface((1920, 1080)), view)
    assert "Scores" in drawn and "Column awards" in drawn
    others = [t["title"] for t in view.sheet["tables"][2:]]
    assert any(line.startswith("Not shown: ") and all(o in line for o in others) for line in drawn)
    drawn.clear()
    render_module.render(pygame.Surface((800, 480)), view)
    assert "Scores" not in drawn and any(line.startswith("Totals: ") for line in drawn)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("layout", ["staggered", "column", "tight"])
def test_each_hold_number_sits_by_its_own_die_and_on_no_other(layout, size, tray_image, monkeypatch):
    """The HOLD numbers were 15 px discs at each outline's left: with staggered dice "2" sat on
    die 1's corner. Each is now a disc at least 20 px high by its own die, touching no other die."""
    from display import render as render_module
    from display.view import DieMark, TrayView

    def box(i):
        if layout == "staggered":                            # the reviewer's tray: every other die lower
            return (40 + 110 * i, 180 + 30 * (i % 2), 120 + 110 * i, 260 + 30 * (i % 2))
        if layout == "column":                               # one above the other
            return (250, 20 + 90 * i, 330, 100 + 90 * i)
        return (100 + 85 * i, 200, 180 + 85 * i, 280)       # side by side, 5 px apart

    marks = tuple(DieMark(box(i), "6", held=i == 1, position=i + 1) for i in range(5))
    seen = []
    real = render_module.hold_badge
    monkeypatch.setattr(render_module, "hold_badge", lambda position, r, *a: (
        seen.append((position, r, real(position, r, *a)[1])), real(position, r, *a))[1])
    screen = Screen(size, headless=True)
    render_module.render_tray(screen.surface, TableView("play", "Thirteen", tray=TrayView(tray_image, marks)))
    assert [p for p, _, _ in seen] == [1, 2, 3, 4, 5]
    dice = {p: r for p, r, _ in seen}
    for position, die, badge in seen:
        assert badge.height >= 20
        assert badge.colliderect(die.inflate(16, 16))                       # by its own die
        assert all(not badge.colliderect(other.inflate(6, 6)) for p, other in dice.items() if p != position)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("message", ["Press ABANDON again within 5 seconds to abandon the whole game.",
                                     "I see 5 dice; the game needs 7 (5 held + 2 thrown). Fix the tray or "
                                     "throw again, or hold OK to enter the values."])
def test_a_message_leaves_the_menu_rows_to_choose_from_and_the_cursor_in_sight(message, size, monkeypatch):
    """Under a two-line banner the menu showed 2 rows even at 1920x1080 (Thirteen's best box
    off-screen). Now at least 4 rows, the cursor's among them, wherever the cursor is."""
    from display import render as render_module
    from display.view import OptionView, PromptView

    labels = [f"Category {i}" for i in range(14)]
    for sel in (0, 6, 13):
        prompt = PromptView("Ann", "Ann: choose a category, or hold dice and throw again (throw 2 of 3)",
                            tuple(OptionView(label, i, i == sel) for i, label in enumerate(labels)),
                            "HOLD 1-5 keep dice · UP/DOWN choose · OK confirm · hold OK: correct the dice")
        view = TableView("play", "Thirteen", prompt=prompt, message=MessageView(message, "warning"))
        drawn = _drawn_text(monkeypatch, render_module)
        render_module.render(pygame.Surface(size), view)
        rows = [line for line in drawn if line in labels]
        assert len(rows) >= 4 and labels[sel] in rows
        monkeypatch.undo()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_setup_message_is_above_the_menu_rows_not_over_the_cursors(size, monkeypatch):
    """The setup menu's banner was drawn over its first rows, where the cursor usually is (the
    games page after a game was put away: 'Thirteen' hidden under the news of it)."""
    from controller.setup_menu import SetupMenu
    from display import render as render_module
    from display.theme import ACCENT, INFO_BG

    filled = []
    real_rect = pygame.draw.rect

    def rect(surface, colour, area, *args, **kw):
        if not args:                                   # (a filled box, not an outline)
            filled.append((tuple(colour), pygame.Rect(area)))
        return real_rect(surface, colour, area, *args, **kw)

    monkeypatch.setattr(pygame.draw, "rect", rect)
    menu = SetupMenu()
    menu.message = MessageView("Nobody played Thirteen (Ann, Bob) for 32 minutes: it was put away and kept for the "
                               "staff. Choose a game.", "info")
    render_module.render(pygame.Surface(size), menu.view())
    [banner] = [r for colour, r in filled if colour == INFO_BG]
    [cursor] = [r for colour, r in filled if colour == ACCENT]
    assert cursor.top >= banner.bottom


def _screens_of(game: str, tray_image) -> list[TableView]:
    """A game's screens from its start to its end (4 to 6 players): each decision (menu, sheet
    full of previews), the wait for dice before it, one under a message banner, the help card."""
    from dataclasses import replace

    from controller.help_card import help_card

    views = []
    for fraction in (0.0, 0.25, 0.5, 0.75, 0.95):
        flow, rest = late_game(game, fraction)
        views.append(flow.view(tray_image))
        while flow.phase != DECIDE and rest:
            flow.state = flow.state.apply(rest.pop(0))
            flow._enter_phase()
        views.append(flow.view(tray_image))
    views.append(replace(views[-1], message=MessageView(
        "I see 5 dice; the game needs 7 (5 held + 2 thrown). Fix the tray or throw again.", "warning")))
    views.append(replace(views[3], help=help_card(flow.state)))
    return views


def _type_sizes(monkeypatch) -> list[tuple[int, str]]:
    """(size, line) of every line drawn from now on: the font every drawing gets is instrumented
    (through `theme.font`, which `text`, the tray's tags and the sheet all use)."""
    from display import theme

    seen: list[tuple[int, str]] = []
    real_font = theme.font

    class Recording:
        def __init__(self, size, bold=False):
            self.font, self.px = real_font(size, bold), max(theme.MIN_FONT, int(size))

        def render(self, line, *a, **k):
            seen.append((self.px, line))
            return self.font.render(line, *a, **k)

        def __getattr__(self, name):
            return getattr(self.font, name)

    monkeypatch.setattr(theme, "font", Recording)
    draw._TEXT_CACHE.clear()
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_nothing_a_player_reads_is_drawn_below_20_px_at_800x480(game, tray_image, monkeypatch):
    """At 800x480 the prompt's button hints (and their second line, shrunk further), Objective
    cards' status line, small sheet cells ("in hand: +1 now", "card committed") and School's
    whole sheet came out at 10-17 px type: unreadable from 1 m on the 7" display. 20 px type
    (capitals ~10 px, ~1.9 mm) is the least: what does not fit is shortened, wrapped or cut."""
    from display.render import render

    views = _screens_of(game, tray_image)
    seen = _type_sizes(monkeypatch)
    surface = pygame.Surface((800, 480))
    smallest = []
    for view in views:
        seen.clear()
        draw._TEXT_CACHE.clear()
        render(surface, view)
        assert seen
        smallest += [(px, line) for px, line in seen if px < 20 and line.strip()]
    assert not smallest, sorted(set(smallest))[:12]


def _tray_marks_drawn(marks, size, banner: bool, monkeypatch):
    """The dice's boxes on screen and what `render.tray_marks` placed for `marks` (tag, disc,
    HELD), drawn on a screen of `size`, under a warning banner if `banner`."""
    from display import render as render_module
    from display.view import PromptView, TrayView

    seen = []
    real = render_module.tray_marks
    monkeypatch.setattr(render_module, "tray_marks", lambda tray, boxes, *a: (
        seen.append((boxes, real(tray, boxes, *a))), seen[-1][1])[1])
    view = TableView("play", "Thirteen", tray=TrayView(np.zeros((480, 640, 3), np.uint8), marks,
                                                       caption="Dice: J J J J J"),
                     prompt=PromptView("Ann", "Ann: choose", (), "OK"),
                     message=MessageView("Press ABANDON again within 5 seconds to abandon the whole game.",
                                         "warning") if banner else None)
    render_module.render(pygame.Surface(size), view)
    (boxes, drawn), = seen
    return boxes, drawn


@pytest.mark.parametrize("size", SIZES + [(1024, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("banner", [False, True])
@pytest.mark.parametrize("layout", ["staggered", "column", "tight", "top"])
def test_no_hold_disc_covers_a_face_tag_and_every_held_die_says_held_on_itself(layout, banner, size, monkeypatch):
    """A disc placed avoiding every face tag but its own covered its own ("3" over a poker die's
    "J"); a HELD tag beside die 2's disc sat under die 3, and under a banner it was left off."""
    from display.view import DieMark

    def box(i):
        if layout == "staggered":                            # the reviewer's tray: every other die lower
            return (40 + 110 * i, 180 + 30 * (i % 2), 120 + 110 * i, 260 + 30 * (i % 2))
        if layout == "column":
            return (250, 20 + 90 * i, 330, 100 + 90 * i)
        if layout == "top":                                  # dice at the image's top: tags below them
            return (40 + 110 * i, 5 + 30 * (i % 2), 120 + 110 * i, 85 + 30 * (i % 2))
        return (100 + 85 * i, 200, 180 + 85 * i, 280)       # side by side, 5 px apart

    marks = tuple(DieMark(box(i), "J", held=i in (0, 1, 3), position=i + 1) for i in range(5))
    boxes, drawn = _tray_marks_drawn(marks, size, banner, monkeypatch)
    tags = [tag_rect for _, tag_rect, _, _ in drawn]
    for i, (mark, die, (_, _, badge, held)) in enumerate(zip(marks, boxes, drawn)):
        assert badge is not None and badge[1].collidelist(tags) < 0, (i, badge, tags)
        if mark.held:
            assert held is not None and die.collidepoint(held.center)        # on its own die
            assert all(not other.collidepoint(held.center) for j, other in enumerate(boxes) if j != i)
        else:
            assert held is None


@pytest.mark.parametrize("cell", ["Two pairs", "Three K", "Three 10", "33 to go", "card committed"])
@pytest.mark.parametrize("size,least", [(24, 20), (44, 30)])
def test_a_cell_that_fits_one_line_at_any_size_down_to_the_minimum_stays_on_one_line(cell, size, least):
    """Two lines were tried at each size before one line at the next size down: "Two pairs",
    "Three K" and "33 to go" wrapped, and the two lines (stepped by the font's height) ran into
    the highlight's outline and each other. Two lines only when no size fits one, and then
    with their ink inside the room the row gives."""
    from display import theme
    from display.sheet import _ink, cell_lines

    one_line_at_least = theme.font(least).size(cell)[0]
    for width in (one_line_at_least, one_line_at_least + 3, theme.font(size).size(cell)[0] - 1):
        k, lines = cell_lines(cell, size, False, width, 2 * size, least)
        assert lines == (cell,) and least <= k <= size and theme.font(k).size(cell)[0] <= width
    k, lines = cell_lines(cell, size, False, one_line_at_least - 1, int(size * 1.2), least)
    if len(lines) == 2:
        assert _ink(lines[0], k, False).height + 1 + _ink(lines[1], k, False).height <= int(size * 1.2)
        assert all(theme.font(k).size(line)[0] <= one_line_at_least - 1 for line in lines[:1])


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_sheet_footer_names_everyone_at_the_tables_type_size(size, tray_image, monkeypatch):
    """School with 6 players: "Totals: ..." lost the last player at 800x480 (one line at 20 px),
    "Not shown: ..." was cut at 1280 and 1920 and drawn at 39 px under tables at 30. The footer
    now takes two lines when it needs them, at no more than its tables' type size."""
    from display import render as render_module
    from display import sheet as sheet_module

    flow, _ = late_game("school", 0.95)
    view = flow.view(tray_image)
    sheet = view.sheet
    calls = []
    real_text = sheet_module.text
    monkeypatch.setattr(sheet_module, "text", lambda surface, line, pos, size, *a, **k: (
        calls.append((line, size, k.get("max_width"))), real_text(surface, line, pos, size, *a, **k))[1])
    seen = _type_sizes(monkeypatch)
    surface = pygame.Surface(size)
    render_module.render(surface, view)
    footer = [(line, px, w) for line, px, w in calls if line.startswith(("Totals: ", "Not shown: "))]
    assert footer
    i = calls.index(footer[0])
    foot = [c for c in calls[i:i + 2]]
    joined = " · ".join(line for line, _, _ in foot)
    if footer[0][0].startswith("Totals: "):
        assert all(f"{p} {t}" in joined for p, t in zip(sheet["players"], sheet["totals"]))
    cell_px = max(px for line, px, _ in calls[:i])                 # the tables' type
    assert all(px <= cell_px for _, px, _ in foot)
    assert not [line for px, line in seen if line.startswith(("Totals", "Not shown")) and line.endswith("...")]


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_banner_over_a_short_prompt_takes_the_prompts_empty_room_not_the_trays(size):
    """The banner took 2/5 of the tray's height (the camera image 535 -> 375 px wide at 1920)
    while the prompt under it ("Correct die 1: ...", no menu) left its panel two-thirds empty."""
    from display.render import tray_rect
    from display.view import PromptView

    prompt = PromptView("Ann", "Correct die 1: UP/DOWN change it, OK next", (), "BACK cancels")
    plain = TableView("play", "Objective cards", prompt=prompt)
    banner = TableView("play", "Objective cards", prompt=prompt, message=MessageView(
        "Correcting: UP/DOWN change the die, OK next die, BACK cancels.", "info"))
    surface = pygame.Surface(size)
    assert tray_rect(surface, banner) == tray_rect(surface, plain)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_message_at_the_final_standings_sits_above_them_in_their_panel(size, monkeypatch):
    """'Game abandoned. The log keeps every move.' was laid over the screen, across the first
    standing and the sheet's header row."""
    from display import render as render_module

    banners, lines = [], []
    real_banner, real_text = render_module._banner, render_module.text

    def banner(surface, message, area, s):
        used = real_banner(surface, message, area, s)
        banners.append((area, used))
        return used

    monkeypatch.setattr(render_module, "_banner", banner)

    def text(surface, line, pos, *a, **k):
        lines.append((line, pos))
        return real_text(surface, line, pos, *a, **k)

    monkeypatch.setattr(render_module, "text", text)
    screen = Screen(size, headless=True)
    screen.show(TableView("final", "Game abandoned", "Thirteen abandoned: the scores so far",
                          standings=(Standing("Ann", 12, 1), Standing("Bob", 9, 2)),
                          message=MessageView("Game abandoned. The log keeps every move.", "warning")))
    [(area, used)] = banners
    assert area.right < size[0] * 0.5                        # in the standings' panel, not over the sheet
    first = next(pos for line, pos in lines if line == "1. Ann")
    assert first[1] >= area.y + used                         # the first standing below the banner


def _fitted_cells(monkeypatch) -> list[tuple[str, int, int, tuple[str, ...]]]:
    """(text, width, size, lines) of every sheet cell fitted from now on (`cell_lines` instrumented)."""
    from display import sheet as sheet_module

    fitted: list[tuple[str, int, int, tuple[str, ...]]] = []
    real = sheet_module.cell_lines

    def spy(s, size, bold, width, room, least, *short):
        k, lines = real(s, size, bold, width, room, least, *short)
        fitted.append((s, width, k, lines))
        return k, lines

    monkeypatch.setattr(sheet_module, "cell_lines", spy)
    return fitted


def _cut(fitted: list[tuple[str, int, int, tuple[str, ...]]]) -> list[tuple[str, tuple[str, ...]]]:
    """The cells of `fitted` that a line of theirs does not fit: drawn cut with an ellipsis."""
    from display import theme

    return sorted({(s, lines) for s, width, k, lines in fitted
                   if any(theme.font(k).size(line)[0] > width for line in lines)})


def _game_views(game: str, tray_image, fractions, most: int = 6) -> list[TableView]:
    """A game's screens at each of `fractions` of it, and at the decision after each."""
    views = []
    for fraction in fractions:
        flow, rest = late_game(game, fraction, most=most)
        views.append(flow.view(tray_image))
        while flow.phase != DECIDE and rest:
            flow.state = flow.state.apply(rest.pop(0))
            flow._enter_phase()
        views.append(flow.view(tray_image))
    return views


def test_objective_cards_cells_of_5_players_fit_at_800x480_in_their_short_forms(tray_image, monkeypatch):
    """With 5 players at 800x480 (columns ~57 px) "card committed", "captured by Eve" and
    "discarded" were drawn cut ("captu...", "discar..."): the game gives them short forms
    ("chosen", "to Eve", "lost") and the sheet draws those, whole, at a legible size."""
    from display.render import render

    views = _game_views("objective-cards", tray_image, [0.1, 0.3, 0.5, 0.7, 0.9, 0.95])
    fitted = _fitted_cells(monkeypatch)
    for view in views:
        render(pygame.Surface((800, 480)), view)
    texts = {s for s, *_ in fitted}
    assert {"card committed", "discarded"} <= texts and any(s.startswith("captured by ") for s in texts)
    assert not _cut(fitted)
    assert min(k for _, _, k, _ in fitted) >= 20
    drawn = {line for *_, lines in fitted for line in lines}
    assert {"chosen", "lost", "to Eve"} <= drawn and "captured by Eve" not in drawn


def test_objective_cards_in_hand_cells_of_5_players_stand_apart_at_800x480(tray_image, monkeypatch):
    """With 5 players at 800x480 "in hand" fitted its ~57 px column with 4 px to spare, its text
    two word spaces from the next column's: a row read "in hand in hand in hand". The game gives
    it a short form ("hand"), so the sheet keeps it whole only with room to spare: three word
    spaces or more from its neighbours."""
    from display import theme
    from display.render import render

    views = _game_views("objective-cards", tray_image, [0.1, 0.5, 0.9], most=5)
    fitted = _fitted_cells(monkeypatch)
    for view in views:
        render(pygame.Surface((800, 480)), view)
    space = theme.font(20).size(" ")[0]
    in_hand = [(width, k, lines) for s, width, k, lines in fitted if s.startswith("in hand") and ":" not in s]
    assert in_hand
    for width, k, lines in in_hand:
        drawn = max(theme.font(k).size(line)[0] for line in lines)
        assert drawn <= width and width + 4 - drawn >= 3 * space, (lines, width, drawn)


@pytest.mark.parametrize("players", [5, 6])
def test_thirteens_points_to_go_are_whole_and_apart_from_their_neighbours_at_800x480(players, tray_image,
                                                                                     monkeypatch):
    """The bonus row's "60 to go" was cut ("60 to...") on the abandoned game's standings with 6
    players at 800x480, and where it fitted (6 players playing, 5 on the standings) its text came
    5-10 px from the next column's, a word space or two: "60 to go30 to go" read as one phrase.
    It is drawn whole, three word spaces or more from its neighbours' text."""
    from table_helpers import Press

    from display import theme
    from display.render import render

    flow, _ = late_game("thirteen", 0.3, most=players)
    playing = flow.view(tray_image)
    flow.on_button(Press("ABANDON"))
    flow.on_button(Press("ABANDON"))
    abandoned = flow.view(tray_image)
    assert abandoned.mode == "final" and abandoned.title == "Game abandoned"
    space = theme.font(20).size(" ")[0]
    for view in (playing, abandoned):
        fitted = _fitted_cells(monkeypatch)
        render(pygame.Surface((800, 480)), view)
        monkeypatch.undo()
        to_go = [(width, k, lines) for s, width, k, lines in fitted if s.endswith(" to go")]
        assert len(to_go) == players, view.mode
        for width, k, (line, *more) in to_go:
            drawn = theme.font(k).size(line)[0]
            assert not more and drawn <= width, (view.mode, line)                   # whole, on one line
            assert width + 4 - drawn >= 3 * space, (view.mode, line, width, drawn)  # apart from the next


def test_a_long_form_is_kept_only_with_room_to_spare_beside_its_neighbours():
    """A cell's last form may take its whole width; a longer one only with word spaces to spare."""
    from display.sheet import cell_lines

    pygame.font.init()
    assert cell_lines("60 to go", 20, False, 52, 20, 20, ("−60",))[1] == ("−60",)       # fits, 2 px spare
    assert cell_lines("60 to go", 20, False, 60, 20, 20, ("−60",))[1] == ("60 to go",)
    assert cell_lines("60 to go", 20, False, 52, 20, 20)[1] == ("60 to go",)             # no other form: as before


def test_a_cell_too_wide_for_its_text_takes_the_games_short_form_before_any_cut():
    """The short forms are tried, longest first, on one line and then on two, before the text
    is cut; a text that fits is drawn as it is."""
    from display.sheet import cell_lines

    pygame.font.init()
    assert cell_lines("captured by Eve", 24, False, 57, 24, 20, ("to Eve",))[1] == ("to Eve",)
    assert cell_lines("captured by Eve", 24, False, 400, 24, 20, ("to Eve",))[1] == ("captured by Eve",)
    assert cell_lines("won 7, captured by Eve", 24, False, 57, 24, 20, ("won 7, to Eve",))[1] == ("won 7,", "to Eve")
    assert cell_lines("Two pairs K and 9", 24, False, 52, 26, 20, ("Pairs K+9",))[1] == ("Pairs", "K+9")


def test_classic_hands_of_6_players_fit_at_800x480_without_a_cut(tray_image, monkeypatch):
    """With 6 players at 800x480 (columns ~50 px) "Two pairs K and 9" was drawn "Two" over
    "pairs K and..." and a full house "Full" over "house A o...": the game gives each hand's name
    short forms ("Pairs" over "K+9", "Full A/J") and the sheet draws one whole, at >= 20 px."""
    from display.render import render

    views = _game_views("classic", tray_image, [0.3, 0.6, 0.9])
    fitted = _fitted_cells(monkeypatch)
    for view in views:
        render(pygame.Surface((800, 480)), view)
    names = {s.rsplit(" · ", 1)[-1].split()[0] for s, *_ in fitted if " · " in s}
    assert {"Two", "Full"} <= names                              # two pairs and full houses were drawn
    assert not _cut(fitted)
    assert min(k for _, _, k, _ in fitted) >= 20


def test_classic_hands_of_8_players_fit_at_800x480_in_their_shortest_forms(tray_image, monkeypatch):
    """With 8 players at 800x480 (columns ~44 px) nearly every hand was cut: "Thr...", "Fo...",
    "Pair..."; each hand's name ends in a form of three or four characters ("3×K", "K+9", "A/J")
    that fits, at >= 20 px."""
    from display.render import render

    views = _game_views("classic", tray_image, [0.3, 0.6, 0.9], most=8)
    assert len(views[0].sheet["tables"][0]["columns"]) == 8
    fitted = _fitted_cells(monkeypatch)
    for view in views:
        render(pygame.Surface((800, 480)), view)
    assert any("×" in line for *_, lines in fitted for line in lines)   # the shortest forms were needed
    assert not _cut(fitted)
    assert min(k for _, _, k, _ in fitted) >= 20


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("banner", [False, True])
def test_every_part_of_a_hint_under_a_menu_reaches_the_screen(banner, size, monkeypatch):
    """A hint of more than two lines under a menu lost its last parts ("hold OK: correct
    Maximiliana's dice", "HINT: how to play"): now every part is drawn, whole, and the menu
    scrolls in the rows left, the cursor's row among them."""
    from display import render as render_module
    from display import theme
    from display.view import OptionView, PromptView

    parts = ["HOLD 1-5 keep dice", "UP/DOWN choose", "OK confirm", "BACK hides",
             "hold OK: correct Maximiliana's dice", "HINT: how to play"]
    labels = [f"Category {i}" for i in range(14)]
    surface = pygame.Surface(size)
    s = theme.scale(surface)
    for sel in (0, 13):
        prompt = PromptView("Ann", "Ann: choose a category, or hold dice and throw again (throw 2 of 3)",
                            tuple(OptionView(label, i, i == sel) for i, label in enumerate(labels)), " · ".join(parts))
        view = TableView("play", "Thirteen", prompt=prompt, message=MessageView(
            "Press ABANDON again within 5 seconds to abandon the whole game.", "warning") if banner else None)
        seen = _type_sizes(monkeypatch)
        drawn = _drawn_text(monkeypatch, render_module)
        render_module.render(surface, view)
        hint_lines = [line for line in drawn if any(line.startswith(p) for p in parts)]
        assert " · ".join(hint_lines) == " · ".join(parts)
        assert not [line for px, line in seen if line.endswith("...") and any(p in line for p in parts)]
        assert labels[sel] in drawn and len([line for line in drawn if line in labels]) >= 2
        assert min(px for px, line in seen if line in hint_lines) >= theme.min_text(s)
        monkeypatch.undo()


def test_recorded_dice_are_drawn_in_a_row_with_their_pips():
    """The picture shown in place of the tray when the dice decided on are not on it."""
    from display.recorded import PIP, dice_picture

    image, boxes = dice_picture((1, 6, 3), (640, 480))
    assert image.shape == (480, 640, 3) and len(boxes) == 3
    assert all(0 <= b[0] < b[2] <= 640 and 0 <= b[1] < b[3] <= 480 for b in boxes)
    assert boxes[0][2] < boxes[1][0] < boxes[1][2] < boxes[2][0]           # side by side, apart
    side = boxes[0][2] - boxes[0][0]
    assert side >= 640 // 8                                               # legible across a table
    pip_pixels = [int((image[b[1]:b[3], b[0]:b[2]] == PIP).all(axis=2).sum()) for b in boxes]
    assert pip_pixels[0] * 5 < pip_pixels[1] and pip_pixels[0] * 2 < pip_pixels[2] < pip_pixels[1]


def _card_pages_drawn(card, mode: str, size: tuple[int, int], monkeypatch) -> list[list[tuple[str, int]]]:
    """Every page of `card` as the screen draws it in `mode`: the lines (text, type size) of each,
    title first, foot last."""
    from dataclasses import replace

    from display import card as card_module
    from display import render as render_module

    drawn: list[tuple[str, int]] = []
    real_text = card_module.text
    monkeypatch.setattr(card_module, "text", lambda surface, line, pos, size, *a, **k: (
        drawn.append((line, size)), real_text(surface, line, pos, size, *a, **k))[1])
    pages = []
    for page in range(render_module.help_pages(card, mode, size)):
        drawn.clear()
        render_module.render(pygame.Surface(size), TableView(mode, card.title, help=replace(card, page=page)))
        pages.append(list(drawn))
    return pages


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("mode", ["play", "final", "setup"])
@pytest.mark.parametrize("game", GAMES)
def test_the_longest_card_is_read_whole_across_its_pages(game, mode, size, monkeypatch):
    """With every house rule at its longest at once, the card's every line reaches the screen (on
    the sheet's place while playing, beside the final standings, in place of the setup menu):
    Pok'n Roll's last line was cut at 800x480, the final standings cut Pok'n Roll's and Objective
    cards' standard cards. A card too long for its panel is drawn in pages, never below the
    legible size; each page but the last says HINT turns it, and the page is numbered."""
    from card_helpers import longest_rules
    from controller.help_card import help_card
    from controller.rules import GAMES as REGISTRY
    from display import theme

    card = help_card(REGISTRY[game], longest_rules(game))
    pages = _card_pages_drawn(card, mode, size, monkeypatch)
    body = []
    for number, lines in enumerate(pages, 1):
        words = [line for line, _ in lines]
        assert words[0] == card.title
        assert words[-1] == (card.foot if number == len(pages) else card.next_foot)
        marker = [f"{number}/{len(pages)}"] if len(pages) > 1 else []
        assert words[1:1 + len(marker)] == marker
        body += words[1 + len(marker):-1]
        assert min(px for _, px in lines[1 + len(marker):-1]) >= theme.min_text(theme.scale(pygame.Surface(size)))
    assert " ".join(body).split() == " ".join(card.paragraphs).split()     # every word, in order, once
    if size == (1920, 1080):
        assert len(pages) == 1                       # room for it all: the card as it always was


def test_a_card_that_fits_is_one_page_as_before():
    """The standard cards fit the play screen at 800x480: one page, no page number, the foot
    that says HINT closes it."""
    from controller.help_card import CLOSE_HINT, help_card
    from controller.rules import GAMES as REGISTRY
    from display import render as render_module

    for game in GAMES:
        assert render_module.help_pages(help_card(REGISTRY[game]), "play", (800, 480)) == 1
    assert help_card(REGISTRY["thirteen"]).foot == CLOSE_HINT


@pytest.mark.parametrize("size", SIZES + [(1024, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_setup_hint_with_play_again_and_eight_names_is_drawn_whole(size, monkeypatch):
    """The games page's hint after a game names the players ("hold OK: play again (Ann, ...)"):
    on one line, shrunk to fit, eight names of 12 letters pushed "HINT: how to play" off its
    end at 800x480 and shrank it below the hint's size at 1024x600. Its parts go on lines of
    their own, each whole at the hint's size, under the game's description, not over it."""
    from controller.setup_menu import MAX_NAME, SetupDefaults, SetupMenu, SetupResult
    from display import render as render_module
    from display import theme

    menu = SetupMenu(defaults=SetupDefaults(game="classic"))
    menu.names = [f"{c}{'x' * (MAX_NAME - 1)}" for c in "ABCDEFGH"]
    menu.count = 8
    menu.last = SetupResult("classic", menu.players(), menu.options())
    view = menu.view()
    assert "play again (Axxxxxxxxxxx" in view.prompt.hint
    drawn = []
    real_text = render_module.text
    monkeypatch.setattr(render_module, "text", lambda surface, line, pos, px, *a, **k: (
        drawn.append((line, px, k.get("max_width"), real_text(surface, line, pos, px, *a, **k))), drawn[-1][3])[1])
    surface = pygame.Surface(size)
    render_module.render(surface, view)
    s = theme.scale(surface)
    [at] = [i for i, (line, *_) in enumerate(drawn) if line == view.prompt.text]
    about, hint = drawn[at][3], drawn[at + 1:]                 # the hint: the last lines drawn
    words = view.prompt.hint.replace(" · ", " ").split()
    assert " ".join(line for line, *_ in hint).replace(" · ", " ").split() == words
    for line, px, width, rect in hint:
        assert px == theme.legible(28, s) and theme.font(px).size(line)[0] <= width, line
    assert all(rect.top >= about.bottom for *_, rect in hint)
    assert max(rect.bottom for *_, rect in hint) <= surface.get_height()


@pytest.mark.parametrize("size", SIZES + [(1024, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("banner", [False, True])
@pytest.mark.parametrize("layout", ["staggered", "tight", "small"])
def test_no_held_mark_is_drawn_over_another(layout, banner, size, monkeypatch):
    """HELD marks are as wide as the legible type makes them, wider than a small die: two held
    dice side by side had theirs run together ("HELDHELD") at 800x480, under a banner (the
    tray squeezed) and on a camera's small dice alike. Each still on its own die."""
    from display.view import DieMark

    def box(i):
        if layout == "staggered":                            # the reviewer's tray: every other die lower
            return (40 + 110 * i, 180 + 30 * (i % 2), 120 + 110 * i, 260 + 30 * (i % 2))
        if layout == "tight":                                # side by side, 5 px apart
            return (100 + 85 * i, 200, 180 + 85 * i, 280)
        return (130 + 60 * i, 200 + 12 * (i % 2), 180 + 60 * i, 250 + 12 * (i % 2))    # a camera's 50 px dice

    marks = tuple(DieMark(box(i), "J", held=i != 2, position=i + 1) for i in range(5))
    boxes, drawn = _tray_marks_drawn(marks, size, banner, monkeypatch)
    held = [(i, h) for i, (*_, h) in enumerate(drawn) if h is not None]
    assert len(held) == 4
    for i, h in held:
        assert boxes[i].collidepoint(h.center)                               # on its own die
        assert all(not h.colliderect(other) for j, other in held if j != i), (i, held)


@pytest.mark.parametrize("size", [(800, 480), (1024, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("banner", [False, True])
@pytest.mark.parametrize("layout", ["tight", "small", "touching"])
def test_on_a_crowded_tray_no_held_mark_covers_another_die_or_its_face_tag(layout, banner, size, monkeypatch):
    """A HELD word wider than a small die covered the next die and its face tag ("K" under
    HELD at 800x480): players could not read that die's value. Where the word does not fit, a
    held die is marked on itself (a letter in a thick frame), never over a neighbour."""
    from display import theme
    from display.view import DieMark

    def box(i):
        if layout == "tight":                                # side by side, 5 px apart
            return (100 + 85 * i, 200, 180 + 85 * i, 280)
        if layout == "touching":                             # a camera's 50 px dice, touching
            return (150 + 50 * i, 220, 200 + 50 * i, 270)
        return (130 + 60 * i, 200 + 12 * (i % 2), 180 + 60 * i, 250 + 12 * (i % 2))    # 50 px dice, staggered

    for held_dice in ((0, 1, 3), (1, 2), (0, 1, 3, 4)):
        marks = tuple(DieMark(box(i), "JK3Q6"[i], held=i in held_dice, position=i + 1) for i in range(5))
        boxes, drawn = _tray_marks_drawn(marks, size, banner, monkeypatch)
        monkeypatch.undo()
        tags = [tag_rect for _, tag_rect, _, _ in drawn]
        for i, (mark, die, (_, _, _, held)) in enumerate(zip(marks, boxes, drawn)):
            if not mark.held:
                assert held is None
                continue
            assert held is not None and die.collidepoint(held.center), (i, held, die)      # on its own die
            assert held.height >= theme.font(theme.min_text(0.5), True).size("H")[1]
            for j in range(5):
                if j != i:
                    assert not held.colliderect(boxes[j]) and not held.colliderect(tags[j]), (i, j, held)


@pytest.mark.parametrize("layout", ["staggered", "tight"])
def test_a_roomy_tray_keeps_the_held_word(layout, monkeypatch):
    """At 1920x1080 the dice are big enough for the whole word: it stays "HELD" there."""
    from display import theme
    from display.view import DieMark

    def box(i):
        if layout == "staggered":
            return (40 + 110 * i, 180 + 30 * (i % 2), 120 + 110 * i, 260 + 30 * (i % 2))
        return (100 + 85 * i, 200, 180 + 85 * i, 280)

    marks = tuple(DieMark(box(i), "J", held=i in (0, 1, 3), position=i + 1) for i in range(5))
    boxes, drawn = _tray_marks_drawn(marks, (1920, 1080), False, monkeypatch)
    word = theme.font(theme.min_text(1.5), True).size("HELD")
    for i, (*_, held) in enumerate(drawn):
        assert (held is not None) == (i in (0, 1, 3))
        assert held is None or held.width >= word[0]


def _squeezed_tray_drawn(marks, size, monkeypatch):
    """The dice's boxes and what `render.tray_marks` placed for `marks`, on a tray squeezed by a
    3-line warning banner over a six-option menu (~10 px dice at 800x480)."""
    from display import render as render_module
    from display.view import OptionView, PromptView, TrayView

    seen = []
    real = render_module.tray_marks
    monkeypatch.setattr(render_module, "tray_marks", lambda tray, boxes, *a: (
        seen.append((boxes, real(tray, boxes, *a))), seen[-1][1])[1])
    view = TableView("play", "Thirteen", tray=TrayView(np.zeros((480, 640, 3), np.uint8), marks, caption="Dice"),
                     prompt=PromptView("Ann", "Ann: choose a category, or hold dice and throw again",
                                       tuple(OptionView(f"Option {k}", k) for k in range(6)), "HOLD 1-5 keep · OK"),
                     message=MessageView("Press ABANDON again within 5 seconds to abandon the whole game, or any other "
                                         "button to go on playing this round with the dice as they lie.", "warning"))
    render_module.render(pygame.Surface(size), view)
    (boxes, drawn), = seen
    return boxes, drawn


@pytest.mark.parametrize("size", [(800, 480), (1024, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_on_a_tray_squeezed_by_a_banner_over_a_menu_no_held_mark_hides_a_face_tag(size, monkeypatch):
    """A 3-line banner over a six-option menu leaves ~10 px dice at 800x480: the HELD words
    covered the dice, their discs and the next die's values. Held marks now keep off every other
    die's face tag, each on its own die."""
    from display.view import DieMark

    marks = tuple(DieMark((130 + 60 * i, 200 + 12 * (i % 2), 180 + 60 * i, 250 + 12 * (i % 2)), "3J6K1"[i],
                          held=i in (0, 1, 3), position=i + 1) for i in range(5))
    boxes, drawn = _squeezed_tray_drawn(marks, size, monkeypatch)
    tags = [tag_rect.inflate(8, 2) for _, tag_rect, _, _ in drawn]
    for i, (mark, (*_, held)) in enumerate(zip(marks, drawn)):
        assert (held is not None) == mark.held
        if held is not None:
            assert boxes[i].collidepoint(held.center), (i, held)
            assert not any(held.colliderect(t) for j, t in enumerate(tags) if j != i), (i, held, tags)



@pytest.mark.parametrize("banner", [False, True])
def test_a_held_letter_moves_up_or_down_its_die_off_the_next_dies_face_tag(banner, monkeypatch):
    """Dice in a column at 800x480: the next die's face tag sits on a die's lower edge, and
    the letter, slid only sideways, stayed over it. It now moves up or down its own die too."""
    from display.view import DieMark

    marks = tuple(DieMark((250, 20 + 90 * i, 330, 100 + 90 * i), "J", held=i in (0, 3), position=i + 1)
                  for i in range(5))
    boxes, drawn = _tray_marks_drawn(marks, (800, 480), banner, monkeypatch)
    tags = [tag_rect.inflate(8, 2) for _, tag_rect, _, _ in drawn]
    for i in (0, 3):
        held = drawn[i][3]
        assert boxes[i].collidepoint(held.center)
        assert all(not held.colliderect(tags[j]) and not held.colliderect(boxes[j]) for j in range(5) if j != i)


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (320, 240)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("layout,held_dice", [("column", (1, 2, 3)), ("row", (0, 1, 3)), ("row", (0, 1, 2, 3, 4)),
                                              ("touching", (1, 2, 3))])
def test_on_a_squeezed_tray_no_held_mark_covers_a_neighbouring_die(layout, held_dice, size, monkeypatch):
    """A 3-line banner over a six-option menu leaves ~10 px dice at 800x480, where even the H
    is bigger than a die: in a column of three held dice the middle H lay over the dice above
    and below, and over the Hs and values there. No held mark now covers another die or another
    held mark; a die too small even for the H is its own mark (`HeldDie`: filled, drawn under
    the tags and discs, its tag ringed), and the letter, where it stays, covers no tag or disc."""
    from display import render as render_module
    from display.view import DieMark

    def box(i):
        if layout == "column":
            return (300, 60 + 55 * i, 350, 110 + 55 * i)
        if layout == "touching":
            return (150 + 50 * i, 220, 200 + 50 * i, 270)
        return (130 + 60 * i, 200 + 12 * (i % 2), 180 + 60 * i, 250 + 12 * (i % 2))

    marks = tuple(DieMark(box(i), "3J6K1"[i], held=i in held_dice, position=i + 1) for i in range(5))
    boxes, drawn = _squeezed_tray_drawn(marks, size, monkeypatch)
    if size == (800, 480):
        assert max(b.width for b in boxes) <= 12                                 # the squeezed tray
    tags = [tag_rect.inflate(8, 2) for _, tag_rect, _, _ in drawn]
    discs = [badge[1] for _, _, badge, _ in drawn]
    held = {i: h for i, (*_, h) in enumerate(drawn) if h is not None}
    assert set(held) == set(held_dice)
    for i, h in held.items():
        assert boxes[i].collidepoint(h.center), (i, h, boxes[i])                # on its own die
        if h.width == 0:
            continue                                                             # (its frame and tag say it)
        others = [b for j, b in enumerate(boxes) if j != i] + [o for j, o in held.items() if j != i and o.width]
        assert h.collidelist(others) < 0, (i, h, others)
        if not isinstance(h, getattr(render_module, "HeldDie", ())):         # (the letter, or the word)
            assert h.collidelist([t for j, t in enumerate(tags) if j != i] + discs[:i] + discs[i + 1:]) < 0, (i, h)


def test_a_die_that_is_its_own_held_mark_stays_off_the_dice_it_overlaps():
    """Dice a pixel apart on a 320x240 screen round onto each other: the filled die is shrunk off
    the other's box, and left empty (its frame and ringed tag mark it) when it cannot be."""
    from display.render import HeldDie, held_die

    alone = held_die(pygame.Rect(10, 10, 10, 10), [pygame.Rect(30, 10, 10, 10)])
    assert isinstance(alone, HeldDie) and alone == pygame.Rect(10, 10, 10, 10)
    shrunk = held_die(pygame.Rect(10, 10, 10, 10), [pygame.Rect(19, 10, 10, 10)])
    assert shrunk.width > 0 and not shrunk.colliderect(pygame.Rect(19, 10, 10, 10))
    assert pygame.Rect(10, 10, 10, 10).contains(shrunk)
    covered = held_die(pygame.Rect(10, 10, 4, 4), [pygame.Rect(10, 10, 4, 4)])
    assert covered.width == 0 and covered.center == (12, 12)


def _crowded_boxes(layout: str, n: int) -> list[tuple[int, int, int, int]]:
    """Dice boxes in a 640x480 image: touching in rows of 5 (School's demo: die 3 right above
    die 1), in a row, at the image's corners and edges, in a touching column."""
    if layout == "touching":
        return [(100 + 60 * (i % 5), 150 + 60 * (i // 5), 160 + 60 * (i % 5), 210 + 60 * (i // 5)) for i in range(n)]
    if layout == "row":
        return [(10 + 62 * i, 200, 70 + 62 * i, 260) for i in range(n)]
    if layout == "edges":
        spots = [(0, 0), (560, 0), (0, 400), (560, 400), (280, 0), (280, 400), (0, 200), (560, 200),
                 (200, 200), (360, 200)]
        return [(x, y, x + 80, y + 80) for x, y in spots[:n]]
    return [(300, 10 + 47 * i, 345, 55 + 47 * i) for i in range(n)]          # a column, touching


@pytest.mark.parametrize("size", [(320, 240), (800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("count", [5, 10])
@pytest.mark.parametrize("layout", ["touching", "row", "edges", "column"])
def test_every_die_s_value_and_hold_number_have_a_place_of_their_own_in_the_picture(layout, count, size):
    """Die 1's "6" was half hidden under the HOLD disc of die 3 touching it from above (the
    demo's School screenshot); tags ran off the image at its edges and into each other in a
    column. No face tag's pill or disc covers another, and none leaves the tray's picture area,
    for 5 and 10 (Pok'n Roll) crowded dice at three screen sizes."""
    from display import render as render_module
    from display.view import DieMark, PromptView, TrayView

    marks = tuple(DieMark(box, str(1 + i % 6), held=i % 3 == 0, position=i + 1)
                  for i, box in enumerate(_crowded_boxes(layout, count)))
    seen = []
    real = render_module.tray_marks
    view = TableView("play", "Pok'n Roll", tray=TrayView(np.zeros((480, 640, 3), np.uint8), marks, "Dice"),
                     prompt=PromptView("Ann", "Ann: choose", (), "OK"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(render_module, "tray_marks", lambda tray, boxes, dst, s, *room: (
            seen.append((room[0] if room else dst, real(tray, boxes, dst, s, *room))), seen[-1][1])[1])
        render_module.render(pygame.Surface(size), view)
    (room, drawn), = seen
    labels = [rect for _, tag, badge, _ in drawn for rect in (tag.inflate(8, 2), badge[1])]
    assert len(labels) == 2 * count
    assert render_module.tray_rect(pygame.Surface(size), view).contains(room)     # (drawn: not clipped off)
    outside = [i for i, rect in enumerate(labels) if not room.contains(rect)]
    over = [(i, j) for i in range(len(labels)) for j in range(i) if labels[i].colliderect(labels[j])]
    assert not outside and not over, (outside, over)


@pytest.mark.parametrize("size", [(320, 240), (800, 480)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("mode", ["play", "final"])
@pytest.mark.parametrize("game", GAMES)
def test_hints_page_count_in_a_game_is_the_cards_drawn_under_a_banner(game, mode, size):
    """The game counts the HINT card's pages with no banner (`hint_pressed` is given none in play),
    where the setup menu's count takes its banner in: checked that no banner of the play or
    final screen takes the card's room, so the count is the card's drawn pages (a guard: this
    held already, the play screen's banner is in the left column, the final screen's leaves
    the card's column while the card is shown)."""
    from controller.help_card import help_card
    from controller.rules import GAMES as RULES
    from display import render as render_module
    from display.card import card_frame, card_layout
    from display.view import PromptView, TrayView

    help = help_card(RULES[game])
    message = MessageView("I see 5 dice; the game needs 7 (5 held + 2 thrown). Fix the tray or throw again, "
                          "or hold OK to enter the values.", "warning")
    view = TableView(mode, game, "Round 1", None, TrayView(None), PromptView("Ann", "Ann: choose", (), "OK"),
                     message, help=help)
    drawn = []
    surface = pygame.Surface(size)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(render_module, "draw_card", lambda surf, card, rect, s: drawn.append(rect))
        render_module.render(surface, view)
    rect, = drawn
    pages = len(card_layout(help, card_frame(help, rect, render_module.theme.scale(surface))).pages)
    assert render_module.help_pages(help, mode, size) == pages
