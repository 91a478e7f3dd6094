"""The setup menu, driven by button events exactly as the table's panel sends them."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.config import parse_config
from controller.rules import GAMES, new_game
from controller.setup_menu import (
    BACK_LABEL, END, LETTERS, NEXT_LABEL, READ_ONLY, SetupDefaults, SetupMenu, SetupResult, option_kind,
    option_label,
)
from display.view import TableView

GAME_NAMES = list(GAMES)


def press(menu: SetupMenu, *names: str) -> None:
    for name in names:
        menu.on_button("press", name)


def hold(menu: SetupMenu, name: str = "OK") -> None:
    menu.on_button("hold", name)


def selected(menu: SetupMenu):
    items = [i for i in menu.view().setup if i.selected]
    assert len(items) == 1, menu.view().setup
    return items[0]


def select(menu: SetupMenu, label: str) -> None:
    """DOWN until the row `label` is under the cursor (only DOWN: works on a 3-button panel)."""
    for _ in range(60):
        if selected(menu).label == label:
            return
        press(menu, "DOWN")
    raise AssertionError(f"no row {label!r} on page {menu.page}")


def to_options(menu: SetupMenu) -> None:
    press(menu, "OK", "OK", "OK")            # game, count, names: Next
    assert menu.page == "options"


def menu_for(game: str, **kw) -> SetupMenu:
    return SetupMenu(defaults=SetupDefaults(game=game, **kw))


# ------------------------------------------------------------------------------- game page
def test_five_games_listed_with_title_and_player_range():
    view = SetupMenu().view()
    assert isinstance(view, TableView) and view.mode == "setup"
    assert [i.label for i in view.setup] == [g.title for g in GAMES.values()]
    assert len(view.setup) == 5
    thirteen = view.setup[0]
    assert thirteen.value == "1-6 players" and thirteen.selected
    assert "players" in view.setup[3].value


@pytest.mark.parametrize("index, name", list(enumerate(GAME_NAMES)))
def test_pick_each_game_with_down_and_ok(index, name):
    menu = SetupMenu()
    press(menu, *["DOWN"] * index)
    assert selected(menu).label == GAMES[name].title
    press(menu, "OK")
    assert menu.page == "count" and menu.game.name == name
    press(menu, "OK", "OK", "OK", "OK")
    assert menu.done is not None and menu.done.game == name
    state = new_game(menu.done.game, menu.done.players, menu.done.options)
    assert not state.is_over
    assert menu.done.new_game().players == menu.done.players


def test_up_wraps_around_the_game_list():
    menu = SetupMenu()
    press(menu, "UP")
    assert selected(menu).label == list(GAMES.values())[-1].title


# ------------------------------------------------------------------------- the plain path
def test_start_with_ok_only_uses_defaults():
    menu = SetupMenu()
    press(menu, "OK")      # Thirteen
    press(menu, "OK")      # 2 players
    press(menu, "OK")      # names: Next
    press(menu, "OK")      # rules: Next
    assert menu.page == "start"
    assert selected(menu).label == "Start game"
    assert menu.done is None
    press(menu, "OK")
    assert menu.done == SetupResult("thirteen", ("Player 1", "Player 2"), {})


def test_full_setup_with_up_down_ok_only():
    """Three-button panel: other game, other count, a renamed player, a changed rule, start."""
    menu = SetupMenu()
    press(menu, "DOWN", "OK")                  # classic
    press(menu, "DOWN", "OK")                  # 3 players
    select(menu, "Seat 2")
    press(menu, "OK")                          # edit "Player 2"
    type_name(menu, "Zoe")
    select(menu, NEXT_LABEL)
    press(menu, "OK")
    select(menu, option_label("rotate_first_player"))
    press(menu, "OK")                          # yes -> no
    select(menu, NEXT_LABEL)
    press(menu, "OK", "OK")
    assert menu.done == SetupResult("classic", ("Player 1", "Zoe", "Player 3"), {"rotate_first_player": False})
    menu.done.new_game()


def test_count_page_stays_within_the_games_range():
    menu = menu_for("poknroll")
    press(menu, "OK")
    view = menu.view()
    counts = [i.label for i in view.setup if i.label != BACK_LABEL]
    assert counts == ["3 players", "4 players", "5 players", "6 players"]
    assert selected(menu).label == "3 players"       # the default, one OK away
    press(menu, "DOWN", "DOWN", "OK")
    assert menu.count == 5
    seats = [i for i in menu.view().setup if i.label.startswith("Seat")]
    assert [s.value for s in seats] == ["Player 1", "Player 2", "Player 3", "Player 4", "Player 5"]


# -------------------------------------------------------------------------- option kinds
def kinds_of(game: str) -> dict[str, str]:
    """The first option of each editable kind, skipping start_seat (bounded by the player count)."""
    out: dict[str, str] = {}
    for spec in GAMES[game].OPTIONS:
        if spec.name != "start_seat":
            out.setdefault(option_kind(spec), spec.name)
    return out


@pytest.mark.parametrize("game", GAME_NAMES)
def test_change_an_option_of_each_kind_in_each_game(game):
    menu = menu_for(game)
    press(menu, "OK")
    select(menu, f"{GAMES[game].min_players if GAMES[game].min_players > 1 else 2} players")
    press(menu, "OK", "OK")
    specs = {s.name: s for s in GAMES[game].OPTIONS}
    expected = {}
    for kind, name in kinds_of(game).items():
        spec = specs[name]
        select(menu, option_label(name))
        if kind == "bool":
            press(menu, "OK")
            expected[name] = not spec.default
        elif kind == "choice":
            press(menu, "OK")
            expected[name] = spec.choices[(spec.choices.index(spec.default) + 1) % len(spec.choices)]
        elif kind == "int":
            press(menu, "OK", "UP", "OK")
            expected[name] = spec.default + 1
        else:
            press(menu, "OK")
            assert selected(menu).value == READ_ONLY
            assert menu.message is not None and "config" in menu.message.text
        if kind != "fixed":
            assert selected(menu).value != READ_ONLY
    assert menu.options() == expected
    hold(menu)
    assert menu.done is not None, menu.message
    assert menu.done.options == expected
    assert menu.done.new_game().options[next(iter(expected))] == next(iter(expected.values()))


def test_bool_toggles_and_shows_yes_no():
    menu = menu_for("thirteen")
    to_options(menu)
    select(menu, "Two pairs accepts full house")
    assert selected(menu).value == "yes"
    press(menu, "OK")
    assert selected(menu).value == "no"
    assert menu.options() == {"two_pairs_accepts_full_house": False}
    press(menu, "OK")
    assert menu.options() == {}                  # back to the default: not in the dict


def test_choices_cycle_and_wrap():
    menu = menu_for("thirteen")
    to_options(menu)
    select(menu, "Tie")
    seen = [selected(menu).value]
    for _ in range(3):
        press(menu, "OK")
        seen.append(selected(menu).value)
    assert seen == ["shared", "Aces-Sixes total", "fewer given up", "shared"]
    assert menu.options() == {}


def test_a_choice_named_in_jargon_is_shown_in_the_players_words():
    menu = menu_for("poknroll")
    to_options(menu)
    select(menu, "Imaginary dice source")
    assert selected(menu).value == "a cup on the table"
    press(menu, "OK")
    assert selected(menu).value == "drawn by the table"
    assert menu.options() == {"imaginary_dice_source": "engine_rng"}      # the config's name is unchanged


def test_int_editing_steps_clamps_and_leaves_with_ok():
    menu = menu_for("thirteen")
    to_options(menu)
    select(menu, "Two pairs value")
    press(menu, "OK")                            # start editing: UP/DOWN now change the value
    assert menu.view().prompt.hint.startswith("UP/DOWN change")
    press(menu, "UP", "UP", "UP", "UP", "UP")
    assert menu.values["two_pairs_value"] == 25
    assert selected(menu).value == "< 25 >"
    hold(menu, "UP")                             # a held UP: +10
    assert menu.values["two_pairs_value"] == 35
    for _ in range(5):
        hold(menu, "DOWN")
    assert menu.values["two_pairs_value"] == 0   # minimum 0
    press(menu, "UP", "OK")
    assert menu.editing is None and selected(menu).value == "1"
    press(menu, "DOWN")                          # cursor moves again
    assert selected(menu).label != "Two pairs value"
    assert menu.options() == {"two_pairs_value": 1}


def test_int_editing_respects_maximum_and_back_cancels():
    menu = menu_for("classic")
    to_options(menu)
    select(menu, "First to")
    press(menu, "OK")
    for _ in range(10):
        hold(menu, "UP")
    assert menu.values["first_to"] == 50         # maximum
    press(menu, "BACK")                          # cancel: value restored, still on the options page
    assert menu.editing is None and menu.page == "options"
    assert menu.values["first_to"] == 3 and menu.options() == {}


def test_dict_and_list_options_are_read_only():
    menu = menu_for("poknroll")
    to_options(menu)
    select(menu, "Line values")
    assert selected(menu).value == READ_ONLY
    press(menu, "OK")
    assert menu.editing is None and menu.options() == {}
    assert menu.message.level == "info"


def test_option_doc_shown_for_the_selected_rule():
    menu = menu_for("thirteen")
    to_options(menu)
    select(menu, "Upper bonus")
    assert menu.view().prompt.text == "upper bonus points (standard: 20)"
    press(menu, "OK")                            # editing the number: still said what it is
    assert menu.editing is not None and menu.view().prompt.text == "upper bonus points (standard: 20)"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rule_says_what_it_is_and_its_standard_value(game):
    """Staff setting up a table read the line under the rule: what it does and what the game
    does when nobody changes it, in the words the row itself shows."""
    menu = menu_for(game)
    to_options(menu)
    for spec in GAMES[game].OPTIONS:
        if option_kind(spec) == "fixed":          # set in the config file: no value shown here
            continue
        select(menu, option_label(spec.name))
        shown = selected(menu).value
        assert menu.view().prompt.text == f"{spec.doc} (standard: {shown})"


def test_hint_in_the_setup_shows_the_card_of_the_rules_chosen():
    menu = menu_for("objective-cards")
    to_options(menu)
    select(menu, "Two pairs same face allowed")
    press(menu, "OK", "HINT")
    card = menu.view().help
    assert card.paragraphs == GAMES["objective-cards"].rules_card({"two_pairs_same_face_allowed": True})
    assert card.paragraphs != GAMES["objective-cards"].how_to_play


# ------------------------------------------------------------------------------ BACK
def test_back_goes_back_one_page_and_keeps_choices():
    menu = SetupMenu()
    press(menu, "DOWN", "DOWN", "OK")            # school
    press(menu, "DOWN", "DOWN", "OK")            # 4 players
    assert menu.page == "names"
    press(menu, "BACK")
    assert menu.page == "count" and selected(menu).label == "4 players"
    press(menu, "BACK")
    assert menu.page == "game" and selected(menu).label == "School"
    press(menu, "BACK")                          # nothing before the first page
    assert menu.page == "game"
    press(menu, "OK")                            # same game again: choices kept
    assert menu.count == 4


def test_back_from_start_and_options_pages():
    menu = menu_for("thirteen")
    to_options(menu)
    select(menu, "Early close on zero")
    press(menu, "OK")
    select(menu, NEXT_LABEL)
    press(menu, "OK")
    assert menu.page == "start"
    assert ("Early close on zero", "yes") in [(i.label, i.value) for i in menu.view().setup]
    press(menu, "BACK")
    assert menu.page == "options" and selected(menu).label == NEXT_LABEL
    press(menu, "BACK")
    assert menu.page == "names"
    assert menu.options() == {"early_close_on_zero": True}


def test_back_rows_work_without_a_back_button():
    menu = SetupMenu()
    press(menu, "OK")
    for page in ("count", "names", "options", "start"):
        while menu.page != page:
            select(menu, NEXT_LABEL if menu.page != "count" else "2 players")
            press(menu, "OK")
    for page in ("options", "names", "count", "game"):
        select(menu, BACK_LABEL)
        press(menu, "OK")
        assert menu.page == page


def test_choosing_another_game_resets_count_and_rules():
    menu = menu_for("thirteen")
    to_options(menu)
    select(menu, "Early close on zero")
    press(menu, "OK")
    press(menu, "BACK", "BACK", "BACK")
    assert menu.page == "game"
    press(menu, "DOWN", "OK")
    assert menu.game.name == "classic" and menu.options() == {}


# ------------------------------------------------------------------------ long press OK
@pytest.mark.parametrize("page_presses, expected_count", [
    ((), 2), (("OK",), 2), (("OK", "DOWN"), 3), (("OK", "OK"), 2), (("OK", "OK", "OK"), 2),
    (("OK", "OK", "OK", "OK"), 2),
])
def test_long_ok_starts_from_any_page(page_presses, expected_count):
    menu = SetupMenu()
    press(menu, "DOWN")                          # classic highlighted, not yet picked
    press(menu, *page_presses)
    hold(menu, "OK")
    assert menu.done is not None
    assert menu.done.game == "classic"
    assert len(menu.done.players) == expected_count
    assert menu.done.options == {}
    menu.done.new_game()


def test_long_ok_keeps_changes_made_so_far():
    menu = menu_for("school")
    to_options(menu)
    select(menu, "Double on first throw")
    press(menu, "OK")
    hold(menu)
    assert menu.done == SetupResult("school", ("Player 1", "Player 2"), {"double_on_first_throw": False})


def test_long_ok_while_editing_keeps_the_edit():
    menu = SetupMenu()
    press(menu, "OK", "OK")
    select(menu, "Seat 1")
    press(menu, "OK")
    type_letter(menu, "Q")                        # "Player 1" -> "Qlayer 1"
    hold(menu)
    assert menu.done.players == ("Qlayer 1", "Player 2")


def test_release_and_other_buttons_are_ignored():
    menu = SetupMenu()
    assert not menu.on_button("release", "OK")
    assert not menu.on_button("press", "HOLD3")
    assert menu.page == "game" and menu.done is None


def test_the_games_page_says_what_each_game_is_and_hint_shows_how_to_play_it():
    """Café players often know none of the games: the line under the menu says what the game
    under the cursor is, and HINT shows how it is played in place of the menu."""
    menu = SetupMenu()
    first = menu.games[0]
    assert menu.view().prompt.text == first.how_to_play[0]
    press(menu, "DOWN")
    second = menu.games[1]
    assert menu.view().prompt.text == second.how_to_play[0]
    assert menu.on_button("press", "HINT")
    card = menu.view().help
    assert card is not None and card.title == f"How to play {second.title}"
    assert card.paragraphs == second.how_to_play and "HINT again" in card.foot
    press(menu, "HINT")
    assert menu.view().help is None and menu.cursor["game"] == 1
    press(menu, "HINT", "DOWN")                   # another button closes the card and still acts
    assert menu.view().help is None and menu.cursor["game"] == 2
    press(menu, "OK", "HINT")                     # past the games page: the game chosen
    assert menu.page == "count" and menu.view().help.title == f"How to play {menu.games[2].title}"


def test_done_menu_ignores_buttons_until_reset():
    menu = SetupMenu()
    press(menu, "DOWN", "DOWN")
    hold(menu)
    result = menu.done
    press(menu, "BACK", "UP", "OK")
    assert menu.done is result
    menu.reset()
    assert menu.done is None and menu.page == "game"
    assert selected(menu).label == "School"        # last game preselected for the next one


def test_after_a_game_the_games_page_says_a_long_ok_plays_it_again():
    """After a game the menu keeps its game, players and rules, and a long OK started them again
    while the page said only "start now": the same group did not know, and a new group was
    started under the last one's names. The hint names the players while the cursor is on it."""
    menu = menu_for("classic")
    press(menu, "OK", "DOWN", "OK", "OK", "OK", "OK")      # 3 players, rules as they are, start
    played = menu.done
    assert played is not None and len(played.players) == 3
    assert "hold OK: start now" in menu_for("classic").view().prompt.hint
    menu.reset()
    assert f"hold OK: play again ({', '.join(played.players)})" in menu.view().prompt.hint
    press(menu, "DOWN")                                     # another game: its own start
    assert "hold OK: start now" in menu.view().prompt.hint
    press(menu, "UP")
    hold(menu)
    assert menu.done == played


