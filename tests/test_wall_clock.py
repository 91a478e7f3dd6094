"""The table on a Raspberry Pi, whose wall clock is wrong after a power cut (no clock battery):
it boots at the time fake-hwclock saved (up to an hour before the cut) or in 1970, and the
network sets it right later, or never. Each test sets the wall clock where such an event leaves
it (an injected clock, no sleeps) and checks what the players and staff would see."""
from __future__ import annotations

from datetime import datetime

import pytest

from controller.config import parse_config
from controller.setup_menu import SetupResult
from controller.table_app import TableApp, archive_order, archived_journals
from display.screen import Screen
from table_helpers import WallClock
from table_helpers import Clock
from test_table_e2e import FakeButtons, NoFrames, _kiosk_after_a_throw

NOV_26 = datetime(2026, 11, 26, 21, 0).timestamp()     # a night at the café, the clock right
BOOT_1970 = 42.0                                         # a Pi without fake-hwclock, just booted
HOUR = 3600.0


def _play_and_finish(folder, wall, keep: int) -> None:
    """A game of Thirteen started and ended at a table whose wall clock says `wall`."""
    config = parse_config(f'[table]\njournal_dir = "{folder}"\nkeep_games = {keep}\n')
    app = TableApp(config, Screen((800, 480), headless=True), NoFrames(), FakeButtons(), wall=wall)
    app.menu.done = SetupResult("thirteen", ("Ann",), {})
    app.start_new()
    app.finish_game()


@pytest.mark.parametrize("after_cut", [BOOT_1970, NOV_26 - HOUR], ids=["1970", "an hour back"])
def test_the_games_archived_after_the_clock_went_back_are_the_newest_kept(tmp_path, after_cut):
    """Three games archived on a right clock, then a power cut: the clock says 1970 (or an hour
    before the last game) and no network sets it. The games played then are the newest and are
    kept; the oldest go. The archive was sorted by the date in the names: each game archived in
    1970 was the oldest and, the archive full, removed at once, so the café kept none of them."""
    wall = WallClock(NOV_26)
    for _ in range(3):
        _play_and_finish(tmp_path, wall, keep=3)
        wall.t += 600
    first = archived_journals(tmp_path / "games")
    wall.t = after_cut                                   # the power cut
    for _ in range(2):
        _play_and_finish(tmp_path, wall, keep=3)
        wall.t += 600
    names = archived_journals(tmp_path / "games")
    assert len(names) == 3 and names[0] == first[2]      # the last game before the cut, then ...
    assert [n.split("-")[1] for n in names[1:]] == [datetime.fromtimestamp(after_cut).strftime("%Y%m%d")] * 2
    assert [n.split("-")[0] for n in names] == ["000003", "000004", "000005"]


@pytest.mark.parametrize("name, place", [
    ("20991231-235959-thirteen.jsonl", (0, 0)),          # archived before the numbers: older than any
    ("000007-19700101-000042-classic.jsonl", (1, 7)),
    ("000007-19700101-000042-classic-2.jsonl", (1, 7)),
    ("1234567-20261126-210000-school-abandoned.jsonl", (1, 1234567)),
])
def test_an_archived_name_sorts_by_its_number_not_its_date(name, place):
    assert archive_order(name)[:2] == place


def test_the_number_goes_on_after_games_archived_before_the_numbers(tmp_path):
    """An archive kept from before the numbers: its games stay the oldest, the new one is 1."""
    games = tmp_path / "games"
    games.mkdir()
    for day in (1, 2):
        (games / f"2026010{day}-120000-thirteen.jsonl").write_text("{}\n")
    _play_and_finish(tmp_path, WallClock(BOOT_1970), keep=2)
    stamp = datetime.fromtimestamp(BOOT_1970).strftime("%Y%m%d-%H%M%S")
    assert archived_journals(games) == ["20260102-120000-thirteen.jsonl", f"000001-{stamp}-thirteen.jsonl"]


def _resumed(app, wall, clock) -> TableApp:
    """The table started again on `app`'s journal (a restart, or a power cut and a boot)."""
    again = TableApp(app.config, app.screen, NoFrames(), FakeButtons(), clock=clock, wall=wall)
    clock.t += 10                                      # (the "Resumed" notice has faded)
    again.step()
    return again


def _asked(app) -> bool:
    message = app.flow.view().message
    return message is not None and message.text.startswith("Still playing?")


# the wall clock while the game was played and at the start that resumed it: (time, set by the network)
@pytest.mark.parametrize("played, started, asked", [
    ((BOOT_1970, False), (NOV_26, True), False),         # restarted after the network set the clock
    ((NOV_26 - HOUR, False), (NOV_26 + 600, True), False),  # fake-hwclock's hour back, set before the start
    ((NOV_26, True), (NOV_26 - HOUR + 60, False), False),   # a power cut: an hour back, not set yet
    ((NOV_26, False), (NOV_26 + 12 * HOUR, False), False),  # no network ever: how long it was off is unknown
    ((NOV_26, True), (NOV_26 + 12 * HOUR, True), True),     # left overnight, the clock right both times
], ids=["restart after NTP jumped from 1970", "boot an hour back, NTP before the start", "boot an hour back",
        "no network", "overnight"])
