"""An evening at a café table: game after game, through the real TableApp and its buttons.

What one group leaves behind, and what the next game keeps: the players typed on the menu, the
house rules set, a game put away by *Still playing?*.
"""
from __future__ import annotations

from pathlib import Path

from controller.config import parse_config
from controller.setup_menu import END
from controller.table import OVER
from controller.table_app import TableApp
from display.screen import Screen
from table_helpers import Clock, WallClock
from test_table_e2e import FakeButtons, NoFrames


class Evening:
    """A table app, its clock, and presses made as players make them (half a second apart)."""

    def __init__(self, tmp_path: Path, table: str = "", wall: WallClock | None = None) -> None:
        self.clock = Clock()
        self.wall = wall or WallClock(1_790_000_000.0)          # (a clock the network set)
        self.config = parse_config(f'[table]\njournal_dir = "{tmp_path}"\n{table}')
        self.power_on()

    def power_on(self) -> None:
        """The table started (again, after a power cut: what it knows is on its card)."""
        self.app = TableApp(self.config, Screen((800, 480), headless=True), NoFrames(), FakeButtons(),
                            clock=self.clock, wall=self.wall)

    def press(self, *names: str, kind: str = "press") -> None:
        for name in names:
            self.app.on_button(type("P", (), {"kind": kind, "name": name})())
            self.clock.t += 0.5

    def hold(self, name: str = "OK") -> None:
        self.press(name, kind="hold")

    @property
    def menu(self):
        return self.app.menu

    def row(self) -> str:
        return next(i.label for i in self.menu.view().setup if i.selected)

    def down_to(self, label: str) -> None:
        """DOWN until the row `label` is under the cursor."""
        for _ in range(60):
            if self.row() == label:
                return
            self.press("DOWN")
        raise AssertionError(f"no row {label!r} on page {self.menu.page}")

    def type_name(self, seat: int, name: str) -> None:
        """OK on the seat's row, then the name letter by letter with UP, OK after each."""
        self.down_to(f"Seat {seat}")
        self.press("OK")
        for letter in (*name, END):
            while self.menu.editing.chars[self.menu.editing.pos] != letter:
                self.press("UP")
            self.press("OK")
        assert self.menu.editing is None, self.menu.message

    def abandon(self) -> None:
        """ABANDON twice, then OK once the standings were seen: back to the menu."""
        self.press("ABANDON", "ABANDON")
        assert self.app.flow.phase == OVER
        self.clock.t += 5
        self.press("OK")
        assert self.app.flow is None and self.menu.page == "game"


def test_a_group_that_chooses_another_game_keeps_its_players_and_each_games_rules(tmp_path):
    """Zoe, Max and Lea typed their names (some forty presses each) and set Classic to two
    rounds; after it they chose School: the menu offered *Player 1*, *Player 2* (the café's
    seats, two of them), and back on Classic its rules were the standard ones again."""
    evening = Evening(tmp_path)
    evening.down_to("Classic poker dice")
    evening.press("OK")
    evening.down_to("3 players")
    evening.press("OK")
    for seat, name in enumerate(("Zoe", "Max", "Lea"), 1):
        evening.type_name(seat, name)
    evening.down_to("Next >")
    evening.press("OK")
    evening.down_to("Rounds")
    evening.press("OK", "UP", "UP", "OK")
    evening.hold()
    state = evening.app.flow.state
    assert state.players == ("Zoe", "Max", "Lea") and state.options["rounds"] == 2
    evening.abandon()

    evening.down_to("School")
    evening.press("OK")
    assert evening.menu.count == 3
    evening.hold()
    assert evening.app.flow.state.players == ("Zoe", "Max", "Lea")
    evening.abandon()

    evening.down_to("Classic poker dice")
    evening.hold()
    state = evening.app.flow.state
    assert (state.title, state.players, state.options["rounds"]) == ("Classic poker dice", ("Zoe", "Max", "Lea"), 2)


def test_more_players_and_then_fewer_keep_the_names_typed(tmp_path):
    """A fourth friend sits down for Pok'n Roll (three to six players), then two leave for
    Thirteen: the names typed stay on their seats, a new seat gets a free name."""
    evening = Evening(tmp_path, 'players = ["Ann", "Bob"]\n')
    evening.press("OK", "OK")                       # Thirteen, 2 players
    evening.type_name(2, "Bea")
    evening.hold()
    assert evening.app.flow.state.players == ("Ann", "Bea")
    evening.abandon()
    evening.down_to("Pok'n Roll")
    evening.press("OK")
    evening.down_to("4 players")
    evening.press("OK")
    assert evening.menu.players() == ("Ann", "Bea", "Player 3", "Player 4")
    evening.type_name(3, "Cy")
    evening.hold()
    evening.abandon()
    evening.down_to("Thirteen")
    evening.press("OK")
    assert evening.menu.players() == ("Ann", "Bea", "Cy", "Player 4")
    evening.down_to("2 players")
    evening.press("OK")
    assert evening.menu.players() == ("Ann", "Bea")


