"""A software update with a game in progress: journals and config files left on the card by
older builds of this program, taken up by this one.

The journals in fixtures/old_journals were played at the table of older commits of this
repository (make_old_journal.py, run in a `git archive` of the commit: the old TableApp's own
journal, the presses of the first lines of a fixture script, or of takeback.txt and holds.txt);
journals.json names each one's commit and script, and NAME.sheet.txt is the score sheet that
old build showed at that moment (its rows, spaces squeezed, its notes left out: their words
changed since, the game did not). The config files in fixtures/old_configs are the example
config of older commits, as a café copied it then.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from controller.config import load_config, parse_config
from controller.journal import TAKE_BACK, is_damaged, is_hold
from controller.resume_words import moves_replayed
from controller.table_app import TableApp
from display.screen import Screen
from hardware.fakes import NoDevice

FIX = Path(__file__).parent / "fixtures"
JOURNALS = json.loads((FIX / "old_journals" / "journals.json").read_text(encoding="utf-8"))
CONFIGS = sorted((FIX / "old_configs").glob("*.toml"))


def rows(sheet_text: str) -> list[str]:
    """The sheet's rows as the fixtures keep them, in any order (a later build moved School's
    score table below its grid), Thirteen's previews without the words a later build added to
    their points ("(+0 give up)", "(+35 early)": the old build's "(+0)", "(+35)")."""
    sheet_text = re.sub(r"\((\+[0-9+]+) (give up|early)\)", r"(\1)", sheet_text)
    found = [" ".join(line.replace("-", " ").split()) for line in sheet_text.split("\n")]
    return sorted(r for r in found if r and not r.startswith("note:"))


def inputs_of(path: Path) -> list[dict]:
    """The inputs a journal holds, its take-backs applied (read here, not with the code under test)."""
    inputs: list[dict] = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        data = json.loads(line)
        if data == TAKE_BACK:
            inputs.pop()
        elif not (is_hold(data) or is_damaged(data)):
            inputs.append(data)
    return inputs


def start(folder: Path) -> TableApp:
    config = parse_config(f'[table]\njournal_dir = "{folder}"\n')
    return TableApp(config, Screen((800, 480), headless=True), NoDevice(), NoDevice())


@pytest.mark.parametrize("entry", JOURNALS, ids=[e["journal"] for e in JOURNALS])
def test_a_game_journaled_by_an_older_build_resumes_as_it_was(tmp_path, entry):
    old = FIX / "old_journals" / entry["journal"]
    shutil.copy(old, tmp_path / "current.jsonl")
    app = start(tmp_path)
    assert app.flow is not None, app.menu.view().message
    assert not (tmp_path / "games").exists()                       # nothing kept aside as unreadable
    assert app.flow.log.inputs == inputs_of(old)
    assert rows(app.flow.state.sheet().to_text()) == rows(old.with_suffix(".sheet.txt").read_text(encoding="utf-8"))
    said = app.flow.view().message.text
    assert said.startswith(f"Resumed {app.flow.state.title}") and f"({moves_replayed(len(inputs_of(old)))})" in said
    # the journal written again on resume keeps its lines as they were (its last take-back, holds),
    # but for a hold line another follows at once (superseded: only the last of a run counts)
    was = old.read_text().splitlines()[1:]
    kept = [line for line, after in zip(was, [*was[1:], ""]) if not ('"hold"' in line and '"hold"' in after)]
    assert (tmp_path / "current.jsonl").read_text().splitlines()[1:] == kept


def test_dice_held_before_an_update_are_held_after_it(tmp_path):
    shutil.copy(FIX / "old_journals" / "e365ef3-thirteen-held.jsonl", tmp_path / "current.jsonl")
    app = start(tmp_path)
    assert "Dice still held: 2 6" in app.flow.view().message.text


def test_a_choice_taken_back_before_an_update_stays_taken_back(tmp_path):
    shutil.copy(FIX / "old_journals" / "b4e4c04-classic-taken-back.jsonl", tmp_path / "current.jsonl")
    app = start(tmp_path)
    assert [i["type"] for i in app.flow.log.inputs] == ["dice", "choose", "dice"]
    assert app.flow.state.sheet().status.startswith("Round 1 of 4 — Bob")


@pytest.mark.parametrize("path", CONFIGS, ids=[p.name for p in CONFIGS])
def test_the_example_config_of_an_older_build_still_starts_the_table(path):
    """An update never rewrites /etc/dicetable/config.toml: the file copied from an older example
    must read without a warning or a problem, and build the camera and the panels it names."""
    from hardware import make_button_source, make_frame_source

    config = load_config(path)
    assert config.warnings == () and config.problems == ()
    make_frame_source(config.camera)
    make_button_source(config.buttons)
    config.vision.settle_config()
