"""What runs the three small nets (vision/models): onnxruntime where it is installed, else OpenCV's dnn.

Why two: on one core onnxruntime runs our nets in about 60% of OpenCV 4.10's time (docs/vision.md,
Speed: ~2.5 ms less a Byler frame), with the same values to ~3e-5. But it has no wheel for 32-bit
Raspberry Pi OS (armv7l), so pyproject.toml asks for it only where it has one (x86_64, aarch64), and
OpenCV's dnn, always there, stays the fallback. A net is an object with `run(blob) -> output`, so
`vision.dicenet` does not care which runtime it got.

Nothing here raises on a missing or broken model file: `load` returns None, and the reader then
falls back to its classical stages (as before). An onnxruntime that is installed but cannot be
imported, or cannot read a file that OpenCV can, leaves the nets (that net) to OpenCV, logged.
A net that onnxruntime fails to *run* (mid-game) is loaded again on OpenCV by `vision.dicenet`
(`on_opencv`).

onnxruntime 1.32 keeps Microsoft telemetry on by default on Linux too: at every start it wrote a
device id and an SQLite database under $HOME/.cache/Microsoft/DeveloperTools (the service's HOME
is /var/lib/dicetable: an SD card written at each start, for nothing the café wants), ran one
thread more, and with a HOME it cannot write printed a coloured warning into the journal. It is
turned off (ORT_DISABLE_TELEMETRY, read once when onnxruntime is imported): 2.5 MB less resident.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

log = logging.getLogger(__name__)

OPENCV = "opencv"
ONNXRUNTIME = "onnxruntime"
RUNTIMES = (OPENCV, ONNXRUNTIME)

_wanted: str | None = None          # None: onnxruntime when importable, else OpenCV
_ort: Any = None                    # the onnxruntime module once imported
_ort_failed: str | None = None      # why it could not be imported
#: the model files onnxruntime could not make a session of though OpenCV reads them, and why
#: (for vision.dicenet to tell the staff once: the table reads as well, a little slower)
refused: dict[str, str] = {}


class Net(Protocol):
    """One loaded net: `run` takes a float32 NCHW blob and returns the net's first output (an
    array the caller may keep and change: never the runtime's own buffer)."""

    runtime: str

    def run(self, blob: np.ndarray) -> np.ndarray: ...


class OpenCvNet:
    """A net run by cv2.dnn (one thread when the caller set cv2.setNumThreads(1))."""

    runtime = OPENCV

    def __init__(self, path: Path) -> None:
        self._net = cv2.dnn.readNetFromONNX(str(path))

    def run(self, blob: np.ndarray) -> np.ndarray:
        self._net.setInput(blob)
        return self._net.forward().copy()      # (forward's output is the net's buffer, reused)


class OrtNet:
    """A net run by onnxruntime on one thread, in sequence (the table's budget is one core), with
    every graph optimisation: the layout ones (NCHWc) are most of its gain over OpenCV here."""

    runtime = ONNXRUNTIME

    def __init__(self, path: Path, ort: Any) -> None:
        so = ort.SessionOptions()
        so.intra_op_num_threads = 1
        so.inter_op_num_threads = 1
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        so.log_severity_level = 3             # (its warnings about unused initialisers are not ours)
        # (its memory planning per input shape and its arena: 2.5 MB less at the table's peak, no
        # time measurable; the detector's input is a new shape nearly every frame anyway)
        so.enable_mem_pattern = False
        so.enable_cpu_mem_arena = False
        self._session = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name

    def run(self, blob: np.ndarray) -> np.ndarray:
        return self._session.run(None, {self._input: blob})[0]


def use(runtime: str | None) -> None:
    """Ask for `runtime` (OPENCV or ONNXRUNTIME; None: the best installed) for the nets loaded from
    now on. For benchmarks and tests that compare the two; the table never calls it."""
    global _wanted
    if runtime is not None and runtime not in RUNTIMES:
        raise ValueError(f"unknown net runtime {runtime!r}")
    _wanted = runtime


def _onnxruntime() -> Any:
    """The onnxruntime module, or None when it is not installed or does not import."""
    global _ort, _ort_failed
    if _ort is None and _ort_failed is None:
        # (read by onnxruntime's library when it loads: set later, it no longer counts)
        os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
        try:
            import onnxruntime
        except Exception as e:          # (ImportError, or a wheel whose library does not load)
            _ort_failed = f"{type(e).__name__}: {e}"
            log.info("onnxruntime not available (%s): the nets run on OpenCV's dnn", _ort_failed)
        else:
            _ort = onnxruntime
    return _ort


def load(path: Path) -> Net | None:
    """The net in `path`, run by onnxruntime when it is wanted and imports, else by OpenCV; None
    when neither can read the file (missing or broken)."""
    ort = _onnxruntime() if _wanted in (None, ONNXRUNTIME) else None
    if ort is not None:
        try:
            return OrtNet(path, ort)
        except Exception as e:          # (onnxruntime's own errors have no common base worth naming)
            if Path(path).is_file():
                net = on_opencv(path)
                if net is not None:
                    refused[str(path)] = f"{type(e).__name__}: {e}"
                return net
    return on_opencv(path)


def on_opencv(path: Path) -> OpenCvNet | None:
    """The net in `path` on OpenCV's dnn, or None when OpenCV cannot read it either. Why apart
    from `load`: a net onnxruntime loaded but then fails to run is loaded again here."""
    if not Path(path).is_file():       # (a directory in its place: OpenCV's own message is obscure)
        return None
    try:
        return OpenCvNet(path)
    except (cv2.error, OSError, SystemError):
        return None


def describe() -> str:
    """Which runtime the nets load on, for `dicetable check` and the benchmarks' headers."""
    ort = _onnxruntime() if _wanted in (None, ONNXRUNTIME) else None
    if ort is not None:
        return f"onnxruntime {ort.__version__}"
    if _wanted == OPENCV:
        return f"OpenCV {cv2.__version__} dnn"
    why = "not installed" if (_ort_failed or "").startswith("ModuleNotFoundError") else "does not load"
    return f"OpenCV {cv2.__version__} dnn: onnxruntime {why}"


def wanted() -> str | None:
    """The runtime asked for by `use` (None: the best installed)."""
    return _wanted
