"""Train the face verifier (`python -m vision.train_verifier [--val] [--out PATH]`).

Training faces, all cut with `pips.face_crop` the way the reader cuts them:
  * rendered dice (`vision.synthetic.render_tray`): every tray style and die colour, sizes
    25-120 px, any rotation, motion blur, noise and glare, cropped from their truth boxes;
  * ONLY the even-indexed images (order of labels.json) of nellbyler_d6 (crops from the label
    boxes, jittered in centre, size and rotation) and casino_crops_chase (the located die and the
    whole crop), with rotation/flip/brightness/blur/noise augmentation. The odd halves are never
    read here: they are for checking the reader (`python -m vision.bench --half odd`);
  * class 0 ("not a readable face"): table, fixtures and strip away from the dice, and crops
    shifted half a die off a die.
`--val` holds out every fourth even-indexed image (positions 3, 7, ... of the even list) and
reports the verifier alone and combined with the classical reader on their faces; that run is
the only model selection (hyper-parameters are fixed below). Without `--val` everything even is
used and the model is written to vision/models/face_verifier.npz.

A one-hidden-layer perceptron, numpy only, seeded: one core, a few minutes.
"""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision import pips, verifier  # noqa: E402
from vision.synthetic import DIE_COLOURS, STYLES, TrayStyle, render_tray  # noqa: E402

SEED = 20261121
HIDDEN = 192
EPOCHS = 60
BATCH = 128
LR = 2e-3
WD = 3e-4
AUG_NELL = 16       # crops per labelled nellbyler die
AUG_CASINO = 24     # crops per casino die
SYN_RENDERS = 700
REAL_WEIGHT = 2.0


def photos_dir() -> Path:
    env = os.environ.get("DICETABLE_PHOTOS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1].parent / "shared" / "dice-photos"


def even_entries(folder: Path) -> list[dict]:
    return json.loads((folder / "labels.json").read_text())[0::2]


def photometric(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    f = face.astype(np.float32)
    f = f * rng.uniform(0.65, 1.35) + rng.uniform(-30, 30)
    if rng.random() < 0.3:  # colour cast
        f = f * rng.uniform(0.85, 1.15, size=3).astype(np.float32)
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.5, 1.3))
    if rng.random() < 0.5:
        f = f + rng.normal(0, rng.uniform(1, 7), f.shape).astype(np.float32)
    if rng.random() < 0.5:
        f = np.flip(f, 1)
    return np.clip(f, 0, 255).astype(np.uint8)


def far_from(p: tuple[float, float], centres: list[tuple[float, float, float]], k: float) -> bool:
    return all(np.hypot(p[0] - x, p[1] - y) > k * s for x, y, s in centres)


def negatives(img: np.ndarray, dice: list[tuple[float, float, float]], n_rand: int, n_shift: int,
              rng: np.random.Generator, side_range: tuple[float, float]) -> list[np.ndarray]:
    """Table, fixtures and half dice: class 0."""
    h, w = img.shape[:2]
    out = []
    tries = 0
    while len(out) < n_rand and tries < 50 * n_rand:
        tries += 1
        side = rng.uniform(*side_range)
        p = (rng.uniform(0, w), rng.uniform(0, h))
        if far_from(p, dice, 0.85):
            out.append(pips.face_crop(img, p, side, rng.uniform(0, 360)))
    for x, y, s in dice[:n_shift] if n_shift else []:
        a = rng.uniform(0, 2 * np.pi)
        r = rng.uniform(0.6, 0.9) * s
        p = (x + r * np.cos(a), y + r * np.sin(a))
        if far_from(p, [d for d in dice if d != (x, y, s)], 0.7):
            out.append(pips.face_crop(img, p, s * rng.uniform(0.9, 1.15), rng.uniform(0, 360)))
    return out


