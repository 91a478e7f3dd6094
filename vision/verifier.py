"""A small learned check of a die face: canonical face crop in, (value, probability) out.

A one-hidden-layer perceptron (numpy only) over two 24 x 24 maps of the face crop the
classical reader sees (`pips.face_crop`, N x N): the normalised grey level and the colour
distance from the face colour (polarity free: white pips on black and black pips on white look
alike). Class 0 is "not a readable die face" (table, fixture, half a die), 1..6 the values.
The crop is first turned so that its dominant edges lie on the axes (orientation mod 90
degrees from the gradients) and the probabilities are averaged over the 4 right-angle
rotations of the maps (a face's value does not
depend on them). The model is trained by `python -m vision.train_verifier` (even-indexed photos
and rendered dice only) and ships as `vision/models/face_verifier.npz`.

`classify` never raises: a bad input, or a missing model file, gives (None, 0.0).
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.pips import prepare_image

MODEL_PATH = Path(__file__).resolve().parent / "models" / "face_verifier.npz"
S = 24                  # feature map side
_MODEL: dict | None = None
_LOADED = False

_yy, _xx = np.mgrid[0:S, 0:S].astype(np.float32)
_RAD = np.hypot(_xx - (S - 1) / 2.0, _yy - (S - 1) / 2.0) / S
_CENTRE = _RAD < 0.28          # where the face colour is taken (pips are a minority there)
_LAB_W = np.array([1.0, 2.0, 2.0], np.float32)   # OpenCV 8-bit a/b are compressed vs L


def features(face_bgr: np.ndarray) -> np.ndarray | None:
    """(2, S, S) float32 maps of a BGR face crop, or None when it is not an image."""
    img = prepare_image(face_bgr)  # any image -> BGR uint8, the same way the face stage does
    if img is None:
        return None
    small = cv2.resize(_align(img), (S, S), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32) * _LAB_W
    g = lab[:, :, 0]
    g = (g - g.mean()) / (g.std() + 4.0)
    c = lab[_CENTRE]
    k = len(c) // 2
    ref = np.partition(c, k, axis=0)[k]              # per-channel median of the centre
    d = np.sqrt(((lab - ref) ** 2).sum(axis=2))
    q = d.ravel()
    j = int(0.9 * (q.size - 1))
    d = d / (np.partition(q, j)[j] + 8.0)            # ~90th percentile
    return np.stack([g, d]).astype(np.float32)


def _align(img: np.ndarray) -> np.ndarray:
    """Rotate the crop so that its dominant edges (die outline, pip rows) lie on the axes:
    the orientation mod 90 degrees from the 4th harmonic of the gradient angles."""
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    # sum |g|^2 e^{4i theta} = sum (gx + i gy)^4 / |g|^2, without trigonometry
    m2 = gx * gx + gy * gy + 1e-3
    re2, im2 = gx * gx - gy * gy, 2.0 * gx * gy
    c = float(((re2 * re2 - im2 * im2) / m2).sum())
    s = float((2.0 * re2 * im2 / m2).sum())
    if c * c + s * s < 1e-6:
        return img
    ang = np.degrees(np.arctan2(s, c) / 4.0)
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2.0 - 0.5, h / 2.0 - 0.5), float(ang), 1.0)
    return cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def dihedral(x: np.ndarray) -> np.ndarray:
    """The 8 rotations/flips of (..., C, S, S) maps, stacked on a new first axis."""
    r = [np.rot90(x, k, axes=(-2, -1)) for k in range(4)]
    r += [np.flip(a, -1) for a in r]
    return np.stack(r)


# flat indices of the 4 right-angle rotations of (2, S, S) maps: x.reshape(-1)[_ROT4] -> (4, 2*S*S)
_ROT4 = np.stack([np.rot90(np.arange(2 * S * S).reshape(2, S, S), k, axes=(1, 2)).reshape(-1)
                  for k in range(4)])


def _load() -> dict | None:
    global _MODEL, _LOADED
    if not _LOADED:
        _LOADED = True
        try:
            with np.load(MODEL_PATH) as z:
                m = {k: z[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2", "mu", "sd")}
            # fold the input standardisation into the first layer (one matmul per batch)
            w1 = m["w1"] / m["sd"][:, None]
            m["b1"] = (m["b1"] - (m["mu"] / m["sd"]) @ m["w1"]).astype(np.float32)
            m["w1"] = np.ascontiguousarray(w1, dtype=np.float32)
            m["mu"] = np.zeros_like(m["mu"])
            m["sd"] = np.ones_like(m["sd"])
            _MODEL = m
        except Exception:  # noqa: BLE001 - no model: the verifier abstains
            _MODEL = None
    return _MODEL


def available() -> bool:
    return _load() is not None


def probabilities(feats: np.ndarray, model: dict) -> np.ndarray:
    """Softmax over classes 0..6 for a (B, 2, S, S) batch of maps (no test-time averaging)."""
    x = feats.reshape(len(feats), -1)
    if model["mu"].any() or not (model["sd"] == 1).all():
        x = (x - model["mu"]) / model["sd"]
    h = np.maximum(x @ model["w1"] + model["b1"], 0.0)
    z = h @ model["w2"] + model["b2"]
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def classify_probs(face_bgr: np.ndarray) -> np.ndarray | None:
    """Class probabilities (0: not a readable face, 1..6) averaged over the 4 right-angle
    rotations of the maps (half the cost of all 8 rotations/flips)."""
    model = _load()
    if model is None:
        return None
    f = features(face_bgr)
    if f is None:
        return None
    return probabilities(f.reshape(-1)[_ROT4], model).mean(axis=0)


def classify(face_bgr: np.ndarray) -> tuple[int | None, float]:
    """(value, probability) of a face crop; (None, p) when "not a readable face" wins,
    (None, 0.0) for bad input or no model. Never raises."""
    try:
        p = classify_probs(face_bgr)
        if p is None or not np.all(np.isfinite(p)):
            return None, 0.0
        k = int(np.argmax(p))
        return (k if k > 0 else None), float(p[k])
    except Exception:  # noqa: BLE001
        return None, 0.0
