"""`dicetable check`'s service line: would systemd start the table, with the devices it needs?

Install mistakes that stop the service before the program runs were invisible to the check,
which said *ready*: step 3 skipped or failed (no user `dicetable`: systemd fails with
217/USER), a group of the unit's `SupplementaryGroups=` missing on the system (216/GROUP), the
venv not made where `ExecStart=` looks (203/EXEC). systemd then retries every two seconds for
ever, before any line of the table's own, so its crash back-off cannot help. A device the
service's user and groups may not open (a gpiochip, the screen's DRM card, the camera, the
button box) leaves that part dead while everything else works. An update whose unit was not
copied again (step 11) runs with the old one. Each is said with what to do.
"""
from __future__ import annotations

import grp
import os
import shlex
from pathlib import Path
from typing import Callable, Iterable

from .short_command import SUDO_PATH, check_short_command
from .table_user import TableUser, describe_owner, may, table_user

INSTALLED_UNIT = Path("/etc/systemd/system/dicetable.service")
SHIPPED_UNITS = (Path(__file__).resolve().parents[1] / "systemd" / "dicetable.service",
                 Path("/opt/dicetable/src/systemd/dicetable.service"))
# the devices the table opens, under /dev: the GPIO pins, the screen, the camera, a button box, a keyboard
DEVICES = ("gpiochip*", "dri/card*", "dri/renderD*", "video*", "ttyUSB*", "ttyACM*", "input/event*")


def unit_settings(text: str) -> dict[str, list[str]]:
    """Every `Name=value` of a unit file, by name, in order (comments and sections left out)."""
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;[":
            continue
        name, eq, value = line.partition("=")
        if eq:
            out.setdefault(name.strip(), []).append(value.strip())
    return out


def _group_id(name: str) -> int | None:
    try:
        return grp.getgrnam(name).gr_gid
    except KeyError:
        return None


def check_service(unit: Path = INSTALLED_UNIT, shipped: Iterable[Path] = SHIPPED_UNITS, dev: Path = Path("/dev"),
                  *, user_named: Callable[[str], TableUser | None] = table_user,
                  group_id: Callable[[str], int | None] = _group_id,
                  sudo_path: Iterable[Path] = SUDO_PATH) -> list[tuple[str, str]]:
    """(level, text) findings: level "ok", "warning" or "PROBLEM" (controller.check's). `sudo_path`:
    where `sudo dicetable` looks for the program (controller.short_command)."""
    shipped_unit = next((p for p in shipped if p.is_file()), None)
    copy = f"sudo cp {shipped_unit or '/opt/dicetable/src/systemd/dicetable.service'} {unit}"
    try:
        text = unit.read_text(encoding="utf-8")
    except FileNotFoundError:
        if user_named("dicetable") is None:     # (a development machine: no service meant here)
            return [("ok", f"not installed as a service here ({unit}: docs/install.md steps 3 and 6)")]
        return [("warning", f"{unit} is missing: the table does not start by itself at power-on. "
                            f"{copy} && sudo systemctl daemon-reload && sudo systemctl enable --now dicetable "
                            "(docs/install.md step 6)")]
    except (OSError, UnicodeDecodeError) as exc:
        return [("PROBLEM", f"cannot read {unit} ({exc}): reinstall it: {copy}")]
    settings = unit_settings(text)
    found: list[tuple[str, str]] = []
    name = (settings.get("User") or ["root"])[-1]
    user = user_named(name)
    if user is None:
        found.append(("PROBLEM", f"{unit} runs the table as the user {name}, which does not exist: systemd cannot "
                                 "start it (status 217/USER in systemctl status dicetable) and tries again every "
                                 "2 s. Make the user: the useradd line of docs/install.md step 3"))
    groups = [g for line in settings.get("SupplementaryGroups", []) for g in line.split()]
    missing = [g for g in groups if group_id(g) is None]
    if missing:
        found.append(("PROBLEM", f"the group(s) {' '.join(missing)} named in SupplementaryGroups= of {unit} do not "
                                 "exist on this system: systemd cannot start the table (status 216/GROUP). "
                                 "Raspberry Pi OS has them (docs/install.md step 1)"))
    program = shlex.split((settings.get("ExecStart") or [""])[-1])[:1]
    if program and not os.access(program[0].lstrip("-@:+!"), os.X_OK):
        found.append(("PROBLEM", f"{program[0]}, the program {unit} starts, is not there: systemd cannot start "
                                 "the table (status 203/EXEC). Make the venv and install the program: "
                                 "docs/install.md step 4"))
    elif program:
        found += check_short_command(program[0].lstrip("-@:+!"), sudo_path)
    if user is not None:
        service = TableUser(user.name, user.uid,
                            user.gids | {gid for g in groups if (gid := group_id(g)) is not None})
        found += _devices(dev, service, groups)
    if shipped_unit is not None:
        try:
            differs = unit_settings(shipped_unit.read_text(encoding="utf-8")) != settings
        except (OSError, UnicodeDecodeError):
            differs = False
        if differs:
            found.append(("warning", f"{unit} is not the program's {shipped_unit} (an update whose unit was not "
                                     f"copied again?): {copy} && sudo systemctl daemon-reload && sudo systemctl "
                                     "restart dicetable (docs/install.md step 11)"))
    if not found:
        found.append(("ok", f"{unit} runs the table as {name}"
                            + (f" (groups {' '.join(groups)})" if groups else "")))
    return found


def _devices(dev: Path, service: TableUser, groups: list[str]) -> list[tuple[str, str]]:
    """The devices present that the service (its user, with its groups and the unit's) may not
    read and write."""
    found = []
    for pattern in DEVICES:
        for path in sorted(dev.glob(pattern)):
            try:
                st = path.stat()
            except OSError:
                continue
            if may(st, service, 6):
                continue
            try:
                group = grp.getgrgid(st.st_gid).gr_name
            except KeyError:
                group = str(st.st_gid)
            fix = (f"add {group} to SupplementaryGroups= in the unit (it has {' '.join(groups) or 'none'}), then "
                   "sudo systemctl daemon-reload && sudo systemctl restart dicetable" if st.st_gid != 0 else
                   "no group may use it (not Raspberry Pi OS's device rules?)")
            found.append(("PROBLEM", f"the table's user {service.name} may not use {path} "
                                     f"({describe_owner(st)}): {fix}"))
    return found
