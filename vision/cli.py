"""`dicetable read` and `dicetable bench` subcommands (argparse), registered by controller.cli.

The `read --json` output is a contract used by tools outside the project: one JSON object per
image per line, `{"image", "dice", "problems", "ms"}` or `{"image", "error"}`. Keep it stable.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

# Bench targets by name: the lead can register more with `add_bench_target`.
BenchFn = Callable[[argparse.Namespace], int]
BENCH_TARGETS: dict[str, BenchFn] = {}
# Which of the shared options (DIR, --limit, --passes, --half, --rules) each target uses. The others are refused,
# so that `bench rendered --limit 5` says it has no such thing instead of running the whole sweep.
BENCH_OPTIONS: dict[str, frozenset[str]] = {}
SHARED_BENCH_OPTIONS = {"dir": "DIR", "limit": "--limit", "passes": "--passes", "half": "--half",
                        "rules": "--rules"}


class AnyOrderParser(argparse.ArgumentParser):
    """Options before, between or after the positionals, on Python 3.11 too.

    Before 3.12.8/3.13.1 (CPython gh-59317), argparse gives an optional positional ('?', '*',
    '+') what it can take before the first option and nothing after: `bench vision --limit 5
    DIR` and `read A --json B` ended in "unrecognized arguments: DIR". The words left over that
    are not options go to the positional they belong to. Subparsers made from this parser are
    of this class too (argparse makes them of the class of their parent).
    """

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        namespace, extras = super().parse_known_args(args, namespace)
        for action in self._get_positional_actions():
            loose = [word for word in extras if not word.startswith("-")]
            if not loose or action.nargs not in ("?", "*", "+"):
                continue
            if action.nargs == "?":
                if getattr(namespace, action.dest, None) != action.default:
                    continue
                loose = loose[:1]
                setattr(namespace, action.dest, self._get_values(action, loose))
            else:
                setattr(namespace, action.dest,
                        list(getattr(namespace, action.dest, None) or []) + self._get_values(action, loose))
            for word in loose:
                extras.remove(word)
        return namespace, extras


def add_bench_target(name: str, fn: BenchFn, options: tuple[str, ...] = ()) -> None:
    """Register `dicetable bench NAME`, which uses the shared options named (of "dir", "limit",
    "passes", "half", "rules")."""
    unknown = set(options) - set(SHARED_BENCH_OPTIONS)
    if unknown:
        raise ValueError(f"unknown bench options {sorted(unknown)}")
    BENCH_TARGETS[name] = fn
    BENCH_OPTIONS[name] = frozenset(options)


def output_folder(text: str, flag: str) -> Path:
    """The folder an option writes into, made now and only its last part, as `mkdir` does: a
    file in its place or a mistyped parent is told before any work (not as a traceback half-way),
    and a typo leaves no tree of new folders behind. ValueError("<flag> <text>: why")."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{flag} {text}: that is a file, not a folder")
    if not path.parent.is_dir():
        raise ValueError(f"{flag} {text}: the folder {path.parent} does not exist (create it first)")
    try:
        path.mkdir(exist_ok=True)
    except OSError as exc:
        raise ValueError(f"{flag} {text}: cannot create it ({exc.strerror or exc})") from None
    return path


def _load_image(path: str) -> tuple[np.ndarray | None, str | None]:
    """Decode an image file; a missing, empty, corrupt or non-image file gives an error text
    (vision.image_file.load)."""
    from vision.image_file import load

    return load(path)


def cmd_read(args: argparse.Namespace) -> int:
    """Read each image; exit 0 only if every image could be read (and, with --annotate, its
    annotated copy written)."""
    from vision.annotate import annotate
    from vision.reader import read

    ok = True
    written: set[str] = set()
    try:
        out_dir = output_folder(args.annotate, "--annotate") if args.annotate else None
    except ValueError as exc:
        print(f"dicetable read: {exc}", file=sys.stderr)
        return 2
    for path in args.images:
        t0 = time.perf_counter()
        img, err = _load_image(path)
        if img is None:
            ok = False
            if args.json:
                print(json.dumps({"image": path, "error": err}), flush=True)
            else:
                print(f"{path}: ERROR {err}", flush=True)
            continue
        reading = read(img)
        ms = (time.perf_counter() - t0) * 1000
        if args.json:
            rec = {"image": path, **reading.to_json()}
            rec["ms"] = round(ms, 2)
            print(json.dumps(rec), flush=True)
        else:
            vals = " ".join("?" if v is None else str(v) for v in reading.values) or "-"
            probs = ",".join(sorted(reading.problem_codes()))
            n = len(reading.dice)
            print(f"{path}: {n} {'die' if n == 1 else 'dice'} [{vals}]"
                  + (f" problems: {probs}" if probs else "") + f" ({ms:.0f} ms)", flush=True)
        if out_dir is not None:
            target = _annotated_name(out_dir, path, written)
            if not _write_png(target, annotate(img, reading)):
                ok = False
                print(f"dicetable read: --annotate: cannot write {target}", file=sys.stderr, flush=True)
    return 0 if ok else 1


