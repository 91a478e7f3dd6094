"""A camera knocked since calibration, told once (controller/knock_notice.py, knock_report.py).

The table reads the tray where it now is and tells the staff to calibrate again. It told them at
every settled reading: a game of Thirteen played with the camera knocked 10 px logged the warning
38 times in 39 throws, and a sagging arm each time its words changed by a pixel, burying what else
`journalctl -p warning` holds; the players had the staff's banner over their game at every throw.
Now: once a knock, again when the camera moved further (4 px or more), a line when the tray is
back where it was calibrated, and `dicetable check` names the knock from the log.

Driven through the real table app (TableApp) on frames rendered with `vision.synthetic` and
knocked with `vision.knock_bench.shifted`, the calibration made as `dicetable calibrate` makes it."""
from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from controller.config import load_config
from controller.setup_menu import SetupResult
from controller.table import WAIT_DICE
from controller.table_app import TableApp
from display.screen import Screen
from table_helpers import Clock
from test_table_e2e import FakeButtons
from controller.calibrate import save_calibration
from vision.calibrate import Calibration, calibrate
from vision.knock_bench import shifted
from vision.reader import read
from vision.synthetic import STYLES, render_tray

STYLE = dataclasses.replace(STYLES["green"], border_px=50)
KNOCK = "the tray is not where it was calibrated"


@functools.cache
def calibrated_tray() -> Calibration:
    """The green tray with 50 px of table round it, calibrated from two empty frames and two
    throws: the knocked, raised and kept-notice tests' (made once for all of them)."""
    empty = [render_tray([], seed=i, style=STYLE, die_px=50).image for i in range(2)]
    throws = [render_tray([1, 2, 3, 4, 5], seed=50 + i, style=STYLE, die_px=50).image for i in range(2)]
    return calibrate(empty, throws, reader=read)


@pytest.fixture(scope="module")
def calibration():
    return calibrated_tray()


class Camera:
    """The table's camera: the frame it sees now, one a tenth of a second."""

    def __init__(self) -> None:
        self.n, self.error = 0, None
        self.image = render_tray([], seed=0, style=STYLE, die_px=50).image

    def read(self):
        self.n += 1
        return type("F", (), {"image": self.image, "timestamp": self.n * 0.1})()

    def close(self) -> None:
        pass


class Table:
    """The kiosk's app on a calibrated config in `folder`, Thirteen for Ann, its camera knocked
    by `dx` px as each throw is made (`throw(dx)`)."""

    def __init__(self, folder: Path, calibration, new: bool = True, size: tuple[int, int] = (800, 480)) -> None:
        cfg = folder / "config.toml"
        if not cfg.exists():
            cfg.write_text(f'[table]\njournal_dir = "{folder}"\n', encoding="utf-8")
            save_calibration(calibration, cfg)
        self.camera, self.clock, self.banners = Camera(), Clock(), []
        self.app = TableApp(load_config(cfg), Screen(size, headless=True), self.camera, FakeButtons(),
                            clock=self.clock)
        if new:
            self.app.menu.done = SetupResult("thirteen", ("Ann",), {})
            self.app.start_new()
        self.throws = 0

    def steps(self, n: int) -> None:
        for _ in range(n):
            self.clock.t += 0.1
            self.app.step()
            shown = self.app.flow.view().message
            self.banners.append(shown.text if shown else "")

    def throw(self, dx: int) -> None:
        """The dice picked up and thrown, seen by the camera knocked by `dx` px, and the throw
        taken with OK (OK again: the first box or the first choice of the menu)."""
        self.throw_seen(lambda image: shifted(image, dx, 0))

    def throw_seen(self, seen: Callable[[np.ndarray], np.ndarray], die_px: float = 50,
                   thrown_px: float | None = None) -> None:
        """A throw as the camera `seen` sees the rendered tray: empty (dice of `die_px`), then the
        dice thrown (of `thrown_px`, `die_px` when None), and taken with OK as `throw` says."""
        values = [int(v) for v in np.random.default_rng(self.throws).integers(1, 7, 5)]
        self.camera.image = seen(render_tray([], seed=self.throws % 2, style=STYLE, die_px=die_px).image)
        self.steps(10)
        self.camera.image = seen(render_tray(values, seed=300 + self.throws, style=STYLE,
                                             die_px=thrown_px or die_px).image)
        self.steps(40)
        self.throws += 1
        for _ in range(4):
            if self.app.flow.phase == WAIT_DICE:
                break
            self.app.on_button(type("P", (), {"kind": "press", "name": "OK"})())
            self.steps(3)


def warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def calibration_warnings(config: Path, log: list[str]) -> list[str]:
    """The warnings `dicetable check` gives on the calibration line, reading `log` as the
    service's log (what the table told while it held the camera)."""
    from controller.check import run_checks

    return [f.text for f in run_checks(config, camera=False, table_user=None, service_log=lambda: log)
            if f.part == "calibration" and f.level == "warning"]


def knocks(caplog) -> list[str]:
    return [m for m in warnings(caplog) if KNOCK in m]


def test_a_game_with_the_camera_knocked_10_px_tells_the_staff_once(tmp_path, calibration, caplog):
    """Eight throws with the camera knocked 10 px right: the warning was logged at each of them
    (8), and shown on the banner at each; now once, and the game was played throw after throw."""
    table = Table(tmp_path, calibration)
    with caplog.at_level(logging.INFO):
        for _ in range(8):
            table.throw(10)
    assert len(table.app.flow.log.inputs) >= 12, table.app.flow.log.inputs     # 8 throws read, boxes chosen
    told = knocks(caplog)
    assert len(told) == 1 and "(moved 10 px right)" in told[0], told
    assert sum(KNOCK in b for b in table.banners) < 40, "the staff's banner stayed over the game"


