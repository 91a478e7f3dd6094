"""The table as systemd runs it: the unit file, and a table that stops as it starts.

Each start is made through the `dicetable` command as pip installs it (pyproject's
[project.scripts]), on a fake clock: an hour of restarts takes no time.
"""
from __future__ import annotations

import importlib
import os
import shutil
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

import pytest

import controller.cli
import display.screen
from controller.service_check import unit_settings
from controller.table_user import TableUser

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "dicetable.service"
RESTART_SEC = 2.0          # the unit's RestartSec=
CRASH_S = 1.0              # how long a start takes to crash (Python and its libraries loading)


def backoff():
    """controller.start_backoff, imported by the tests that look at its record."""
    from controller import start_backoff

    return start_backoff


def installed_command():
    """The function the installed `dicetable` command calls."""
    entry = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]["dicetable"]
    module, func = entry.split(":")
    return getattr(importlib.import_module(module), func)


class FakeTime:
    """time.monotonic and time.sleep on a clock of the test's own."""

    def __init__(self) -> None:
        self.t = 5_000.0
        self.slept = 0.0

    def monotonic(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += seconds
        self.slept += seconds


class NoScreen:
    def __init__(self, *args, **kwargs) -> None:
        raise RuntimeError("kmsdrm not available")


@pytest.fixture
def service(tmp_path, monkeypatch):
    """systemd's start of `dicetable run`: its runtime folder, a fake clock, and a program that
    crashes as it starts (numpy broken by an update) unless the test says otherwise."""
    fake = FakeTime()
    monkeypatch.setattr(time, "monotonic", fake.monotonic)
    monkeypatch.setattr(time, "sleep", fake.sleep)
    runtime = tmp_path / "run"
    runtime.mkdir()
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(runtime))
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM"):
        monkeypatch.delenv(name, raising=False)

    def broken() -> None:
        raise RuntimeError("numpy.dtype size changed, may indicate binary incompatibility")

    monkeypatch.setattr(controller.cli, "load_all", broken)
    monkeypatch.setattr(display.screen, "Screen", NoScreen)
    argv = ["run", "--fullscreen", "--config", str(tmp_path / "config.toml")]

    def start() -> None:
        """One start by systemd, which crashes; then systemd's RestartSec."""
        with pytest.raises(RuntimeError, match="numpy.dtype"):
            installed_command()(argv)
        fake.t += CRASH_S + RESTART_SEC

    return fake, runtime, argv, start


# ------------------------------------------------------------------------------ the crash loop
def test_a_table_that_crashes_as_it_starts_is_restarted_ever_more_slowly(service, caplog):
    fake, _runtime, _argv, start = service
    hour_end = fake.t + 3600
    starts = 0
    while fake.t < hour_end:
        start()
        starts += 1
    # 1,200 starts an hour at systemd's pace (every 3 s); now 3 at that pace, then 10 s, 30 s,
    # 1, 2 and 5 minutes between starts: it never gives up, but costs a start every 5 minutes
    assert 12 <= starts <= 25, f"{starts} starts in an hour"
    waits = [r.getMessage() for r in caplog.records if "in a row within a minute of starting" in r.getMessage()]
    assert len(waits) == starts - 3           # (the first three go at systemd's pace)
    assert waits[0].startswith("the table stopped 3 times in a row within a minute of starting: waiting 10 s")
    assert "waiting 300 s" in waits[-1]
    assert all(r.levelname == "ERROR" for r in caplog.records if "in a row within" in r.getMessage())


def test_a_start_after_a_long_run_goes_at_once(service):
    start_backoff = backoff()
    fake, runtime, _argv, start = service
    for _ in range(6):
        start()
    fake.t += 3600                      # (then it ran an hour before crashing)
    slept = fake.slept
    start()
    assert fake.slept == slept
    assert start_backoff.load(runtime / start_backoff.RECORD).streak == 0


def test_a_clean_stop_clears_the_count(service, monkeypatch):
    start_backoff = backoff()
    fake, runtime, argv, start = service
    for _ in range(6):
        start()
    monkeypatch.setattr(controller.cli, "main", lambda args: 0)   # (it started, and staff stopped it)
    assert installed_command()(argv) == 0
    assert not (runtime / start_backoff.RECORD).exists()
    fake.t += 3
    slept = fake.slept
    monkeypatch.undo()
    monkeypatch.setattr(time, "monotonic", fake.monotonic)
    monkeypatch.setattr(time, "sleep", fake.sleep)
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(runtime))
    monkeypatch.setattr(controller.cli, "main", lambda args: 2)
    installed_command()(argv)
    assert fake.slept == slept


