"""The setup menu driven as staff drive it, on a panel of only UP/DOWN/OK and on a full panel."""
from __future__ import annotations

import pytest

from controller.rules import GAMES
from controller.setup_menu import BACK_LABEL, NEXT_LABEL, SetupDefaults, SetupMenu, option_kind

SHORT = frozenset({"UP", "DOWN", "OK"})


def press(menu: SetupMenu, *names: str) -> None:
    for name in names:
        menu.on_button("press", name)


def on_row(menu: SetupMenu, label: str) -> None:
    """DOWN until `label` is under the cursor (a three-button panel has nothing else)."""
    for _ in range(60):
        rows = menu._rows()
        if rows[menu.cursor[menu.page]].label == label:
            return
        press(menu, "DOWN")
    raise AssertionError(f"no row {label!r} on page {menu.page}")


def test_ok_on_a_rule_with_one_value_says_so() -> None:
    """School's tie rule has one value: OK on it changed nothing and said nothing (staff pressed on,
    thinking the panel dead). Now the screen says there is no other choice."""
    menu = SetupMenu(defaults=SetupDefaults(game="school"), buttons=SHORT)
    press(menu, "OK", "OK", "OK")
    assert menu.page == "options"
    on_row(menu, "Tie")
    press(menu, "OK")
    assert menu.message is not None and menu.message.text == "Tie has no other choice in School: shared"
    assert menu.values["tie"] == "shared" and menu.options() == {}
    assert menu.view().message.text == "Tie has no other choice in School: shared"


@pytest.mark.parametrize("panel", [SHORT, None], ids=["three buttons", "full panel"])
@pytest.mark.parametrize("game", list(GAMES))
def test_every_rule_of_every_game_is_reached_changed_and_left_with_up_down_ok(game, panel) -> None:
    """Every rule a button can change is changed with DOWN and OK alone, every page is left by its
    "< Back" row back to the games page, and the game then starts with what was changed."""
    menu = SetupMenu(defaults=SetupDefaults(game=game), buttons=panel)
    press(menu, "OK", "OK", "OK")
    specs = [s for s in GAMES[game].OPTIONS if option_kind(s) != "fixed" and len(s.choices or (0, 1)) > 1]
    for spec in specs:
        if spec.name == "start_seat":
            continue                              # (a seat, while the table draws the first player)
        before = menu.values[spec.name]
        on_row(menu, spec.name.replace("_", " ")[:1].upper() + spec.name.replace("_", " ")[1:])
        press(menu, "OK")
        if menu.editing is not None:
            press(menu, "DOWN" if spec.maximum is not None and before >= spec.maximum else "UP", "OK")
        assert menu.editing is None and menu.values[spec.name] != before, (spec.name, menu.message)
    changed = menu.options()
    for page in ("options", "names", "count"):
        on_row(menu, BACK_LABEL)
        press(menu, "OK")
        assert menu.page == {"options": "names", "names": "count", "count": "game"}[page]
    press(menu, "OK", "OK")                        # the game, then the count it had
    for _ in range(2):
        on_row(menu, NEXT_LABEL)
        press(menu, "OK")
    on_row(menu, "Start game")
    press(menu, "OK")
    assert menu.done is not None and menu.done.game == game and menu.done.options == changed


BOX_DOWN = ("Buttons: serial: button box on /dev/ttyACM0 disconnected: [Errno 5] Input/output error. "
            "The other buttons work.")


@pytest.mark.parametrize("size", [(320, 240), (800, 480)])
@pytest.mark.parametrize("notice", [BOX_DOWN, "Camera: test: camera unplugged. Retrying..."])
@pytest.mark.parametrize("page", ["game", "options"])
def test_the_menu_under_a_device_notice_is_drawn_row_under_row_not_over(size, notice, page, monkeypatch) -> None:
    """A 320x240 screen under the notice of the box unplugged: the games page's rows were drawn 5 px
    apart (the house rules' 8 px), in type 13 px high, each over the next, for as long as the box
    was out. The rows drawn are now their type's height apart (a pixel of its descenders aside, as
    without a notice), the one under the cursor among them, the others behind "... N more"."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from display import render, theme
    from display.view import MessageView

    menu = SetupMenu(defaults=SetupDefaults(game="classic"), screen_size=size, buttons=SHORT)
    press(menu, "DOWN")                                       # (the cursor off the first row)
    if page == "options":
        press(menu, "UP", "OK", "OK", "OK", "DOWN", "DOWN")
    menu.notice = MessageView(notice, "error")
    view = menu.view()
    drawn: list[tuple[str, int, int]] = []
    real_text = render.text

    def text(surface, words, pos, size, *args, **kw):
        drawn.append((words, pos[1], size))
        return real_text(surface, words, pos, size, *args, **kw)

    monkeypatch.setattr(render, "text", text)
    render.render(pygame.Surface(size), view)
    labels = [item.label for item in view.setup]
    rows = [(y, px) for words, y, px in drawn if words in labels and words != view.title]
    assert len(rows) == len(labels) and any(item.selected for item in view.setup)
    apart = min(b[0] - a[0] for a, b in zip(rows, rows[1:]))
    assert apart >= theme.font(rows[0][1], True).get_height() - 1, (apart, labels)   # (13 px type: 12 apart)


def test_a_three_button_panel_steps_back_a_letter_and_out_of_a_name_with_a_long_up() -> None:
    """Renaming a seat on UP/DOWN/OK: a letter passed with OK could not be gone back to, nor a name
    opened by mistake left as it was, but by OK to its end (BACK does both; the panel has none). A
    long UP is BACK, as during a game, and the hint says so."""
    menu = SetupMenu(defaults=SetupDefaults(game="thirteen", players=("Ann", "Bob")), buttons=SHORT)
    press(menu, "OK", "OK")
    on_row(menu, "Seat 1")
    press(menu, "OK", "UP", "OK")                             # "Bnn", on its second letter
    assert menu.editing is not None and menu.editing.text() == "B[n]n"
    assert menu.view().prompt.hint.endswith("hold UP: previous letter")
    menu.on_button("hold", "UP")
    assert menu.editing.text() == "[B]nn"
    menu.on_button("hold", "UP")                              # out: the name as it was
    assert menu.editing is None and menu.players() == ("Ann", "Bob")


def test_a_full_panels_long_up_in_a_name_is_still_up() -> None:
    menu = SetupMenu(defaults=SetupDefaults(game="thirteen", players=("Ann", "Bob")))
    press(menu, "OK", "OK")
    on_row(menu, "Seat 1")
    press(menu, "OK")
    menu.on_button("hold", "UP")
    assert menu.editing.text() == "[B]nn" and menu.view().prompt.hint.endswith("BACK previous")