def nellbyler(entries: list[dict], folder: Path, rng: np.random.Generator, aug: int
              ) -> tuple[list[np.ndarray], list[int]]:
    faces, ys = [], []
    for e in entries:
        img = cv2.imread(str(folder / e["image"]), cv2.IMREAD_COLOR)
        if img is None:
            continue
        dice = []
        for d in e["dice"]:
            if d.get("box") is None:
                continue
            x0, y0, x1, y1 = (float(v) for v in d["box"])
            side = max(x1 - x0, y1 - y0)
            cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
            dice.append((cx, cy, side))
            for _ in range(aug):
                j = 0.06 * side
                c = (cx + rng.uniform(-j, j), cy + rng.uniform(-j, j))
                face = pips.face_crop(img, c, side * rng.uniform(0.82, 1.12), rng.uniform(0, 360))
                faces.append(photometric(face, rng))
                ys.append(int(d["value"]))
        if dice:
            med = float(np.median([s for _x, _y, s in dice]))
            for face in negatives(img, dice, 6, len(dice), rng, (0.7 * med, 1.3 * med)):
                faces.append(photometric(face, rng))
                ys.append(0)
    return faces, ys


def casino(entries: list[dict], folder: Path, rng: np.random.Generator, aug: int
           ) -> tuple[list[np.ndarray], list[int]]:
    faces, ys = [], []
    for e in entries:
        img = cv2.imread(str(folder / e["image"]), cv2.IMREAD_COLOR)
        if img is None or not e["dice"]:
            continue
        v = int(e["dice"][0]["value"])
        h, w = img.shape[:2]
        try:
            centre, side, angle = pips.locate_die(img)
        except Exception:  # noqa: BLE001
            centre, side, angle = (w / 2.0, h / 2.0), float(min(h, w)), 0.0
        views = [(centre, side * 1.05), ((w / 2.0, h / 2.0), float(min(h, w)) / pips.CROP_MARGIN)]
        for i in range(aug):
            c, s = views[i % 2]
            j = 0.05 * s
            cc = (c[0] + rng.uniform(-j, j), c[1] + rng.uniform(-j, j))
            face = pips.face_crop(img, cc, s * rng.uniform(0.88, 1.1), rng.uniform(0, 360))
            faces.append(photometric(face, rng))
            ys.append(v)
    return faces, ys


def synthetic(n: int, rng: np.random.Generator) -> tuple[list[np.ndarray], list[int]]:
    faces, ys = [], []
    styles = list(STYLES)
    bodies = list(DIE_COLOURS)
    pip_cols = ("black", "white", "red", "gold")
    for i in range(n):
        die_px = float(np.exp(rng.uniform(np.log(25), np.log(120))))
        k = int(rng.integers(2, 8 if die_px < 70 else 4))
        values = [int(v) for v in rng.integers(1, 7, size=k)]
        cols = []
        for _ in range(k):
            b = bodies[int(rng.integers(len(bodies)))]
            cols.append(b if rng.random() < 0.6 else f"{b}/{pip_cols[int(rng.integers(4))]}")
        style = TrayStyle.preset(styles[i % len(styles)])
        try:
            r = render_tray(values, seed=int(rng.integers(1 << 30)), style=style, die_px=die_px,
                            colours=cols, glare=bool(rng.random() < 0.2),
                            motion_blur=float(rng.uniform(0, 4)) if rng.random() < 0.25 else None,
                            noise_sigma=float(rng.uniform(1, 8)))
        except ValueError:
            continue
        dice = []
        for t in r.truth:
            if t.leaning:
                continue
            dice.append((t.centre[0], t.centre[1], t.size_px))
            for _ in range(2):
                j = 0.06 * t.size_px
                c = (t.centre[0] + rng.uniform(-j, j), t.centre[1] + rng.uniform(-j, j))
                ang = t.angle_deg + rng.uniform(-8, 8) if rng.random() < 0.5 else rng.uniform(0, 360)
                face = pips.face_crop(r.image, c, t.size_px * rng.uniform(0.88, 1.15), ang)
                faces.append(photometric(face, rng))
                ys.append(t.value)
        for face in negatives(r.image, dice, 2, 1, rng, (0.8 * die_px, 1.2 * die_px)):
            faces.append(photometric(face, rng))
            ys.append(0)
    return faces, ys


