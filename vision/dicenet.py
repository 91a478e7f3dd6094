"""Two small learned stages that find dice and read their top faces (run by onnxruntime or OpenCV's dnn).

1. The *detector* is a fully convolutional network over the frame scaled so that a die is
   about DET_DIE_TARGET px wide. Every 4x4 cell says how likely a die's centre is there, the
   die's size and the centre's offset inside the cell (a "centre heat map" detector).
2. The *classifier* looks at each found die on its own, in a 32 x 32 crop scaled to the die, and
   says "not a die" or its top value 1..6, with a probability.

Why: the classical segmenter lost dice against dark tray rims and white dice on white trays,
and the classical face stage could not read red pips on marbled dice. Both nets are trained by
`vision.train_dicenet` on the even-indexed labelled photos and on rendered trays; they ship as
ONNX files of 100 and 300 KB in vision/models and need nothing beyond OpenCV at the table
(onnxruntime, where it is installed, runs them faster: `vision.net_runtime`).

Nothing here raises on a bad frame: `available()` is False when a model file is missing or
broken, and the reader then falls back to the classical stages alone. A net that fails to run
(onnxruntime raising mid-game: a model file replaced by another net, a library fault) is loaded
again on OpenCV's dnn; one that fails there too is set aside (`NetFailed`: the reader reads the
frame again without it). Each such trouble is logged once and kept in `troubles()`, for the
table to tell the staff once on screen: before, a net that raised made every reading "the
camera's picture cannot be used" for the rest of the evening, and a missing model file was
said nowhere but by `dicetable check`.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import net_runtime

MODEL_DIR = Path(__file__).resolve().parent / "models"
DET_FILE = MODEL_DIR / "dice_detector.onnx"
CLS_FILE = MODEL_DIR / "face_classifier.onnx"
VERIFY_FILE = MODEL_DIR / "face_verifier.onnx"

DET_STRIDE = 4          # one output cell per 4x4 input pixels
DET_PATCH = 192         # training patch side
DET_DIE_MIN = 9.0       # die sides (input px) the detector is trained on
DET_DIE_MAX = 30.0
DET_DIE_TARGET = 16.0   # the scale a frame is brought to once the die size is known
DET_THRESHOLD = 0.3     # centre heat needed for a die
CLS_SIZE = 32           # classifier crop side
CLS_MARGIN = 1.3        # crop side = this x die side: the die and a rim of what is around it
VERIFY_SIZE = 32        # the verifier's crop side
DET_OUTPUT = (1, 4, None, None)     # heat, log side, x and y offsets on the input's grid
CLS_OUTPUT = (1, 7)                 # "not a die", then the values 1..6 (the classifier's and the verifier's)


Box = tuple[float, float, float, float]      # x0, y0, x1, y1 in frame pixels

log = logging.getLogger(__name__)


class NetFailed(RuntimeError):
    """A net failed to run on every runtime that loads it: it is set aside from now on, and the
    reading under way must be done again without it."""


@dataclass(frozen=True)
class Trouble:
    """What the staff are told once of the nets. `words`: the screen's (short); `lasting`: it
    holds until the program is reinstalled (dice read less well), else it was put right at once
    (onnxruntime failed, OpenCV's dnn took over: the same readings, a little slower)."""

    words: str
    lasting: bool


@dataclass(frozen=True)
class Found:
    """A die the detector found, in frame pixels."""

    centre: tuple[float, float]
    side: float                     # side of the die's axis-aligned box
    score: float                    # centre heat 0..1

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Axis-aligned x0, y0, x1, y1 (not clipped to the frame)."""
        h = self.side / 2
        return (self.centre[0] - h, self.centre[1] - h, self.centre[0] + h, self.centre[1] + h)


_NETS: dict[tuple[str | None, str], net_runtime.Net] = {}
_BROKEN: set[tuple[str | None, str]] = set()
_TROUBLES: dict[tuple[str | None, str], Trouble] = {}     # the last trouble of each net (see troubles)

#: what the reader loses without each net (the verifier is optional: see verifier_available)
_WITHOUT = {"face_verifier.onnx": "unsure dice are read less well"}
_WITHOUT_MAIN = "dice are read by the classical stages alone, less well"


def _net(path: Path) -> net_runtime.Net | None:
    """The net in `path`, loaded once per runtime asked for (`net_runtime.use`), or None."""
    key = (net_runtime.wanted(), str(path))
    if key in _BROKEN:
        return None
    net = _NETS.get(key)
    if net is None:
        net = net_runtime.load(path)
        if net is None:
            _BROKEN.add(key)
            _trouble(key, f"the model file {Path(path).name} {_what_is_wrong(Path(path))}", "")
            return None
        refused = net_runtime.refused.pop(str(path), None)
        if refused is not None:       # (no session of it: onnxruntime's own fault, OpenCV reads it)
            _trouble(key, f"onnxruntime cannot load {Path(path).name}", refused, lasting=False)
        _NETS[key] = net
    return net


def _what_is_wrong(path: Path) -> str:
    """Why a model file does not load, in the staff's words."""
    if path.is_dir():
        return "is a folder, not a file"
    if not path.exists():
        return "is missing"
    return "is damaged (cut short or not a model)"


def _trouble(key: tuple[str | None, str], what: str, detail: str, lasting: bool = True) -> None:
    """Log a net's trouble once and keep it for the screen (`troubles`)."""
    name = Path(key[1]).name
    if lasting:
        words = f"Dice reader: {what}: {_WITHOUT.get(name, _WITHOUT_MAIN)}. Reinstall the program (dicetable check)."
    else:
        words = f"Dice reader: {what}; it runs on OpenCV instead, a little slower: the dice are read as well."
    log.log(logging.ERROR if lasting else logging.WARNING, "%s%s", words, f" ({detail})" if detail else "")
    _TROUBLES[key] = Trouble(words, lasting)


def tried() -> tuple[Trouble, ...]:
    """Each net loaded and run once on a blank input of its size, for `dicetable check`: a model
    file that loads but does not run (another net in its place) is found before a game. Returns
    the nets' troubles then (`troubles`)."""
    for path, size in ((DET_FILE, DET_PATCH), (CLS_FILE, CLS_SIZE), (VERIFY_FILE, VERIFY_SIZE)):
        blob = np.zeros((1, 3, size, size), np.float32)
        shape = DET_OUTPUT if path == DET_FILE else CLS_OUTPUT
        try:
            _run(path, blob, shape)
        except NetFailed:
            pass
    return troubles()


def troubles() -> tuple[Trouble, ...]:
    """The troubles of the nets the reader uses now (the runtime asked for, these model files),
    each told once in the log already: for the table to tell the staff on screen."""
    wanted = net_runtime.wanted()
    files = {str(DET_FILE), str(CLS_FILE), str(VERIFY_FILE)}
    return tuple(t for (runtime, path), t in _TROUBLES.items() if runtime == wanted and path in files)


def _run(path: Path, blob: np.ndarray, shape: tuple[int | None, ...]) -> np.ndarray:
    """The net in `path` run on `blob`, its output checked to be `shape` (None: any size there:
    the detector's grid is not checked, only that it gives its four maps). A net onnxruntime fails
    to run is loaded again on OpenCV's dnn and run there; one that fails on OpenCV too is set
    aside (NetFailed). Why: an exception here, every reading, made the table say "the camera's
    picture cannot be used" at each throw. The shape, because another net in a model file's
    place (the classifier copied over the detector) runs on OpenCV, and its output broke the
    reader further on in the same way."""
    key = (net_runtime.wanted(), str(path))
    net = _net(path)
    if net is None:
        raise NetFailed(f"{Path(path).name} does not load")
    try:
        return _shaped(net.run(blob), shape)
    except Exception as e:          # (onnxruntime's and OpenCV's errors have no common base)
        err = f"{type(e).__name__}: {e}"
        again = net_runtime.on_opencv(path) if net.runtime != net_runtime.OPENCV else None
        if again is not None:
            try:
                out = _shaped(again.run(blob), shape)
            except Exception as e2:
                err = f"{err}; on OpenCV: {type(e2).__name__}: {e2}"
            else:
                _NETS[key] = again
                _trouble(key, f"onnxruntime failed to run {Path(path).name} ({type(e).__name__})", err,
                         lasting=False)
                return out
        _NETS.pop(key, None)
        _BROKEN.add(key)
        _trouble(key, f"the model file {Path(path).name} fails to run ({type(e).__name__})", err)
        raise NetFailed(err) from e


class WrongOutput(ValueError):
    """A net's output is not the shape its caller reads (another net in its model file's place)."""


def _shaped(out: np.ndarray, shape: tuple[int | None, ...]) -> np.ndarray:
    """`out` when it is `shape` (None: any size there), else WrongOutput. (The exact shape first:
    a crop's check is then a tuple compare, 0.1 us, not the 2 us of the general one.)"""
    got = out.shape
    if got != shape and (len(got) != len(shape) or any(n is not None and n != m for n, m in zip(shape, got))):
        raise WrongOutput(f"output {tuple(out.shape)}, not {shape}: another net in this model file's place?")
    return out


def use_models(folder: Path) -> list[str]:
    """Read with the model files that `folder` holds (the shipped ones for those it lacks), and
    return their names. Why: the benchmark can then measure nets trained on part of the photos
    on the part they never saw (`bench --models`), as the docs' cross-validation figures are."""
    global DET_FILE, CLS_FILE, VERIFY_FILE
    folder = Path(folder)

    def here(shipped: Path) -> Path:
        return folder / shipped.name if (folder / shipped.name).is_file() else shipped

    DET_FILE, CLS_FILE, VERIFY_FILE = here(DET_FILE), here(CLS_FILE), here(VERIFY_FILE)
    return [p.name for p in (DET_FILE, CLS_FILE, VERIFY_FILE) if p.parent == folder]


def available() -> bool:
    """Both model files load."""
    return _net(DET_FILE) is not None and _net(CLS_FILE) is not None


def _blob(img: np.ndarray) -> np.ndarray:
    """BGR uint8 (N, H, W, 3) or (H, W, 3) -> float32 NCHW in -0.5..0.5, as in training."""
    x = img if img.ndim == 4 else img[None]
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2), dtype=np.float32) * (1.0 / 255.0) - 0.5


