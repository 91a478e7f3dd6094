"""`dicetable calibrate`: the command, and the calibration saved into the table's config file.

vision/calibrate.py measures the tray, the die size and the light and checks the frames; this
module is the table's side of it: the frames loaded from the files the staff name (or taken with
the table's camera, controller/calibrate_camera.py), the config checked before they are taken,
and the result kept in the `[vision]` section of the config (TOML), which must exist (copied from
systemd/config.example.toml: a new file would lack the rest). Other sections of that file are
preserved byte for byte, and its mode and owner; it is written whole (plain_file.write_whole).

    cal = calibrate(empty_frames, throw_frames)           # vision.calibrate
    save_calibration(cal, "/etc/dicetable/config.toml")
    cal = load_calibration(path)          # None if the file or its [vision] section is missing

CLI (wired into `dicetable` by controller/cli.py): `register(subparsers, capture)` adds
`calibrate --empty IMG... --throw IMG... [--config PATH]`, and `--camera` when given a `capture`
that takes the frames with the table's own camera.

(Until this module, all of it was in vision/calibrate.py, which imported controller.plain_file:
the only import from vision into the controller, whose dependencies must point inward.)
"""
from __future__ import annotations

import argparse
import errno
import json
import math
import os
import re
import sys
import tomllib
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from vision.calibrate import Calibration, calibrate, check_images, check_sizes, describe, no_picture

from .plain_file import NotAFile, read_plain, write_whole

__all__ = ["Calibration", "calibrate", "no_picture", "save_calibration", "load_calibration", "register",
           "cmd_calibrate", "replace_section", "toml_section", "toml_value"]

DEFAULT_CONFIG = "/etc/dicetable/config.toml"
SECTION = "vision"
MOST_CONFIG_BYTES = 1024 * 1024          # as controller/config.py reads it


# --------------------------------------------------------------------------- TOML


def toml_value(v: Any) -> str:
    """A TOML literal for a bool, number, string or (nested) list or dict of those (a dict as an
    inline table: `dicetable games --options` prints the games' defaults this way)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        if not math.isfinite(float(v)):
            raise ValueError(f"cannot write {v!r} to TOML")
        return repr(float(v))
    if isinstance(v, str):
        return json.dumps(v)               # JSON string escapes are valid TOML basic strings
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        keys = [str(k) if _KEY.match(str(k)) else json.dumps(str(k)) for k in v]
        return "{" + ", ".join(f"{k} = {toml_value(x)}" for k, x in zip(keys, v.values())) + "}"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_HEADER = re.compile(r"^\s*\[\[?\s*([^\]\[]+?)\s*\]\]?\s*(#.*)?$")


def toml_section(name: str, values: dict[str, Any]) -> str:
    lines = [f"[{name}]"]
    for k, v in values.items():
        if not _KEY.match(k):
            raise ValueError(f"bad TOML key {k!r}")
        lines.append(f"{k} = {toml_value(v)}")
    return "\n".join(lines) + "\n"


# Keys of [vision] that are not the calibration's and outlive a new one: the settle tracker's
# tuning, also written `settle = {...}` or `settle.still_frames = 8` inside [vision].
KEPT_KEYS = ("settle",)
_KEY_LINE = re.compile(r'^\s*("?)([A-Za-z0-9_-]+)\1\s*[.=]')


def _chunks(lines: list[str]) -> list[tuple[str | None, list[str]]]:
    """A section's lines as (key, the lines its value runs over), or (None, [a comment or blank line])."""
    out: list[tuple[str | None, list[str]]] = []
    i = 0
    while i < len(lines):
        m = _KEY_LINE.match(lines[i])
        if not m:
            out.append((None, [lines[i]]))
            i += 1
            continue
        j = i + 1
        while j < len(lines):                   # an array or a string over several lines
            try:
                tomllib.loads("".join(lines[i:j]))
                break
            except tomllib.TOMLDecodeError:
                j += 1
        out.append((m.group(2), lines[i:j]))
        i = j
    return out


