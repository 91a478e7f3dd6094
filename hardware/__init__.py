"""Hardware behind interfaces: frame sources (camera stand-ins) and button sources.

Depends on nothing else in dicetable (the controller composes hardware with vision and
display). Importing this package imports numpy/OpenCV only; gpiozero, pyserial, pygame and
picamera2 are imported by the source that needs them, when it is built.
"""
from .buttons import (
    BUTTON_NAMES,
    DIRECTIVE,
    HOLD,
    PRESS,
    RELEASE,
    ButtonEvent,
    ButtonSource,
    MultiButtonSource,
    SourceStatus,
    button_source_types,
    make_button_source,
    register_button_source,
)
from .frames import (
    Frame,
    FrameSource,
    FrameSourceError,
    frame_source_types,
    make_frame_source,
    register_frame_source,
    to_bgr_uint8,
)
from .retry import Backoff, RetryingFrameSource

__all__ = [
    "BUTTON_NAMES", "DIRECTIVE", "HOLD", "PRESS", "RELEASE",
    "ButtonEvent", "ButtonSource", "MultiButtonSource", "SourceStatus",
    "button_source_types", "make_button_source", "register_button_source",
    "Frame", "FrameSource", "FrameSourceError", "frame_source_types", "make_frame_source",
    "register_frame_source", "to_bgr_uint8",
    "Backoff", "RetryingFrameSource",
]