def _heat(bgr: np.ndarray, scale: float, region: Box | None = None, area: np.ndarray | None = None
          ) -> tuple[np.ndarray, float, float]:
    """Detector output (4, gh, gw) on the frame scaled by about `scale`; returns the exact x/y scales.

    With a `region` (frame px) the net runs on that part of the scaled frame only, cut on its
    output grid: the cells inside come out as a whole-frame pass gives them (but near the cut,
    where the net sees padding instead of the frame) and the offsets are those of the whole frame."""
    h, w = bgr.shape[:2]
    sw = max(DET_STRIDE * 4, int(round(w * scale / DET_STRIDE)) * DET_STRIDE)
    sh = max(DET_STRIDE * 4, int(round(h * scale / DET_STRIDE)) * DET_STRIDE)
    sx, sy = sw / w, sh / h
    small = shrink(bgr, sw, sh, area)
    x0 = y0 = 0
    if region is not None:
        x0, x1 = _on_grid(region[0] * sx, region[2] * sx, sw)
        y0, y1 = _on_grid(region[1] * sy, region[3] * sy, sh)
        small = small[y0:y1, x0:x1]
    blob = _blob(small)
    out = _run(DET_FILE, blob, DET_OUTPUT)[0]
    if x0 or y0:
        out[2] += x0 / DET_STRIDE
        out[3] += y0 / DET_STRIDE
    return out, sx, sy


