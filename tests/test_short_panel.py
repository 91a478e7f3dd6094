"""A panel of only UP, DOWN and OK (the example config's minimal panel) can still take back a
choice and end a game: a long UP is BACK, a long DOWN is ABANDON, and the screen says so."""
from __future__ import annotations

import json

import pytest

from controller.config import parse_config
from controller.rules import new_game
from controller.short_panel import aliased, button_words, panel_buttons, reworded
from controller.table import CONFIRM, DECIDE, OVER, WAIT_DICE, TableFlow
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
    assert menu.view().prompt.hint == "UP/DOWN choose · OK next · hold OK: start now · how to play: on the next page"
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
    # a keyboard beside the panel is the staff's: the players' buttons are the panel's (the docs
    # review: the example config's keyboard made a three-button panel's screen name BACK and HINT)
    keyboard = {"type": "keyboard"}
    assert panel_buttons({"type": "multi", "sources": [THREE, keyboard]}) == {"UP", "DOWN", "OK"}
    assert panel_buttons({"type": "multi", "sources": [box, keyboard]}) is None
    assert panel_buttons({"type": "multi", "sources": [keyboard]}) is None
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


# ------------------------------------------------------------------ the card without HINT
GAME_NAMES = ("thirteen", "classic", "school", "poknroll", "objective-cards")
PLAYERS = {"poknroll": ("Ann", "Bob", "Cy")}


def _menu_state(menu):
    """What the setup menu would start: reading the card must change none of it."""
    return (menu.page, dict(menu.cursor), menu.game_index, menu.count, list(menu.names), dict(menu.values),
            menu.done)


def _on_row(menu, label):
    """The setup menu's cursor moved (with DOWN) onto the row `label`."""
    for _ in range(len(menu._rows())):
        if menu._rows()[menu.cursor[menu.page]].label == label:
            return
        menu.on_button("press", "DOWN")
    raise AssertionError(f"no row {label!r} on {menu.page}: {[r.label for r in menu._rows()]}")


def _read_with_ok(menu, game, pages):
    """OK on "How to play <game>" opens its card; OK turns each page; OK on the last closes it."""
    before = _menu_state(menu)
    menu.on_button("press", "OK")
    for page in range(pages):
        help = menu.view().help
        assert help.title == f"How to play {game.title}" and help.page == page
        assert help.paragraphs == game.rules_card(menu._rules_of(game))
        assert "HINT" not in help.foot + help.next_foot and help.foot.startswith("OK again: close")
        assert _menu_state(menu) == before
        menu.on_button("press", "OK")
    assert menu.view().help is None and _menu_state(menu) == before


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("pages", [1, 2])
def test_each_games_card_opens_from_the_setup_menu_of_a_three_button_panel(name, pages, monkeypatch):
    """The games page could not show the card without HINT. The next pages (the players' count,
    and "Ready to play") have a "How to play <game>" row: OK opens the card of the game chosen,
    OK turns its pages (two asked for here: in place of the menu every card fits one page at
    800x480) and closes it after the last, and nothing chosen changes."""
    from controller.rules import GAMES
    from controller.setup_menu import SetupMenu
    from display import render

    monkeypatch.setattr(render, "help_pages", lambda help, mode, size, message=None: pages)
    menu = SetupMenu(buttons=panel_buttons(THREE), screen_size=(800, 480))
    while menu.games[menu.cursor["game"]].name != name:
        menu.on_button("press", "DOWN")
    assert menu.view().prompt.hint.endswith("how to play: on the next page")
    menu.on_button("press", "OK")
    game = GAMES[name]
    assert menu.page == "count"
    _on_row(menu, f"How to play {game.title}")
    _read_with_ok(menu, game, pages)
    _on_row(menu, f"{menu.count} player{'s' if menu.count > 1 else ''}")
    for _ in range(3):                                  # (names, house rules: "Next >")
        menu.on_button("press", "OK")
    assert menu.page == "start"
    _on_row(menu, f"How to play {game.title}")
    _read_with_ok(menu, game, pages)
    _on_row(menu, "Start game")
    menu.on_button("press", "OK")
    assert menu.done is not None and menu.done.game == name


def test_a_long_ok_on_the_how_to_play_row_starts_with_the_count_shown():
    """A long OK starts at once with what the page shows: on the count page's "How to play" row it
    took the row's place for a player count (as "< Back" once did)."""
    from controller.setup_menu import SetupMenu

    menu = SetupMenu(buttons=panel_buttons(THREE))
    menu.on_button("press", "OK")
    count = menu.count
    _on_row(menu, "How to play Thirteen")
    menu.on_button("hold", "OK")
    assert menu.done is not None and len(menu.done.players) == count