def _annotated_name(out_dir: Path, path: str, written: set[str]) -> Path:
    """STEM.annotated.png, or STEM-2.annotated.png, -3 ... when an image of this run already
    took that name (a/x.jpg and b/x.jpg, x.jpg and x.png): each image keeps its own copy."""
    stem = Path(path).stem
    name, k = f"{stem}.annotated.png", 1
    while name in written:
        k += 1
        name = f"{stem}-{k}.annotated.png"
    written.add(name)
    return out_dir / name


def _write_png(target: Path, img: np.ndarray) -> bool:
    """False where the file cannot be written: said, not lost. Encoded by OpenCV and written by
    Python: cv2.imwrite given a name that is not UTF-8 (an annotated copy of b"2\\xff.png") killed
    the process with a segmentation fault."""
    try:
        ok, png = cv2.imencode(".png", img)
        if not ok:
            return False
        target.write_bytes(png.tobytes())
        return True
    except (cv2.error, OSError):
        return False


def bench_vision(args: argparse.Namespace) -> int:
    from vision import bench

    root = Path(args.dir) if args.dir else bench.default_photos_dir()
    if not root.is_dir():
        print(f"photo folder not found: {root}", file=sys.stderr)
        return 2
    results = bench.run(root, limit=args.limit, passes=args.passes or bench.VGA_PASSES, half=args.half)
    if not results:
        print(f"no labelled sources (*/labels.json) under {root}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(bench.to_json(results)))
    else:
        print(bench.table(results))
    return 0


def bench_rendered(args: argparse.Namespace) -> int:
    """The reader over rendered trays of every style and die colour: needs no photos."""
    from vision import render_bench

    res = render_bench.run()
    print(json.dumps(res.to_json()) if args.json else render_bench.table(res))
    return 0


add_bench_target("vision", bench_vision, ("dir", "limit", "passes", "half"))
add_bench_target("rendered", bench_rendered)


def cmd_bench(args: argparse.Namespace) -> int:
    used = BENCH_OPTIONS.get(args.what, frozenset())
    given = [flag for name, flag in SHARED_BENCH_OPTIONS.items()
             if getattr(args, name, None) is not None and name not in used]
    if given:
        takes = ", ".join(flag for n, flag in SHARED_BENCH_OPTIONS.items() if n in used) \
            or "none of " + ", ".join(SHARED_BENCH_OPTIONS.values())
        verb = "does" if len(given) == 1 else "do"
        print(f"dicetable bench {args.what}: {', '.join(given)} {verb} not apply here "
              f"(it takes {takes}; see `dicetable bench --help`)", file=sys.stderr)
        return 2
    return BENCH_TARGETS[args.what](args)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `read` and `bench` to the caller's subparsers; handlers are in `func`."""
    p = subparsers.add_parser("read", help="read dice values from image files")
    p.add_argument("images", nargs="+", metavar="IMAGE", help="photos or camera frames (PNG, JPEG, ...)")
    p.add_argument("--json", action="store_true", help="one JSON object per image per line")
    p.add_argument("--annotate", metavar="DIR", help="write annotated copies into DIR")
    p.set_defaults(func=cmd_read)

    b = subparsers.add_parser("bench", help="measure accuracy and speed")
    b.add_argument("what", choices=sorted(BENCH_TARGETS), help="what to benchmark")
    b.add_argument("dir", nargs="?", default=None, metavar="DIR",
                   help="vision: labelled photos (default: shared/dice-photos beside the repo)")
    b.add_argument("--json", action="store_true", help="the figures as one JSON object")
    b.add_argument("--limit", type=int, default=None, metavar="N",
                   help="vision: first N images per source; rules: N/10 s a game (at least 0.2 s); table: a quick "
                        "run; soak: N demo games in one process (10); journal: a journal of N hold toggles "
                        "(100,000); powercut: N cuts (60); archive: N archived games (5,000); evening: N games at "
                        "the whole table app (100)")
    b.add_argument("--passes", type=int, default=None, metavar="N",
                   help="vision: stream passes over the 640x480 frames, each frame's fastest read kept (3)")
    b.add_argument("--half", choices=("even", "odd", "all"), default=None,
                   help="vision: the even-indexed photos of each source (the nets' training half) or the "
                        "odd-indexed ones (never trained on: the honest figure); both by default")
    b.add_argument("--rules", choices=("defaults", "house"), default=None,
                   help="powercut: each game under its default house rules, or under those that change its "
                        "flow the most (betting Classic, Pok'n Roll's abandon in turn, ...; first player drawn)")
    b.set_defaults(func=cmd_bench)


def main(argv: list[str] | None = None) -> int:
    parser = AnyOrderParser(prog="python -m vision.cli")
    sub = parser.add_subparsers(dest="command", required=True)
    register(sub)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
