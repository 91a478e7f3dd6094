"""Accuracy of the face stage alone (`python -m vision.face_bench`): crop in, value out.

Die detection is taken out of the measurement: single-die crop sources (casino, taistudio: the
whole image is the die) are read as they are, and dice of scene sources (nellbyler, roboflow)
are cut from their label boxes (centre = box centre, side = box size, angle unknown, so the
face reader must find the rotation itself). Reports per source: accuracy, unsure (None) rate,
wrong-value rate, confusion matrix and microseconds per face (crop + read, one core).

    python -m vision.face_bench [--half even|odd] [--source S] [--limit N] [--dump DIR] [--json]

`--half` keeps the even- or odd-indexed images of each source (order of labels.json): tune on
even, check on odd. `--dump DIR` writes crop mosaics of the wrong and unsure faces per source.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.bench import default_photos_dir

from vision import pips

BOX_EXPAND = 1.0    # label boxes cover the visible die; face_crop adds its own margin


@dataclass
class FaceCase:
    image: str
    value: int
    crop: np.ndarray            # source pixels around the die (for dumps)
    centre: tuple[float, float]
    side: float
    whole: bool = False         # single-die crop: the reader locates the die itself


@dataclass
class FaceResult:
    source: str
    n: int = 0
    right: int = 0
    unsure: int = 0
    wrong: int = 0
    us: list[float] = field(default_factory=list)
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((6, 7), int))  # truth x (1..6, None)
    failures: list[tuple[FaceCase, pips.FaceRead, np.ndarray]] = field(default_factory=list)
    confs_right: list[float] = field(default_factory=list)
    confs_wrong: list[float] = field(default_factory=list)

    def rate(self, k: int) -> float:
        return k / self.n if self.n else 0.0

    @property
    def median_us(self) -> float:
        return float(np.median(self.us)) if self.us else 0.0

    def summary(self) -> dict[str, Any]:
        return {"source": self.source, "faces": self.n, "accuracy": round(self.rate(self.right), 4),
                "unsure": round(self.rate(self.unsure), 4), "wrong": round(self.rate(self.wrong), 4),
                "median_us": round(self.median_us, 1),
                "confusion": self.confusion.tolist()}


def cases(folder: Path, half: str | None = None, limit: int | None = None):
    """(image array, FaceCase list) per image; crop sources give one whole-image case."""
    entries = json.loads((folder / "labels.json").read_text())
    if half == "even":
        entries = entries[0::2]
    elif half == "odd":
        entries = entries[1::2]
    if limit:
        entries = entries[:limit]
    for e in entries:
        img = cv2.imread(str(folder / e["image"]), cv2.IMREAD_COLOR)
        if img is None:
            continue
        h, w = img.shape[:2]
        out = []
        for d in e["dice"]:
            if d.get("box") is None:
                out.append(FaceCase(e["image"], int(d["value"]), img, (w / 2.0, h / 2.0), float(min(h, w)), True))
            else:
                x0, y0, x1, y1 = (float(v) for v in d["box"])
                side = max(x1 - x0, y1 - y0) * BOX_EXPAND
                cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
                r = int(round(0.75 * side))
                crop = img[max(0, int(cy) - r):int(cy) + r, max(0, int(cx) - r):int(cx) + r]
                out.append(FaceCase(e["image"], int(d["value"]), crop, (cx, cy), side))
        yield img, out


def read_case(img: np.ndarray, c: FaceCase) -> tuple[pips.FaceRead, np.ndarray]:
    if c.whole:
        fr, face = pips.crop_views(img)
        return fr, (face if face is not None else np.zeros((pips.N, pips.N, 3), np.uint8))
    else:
        face = pips.face_crop(img, c.centre, c.side, 0.0)
    return pips.read_face(face), face


def bench_source(folder: Path, half: str | None = None, limit: int | None = None,
                 keep_failures: bool = False) -> FaceResult:
    res = FaceResult(folder.name)
    for img, cs in cases(folder, half, limit):
        for c in cs:
            t0 = time.perf_counter()
            fr, face = read_case(img, c)
            res.us.append((time.perf_counter() - t0) * 1e6)
            res.n += 1
            col = 6 if fr.value is None else fr.value - 1
            res.confusion[c.value - 1, col] += 1
            if fr.value == c.value:
                res.right += 1
                res.confs_right.append(fr.confidence)
            else:
                if fr.value is None:
                    res.unsure += 1
                else:
                    res.wrong += 1
                    res.confs_wrong.append(fr.confidence)
                if keep_failures:
                    res.failures.append((c, fr, face))
    return res


def run(root: Path, half: str | None = None, sources: list[str] | None = None,
        limit: int | None = None, keep_failures: bool = False) -> list[FaceResult]:
    cv2.setNumThreads(1)
    names = sorted(p.name for p in root.iterdir() if (p / "labels.json").is_file())
    if sources:
        names = [n for n in names if any(s in n for s in sources)]
    return [bench_source(root / n, half, limit, keep_failures) for n in names]


def table(results: list[FaceResult]) -> str:
    lines = ["| source | faces | right | unsure | wrong | median µs |", "|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r.source} | {r.n} | {100 * r.rate(r.right):.1f}% | {100 * r.rate(r.unsure):.1f}% "
                     f"| {100 * r.rate(r.wrong):.1f}% | {r.median_us:.0f} |")
    return "\n".join(lines)


def confusion_text(r: FaceResult) -> str:
    lines = [f"{r.source}: truth \\ read   1    2    3    4    5    6  None"]
    for t in range(6):
        lines.append(f"  {t + 1:>16}  " + " ".join(f"{v:4d}" for v in r.confusion[t]))
    return "\n".join(lines)


def _tile(img: np.ndarray, t: int) -> np.ndarray:
    if img is None or img.size == 0:
        return np.zeros((t, t, 3), np.uint8)
    return cv2.resize(img, (t, t), interpolation=cv2.INTER_AREA if img.shape[0] > t else cv2.INTER_LINEAR)


def dump(r: FaceResult, out: Path, t: int = 96, cols: int = 10) -> Path | None:
    """Mosaic of failures: for each, the source crop and the canonical face with the pips found."""
    if not r.failures:
        return None
    out.mkdir(parents=True, exist_ok=True)
    cells = []
    # wrong values first (they matter most), then the unsure ones
    for c, fr, face in sorted(r.failures, key=lambda f: f[1].value is None):
        a = _tile(c.crop, t)
        b = _tile(face, t).copy()
        f = t / max(face.shape[0], 1)
        for x, y, area in fr.pips:
            rad = max(2, int(round(np.sqrt(area / np.pi) * f)))
            cv2.circle(b, (int(x * f), int(y * f)), rad, (0, 255, 0), 1)
        cell = np.full((t + 14, 2 * t + 4, 3), 255, np.uint8)
        cell[:t, :t] = a
        cell[:t, t + 4:] = b
        txt = f"{c.value}->{fr.value} {fr.confidence:.2f} {fr.reason[:14]}"
        cv2.putText(cell, txt, (2, t + 11), cv2.FONT_HERSHEY_SIMPLEX, 0.33, (0, 0, 200), 1)
        cells.append(cell)
    rows = []
    for i in range(0, len(cells), cols):
        row = cells[i:i + cols]
        row += [np.full_like(cells[0], 255)] * (cols - len(row))
        rows.append(np.hstack([np.pad(x, ((0, 2), (0, 2), (0, 0)), constant_values=128) for x in row]))
    paths = []
    for k in range(0, len(rows), 12):  # pages of 12 rows, viewable
        p = out / f"{r.source}_fail_{k // 12}.png"
        cv2.imwrite(str(p), np.vstack(rows[k:k + 12]))
        paths.append(p)
    return paths[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.face_bench", description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=Path, default=None, help="dice-photos folder (default: shared)")
    ap.add_argument("--half", choices=("even", "odd"), default=None)
    ap.add_argument("--source", action="append", default=None, help="source name (substring); repeatable")
    ap.add_argument("--limit", type=int, default=None, help="images per source")
    ap.add_argument("--dump", type=Path, default=None, help="write failure mosaics here")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    root = a.photos or default_photos_dir()
    if not root.is_dir():
        print(f"no photos at {root}", file=sys.stderr)
        return 2
    results = run(root, a.half, a.source, a.limit, keep_failures=a.dump is not None)
    if a.json:
        print(json.dumps([r.summary() for r in results], indent=1))
    else:
        print(table(results))
        for r in results:
            print(confusion_text(r))
            if r.confs_wrong:
                print(f"  wrong-read confidences: {sorted(round(c, 2) for c in r.confs_wrong)}")
    if a.dump is not None:
        for r in results:
            p = dump(r, a.dump)
            if p:
                print(f"failures: {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