def test_staff_stopping_the_table_while_it_waits_starts_it_at_once_after(service, monkeypatch):
    start_backoff = backoff()
    fake, runtime, argv, start = service
    for _ in range(5):
        start()
    ran = []
    monkeypatch.setattr(controller.cli, "main", lambda args: ran.append(args) or 0)

    def sleep(seconds: float) -> None:         # `sudo systemctl restart dicetable` as it waits
        fake.t += seconds
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(time, "sleep", sleep)
    assert installed_command()(argv) == 0
    assert ran == [], "the program must not start after a stop"
    assert not (runtime / start_backoff.RECORD).exists()
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    monkeypatch.setattr(time, "sleep", fake.sleep)
    slept = fake.slept
    installed_command()(argv)                    # the restart: at once
    assert fake.slept == slept and len(ran) == 1


def test_staff_stopping_the_table_as_it_loads_clears_the_count_too(service, monkeypatch):
    """A restart by staff that comes while a start is loading (before the table's loop takes the
    signal over): a clean stop, not one more quick failure, nor a 'cannot start' screen."""
    start_backoff = backoff()
    fake, runtime, argv, start = service
    for _ in range(5):
        start()

    def loading(args):
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(100):                       # (Python runs the handler between two steps)
            pass
        raise AssertionError("the stop was not taken")

    def killed(signum, frame):                     # (what the default would do: end the program)
        raise AssertionError("SIGTERM as the table loads killed it: the count was kept")

    monkeypatch.setattr(controller.cli, "main", loading)
    before = signal.signal(signal.SIGTERM, killed)
    try:
        assert installed_command()(argv) == 0
        assert signal.getsignal(signal.SIGTERM) is killed      # (given back as it was)
    finally:
        signal.signal(signal.SIGTERM, before)
    assert not (runtime / start_backoff.RECORD).exists()


def test_run_by_hand_or_another_command_never_waits(service, monkeypatch):
    fake, _runtime, argv, start = service
    monkeypatch.delenv("RUNTIME_DIRECTORY")
    for _ in range(20):
        start()
    assert fake.slept == 0


@pytest.mark.parametrize("text", ["", "x y", "3 nan", "-4 1.0", "\xff\xfe", "1 2 3"])
def test_a_record_that_cannot_be_read_is_a_first_start(service, text):
    start_backoff = backoff()
    fake, runtime, _argv, start = service
    (runtime / start_backoff.RECORD).write_bytes(text.encode("latin-1"))
    start()
    assert fake.slept == 0
    assert start_backoff.load(runtime / start_backoff.RECORD) == start_backoff.Starts(0, 5000.0)


def test_a_runtime_folder_that_cannot_be_written_costs_the_back_off_not_the_start(service, caplog):
    fake, runtime, _argv, start = service
    runtime.rmdir()                               # (a unit copied before RuntimeDirectory=)
    for _ in range(6):
        start()
    assert fake.slept == 0
    assert "cannot note this start" in caplog.text


def test_the_watchdog_is_fed_while_the_table_waits(service, tmp_path, monkeypatch):
    start_backoff = backoff()
    import socket

    fake, runtime, _argv, start = service
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "60000000")          # WatchdogSec=60
    start_backoff.save(runtime / start_backoff.RECORD, start_backoff.Starts(20, fake.t - 3))
    start()                                                    # (waits 300 s)
    pings = []
    while True:
        try:
            pings.append(sock.recv(64).decode())
        except BlockingIOError:
            break
    sock.close()
    assert fake.slept == 300
    assert pings.count("WATCHDOG=1") >= 300 // 30


