"""Synthetic dice trays: images with exact ground truth, for tests, benchmarks and the headless demo.

A real camera cannot tell us what the right answer is; a renderer can. This module draws a
top-down dice tray (felt texture, uneven light, soft shadows, glare, sensor noise, motion blur)
with dice whose values, positions and rotations are known, and a throw animation that feeds the
headless demo's synthetic camera and the settle-detection tests.

    from vision.synthetic import render_tray, ThrowAnimation, TrayStyle
    shot = render_tray([3, 5, 1], seed=4)            # shot.image (BGR uint8), shot.truth (TrueDie list)
    shot = render_tray([6, 6], style=TrayStyle.preset("dark"), held=[2, 4], hands=True)
    anim = ThrowAnimation([1, 2, 3], held=[6, 6], seed=1)
    for frame in anim: ...                            # anim.phases[i] says what frame i shows

Conventions: sizes are (width, height); boxes are (x0, y0, x1, y1) with x1/y1 exclusive; angles
are degrees, clockwise on screen; `truth` lists the thrown dice in the order of `values`, then the
held dice. Everything is deterministic for a given seed (the felt texture is fixed by `tray_seed`
so that successive frames of one tray show the same felt).

Run `python -m vision.synthetic OUTDIR --values 3,5,1 --seed 4` to write PNGs and a JSON truth file.
"""
from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

import cv2
import numpy as np

from .types import TrueDie

Size = tuple[int, int]
Box = tuple[int, int, int, int]

# Pip centres in units of the die side, die frame (u right, v down). Real layouts: 2 and 3 on a
# diagonal, 6 in two columns of three.
_A = 0.27
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-_A, -_A), (_A, _A)),
    3: ((-_A, -_A), (0.0, 0.0), (_A, _A)),
    4: ((-_A, -_A), (_A, -_A), (-_A, _A), (_A, _A)),
    5: ((-_A, -_A), (_A, -_A), (0.0, 0.0), (-_A, _A), (_A, _A)),
    6: ((-_A, -_A), (-_A, 0.0), (-_A, _A), (_A, -_A), (_A, 0.0), (_A, _A)),
}

# Die bodies (BGR) and their usual pip colour. A colour name is "body" or "body/pip", e.g.
# "red/black"; "marbled" and "translucent_*" bodies get special shading.
_BODIES: dict[str, tuple[tuple[int, int, int], str]] = {
    "white": ((236, 238, 240), "black"),
    "ivory": ((200, 228, 240), "black"),
    "black": ((34, 32, 32), "white"),
    "red": ((40, 38, 200), "white"),
    "green": ((70, 150, 40), "white"),
    "blue": ((170, 80, 30), "white"),
    "yellow": ((40, 210, 240), "black"),
    "marbled": ((200, 120, 60), "white"),
    "marbled_green": ((90, 160, 60), "white"),
    "translucent_red": ((60, 50, 230), "white"),
    "translucent_green": ((90, 200, 60), "white"),
    "translucent_blue": ((230, 140, 50), "white"),
    "purple": ((130, 40, 110), "white"),
    "orange": ((30, 120, 235), "white"),
    "gold": ((70, 160, 200), "black"),
    "marbled_gold": ((80, 140, 175), "black"),
}
_PIPS: dict[str, tuple[int, int, int]] = {"black": (28, 26, 26), "white": (245, 245, 245),
                                          "red": (40, 30, 200), "gold": (60, 180, 220)}
DIE_COLOURS: tuple[str, ...] = tuple(_BODIES)

_SKIN = np.array([118, 158, 212], np.float32)  # BGR


@dataclass(frozen=True)
class TrayStyle:
    """How the tray, light and camera look. Frozen and hashable: textures are cached by style."""

    felt_bgr: tuple[int, int, int] = (52, 110, 38)      # classic green felt
    felt_noise: float = 5.0                               # fibre grain, grey levels
    mottle: float = 0.06                                  # low-frequency felt unevenness (fraction)
    border_px: int = 0                                    # wooden table around the tray; 0: tray fills frame
    wood_bgr: tuple[int, int, int] = (40, 75, 120)
    die_px: float = 60.0                                  # die side in pixels (25..120)
    die_px_jitter: float = 0.03                           # relative size spread between dice
    die_colours: tuple[str, ...] = ("white",)             # cycled over the dice
    brightness: float = 1.0                               # global exposure gain
    vignette: float = 0.25                                # corner darkening (fraction)
    gradient: float = 0.12                                # linear light falloff across the frame
    gradient_angle_deg: float = 30.0
    light_angle_deg: float = 225.0                        # where the lamp is (screen angle, 225 = top-left)
    shadow: float = 0.45                                  # drop shadow darkness 0..1
    glare: float = 0.0                                    # specular spot strength 0..1+ (0: none)
    glare_radius: float = 0.07                            # spot radius as a fraction of frame width
    noise_sigma: float = 2.5                              # sensor noise, grey levels
    motion_blur: float = 0.0                              # whole-frame blur length in px (0: none)
    motion_blur_angle_deg: float = 0.0

    @staticmethod
    def preset(name: str, **changes: Any) -> "TrayStyle":
        """A named look ("green", "light", "dark", "blue", "red", "dim", "glare"), optionally changed."""
        try:
            base = STYLES[name]
        except KeyError:
            raise ValueError(f"unknown tray style {name!r}; choose one of {', '.join(STYLES)}") from None
        return dataclasses.replace(base, **changes)


STYLES: dict[str, TrayStyle] = {
    "green": TrayStyle(),
    "light": TrayStyle(felt_bgr=(168, 184, 196), felt_noise=4.0, mottle=0.025, die_colours=("red", "blue", "green", "black")),
    "dark": TrayStyle(felt_bgr=(38, 34, 34), felt_noise=4.0, vignette=0.2, die_colours=("white", "yellow", "red")),
    "blue": TrayStyle(felt_bgr=(120, 62, 28), die_colours=("white", "ivory", "yellow")),
    "red": TrayStyle(felt_bgr=(40, 35, 120), die_colours=("white", "black")),
    "dim": TrayStyle(brightness=0.22, noise_sigma=3.5),
    "glare": TrayStyle(glare=1.4, glare_radius=0.09),
}


@dataclass
class RenderedTray:
    """One rendered frame and what is really on it."""

    image: np.ndarray                   # BGR uint8, (height, width, 3)
    truth: list[TrueDie]                # thrown dice in `values` order, then held dice
    tray: Box                           # the felt surface
    hand_box: Box | None = None         # where the hand is, when one was drawn
    glare_centre: tuple[float, float] | None = None
    seed: int | None = None

    @property
    def values(self) -> list[int]:
        return [d.value for d in self.truth]

    def to_json(self) -> dict[str, Any]:
        return {
            "size": [int(self.image.shape[1]), int(self.image.shape[0])],
            "seed": self.seed,
            "tray": list(self.tray),
            "hand_box": list(self.hand_box) if self.hand_box else None,
            "glare_centre": list(self.glare_centre) if self.glare_centre else None,
            "dice": [truth_to_json(d) for d in self.truth],
        }


def truth_to_json(d: TrueDie) -> dict[str, Any]:
    out = dataclasses.asdict(d)
    out["box"] = list(d.box)
    out["centre"] = [round(d.centre[0], 2), round(d.centre[1], 2)]
    out["extra"] = {k: v for k, v in d.extra.items() if not k.startswith("_")}
    return out


