"""A key under [buttons] itself that the table does not know, when its panels are [[buttons.sources]].

`dicetable check` told staff whose box was not found to "set [buttons.serial] port to what ls
/dev/serial/by-id/ shows". The example config has no such section: the box's port is in its own
[[buttons.sources]]. A staff member who did as told added
    [buttons.serial]
    port = "/dev/serial/by-id/usb-..."
and the table no longer started ("The table cannot start: [buttons] unknown key(s) ['serial']"
on its screen, systemd starting it again and again), while `dicetable check` printed no buttons
line at all and ended with "ready". docs/install.md says a mistake in the file is left out, never
stops the table.
"""
from __future__ import annotations

import argparse
import errno
from pathlib import Path

from controller.check import FAIL, OK, run_checks
from controller.table_app import TableApp
from hardware.device_words import serial_words

EXAMPLE = Path(__file__).parents[1] / "systemd" / "config.example.toml"
AS_TOLD = '\n[buttons.serial]\nport = "/dev/serial/by-id/usb-Acme_box-if00"\n'


def config_as_told(tmp_path: Path) -> Path:
    """A café's config: keyboard and box panels, the [buttons.serial] the check's words asked for."""
    (tmp_path / "cam").mkdir()
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[table]\njournal_dir = "{tmp_path / "games"}"\n\n'
                   f'[camera]\ntype = "folder"\npath = "{tmp_path / "cam"}"\n\n'
                   '[buttons]\ntype = "multi"\n\n'
                   '[[buttons.sources]]\ntype = "keyboard"\nname = "spare"\n\n'
                   '[[buttons.sources]]\ntype = "serial"\nname = "box"\nport = "/dev/null-no-box"\n'
                   + AS_TOLD)
    return cfg


def test_the_table_starts_with_its_panels_and_names_the_key_left_out(tmp_path):
    app = TableApp.from_args(argparse.Namespace(config=str(config_as_told(tmp_path)), fullscreen=False,
                                                headless=True))
    try:
        assert [p.name for p in app.buttons.sources] == ["spare", "box"]
        message = app.menu.view().message
        assert message.level == "error" and "[buttons] unknown key(s) ['serial']" in message.text
    finally:
        app.buttons.stop()
        app.frames.close()


def test_the_check_names_the_key_and_checks_the_panels(tmp_path):
    found = [(f.level, f.text) for f in run_checks(config_as_told(tmp_path), camera=False,
                                                   buttons={"wait_s": 0.1}) if f.part == "buttons"]
    assert found[0][0] == FAIL and found[0][1].startswith("[buttons] unknown key(s) ['serial']")
    assert "[[buttons.sources]]" in found[0][1]
    assert any(level == OK and text.startswith("spare ready") for level, text in found[1:])
    assert any(text.startswith("box:") for _, text in found[1:])


def test_the_box_not_found_names_the_section_the_example_has():
    said = serial_words(FileNotFoundError(errno.ENOENT, "No such file or directory"), "/dev/serial/by-id/x")
    assert "[buttons.serial]" not in said
    assert '[[buttons.sources]] (type = "serial")' in said
    example = EXAMPLE.read_text(encoding="utf-8")
    assert '[[buttons.sources]]\ntype = "serial"' in example and "[buttons.serial]" not in example
