"""A café updates a table that ran an older build (docs/install.md step 11): its config, its game
cut by a power cut, its finished games and its held dice, as those builds wrote them.

The fixtures were written by the old builds' own code (tests/fixtures/upgrade/README.md). The
expected scores and players are what those builds replayed from them. This guards the update:
a change of the journal's or the config's form without a reader for the old one loses the game
a café has on its table when it updates.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from controller.cli import main
from controller.config import load_config, parse_config
from controller.rules import Decide
from controller.table import DECIDE
from controller.table_app import TableApp
from display.screen import Screen
from test_table_e2e import FakeButtons, NoFrames

OLD = Path(__file__).parent / "fixtures" / "upgrade"

#: what the 2026-11-25 build replayed from its current.jsonl: 41 moves, Ann to choose on
#: [1 2 3 4 5], the boxes scored so far (row, column, points)
SCORED_25 = [("TWOS", 1, 6), ("FIVES", 0, 15), ("FIVES", 1, 15), ("UPPER_SUM", 0, 15), ("UPPER_SUM", 1, 21),
             ("TWO_PAIRS", 0, 25), ("THREE_KIND", 0, 30), ("THREE_KIND", 1, 30), ("CHANCE", 0, 24),
             ("CHANCE", 1, 18), ("TOTAL", 0, 94), ("TOTAL", 1, 69)]


def scored(state) -> list[tuple[str, int, int]]:
    return [(row.key, i, cell.value) for table in state.sheet().tables for row in table.rows
            for i, cell in enumerate(row.cells) if cell.kind in ("score", "total", "cross", "zero")]


def updated_table(tmp_path: Path) -> tuple[TableApp, Path]:
    """The 2026-11-25 café's folder and config, taken up by this build."""
    var = tmp_path / "var"
    shutil.copytree(OLD / "2026-11-25", var)
    config = var / "config.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('"/var/lib/dicetable"', f'"{var}"'),
                      encoding="utf-8")
    loaded = load_config(config, lenient=True)
    assert loaded.problems == () and loaded.warnings == ()          # (read as it is: nothing left out)
    assert loaded.vision.calibration["die_px"] == 54.59              # (its calibration kept)
    return TableApp(loaded, Screen((800, 480), headless=True), NoFrames(), FakeButtons()), var


def test_the_game_cut_mid_throw_by_an_older_build_resumes_the_same(tmp_path):
    app, var = updated_table(tmp_path)
    flow = app.flow
    assert flow is not None and flow.log.game == "thirteen" and flow.log.players == ["Ann", "Bob"]
    assert flow.log.options == {"two_pairs_value": 20, "two_pairs_accepts_full_house": True}
    assert len(flow.log.inputs) == 41                                # (the torn throw asked again)
    expect = flow.state.expects()
    assert isinstance(expect, Decide) and expect.player == 0 and sorted(expect.reroll.dice) == [1, 2, 3, 4, 5]
    assert scored(flow.state) == SCORED_25
    assert "Resumed Thirteen for Ann, Bob" in flow.view().message.text
    assert sorted(p.name for p in (var / "games").iterdir()) == ["20261124-110000-classic.jsonl"]


def test_a_game_archived_by_an_older_build_replays_to_its_result(tmp_path, capsys):
    assert main(["replay", str(OLD / "2026-11-25" / "games" / "20261124-110000-classic.jsonl")]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("1. Zoë  3\n2. Window  2\n3. Bar  0\nWinner: Zoë")


@pytest.mark.parametrize("lines, held, inputs", [(23, [4, 4, 4], 5), (13, [1], 3), (16, [1], 3), (7, [], 2)])
def test_dice_held_in_a_journal_of_the_format_1_builds_with_holds_come_back_held(tmp_path, lines, held, inputs):
    """2026-11-26's builds wrote hold lines under a dicetable-log/1 header: cut after line
    `lines`, the game comes back with those dice held (as that build resumed it)."""
    folder = tmp_path / "var"
    folder.mkdir()
    kept = (OLD / "2026-11-26-holds.jsonl").read_bytes().splitlines(keepends=True)[:lines]
    assert kept[0].startswith(b'{"format": "dicetable-log/1"')
    (folder / "current.jsonl").write_bytes(b"".join(kept))
    app = TableApp(parse_config(f'[table]\njournal_dir = "{folder}"\n'), Screen((800, 480), headless=True),
                   NoFrames(), FakeButtons())
    flow = app.flow
    assert flow is not None and len(flow.log.inputs) == inputs
    assert (sorted(flow.held_values) if flow.phase == DECIDE else []) == held
    assert ("Dice still held: " in flow.view().message.text) == bool(held)