def _on_grid(lo: float, hi: float, size: int) -> tuple[int, int]:
    """[lo, hi) widened to whole detector cells within [0, size), and to the net's smallest input."""
    a = max(0, math.floor(lo / DET_STRIDE) * DET_STRIDE)
    b = min(size, math.ceil(hi / DET_STRIDE) * DET_STRIDE)
    least = DET_STRIDE * 4
    if b - a < least:
        a = max(0, min(a, size - least))
        b = min(size, a + least)
    return a, b


def shrink(img: np.ndarray, w: int, h: int, area: np.ndarray | None = None) -> np.ndarray:
    """`img` resized to w x h; a downscale averages pixels (no aliasing of pips).

    OpenCV's area averaging is fast only for whole-number factors (640 -> 320: 0.1 ms) and
    slow otherwise (640 -> 256: 1.4 ms on one core), so the whole-number part of the factor is
    done by area and the rest (less than 2x) by bilinear interpolation. `area`: a copy of `img`
    area-averaged already (the segmenter's), taken for that step when it is the size it makes."""
    ih, iw = img.shape[:2]
    k = int(min(iw / w, ih / h))
    if k >= 2 and iw // k >= w and ih // k >= h:
        size = (iw // k, ih // k)
        if area is not None and area.shape[:2] == (size[1], size[0]):
            img = area
        else:
            img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
    if img.shape[1] == w and img.shape[0] == h:
        return img
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR)