# -------------------------------------------------------------------------- validation
def test_game_refusal_becomes_a_message_and_the_menu_stays():
    menu = menu_for("objective-cards")
    press(menu, "OK")
    select(menu, "3 players")
    press(menu, "OK", "OK")
    assert menu.page == "options" and menu.count == 3
    select(menu, "Two player strategic variant")
    press(menu, "OK")                            # a variant for two players only
    select(menu, NEXT_LABEL)
    press(menu, "OK", "OK")
    assert menu.done is None and menu.page == "start"
    view = menu.view()
    assert view.message is not None and view.message.level == "error"
    assert "two_player_strategic_variant" in view.message.text
    press(menu, "BACK")                          # fix it
    assert menu.message is None
    select(menu, "Two player strategic variant")
    press(menu, "OK")
    hold(menu)
    assert menu.done is not None and menu.done.options == {}


def test_the_first_players_seat_is_shown_as_who_sits_there_and_stays_a_seat_of_the_game():
    menu = menu_for("classic")                   # Ann and Bob
    to_options(menu)
    select(menu, "Start seat")
    assert selected(menu).value == f"{menu.players()[0]} (seat 1)"
    press(menu, "OK", "UP", "UP", "UP", "OK")    # past the last seat: stops at Bob's
    assert selected(menu).value == f"{menu.players()[1]} (seat 2)" and menu.options() == {"start_seat": 1}
    # more players, the last seat chosen, then fewer players again: the seat follows
    menu = menu_for("thirteen")
    press(menu, "OK")
    select(menu, "4 players")
    press(menu, "OK", "OK")
    assert menu.count == 4 and menu.page == "options"
    select(menu, "Start seat")
    press(menu, "OK", "UP", "UP", "UP", "OK")
    assert menu.options() == {"start_seat": 3}
    press(menu, "BACK", "BACK")                  # to the count page
    assert menu.page == "count"
    select(menu, "2 players")
    press(menu, "OK")
    assert menu.options() == {"start_seat": 1}
    hold(menu)
    assert menu.done is not None and menu.done.options == {"start_seat": 1}


