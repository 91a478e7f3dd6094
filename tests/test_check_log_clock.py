"""`dicetable check` reads the table's log from journald, whose entries carry the wall clock's
time as each was written. A Raspberry Pi has no clock battery: it boots in 1970 (or at systemd's
build date) without fake-hwclock, or at the time fake-hwclock saved as the café closed for the
holidays, and the network sets the clock right later, decades or weeks forward. A window of the
log counted back from the clock's *now* ("the last 30 days") then left out the lines written
before the network set it: the game on the table that morning, its start and its corrections.

The fake journalctl below selects entries as the real one does: `--since -30 days` by each
entry's time against the clock's now, `-n N` the last N entries in the order they were written.
"""
from __future__ import annotations

import subprocess
from datetime import datetime

import pytest
from test_check_corrections import corrections, game_lines
from test_correction_tally import BOXES, CORRECTED

from controller.correction_report import read_service_log

DAY = 86400.0
SET_BY_NETWORK = datetime(2026, 11, 27, 10, 5).timestamp()      # the clock once the network set it
BOOTED_AT = {
    "1970": 42.0,                                                 # no fake-hwclock
    "a month closed": datetime(2026, 10, 25, 22, 0).timestamp(),  # fake-hwclock's last save
}


def journalctl(entries: list[tuple[float, str]], now: float):
    """A journalctl over `entries` (the wall clock's time as written, the line), asked at `now`."""

    def run(argv, **kw):
        shown = list(entries)
        if "--since" in argv:
            since = argv[argv.index("--since") + 1]
            assert since == "-30 days", since
            shown = [e for e in shown if e[0] >= now - 30 * DAY]
        if "-n" in argv:
            shown = shown[-int(argv[argv.index("-n") + 1]):]
        return subprocess.CompletedProcess(argv, 0, "".join(f"{line}\n" for _, line in shown), "")

    return run


@pytest.mark.parametrize("boot", list(BOOTED_AT))
def test_a_game_begun_before_the_network_set_the_clock_is_read_whole(tmp_path, caplog, boot) -> None:
    """The table starts on the wrong clock; a group plays Thirteen and corrects its first throw;
    the network sets the clock; they correct the next two and the game ends. The staff, called
    about misreadings, run the check: the game is named with its three corrections, a warning.
    Before: the lines before the clock was set were out of the window: the game was 'a game begun
    before the log' with 2 corrections, and no warning (or, at 1970, nothing at all)."""
    lines = game_lines("".join(CORRECTED + f"choose {box}\n" for box in BOXES[:3]), caplog, tmp_path / "state", 1)
    first_after = next(i for i, line in enumerate(lines) if " scored " in line)
    written = [(BOOTED_AT[boot] + i, line) for i, line in enumerate(lines[:first_after])]
    written += [(SET_BY_NETWORK + i, line) for i, line in enumerate(lines[first_after:])]
    assert sum("dice corrected by hand" in line for _, line in written[:len(lines[:first_after])]) == 1
    [found] = corrections(tmp_path, read_service_log(journalctl(written, SET_BY_NETWORK + 3600)))
    assert found.level == "warning", found.line()
    assert "in the last 1 game: Thirteen for Ann: 3 of 3 throws" in found.text, found.line()


def test_the_log_read_is_bounded_by_lines_not_by_the_clock() -> None:
    """What keeps the read short on a table logging for years is a number of lines: the same
    whatever the clock says."""
    entries = [(float(i), f"line {i}") for i in range(200_000)]
    for now in (42.0, SET_BY_NETWORK):
        said = read_service_log(journalctl(entries, now))
        assert isinstance(said, list) and 10_000 <= len(said) < 200_000 and said[-1] == "line 199999"