def _throw(evening: Evening, values: list[int]) -> None:
    """Dice read by the camera, OK to accept them."""
    from vision.types import Die, Reading

    evening.app.flow.on_reading(Reading(tuple(Die(v, (50 * i, 0, 50 * i + 40, 40), (50 * i + 20, 20), 0.95)
                                              for i, v in enumerate(values))))
    evening.press("OK")


def _left_alone(evening: Evening) -> None:
    """Nobody at the table for idle_minutes, then nobody answers *Still playing?*."""
    from controller.idle import STILL_PLAYING_SECONDS

    evening.clock.t += evening.config.table.idle_minutes * 60 + STILL_PLAYING_SECONDS + 1
    evening.app.step()
    assert evening.app.flow is None


def test_a_game_put_away_is_taken_up_from_the_menu_after_another_game(tmp_path):
    """Ann and Bob went to the bar for 35 minutes: their Thirteen was put away, "kept for the
    staff", and the players could not get it back. Now the games page offers it under the
    games (*Take up Thirteen*), also after another group played a game meanwhile, and OK takes it
    up where it was: the same moves, the dice held still held, its own house rules."""
    evening = Evening(tmp_path, 'idle_minutes = 30\nplayers = ["Ann", "Bob"]\n'
                                '[table.options.thirteen]\nupper_bonus = 35\n')
    evening.press("OK")
    evening.hold()                                          # Thirteen, Ann and Bob
    _throw(evening, [6, 6, 6, 3, 3])
    evening.press("HOLD1", "HOLD2", "HOLD3")
    moves, before = len(evening.app.flow.log.inputs), evening.app.flow.state.snapshot()
    _left_alone(evening)
    message = evening.menu.view().message.text
    assert message.startswith("Nobody played Thirteen (Ann, Bob) for 32 minutes: it was put away. Take up Thirteen")
    rows = [item.label for item in evening.menu.view().setup]
    assert rows[-1] == "Take up Thirteen"

    evening.down_to("Classic poker dice")                   # another group, another game
    evening.hold()
    assert evening.app.flow.state.players == ("Ann", "Bob")
    evening.abandon()
    evening.down_to("Take up Thirteen")
    assert "OK: take it up" in evening.menu.view().prompt.hint
    evening.press("OK")
    flow = evening.app.flow
    assert flow is not None and flow.state.players == ("Ann", "Bob")
    assert len(flow.log.inputs) == moves and flow.state.snapshot() == before
    assert flow.state.options["upper_bonus"] == 35
    assert flow.view().message.text.startswith(f"Thirteen (Ann, Bob) taken up where it was left ({moves} move")
    assert "Dice still held: 6 6 6" in flow.view().message.text
    evening.clock.t += 60
    evening.app.step()
    assert evening.app.flow is flow and flow.view().message is None      # (not asked "Still playing?")
    assert "Take up Thirteen" not in [i.label for i in evening.menu.view().setup]
    assert not list((tmp_path / "games").glob("*-put-away.jsonl"))


def test_two_games_put_away_are_both_offered_and_an_abandoned_one_is_not(tmp_path):
    evening = Evening(tmp_path, 'idle_minutes = 10\nplayers = ["Ann", "Bob"]\n')
    evening.press("OK")
    evening.hold()                                          # Thirteen, Ann and Bob: left
    _throw(evening, [1, 2, 3, 4, 5])
    _left_alone(evening)
    evening.down_to("School")
    evening.press("OK")
    evening.down_to("3 players")
    evening.press("OK")
    evening.type_name(3, "Cy")
    evening.hold()                                          # School for three: left too
    _throw(evening, [6, 6, 1, 2, 3])
    _left_alone(evening)
    evening.press("OK")
    evening.hold()                                          # Thirteen: ended with ABANDON
    evening.abandon()
    kept = [(item.label, item.value) for item in evening.menu.view().setup][-2:]
    assert kept == [("Take up School", "Ann, Bob, Cy"), ("Take up Thirteen", "Ann, Bob")]
    evening.down_to("Take up Thirteen")
    assert evening.menu.view().prompt.text == "Thirteen (Ann, Bob), put away after 1 move: OK goes on with it."
    evening.hold()                                          # (a long OK takes it up too)
    assert evening.app.flow.state.title == "Thirteen" and len(evening.app.flow.log.inputs) == 1