def test_a_resumed_game_is_asked_still_playing_at_once_only_when_the_clock_says_it_was_left(
        tmp_path, played, started, asked):
    """A journal's time is how long the game was left only where the network had set the clock
    when it was written and has now: the journal of a game played on a clock in 1970 or an hour
    early, taken up once the network had set it, was asked *Still playing?* at once, the
    players there a moment before, and put away two minutes later (*Nobody played Thirteen
    (Ann) for 20454 days*). Without it the question comes `idle_minutes` after the start."""
    wall, clock = WallClock(*played), Clock()
    app, push = _kiosk_after_a_throw(tmp_path, clock=clock, wall=wall, table="idle_minutes = 30\n")
    wall.t += 60
    push("DOWN")                                       # (a move a minute later: the journal written again)
    wall.t, wall.set_by_network = started
    again = _resumed(app, wall, clock)
    assert again.flow is not None and _asked(again) == asked
    clock.t += 120
    again.step()
    if asked:
        assert again.flow is None
        assert again.menu.view().message.text.startswith("Nobody played Thirteen (Ann) for 12 hours: it was put away")
    else:
        assert again.flow is not None and again.flow.log.inputs == app.flow.log.inputs
        clock.t += 30 * 60 - 130                       # (asked once left idle_minutes since the start)
        again.step()
        assert _asked(again)


class _Libc:
    """ctypes.CDLL(None) as the test says the kernel answers adjtimex."""

    def __init__(self, answer):
        self.answer = answer

    def __call__(self, name, use_errno=False):
        return self

    def adjtimex(self, buffer):
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize("answer, synced", [(0, True), (1, True), (4, True), (5, False), (-1, False),
                                            (AttributeError("no adjtimex here"), False)],
                         ids=["TIME_OK", "TIME_INS", "TIME_WAIT", "TIME_ERROR", "failed", "not Linux"])
def test_the_clock_counts_as_set_only_when_the_kernel_says_ntp_set_it(monkeypatch, answer, synced):
    from controller import wallclock

    monkeypatch.setattr(wallclock.ctypes, "CDLL", _Libc(answer))
    wallclock._adjtimex.cache_clear()
    try:
        assert wallclock.kernel_clock_synced() is synced
    finally:
        wallclock._adjtimex.cache_clear()


@pytest.mark.parametrize("pressed", [False, True], ids=["nobody there", "someone pressed"])
def test_a_game_left_overnight_is_asked_about_once_the_network_sets_the_clock(tmp_path, pressed):
    """Most mornings the table starts before the network has set the clock (fake-hwclock's time,
    that of the cut): how long last night's game was left is not known then, and it was asked
    about only idle_minutes later. Once the clock is set it is known, and the game is asked
    about at once, unless someone has played meanwhile."""
    wall, clock = WallClock(NOV_26), Clock()
    app, push = _kiosk_after_a_throw(tmp_path, clock=clock, wall=wall, table="idle_minutes = 30\n")
    wall.t, wall.set_by_network = NOV_26 + 600, False          # the cut at closing, fake-hwclock's time
    again = _resumed(app, wall, clock)
    assert not _asked(again)
    if pressed:
        again.on_button(type("P", (), {"kind": "press", "name": "HINT"})())
    clock.t += 50
    wall.t, wall.set_by_network = NOV_26 + 12 * HOUR, True     # a minute in, the network sets it
    again.step()
    assert _asked(again) != pressed
    clock.t += 120
    again.step()
    if pressed:
        assert again.flow is not None
    else:
        assert again.flow is None
        assert again.menu.view().message.text.startswith("Nobody played Thirteen (Ann) for 12 hours")


@pytest.mark.parametrize("set_by_network", [True, False])
def test_dicetable_check_says_what_the_clock_says_and_never_to_set_it(tmp_path, set_by_network):
    """A staff member reading 1970 in the names of archived games, or as the calibration's date,
    is told why by `dicetable check` (before, no line spoke of the clock), never asked to act."""
    from controller.check import OK, run_checks

    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[table]\njournal_dir = "{tmp_path}"\n[camera]\ntype = "folder"\npath = "{tmp_path}"\n'
                   '[buttons]\ntype = "keyboard"\n')
    found = {f.part: f for f in run_checks(cfg, camera=False, wall=WallClock(BOOT_1970, set_by_network))}
    said = datetime.fromtimestamp(BOOT_1970).strftime("%Y-%m-%d %H:%M")
    assert found["clock"].level == OK and found["clock"].text.startswith(said)
    assert ("not set by the network" in found["clock"].text) != set_by_network