def test_bad_config_option_is_ignored_with_a_warning():
    menu = SetupMenu(defaults=SetupDefaults(game="thirteen", options={"thirteen": {"two_pairs_value": -3,
                                                                                   "nope": 1}}))
    assert menu.message is not None and menu.message.level == "warning"
    assert menu.options() == {}


def test_unknown_default_game_is_a_warning():
    menu = SetupMenu(defaults=SetupDefaults(game="yahtzee"))
    assert menu.page == "game" and "yahtzee" in menu.message.text


# ------------------------------------------------------------------------------ names
def type_letter(menu: SetupMenu, target: str) -> None:
    """Reach `target` in the letter cycle with UP (the way a player would, the short way round)."""
    edit = menu.editing
    current = edit.chars[edit.pos]
    i, j = LETTERS.index(current), LETTERS.index(target)
    steps = (j - i) % len(LETTERS)
    if steps <= len(LETTERS) // 2:
        press(menu, *["UP"] * steps)
    else:
        press(menu, *["DOWN"] * (len(LETTERS) - steps))
    assert menu.editing.chars[menu.editing.pos] == target


def type_name(menu: SetupMenu, name: str) -> None:
    for letter in name:
        type_letter(menu, letter)
        press(menu, "OK")
    type_letter(menu, END)
    press(menu, "OK")
    assert menu.editing is None, menu.message