def test_the_full_panels_setup_menu_has_no_how_to_play_row():
    """A panel that has HINT, or may have it, keeps its pages as they were."""
    from controller.setup_menu import SetupMenu

    full = {"type": "gpio", "pins": {"UP": 27, "DOWN": 22, "OK": 17, "HINT": 25}}
    for buttons in (None, panel_buttons(full)):
        menu = SetupMenu(buttons=buttons)
        assert menu.view().prompt.hint.endswith("HINT: how to play")
        menu.on_button("press", "OK")
        assert [r.label for r in menu._rows()][-2:] == ["6 players", "< Back"]
        menu.on_button("press", "HINT")
        assert menu.view().help.foot.startswith("HINT again: close")


def three_button_table(name, tmp_path, options=None):
    """A game on a table told its panel is UP, DOWN and OK, journaled in `tmp_path`."""
    from controller.journal import Journal

    players = PLAYERS.get(name, ("Ann", "Bob"))
    log = TableLog(name, list(players), dict(options or {}))
    journal = Journal(tmp_path / "journal.jsonl", log)
    panel = panel_buttons(THREE)
    flow = TableFlow(new_game(name, list(players), options), log, clock=Clock(), on_apply=journal.append,
                     on_take_back=journal.take_back, words=button_words(panel), panel=panel)
    return flow, tmp_path / "journal.jsonl"


def _untouched(flow, journal):
    """The game, its log and its journal as they are now (the card must change none of them)."""
    return (json.dumps(flow.state.snapshot(), sort_keys=True), list(flow.log.inputs), journal.read_bytes(),
            flow.phase, flow.cursor, list(flow.holds))


def _read_through(flow, journal, first_press):
    """`first_press` opens the card; OK turns every page its screen draws and closes it after the
    last; nothing of the game changes."""
    from display.render import help_pages

    before = _untouched(flow, journal)
    flow.on_button(Press(first_press))
    help = flow.view().help
    assert help is not None and help.title == f"How to play {flow.state.title}"
    assert "HINT" not in help.foot + help.next_foot
    pages = help_pages(help, "play", flow.screen_size)
    for page in range(pages):
        assert flow.view().help.page == page and _untouched(flow, journal) == before
        flow.on_button(Press("OK"))
    assert flow.view().help is None and _untouched(flow, journal) == before
    return pages


def _to_decision(flow):
    """Dice thrown (as they must be) until the game asks for a decision; a secret one opened."""
    from controller.rules import Decide

    for _ in range(20):
        exp = flow.expect
        if isinstance(exp, Decide):
            if not flow.choices_shown:
                flow.on_button(Press("OK"))
            return
        flow.on_reading(reading(list(exp.held) + [1 + i % 6 for i in range(exp.count)]))
        flow.clock.t += 5.0
        flow.tick()
    raise AssertionError("no decision")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_each_games_card_opens_during_a_game_on_a_three_button_panel(name, tmp_path):
    """Waiting for a throw, OK (which did nothing there) opens the card; on a decision the menu's
    last row, "How to play", does. OK turns every page and closes the card after the last; the
    game, its log and its journal are untouched, the menu's cursor and holds too."""
    flow, journal = three_button_table(name, tmp_path)
    if flow.phase == WAIT_DICE:
        assert flow.view().prompt.hint.endswith("OK: how to play")
        _read_through(flow, journal, "OK")
    _to_decision(flow)
    assert flow.phase == DECIDE
    entries = flow.menu()
    assert entries[-1].label == "How to play" and entries[flow.cursor].action != "help"
    flow.on_button(Press("UP"))          # (from the first line: the last)
    if flow.cursor != len(entries) - 1:
        flow.cursor = len(entries) - 1
    _read_through(flow, journal, "OK")
    assert flow.menu()[flow.cursor].label == "How to play"


def test_a_long_card_is_read_page_by_page_with_ok_on_a_three_button_panel(tmp_path):
    """Pok'n Roll with every house rule at its longest takes more than one page beside the menu at
    800x480: OK turns each, from the menu and while waiting for a throw."""
    from card_helpers import longest_rules

    flow, journal = three_button_table("poknroll", tmp_path, longest_rules("poknroll"))
    assert _read_through(flow, journal, "OK") > 1
    _to_decision(flow)
    flow.cursor = len(flow.menu()) - 1
    assert _read_through(flow, journal, "OK") > 1


