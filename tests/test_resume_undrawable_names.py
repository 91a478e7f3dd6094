"""A journal resumed on a table whose fonts cannot draw a player's name (the suite's fonts are
DejaVu alone, as a Raspberry Pi's: no Chinese): the sheet, prompts and notes drew "???" and
"??", and the two players could not tell whose column was whose. The resumed game now plays
under the menu's stand-ins ("Player 1"), the same at every restart and in the next game; the
staff are told once, in the resume's banner and the log, not at every frame; the journal keeps
the names as typed."""
from __future__ import annotations

import json
import logging
from pathlib import Path

from controller.config import parse_config
from controller.journal import Journal, load_any
from controller.table_app import TableApp
from controller.tablelog import TableLog
from display.screen import Screen
from table_helpers import Press
from test_table_e2e import FakeButtons, NoFrames

NAMES = ["王小明", "Ann", "李华"]


def journal(folder: Path) -> Path:
    """A Thirteen journal of those three, begun where a font drew them: 王小明's first throw
    scored into Chance, Ann to throw."""
    folder.mkdir(exist_ok=True)
    log = TableLog("thirteen", NAMES, {})
    path = folder / "current.jsonl"
    j = Journal(path, log)
    for data in ({"type": "dice", "player": 0, "values": [1, 2, 3, 4, 6]},
                 {"type": "choose", "player": 0, "option": "CHANCE"}):
        j.append(data)
    return path


def started(folder: Path) -> TableApp:
    return TableApp(parse_config(f'[table]\njournal_dir = "{folder}"\n'), Screen((800, 480), headless=True),
                    NoFrames(), FakeButtons())


def every_text(app: TableApp) -> str:
    """Everything the screen is given to draw, as one text."""
    return json.dumps(app.flow.view(None).__dict__, default=lambda o: getattr(o, "__dict__", str(o)),
                      ensure_ascii=False)


def test_the_resumed_game_plays_under_stand_ins_said_once(tmp_path, caplog):
    path = journal(tmp_path / "j")
    with caplog.at_level(logging.INFO):
        app = started(tmp_path / "j")
    state = app.flow.state
    assert state.players == ("Player 1", "Ann", "Player 3")
    shown = every_text(app)
    assert "王" not in shown and "李" not in shown and "?" not in json.dumps(state.sheet().players)
    assert "Player 1" in shown
    said = [r for r in caplog.records if "letters this screen lacks" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING        # once, for the staff
    assert "letters this screen lacks" in app.flow.message.text
    for _ in range(20):                                                   # frames: nothing said again
        app.flow.tick()
        app.flow.view(None)
    assert len([r for r in caplog.records if "letters this screen lacks" in r.getMessage()]) == 1
    assert load_any(path).players == NAMES                                # the journal keeps them as typed


def test_the_same_stand_ins_after_another_restart_and_a_take_back(tmp_path):
    folder = tmp_path / "j"
    journal(folder)
    first = started(folder).flow.state.players
    assert first == ("Player 1", "Ann", "Player 3")
    app = started(folder)            # the power goes again
    assert app.flow.state.players == first
    # BACK twice takes back 王小明's choice: the game rebuilt from its journal keeps the stand-ins
    app.flow.on_button(Press("BACK"))
    app.flow.on_button(Press("BACK"))
    assert app.flow.state.turn == 0, app.flow.message
    assert app.flow.state.players == first


def test_names_the_screen_draws_are_resumed_as_they_are(tmp_path, caplog):
    folder = tmp_path / "j"
    folder.mkdir()
    Journal(folder / "current.jsonl", TableLog("thirteen", ["Zoë", "Ελένη"], {}))
    with caplog.at_level(logging.INFO):
        app = started(folder)
    assert app.flow.state.players == ("Zoë", "Ελένη")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