def test_the_screen_says_why_the_table_waits_and_counts_down(service, monkeypatch, tmp_path):
    start_backoff = backoff()
    fake, runtime, _argv, start = service
    monkeypatch.undo()
    monkeypatch.setattr(time, "monotonic", fake.monotonic)
    monkeypatch.setattr(time, "sleep", fake.sleep)
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(runtime))
    monkeypatch.setattr(controller.cli, "main", lambda args: 2)
    shown = []
    real_show = display.screen.Screen.show
    monkeypatch.setattr(display.screen.Screen, "show", lambda self, view: shown.append(view) or real_show(self, view))
    start_backoff.save(runtime / start_backoff.RECORD, start_backoff.Starts(2, fake.t - 3))
    installed_command()(["run", "--headless", "--config", str(tmp_path / "config.toml")])
    assert fake.slept == 10
    assert shown[0].title == "The table keeps stopping as it starts"
    assert shown[0].message.level == "error"
    assert "stopped 3 times in a row" in shown[0].message.text and "A game in progress is kept" in shown[0].message.text
    assert [v.prompt.text for v in shown] == [f"Next try in {n} s" for n in range(10, 0, -1)]


def test_an_import_that_fails_is_logged_as_an_error_in_the_journal(tmp_path):
    """numpy broken by an update: the command stops as it imports the program. Its traceback must
    reach `journalctl -p warning` (docs/install.md section 10: `crashed: ...`), not be filed as info."""
    entry = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]["dicetable"]
    module, func = entry.split(":")
    code = (f"import sys, importlib; sys.modules['numpy'] = None; "
            f"sys.exit(getattr(importlib.import_module({module!r}), {func!r})(['games']))")
    journal = tmp_path / "journal"
    with journal.open("w") as stream:
        st = os.fstat(stream.fileno())
        env = {k: v for k, v in os.environ.items() if k != "RUNTIME_DIRECTORY"}
        env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, stderr=stream, timeout=120)
    assert done.returncode != 0
    lines = [line for line in journal.read_text().splitlines() if line.strip()]
    assert lines and all(line.startswith("<2>") for line in lines), lines[:3]
    assert any("crashed: ModuleNotFoundError" in line for line in lines)


# ---------------------------------------------------------------------------- the unit file
def unit_directives(text: str) -> list[tuple[int, str, str, str]]:
    """(line, section, name, value) of every setting of a unit file."""
    out, section = [], ""
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        name, eq, value = line.partition("=")
        assert eq, f"line {number}: {line!r} is not name=value"
        out.append((number, section, name.strip(), value.strip()))
    return out


# what systemd 252 (Raspberry Pi OS Bookworm) knows, of what the unit uses or might: RestartSteps=
# and RestartMaxDelaySec= came with systemd 254 and are ignored by 252 with a warning
KNOWN_252 = {
    "Unit": {"Description", "Documentation", "After", "Before", "Wants", "Requires", "Conflicts",
             "StartLimitIntervalSec", "StartLimitBurst", "StartLimitAction", "ConditionPathExists"},
    "Service": {"Type", "User", "Group", "SupplementaryGroups", "ExecStart", "ExecStartPre", "StateDirectory",
                "StateDirectoryMode", "WorkingDirectory", "RuntimeDirectory", "RuntimeDirectoryMode",
                "RuntimeDirectoryPreserve", "Environment", "Restart", "RestartSec", "WatchdogSec", "NotifyAccess",
                "StandardOutput", "StandardError", "StandardInput", "SyslogIdentifier", "NoNewPrivileges",
                "ProtectSystem", "ProtectHome", "PrivateTmp", "TimeoutStartSec", "TimeoutStopSec", "KillMode"},
    "Install": {"WantedBy"},
}


def test_every_directive_of_the_unit_is_one_systemd_252_knows():
    found = unit_directives(UNIT.read_text(encoding="utf-8"))
    for number, section, name, value in found:
        assert name in KNOWN_252.get(section, set()), f"line {number}: [{section}] {name}= unknown to systemd 252"
        assert value, f"line {number}: {name}= is empty"
    settings = {name: value for _n, _s, name, value in found}
    assert settings["RuntimeDirectoryPreserve"] == "restart"     # (the back-off's count survives a restart)
    assert float(settings["RestartSec"]) == RESTART_SEC
    assert settings["StartLimitIntervalSec"] == "0"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verify_finds_nothing_to_say(tmp_path):
    """`systemd-analyze verify` (systemd 252 here, as on Bookworm) warns of an unknown directive, a
    value it cannot parse, a missing dependency. The ExecStart program is the venv's, not here:
    the copy runs /bin/true instead, the rest unchanged."""
    text = UNIT.read_text(encoding="utf-8").replace("ExecStart=/opt/dicetable/venv/bin/dicetable",
                                                    "ExecStart=/bin/true")
    (tmp_path / "dicetable.service").write_text(text, encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "dicetable.service")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