def test_rename_a_player_letter_by_letter():
    menu = SetupMenu()
    press(menu, "OK", "OK")
    select(menu, "Seat 1")
    press(menu, "OK")
    assert selected(menu).value == "[P]layer 1"
    type_letter(menu, "A")
    press(menu, "OK")
    assert selected(menu).value == "A[l]ayer 1"
    type_name(menu, "nn")                         # "A" stays, then n, n, end
    assert selected(menu).value == "Ann"
    hold(menu)
    assert menu.done.players == ("Ann", "Player 2")


def test_name_end_mark_hides_the_rest_and_back_moves_left():
    menu = SetupMenu()
    press(menu, "OK", "OK")
    select(menu, "Seat 2")
    press(menu, "OK", "OK")
    type_letter(menu, END)
    assert selected(menu).value == "P[_]"
    press(menu, "BACK")
    assert selected(menu).value == "[P]"
    press(menu, "BACK")                           # at the first letter: cancel
    assert menu.editing is None and selected(menu).value == "Player 2"


def test_empty_and_duplicate_names_are_refused():
    menu = SetupMenu(defaults=SetupDefaults(players=("Ann", "Bob")))
    press(menu, "OK", "OK")
    select(menu, "Seat 2")
    press(menu, "OK")
    type_letter(menu, END)
    press(menu, "OK")
    assert menu.editing is not None and menu.message.level == "error"
    type_letter(menu, "A")
    press(menu, "OK")
    type_letter(menu, "n")
    press(menu, "OK")
    type_letter(menu, "n")
    press(menu, "OK")
    press(menu, "OK")                             # END: "Ann" is taken
    assert menu.editing is not None and "already" in menu.message.text
    press(menu, "BACK", "BACK", "BACK", "BACK")   # give up
    assert menu.editing is None and menu.players() == ("Ann", "Bob")


