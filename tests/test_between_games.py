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
from table_helpers import Clock
from test_table_e2e import FakeButtons, NoFrames


class Evening:
    """A table app, its clock, and presses made as players make them (half a second apart)."""

    def __init__(self, tmp_path: Path, table: str = "") -> None:
        self.clock = Clock()
        self.config = parse_config(f'[table]\njournal_dir = "{tmp_path}"\n{table}')
        self.app = TableApp(self.config, Screen((800, 480), headless=True), NoFrames(), FakeButtons(),
                            clock=self.clock)

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
