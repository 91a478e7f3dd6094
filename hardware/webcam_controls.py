"""A webcam's automatic exposure, white balance and focus, frozen after a warm-up (V4L2 controls).

A cheap UVC webcam keeps adjusting its exposure, white balance and focus from frame to frame: on a
still tray the picture breathes (a few grey levels up and down, the colours drifting, the focus
hunting when a hand has passed), and the settle tracker takes that for dice moving. So, as the
picamera2 source does, the auto values are let converge for a warm-up, then frozen: each control
is read while it is automatic and written back once the automatic mode is off.

The control values are V4L2's own (OpenCV passes them through with its V4L2 backend): exposure
auto is 3 (aperture priority, what UVC webcams have) and manual 1; white balance and focus auto
are 1 and 0. Other backends mean other things by them, so only a capture opened by V4L2 is
touched. UVC controls outlive the program, so they are set back to automatic before every
warm-up: a lock from the last run (another light) is never taken as the camera's measure.

Some webcams do not report the value their automatic mode chose, and jump to a stale manual value
when it is switched off: the picture then turns much darker or brighter at once, or blurred. That
is checked (the light and the sharpness of the frames before and after) and such a camera is left
on automatic (its focus alone when only the focus jumped), with a warning.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2

#: V4L2_EXPOSURE_APERTURE_PRIORITY and V4L2_EXPOSURE_MANUAL, as CAP_PROP_AUTO_EXPOSURE takes them
EXPOSURE_AUTO, EXPOSURE_MANUAL = 3, 1


@dataclass(frozen=True)
class AutoControl:
    """One automatic control: its switch, the values of the switch, and the value it drives."""

    name: str               # as the config's lock_<name> and the log say it
    switch: int             # CAP_PROP_AUTO_EXPOSURE ...
    auto: float
    manual: float
    value: int              # CAP_PROP_EXPOSURE ...


EXPOSURE = AutoControl("exposure", cv2.CAP_PROP_AUTO_EXPOSURE, EXPOSURE_AUTO, EXPOSURE_MANUAL, cv2.CAP_PROP_EXPOSURE)
WHITE_BALANCE = AutoControl("white_balance", cv2.CAP_PROP_AUTO_WB, 1, 0, cv2.CAP_PROP_WB_TEMPERATURE)
FOCUS = AutoControl("focus", cv2.CAP_PROP_AUTOFOCUS, 1, 0, cv2.CAP_PROP_FOCUS)


def sharpness(image: Any) -> float:
    """How sharp a frame is (the variance of its Laplacian, + 1): a focus frozen at a value the
    camera did not really have blurs the tray, which its light does not show."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image[:, :, :3], cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(grey, cv2.CV_32F).var()) + 1.0


def value_of(cap: Any, prop: int) -> float | None:
    """A control's value, None when the capture does not have it (OpenCV says -1) or fails."""
    try:
        value = float(cap.get(prop))
    except Exception:               # (cv2.error from a backend without that property)
        return None
    return value if value == value and value >= 0 else None


def set_auto(cap: Any, controls: list[AutoControl]) -> list[AutoControl]:
    """Switch `controls` to automatic; the ones the camera has (it took the switch)."""
    return [c for c in controls if _set(cap, c.switch, c.auto)]


def freeze(cap: Any, controls: list[AutoControl]) -> dict[str, float]:
    """Read each control's value while it is automatic, switch it to manual and write the value
    back (a camera that kept its own value keeps it): the values frozen, by name."""
    frozen = {}
    for control in controls:
        value = value_of(cap, control.value)
        if not _set(cap, control.switch, control.manual):
            continue
        if value is not None:
            _set(cap, control.value, value)
            frozen[control.name] = value
        else:
            frozen[control.name] = float("nan")     # (switched off where it was; its value unknown)
    return frozen


def _set(cap: Any, prop: int, value: float) -> bool:
    try:
        return bool(cap.set(prop, float(value)))
    except Exception:               # (cv2.error from a backend without that property)
        return False