def test_seat_names_from_config_and_free_default_names():
    config = parse_config('[table]\ngame = "poknroll"\nplayers = ["Ann", "Player 3"]\n'
                          '[table.options.poknroll]\nmode = "expert"\n')
    menu = SetupMenu(defaults=config.table)
    assert selected(menu).label == "Pok'n Roll"
    hold(menu)
    assert menu.done == SetupResult("poknroll", ("Ann", "Player 3", "Player 4"), {"mode": "expert"})
    menu.done.new_game()


def test_more_seats_than_the_game_takes_are_cut():
    menu = SetupMenu(defaults=SetupDefaults(game="objective-cards", players=[f"P{i}" for i in range(8)]))
    hold(menu)
    assert menu.done.players == ("P0", "P1", "P2", "P3", "P4")


# ------------------------------------------------------------------------------- view
def test_view_shows_page_status_prompt_and_selection():
    menu = menu_for("school")
    press(menu, "OK")
    view = menu.view()
    assert view.title == "How many players?"
    assert "School" in view.status and "2 of 5" in view.status
    assert view.prompt is not None and "OK" in view.prompt.hint
    press(menu, "OK", "OK", "OK")
    labels = {i.label: i.value for i in menu.view().setup}
    assert labels["Game"] == "School" and labels["Players"] == "Player 1, Player 2"
    assert labels["House rules"] == "standard"