def _peaks(out: np.ndarray, sx: float, sy: float, threshold: float) -> list[Found]:
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peak = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    found = []
    for iy, ix in zip(*np.nonzero(peak)):
        side = math.exp(float(out[1, iy, ix]))
        cx = (ix + 0.5 + float(out[2, iy, ix])) * DET_STRIDE / sx
        cy = (iy + 0.5 + float(out[3, iy, ix])) * DET_STRIDE / sy
        found.append(Found((cx, cy), side / ((sx + sy) / 2), float(heat[iy, ix])))
    return _suppress(found)


def _suppress(found: list[Found]) -> list[Found]:
    """Keep the stronger of two peaks closer than half the larger one (one die seen twice)."""
    keep: list[Found] = []
    for f in sorted(found, key=lambda f: -f.score):
        if all(math.hypot(f.centre[0] - k.centre[0], f.centre[1] - k.centre[1]) > 0.5 * max(f.side, k.side)
               for k in keep):
            keep.append(f)
    return keep


def find_dice(bgr: np.ndarray, die_px: float | None = None, threshold: float = DET_THRESHOLD,
              region: Box | None = None, area: np.ndarray | None = None) -> list[Found]:
    """Dice centres and sizes in frame pixels.

    `die_px` (calibration, or the classical segmenter's estimate) sets the scale, and `region`
    (frame px, used with `die_px`) where to look: the rest of the frame is not looked at. Without it
    the dice are measured first: a coarse pass (a 640-px frame at quarter size) is right for
    big dice; when they turn out small, a finer pass measures them; then the detector runs
    at the scale it knows best (a die DET_DIE_TARGET px wide). `area`: see `shrink`."""
    if die_px:
        return _peaks(*_heat(bgr, _clip_scale(DET_DIE_TARGET / die_px), region, area), threshold)
    found, scale = _coarse(bgr, threshold)
    med = _median_side(found) * scale
    if found and not (0.8 * DET_DIE_TARGET <= med <= 1.25 * DET_DIE_TARGET):
        found = _peaks(*_heat(bgr, _clip_scale(scale * DET_DIE_TARGET / med)), threshold)
    return found


def die_size(bgr: np.ndarray) -> float | None:
    """The dice's side in frame pixels as the detector measures them on its own (the coarse
    passes of `find_dice`, ~1 ms on a 640 x 480 frame), or None when it sees none."""
    found, _scale = _coarse(bgr, DET_THRESHOLD)
    return _median_side(found) or None


def _coarse(bgr: np.ndarray, threshold: float) -> tuple[list[Found], float]:
    """The finds of a 640-px frame at quarter size (right for big dice), or when they turn out
    small, at half size; and the scale they were found at."""
    h, w = bgr.shape[:2]
    scale = min(1.0, 128.0 / max(w, h))
    found = _peaks(*_heat(bgr, scale), threshold)
    if _median_side(found) * scale < 0.65 * DET_DIE_TARGET:
        scale = min(1.0, 256.0 / max(w, h))
        found = _peaks(*_heat(bgr, scale), threshold)
    return found, scale


def _clip_scale(scale: float) -> float:
    return float(np.clip(scale, 0.08, 1.5))


def _median_side(found: list[Found]) -> float:
    return float(np.median([f.side for f in found])) if found else 0.0


def crops(bgr: np.ndarray, found: list[tuple[tuple[float, float], float]], size: int | None = None) -> np.ndarray:
    """(N, size, size, 3) crops (size: CLS_SIZE), each centred on a die and scaled to CLS_MARGIN x its side."""
    size = size or CLS_SIZE
    out = np.empty((len(found), size, size, 3), np.uint8)
    for i, ((cx, cy), side) in enumerate(found):
        s = size / (CLS_MARGIN * max(side, 2.0))
        m = np.array([[s, 0, size / 2 - s * cx], [0, s, size / 2 - s * cy]], np.float64)
        out[i] = warp_crop(bgr, m, size)
    return out


