"""`dicetable calibrate --camera`: the calibration frames taken with the table's own camera.

Stills taken with another tool (`rpicam-still`) come at that tool's size and with its automatic
exposure, while the table reads frames of `main_size` at the exposure it locks itself. Taken
through the table's own camera source, the calibration frames are what the reader will see, and
the staff need one command instead of five. They are guided at the terminal: empty the tray and
press Enter, throw and press Enter. Each frame is taken once the tray has kept still (a hand
still over it is waited out) and checked with the reader: no die in the empty tray, dice in a
throw. Where the reader is wrong about that, typing `k` keeps the frame as it is.
"""
from __future__ import annotations

import argparse
import logging
import sys
import time
import tomllib
from pathlib import Path
from typing import Any, Callable

import numpy as np

from hardware import make_frame_source
from hardware.frames import FrameSource, FrameSourceError
from vision.calibrate import empty_tray_problem, throw_problem
from vision.settle import SettleConfig, SettleTracker

from .config import Config, ConfigError, load_config, read_config_text

log = logging.getLogger(__name__)

Ask = Callable[[str], str]
Say = Callable[[str], None]
Reader = Callable[[np.ndarray], Any]      # a frame -> a vision Reading

# How long the tray may keep moving after Enter before the staff are asked again.
STILL_TIMEOUT_S = 20.0
KEEP = "k"


class CameraCalibration:
    """Takes the empty-tray and throw frames from an open frame source, asking at the terminal."""

    def __init__(self, source: FrameSource, settle: SettleConfig, reader: Reader, *,
                 ask: Ask | None = None, say: Say = print, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, timeout_s: float = STILL_TIMEOUT_S):
        self.source = source
        self.settle = settle
        self.reader = reader
        self.ask = ask or (lambda prompt: input(prompt))   # (looked up when asked)
        self.say = say
        self.clock = clock
        self.sleep = sleep
        self.timeout_s = timeout_s

    def run(self, n_empty: int = 2, n_throws: int = 2) -> tuple[list[np.ndarray], list[np.ndarray]]:
        empty = [self.take(f"Empty tray ({i + 1} of {n_empty}): take every die out of the tray.",
                          self._no_dice) for i in range(n_empty)]
        throws = [self.take(f"Throw {i + 1} of {n_throws}: throw all the dice into the tray and let them stop.",
                            self._some_dice) for i in range(n_throws)]
        return empty, throws

    def take(self, prompt: str, check: Callable[[np.ndarray], str | None]) -> np.ndarray:
        """Ask, then take a still frame; while `check` says what is wrong with it, say so and ask
        again (typing `k` keeps the frame the check refused)."""
        refused: np.ndarray | None = None
        while True:
            if refused is None:
                answer = self._ask(f"{prompt} Then press Enter.")
            else:
                answer = self._ask(f"Press Enter to look again, or type {KEEP} and Enter to keep this frame as it is.")
                if answer.strip().lower() == KEEP:
                    return refused
            frame = self.still_frame()
            if frame is None:
                self.say(f"The tray did not keep still for {self.timeout_s:.0f} s (a hand over it? a moving "
                         "lamp?). Try again.")
                refused = None
                continue
            wrong = check(frame)
            if wrong is None:
                return frame
            self.say(wrong)
            refused = frame

    def still_frame(self) -> np.ndarray | None:
        """The first frame after the tray has been still for the settle tracker's `still_frames`
        (the table's own test of a finished throw); None if that takes over `timeout_s`."""
        tracker = SettleTracker(self.settle)
        deadline = self.clock() + self.timeout_s
        while self.clock() <= deadline:
            frame = self.source.read()
            if frame is None:
                if getattr(self.source, "finished", False):
                    raise ValueError("the camera stopped sending frames")
                self.sleep(0.01)
                continue
            tracker.update(frame.image, frame.timestamp)
            if tracker.still_frames >= self.settle.still_frames:
                return frame.image
        return None

    def _ask(self, prompt: str) -> str:
        try:
            return self.ask(prompt + " ")
        except EOFError:
            # (Ctrl-D is how many stop a program at a terminal: "run it in a terminal" was all they read)
            raise ValueError("no answer at the terminal (Ctrl-D pressed, or not run in a terminal, where --camera "
                             "asks its questions): nothing was saved") from None

    def _no_dice(self, frame: np.ndarray) -> str | None:
        return empty_tray_problem(self.reader, frame)

    def _some_dice(self, frame: np.ndarray) -> str | None:
        return throw_problem(self.reader, frame)


def camera_config(path: str | Path) -> Config:
    """The config whose camera `calibrate --camera` takes the frames with.

    Read strictly, the whole file had to be right: a café with one typo in [buttons] (a panel
    `type = "gpoi"`) could not calibrate, though calibrating never touches the buttons. Now a
    mistake elsewhere is left out as the table's own start leaves it out (load_config(lenient=True)),
    and said, so that the staff fix it, and the frames are taken. Still refused, with the words of
    before: a [camera] the table could not use as written (calibrating another camera than the
    table's would be worse than not calibrating), and a file that is not valid TOML or cannot be
    read (the calibration could not be saved into it either)."""
    try:
        return load_config(path)
    except ConfigError as exc:
        strict = exc
    if not strict.place or strict.place[0] == "camera":
        raise strict
    config = load_config(path, lenient=True)
    if not camera_as_written(config, path):
        raise next((ConfigError(p.split("\n")[0]) for p in config.problems if "[camera]" in p), strict)
    print("calibrate: the config has mistakes outside [camera] (logged above): calibrating goes on, as it "
          "uses only the camera; fix them afterwards, the table starts without them until then:"
          + "".join(f"\n  {p.split(chr(10))[0]}" for p in config.problems), file=sys.stderr)
    return config


def camera_as_written(config: Config, path: str | Path) -> bool:
    """Is `config`'s camera (read leniently) the [camera] of the file at `path` as written, none of
    it left out? (A line of it left out, a type misspelt: the built-in camera instead.)"""
    try:
        written = tomllib.loads(read_config_text(path)[0]).get("camera")
    except (OSError, ValueError):            # (tomllib's TOMLDecodeError is a ValueError)
        return False
    written = {} if written is None else written      # (no [camera]: the built-in one, as the table reads it)
    return isinstance(written, dict) and config.camera == {**Config().camera, **written}


def capture_from_camera(args: argparse.Namespace) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """`controller.calibrate.Capture` for `dicetable calibrate --camera`: the camera of the config
    being calibrated. Every failure is a ValueError whose message says what to do."""
    if args.throws < 1:
        raise ValueError("--throws must be at least 1")
    config = camera_config(args.config)        # a ConfigError is a ValueError
    for warning in config.warnings:
        log.warning("config: %s", warning)
    try:
        source = make_frame_source(config.camera)
        source.open()
    except FrameSourceError as exc:
        raise ValueError(f"cannot open the camera ({exc.reason}). If the table is running, stop it first: "
                         "sudo systemctl stop dicetable") from None
    from vision.reader import read

    try:
        # read uncalibrated: what is being measured may no longer match the old calibration
        return CameraCalibration(source, config.vision.settle_config(), lambda image: read(image)).run(
            n_throws=args.throws)
    except FrameSourceError as exc:
        # (an unplugged camera: "the camera failed: ..." alone, the staff not told the old
        # calibration was still there nor what to do)
        raise ValueError(f"the camera failed: {exc}. Check its cable (plug it back in with the table off) "
                         f"and calibrate again; nothing was saved, {args.config} is as it was") from None
    except KeyboardInterrupt:
        raise ValueError("cancelled; nothing was saved") from None
    finally:
        source.close()