def replace_section(text: str, name: str, values: dict[str, Any]) -> str:
    """Return config text with section [name]'s keys replaced by `values` (or the section
    appended); everything else untouched.

    Within the section, its comments and the keys in KEPT_KEYS stay; the comments and blank
    lines after its last key, from the first blank line on, belong to the next section (its
    heading) and stay before it. Before, the whole section up to the next header was rewritten:
    a hand-tuned `settle` in [vision] and the heading comments of a section after it were lost
    at each calibration."""
    lines = text.splitlines(keepends=True)
    start = end = None
    for i, line in enumerate(lines):
        m = _HEADER.match(line)
        if not m:
            continue
        if start is None and line.lstrip().startswith("[") and not line.lstrip().startswith("[[") \
                and m.group(1).strip().strip('"') == name:
            start = i
        elif start is not None:
            end = i
            break
    new = toml_section(name, values)
    if start is None:
        if text and not text.endswith("\n"):
            text += "\n"
        return text + ("\n" if text.strip() else "") + new
    if end is None:
        end = len(lines)
    chunks = _chunks(lines[start + 1:end])
    last_key = max((i for i, (key, _) in enumerate(chunks) if key is not None), default=-1)
    blank = next((i for i in range(last_key + 1, len(chunks)) if not chunks[i][1][0].strip()), len(chunks))
    head = [ln for key, part in chunks[:blank] if key is None or key in KEPT_KEYS for ln in part]
    tail = [ln for _, part in chunks[blank:] for ln in part]
    if end < len(lines) and not tail:
        tail = ["\n"]
    header = lines[start] if lines[start].endswith("\n") else lines[start] + "\n"
    body = [ln if ln.endswith("\n") else ln + "\n" for ln in head] + new.splitlines(keepends=True)[1:]
    return "".join(lines[:start]) + header + "".join(body) + "".join(tail) + "".join(lines[end:])

# --------------------------------------------------------------------------- the config file


def missing_config(path: str | os.PathLike[str]) -> str | None:
    """Why `path` cannot take a calibration, with what to do; None when it is an existing file.

    The calibration goes into the table's own config, never into a new file: one made here (by
    sudo, before install step 5 copied the example) would hold only [vision], be root's alone,
    and the table's `dicetable` user could not read it."""
    path = Path(path)
    if path.is_file():
        return None
    if path.exists():
        # (a FIFO was "is not a file", the staff left to guess what to put there)
        kind = _kind_at(path)
        return (f"{path} is {kind}, not a file: put the table's config file there in its place "
                "(docs/install.md step 5)")
    if path.is_symlink():
        # (a link to nowhere was "no config file", with a cp that would write through the link)
        return (f"{path} is a link to {os.readlink(path)}, which is not there: link it to the table's "
                f"config file, or put the file there in its place (docs/install.md step 5)")
    mkdir = "" if path.parent.is_dir() else f"sudo mkdir -p {path.parent} && "
    # a misspelt --config beside the table's own file: copying the example there would calibrate
    # a file the table never reads
    copy = f"{mkdir}sudo cp /opt/dicetable/src/systemd/config.example.toml {path}"
    table_own = Path(DEFAULT_CONFIG)
    if table_own.is_file() and path != table_own:
        return (f"no config file at {path}. The table's own config is {table_own}: give that to --config, "
                f"or leave --config out. (A new config starts as a copy of the example, docs/install.md "
                f"step 5: {copy})")
    return (f"no config file at {path}: the calibration is saved into the table's config, so copy "
            f"the example there first (docs/install.md step 5): {copy}")


def _kind_at(path: Path) -> str:
    """What `path` (a link followed) is, in the staff's words: "a folder", "a FIFO (named pipe)"..."""
    try:
        read_plain(path, 0)
    except NotAFile as exc:
        return exc.kind
    except OSError:
        pass
    return "something else"


#: what a failed write of the config means for the staff (the old config is always left whole)
WRITE_FAILED = {
    errno.ENOSPC: "the disk (SD card) is full: make room (sudo apt-get clean; sudo journalctl --vacuum-size=50M) "
                  "and calibrate again",
    errno.EDQUOT: "the disk quota is full: make room and calibrate again",
    errno.EROFS: "the SD card is mounted read-only (a card failing, or a read-only setup): see docs/install.md",
    errno.EACCES: "this login may not write there: put sudo before the command (docs/install.md step 7)",
    errno.EPERM: "this login may not write there: put sudo before the command (docs/install.md step 7)",
    errno.EIO: "the SD card failed to write (input/output error): it may be wearing out",
}


