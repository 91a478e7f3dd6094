"""Train the two small networks of `vision.dicenet` (a developer tool; needs PyTorch).

    pip install torch==2.13.0 onnx   # into a scratch venv, not the project's
    python -m vision.train_dicenet --photos ../shared/dice-photos --half even --out vision/models

Why learned: the classical segmenter missed ~15% of the Byler dice (dark tray rims, white dice
on a white tray) and the classical face stage left ~17% of the found ones unread. A die is a
texture a small convolutional network learns quickly from a few hundred labelled dice plus the
synthetic renderer's endless, perfectly labelled ones.

Data: the labelled photos of the chosen half (`--half even` trains on even-indexed images of
every source, so the odd ones stay unseen for the benchmark) plus rendered trays
(`vision.synthetic`) in every colour, size, light and blur the renderer knows. Nothing is
downloaded. The output is two ONNX files that OpenCV's dnn module runs at the table; PyTorch is
not needed there.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path

import cv2
import numpy as np

from vision import dicenet
from vision.bench import HALVES, select
from vision.synthetic import DIE_COLOURS, STYLES, TrayStyle, render_tray

PIP_COLOURS = ("red", "red", "gold", "black", "white")
# The bodies the shipped nets were trained on. Purple, orange, gold and marbled gold (added to
# the renderer later) made a verifier trained with them read worse on the odd Byler half
# (425 right / 21 unread / 5 wrong vs 433 / 15 / 4), so they stay out of training for now.
TRAIN_BODIES = tuple(c for c in DIE_COLOURS if c not in ("purple", "orange", "gold", "marbled_gold"))

# --------------------------------------------------------------------------- data


def load_photos(root: Path, half: str, byler_half: str | None = None
                ) -> dict[str, list[tuple[np.ndarray, list[tuple[float, float, float, int]]]]]:
    """{source: [(BGR image, [(cx, cy, side, value)])]} for the chosen half of every source.

    `byler_half` (default: `half`) picks the Byler trays on their own, so that nets can learn
    from every Byler photo while the other sources' odd halves stay unseen for the benchmark."""
    out: dict[str, list] = {}
    for src in ("nellbyler_d6", "roboflow_dice_v3_epanemu", "casino_crops_chase"):
        labels = json.loads((root / src / "labels.json").read_text())
        part = (byler_half or half) if src == "nellbyler_d6" else half
        items = []
        for e in select(labels, part):       # the benchmark's halves, so it never reads a training photo
            img = cv2.imread(str(root / src / e["image"]), cv2.IMREAD_COLOR)
            if img is None:
                continue
            dice = []
            for d in e["dice"]:
                if d["box"] is None:   # single-die crop: the die fills most of the image
                    h, w = img.shape[:2]
                    dice.append((w / 2, h / 2, 0.8 * min(w, h), int(d["value"])))
                else:
                    x0, y0, x1, y1 = d["box"]
                    dice.append(((x0 + x1) / 2, (y0 + y1) / 2, ((x1 - x0) + (y1 - y0)) / 2, int(d["value"])))
            items.append((img, dice))
        out[src] = items
    return out


