"""Accuracy and speed of the pip reader on labelled real photos (`dicetable bench vision`).

Boxes mean different things per source (whole die, top face, pip cluster), so predictions are
matched by centre-in-box (with a small margin), nearest centre first, never by IoU.
Single-die crop sources (every label box null) are read with `read_die`.
"""
from __future__ import annotations

import json
import os
import resource
import statistics
import time
import tracemalloc
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from vision.reader import read, read_die


def default_photos_dir() -> Path:
    """`DICETABLE_PHOTOS`, else the `shared/dice-photos` folder beside the repo folder."""
    env = os.environ.get("DICETABLE_PHOTOS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1].parent / "shared" / "dice-photos"


@dataclass
class SourceResult:
    source: str
    images: int = 0
    dice_labelled: int = 0
    dice_found: int = 0
    dice_right: int = 0
    extras: int = 0
    images_exact: int = 0
    ms: list[float] = field(default_factory=list)
    peak_py_mb: float = 0.0
    failures: list[dict[str, Any]] = field(default_factory=list)

    @property
    def value_accuracy(self) -> float:
        return self.dice_right / self.dice_found if self.dice_found else 0.0

    @property
    def read_right(self) -> float:
        return self.dice_right / self.dice_labelled if self.dice_labelled else 0.0

    @property
    def exact_rate(self) -> float:
        return self.images_exact / self.images if self.images else 0.0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.ms) if self.ms else 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "source": self.source, "images": self.images, "dice_labelled": self.dice_labelled,
            "dice_found": self.dice_found, "value_accuracy": round(self.value_accuracy, 4),
            "read_right": round(self.read_right, 4), "extras": self.extras,
            "images_exact": self.images_exact, "images_exact_rate": round(self.exact_rate, 4),
            "median_ms": round(self.median_ms, 2), "peak_py_mb": round(self.peak_py_mb, 2),
        }


def match(preds: list[tuple[float, float, int | None]], labels: list[dict[str, Any]],
          margin: float = 0.15) -> tuple[list[tuple[int, int]], int]:
    """Greedy centre matching. Returns (label index, pred index) pairs and the extras count."""
    pairs = []
    for li, lab in enumerate(labels):
        x0, y0, x1, y1 = lab["box"]
        mx, my = margin * (x1 - x0), margin * (y1 - y0)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        for pi, (px, py, _v) in enumerate(preds):
            if x0 - mx <= px <= x1 + mx and y0 - my <= py <= y1 + my:
                pairs.append((float(np.hypot(px - cx, py - cy)), li, pi))
    pairs.sort()
    used_l: set[int] = set()
    used_p: set[int] = set()
    out = []
    for _d, li, pi in pairs:
        if li in used_l or pi in used_p:
            continue
        used_l.add(li)
        used_p.add(pi)
        out.append((li, pi))
    return out, len(preds) - len(used_p)


def bench_source(folder: Path, limit: int | None = None,
                 on_image: Callable[[str, np.ndarray, Any], None] | None = None) -> SourceResult:
    """Run the reader over one source folder (holding labels.json)."""
    entries = json.loads((folder / "labels.json").read_text())
    if limit:
        entries = entries[:limit]
    res = SourceResult(folder.name)
    crop_source = all(d.get("box") is None for e in entries for d in e["dice"])
    # tracemalloc slows every allocation, so it runs only over the first few frames
    # (peak per frame is what matters) and the timings of the rest are clean.
    tracemalloc.start()
    for i, e in enumerate(entries):
        if i == 3 and tracemalloc.is_tracing():
            res.peak_py_mb = tracemalloc.get_traced_memory()[1] / 1e6
            tracemalloc.stop()
        img = cv2.imread(str(folder / e["image"]), cv2.IMREAD_COLOR)
        labels = e["dice"]
        res.images += 1
        res.dice_labelled += len(labels)
        t0 = time.perf_counter()
        if crop_source:
            v, conf = read_die(img) if img is not None else (None, 0.0)
            res.ms.append((time.perf_counter() - t0) * 1000)
            if labels:
                found = 1
                right = int(v == labels[0]["value"])
                extras = 0
            else:
                found = right = 0
                extras = int(v is not None)
            reading: Any = (v, conf)
            got = [v]
        else:
            reading = read(img)
            res.ms.append((time.perf_counter() - t0) * 1000)
            preds = [(d.centre[0], d.centre[1], d.value) for d in reading.dice]
            pairs, extras = match(preds, labels)
            found = len(pairs)
            right = sum(1 for li, pi in pairs if preds[pi][2] == labels[li]["value"])
            got = [d.value for d in reading.dice]
        res.dice_found += found
        res.dice_right += right
        res.extras += extras
        exact = right == len(labels) and extras == 0
        res.images_exact += int(exact)
        if not exact:
            res.failures.append({"image": e["image"], "want": sorted(d["value"] for d in labels),
                                 "got": got, "extras": extras})
        if on_image is not None and img is not None:
            on_image(e["image"], img, reading)
    if tracemalloc.is_tracing():
        res.peak_py_mb = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
    return res


def run(root: Path, limit: int | None = None, sources: list[str] | None = None) -> list[SourceResult]:
    cv2.setNumThreads(1)  # the bench measures one core, as on the Pi
    names = sorted(p.name for p in root.iterdir() if (p / "labels.json").is_file())
    if sources:
        names = [n for n in names if n in sources]
    return [bench_source(root / n, limit) for n in names]


def max_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KB on Linux


def table(results: list[SourceResult]) -> str:
    head = ("| source | images | dice labelled | dice found | value accuracy | read right | extras "
            "| images exact | median ms | peak py MB (first 3 frames) |")
    lines = [head, "|" + "---|" * 10]
    for r in results:
        lines.append(
            f"| {r.source} | {r.images} | {r.dice_labelled} | {r.dice_found} | "
            f"{100 * r.value_accuracy:.1f}% | {100 * r.read_right:.1f}% | {r.extras} | "
            f"{r.images_exact} ({100 * r.exact_rate:.0f}%) | {r.median_ms:.1f} | {r.peak_py_mb:.1f} |")
    lines.append(f"\nmax RSS: {max_rss_mb():.0f} MB")
    return "\n".join(lines)


def to_json(results: list[SourceResult]) -> dict[str, Any]:
    return {"sources": [r.summary() for r in results], "max_rss_mb": round(max_rss_mb(), 1)}
