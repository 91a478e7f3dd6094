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
