"""`dicetable check`: does the short `sudo dicetable ...` reach the table's own program?

docs/install.md, `dicetable check` and the table's own messages tell the staff to type
`sudo dicetable calibrate --camera`, `sudo dicetable check`: the short name. The program lives
in the venv (`/opt/dicetable/venv/bin/dicetable`), on nobody's PATH, and `sudo` looks only in its
own folders (Debian's secure_path), so step 4 links it into `/usr/local/bin`. A table installed
before that line was added to the docs (2026-11-26) and then updated by step 11, which never made
the link, ran fine, but every command the check advised answered `sudo: dicetable: command not
found`. Said here with the line that makes the link.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

#: where `sudo` looks for a command on Debian and Raspberry Pi OS (sudoers' secure_path), in order
SUDO_PATH = (Path("/usr/local/sbin"), Path("/usr/local/bin"), Path("/usr/sbin"), Path("/usr/bin"),
             Path("/sbin"), Path("/bin"))
#: the link step 4 makes
LINK = Path("/usr/local/bin/dicetable")


def found_by_sudo(sudo_path: Iterable[Path] = SUDO_PATH) -> Path | None:
    """The `dicetable` that `sudo dicetable` runs: the first executable one in `sudo_path`."""
    for folder in sudo_path:
        candidate = folder / "dicetable"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def check_short_command(program: str, sudo_path: Iterable[Path] = SUDO_PATH,
                        link: Path = LINK) -> list[tuple[str, str]]:
    """(level, text) findings for the service line: a warning when `sudo dicetable` finds no
    program, or another one than `program`, the one the unit starts (none: all is well)."""
    make = f"sudo ln -sf {program} {link} (docs/install.md step 4)"
    found = found_by_sudo(sudo_path)
    if found is None:
        return [("warning", f"no {link}: sudo dicetable ... (as this check and docs/install.md say it) answers "
                            f"'command not found', and only {program} ... works (a table installed before "
                            f"2026-11-26 had no such link: docs/install.md step 11). Make it: {make}")]
    if os.path.realpath(found) != os.path.realpath(program):
        return [("warning", f"sudo dicetable runs {found}, not the table's {program} (an older copy of the "
                            f"program?): the commands typed are not the table's. {make}")]
    return []
