"""A panel of only UP, DOWN and OK (the example config's minimal panel) can still take back a
choice and end a game: a long UP is BACK, a long DOWN is ABANDON, and the screen says so."""
from __future__ import annotations

from controller.config import parse_config
from controller.rules import new_game
from controller.short_panel import aliased, button_words, panel_buttons, reworded
from controller.table import DECIDE, OVER, TableFlow
from controller.tablelog import TableLog, replay
from display.screen import Screen
from table_helpers import Clock, Press
from test_table_e2e import FakeButtons, NoFrames
from test_table_flow import reading, score

THREE = {"type": "gpio", "pins": {"UP": 27, "DOWN": 22, "OK": 17}}


def three_button_flow():
    state = new_game("thirteen", ["Ann", "Bob"])
    clock = Clock()
    flow = TableFlow(state, TableLog("thirteen", ["Ann", "Bob"], {}), clock=clock,
                     words=button_words(panel_buttons(THREE)))
    flow.on_reading(reading([6, 6, 6, 3, 3]))
    flow.on_button(Press("OK"))
    return flow, clock


def test_a_panel_without_hold_buttons_is_not_told_to_press_them(tmp_path):
    """The decision's hint said "HOLD 1-5 keep dice" on a panel of UP, DOWN and OK, whose dice
    are held with the menu's die lines."""
    from test_table_e2e import table_app

    panel = '[buttons]\ntype = "gpio"\npins = { UP = 27, DOWN = 22, OK = 17 }\n'
    three = table_app(tmp_path, NoFrames(), FakeButtons(), table=panel)
    assert "HINT" not in three.flow.view().prompt.hint              # (nor HINT, while waiting for a throw)
    three.flow.on_reading(reading([6, 6, 6, 3, 3]))
    three.flow.on_button(Press("OK"))
    hint = three.flow.view().prompt.hint
    assert three.flow.phase == DECIDE and "HOLD" not in hint and hint.startswith("OK on a die holds it")
    flow, _ = three_button_flow()                  # (a flow told nothing of its panel: it may have them)
    assert flow.view().prompt.hint.startswith("HOLD 1-5 keep dice")


def test_the_setup_menu_of_a_three_button_panel_names_no_hint_or_back_button():
    """The games page said "HINT: how to play" and the last page "BACK: change something" on a
    panel of UP, DOWN and OK (its "< Back" rows stand for BACK)."""
    from controller.setup_menu import SetupMenu

    menu = SetupMenu(buttons=panel_buttons(THREE))
    assert menu.view().prompt.hint == "UP/DOWN choose · OK next · hold OK: start now"
    assert "HINT: how to play" in SetupMenu().view().prompt.hint
    for _ in range(4):
        menu.on_button("press", "OK")
    assert menu.page == "start" and menu.view().prompt.hint == "OK: start the game"


def test_long_up_and_down_stand_for_back_and_abandon_short_presses_do_not():
    assert aliased("hold", "UP") == ("press", "BACK")
    assert aliased("hold", "DOWN") == ("press", "ABANDON")
    assert aliased("press", "UP") == ("press", "UP") and aliased("hold", "OK") == ("hold", "OK")


def test_which_panels_are_known_to_lack_back_and_abandon():
    assert panel_buttons(THREE) == {"UP", "DOWN", "OK"}
    assert button_words(panel_buttons(THREE)) == {"BACK": "hold UP", "ABANDON": "hold DOWN"}
    full = {"type": "gpio", "pins": {"UP": 27, "DOWN": 22, "OK": 17, "BACK": 23, "ABANDON": 24}}
    assert button_words(panel_buttons(full)) == {"BACK": "BACK", "ABANDON": "ABANDON"}
    # a button box may have any button: nothing is renamed when one is part of the table
    box = {"type": "multi", "sources": [THREE, {"type": "serial", "port": "/dev/x"}]}
    assert panel_buttons(box) is None and button_words(None) == {"BACK": "BACK", "ABANDON": "ABANDON"}
    assert panel_buttons({"type": "multi", "sources": [THREE, {"type": "gpio", "pins": {"BACK": 23}}]}) \
        == {"UP", "DOWN", "OK", "BACK"}


def test_rewording_names_the_long_press():
    words = button_words(panel_buttons(THREE))
    assert reworded("Press BACK again within 4 seconds", words) == "Hold UP again within 4 seconds"
    assert reworded("OK accepts · BACK to throw again", words) == "OK accepts · hold UP to throw again"
    assert reworded("BACK twice: undo BACKUS's choice", words) == "hold UP twice: undo BACKUS's choice"


def test_a_choice_is_taken_back_with_long_up_and_the_hint_says_so():
    flow, clock = three_button_flow()
    before = flow.state
    score(flow, "THREES")
    assert flow.state is not before
    assert "hold UP twice: undo Ann's choice" in flow.view().prompt.hint
    flow.on_button(Press("UP", "hold"))
    assert flow.message.text.startswith("Hold UP again within")
    flow.on_button(Press("UP", "hold"))
    assert flow.state.snapshot() == before.snapshot() and flow.phase == DECIDE
    assert replay(flow.log).snapshot() == flow.state.snapshot()


def test_a_game_is_abandoned_with_two_long_downs():
    flow, clock = three_button_flow()
    flow.on_button(Press("DOWN", "hold"))
    assert flow.phase != OVER and flow.message.text.startswith("Hold DOWN again within 5 seconds")
    flow.on_button(Press("DOWN"))                      # a short DOWN only moves the cursor
    assert flow.phase != OVER
    flow.on_button(Press("DOWN", "hold"))
    assert flow.phase == OVER and flow.abandoned


def test_the_table_names_the_long_presses_for_a_three_button_panel(tmp_path):
    from controller.setup_menu import SetupResult
    from controller.table_app import TableApp

    config = parse_config(f'[table]\njournal_dir = "{tmp_path}"\n\n[buttons]\ntype = "gpio"\n'
                          '[buttons.pins]\nUP = 27\nDOWN = 22\nOK = 17\n')
    app = TableApp(config, Screen((800, 480), headless=True), NoFrames(), FakeButtons())
    app.menu.done = SetupResult("thirteen", ("Ann",), {})
    app.start_new()
    assert app.flow.words == {"BACK": "hold UP", "ABANDON": "hold DOWN"}