@dataclass(frozen=True)
class HandSpec:
    """A hand reaching in from one edge: `pos` (0..1) along the edge, `reach` px into the frame."""

    edge: str = "top"                   # top, bottom, left, right
    pos: float = 0.5
    reach: float = 200.0
    width: float = 90.0                 # palm width in px
    tilt_deg: float = 0.0


THING_KINDS = ("coin", "phone", "card", "cup")


@dataclass(frozen=True)
class ThingSpec:
    """Something that is not a die, left lying in the tray (a coin, a phone, a playing card, an
    upturned dice cup seen from above): `length` px its longest side (a coin's or a cup's
    diameter), `angle_deg` its turn. The table must not take it for dice, nor be stopped by it
    for ever (see vision.left_things)."""

    kind: str
    centre: tuple[float, float]
    length: float
    angle_deg: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in THING_KINDS:
            raise ValueError(f"thing kind must be one of {', '.join(THING_KINDS)}, got {self.kind!r}")
        if not 8 <= self.length <= 2000:
            raise ValueError(f"thing length {self.length} px: must be from 8 to 2000")

    @property
    def radius(self) -> float:
        """Half its longest extent (a rectangle's half diagonal): what dice placed around it keep clear of."""
        short = {"phone": 0.48, "card": 0.71}.get(self.kind)
        return self.length / 2 if short is None else math.hypot(self.length, short * self.length) / 2


