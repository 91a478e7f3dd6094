"""The archive benchmark's games are what the table archives: finished games, named as it names
them (the figures are about those files, not any others)."""
from __future__ import annotations

from controller.bench_archive import make_archive
from controller.journal import Journal
from controller.rules.base import find_game
from controller.table_app import NUMBERED, archived_journals
from controller.tablelog import replay


def test_the_archive_made_is_of_finished_games_named_and_ordered_as_the_table_archives_them(tmp_path):
    written = make_archive(tmp_path, 7)
    names = archived_journals(tmp_path)
    assert len(names) == 7 and names == sorted(names) and all(NUMBERED.match(n) for n in names) and sum((tmp_path / n).stat().st_size for n in names) == written
    for name in names:
        game = Journal.load(tmp_path / name)
        assert name.endswith(f"-{game.game}.jsonl") and replay(game).is_over
        # (the table journals every house rule of a new game: the files' size is theirs)
        assert game.options == {spec.name: spec.default for spec in find_game(game.game).OPTIONS}


def test_bench_archive_json_prints_one_json_object_as_the_other_benchmarks_do(monkeypatch, capsys):
    """`dicetable bench archive --json` printed its lines as text: --json was taken and not passed on."""
    import json

    import controller.bench_archive as bench_archive
    import controller.cli as cli

    monkeypatch.setattr(bench_archive, "_in_process", lambda code, config, stderr=False: (1.5, 90.0))
    monkeypatch.setattr(bench_archive, "_end_of_game", lambda config: 0.002)
    assert cli.main(["bench", "archive", "--limit", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["archive"]["files"] == 3 and figures["files_kept"] == 3
    assert figures["full"]["start_s"] == [1.5, 1.5, 1.5] and figures["game_end_ms"] == [2.0, 2.0, 2.0]