def test_the_games_page_with_games_put_away_is_drawn_apart_at_320x240(tmp_path, monkeypatch):
    """Two games put away: seven rows under the four lines of *Nobody played ...* at 320x240
    were squeezed below their text and drawn over each other. Rows keep their legible height:
    those away from the cursor are left off (*... 4 more*), UP/DOWN reach them."""
    import pygame

    from display import render as render_module
    from test_small_screen import overlaps, texts_drawn

    evening = Evening(tmp_path, 'idle_minutes = 10\nplayers = ["Ann", "Bob"]\n')
    for game in ("Thirteen", "School"):
        evening.down_to(game)
        evening.hold()
        _throw(evening, [1, 2, 3, 4, 5])
        _left_alone(evening)
    evening.menu.screen_size = (320, 240)
    said = evening.menu.message
    assert said.text.startswith("Nobody played School")
    for _ in range(7):                          # (every row of the seven, the cursor on it)
        evening.press("DOWN")                   # (a press: the menu's message goes; a camera's
        evening.menu.notice = said              # notice of as many lines stays as long as it lasts)
        view = evening.menu.view()
        row = evening.row()
        assert view.message is said
        surface = pygame.Surface((320, 240))
        seen = texts_drawn(monkeypatch, render_module)
        render_module.render(surface, view)
        monkeypatch.undo()
        assert not overlaps(seen), overlaps(seen)
        assert any(label == row for label, _ in seen)


def test_a_game_put_away_that_cannot_be_taken_up_is_said_and_the_menu_goes_on(tmp_path):
    """Its journal gone meanwhile (the staff moved it) or not to be read: the menu says why, the row
    goes, and the cursor is on a row that is there (OK again must not crash the menu)."""
    evening = Evening(tmp_path, 'idle_minutes = 10\nplayers = ["Ann", "Bob"]\n')
    evening.press("OK")
    evening.hold()
    _throw(evening, [1, 2, 3, 4, 5])
    _left_alone(evening)
    evening.press("OK")
    evening.hold()                                 # Thirteen again: left too
    _left_alone(evening)
    first, second = sorted((tmp_path / "games").glob("*-put-away.jsonl"))
    first.unlink()                                 # (the older one, offered last)
    second.write_text('{"format": "dicetable-log/9", "game": "thirteen", "players": ["Ann", "Bob"]}\n')
    evening.down_to("Take up Thirteen")
    evening.press("DOWN")
    assert evening.row() == "Take up Thirteen"
    evening.press("OK")                            # the older: gone
    assert evening.app.flow is None and "cannot be taken up" in evening.menu.view().message.text
    assert [i.label for i in evening.menu.view().setup].count("Take up Thirteen") == 1
    assert evening.row() == "Thirteen"
    evening.press("OK", "BACK")                    # (OK acts on a row that is there)
    evening.down_to("Take up Thirteen")
    evening.press("OK")                            # the newer: another version's, kept aside for the staff
    assert evening.app.flow is None
    assert evening.menu.view().message.text.startswith("The last game could not be resumed")
    assert "Take up Thirteen" not in [i.label for i in evening.menu.view().setup]
    assert list((tmp_path / "games").glob("*-unreadable.jsonl"))


def _played_and_back_at_the_menu(evening: Evening) -> None:
    """Zoe and Max set up Classic of two rounds and ended it; the menu offers it again."""
    evening.down_to("Classic poker dice")
    evening.press("OK", "OK")
    evening.type_name(1, "Zoe")
    evening.type_name(2, "Max")
    evening.down_to("Next >")
    evening.press("OK")
    evening.down_to("Rounds")
    evening.press("OK", "UP", "UP", "OK")
    evening.hold()
    evening.wall.t += 20 * 60                       # (twenty minutes of play)
    _throw(evening, [6, 6, 6, 3, 3])
    evening.abandon()
    assert "hold OK: play again (Zoe, Max)" in evening.menu.view().prompt.hint


def test_a_power_cut_on_the_setup_menu_keeps_the_game_just_played_to_play_again(tmp_path):
    """The power went while Zoe and Max were on the menu after their game: the table came back
    with the café's setup (Player 1, Player 2, the standard rules), their names to type again
    letter by letter. Now it comes back as it was: *hold OK: play again (Zoe, Max)*."""
    evening = Evening(tmp_path)
    _played_and_back_at_the_menu(evening)
    evening.wall.t += 60
    evening.power_on()
    assert evening.app.flow is None
    assert "hold OK: play again (Zoe, Max)" in evening.menu.view().prompt.hint
    evening.hold()
    state = evening.app.flow.state
    assert (state.title, state.players, state.options["rounds"]) == ("Classic poker dice", ("Zoe", "Max"), 2)


