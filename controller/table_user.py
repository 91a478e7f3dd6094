"""What the table's own user may do with a path, whoever asks.

The kiosk runs as the system user `dicetable` under systemd (systemd/dicetable.service), but
`dicetable check` is run by staff: with `sudo` (root, who may write anywhere) or from their own
login (in the `dicetable` group, which may read the games but not write them). A check that
tried the caller's own rights said *ready* to root for a folder the table cannot write, and
*PROBLEM* to the staff for the folder the table writes every day. These helpers answer for the
table's user instead, from the files' owners and modes and from the unit's sandbox.
"""
from __future__ import annotations

import grp
import os
import pwd
import stat
from dataclasses import dataclass
from pathlib import Path

TABLE_USER = "dicetable"          # User= in systemd/dicetable.service, docs/install.md step 3
STATE_DIR = Path("/var/lib/dicetable")   # StateDirectory=dicetable: systemd makes it, the user's own

# dicetable.service's sandbox: ProtectHome=yes hides these, ProtectSystem=full makes these
# read-only, PrivateTmp=yes gives the table its own /tmp, emptied whenever it stops
HIDDEN = (Path("/home"), Path("/root"), Path("/run/user"))
READ_ONLY = (Path("/usr"), Path("/boot"), Path("/efi"), Path("/etc"))
PRIVATE_TMP = (Path("/tmp"), Path("/var/tmp"))


@dataclass(frozen=True)
class TableUser:
    name: str
    uid: int
    gids: frozenset[int]       # its primary group and every group it is a member of


def table_user(name: str = TABLE_USER) -> TableUser | None:
    """The table's user on this machine; None where it was never made (a development machine)."""
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        return None
    gids = {entry.pw_gid} | {g.gr_gid for g in grp.getgrall() if name in g.gr_mem}
    return TableUser(name, entry.pw_uid, frozenset(gids))


def may(st: os.stat_result, user: TableUser, bits: int) -> bool:
    """Would `user` have the permission `bits` (a combination of 4 read, 2 write, 1 search)?"""
    if user.uid == 0:
        return True
    if st.st_uid == user.uid:
        granted = (st.st_mode >> 6) & 7
    elif st.st_gid in user.gids:
        granted = (st.st_mode >> 3) & 7
    else:
        granted = st.st_mode & 7
    return granted & bits == bits


def reachable(path: Path, user: TableUser) -> Path | None:
    """The first folder above `path` that `user` may not go through (search), or None."""
    for folder in reversed(path.parents):
        try:
            if not may(folder.stat(), user, 1):
                return folder
        except OSError:
            return None
    return None


def denied(path: Path, user: TableUser, bits: int) -> Path | None:
    """Where `user` is stopped from `bits` on `path`: a folder above it it may not go through,
    or `path` itself; None where it may."""
    blocked = reachable(path, user)
    if blocked is not None:
        return blocked
    return None if may(path.stat(), user, bits) else path


def sandbox_problem(folder: Path) -> str | None:
    """Why the table, inside its systemd sandbox, could not keep games in `folder`, or None."""
    folder = Path(os.path.abspath(folder))

    def under(roots: tuple[Path, ...]) -> Path | None:
        return next((r for r in roots if folder == r or r in folder.parents), None)

    if (root := under(HIDDEN)) is not None:
        return f"the table's service cannot see {root} (ProtectHome in dicetable.service)"
    if (root := under(READ_ONLY)) is not None:
        return f"the table's service sees {root} read-only (ProtectSystem in dicetable.service)"
    if (root := under(PRIVATE_TMP)) is not None:
        return f"the table's service has its own {root}, emptied whenever the table stops (PrivateTmp)"
    return None


def describe_owner(st: os.stat_result) -> str:
    """`owner root:root, mode 0755`, for a message."""
    def name(getter, ident: int) -> str:
        try:
            return getter(ident)[0]
        except KeyError:
            return str(ident)

    return (f"owner {name(pwd.getpwuid, st.st_uid)}:{name(grp.getgrgid, st.st_gid)}, "
            f"mode {stat.S_IMODE(st.st_mode):04o}")


# what the table must be able to change inside its games folder (controller/table_app.py): games/,
# where each finished game is moved (a folder it cannot write: every game ends 'could not be put
# away' and comes back at the next start), and the journal's copy being written beside it (one
# it cannot write: no game can be saved). systemd gives the folder back to the table's user at
# start only when the folder itself is another's (StateDirectory=), never what is inside it: a
# table once run with sudo on /var/lib/dicetable leaves root's games/ there for good.
# current.jsonl, the game on the table, must be read at the next start: one root's and 0600 (a
# sudo run with a umask of 077) is a game kept aside as unreadable, lost to the players.
INSIDE = (("games", 3), ("current.jsonl.tmp", 2), ("current.jsonl", 4))
#: os.access's bits for INSIDE's (4 read, 2 write, 1 search)
ACCESS_BITS = {4: os.R_OK, 2: os.W_OK, 1: os.X_OK}


def blocked_inside(folder: Path, user: TableUser | None) -> list[Path]:
    """What in `folder` the table's user needs to change and may not. `user` None: the one
    asking is the table's user (the service's own account, or a table run from a login where no
    `dicetable` user was made): asked of the kernel (os.access) for this process. Before, that
    one was never asked: `check` run as the table's user wrote a file in the folder and said
    *games are saved*, over a games/ left root's by a sudo run."""
    out = []
    for name, bits in INSIDE:
        path = folder / name
        try:
            st = path.stat()
        except OSError:          # (not there: made by the table when it needs it)
            continue
        if user is not None:
            allowed = may(st, user, bits)
        else:
            allowed = os.access(path, sum(flag for bit, flag in ACCESS_BITS.items() if bits & bit))
        if not allowed:
            out.append(path)
    return out


class RootInTablesFolder(Exception):
    """`dicetable run` as root on the table's own folder: refused before anything is made there."""


def refuse_root_in(folder: Path) -> None:
    """A table run with sudo on the service's folder made its games/ root's (the first game it put
    away), and from then on the service, as `dicetable`, could not put any game away: each came
    back at every start, until someone found the folder and gave it back. Refused at the cause,
    with what to do instead; root may still run a table on a folder of its own."""
    if os.geteuid() != 0:
        return
    user = table_user()
    try:
        owner = folder.stat().st_uid
    except OSError:
        return
    if user is None or user.uid == 0 or owner != user.uid:
        return
    raise RootInTablesFolder(
        f"{folder} is the table's user {user.name}'s, and this table would run as root: the files it made there "
        f"would keep the service from putting games away. Start the service instead (sudo systemctl start "
        f"dicetable), or run the table as its user: sudo -u {user.name} dicetable run")
