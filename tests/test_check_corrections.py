"""Staff run `dicetable check` after players complained the table misreads: it says how often the
dice were corrected by hand in the last games, read from what the table already keeps (its log's
correction lines between a game's start and its archiving, the archived journal's throws), and
warns as the table does when the players kept correcting. Before, it said nothing of them.

The correction lines are the table's own, logged by a game played at the headless table on the
committed trays; the start and archiving lines are table_app's, in its words."""
from __future__ import annotations

import logging
import subprocess
from pathlib import Path

from test_correction_tally import BOXES, CORRECTED, played

from controller import check
from controller.check import run_checks
from controller.journal import Journal

RIGHT = "throw d66235.jpg\nhold OK\nhold OK\n"       # a correction opened and left as read


def game_lines(script: str, caplog, journal_dir: Path | None, number: int) -> list[str]:
    """The service log of one game of Thirteen for Ann played by `script`: its start, its own
    lines, and (`journal_dir`) its journal archived there."""
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="controller.table"):
        p = played(script)
    lines = [f"controller.table_app: new game: {p.flow.state.title} for Ann"]
    lines += [f"{r.name}: {r.getMessage()}" for r in caplog.records]
    if journal_dir is not None:
        target = journal_dir / "games" / f"{number:06d}-20261127-0300{number:02d}-finished.jsonl"
        Journal(target, p.flow.log, fsync=False)
        lines.append(f"controller.table_app: journal archived as {target}")
    return lines


def config(tmp_path: Path, journal_dir: Path) -> Path:
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[table]\njournal_dir = "{journal_dir}"\n[camera]\ntype = "folder"\npath = "{tmp_path}"\n'
                   '[buttons]\ntype = "keyboard"\n', encoding="utf-8")
    return cfg


def corrections(tmp_path: Path, lines) -> list[check.Finding]:
    found = run_checks(config(tmp_path, tmp_path / "state"), camera=False, table_user=None,
                       service_log=lambda: lines)
    return [f for f in found if f.part == "corrections"]


def test_a_game_the_players_kept_correcting_is_a_warning_with_its_count(tmp_path, caplog) -> None:
    state = tmp_path / "state"
    kept_correcting = "".join(CORRECTED + f"choose {box}\n" for box in BOXES[:3])
    lines = game_lines(kept_correcting, caplog, state, 1)
    lines += game_lines(RIGHT + "choose CHANCE\n" + CORRECTED, caplog, None, 2)      # on the table now
    [found] = corrections(tmp_path, lines)
    assert found.level == "warning", found.line()
    assert "in the last 2 games: Thirteen for Ann: 3 of 3 throws; Thirteen for Ann: 1 throw (still on the " \
           "table)" in found.text, found.line()
    assert "clean its lens and check the light over the tray" in found.text


def test_a_few_corrections_are_said_not_warned(tmp_path, caplog) -> None:
    state = tmp_path / "state"
    script = RIGHT + "choose CHANCE\n" + CORRECTED + "choose SIXES\n" + RIGHT + "choose FIVE_KIND\n"
    [found] = corrections(tmp_path, game_lines(script, caplog, state, 1))
    assert found.level == "ok" and found.text.endswith("the last 1 game: Thirteen for Ann: 1 of 3 throws"), \
        found.line()


def test_a_log_staff_may_not_read_says_how_to_read_it(tmp_path) -> None:
    from controller.correction_report import read_service_log

    def journalctl(argv, **kw):
        return subprocess.CompletedProcess(argv, 0, "", "No journal files were opened due to insufficient "
                                                        "permissions.\n")

    [found] = corrections(tmp_path, read_service_log(journalctl))
    assert found.level == "ok" and "run dicetable check with sudo" in found.text, found.line()


def test_no_game_yet_is_said(tmp_path) -> None:
    [found] = corrections(tmp_path, [])
    assert found.level == "ok" and "no game in the table's log yet" in found.text, found.line()