def test_the_next_morning_or_on_a_clock_not_set_the_menu_is_the_cafes(tmp_path):
    """Not what it should not remember: last night's group (the table switched on the next day),
    or a game whose time the table cannot know (the network had not set its clock)."""
    evening = Evening(tmp_path)
    _played_and_back_at_the_menu(evening)
    evening.wall.t += 12 * 3600
    evening.power_on()
    assert "start now" in evening.menu.view().prompt.hint and evening.menu.players() == ("Player 1", "Player 2")
    evening.wall.t -= 12 * 3600 - 60
    evening.wall.set_by_network = False
    evening.power_on()
    assert "start now" in evening.menu.view().prompt.hint and evening.menu.players() == ("Player 1", "Player 2")
    evening.wall.set_by_network = True
    evening.power_on()
    assert "play again (Zoe, Max)" in evening.menu.view().prompt.hint
    evening.clock.t += 30 * 60                      # left alone: the café's menu, as after any game
    evening.app.step()
    assert "start now" in evening.menu.view().prompt.hint and evening.menu.players() == ("Player 1", "Player 2")


def test_the_menus_description_at_320x240_is_wrapped_at_the_size_it_is_drawn_at(monkeypatch):
    """The line under the games (what the game is; a put-away game's moves) was wrapped for 15 px
    and drawn at the legible least, 20: each line ran past the screen's edge and was cut there
    (*13 turns each: throw five dice up to three tim...*, *put away after 1 mov...*)."""
    import pygame

    from controller.setup_menu import SetupMenu
    from display import render as render_module
    from display import theme
    from test_small_screen import texts_drawn

    pygame.font.init()
    surface = pygame.Surface((320, 240))
    s = theme.scale(surface)
    room = render_module._frame(surface)[2].width - int(32 * s)
    menu = SetupMenu(screen_size=(320, 240))
    for _ in menu.games:
        about = menu.view().prompt.text
        seen = texts_drawn(monkeypatch, render_module)
        render_module.render(surface, menu.view())
        monkeypatch.undo()
        about = about[:1].upper() + about[1:]
        lines = [line for line, _ in seen if line.strip() and line in about]
        assert lines, about
        for line in lines[:-1]:                 # (the last may be cut with "...", where there is more)
            assert theme.font(theme.min_text(s)).size(line)[0] <= room, line
        menu.on_button("press", "DOWN")


def test_house_rules_changed_by_the_staff_and_a_restart_are_the_next_games(tmp_path):
    """The staff set Thirteen's upper bonus to 50 in the config and restarted the table between
    two games (docs/install.md: restart for the house rules to count): the game just played is
    kept to play again, its players too, but under the rules the staff set, not the old ones."""
    evening = Evening(tmp_path, 'players = ["Ann", "Bob"]\n[table.options.thirteen]\nupper_bonus = 35\n')
    evening.press("OK")
    evening.hold()
    assert evening.app.flow.state.options["upper_bonus"] == 35
    _throw(evening, [6, 6, 6, 3, 3])
    evening.abandon()
    evening.config = parse_config(f'[table]\njournal_dir = "{tmp_path}"\nplayers = ["Ann", "Bob"]\n'
                                  '[table.options.thirteen]\nupper_bonus = 50\n')
    evening.wall.t += 60
    evening.power_on()
    assert "play again (Ann, Bob)" in evening.menu.view().prompt.hint
    evening.hold()
    assert evening.app.flow.state.options["upper_bonus"] == 50


def test_house_rules_changed_mid_game_and_a_restart_count_from_the_next_game(tmp_path):
    """docs/install.md: restart the table after changing the house rules; "a game in progress
    resumes with the rules it was started with", and the setup menu then starts from the new
    values. It did not: the menu after the resumed game kept its old rules, for 'play again'
    and for a group going through the pages."""
    evening = Evening(tmp_path, 'players = ["Ann", "Bob"]\n[table.options.thirteen]\nupper_bonus = 35\n')
    evening.press("OK")
    evening.hold()
    _throw(evening, [6, 6, 6, 3, 3])
    evening.config = parse_config(f'[table]\njournal_dir = "{tmp_path}"\nplayers = ["Ann", "Bob"]\n'
                                  '[table.options.thirteen]\nupper_bonus = 50\n')
    evening.power_on()
    assert evening.app.flow.state.options["upper_bonus"] == 35          # (its own rules)
    evening.abandon()
    evening.press("OK", "OK", "OK", "OK", "OK")                        # Thirteen, 2, names, rules, start
    assert evening.app.flow.state.options["upper_bonus"] == 50
    evening.abandon()
    evening.hold()                                                      # and played again
    assert evening.app.flow.state.options["upper_bonus"] == 50
