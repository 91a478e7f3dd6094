"""Draw a Reading onto its frame, for humans checking what the reader saw."""
from __future__ import annotations

import cv2
import numpy as np

from vision.reader_input import to_bgr
from vision.types import Reading

_OK = (40, 200, 40)
_UNSURE = (0, 160, 255)
_PROBLEM = (0, 0, 255)


def annotate(frame: np.ndarray, reading: Reading) -> np.ndarray:
    """Copy of the frame (BGR uint8) with each die's box, value and confidence drawn."""
    img, _bad = to_bgr(frame)
    if img is None:
        img = np.zeros((64, 64, 3), np.uint8)
    else:
        img = img.copy()
    fx = img.shape[1] / max(reading.size[0], 1) if reading.size[0] else 1.0
    th = max(1, round(max(img.shape[:2]) / 500))
    fs = max(0.4, max(img.shape[:2]) / 1200)
    for d in reading.dice:
        x0, y0, x1, y1 = (int(round(v * fx)) for v in d.box)
        col = _OK if d.value is not None and not d.problems else (_UNSURE if d.value is not None else _PROBLEM)
        cv2.rectangle(img, (x0, y0), (x1, y1), col, th)
        label = f"{d.value if d.value is not None else '?'} {d.confidence:.2f}"
        cv2.putText(img, label, (x0, max(10, y0 - 3)), cv2.FONT_HERSHEY_SIMPLEX, fs, col, th, cv2.LINE_AA)
    y = 15
    for p in reading.problems:
        if p.box is None:
            cv2.putText(img, p.code, (5, y), cv2.FONT_HERSHEY_SIMPLEX, fs, _PROBLEM, th, cv2.LINE_AA)
            y += int(20 * fs / 0.4)
        elif p.code == "foreign_object":
            x0, y0, x1, y1 = (int(round(v * fx)) for v in p.box)
            cv2.rectangle(img, (x0, y0), (x1, y1), _PROBLEM, th)
    return img
