"""`dicetable bench evening`: the whole table app through an evening on a simulated clock (a
benchmark; this only keeps it working). Its fourth group leaves its game: put away, archived."""
from __future__ import annotations

from controller.bench_evening import evening


def test_an_evening_plays_put_aways_and_archives_each_game():
    rows = evening(4)
    assert [r["how"] for r in rows] == ["played", "played", "played", "put away"]
    assert [r["folder_files"] for r in rows] == [1, 2, 3, 4]          # (each game archived, none left current)
    assert all(r["passes"] > 0 and r["calls_per_pass"] > 0 and r["open_files"] > 0 for r in rows)
    assert rows[-1]["log_kb"] > rows[0]["log_kb"] > 0                  # (the log at INFO counted)
    assert rows[-1]["hours"] > 0.5                                     # (31 minutes left alone)
