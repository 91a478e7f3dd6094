"""docs/install.md's commands, as staff type them: each block is valid shell, and the removal
(section 12) undoes what the install made, in an order that works. Run dry: every command that
would change the system is a shell function that writes down what it was asked."""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALL = ROOT / "docs" / "install.md"
UNIT = ROOT / "systemd" / "dicetable.service"
pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


def sections() -> dict[str, list[str]]:
    """The ```sh blocks of docs/install.md, by the heading of their section."""
    out: dict[str, list[str]] = {}
    heading = ""
    for part in re.split(r"^(## .*)$", INSTALL.read_text(encoding="utf-8"), flags=re.M):
        if part.startswith("## "):
            heading = part[3:].strip()
            continue
        out.setdefault(heading, []).extend(re.findall(r"```sh\n(.*?)```", part, re.S))
    return out


def test_every_shell_block_is_valid_shell():
    blocks = [(heading, block) for heading, found in sections().items() for block in found]
    assert len(blocks) >= 10
    for heading, block in blocks:
        done = subprocess.run(["bash", "-n"], input=block, text=True, capture_output=True, timeout=30)
        assert done.returncode == 0, f"{heading}: {done.stderr}"


def made_by_the_install() -> tuple[set[str], set[str]]:
    """(the paths the install makes, the users it makes): from sections 3 to 6 and the unit."""
    text = "\n".join(b for h, found in sections().items() if h[:2] in ("3.", "4.", "5.", "6.") for b in found)
    paths, users = set(), set()
    for line in text.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if words[:1] == ["sudo"]:
            words = words[1:]
        if words[:2] == ["mkdir", "-p"]:
            paths.update(words[2:])
        elif words[:2] == ["ln", "-sf"]:
            paths.add(words[-1])
        elif words[:1] == ["cp"] and words[-1].endswith("/"):
            paths.add(words[-1] + Path(words[-2]).name)
        elif words[:1] == ["useradd"]:
            users.add(words[-1])
    state = re.search(r"^StateDirectory=(\S+)", UNIT.read_text(encoding="utf-8"), re.M).group(1)
    paths.add(f"/var/lib/{state}")
    return paths, users


def test_the_install_makes_what_the_removal_must_remove():
    paths, users = made_by_the_install()
    assert paths == {"/opt/dicetable", "/etc/dicetable", "/usr/local/bin/dicetable",
                     "/etc/systemd/system/dicetable.service", "/var/lib/dicetable"}
    assert users == {"dicetable"}


def dry_run(block: str, tmp_path: Path) -> list[list[str]]:
    """The commands `block` would run, typed by the staff's login (sudo runs what follows)."""
    log = tmp_path / "commands"
    stubs = "".join(f'{c}() {{ printf "%s\\0" {c} "$@" >> "$DRY_LOG"; printf "\\n" >> "$DRY_LOG"; }}\n'
                    for c in ("systemctl", "cp", "chown", "rm", "gpasswd", "userdel", "apt"))
    script = f'sudo() {{ "$@"; }}\n{stubs}{block}'
    done = subprocess.run(["bash", "-c", script], text=True, capture_output=True, timeout=30,
                          env={"DRY_LOG": str(log), "USER": "staff", "HOME": "/home/staff", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return [line.split("\0")[:-1] for line in log.read_text().splitlines()]


def test_the_removal_undoes_the_install_in_an_order_that_works(tmp_path):
    [block] = sections()["12. Removing the table"]
    commands = dry_run(block, tmp_path)
    paths, users = made_by_the_install()
    removed = {path for c in commands if c[0] == "rm" for path in c[1:] if not path.startswith("-")}
    assert paths <= removed, f"left behind: {paths - removed}"
    assert {c[-1] for c in commands if c[0] == "userdel"} == users

    def first(*words: str) -> int:
        return next(i for i, c in enumerate(commands) if c[:len(words)] == list(words))

    # the table stopped and disabled before its files go; its unit gone before systemd reloads;
    # the staff's login out of the group before the user and its group are deleted; the games kept
    # before their folder is removed
    assert first("systemctl", "disable", "--now", "dicetable") < first("rm")
    assert first("rm", "/etc/systemd/system/dicetable.service") < first("systemctl", "daemon-reload")
    assert first("gpasswd", "-d", "staff", "dicetable") < first("userdel", "dicetable")
    kept = first("cp", "-r", "/var/lib/dicetable/games", "/home/staff/dicetable-games")
    assert kept < next(i for i, c in enumerate(commands) if c[0] == "rm" and "/var/lib/dicetable" in c)