def test_long_rule_lists_are_windowed_around_the_cursor():
    menu = SetupMenu(defaults=SetupDefaults(game="classic"), max_rows=8)
    to_options(menu)
    total = len(GAMES["classic"].OPTIONS) + 2
    for _ in range(total):
        view = menu.view()
        assert len(view.setup) <= 8
        assert sum(i.selected for i in view.setup) == 1
        press(menu, "DOWN")
    assert any(i.label == "..." for i in menu.view().setup)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["press", "press", "press", "hold"]),
                          st.sampled_from(["UP", "DOWN", "OK", "BACK", "HOLD1"])), max_size=80))
def test_any_button_sequence_keeps_a_sane_menu(events):
    menu = SetupMenu()
    for kind, name in events:
        menu.on_button(kind, name)
        view = menu.view()
        assert view.mode == "setup"
        assert sum(i.selected for i in view.setup) == 1
        if menu.done is not None:
            break
    if menu.done is not None:
        state = new_game(menu.done.game, menu.done.players, menu.done.options)
        assert state.players == menu.done.players


def test_a_rule_label_keeps_the_capitals_of_its_name():
    """'Low straight 9 to k' named a King that is not there."""
    menu = menu_for("classic")
    to_options(menu)
    select(menu, "Low straight 9 to K")
    assert option_label("low_straight_9_to_K") == "Low straight 9 to K"