def featurise(faces: list[np.ndarray]) -> np.ndarray:
    return np.stack([verifier.features(f) for f in faces]).astype(np.float32)


def train(x: np.ndarray, y: np.ndarray, w: np.ndarray, rng: np.random.Generator, log=print) -> dict:
    n, c, s, _ = x.shape
    mu = x.reshape(n, -1).mean(axis=0)
    sd = x.reshape(n, -1).std(axis=0) + 1e-3
    d = c * s * s
    w1 = (rng.normal(0, np.sqrt(2.0 / d), (d, HIDDEN))).astype(np.float32)
    b1 = np.zeros(HIDDEN, np.float32)
    w2 = (rng.normal(0, np.sqrt(1.0 / HIDDEN), (HIDDEN, 7))).astype(np.float32)
    b2 = np.zeros(7, np.float32)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    t = 0
    steps = EPOCHS * (n // BATCH)
    for ep in range(EPOCHS):
        order = rng.permutation(n)
        tot = 0.0
        for bi in range(n // BATCH):
            idx = order[bi * BATCH:(bi + 1) * BATCH]
            xb = x[idx]
            k = int(rng.integers(8))   # one random rotation/flip per batch
            xb = np.ascontiguousarray(verifier.dihedral(xb)[k])
            xb = (xb.reshape(len(idx), -1) - mu) / sd
            yb, wb = y[idx], w[idx]
            h = np.maximum(xb @ w1 + b1, 0.0)
            z = h @ w2 + b2
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            tot += float(-(np.log(p[np.arange(len(idx)), yb] + 1e-9) * wb).sum())
            g = p
            g[np.arange(len(idx)), yb] -= 1.0
            g *= (wb / wb.sum())[:, None]
            gw2 = h.T @ g + WD * w2
            gb2 = g.sum(axis=0)
            gh = (g @ w2.T) * (h > 0)
            gw1 = xb.T @ gh + WD * w1
            gb1 = gh.sum(axis=0)
            t += 1
            lr = LR * 0.5 * (1 + np.cos(np.pi * t / steps))
            for i, gr in enumerate((gw1, gb1, gw2, gb2)):
                m[i] = 0.9 * m[i] + 0.1 * gr
                v[i] = 0.999 * v[i] + 0.001 * gr * gr
                params[i] -= lr * (m[i] / (1 - 0.9 ** t)) / (np.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-8)
        if ep % 5 == 4 or ep == EPOCHS - 1:
            log(f"  epoch {ep + 1}: loss {tot / w.sum() * (n / max(1, (n // BATCH) * BATCH)):.4f}")
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2, "mu": mu.astype(np.float32), "sd": sd.astype(np.float32)}


def predict(model: dict, x: np.ndarray) -> np.ndarray:
    """TTA probabilities for a batch of maps."""
    out = np.zeros((len(x), 7), np.float32)
    for k, xk in enumerate(verifier.dihedral(x)):
        out += verifier.probabilities(np.ascontiguousarray(xk), model)
    return out / 8.0


def validate(model: dict, root: Path, held: dict[str, list[dict]]) -> None:
    """The verifier alone, and with the classical read, on the held-out even images."""
    for name, entries in held.items():
        folder = root / name
        rows = []   # truth, classical value, classical conf, verifier probs
        for e in entries:
            img = cv2.imread(str(folder / e["image"]), cv2.IMREAD_COLOR)
            if img is None:
                continue
            for d in e["dice"]:
                if d.get("box") is None:
                    fr, face = pips.crop_views(img)
                    if face is None:
                        continue
                else:
                    x0, y0, x1, y1 = (float(v) for v in d["box"])
                    face = pips.face_crop(img, ((x0 + x1) / 2, (y0 + y1) / 2), max(x1 - x0, y1 - y0), 0.0)
                    fr = pips.read_face(face)
                rows.append((int(d["value"]), fr.value, fr.confidence, face))
        if not rows:
            continue
        p = predict(model, featurise([r[3] for r in rows]))
        truth = np.array([r[0] for r in rows])
        cls = np.array([r[1] if r[1] is not None else 0 for r in rows])
        vk = p.argmax(axis=1)
        vp = p.max(axis=1)
        n = len(rows)
        print(f"[val] {name}: {n} faces; classical right {np.mean(cls == truth):.3f} "
              f"unsure {np.mean(cls == 0):.3f} wrong {np.mean((cls != 0) & (cls != truth)):.3f}; "
              f"verifier argmax right {np.mean(vk == truth):.3f}")
        for thr in (0.6, 0.7, 0.8, 0.9, 0.95):
            comb = np.where(cls != 0, np.where(vk == cls, cls, 0), np.where((vp >= thr) & (vk > 0), vk, 0))
            comb2 = np.where(cls != 0, np.where((vk == cls) | (vk == 0) | (vp < 0.5), cls, 0),
                             np.where((vp >= thr) & (vk > 0), vk, 0))
            print(f"   thr {thr}: strict right {np.mean(comb == truth):.3f} wrong "
                  f"{np.mean((comb != 0) & (comb != truth)):.3f} | lenient right "
                  f"{np.mean(comb2 == truth):.3f} wrong {np.mean((comb2 != 0) & (comb2 != truth)):.3f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.train_verifier", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--val", action="store_true", help="hold out every 4th even image and report")
    ap.add_argument("--out", default=None, help="model path (default: vision/models/face_verifier.npz)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(SEED)
    root = photos_dir()
    t0 = time.time()
    held: dict[str, list[dict]] = {}
    faces: list[np.ndarray] = []
    ys: list[int] = []
    ws: list[float] = []
    for name, fn, aug in (("nellbyler_d6", nellbyler, AUG_NELL), ("casino_crops_chase", casino, AUG_CASINO)):
        folder = root / name
        if not (folder / "labels.json").is_file():
            print(f"{name}: not found, skipped")
            continue
        ev = even_entries(folder)
        if args.val:
            held[name] = ev[3::4]
            ev = [e for i, e in enumerate(ev) if i % 4 != 3]
        f, y = fn(ev, folder, rng, aug)
        print(f"{name}: {len(ev)} even images -> {len(f)} faces ({sum(v > 0 for v in y)} dice, "
              f"{sum(v == 0 for v in y)} not-a-face)")
        faces += f
        ys += y
        ws += [REAL_WEIGHT] * len(f)
    f, y = synthetic(SYN_RENDERS, rng)
    print(f"synthetic: {SYN_RENDERS} renders -> {len(f)} faces ({sum(v > 0 for v in y)} dice, "
          f"{sum(v == 0 for v in y)} not-a-face)")
    faces += f
    ys += y
    ws += [1.0] * len(f)
    x = featurise(faces)
    y_arr = np.array(ys, np.int64)
    w_arr = np.array(ws, np.float32)
    print(f"training set: {len(y_arr)} faces, class counts {np.bincount(y_arr, minlength=7).tolist()} "
          f"({time.time() - t0:.0f} s)")
    model = train(x, y_arr, w_arr, rng)
    acc = float(np.mean(predict(model, x[:4000]).argmax(axis=1) == y_arr[:4000]))
    print(f"trained ({time.time() - t0:.0f} s); train accuracy (first 4000) {acc:.3f}")
    out = Path(args.out) if args.out else (Path("/tmp/face_verifier_val.npz") if args.val else verifier.MODEL_PATH)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **{k: v.astype(np.float16) if k in ("w1", "w2") else v for k, v in model.items()})
    print(f"saved {out} ({out.stat().st_size / 1024:.0f} KB)")
    if args.val:
        loaded = {k: v.astype(np.float32) for k, v in np.load(out).items()}
        validate(loaded, root, held)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