@dataclass
class _Item:
    """A die as drawn on one frame (the animation moves these around)."""

    value: int
    centre: tuple[float, float]
    size: float
    angle: float
    colour: str
    leaning: bool = False
    blur: tuple[float, float] = (0.0, 0.0)   # motion during the exposure, px
    pattern: float = 0.0                     # marbling phase
    extra: dict[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------- validation


def check_values(values: Sequence[int], what: str = "values") -> list[int]:
    """Die values must be integers 1..6; say exactly which one is wrong."""
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 1 <= int(v) <= 6:
            raise ValueError(f"{what}[{i}] = {v!r}: a die value must be an integer from 1 to 6")
        out.append(int(v))
    return out


def _check_size(size: Size) -> Size:
    w, h = int(size[0]), int(size[1])
    if w < 64 or h < 64:
        raise ValueError(f"size {size!r} too small: width and height must be at least 64 px")
    return w, h


def parse_colour(name: str) -> tuple[np.ndarray, np.ndarray, str]:
    """'red/black' -> (body BGR, pip BGR, body name). Raises ValueError with the valid names."""
    body, _, pip = name.partition("/")
    if body not in _BODIES:
        raise ValueError(f"unknown die colour {name!r}; bodies: {', '.join(_BODIES)}")
    bgr, default_pip = _BODIES[body]
    pip = pip or default_pip
    if pip not in _PIPS:
        raise ValueError(f"unknown pip colour {pip!r} in {name!r}; pips: {', '.join(_PIPS)}")
    return np.array(bgr, np.float32), np.array(_PIPS[pip], np.float32), body


# --------------------------------------------------------------------------- geometry


def _corner_radius(size: float) -> float:
    return 0.16 * size


def die_extent(size: float, angle_deg: float) -> float:
    """Half-width of the axis-aligned box around a rotated rounded die."""
    a = math.radians(angle_deg)
    r = _corner_radius(size)
    return (size / 2 - r) * (abs(math.cos(a)) + abs(math.sin(a))) + r


def die_box(centre: tuple[float, float], size: float, angle_deg: float, frame: Size | None = None) -> Box:
    e = die_extent(size, angle_deg)
    x0, y0 = int(math.floor(centre[0] - e)), int(math.floor(centre[1] - e))
    x1, y1 = int(math.ceil(centre[0] + e)) + 1, int(math.ceil(centre[1] + e)) + 1
    if frame is not None:
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(frame[0], x1), min(frame[1], y1)
    return x0, y0, x1, y1


def _light_vec(style: TrayStyle) -> tuple[float, float]:
    """Unit vector pointing from a die toward the lamp, screen coordinates."""
    a = math.radians(style.light_angle_deg)
    return math.cos(a), math.sin(a)


def tray_rect(size: Size, style: TrayStyle) -> Box:
    b = max(0, int(style.border_px))
    return b, b, size[0] - b, size[1] - b


def default_held_zone(size: Size, style: TrayStyle, die_px: float | None = None) -> Box:
    """A strip along the bottom of the tray where kept dice are parked."""
    s = die_px or style.die_px
    x0, y0, x1, y1 = tray_rect(size, style)
    return x0 + 4, int(y1 - 1.5 * s - 6), x1 - 4, y1 - 4


def held_positions(n: int, zone: Box, die_px: float) -> list[tuple[tuple[float, float], float]]:
    """Fixed (centre, angle) for n held dice spread along a zone; no randomness, so they stay put."""
    x0, y0, x1, y1 = zone
    cy = (y0 + y1) / 2
    step = min(1.6 * die_px, (x1 - x0) / max(n, 1))
    if step < 1.15 * die_px:
        raise ValueError(f"{n} held dice of {die_px:.0f} px do not fit in the held zone {zone}")
    start = (x0 + x1) / 2 - step * (n - 1) / 2
    tilts = (-4.0, 3.0, -2.0, 5.0, -6.0, 2.0, -3.0, 4.0)
    return [((start + i * step, cy), tilts[i % len(tilts)]) for i in range(n)]


# --------------------------------------------------------------------------- cached layers


@functools.lru_cache(maxsize=4)
def _tray_texture(size: Size, style: TrayStyle, tray_seed: int) -> np.ndarray:
    """Felt (and table) without dice or light falloff; float32 BGR, read-only, cached."""
    w, h = size
    rng = np.random.default_rng(tray_seed)
    base = np.array(style.felt_bgr, np.float32)
    # low-frequency mottling: a coarse random grid smoothly upscaled
    coarse = rng.standard_normal((max(2, h // 48), max(2, w // 48))).astype(np.float32)
    mottle = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
    mottle = cv2.GaussianBlur(mottle, (0, 0), 6)
    # felt grain: fine noise, slightly smeared so it reads as fibres, not sensor noise
    grain = rng.standard_normal((h, w)).astype(np.float32)
    grain = cv2.GaussianBlur(grain, (0, 0), 0.8) * (style.felt_noise * 1.6)
    fibres = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), sigmaX=2.5, sigmaY=0.6)
    grain += fibres * style.felt_noise * 2.0
    img = base[None, None, :] * (1.0 + style.mottle * mottle)[..., None] + grain[..., None]
    if style.border_px > 0:
        x0, y0, x1, y1 = tray_rect(size, style)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        wood_grain = 0.85 + 0.1 * np.sin(yy * 0.35 + 3 * np.sin(xx * 0.01)) + 0.05 * rng.standard_normal((h, w))
        wood = np.array(style.wood_bgr, np.float32)[None, None, :] * wood_grain[..., None].astype(np.float32)
        outside = np.ones((h, w), bool)
        outside[y0:y1, x0:x1] = False
        img[outside] = wood[outside]
        # tray wall: a dark rim, then a soft inner shadow on the felt
        rim = max(3, style.border_px // 6)
        cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), (0.45 * base).tolist(), rim)
        dist = np.minimum.reduce([xx - x0, x1 - 1 - xx, yy - y0, y1 - 1 - yy])
        inner = np.clip(dist / (2.5 * rim), 0, 1)
        shade = np.where(outside, 1.0, 0.7 + 0.3 * inner).astype(np.float32)
        img *= shade[..., None]
    img.setflags(write=False)
    return img


@functools.lru_cache(maxsize=4)
def _light_map(size: Size, style: TrayStyle) -> np.ndarray:
    """Multiplicative light falloff (vignette x gradient x exposure), float32 (h, w, 3)."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    nx, ny = (xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2)
    vig = 1.0 - style.vignette * (nx * nx + ny * ny) / 2.0
    a = math.radians(style.gradient_angle_deg)
    grad = 1.0 - style.gradient * (0.5 + 0.5 * (nx * math.cos(a) + ny * math.sin(a)) / math.sqrt(2))
    m = np.clip(vig * grad * style.brightness, 0.0, 4.0).astype(np.float32)
    out = np.repeat(m[..., None], 3, axis=2)
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=4)
def _noise_bank(size: Size) -> np.ndarray:
    """Unit gaussian noise a bit larger than the frame; frames take shifted windows (fast)."""
    w, h = size
    rng = np.random.default_rng(987654321)
    bank = rng.standard_normal((h + 64, w + 64, 3), dtype=np.float32)
    bank.setflags(write=False)
    return bank


# --------------------------------------------------------------------------- drawing


def _rounded_box_dist(u: np.ndarray, v: np.ndarray, hu: float, hv: float, r: float) -> np.ndarray:
    """Signed distance to a rounded rectangle only (cheaper: for shadows)."""
    qx = np.abs(u)
    qx -= hu - r
    qy = np.abs(v)
    qy -= hv - r
    inside = np.minimum(np.maximum(qx, qy), 0)
    np.maximum(qx, 0, out=qx)
    np.maximum(qy, 0, out=qy)
    return np.hypot(qx, qy) + inside - r


def _rounded_box_sdf(u: np.ndarray, v: np.ndarray, hu: float, hv: float, r: float):
    """Signed distance to a rounded rectangle (negative inside) and its outward normal (die frame)."""
    qx = np.abs(u) - (hu - r)
    qy = np.abs(v) - (hv - r)
    mx, my = np.maximum(qx, 0), np.maximum(qy, 0)
    outside = np.sqrt(mx * mx + my * my)
    d = outside + np.minimum(np.maximum(qx, qy), 0) - r
    su, sv = np.sign(u), np.sign(v)
    safe = np.maximum(outside, 1e-3)
    on_corner = outside > 1e-3
    side_u = qx > qy
    nx = np.where(on_corner, su * mx / safe, np.where(side_u, su, 0.0))
    ny = np.where(on_corner, sv * my / safe, np.where(side_u, 0.0, sv))
    return d, nx, ny


def _pip_window(u: np.ndarray, v: np.ndarray, fu: float, fv: float, rad: float) -> tuple[slice, slice] | None:
    """Index window around the point where (u, v) == (fu, fv); u and v are affine in (col, row)."""
    if u.shape[0] < 2 or u.shape[1] < 2:
        return None
    ux, uy, vx, vy = u[0, 1] - u[0, 0], u[1, 0] - u[0, 0], v[0, 1] - v[0, 0], v[1, 0] - v[0, 0]
    det = ux * vy - uy * vx
    if abs(det) < 1e-9:
        return None
    du, dv = fu - u[0, 0], fv - v[0, 0]
    col = (du * vy - uy * dv) / det
    row = (ux * dv - du * vx) / det
    # the window must cover rad in face units: scale by the largest pixel step
    step = max(1e-3, min(math.hypot(ux, vx), math.hypot(uy, vy)))
    r = rad / step + 2
    r0, r1 = max(0, int(row - r)), min(u.shape[0], int(row + r) + 2)
    c0, c1 = max(0, int(col - r)), min(u.shape[1], int(col + r) + 2)
    if r1 <= r0 or c1 <= c0:
        return None
    return slice(r0, r1), slice(c0, c1)


def _draw_face(u, v, hs, vscale, value, body, pip, body_name, light_die, pattern, shade_mul, colour, alpha):
    """Paint one rounded face with bevel and pips into colour/alpha (window arrays, in place).

    u, v: die-frame coordinates of each pixel relative to this face's centre; vscale < 1
    foreshortens the face along v (a leaning die)."""
    vv = v / vscale
    r = _corner_radius(2 * hs)
    d, nx, ny = _rounded_box_sdf(u, vv, hs, hs, r)
    a = np.clip(0.5 - d * vscale, 0.0, 1.0)
    if not a.any():
        return
    bevel = np.clip(1.0 + d / (0.11 * 2 * hs), 0.0, 1.0)
    bevel *= np.sqrt(bevel)
    lam = nx * light_die[0] + ny * light_die[1]
    shade = 1.0 + bevel * (0.5 * lam - 0.28) - 0.05 * (u * light_die[0] + vv * light_die[1]) / hs
    shade *= shade_mul
    if body_name.startswith("marbled"):
        turb = 2.6 * np.sin(vv / (0.33 * hs) + pattern) + 1.4 * np.sin(u / (0.21 * hs) - 2 * pattern)
        t = 0.5 + 0.5 * np.sin((u * 0.8 + vv * 0.6) / (0.16 * hs) + turb + pattern)
        light = np.minimum(body * 0.35 + 170, 255)
        base = body[None, None, :] + (t ** 5)[..., None] * (light - body)[None, None, :]
        col = base * shade[..., None]
    else:
        col = body[None, None, :] * shade[..., None]
    if body_name.startswith("translucent"):
        a = a * (0.62 + 0.3 * bevel)
        col = col * 1.1 + 25
    # pips: each computed in its own small window, shaded as a shallow dimple lit from the lamp side
    s = 2 * hs
    rp = (0.115 if value == 1 else 0.088) * s
    sharp = max(1.0, 1.0 / vscale)
    for pu, pv in PIP_LAYOUTS[value]:
        win = _pip_window(u, vv, pu * s, pv * s, rp + 1)
        if win is None:
            continue
        du, dv = u[win] - pu * s, vv[win] - pv * s
        dist = np.sqrt(du * du + dv * dv)
        pa = np.clip((rp - dist) * (vscale * sharp) + 0.5, 0.0, 1.0)
        if not pa.any():
            continue
        dim = 1.0 - 0.3 * np.clip((du * light_die[0] + dv * light_die[1]) / rp, -1, 1)
        pc = pip[None, None, :] * (dim * shade_mul)[..., None]
        cw = col[win]
        col[win] = cw + (pc - cw) * pa[..., None]
        if body_name.startswith("translucent"):
            a[win] = np.maximum(a[win], pa * (d[win] < 0))
    colour += (col - colour) * a[..., None]
    np.maximum(alpha, a, out=alpha)


@functools.lru_cache(maxsize=32)
def _die_layers(value: int, cx: float, cy: float, size: float, angle: float, colour_name: str, leaning: bool,
                blur: tuple[float, float], pattern: float, shadow_k: float, light_angle: float, frame: Size):
    """Shadow, alpha and premultiplied colour of one die over its patch; cached so still frames,
    held dice and repeated renders cost nothing."""
    w, h = frame
    s = size
    a_l = math.radians(light_angle)
    lx, ly = math.cos(a_l), math.sin(a_l)
    blur_len = math.hypot(*blur)
    off = 0.10 * s
    R = 0.75 * s + off + 0.15 * s + blur_len / 2 + 3
    x0, y0 = max(0, int(cx - R)), max(0, int(cy - R))
    x1, y1 = min(w, int(cx + R) + 1), min(h, int(cy + R) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    xs = np.arange(x0, x1, dtype=np.float32) - np.float32(cx)
    ys = (np.arange(y0, y1, dtype=np.float32) - np.float32(cy))[:, None]
    ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    light_die = (ca * lx + sa * ly, -sa * lx + ca * ly)
    body, pip, body_name = parse_colour(colour_name)
    # shadow: same shape, pushed away from the lamp, soft edge
    su = ca * (xs + lx * off) + sa * (ys + ly * off)
    sv = -sa * (xs + lx * off) + ca * (ys + ly * off)
    sd = _rounded_box_dist(su, sv, s / 2, s / 2, _corner_radius(s))
    soft = 0.13 * s
    shadow = shadow_k * np.clip((soft - sd) / (2 * soft), 0.0, 1.0)
    if body_name.startswith("translucent"):
        shadow *= 0.55
    # the die itself only needs the window around its body
    e = (0.8 * s if leaning else die_extent(s, angle)) + 2
    r0, r1 = max(0, int(cy - e) - y0), min(y1 - y0, int(cy + e) + 2 - y0)
    c0, c1 = max(0, int(cx - e) - x0), min(x1 - x0, int(cx + e) + 2 - x0)
    colour = np.zeros(shadow.shape + (3,), np.float32)
    alpha = np.zeros(shadow.shape, np.float32)
    if r1 > r0 and c1 > c0:
        wx, wy = xs[c0:c1][None, :], ys[r0:r1]
        u = ca * wx + sa * wy
        v = -sa * wx + ca * wy
        cw, aw = colour[r0:r1, c0:c1], alpha[r0:r1, c0:c1]
        if leaning:
            # cocked die: the top face is foreshortened, a side face shows below it
            side_val = next(x for x in (2, 3, 1, 4, 5, 6) if x not in (value, 7 - value))
            _draw_face(u, v - 0.40 * s, s / 2, 0.36, side_val, body, pip, body_name, light_die, pattern, 0.62, cw, aw)
            _draw_face(u, v + 0.18 * s, s / 2, 0.8, value, body, pip, body_name, light_die, pattern, 1.0, cw, aw)
        else:
            _draw_face(u, v, s / 2, 1.0, value, body, pip, body_name, light_die, pattern, 1.0, cw, aw)
    premult = colour * alpha[..., None]
    if blur_len >= 1.0:
        k = _line_kernel(blur_len, math.degrees(math.atan2(blur[1], blur[0])))
        shadow = cv2.filter2D(shadow, -1, k)
        alpha = cv2.filter2D(alpha, -1, k)
        premult = cv2.filter2D(premult, -1, k)
    keep = (1.0 - shadow) * (1.0 - alpha)
    for arr in (keep, premult):
        arr.setflags(write=False)
    return x0, y0, x1, y1, keep, premult


def _paint_die(img: np.ndarray, it: _Item, style: TrayStyle) -> None:
    """Composite one die (shadow, body, bevel, pips, optional motion blur) onto img in place."""
    layers = _die_layers(int(it.value), float(it.centre[0]), float(it.centre[1]), float(it.size),
                         float(it.angle), it.colour, bool(it.leaning), (float(it.blur[0]), float(it.blur[1])),
                         float(it.pattern), float(style.shadow), float(style.light_angle_deg),
                         (img.shape[1], img.shape[0]))
    if layers is None:
        return
    x0, y0, x1, y1, keep, premult = layers
    patch = img[y0:y1, x0:x1]
    patch *= keep[..., None]
    patch += premult


def _line_kernel(length: float, angle_deg: float) -> np.ndarray:
    n = max(3, int(math.ceil(length)) | 1)
    k = np.zeros((n, n), np.float32)
    c = n // 2
    a = math.radians(angle_deg)
    dx, dy = math.cos(a) * (length - 1) / 2, math.sin(a) * (length - 1) / 2
    cv2.line(k, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1, cv2.LINE_AA)
    return k / k.sum()


def _hand_mask(size: Size, spec: HandSpec) -> tuple[np.ndarray, Box]:
    """Soft 0..1 mask of a hand with fingers reaching in from an edge, and its box."""
    w, h = size
    edges = {"top": ((spec.pos * w, -60.0), (0.0, 1.0)), "bottom": ((spec.pos * w, h + 60.0), (0.0, -1.0)),
             "left": ((-60.0, spec.pos * h), (1.0, 0.0)), "right": ((w + 60.0, spec.pos * h), (-1.0, 0.0))}
    if spec.edge not in edges:
        raise ValueError(f"hand edge must be one of {', '.join(edges)}, got {spec.edge!r}")
    (sx, sy), (dx, dy) = edges[spec.edge]
    t = math.radians(spec.tilt_deg)
    dx, dy = dx * math.cos(t) - dy * math.sin(t), dx * math.sin(t) + dy * math.cos(t)
    px, py = -dy, dx
    aw = spec.width
    reach = spec.reach + 60.0
    m = np.zeros((h, w), np.uint8)
    S = 4  # fixed-point shift for sub-pixel drawing
    f = float(1 << S)

    def P(x: float, y: float) -> tuple[int, int]:
        return int(round(x * f)), int(round(y * f))

    wx, wy = sx + dx * (reach - 1.1 * aw), sy + dy * (reach - 1.1 * aw)
    cv2.line(m, P(sx - dx * 200, sy - dy * 200), P(wx, wy), 255, int(0.78 * aw), cv2.LINE_AA, S)
    palm_c = (wx + dx * 0.45 * aw, wy + dy * 0.45 * aw)
    ang = math.degrees(math.atan2(dy, dx))
    cv2.ellipse(m, P(*palm_c), (int(0.52 * aw * f), int(0.5 * aw * f)), ang, 0, 360, 255, -1, cv2.LINE_AA, S)
    for i, (off, ln) in enumerate(((-0.36, 0.55), (-0.12, 0.66), (0.12, 0.62), (0.34, 0.5))):
        bx, by = palm_c[0] + dx * 0.35 * aw + px * off * aw, palm_c[1] + dy * 0.35 * aw + py * off * aw
        spread = off * 0.25
        ex = bx + (dx + px * spread) * ln * aw
        ey = by + (dy + py * spread) * ln * aw
        cv2.line(m, P(bx, by), P(ex, ey), 255, max(2, int(0.2 * aw)), cv2.LINE_AA, S)
    tx, ty = palm_c[0] - px * 0.45 * aw, palm_c[1] - py * 0.45 * aw
    cv2.line(m, P(tx, ty), P(tx + (dx - px) * 0.38 * aw, ty + (dy - py) * 0.38 * aw), 255, max(2, int(0.24 * aw)),
             cv2.LINE_AA, S)
    x, y, bw, bh = cv2.boundingRect(m)
    if bw == 0 or bh == 0:
        return m, (0, 0, 0, 0)
    return m, (int(x), int(y), int(x + bw), int(y + bh))


def _soft_blur(a: np.ndarray, sigma: float) -> np.ndarray:
    """A wide gaussian blur done at quarter size: the result is smooth anyway, and 10x cheaper."""
    h, w = a.shape[:2]
    if sigma < 4 or h < 16 or w < 16:
        return cv2.GaussianBlur(a, (0, 0), sigma)
    small = cv2.resize(a, (max(4, w // 4), max(4, h // 4)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / 4)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _paint_hand(img: np.ndarray, spec: HandSpec, style: TrayStyle) -> Box | None:
    m, box = _hand_mask((img.shape[1], img.shape[0]), spec)
    if box[2] <= box[0]:
        return None
    h, w = img.shape[:2]
    pad = int(spec.width * 0.6)
    x0, y0 = max(0, box[0] - pad), max(0, box[1] - pad)
    x1, y1 = min(w, box[2] + pad), min(h, box[3] + pad)
    sub = m[y0:y1, x0:x1]
    lx, ly = _light_vec(style)
    # shadow: the hand is high above the felt, so its shadow is offset and very soft
    M = np.float32([[1, 0, -lx * spec.width * 0.3], [0, 1, -ly * spec.width * 0.3]])
    sh = cv2.warpAffine(sub, M, (sub.shape[1], sub.shape[0]))
    sh = _soft_blur(sh.astype(np.float32), spec.width * 0.12) * (style.shadow * 0.8 / 255.0)
    dist = cv2.distanceTransform((sub > 127).astype(np.uint8), cv2.DIST_L2, 3)
    shade = 0.68 + 0.32 * np.clip(dist / (0.18 * spec.width), 0, 1)
    smooth = _soft_blur(dist, max(1.0, 0.12 * spec.width))
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    shade += 0.12 * np.clip((gx * lx + gy * ly) / 4.0, -1, 1)
    a = cv2.GaussianBlur(sub, (3, 3), 0).astype(np.float32) / 255.0
    patch = img[y0:y1, x0:x1]
    patch *= (1.0 - sh)[..., None]
    col = _SKIN[None, None, :] * shade[..., None]
    patch[:] = patch * (1 - a[..., None]) + col * a[..., None]
    return box


def _thing_masks(size: Size, thing: ThingSpec) -> tuple[np.ndarray, np.ndarray]:
    """The thing's outline (0..1) and its colour (BGR float) on a frame of `size`."""
    w, h = size
    m = np.zeros((h, w), np.uint8)
    col = np.zeros((h, w, 3), np.float32)
    cx, cy = thing.centre
    L = thing.length
    S = 4
    f = float(1 << S)

    def P(x: float, y: float) -> tuple[int, int]:
        return int(round(x * f)), int(round(y * f))

    if thing.kind in ("coin", "cup"):
        r = L / 2
        cv2.circle(m, P(cx, cy), int(r * f), 255, -1, cv2.LINE_AA, S)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / max(r, 1.0)
        if thing.kind == "coin":        # brass, a darker rim, a raised face lit from one side
            base = np.array([70, 150, 190], np.float32)
            shade = 1.0 - 0.25 * (np.abs(d - 0.88) < 0.06) + 0.15 * np.clip((xx - cx - yy + cy) / (2 * r), -1, 1)
        else:                           # a leather cup's rim, dark inside
            base = np.array([40, 70, 110], np.float32)
            shade = np.where(d < 0.78, 0.35, 1.0) + 0.1 * np.clip((xx - cx) / r, -1, 1)
        col[:] = base * shade[..., None]
        return m.astype(np.float32) / 255.0, col
    short = L * (0.48 if thing.kind == "phone" else 0.71)
    rect = ((cx, cy), (L, short), thing.angle_deg)
    pts = cv2.boxPoints(rect)
    cv2.fillPoly(m, [np.round(pts * f).astype(np.int32)], 255, cv2.LINE_AA, S)
    if thing.kind == "phone":           # black glass, a grey frame, a soft reflection
        col[:] = (26, 24, 24)
        inner = cv2.boxPoints(((cx, cy), (L * 0.92, short * 0.86), thing.angle_deg))
        cv2.fillPoly(col, [np.round(inner * f).astype(np.int32)], (44, 36, 32), cv2.LINE_AA, S)
        band = cv2.boxPoints(((cx - 0.15 * L, cy), (L * 0.12, short * 0.8), thing.angle_deg + 25))
        cv2.fillPoly(col, [np.round(band * f).astype(np.int32)], (80, 76, 74), cv2.LINE_AA, S)
    else:                               # a playing card: white, a red heart at its centre and corners
        col[:] = (232, 236, 238)
        a = math.radians(thing.angle_deg)
        ux, uy, vx, vy = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
        for du, dv, k in ((0, 0, 0.16), (-0.38, -0.3, 0.06), (0.38, 0.3, 0.06)):
            px, py = cx + du * L * ux + dv * short * vx, cy + du * L * uy + dv * short * vy
            cv2.circle(col, P(px, py), int(k * short * f), (40, 40, 190), -1, cv2.LINE_AA, S)
    return m.astype(np.float32) / 255.0, col


def _paint_thing(img: np.ndarray, thing: ThingSpec, style: TrayStyle) -> None:
    """Composite a thing lying on the felt (a soft shadow, then the thing) onto img in place."""
    h, w = img.shape[:2]
    a, col = _thing_masks((w, h), thing)
    lx, ly = _light_vec(style)
    off = 0.04 * thing.length
    M = np.float32([[1, 0, -lx * off], [0, 1, -ly * off]])
    sh = cv2.GaussianBlur(cv2.warpAffine(a, M, (w, h)), (0, 0), max(1.0, 0.03 * thing.length)) * style.shadow
    img *= (1.0 - sh)[..., None]
    img[:] = img * (1 - a[..., None]) + col * a[..., None]


def _compose(size: Size, style: TrayStyle, items: Sequence[_Item], hand: HandSpec | None,
             rng: np.random.Generator, tray_seed: int, glare_centre: tuple[float, float] | None,
             noise_sigma: float, blur: float, things: Sequence[ThingSpec] = (),
             over: Sequence[ThingSpec] = ()) -> tuple[np.ndarray, Box | None]:
    """Everything that makes a frame: felt, things left in it, dice, things put down over the dice
    (a cup over some of them), hand, light, glare, blur, noise -> uint8."""
    w, h = size
    img = _tray_texture(size, style, tray_seed).copy()
    for thing in things:
        _paint_thing(img, thing, style)
    for it in items:
        _paint_die(img, it, style)
    for thing in over:
        _paint_thing(img, thing, style)
    hand_box = _paint_hand(img, hand, style) if hand is not None else None
    cv2.multiply(img, _light_map(size, style), dst=img)
    if glare_centre is not None and style.glare > 0:
        gr = style.glare_radius * w
        gx, gy = glare_centre
        x0, y0 = max(0, int(gx - 3 * gr)), max(0, int(gy - 3 * gr))
        x1, y1 = min(w, int(gx + 3 * gr) + 1), min(h, int(gy + 3 * gr) + 1)
        if x1 > x0 and y1 > y0:
            xx = np.arange(x0, x1, dtype=np.float32) - gx
            yy = (np.arange(y0, y1, dtype=np.float32) - gy)[:, None]
            spot = np.exp(-(xx * xx + yy * yy) / (2 * gr * gr)) * (255.0 * style.glare)
            img[y0:y1, x0:x1] += spot[..., None]
    if blur >= 1.0:
        img = cv2.filter2D(img, -1, _line_kernel(blur, style.motion_blur_angle_deg))
    if noise_sigma > 0:
        bank = _noise_bank(size)
        ox, oy = int(rng.integers(0, 64)), int(rng.integers(0, 64))
        sign = 1.0 if rng.random() < 0.5 else -1.0
        img += bank[oy:oy + h, ox:ox + w] * (noise_sigma * sign)
    np.clip(img, 0, 255, out=img)
    return img.astype(np.uint8), hand_box


# --------------------------------------------------------------------------- placement


def _die_size(style: TrayStyle, die_px: float | None, rng: np.random.Generator) -> float:
    s = float(die_px if die_px is not None else style.die_px)
    if style.die_px_jitter and die_px is None:
        s *= 1.0 + style.die_px_jitter * float(rng.uniform(-1, 1))
    return s


def _place_random(n: int, sizes: list[float], area: Box, avoid: list[tuple[float, float, float]],
                  rng: np.random.Generator, touching: int) -> list[tuple[tuple[float, float], float]]:
    """Non-overlapping (centre, angle) pairs inside area; the first 2*touching dice come in touching pairs."""
    placed: list[tuple[float, float, float]] = list(avoid)   # (x, y, radius)
    out: list[tuple[tuple[float, float], float]] = []
    x0, y0, x1, y1 = area

    def free(x: float, y: float, r: float, skip: int = -1) -> bool:
        for j, (px, py, pr) in enumerate(placed):
            if j != skip and (x - px) ** 2 + (y - py) ** 2 < (r + pr + 3) ** 2:
                return False
        return True

    i = 0
    while i < n:
        s = sizes[i]
        pair = i < 2 * touching and i + 1 < n
        for _ in range(4000):
            ang = float(rng.uniform(0, 90))
            if pair:
                s2 = sizes[i + 1]
                a = math.radians(ang)
                sideways = float(rng.uniform(-0.25, 0.25)) * s
                axis = (math.cos(a), math.sin(a)) if rng.random() < 0.5 else (-math.sin(a), math.cos(a))
                perp = (-axis[1], axis[0])
                dist = (s + s2) / 2 + 0.5
                r = dist / 2 + 0.75 * max(s, s2)
                e = r
                cx = float(rng.uniform(x0 + e, x1 - e)) if x1 - x0 > 2 * e else (x0 + x1) / 2
                cy = float(rng.uniform(y0 + e, y1 - e)) if y1 - y0 > 2 * e else (y0 + y1) / 2
                c1 = (cx - axis[0] * dist / 2 - perp[0] * sideways / 2, cy - axis[1] * dist / 2 - perp[1] * sideways / 2)
                c2 = (cx + axis[0] * dist / 2 + perp[0] * sideways / 2, cy + axis[1] * dist / 2 + perp[1] * sideways / 2)
                inside = all(x0 + die_extent(s, ang) <= c[0] <= x1 - die_extent(s, ang)
                             and y0 + die_extent(s, ang) <= c[1] <= y1 - die_extent(s, ang) for c in (c1, c2))
                if inside and free(cx, cy, r):
                    placed.append((cx, cy, r))
                    out += [(c1, ang), (c2, ang)]
                    i += 2
                    break
            else:
                e = die_extent(s, ang)
                if x1 - x0 < 2 * e or y1 - y0 < 2 * e:
                    break
                cx, cy = float(rng.uniform(x0 + e, x1 - e)), float(rng.uniform(y0 + e, y1 - e))
                r = die_extent(s, 45.0) + 0.5
                if free(cx, cy, r):
                    placed.append((cx, cy, r))
                    out.append(((cx, cy), ang))
                    i += 1
                    break
        else:
            raise ValueError(f"cannot fit {n} dice of about {max(sizes):.0f} px on the tray area {area} "
                             "without overlap; use fewer or smaller dice or a bigger frame")
    return out


@dataclass
class _Layout:
    items: list[_Item]          # thrown first, then held
    tray: Box
    n_thrown: int


def _layout(values: Sequence[int], held: Sequence[int | TrueDie], size: Size, style: TrayStyle,
            rng: np.random.Generator, die_px: float | None, colours: Sequence[str] | None,
            touching: int, leaning: Sequence[int], held_zone: Box | None,
            keep_clear: Box | None = None, things: Sequence[ThingSpec] = ()) -> _Layout:
    values = check_values(values)
    colours = tuple(colours) if colours else style.die_colours
    for c in colours:
        parse_colour(c)
    if touching < 0 or 2 * touching > len(values):
        raise ValueError(f"touching={touching}: need two thrown dice per touching pair, have {len(values)}")
    for i in leaning:
        if not 0 <= i < len(values):
            raise ValueError(f"leaning index {i} out of range for {len(values)} dice")
    if die_px is not None and not 10 <= die_px <= 200:
        raise ValueError(f"die_px={die_px}: must be between 10 and 200 px")
    tray = tray_rect(size, style)
    area = (tray[0] + 4, tray[1] + 4, tray[2] - 4, tray[3] - 4)
    held_items: list[_Item] = []
    avoid: list[tuple[float, float, float]] = []
    held_ints = [h for h in held if not isinstance(h, TrueDie)]
    check_values(held_ints, "held")
    s_held = float(die_px if die_px is not None else style.die_px)
    if held_ints:
        zone = held_zone or default_held_zone(size, style, s_held)
        spots = iter(held_positions(len(held_ints), zone, s_held))
    for k, h in enumerate(held):
        if isinstance(h, TrueDie):
            it = _Item(h.value, h.centre, h.size_px, h.angle_deg, h.colour, h.leaning,
                       pattern=float(h.extra.get("_pattern", 0.0)), extra={"held": True})
        else:
            (c, a) = next(spots)
            it = _Item(int(h), c, s_held, a, colours[(len(values) + k) % len(colours)], extra={"held": True})
        held_items.append(it)
    if held_ints:
        zx0, zy0, zx1, zy1 = zone
        # the zone is an obstacle for thrown dice: cover it with circles
        rr = (zy1 - zy0) / 2
        x = zx0 + rr
        while x < zx1 + rr:
            avoid.append((x, (zy0 + zy1) / 2, rr))
            x += rr
    for it in held_items:
        avoid.append((it.centre[0], it.centre[1], die_extent(it.size, 45) + 1))
    avoid += [(t.centre[0], t.centre[1], t.radius + 2) for t in things]
    if keep_clear is not None:
        kx0, ky0, kx1, ky1 = keep_clear
        avoid.append(((kx0 + kx1) / 2, (ky0 + ky1) / 2, max(kx1 - kx0, ky1 - ky0) / 2))
    sizes = [_die_size(style, die_px, rng) for _ in values]
    spots2 = _place_random(len(values), sizes, area, avoid, rng, touching)
    items = []
    for i, (v, s, (c, a)) in enumerate(zip(values, sizes, spots2)):
        extra: dict[str, Any] = {}
        if i < 2 * touching:
            extra["touching_with"] = i + 1 if i % 2 == 0 else i - 1
        items.append(_Item(v, c, s, a, colours[i % len(colours)], leaning=i in set(leaning),
                           pattern=float(rng.uniform(0, 6.28)), extra=extra))
    return _Layout(items + held_items, tray, len(values))


def _truth(items: Sequence[_Item], size: Size) -> list[TrueDie]:
    out = []
    for it in items:
        extra = dict(it.extra)
        extra["_pattern"] = it.pattern
        out.append(TrueDie(value=it.value, centre=(float(it.centre[0]), float(it.centre[1])),
                           box=die_box(it.centre, it.size, it.angle, size), size_px=float(it.size),
                           angle_deg=float(it.angle) % 360.0, leaning=it.leaning, colour=it.colour, extra=extra))
    return out


def _resolve_seed(seed: int | None) -> int:
    if seed is None:
        return int(np.random.SeedSequence().entropy % (2 ** 63))
    return int(seed)


def _hand_for(size: Size, rng: np.random.Generator, avoid_edge: str | None = None) -> HandSpec:
    edges = [e for e in ("top", "left", "right", "bottom") if e != avoid_edge]
    edge = edges[int(rng.integers(0, len(edges)))]
    w, h = size
    across = h if edge in ("top", "bottom") else w
    return HandSpec(edge=edge, pos=float(rng.uniform(0.3, 0.7)), reach=float(rng.uniform(0.3, 0.45)) * across,
                    width=0.19 * min(w, h), tilt_deg=float(rng.uniform(-20, 20)))


# --------------------------------------------------------------------------- public API


def render_tray(values: Sequence[int], *, seed: int | None = None, size: Size = (640, 480),
                style: TrayStyle | None = None, die_px: float | None = None,
                colours: Sequence[str] | None = None, touching: int = 0, leaning: Sequence[int] = (),
                held: Sequence[int | TrueDie] = (), held_zone: Box | None = None,
                hands: bool | HandSpec = False, glare: bool | tuple[float, float] = False,
                motion_blur: float | None = None, noise_sigma: float | None = None,
                tray_seed: int = 0, things: Sequence[ThingSpec] = ()) -> RenderedTray:
    """Draw a tray seen from above with dice showing `values` at random free spots.

    `touching` pairs of thrown dice are placed in contact; `leaning` lists indices of dice
    cocked on an edge; `held` dice (values, or TrueDie for exact spots) sit at fixed places in
    `held_zone` (default: a strip along the bottom edge); `hands` adds a hand reaching in;
    `glare` adds a specular spot (True: random place, or an (x, y) centre) using style.glare
    (or 1.3 if the style has none); `things` lie in the tray (the dice clear of them). Raises
    ValueError for impossible requests.
    """
    size = _check_size(size)
    style = style or TrayStyle()
    seed = _resolve_seed(seed)
    rng = np.random.default_rng(seed)
    hand = None
    if hands:
        hand = hands if isinstance(hands, HandSpec) else _hand_for(size, rng, "bottom" if held else None)
    lay = _layout(values, held, size, style, rng, die_px, colours, touching, leaning, held_zone, things=things)
    glare_centre = None
    if glare is not False and glare is not None:
        if style.glare <= 0:
            style = dataclasses.replace(style, glare=1.3)
        if glare is True:
            glare_centre = (float(rng.uniform(0.25, 0.75)) * size[0], float(rng.uniform(0.25, 0.75)) * size[1])
        else:
            glare_centre = (float(glare[0]), float(glare[1]))
    elif style.glare > 0:
        glare_centre = (float(rng.uniform(0.25, 0.75)) * size[0], float(rng.uniform(0.25, 0.75)) * size[1])
    blur = style.motion_blur if motion_blur is None else float(motion_blur)
    sigma = style.noise_sigma if noise_sigma is None else float(noise_sigma)
    img, hand_box = _compose(size, style, lay.items, hand, rng, tray_seed, glare_centre, sigma, blur, things)
    return RenderedTray(img, _truth(lay.items, size), lay.tray, hand_box, glare_centre, seed)


def render_scene(dice: Sequence[TrueDie], *, seed: int | None = None, size: Size = (640, 480),
                 style: TrayStyle | None = None, hand: HandSpec | None = None,
                 glare_centre: tuple[float, float] | None = None, motion_blur: float | None = None,
                 noise_sigma: float | None = None, tray_seed: int = 0,
                 things: Sequence[ThingSpec] = (), over: Sequence[ThingSpec] = ()) -> RenderedTray:
    """Draw exactly these dice (e.g. a previous `truth`, with one die moved by dataclasses.replace).

    Only value, centre, size_px, angle_deg, colour and leaning are used; boxes are recomputed.
    `seed` only drives the sensor noise here. `things` lie under the dice, `over` on top of them
    (a cup put down over some of the dice: the truth still lists the dice under it).
    """
    size = _check_size(size)
    style = style or TrayStyle()
    check_values([d.value for d in dice], "dice values")
    rng = np.random.default_rng(_resolve_seed(seed))
    items = [_Item(d.value, d.centre, d.size_px, d.angle_deg, d.colour, d.leaning,
                   pattern=float(d.extra.get("_pattern", 0.0)),
                   extra={k: v for k, v in d.extra.items() if k != "_pattern"}) for d in dice]
    blur = style.motion_blur if motion_blur is None else float(motion_blur)
    sigma = style.noise_sigma if noise_sigma is None else float(noise_sigma)
    img, hand_box = _compose(size, style, items, hand, rng, tray_seed, glare_centre, sigma, blur, things, over)
    return RenderedTray(img, _truth(items, size), tray_rect(size, style), hand_box, glare_centre, seed)


class ThrowAnimation:
    """Frames of one throw: idle tray (held dice only), a hand coming in, dice tumbling with motion
    blur and random faces, dice slowing to rest on their final faces, then still frames that differ
    only by sensor noise. Iterate for frames; `phases[i]` names frame i ("idle", "hand", "tumble",
    "settle", "still"); `final` is the RenderedTray truth of the resting dice (image = last frame).
    """

    PHASES = ("idle", "hand", "tumble", "settle", "still")

    def __init__(self, values: Sequence[int], held: Sequence[int | TrueDie] = (), *, seed: int | None = None,
                 size: Size = (640, 480), fps: float = 10.0, style: TrayStyle | None = None,
                 die_px: float | None = None, colours: Sequence[str] | None = None,
                 idle_frames: int | None = None, still_frames: int = 6, tray_seed: int = 0,
                 held_zone: Box | None = None) -> None:
        if fps <= 0:
            raise ValueError(f"fps must be positive, got {fps}")
        self.size = _check_size(size)
        self.style = style or TrayStyle()
        self.seed = _resolve_seed(seed)
        self.fps = float(fps)
        self.tray_seed = tray_seed
        rng = np.random.default_rng(self.seed)
        self._layout = _layout(values, held, self.size, self.style, rng, die_px, colours, 0, (), held_zone)
        self.hand = _hand_for(self.size, rng, "bottom" if held else None)
        n = lambda sec: max(1, int(round(sec * self.fps)))  # noqa: E731
        self.phases: list[str] = (["idle"] * (n(0.3) if idle_frames is None else idle_frames)
                                  + ["hand"] * n(0.3) + ["tumble"] * n(0.8) + ["settle"] * n(0.3)
                                  + ["still"] * still_frames)
        # tumbling starts near the hand's fingertips
        w, h = self.size
        hs = self.hand
        start = {"top": (hs.pos * w, hs.reach * 0.8), "bottom": (hs.pos * w, h - hs.reach * 0.8),
                 "left": (hs.reach * 0.8, hs.pos * h), "right": (w - hs.reach * 0.8, hs.pos * h)}[hs.edge]
        self._paths = []
        for it in self._layout.items[: self._layout.n_thrown]:
            p0 = (start[0] + float(rng.normal(0, 0.05 * w)), start[1] + float(rng.normal(0, 0.05 * h)))
            bend = float(rng.normal(0, 0.15)) * min(w, h)
            spin = float(rng.uniform(360, 900)) * (1 if rng.random() < 0.5 else -1)
            wobble = float(rng.uniform(4, 10))
            self._paths.append((p0, bend, spin, wobble))
        self._faces = rng.integers(1, 7, size=(len(self.phases), len(self._paths)))
        final_img = self._frame(len(self.phases) - 1) if self.phases else None
        self.final = RenderedTray(final_img if final_img is not None else np.zeros((h, w, 3), np.uint8),
                                  _truth(self._layout.items, self.size), self._layout.tray, None, None, self.seed)

    def __len__(self) -> int:
        return len(self.phases)

    def __iter__(self) -> Iterator[np.ndarray]:
        for i in range(len(self.phases)):
            yield self._frame(i)

    def frames_with_phase(self) -> Iterator[tuple[str, np.ndarray]]:
        for i in range(len(self.phases)):
            yield self.phases[i], self._frame(i)

    def _pose(self, k: int, t: float, it: _Item) -> tuple[tuple[float, float], float]:
        """Position and angle of thrown die k at progress t (0: leaves the hand, 1: at rest)."""
        (x0, y0), bend, spin, _ = self._paths[k]
        x1, y1 = it.centre
        e = 1.0 - (1.0 - t) ** 3
        dx, dy = x1 - x0, y1 - y0
        L = math.hypot(dx, dy) or 1.0
        side = math.sin(math.pi * e) * bend
        return (x0 + dx * e - dy / L * side, y0 + dy * e + dx / L * side), it.angle + spin * (1.0 - e)

    def _frame(self, i: int) -> np.ndarray:
        phase = self.phases[i]
        rng = np.random.default_rng((self.seed, i, 7))
        thrown = self._layout.items[: self._layout.n_thrown]
        held = self._layout.items[self._layout.n_thrown:]
        items: list[_Item] = list(held)
        hand: HandSpec | None = None
        first = self.phases.index
        if phase == "hand":
            k = i - first("hand") + 1
            nk = self.phases.count("hand")
            hand = dataclasses.replace(self.hand, reach=self.hand.reach * (0.35 + 0.65 * k / nk))
        elif phase == "tumble":
            k = i - first("tumble")
            nt = self.phases.count("tumble")
            if k < nt // 2:  # the hand pulls back while the dice roll away
                hand = dataclasses.replace(self.hand, reach=self.hand.reach * (1.0 - 0.9 * (k + 1) / (nt // 2 + 1)))
            t = (k + 1) / (nt + 1) * 0.85
            dt = 0.5 / (nt + 1) * 0.85
            for j, it in enumerate(thrown):
                (c, a) = self._pose(j, t, it)
                (cp, _) = self._pose(j, max(0.0, t - dt), it)
                items.append(dataclasses.replace(it, value=int(self._faces[i, j]), centre=c, angle=a,
                                                 blur=(c[0] - cp[0], c[1] - cp[1])))
        elif phase == "settle":
            k = i - first("settle")
            ns = self.phases.count("settle")
            for j, it in enumerate(thrown):
                wob = self._paths[j][3] * (1.0 - (k + 1) / (ns + 1))
                c = (it.centre[0] + wob * 0.3, it.centre[1] - wob * 0.2)
                items.append(dataclasses.replace(it, centre=c, angle=it.angle + wob, blur=(wob * 0.3, 0.0)))
        elif phase == "still":
            items.extend(thrown)
        img, _ = _compose(self.size, self.style, items, hand, rng, self.tray_seed, None,
                          self.style.noise_sigma, self.style.motion_blur)
        return img


def throw_frames(values: Sequence[int], held: Sequence[int | TrueDie] = (), **kwargs: Any) -> Iterator[np.ndarray]:
    """Frames of a throw (see ThrowAnimation), for the headless demo's synthetic camera."""
    return iter(ThrowAnimation(values, held, **kwargs))


# --------------------------------------------------------------------------- CLI


def _ints(text: str) -> list[int]:
    if not text.strip():
        return []
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.synthetic", description="Render synthetic dice trays to PNG + JSON truth.")
    p.add_argument("outdir", type=Path)
    p.add_argument("--values", type=_ints, default=[3, 5, 1], help="comma-separated die values, e.g. 3,5,1")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--size", default="640x480", help="WIDTHxHEIGHT")
    p.add_argument("--style", default="green", help=f"one of {', '.join(STYLES)}")
    p.add_argument("--colours", default=None, help="comma-separated die colours, e.g. red/white,marbled")
    p.add_argument("--die-px", type=float, default=None)
    p.add_argument("--held", type=_ints, default=[], help="values of held dice parked at the bottom")
    p.add_argument("--touching", type=int, default=0)
    p.add_argument("--leaning", type=_ints, default=[], help="indices of leaning dice")
    p.add_argument("--hands", action="store_true")
    p.add_argument("--glare", action="store_true")
    p.add_argument("--blur", type=float, default=None, help="motion blur length px")
    p.add_argument("--border", type=int, default=None, help="table border around the tray, px")
    p.add_argument("--throw", action="store_true", help="also write the frames of a throw animation")
    args = p.parse_args(argv)
    try:
        w, h = (int(x) for x in args.size.lower().split("x"))
        style = TrayStyle.preset(args.style)
        if args.border is not None:
            style = dataclasses.replace(style, border_px=args.border)
        colours = args.colours.split(",") if args.colours else None
        shot = render_tray(args.values, seed=args.seed, size=(w, h), style=style, die_px=args.die_px,
                           colours=colours, touching=args.touching, leaning=args.leaning, held=args.held,
                           hands=args.hands, glare=args.glare, motion_blur=args.blur)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    args.outdir.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.outdir / "tray.png"), shot.image)
    (args.outdir / "truth.json").write_text(json.dumps(shot.to_json(), indent=2))
    written = ["tray.png", "truth.json"]
    if args.throw:
        anim = ThrowAnimation(args.values, args.held, seed=args.seed, size=(w, h), style=style,
                              die_px=args.die_px, colours=colours)
        for i, (phase, frame) in enumerate(anim.frames_with_phase()):
            name = f"throw_{i:03d}_{phase}.png"
            cv2.imwrite(str(args.outdir / name), frame)
        (args.outdir / "throw_truth.json").write_text(json.dumps(
            {"phases": anim.phases, **anim.final.to_json()}, indent=2))
        written.append(f"{len(anim)} throw frames + throw_truth.json")
    print(f"wrote {', '.join(written)} to {args.outdir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
