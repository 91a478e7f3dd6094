"""Round things players leave in a dice tray (coins, a board game's number tokens, buttons),
painted into rendered trays by the tests on their own terms, not the training code's."""
from __future__ import annotations

import cv2
import numpy as np


def paint_round_thing(img: np.ndarray, centre: tuple[float, float], r: float, kind: str,
                       rng: np.random.Generator) -> None:
    """A coin, a board game's number token or a two-hole button, lying flat in the tray: round,
    die-sized, often marked at its centre. Drawn here on its own terms (not the training's)."""
    cx, cy = centre
    c = (round(cx * 8), round(cy * 8))
    rad = round(r * 8)
    if kind == "coin":
        metal = (60, 150, 190) if rng.random() < 0.5 else (175, 178, 180)   # brass or silver
        cv2.circle(img, c, rad, metal, -1, cv2.LINE_AA, 3)
        cv2.circle(img, c, round(rad * 0.85), tuple(v * 0.7 for v in metal), 2 * 8, cv2.LINE_AA, 3)
        cv2.circle(img, c, round(rad * 0.3), tuple(v * 0.55 for v in metal), -1, cv2.LINE_AA, 3)
        # light from one side, as on any raised metal face (only the coin's square is touched)
        x0, y0 = max(0, int(cx - r)), max(0, int(cy - r))
        win = img[y0:int(cy + r) + 1, x0:int(cx + r) + 1]
        yy, xx = np.mgrid[y0:y0 + win.shape[0], x0:x0 + win.shape[1]].astype(np.float32)
        inside = np.hypot(xx - cx, yy - cy) <= r
        shade = 1.0 + 0.3 * ((xx - cx) - (yy - cy)) / (2 * r)
        lit = win.astype(np.float32)
        lit[inside] *= shade[inside, None]
        win[:] = np.clip(lit, 0, 255).astype(np.uint8)
    elif kind == "token":
        cv2.circle(img, c, rad, (170, 215, 235), -1, cv2.LINE_AA, 3)
        text = str(int(rng.choice([2, 3, 4, 5, 6, 8, 9, 10, 11, 12])))
        scale = r / 22
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
        cv2.putText(img, text, (round(cx - tw / 2), round(cy + th / 2)), cv2.FONT_HERSHEY_DUPLEX, scale,
                    (30, 30, 140) if text in ("6", "8") else (20, 20, 20), 2, cv2.LINE_AA)
    else:  # a button with two holes
        colour = tuple(int(v) for v in rng.integers(30, 230, 3))
        cv2.circle(img, c, rad, colour, -1, cv2.LINE_AA, 3)
        for dx in (-0.25, 0.25):
            cv2.circle(img, (round((cx + dx * r) * 8), c[1]), round(rad * 0.12), (25, 25, 25), -1, cv2.LINE_AA, 3)