def test_the_games_page_line_and_card_follow_the_tables_configured_rules():
    """A café that plays Pok'n Roll's expert side by default: the line under the game and its
    card say three hidden dice, whichever game the menu started on."""
    defaults = SetupDefaults(game="thirteen", options={"poknroll": {"mode": "expert"}})
    menu = SetupMenu(defaults=defaults)
    while menu.games[menu.cursor["game"]].name != "poknroll":
        press(menu, "DOWN")
    expert = GAMES["poknroll"].rules_card({"mode": "expert"})
    assert menu.view().prompt.text == expert[0] and expert[0].startswith("Three")
    press(menu, "HINT")
    assert menu.view().help.paragraphs == expert


def test_hint_on_the_setup_menu_turns_a_long_cards_pages(monkeypatch):
    """The setup menu's card turns its pages with HINT like the table's, and closes after the
    last; another button closes it and still acts. (In place of the menu at 800x480 even the
    longest cards fit one page: two pages are asked for here.)"""
    from display import render

    monkeypatch.setattr(render, "help_pages", lambda help, mode, size, message=None: 2 if mode == "setup" else 1)
    menu = SetupMenu()
    press(menu, "DOWN", "HINT")
    assert menu.view().help.page == 0 and menu.view().help.title == f"How to play {menu.games[1].title}"
    press(menu, "HINT")
    assert menu.view().help.page == 1 and menu.view().help.title == f"How to play {menu.games[1].title}"
    press(menu, "HINT")
    assert menu.view().help is None and menu.cursor["game"] == 1
    press(menu, "HINT", "HINT", "DOWN")
    assert menu.view().help is None and menu.cursor["game"] == 2
    press(menu, "HINT")
    assert menu.view().help.page == 0                       # opened again: from its first page


def test_the_setup_menus_longest_cards_are_one_page_at_800x480():
    """In place of the whole menu every game's card fits one page, even with every house rule at
    its longest: HINT again closes it, as before."""
    from card_helpers import longest_rules

    for game in GAME_NAMES:
        menu = SetupMenu(defaults=SetupDefaults(game=game, options={game: longest_rules(game)}),
                         screen_size=(800, 480))
        press(menu, "HINT")
        assert menu.view().help.paragraphs == GAMES[game].rules_card(longest_rules(game))
        press(menu, "HINT")
        assert menu.view().help is None


@pytest.mark.parametrize("error", [("camera unplugged", "test"),
                                   ("cannot open camera 0 (unplugged or in use?)", "opencv")], ids=["short", "opencv"])