def write_failed(path: str | os.PathLike[str], exc: OSError) -> str:
    """Why the calibration could not be written into `path`, what to do, and that the old
    config is left as it was. Before: "[Errno 28] No space left on device: '/etc/dicetable/.config-x1b2.toml'",
    naming a file the staff never made and not saying whether the old calibration was still there."""
    what = WRITE_FAILED.get(exc.errno) if exc.errno is not None else None
    return (f"not saved: {what or exc.strerror or exc}. {path} was left as it was, with its old "
            "calibration")


def _may_write(folder: Path) -> bool:
    """Can this login make a file in `folder`? The config is replaced through a new file there."""
    return os.access(folder, os.W_OK | os.X_OK)


def unwritable_config(path: str | os.PathLike[str]) -> str | None:
    """Why this login cannot save into the config at `path` (it is root's: /etc/dicetable), or None.
    Asked before the frames are taken: with --camera, the staff went through every Enter first and
    were then told "[Errno 13] Permission denied: '/etc/dicetable/.config-....toml'"."""
    folder = Path(os.path.realpath(path)).parent
    if _may_write(folder):
        return None
    return (f"cannot save into {path}: this login may not write in {folder}. Put sudo before the "
            "command (sudo dicetable calibrate ..., docs/install.md step 7)")


def save_calibration(cal: Calibration, path: str | os.PathLike[str]) -> None:
    """Write `cal` as the [vision] section of the existing config at `path`, keeping its other
    sections, its mode and its owner (the service's user must still read it after `sudo`).

    Raises ValueError if the file is missing (see missing_config) or not valid TOML (it is left
    alone), OSError if it cannot be written (the old file is then left whole).

    The new file is written beside it, flushed to the card (fsync) and only then renamed over
    the old, the folder flushed after: renamed before its bytes reached the card, a power cut
    in the next seconds (the staff unplugging the table once calibrated) could leave an empty
    config, every setting and the calibration lost. Read without waiting (plain_file): a FIFO
    put there while --camera took its frames hung the save."""
    path = Path(os.path.realpath(path))    # a symlinked config: write the file, keep the link
    problem = missing_config(path)
    if problem:
        raise ValueError(problem)
    try:
        # (a BOM an editor put first: dropped, see config.py)
        old = read_plain(path, MOST_CONFIG_BYTES).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text (saved in another encoding, such as Windows' \"ANSI\"): "
                         "save it as UTF-8 first (nano does; Notepad: Save as, Encoding UTF-8)") from None
    try:
        tomllib.loads(old)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path} is not valid TOML ({exc}); fix or move it before saving") from None
    text = replace_section(old, SECTION, cal.to_dict())
    tomllib.loads(text)                    # never write something we cannot read back
    # (a name of mkstemp's beside, .config-xxxx.toml: two calibrations run at once must not
    # rename each other's half-written file over the config; the folder sync only tried: the new
    # config is whole already, and a failure then would say "not saved" of a saved calibration)
    write_whole(path, text, unique=True, like=path.stat(), folder="try")