def test_a_sagging_arm_is_told_again_only_as_it_moves_4_px_further(tmp_path, calibration, caplog):
    """The arm sags a pixel more every throw, 0 to 13 px: the warning came at every throw from
    4 px (10 lines, a pixel apart); now at 4, 8 and 12 px or so: each time it moved further."""
    table = Table(tmp_path, calibration)
    with caplog.at_level(logging.INFO):
        for dx in range(14):
            table.throw(dx)
    told = knocks(caplog)
    assert 2 <= len(told) <= 4, told
    px = [int(m.split("(moved ")[1].split(" px")[0]) for m in told]
    assert all(b - a >= 4 for a, b in zip(px, px[1:])), told


def test_a_camera_put_back_is_a_line_and_a_new_knock_is_told_again(tmp_path, calibration, caplog):
    """Knocked 10 px for three throws, put back for three, knocked 10 px left: told, the tray said
    back where it was calibrated (before: nothing), told again."""
    table = Table(tmp_path, calibration)
    with caplog.at_level(logging.INFO):
        for dx in (10, 10, 10, 0, 0, 0, -10, -10):
            table.throw(dx)
    said = [r.getMessage() for r in caplog.records]
    told = knocks(caplog)
    assert len(told) == 2 and "(moved 10 px right)" in told[0] and "(moved 10 px left)" in told[1], told
    back = [i for i, m in enumerate(said) if "back where it was calibrated" in m]
    assert len(back) == 1 and said.index(told[0]) < back[0] < said.index(told[1]), said


def test_dicetable_check_names_the_knock_the_table_logged(tmp_path, calibration, caplog):
    """While the table runs the camera is its own: `dicetable check` said nothing of a knock the
    table had told all evening. It now reads it from the log; a restart on the same calibration
    keeps it, a new calibration (the table started with another) clears it."""
    with caplog.at_level(logging.INFO):
        table = Table(tmp_path, calibration)
        for _ in range(3):
            table.throw(10)
    lines = [r.getMessage() for r in caplog.records]

    def calibration_lines(log: list[str]) -> list[str]:
        return calibration_warnings(tmp_path / "config.toml", log)

    assert calibration_lines(lines) == ["camera knocked since calibration: moved 10 px right; run dicetable "
                                        "calibrate"]
    started = [m for m in lines if m.startswith("camera: calibration in use")]
    assert len(started) == 1
    assert calibration_lines(lines + started) != []                              # restarted, not calibrated
    recalibrate(calibration, tmp_path / "config.toml")       # (the table keeps what it told: told_kept.py)
    recalibrated = started[0].replace("dice ", "dice 1")
    assert calibration_lines(lines + [recalibrated]) == []


def recalibrate(calibration, config: Path) -> None:
    """`dicetable calibrate` saves a new calibration in `config` (another die size measured)."""
    save_calibration(dataclasses.replace(calibration, die_px=calibration.die_px + 1), config)


def test_a_knock_while_a_game_is_resumed_after_a_power_cut(tmp_path, calibration, caplog):
    """The power went with the camera knocked 10 px (the arm knocked as the plug was pulled): the
    game resumes where it was, the knock is told once, and the throws go on being read."""
    table = Table(tmp_path, calibration)
    table.throw(0)
    table.throw(0)
    played = len(table.app.flow.log.inputs)
    state = table.app.flow.state.snapshot()
    with caplog.at_level(logging.INFO):
        again = Table(tmp_path, calibration, new=False)           # the power back: resumed from the journal
        assert again.app.flow.state.snapshot() == state and len(again.app.flow.log.inputs) == played
        for _ in range(4):
            again.throw(10)
    assert len(again.app.flow.log.inputs) > played
    told = knocks(caplog)
    assert len(told) == 1 and "(moved 10 px right)" in told[0], told


def test_at_320x240_the_banner_says_what_to_do_on_the_page_shown(tmp_path, calibration):
    """The small screen's banner holds the notice in two pages; the throw's own message came
    before the second, so the staff read "... where it was calibrated (moved 10 px" and never
    what to do. Now the first page names the knock and says to calibrate again."""
    table = Table(tmp_path, calibration, size=(320, 240))
    table.throw(10)
    shown = [b for b in table.banners if "For the staff" in b]
    assert shown and all("10 px right" in b and "calibrate again" in b for b in shown), sorted(set(shown))


def test_a_knock_seen_with_dice_of_another_size_is_told_too(caplog):
    """The reader names the dice bigger than calibrated before the knock; the table told the
    staff only the first of its notices: the knock was never logged."""
    from test_table_flow import make, reading

    from vision.types import CAMERA_MOVED, DIE_SIZE, Problem

    flow, clock = make()
    with caplog.at_level(logging.INFO):
        flow.on_reading(reading([6, 6, 2, 3, 5], problems=[
            Problem(DIE_SIZE, "the dice are bigger than the ones calibrated (81 px, calibrated 55 px): run "
                              "dicetable calibrate again with the dice played"),
            Problem(CAMERA_MOVED, f"{KNOCK} (moved 10 px right): run dicetable calibrate again")]))
    told = warnings(caplog)
    assert any("(moved 10 px right)" in m for m in told) and any("bigger" in m for m in told), told