def render_scenes(n: int, seed: int) -> list[tuple[np.ndarray, list[tuple[float, float, float, int]], list[tuple[float, float, float]]]]:
    """Rendered trays: (image, readable dice, leaning dice (cx, cy, side)) in varied looks."""
    rng = random.Random(seed)
    styles = list(STYLES)
    out = []
    for k in range(n):
        w, h = rng.choice([(640, 480), (640, 480), (480, 480), (800, 600)])
        st = TrayStyle.preset(rng.choice(styles))
        felt = tuple(int(rng.uniform(15, 235)) for _ in range(3)) if rng.random() < 0.4 else st.felt_bgr
        st = TrayStyle.preset(rng.choice(styles), felt_bgr=felt, brightness=rng.uniform(0.45, 1.25),
                              noise_sigma=rng.uniform(1, 6), shadow=rng.uniform(0.1, 0.7),
                              vignette=rng.uniform(0, 0.35), gradient=rng.uniform(0, 0.3))
        die_px = rng.uniform(22, 110)
        nd = rng.randint(1, 10 if die_px > 60 else 16)
        values = [rng.randint(1, 6) for _ in range(nd)]
        # bodies with their usual pips, or with red / gold / black / white ones (the Byler
        # trays have red pips on black and marbled dice, the hardest faces to read)
        colours = [rng.choice(TRAIN_BODIES) + ("/" + rng.choice(PIP_COLOURS) if rng.random() < 0.45 else "")
                   for _ in range(nd)]
        leaning = [i for i in range(nd) if rng.random() < 0.06]
        try:
            r = render_tray(values, seed=seed * 100000 + k, size=(w, h), style=st, die_px=die_px,
                            colours=colours, touching=rng.randint(0, nd // 2), leaning=leaning,
                            hands=rng.random() < 0.1, glare=rng.random() < 0.15,
                            motion_blur=rng.choice([0, 0, 0, 2, 4]))
        except ValueError:
            continue
        dice, lean = [], []
        for d in r.truth:
            x0, y0, x1, y1 = d.box
            t = ((x0 + x1) / 2, (y0 + y1) / 2, ((x1 - x0) + (y1 - y0)) / 2)
            (lean.append(t) if d.leaning else dice.append((*t, d.value)))
        out.append((r.image, dice, lean))
    return out


GREY_FRAC = 0.0    # share of training images turned grey (0.15 hid red pips on dark dice: worse)
SWAP_FRAC = 0.5    # share of training images whose colour channels are shuffled (see --swap)


def _set_swap(frac: float) -> None:
    global SWAP_FRAC
    SWAP_FRAC = frac


def _photometric(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour, light, blur, noise and JPEG changes a camera or a tray could plausibly make."""
    x = img.astype(np.float32)
    if rng.random() < SWAP_FRAC:
        x = x[:, :, rng.permutation(3)]
    if rng.random() < GREY_FRAC:
        g = x.mean(axis=2, keepdims=True)
        x = np.repeat(g, 3, axis=2)
    x = x * rng.uniform(0.75, 1.25, 3).astype(np.float32)            # white balance
    c = rng.uniform(0.6, 1.3)
    x = (x - x.mean()) * c + x.mean() * rng.uniform(0.6, 1.3)       # contrast, exposure
    if rng.random() < 0.3:                                            # light gradient
        h, w = x.shape[:2]
        a = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ramp = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)
        x = x * (1 + rng.uniform(0.2, 0.6) * ramp)[:, :, None]
    x = np.clip(x, 0, 255).astype(np.uint8)
    r = rng.random()
    if r < 0.2:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.5, 1.4))
    elif r < 0.3:
        k = int(rng.integers(3, 6))
        ker = np.zeros((k, k), np.float32)
        ker[k // 2, :] = 1.0 / k
        m = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        x = cv2.filter2D(x, -1, cv2.warpAffine(ker, m, (k, k)))
    if rng.random() < 0.5:
        x = np.clip(x + rng.normal(0, rng.uniform(1, 6), x.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, enc = cv2.imencode(".jpg", x, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 90))])
        x = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return x


def detector_samples(scenes, n: int, rng: np.random.Generator, patch: int = dicenet.DET_PATCH):
    """n (patch, heat target, size target, mask) training tuples at the detector's scale."""
    S = dicenet.DET_STRIDE
    g = patch // S
    X = np.zeros((n, patch, patch, 3), np.uint8)
    H = np.zeros((n, 1, g, g), np.float32)
    Z = np.zeros((n, 3, g, g), np.float32)   # log side, dx, dy at centres
    M = np.zeros((n, 1, g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for i in range(n):
        img, dice, lean = scenes[int(rng.integers(len(scenes)))][:3]
        sides = [d[2] for d in dice] or [40.0]
        target = rng.uniform(dicenet.DET_DIE_MIN, dicenet.DET_DIE_MAX)
        s = target / float(np.median(sides))
        ang = float(rng.uniform(0, 360)) if rng.random() < 0.7 else float(rng.integers(4) * 90)
        hgt, wid = img.shape[:2]
        # centre the patch on a die most of the time, anywhere otherwise
        if dice and rng.random() < 0.8:
            d = dice[int(rng.integers(len(dice)))]
            cx, cy = d[0] + rng.uniform(-1, 1) * patch / s / 3, d[1] + rng.uniform(-1, 1) * patch / s / 3
        else:
            cx, cy = rng.uniform(0, wid), rng.uniform(0, hgt)
        m = cv2.getRotationMatrix2D((cx, cy), ang, s)
        m[0, 2] += patch / 2 - cx
        m[1, 2] += patch / 2 - cy
        border = cv2.BORDER_REFLECT if rng.random() < 0.5 else cv2.BORDER_CONSTANT
        X[i] = _photometric(cv2.warpAffine(img, m, (patch, patch), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR,
                                           borderMode=border, borderValue=tuple(int(v) for v in rng.integers(0, 255, 3))), rng)
        for (dx, dy, side, _v) in dice:
            px = m[0, 0] * dx + m[0, 1] * dy + m[0, 2]
            py = m[1, 0] * dx + m[1, 1] * dy + m[1, 2]
            sd = side * s
            if not (-sd / 2 < px < patch + sd / 2 and -sd / 2 < py < patch + sd / 2):
                continue
            gx, gy = px / S - 0.5, py / S - 0.5
            sig = max(0.6, sd / S / 6)
            H[i, 0] = np.maximum(H[i, 0], np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sig * sig)))
            ix, iy = int(round(gx)), int(round(gy))
            if 0 <= ix < g and 0 <= iy < g:
                H[i, 0, iy, ix] = 1.0
                Z[i, :, iy, ix] = (math.log(sd), gx - ix, gy - iy)
                M[i, 0, iy, ix] = 1.0
    return X, H, Z, M


def classifier_samples(scenes, n: int, rng: np.random.Generator, neg_frac: float = 0.25,
                       shear: float = 0.0, size: int | None = None, token_frac: float = 0.0):
    """n (crop, label) pairs: label 0 = not a die centred here, 1..6 the top face."""
    C = size or dicenet.CLS_SIZE
    X = np.zeros((n, C, C, 3), np.uint8)
    Y = np.zeros(n, np.int64)
    for i in range(n):
        img, dice, lean = scenes[int(rng.integers(len(scenes)))][:3]
        if not dice:
            continue
        hgt, wid = img.shape[:2]
        d = dice[int(rng.integers(len(dice)))]
        side = d[2] * rng.uniform(0.8, 1.25)
        cx, cy, label = d[0], d[1], d[3]
        cx += rng.normal(0, 0.07) * side
        cy += rng.normal(0, 0.07) * side
        if rng.random() < neg_frac:
            label = 0
            r = rng.random()
            if r < 0.4:      # beside the die: half a die, or the gap between two
                a = rng.uniform(0, 2 * math.pi)
                dist = rng.uniform(0.55, 1.1) * side
                cx, cy = d[0] + dist * math.cos(a), d[1] + dist * math.sin(a)
            elif r < 0.7 and lean:
                cx, cy, side = lean[int(rng.integers(len(lean)))]
            else:            # anywhere away from every die
                for _ in range(20):
                    cx, cy = rng.uniform(0, wid), rng.uniform(0, hgt)
                    if all(math.hypot(cx - e[0], cy - e[1]) > 0.6 * e[2] for e in dice):
                        break
            # a centred die close by still counts as that die
            for e in dice:
                if math.hypot(cx - e[0], cy - e[1]) < 0.2 * e[2]:
                    label = e[3]
        s = C / (dicenet.CLS_MARGIN * side)
        m = cv2.getRotationMatrix2D((cx, cy), float(rng.uniform(0, 360)), s)
        if shear and rng.random() < 0.5:
            # a camera not square above the die (or a die off the optical axis) sees its face
            # as a parallelogram: stretch and shear the crop a little about its centre
            a = np.array([[1 + rng.uniform(-shear, shear), rng.uniform(-shear, shear)],
                          [0.0, 1 + rng.uniform(-shear, shear)]])
            c0 = m[:, :2] @ [cx, cy] + m[:, 2]         # where the die's centre lands (stays put)
            m = np.hstack([a @ m[:, :2], (a @ m[:, 2] + c0 - a @ c0)[:, None]])
        m[0, 2] += C / 2 - cx
        m[1, 2] += C / 2 - cy
        crop = dicenet.warp_crop(img, m, C)
        if label and rng.random() < neg_frac * 0.15:
            crop, label = _blank_face(crop, rng), 0
        elif not label and rng.random() < token_frac:
            crop = _round_token(crop, rng)
        X[i] = _photometric(crop, rng)
        Y[i] = label
    return X, Y


def _blank_face(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The die's face painted over with its own body colour: a die-shaped blank (a sticker, a
    blank die, a sugar cube) that must never get a value."""
    C = crop.shape[0]
    body = np.median(crop[C // 3: 2 * C // 3, C // 3: 2 * C // 3].reshape(-1, 3), axis=0) \
        if rng.random() < 0.5 else rng.integers(0, 256, 3)
    half = C / (2 * dicenet.CLS_MARGIN) * rng.uniform(0.8, 0.95)
    box = cv2.boxPoints(((C / 2, C / 2), (2 * half, 2 * half), float(rng.uniform(0, 90))))
    out = crop.copy()
    cv2.fillConvexPoly(out, np.round(box).astype(np.int32), _bgr(body), lineType=cv2.LINE_AA)
    return out


def _round_token(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A round thing of a die's size painted on a crop of no die: a coin, a light button, a
    game's number token. Plain or marked (a dot, a ring, a number, a row of dots), it is round,
    and a die never is. Without these, a disc with a mark at its centre read as a 1, up to 0.98
    sure (the number tokens of a board game beside the dice, in the roboflow photos).
    Only light or metal-coloured things, from 0.85 of a die's side: trained on dark discs too,
    the classifier gave a black or blue 25 px die showing 1 0.36-0.76 "not a die" (from 0.02),
    and the reader dropped one, since at that size a dark disc with a light dot differs from
    such a die by its corners alone. What a classifier trained with them gains and costs, and
    why it is not shipped: docs/vision.md, Limits ("Round things touching a die")."""
    C = crop.shape[0]
    r = C / (2 * dicenet.CLS_MARGIN) * rng.uniform(0.85, 1.25)
    ry = r * (rng.uniform(0.7, 1.0) if rng.random() < 0.5 else 1.0)     # a disc seen obliquely
    angle = float(rng.uniform(0, 180))
    body = rng.integers(120, 256, 3)
    out = crop.copy()
    cv2.ellipse(out, ((C / 2, C / 2), (2 * r, 2 * ry), angle), _bgr(body), -1, cv2.LINE_AA)
    if rng.random() < 0.3:      # a rim (a coin's edge, a token's printed ring)
        rim = np.clip(body.astype(int) + rng.integers(-90, 91, 3), 0, 255)
        cv2.ellipse(out, ((C / 2, C / 2), (1.7 * r, 1.7 * ry), angle), _bgr(rim), 1, cv2.LINE_AA)
    ink = rng.integers(0, 90, 3) if body.mean() > 128 else rng.integers(165, 256, 3)
    mark = rng.random()
    if mark < 0.3:              # a dot: the die face it must not pass for is a 1
        cv2.circle(out, (C // 2, C // 2), max(1, round(r * rng.uniform(0.12, 0.35))), _bgr(ink), -1, cv2.LINE_AA)
    elif mark < 0.65:           # a number, maybe with a row of dots under it
        text = str(int(rng.integers(2, 13)))
        scale = r / 26 * rng.uniform(0.7, 1.1)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        cv2.putText(out, text, (round(C / 2 - tw / 2), round(C / 2 + th / 2)), cv2.FONT_HERSHEY_SIMPLEX,
                    scale, _bgr(ink), 1, cv2.LINE_AA)
        for j in range(int(rng.integers(0, 6))):
            cv2.circle(out, (round(C / 2 + (j - 2) * r * 0.2), round(C / 2 + r * 0.55)), 1, _bgr(ink), -1)
    elif mark < 0.8:            # an embossed ring
        cv2.circle(out, (C // 2, C // 2), max(2, round(r * rng.uniform(0.3, 0.6))), _bgr(ink), 1, cv2.LINE_AA)
    if rng.random() < 0.5:      # the light on a coin: brighter on one side
        g = np.linspace(-1, 1, C, dtype=np.float32)
        ramp = (np.cos(rng.uniform(0, 2 * np.pi)) * g[None, :] + np.sin(rng.uniform(0, 2 * np.pi)) * g[:, None])
        out = np.clip(out.astype(np.float32) * (1 + 0.25 * ramp[..., None]), 0, 255).astype(np.uint8)
    return out


def _bgr(c: np.ndarray) -> tuple[int, int, int]:
    return (int(c[0]), int(c[1]), int(c[2]))


# --------------------------------------------------------------------------- training


def _to_tensor(x: np.ndarray):
    import torch
    return torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2))).float() / 255.0 - 0.5


def detector_model(arch: str = "fast"):
    """Stride-4 output; dilated layers give a ~60 px receptive field (a die up to ~30 px and
    what is around it). "fast" reaches stride 4 in two strided layers: ~100 M multiply-adds on
    a 256 x 256 input, a third of "base"."""
    import torch.nn as nn

    def cbr(i, o, s=1, d=1):
        return [nn.Conv2d(i, o, 3, s, d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]
    if arch == "fast":
        return nn.Sequential(*cbr(3, 12, 2), *cbr(12, 24, 2), *cbr(24, 24), *cbr(24, 32, 1, 2),
                             *cbr(32, 32, 1, 4), nn.Conv2d(32, 4, 1))
    return nn.Sequential(*cbr(3, 16, 2), *cbr(16, 16), *cbr(16, 32, 2), *cbr(32, 32), *cbr(32, 32, 1, 2),
                         *cbr(32, 32, 1, 4), nn.Conv2d(32, 4, 1))


def classifier_model(arch: str = "base"):
    """"base" (shipped): two layers at full resolution before the first pooling, so that pips of
    two or three pixels (red on a dark die) are seen before they are pooled away; ~10 M
    multiply-adds for a 32 x 32 crop. "fast": pooled after the first layer, ~8 M; on the odd
    Byler half it read 11 dice fewer (89.9% vs 92.3%). "wide" (the verifier): more channels
    and a layer more at each scale, ~26 M (2.2-2.4x the time of "base" in OpenCV's dnn); alone it
    read 12 more dice of the odd Byler half than "base" (95.0%), too slow for every die."""
    import torch.nn as nn

    def cbr(i, o):
        return [nn.Conv2d(i, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]
    if arch == "fast":
        return nn.Sequential(*cbr(3, 16), nn.MaxPool2d(2), *cbr(16, 32), *cbr(32, 32), nn.MaxPool2d(2),
                             *cbr(32, 64), *cbr(64, 64), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 7))
    if arch == "wide":
        return nn.Sequential(*cbr(3, 24), *cbr(24, 32), nn.MaxPool2d(2), *cbr(32, 48), *cbr(48, 48), nn.MaxPool2d(2),
                             *cbr(48, 96), *cbr(96, 96), nn.MaxPool2d(2), *cbr(96, 128), nn.AdaptiveAvgPool2d(1),
                             nn.Flatten(), nn.Dropout(0.2), nn.Linear(128, 7))
    return nn.Sequential(*cbr(3, 16), *cbr(16, 24), nn.MaxPool2d(2), *cbr(24, 32), *cbr(32, 32), nn.MaxPool2d(2),
                         *cbr(32, 64), nn.MaxPool2d(2), *cbr(64, 64), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                         nn.Linear(64, 7))


def _focal(pred, heat):
    import torch
    p = torch.sigmoid(pred).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = 1 - pos
    lpos = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    lneg = -(torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * neg).sum()
    return (lpos + lneg) / pos.sum().clamp(min=1)


def _fit(model, make_epoch, loss_of, n: int, batch: int, epochs: int, seed: int, log, name: str):
    """The one training loop: fresh augmented samples every epoch (`make_epoch(rng)` -> tensors,
    first axis = sample), AdamW with a one-cycle learning rate, mean loss logged per epoch."""
    import torch
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 4e-3, total_steps=epochs * (n // batch))
    for ep in range(epochs):
        t = time.time()
        data = make_epoch(rng)
        model.train()
        perm = torch.randperm(n)
        tot = 0.0
        for b in range(n // batch):
            idx = perm[b * batch:(b + 1) * batch]
            loss = loss_of(model, *(d[idx] for d in data))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach())
        log(f"{name} epoch {ep + 1}/{epochs}: loss {tot / (n // batch):.3f} ({time.time() - t:.0f} s)")
    return model.eval()


def train_detector(scenes, n: int, epochs: int, seed: int, log, arch: str = "fast"):
    import torch

    def make_epoch(rng):
        X, H, Z, M = detector_samples(scenes, n, rng)
        return _to_tensor(X), torch.from_numpy(H), torch.from_numpy(Z), torch.from_numpy(M)

    def loss_of(model, X, H, Z, M):
        out = model(X)
        size_offset = (torch.abs(out[:, 1:] - Z) * M).sum() / M.sum().clamp(min=1)
        return _focal(out[:, :1], H) + size_offset

    return _fit(detector_model(arch), make_epoch, loss_of, n, 32, epochs, seed, log, "detector")


def train_classifier(scenes, n: int, epochs: int, seed: int, log, shear: float = 0.0, size: int | None = None,
                     arch: str = "base", tokens: float = 0.0):
    import torch
    import torch.nn.functional as F

    def make_epoch(rng):
        X, Y = classifier_samples(scenes, n, rng, shear=shear, size=size, token_frac=tokens)
        return _to_tensor(X), torch.from_numpy(Y)

    def loss_of(model, X, Y):
        return F.cross_entropy(model(X), Y, label_smoothing=0.05)

    return _fit(classifier_model(arch), make_epoch, loss_of, n, 64, epochs, seed, log, "classifier")


def export(model, shape: tuple[int, ...], path: Path, dynamic: bool) -> None:
    import torch
    x = torch.zeros(*shape)
    axes = {"x": {0: "n", 2: "h", 3: "w"}} if dynamic else {"x": {0: "n"}}
    torch.onnx.export(model, x, str(path), dynamo=False, opset_version=13, input_names=["x"],
                      output_names=["y"], dynamic_axes=axes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.train_dicenet", description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=Path, default=Path("../shared/dice-photos"))
    ap.add_argument("--half", choices=HALVES, default="even")
    ap.add_argument("--byler-half", choices=HALVES,
                    help="the Byler trays' own half (default: --half); see docs/vision.md, Training")
    ap.add_argument("--out", type=Path, default=dicenet.MODEL_DIR)
    ap.add_argument("--renders", type=int, default=500)
    ap.add_argument("--det-samples", type=int, default=4000)
    ap.add_argument("--det-epochs", type=int, default=24)
    ap.add_argument("--cls-samples", type=int, default=30000)
    ap.add_argument("--cls-epochs", type=int, default=24)
    ap.add_argument("--only", choices=("det", "cls", "both"), default="both")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--detector", type=Path, help="with --only cls: the detector used to mine hard negatives")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--mine-target", type=float, help="the mining detector's DET_DIE_TARGET, when not this one's")
    ap.add_argument("--byler-weight", type=int, default=8, help="classifier: how many times the Byler trays count")
    ap.add_argument("--det-arch", choices=("fast", "base"), default="fast")
    ap.add_argument("--cls-arch", choices=("fast", "base", "wide"),
                    help="classifier architecture (default: base; wide with --verifier)")
    ap.add_argument("--verifier", action="store_true",
                    help="with --only cls: train the verifier (face_verifier.onnx) instead of the classifier")
    # Off by default: the shipped classifier was trained without them (see _round_token)
    ap.add_argument("--tokens", type=float, default=0.0,
                    help="classifier: share of its 'not a die' crops painted with a round token (coin, number "
                         "token); 0.25 was tried on 2026-11-25")
    ap.add_argument("--shear", type=float, default=0.0,
                    help="classifier: half the crops stretched/sheared by up to this (oblique views)")
    ap.add_argument("--swap", type=float, default=SWAP_FRAC,
                    help="share of training crops and patches whose colour channels are shuffled")
    a = ap.parse_args(argv)
    _set_swap(a.swap)
    import torch
    torch.set_num_threads(a.threads)
    t0 = time.time()

    def log(msg: str) -> None:
        print(f"[{time.time() - t0:6.0f} s] {msg}", flush=True)

    photos = load_photos(a.photos, a.half, a.byler_half)
    log("photos: " + ", ".join(f"{k} {len(v)}" for k, v in photos.items()))
    scenes = render_scenes(a.renders, a.seed)
    log(f"rendered {len(scenes)} trays")
    a.out.mkdir(parents=True, exist_ok=True)
    byler = [(im, d, []) for im, d in photos["nellbyler_d6"]]
    flat = [(im, d, []) for im, d in photos["roboflow_dice_v3_epanemu"]]
    crops = [(im, d, []) for im, d in photos["casino_crops_chase"]]
    if a.only in ("det", "both"):
        # The detector learns from whole scenes: Byler trays (weighted x4: the closest to a table
        # camera) and renders. Roboflow's oblique, stretched scenes with noisy boxes are left out.
        det = train_detector(byler * 4 + scenes, a.det_samples, a.det_epochs, a.seed, log, a.det_arch)
        export(det, (1, 3, dicenet.DET_PATCH, dicenet.DET_PATCH), a.out / dicenet.DET_FILE.name, True)
        log(f"wrote {a.out / dicenet.DET_FILE.name}")
    if a.only in ("cls", "both"):
        # hard negatives: what the detector finds on the photos that is not a labelled die
        # (fixtures, screw heads, shadows), taught to the classifier as "not a die"
        if a.only == "cls" and a.detector:
            dicenet.DET_FILE = a.detector
        else:
            dicenet.DET_FILE = a.out / dicenet.DET_FILE.name
        dicenet._NETS.clear()
        target = dicenet.DET_DIE_TARGET
        if a.mine_target:
            dicenet.DET_DIE_TARGET = a.mine_target
        mined = 0
        for sc in byler + flat:
            for f in dicenet.find_dice(sc[0]):
                if all(abs(f.centre[0] - d[0]) > 0.5 * d[2] or abs(f.centre[1] - d[1]) > 0.5 * d[2] for d in sc[1]):
                    sc[2].append((f.centre[0], f.centre[1], f.side))
                    mined += 1
        dicenet.DET_DIE_TARGET = target
        log(f"mined {mined} hard negatives")
        # the verifier is the same kind of classifier, bigger ("wide"), on its own crop size
        arch = a.cls_arch or ("wide" if a.verifier else "base")
        size = dicenet.VERIFY_SIZE if a.verifier else dicenet.CLS_SIZE
        name = dicenet.VERIFY_FILE.name if a.verifier else dicenet.CLS_FILE.name
        cls = train_classifier(byler * a.byler_weight + flat + crops + scenes, a.cls_samples, a.cls_epochs,
                               a.seed + 1, log, shear=a.shear, arch=arch, size=size, tokens=a.tokens)
        export(cls, (1, 3, size, size), a.out / name, False)
        log(f"wrote {a.out / name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