def load_calibration(path: str | os.PathLike[str]) -> Calibration | None:
    """The calibration in the config at `path`; None if the file or its [vision] tray/die_px is missing."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path} is not valid TOML: {exc}") from None
    section = data.get(SECTION)
    if not isinstance(section, dict) or "tray" not in section or "die_px" not in section:
        return None
    return Calibration.from_dict(section)

# --------------------------------------------------------------------------- CLI


def _load_images(paths: Sequence[str], what: str) -> list[np.ndarray]:
    """The images, through the loader `dicetable read` uses (a decoder that raises, a truncated
    JPEG, a decompression bomb, a FIFO: each a ValueError naming the file, never a traceback)."""
    from vision.image_file import load

    out = []
    for p in paths:
        img, why = load(str(p))
        if img is None:
            raise ValueError(f"cannot read {what} image {p}: {why}")
        out.append(img)
    return out


# Frames from the table's own camera, for `calibrate --camera` (the controller supplies it: it
# knows the config's camera). Given the parsed arguments, it returns (empty frames, throw frames)
# or raises ValueError with a message for the person at the terminal.
Capture = Callable[[argparse.Namespace], tuple[list[np.ndarray], list[np.ndarray]]]


def _need_config(path: str) -> None:
    """Refuse a missing config, or one this login cannot save into, before the frames are taken."""
    problem = missing_config(path) or unwritable_config(path)
    if problem:
        raise ValueError(problem)


def cmd_calibrate(args: argparse.Namespace, capture: Capture | None = None) -> int:
    """Handler for `dicetable calibrate`: 0 saved, 1 no dice found or cannot save, 2 bad input,
    130 stopped by Ctrl-C.

    Ctrl-C while the frames were measured (the nets take seconds on a Pi) printed a Python
    traceback, and the staff could not tell whether the café's calibration was still there.
    It is now one line saying so: the config is only ever replaced whole, at the very end."""
    saving = [False]
    try:
        return _calibrate_and_save(args, capture, saving)
    except KeyboardInterrupt:
        if saving[0]:
            print(f"calibrate: stopped (Ctrl-C) while saving: {args.config} holds its old calibration or the "
                  "new one, whole; calibrate again to be sure", file=sys.stderr)
        else:
            print(f"calibrate: stopped (Ctrl-C): nothing was saved, {args.config} is as it was", file=sys.stderr)
        return 130


def _calibrate_and_save(args: argparse.Namespace, capture: Capture | None, saving: list[bool]) -> int:
    """cmd_calibrate's work; `saving[0]` is set once the config is being written."""
    try:
        if getattr(args, "camera", False):
            if args.empty or args.throw:
                raise ValueError("give --camera or --empty/--throw images, not both")
            assert capture is not None
            _need_config(args.config)
            empty, throws = capture(args)
        elif not (args.empty and args.throw):
            raise ValueError("give images of the empty tray (--empty) and of a throw (--throw)"
                             + (", or --camera to take them with the table's camera" if capture else ""))
        else:
            _need_config(args.config)
            empty = _load_images(args.empty, "empty")
            throws = _load_images(args.throw, "throw")
        from vision.reader import read     # (the nets load only when calibrating)

        if not getattr(args, "camera", False):     # (--camera checked each frame as it took it)
            check_sizes([(f"--empty {p}", img) for p, img in zip(args.empty, empty)]
                        + [(f"--throw {p}", img) for p, img in zip(args.throw, throws)])
            check_images(read, list(zip(args.empty, empty)), list(zip(args.throw, throws)))

        cal = calibrate(empty, throws, reader=read)
    except ValueError as exc:
        print(f"calibrate: {exc}", file=sys.stderr)
        return 2
    print(describe(cal))
    if cal.die_px <= 0:
        print("calibrate: not saved: no die size could be measured", file=sys.stderr)
        return 1
    saving[0] = True
    try:
        save_calibration(cal, args.config)
    except OSError as exc:
        print(f"calibrate: cannot save to {args.config}: {write_failed(args.config, exc)}", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"calibrate: cannot save to {args.config}: {exc}", file=sys.stderr)
        return 1
    print(f"saved to [{SECTION}] in {args.config}")
    return 0


def register(subparsers: Any, capture: Capture | None = None) -> argparse.ArgumentParser:
    """Add the `calibrate` subcommand; its handler is `args.func(args) -> int`. With `capture`,
    `--camera` takes the frames with the table's camera instead of from image files."""
    p = subparsers.add_parser(
        "calibrate",
        help="learn tray, die size and light from the camera (--camera) or from images of the empty tray and a throw",
        description="Measure the tray region, die size and lighting from images of the empty tray "
                    "and of a throw, print advice, and save the result in the [vision] section of the config.")
    p.add_argument("--empty", nargs="+", metavar="IMG", help="images of the empty tray")
    p.add_argument("--throw", nargs="+", metavar="IMG", help="images of dice at rest on the tray")
    if capture is not None:
        p.add_argument("--camera", action="store_true",
                       help="take the frames with the camera of the config's [camera] section, guided "
                            "at the terminal (stop the table first: one program at a time uses the camera)")
        p.add_argument("--throws", type=int, default=2, metavar="N",
                       help="with --camera: how many throws to take (default 2)")
    p.add_argument("--config", default=DEFAULT_CONFIG, metavar="PATH",
                   help=f"the config file to save into; it must exist (default {DEFAULT_CONFIG})")
    p.set_defaults(func=lambda args: cmd_calibrate(args, capture))
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m controller.calibrate")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["calibrate", *(sys.argv[1:] if argv is None else argv)])
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