# ------------------------------------------------------- dicetable check: what install mistakes leave
TABLE = TableUser("dicetable", 4242, frozenset({4343}))
GROUPS = {"video": 44, "render": 105, "gpio": 997, "dialout": 20, "input": 101}


def _check(tmp_path, *, unit_text: str | None = None, user=TABLE, groups=GROUPS, shipped=(UNIT,), dev=None,
           sudo_path=None):
    """`dicetable check`'s service lines, for a unit installed with `unit_text` (None: none).
    `sudo_path`: the folders `sudo dicetable` looks in (None: one where step 4 linked the unit's
    program, as installed today)."""
    from controller.check import run_checks

    if sudo_path is None:
        linked = tmp_path / "usr-local-bin"
        linked.mkdir(exist_ok=True)
        program = shlex.split(unit_settings(unit_text or "").get("ExecStart", [sys.executable])[-1])[0]
        (linked / "dicetable").unlink(missing_ok=True)
        (linked / "dicetable").symlink_to(program)
        sudo_path = (linked,)

    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[table]\njournal_dir = "{tmp_path / "games"}"\n\n[buttons]\ntype = "keyboard"\n')
    unit = tmp_path / "etc-dicetable.service"
    if unit_text is not None:
        unit.write_text(unit_text, encoding="utf-8")
    service = {"unit": unit, "shipped": shipped, "dev": dev or tmp_path / "no-dev",
               "user_named": lambda name: user if name == "dicetable" else None,
               "group_id": groups.get, "sudo_path": sudo_path}
    found = run_checks(cfg, camera=False, table_user=None, service=service, buttons={"wait_s": 0.1})
    return [(f.level, f.text) for f in found if f.part == "service"]


def _unit(program: str = sys.executable) -> str:
    """The shipped unit, installed with its program at `program` (the venv is not here)."""
    return UNIT.read_text(encoding="utf-8").replace("/opt/dicetable/venv/bin/dicetable", program)


def test_an_installed_table_is_ready_for_the_service(tmp_path):
    shipped = tmp_path / "shipped.service"
    shipped.write_text(_unit(), encoding="utf-8")
    assert _check(tmp_path, unit_text=_unit(), shipped=(shipped,)) == [
        ("ok", f"{tmp_path / 'etc-dicetable.service'} runs the table as dicetable "
               "(groups video render gpio dialout input)")]


def test_step_3_skipped_no_user_is_a_problem(tmp_path):
    """useradd not run (or failed on its long line): systemd fails with 217/USER every 2 s,
    before the program; the check said ready."""
    [(level, text)] = [f for f in _check(tmp_path, unit_text=_unit(), user=None, shipped=()) if f[0] != "ok"]
    assert level == "PROBLEM" and "217/USER" in text and "step 3" in text


def test_a_group_missing_on_the_system_is_a_problem(tmp_path):
    groups = {k: v for k, v in GROUPS.items() if k != "gpio"}
    found = _check(tmp_path, unit_text=_unit(), groups=groups, shipped=())
    unit = tmp_path / "etc-dicetable.service"
    assert found == [("PROBLEM", f"the group(s) gpio named in SupplementaryGroups= of {unit} "
                                 "do not exist on this system: systemd cannot start the table (status 216/GROUP). "
                                 "Raspberry Pi OS has them (docs/install.md step 1)")]


def test_the_venv_not_where_the_unit_looks_is_a_problem(tmp_path):
    found = _check(tmp_path, unit_text=_unit(str(tmp_path / "venv" / "bin" / "dicetable")), shipped=())
    assert len(found) == 1 and found[0][0] == "PROBLEM" and "203/EXEC" in found[0][1] and "step 4" in found[0][1]


def test_a_unit_not_copied_again_after_an_update_is_a_warning(tmp_path):
    old = _unit().replace("RuntimeDirectoryPreserve=restart\n", "")
    shipped = tmp_path / "shipped.service"
    shipped.write_text(_unit(), encoding="utf-8")
    [(level, text)] = _check(tmp_path, unit_text=old, shipped=(shipped,))
    assert level == "warning" and "step 11" in text and f"sudo cp {shipped}" in text