def warp_crop(img: np.ndarray, m: np.ndarray, size: int) -> np.ndarray:
    """The size x size crop that the affine map `m` (frame -> crop) makes of `img`, anti-aliased.

    A die 70 px wide becomes ~25 px in a crop: a plain bilinear warp samples one frame pixel in
    three and a pip's edge comes out ragged. So the whole-number part of the downscale is done
    first by area averaging, on just the part of the frame the crop shows, and the warp does
    the rest (less than 2x). Training (vision.train_dicenet) cuts its crops here too."""
    a = m[:, :2]
    # (the 2 x 2 determinant written out: np.linalg.det costs ~8 us a call, a crop)
    s = math.sqrt(abs(float(a[0, 0] * a[1, 1] - a[0, 1] * a[1, 0])))
    k = int(1.0 / s) if s > 0 else 1
    if k < 2:
        return _warp(img, m, size)
    inv = cv2.invertAffineTransform(m.astype(np.float64))
    corners = np.array([[0, 0, 1], [size, 0, 1], [0, size, 1], [size, size, 1]], np.float64) @ inv.T
    h, w = img.shape[:2]
    x0 = max(0, int(math.floor(corners[:, 0].min())) - k)
    y0 = max(0, int(math.floor(corners[:, 1].min())) - k)
    x1 = min(w, int(math.ceil(corners[:, 0].max())) + k)
    y1 = min(h, int(math.ceil(corners[:, 1].max())) + k)
    if x1 <= x0 or y1 <= y0:      # the crop is all outside the frame
        return _warp(img, m, size)
    nw, nh = -(-(x1 - x0) // k), -(-(y1 - y0) // k)
    x1, y1 = min(w, x0 + nw * k), min(h, y0 + nh * k)
    roi = img[y0:y1, x0:x1]
    if roi.shape[1] < nw * k or roi.shape[0] < nh * k:    # at the frame's edge: mirrored, as the warp does
        roi = cv2.copyMakeBorder(roi, 0, nh * k - roi.shape[0], 0, nw * k - roi.shape[1], cv2.BORDER_REFLECT)
    small = cv2.resize(roi, (nw, nh), interpolation=cv2.INTER_AREA)
    # small pixel (u, v) is the mean of frame pixels k*u + x0 .. k*u + x0 + k - 1
    off = np.array([x0 + (k - 1) / 2, y0 + (k - 1) / 2])
    return _warp(small, np.hstack([a * k, (a @ off + m[:, 2])[:, None]]), size)


def _warp(img: np.ndarray, m: np.ndarray, size: int) -> np.ndarray:
    return cv2.warpAffine(img, m.astype(np.float32), (size, size), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REFLECT)


def classify(batch: np.ndarray, model: Path | None = None) -> np.ndarray:
    """(N, 7) class probabilities (0: not a die, 1..6: the value) of crops, by the classifier
    (or by `model`, the verifier)."""
    if len(batch) == 0:
        return np.zeros((0, 7), np.float32)
    path = model or CLS_FILE
    blob = _blob(batch)
    logits = np.empty((len(batch), 7), np.float32)
    # Crop by crop: an OpenCV net re-plans its layers whenever its input's shape differs from
    # its last one, and a batch as long as the frame's dice changed it at nearly every call (the
    # dice, their second views, the verifier's doubtful ones, the turned ones). One crop at a
    # time the shape never changes; a crop's output is the same bit for bit alone or in a batch.
    for i in range(len(batch)):
        logits[i] = _run(path, blob[i:i + 1], CLS_OUTPUT)[0]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def classify_turned(batch: np.ndarray, first: np.ndarray, model: Path | None = None) -> np.ndarray:
    """`first` (= classify(batch, model)) averaged with the crops' three other right-angle
    turns: a face's value does not depend on its turn, a net's mistakes partly do."""
    if len(batch) == 0:
        return first
    turned = np.concatenate([np.rot90(batch, k, axes=(1, 2)) for k in (1, 2, 3)])
    more = classify(turned, model).reshape(3, len(batch), -1)
    return (first + more.sum(axis=0)) / 4.0


def verifier_available() -> bool:
    """The verifier's model file loads. It is optional: without it an unsure die is looked at
    again by the classifier, turned."""
    return _net(VERIFY_FILE) is not None


def best_value(p: np.ndarray) -> tuple[int, float]:
    """The likeliest value 1..6 of one row of `classify` and its probability."""
    k = 1 + int(np.argmax(p[1:]))
    return k, float(p[k])