def test_the_card_opened_waiting_for_a_throw_closes_when_the_throw_is_read(tmp_path):
    """OK is then the reading's (*OK accepts*), not the card's."""
    flow, journal = three_button_table("thirteen", tmp_path)
    flow.on_button(Press("OK"))
    assert flow.view().help is not None
    flow.on_reading(reading([6, 6, 2, 3, 5]))
    assert flow.phase == CONFIRM and flow.view().help is None
    flow.on_button(Press("OK"))
    assert flow.phase == DECIDE and len(flow.log.inputs) == 1


def test_up_or_down_close_the_card_and_act_as_usual(tmp_path):
    """As the other buttons do beside HINT: the card goes and the cursor moves."""
    flow, journal = three_button_table("thirteen", tmp_path)
    _to_decision(flow)
    last = len(flow.menu()) - 1
    flow.cursor = last
    flow.on_button(Press("OK"))
    assert flow.view().help is not None
    flow.on_button(Press("DOWN"))
    assert flow.view().help is None and flow.cursor == 0


def test_the_full_panels_table_is_unchanged():
    """No "How to play" row where the panel has HINT or may have it; OK waiting for a throw still
    does nothing but say so, and the hints name HINT."""
    full = panel_buttons({"type": "gpio", "pins": {"UP": 27, "DOWN": 22, "OK": 17, "HINT": 25}})
    for panel in (None, full):
        flow = TableFlow(new_game("thirteen", ["Ann", "Bob"]), TableLog("thirteen", ["Ann", "Bob"], {}),
                         clock=Clock(), panel=panel)
        assert flow.view().prompt.hint.endswith("HINT: how to play")
        flow.on_button(Press("OK"))
        assert flow.view().help is None and flow.message.text.startswith("OK does nothing now")
        _to_decision(flow)
        assert all(e.action != "help" for e in flow.menu())
        flow.on_button(Press("HINT"))
        assert flow.view().help.foot.startswith("HINT again: close")


def test_an_ok_pressed_twice_on_a_choice_does_not_open_the_card(tmp_path):
    """The choice's OK pressed twice (the commonest slip) opened the card over the sheet just
    scored: within a second of a move OK waiting for a throw only says it does nothing now."""
    flow, journal = three_button_table("thirteen", tmp_path)
    _to_decision(flow)
    flow.cursor = next(i for i, e in enumerate(flow.menu()) if e.key == "CHANCE")
    flow.on_button(Press("OK"))
    assert flow.phase == WAIT_DICE
    flow.clock.t += 0.5
    flow.on_button(Press("OK"))
    assert flow.view().help is None and flow.message.text.startswith("OK does nothing now")
    flow.clock.t += 1.0
    flow.on_button(Press("OK"))
    assert flow.view().help is not None


def _finish(flow, seed: int = 3) -> None:
    """`flow`'s game played to its end by the autoplayer (not journaled)."""
    import random

    from controller.autoplay import AutoPlayer

    bot = AutoPlayer(random.Random(seed))
    while not flow.state.is_over:
        flow.state = flow.state.apply(bot.next_input(flow.state))
    flow._enter_phase()


def test_at_the_final_standings_a_three_button_panel_is_sent_to_the_card_on_the_next_menu(tmp_path):
    """At the final standings OK starts the next game (its foot says so), so a panel without
    HINT cannot open the card there, and the standings must not offer it: their hint names no
    button the panel lacks. The card of the game just played, under the house rules it was played
    with, is two OKs away: the games page (the game kept under the cursor) says "how to play: on
    the next page", whose "How to play" row opens it."""
    from card_helpers import longest_rules

    from controller.rules import GAMES
    from controller.table_app import STANDINGS_SECONDS, TableApp

    config = parse_config(f'[table]\njournal_dir = "{tmp_path}"\n\n[buttons]\ntype = "gpio"\n'
                          '[buttons.pins]\nUP = 27\nDOWN = 22\nOK = 17\n')
    clock = Clock()
    app = TableApp(config, Screen((800, 480), headless=True), NoFrames(), FakeButtons(), clock=clock)
    rules = longest_rules("thirteen")
    app.menu.values.update(rules)
    app.on_button(Press("OK", "hold"))                      # start now, with those rules
    flow = app.flow
    assert rules and all(flow.state.options.get(k) == v for k, v in rules.items())
    _finish(flow)
    app.on_button(Press("UP"))                               # (any press: the app notes the game's end)
    view = flow.view()
    assert view.mode == "final" and view.prompt.hint == "OK: a new game" and view.help is None
    assert not any(name in view.prompt.hint for name in ("HINT", "BACK", "ABANDON", "HOLD"))
    clock.t += STANDINGS_SECONDS
    app.on_button(Press("OK"))
    assert app.flow is None
    menu = app.menu
    assert menu.page == "game" and menu.game.name == "thirteen"
    assert menu.view().prompt.hint.endswith("how to play: on the next page")
    app.on_button(Press("OK"))
    _on_row(menu, "How to play Thirteen")
    app.on_button(Press("OK"))
    card = menu.view().help
    assert card is not None and card.paragraphs == tuple(GAMES["thirteen"].rules_card(flow.state.options))


