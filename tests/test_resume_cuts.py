"""Power cuts in the table's newest flows: the game comes back as the players left it, and the
screen says it in words they read (brief: the resume of corrections, games put away and taken up,
BACK twice in loops, the *Resumed* notice)."""
from __future__ import annotations

import json
from pathlib import Path

from controller.config import parse_config
from controller.table_app import TableApp
from display.screen import Screen
from test_table_e2e import FakeButtons, NoFrames

HEADER = {"format": "dicetable-log/2", "game": "thirteen", "players": ["Ann", "Bob"], "options": {}}
DICE = {"type": "dice", "player": 0, "values": [6, 6, 2, 3, 5]}


def journal(folder: Path, *lines: dict) -> Path:
    """A journal folder whose current.jsonl has these lines after its header."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "current.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in (HEADER, *lines)), encoding="utf-8")
    return path


def table(folder: Path, extra: str = "") -> TableApp:
    """The table started on `folder`, as `dicetable run` starts after a power cut."""
    return TableApp(parse_config(f'[table]\njournal_dir = "{folder}"\n{extra}'), Screen((800, 480), headless=True),
                    NoFrames(), FakeButtons())


def test_a_game_cut_after_its_first_move_says_one_move_replayed(tmp_path):
    """The screen said *(1 moves replayed)*; one move is "1 move", more are "moves"."""
    journal(tmp_path / "one", DICE)
    text = table(tmp_path / "one").flow.view().message.text
    assert text == "Resumed Thirteen for Ann, Bob after a restart (1 move replayed).", text
    journal(tmp_path / "two", DICE, {"type": "choose", "player": 0, "option": "SIXES"})
    assert "after a restart (2 moves replayed)." in table(tmp_path / "two").flow.view().message.text