def test_a_device_the_services_groups_may_not_use_is_a_problem(tmp_path):
    """/dev/gpiochip0 of a group the unit does not give the table (here: the test's own)."""
    dev = tmp_path / "dev"
    (dev / "dri").mkdir(parents=True)
    chip, card = dev / "gpiochip0", dev / "dri" / "card1"
    chip.write_text("")
    card.write_text("")
    os.chmod(chip, 0o660)
    os.chmod(card, 0o666)                      # (anyone may: fine)
    found = _check(tmp_path, unit_text=_unit(), shipped=(), dev=dev)
    assert len(found) == 1 and found[0][0] == "PROBLEM", found
    assert f"may not use {chip}" in found[0][1] and "mode 0660" in found[0][1]


def test_no_unit_and_no_user_is_a_development_machine(tmp_path):
    assert _check(tmp_path, user=None)[0][0] == "ok"
    [(level, text)] = _check(tmp_path)                 # the user made, the unit never copied
    assert level == "warning" and "does not start by itself" in text and "step 6" in text


def test_a_games_folder_left_by_a_table_run_with_sudo_is_a_problem(request, monkeypatch):
    """`sudo dicetable run` on /var/lib/dicetable made games/ root's: the service could journal
    but not put a finished game away ('could not be put away', back at every start), and systemd
    gives back only the folder itself, never what is inside. The check said ok."""
    from controller import check

    monkeypatch.setattr(check, "sandbox_problem", lambda folder: None)     # (tmp_path is in /tmp)
    outer = Path(tempfile.mkdtemp(prefix="dicetable-service-"))    # (pytest's tmp_path: its owner's alone)
    request.addfinalizer(lambda: shutil.rmtree(outer))
    os.chmod(outer, 0o755)
    folder = outer / "var-lib-dicetable"
    (folder / "games").mkdir(parents=True)
    os.chmod(folder, 0o777)                    # the table's (here: anyone's) ...
    os.chmod(folder / "games", 0o755)          # ... with games/ another's, as root's run left it
    [found] = check.check_journal(folder, TABLE)
    assert found.level == "PROBLEM", found
    assert f"cannot write {folder / 'games'}" in found.text
    assert f"sudo chown -R dicetable:dicetable {folder}" in found.text
    os.chmod(folder / "games", 0o777)
    assert check.check_journal(folder, TABLE)[0].level == "ok"


def test_a_table_run_with_sudo_on_the_services_folder_is_refused_before_it_makes_anything(tmp_path, monkeypatch,
                                                                                         capsys):
    """`sudo dicetable run` with the table stopped: root's table made games/ root's at the first
    game it put away, and the service never put a game away again. Refused, with what to do."""
    import argparse

    import controller.table_user as table_user
    from controller.table_app import TableApp
    from controller.table_cli import run_table

    folder = tmp_path / "var-lib-dicetable"
    folder.mkdir()
    if os.geteuid() == 0:
        os.chown(folder, 4242, 4343)
    owner = folder.stat().st_uid
    monkeypatch.setattr(os, "geteuid", lambda: 0)                              # sudo
    monkeypatch.setattr(table_user, "table_user", lambda name="dicetable": TableUser("dicetable", owner,
                                                                                     frozenset({4343})))
    frames = tmp_path / "frames"
    frames.mkdir()
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[table]\njournal_dir = "{folder}"\n\n[camera]\ntype = "folder"\npath = "{frames}"\n\n'
                   '[buttons]\ntype = "keyboard"\n')
    args = argparse.Namespace(config=str(cfg), fullscreen=False, headless=True)
    try:
        app = TableApp.from_args(args)
    except Exception as exc:  # noqa: BLE001
        assert "sudo systemctl start dicetable" in str(exc) and "sudo -u dicetable dicetable run" in str(exc)
    else:
        app.screen.close()
        app.buttons.stop()
        pytest.fail("a table run as root on the table user's folder started")
    assert run_table(args) == 2
    assert f"dicetable run: {folder} is the table's user dicetable's" in capsys.readouterr().err
    assert list(folder.iterdir()) == []