def test_after_a_game_resumed_after_a_restart_the_menu_keeps_that_game_and_its_card(tmp_path):
    """A game resumed from its journal (a power cut) had not been chosen on this app's menu: after
    it the games page showed the café's default game under the cursor, "how to play: on the next
    page" led to that game's card, and "play again" was not offered. The menu now takes the
    resumed game as chosen on it: its game, players and house rules."""
    from controller.rules import GAMES
    from controller.setup_menu import SetupResult
    from controller.table_app import STANDINGS_SECONDS, TableApp

    config = parse_config(f'[table]\njournal_dir = "{tmp_path}"\ngame = "thirteen"\n\n[buttons]\ntype = "gpio"\n'
                          '[buttons.pins]\nUP = 27\nDOWN = 22\nOK = 17\n')
    first = TableApp(config, Screen((800, 480), headless=True), NoFrames(), FakeButtons())
    spec = next(s for s in GAMES["classic"].OPTIONS if isinstance(s.default, bool))
    rules = {spec.name: not spec.default}
    first.menu.done = SetupResult("classic", ("Ann", "Bob"), rules)
    first.start_new()
    clock = Clock()
    app = TableApp(config, Screen((800, 480), headless=True), NoFrames(), FakeButtons(), clock=clock)   # a restart
    assert app.flow is not None and app.flow.state.options.get(spec.name) == (not spec.default)
    _finish(app.flow)
    app.on_button(Press("UP"))
    clock.t += STANDINGS_SECONDS
    app.on_button(Press("OK"))
    menu = app.menu
    assert app.flow is None and menu.page == "game" and menu.game.name == "classic"
    assert menu.games[menu.cursor["game"]].name == "classic"
    assert "play again (Ann, Bob)" in menu.view().prompt.hint
    app.on_button(Press("OK"))
    _on_row(menu, "How to play Classic poker dice")
    app.on_button(Press("OK"))
    assert menu.view().help.paragraphs == tuple(GAMES["classic"].rules_card(rules))


def test_two_hold_buttons_pressed_together_on_a_gpio_panel_hold_both_dice():
    """HOLD 1 and HOLD 2 pressed with one hand, let go 4 ms apart: both dice are held (each button
    its own press, in the order let go). Behaved so before too."""
    from gpiozero.pins.mock import MockFactory

    from hardware.button_gpio import GpioButtonSource
    from hw_helpers import FakeClock

    state = new_game("thirteen", ["Ann", "Bob"])
    flow = TableFlow(state, TableLog("thirteen", ["Ann", "Bob"], {}), clock=Clock())
    flow.on_reading(reading([6, 6, 6, 3, 3]))
    flow.on_button(Press("OK"))
    factory, clock = MockFactory(), FakeClock(0.0)
    panel = GpioButtonSource({"HOLD1": 5, "HOLD2": 6, "OK": 17}, pin_factory=factory, clock=clock)
    panel.start()
    try:
        factory.pin(5).drive_low()
        factory.pin(6).drive_low()
        clock.advance(0.12)
        factory.pin(6).drive_high()
        clock.advance(0.004)
        factory.pin(5).drive_high()
        clock.advance(0.05)
        events = panel.poll()
        assert [(e.kind, e.name) for e in events if e.kind == "press"] == [("press", "HOLD2"), ("press", "HOLD1")]
        for event in events:
            flow.on_button(event)
        assert list(flow.holds[:2]) == [True, True] and not any(flow.holds[2:])
    finally:
        panel.stop()
        factory.reset()