@pytest.mark.parametrize("size", [(320, 240), (800, 480)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_setup_menus_card_is_read_whole_under_a_camera_notice(game, size, error, tmp_path, monkeypatch):
    """The card's pages were counted for the whole menu's room, but drawn under the banner the
    table keeps up while the camera is down: at 320x240 every card took a page more than counted
    (School's "5/6" said "HINT: next page", and HINT closed it), its last part never shown. HINT
    now turns every page drawn, each numbered of the pages drawn, and closes after the last."""
    import re

    from card_helpers import longest_rules
    from test_table_e2e import FakeButtons, NoFrames

    from controller.table_app import TableApp
    from display import card as card_module
    from display.screen import Screen
    from hardware import FrameSourceError
    from table_helpers import Press

    class DownCamera(NoFrames):
        def read(self):
            self.error = FrameSourceError(*error)

    rules = longest_rules(game)
    config = parse_config(f'[table]\njournal_dir = "{tmp_path}"\ngame = "{game}"\n')
    camera = DownCamera()
    app = TableApp(config, Screen(size, headless=True), camera, FakeButtons())
    app.menu.values.update(rules)
    drawn: list[str] = []
    real_text = card_module.text
    monkeypatch.setattr(card_module, "text", lambda surface, line, *a, **k: (
        drawn.append(line), real_text(surface, line, *a, **k))[1])
    app.step()
    assert app.device_notice().text.startswith("Camera: ")                 # on screen, above the card
    body, pages = [], []
    for _ in range(12):
        app.on_button(Press("HINT"))
        drawn.clear()
        app.step()
        card = app.menu.view().help
        if card is None:
            break
        assert drawn[0] == card.title
        marker = drawn[1] if re.fullmatch(r"\d+/\d+", drawn[1]) else ""
        pages.append(marker)
        body += drawn[2 if marker else 1:-1]
    assert " ".join(body).split() == " ".join(GAMES[game].rules_card(rules)).split()    # every word, once
    if len(pages) > 1:
        assert pages == [f"{n}/{len(pages)}" for n in range(1, len(pages) + 1)]


def test_a_seat_named_with_letters_the_screen_lacks_is_offered_under_a_free_name():
    """A config's seat "日本" was drawn as two boxes, and "한국" as the same two: the players could
    not tell the seats apart on any screen. The menu offers such a seat as "Player N" and says so."""
    menu = menu_for("thirteen", players=["Zoë", "日本", "한국", "A\tB"])
    assert menu.players() == ("Zoë", "Player 2", "Player 3", "A B")
    assert menu.message is not None and "Seat 3" in menu.message.text


def test_a_seat_that_comes_into_play_under_a_playing_name_takes_a_free_one():
    """Two play, seat 1 renamed "Player 3"; then three play: seat 3 was also "Player 3" and the
    start said only "cannot start: player names must be different"."""
    menu = menu_for("thirteen")
    press(menu, "OK")                               # Thirteen
    select(menu, "2 players")
    press(menu, "OK")
    select(menu, "Seat 1")
    press(menu, "OK")
    for _ in range(len("Player ")):
        press(menu, "OK")                           # on to the "1"
    type_letter(menu, "3")
    press(menu, "OK", "OK")                         # past the last letter: the name ends
    assert menu.players() == ("Player 3", "Player 2")
    select(menu, "< Back")
    press(menu, "OK")                               # back to the count
    select(menu, "3 players")
    press(menu, "OK")
    assert len(set(menu.players())) == 3, menu.players()
    hold(menu)
    assert menu.done is not None, menu.message


@pytest.mark.parametrize("finish", ["hold", "through"])
def test_a_long_seat_name_opened_and_left_as_it_was_is_kept_whole(finish):
    """The buttons type 12 letters; a config's seat "Maximilian-Alexander", opened by mistake and
    then left (a long OK to start, or OK through its letters), came out "Maximilian-A"."""
    menu = menu_for("thirteen", players=["Maximilian-Alexander", "Bob"])
    press(menu, "OK", "OK")                       # Thirteen, 2 players
    select(menu, "Seat 1")
    press(menu, "OK")
    if finish == "hold":
        hold(menu)
        assert menu.done is not None and menu.done.players[0] == "Maximilian-Alexander"
    else:
        press(menu, *["OK"] * 12)
        assert menu.editing is None and menu.players()[0] == "Maximilian-Alexander"
