"""Settle detection: when is a throw over, and which reading of it is final?

The pip reader is too slow (and too easily fooled by tumbling dice) to trust on every camera
frame, so a cheap tracker watches every frame and says when a reading is worth taking and when
readings may be believed.

    tracker = SettleTracker()                        # or SettleTracker(SettleConfig(...), tray=(x0, y0, x1, y1))
    for frame, t in camera:
        state = tracker.update(frame, t)             # EMPTY / MOVING / SETTLED, ~1 ms per frame
        if tracker.wants_reading:
            tracker.offer(reader.read(frame), t)
        for event in tracker.drain_events():         # StateChanged, FinalReading, DiceMoved
            ...
        tracker.final_reading()                      # Reading | None

States
    MOVING   something moves (a throw, a hand, a cup), the tray has not yet been still for
             `still_frames` frames, the latest reading saw a foreign object (a resting hand),
             or the latest reading saw nothing of the tray (too dark, too bright, a frame that
             could not be read): what lies there is not known, so the tray is not called empty.
             The tracker also starts in MOVING: nothing is known until the tray has been still.
    EMPTY    still, and nothing on the tray: the agreed readings have no dice or, before any
             reading agreed, the frame looks like bare felt (compared with an empty reference
             frame if one was given, else by local contrast). A reading of no dice where the
             dice last read lay under something else (a cup put down over them) is DICE_COVERED,
             blocking as a foreign object does, not an empty tray (vision.covered); so is a
             reading of some of them, where the rest are covered (not a throw of fewer dice).
    SETTLED  still with something on the tray. `final_reading()` is set once readings agree.

Motion is measured by differencing a small grey copy of each frame (default 160 px wide) with
the previous one and with the first frame of the current still spell (so a slow creep is caught),
each row's light matched first (an exposure step; a mains lamp's flicker seen by a rolling
shutter, bands of light that move from frame to frame: light, not motion).

Final readings
    A reading is final when the tray has been still for `still_frames` consecutive frames and
    `still_seconds` by their timestamps (whichever is longer: the same wait at any frame rate) AND
    the last `agree_readings` readings offered during that still spell agree: same number of
    dice, same values, each die within `box_tolerance` x die size of its match. Readings offered
    while moving are dropped. Readings that report a foreign object, blur, a bad frame or a
    frame too dark or too bright to see into never agree. Readings with other problems (leaning
    die, touching dice, ...) can become final: the controller decides what those mean.
    A die whose value flickers between readings (a hard face read 2 in one frame, 1 in the next)
    would keep a still tray from ever agreeing: after `unsure_after` readings that place the same
    dice, the latest is made final with such dice unread (UNSURE_VALUE). A tray that is still but
    whose readings keep disagreeing otherwise (a die seen in some frames only) is `unsteady`.

After a final reading, the next motion does not by itself start a new throw. When the tray is
final again, the new reading is compared with the previous final one:
    * same dice, none moved -> no event (a hand passed over); the final reading is restored;
    * a minority of dice moved and the motion stayed local -> DiceMoved (which dice, by index
      in the new reading; `changed` lists moved dice whose value also changed, e.g. a die that
      was turned rather than slid);
    * the count changed, most dice moved, or the motion covered a large part of the tray
      (`large_motion_fraction`) -> FinalReading with a new throw number.
A FinalReading before anything was seen moving since the tracker started is `found`: dice
lying there already (a game before, a restart), read but not seen thrown.

Everything is plain Python and numpy + OpenCV; no hardware, no controller imports.
"""
from __future__ import annotations

import dataclasses
import enum
import math
from collections import deque
from dataclasses import dataclass

import cv2
import numpy as np

from .covered import COVER_SAME_PLACE, COVERED_CHANGED, covered_share, unseen_dice, with_cover
from .left_things import read_around
from .types import (BAD_FRAME, BLURRED, DICE_COVERED, FOREIGN_OBJECT, TOO_BRIGHT, TOO_DARK, UNSURE_VALUE, Die, Problem,
                    Reading)

Box = tuple[int, int, int, int]

# Readings that saw nothing of the tray: no dice in them does not mean an empty tray. Taken as
# empty, a lamp gone dark said "Tray empty" over the dice, and the dice last played, lying there
# through the dark, were the next throw once it came back (the table forgets the dice played when
# the tray is seen empty).
BLIND_PROBLEMS = frozenset({TOO_DARK, TOO_BRIGHT, BAD_FRAME})
BLOCKING_PROBLEMS = frozenset({FOREIGN_OBJECT, DICE_COVERED, BLURRED}) | BLIND_PROBLEMS
# The share of a thing's place that may have changed since the tray's last settled still spell for
# it to have lain there through the throw (vision.left_things): a die landing at the corner of a
# phone's box (a third of a die in it) changes under a tenth of it, a cup put down most of it.
LEFT_CHANGED = 0.15


class SettleState(str, enum.Enum):
    EMPTY = "empty"
    MOVING = "moving"
    SETTLED = "settled"


# What each knob may be, and why (config.toml's [vision.settle] is checked against these). Out of
# range, or nan/inf, the tracker never sees a still tray or never an occupied one, and the table
# sits at "Dice moving..." or "Tray empty" for ever without a word. The ranges leave room for any
# real camera: 5 fps to 60 fps, a noisy sensor, a tray seen small or whole.
SETTLE_RANGES: dict[str, tuple[float, float, str]] = {
    "still_frames": (1, 100, " frames"),                # 100: 10 s at 10 fps, under 2 s at 60 fps
    "still_seconds": (0.0, 10.0, " s"),                 # 0: frames alone; 10: a throw read 10 s after it stopped
    "agree_readings": (1, 20, " readings"),
    "box_tolerance": (0.01, 2.0, " x die size"),        # 0: no two readings ever agree; 2: a die's width off
    "work_width": (16, 4000, " px"),                    # (never wider than the frame: it is capped there)
    "pixel_threshold": (1, 254, " grey levels"),        # 0: sensor noise is motion; 255: nothing is
    "motion_fraction": (0.0001, 0.5, " of the pixels"),  # 0: always moving; above half: never
    "occupancy_threshold": (1, 254, " grey levels"),
    "occupancy_fraction": (0.0001, 0.5, " of the pixels"),  # 1 or more: a tray full of dice is "empty"
    "large_motion_fraction": (0.01, 1.0, " of the tray"),
    "max_moved_fraction": (0.0, 1.0, " of the dice"),
    "unsure_after": (0, 200, " readings"),              # 0: wait for agreement; 200: 20 s at 10 fps
}


@dataclass(frozen=True)
class SettleConfig:
    """Tuning knobs; the defaults suit a 10 to 30 fps camera looking at a whole tray."""

    still_frames: int = 5               # K: consecutive still frames before a reading may be final
    # ...and at least this long still, by the frames' timestamps. Why: K frames are 0.5 s at
    # 10 fps but 0.17 s at 30 fps, and a die that rests a moment on an edge before it falls
    # over, or stops before it is knocked on, was read final at 30 fps (5 of 12 careless throws
    # of vision.throw_bench; 0 at 10 fps). 0.5 s is what K frames always meant at 10 fps.
    still_seconds: float = 0.5
    agree_readings: int = 3             # M: readings that must agree
    box_tolerance: float = 0.25         # max centre shift between agreeing readings, x die size
    work_width: int = 160               # width of the grey image used for differencing
    pixel_threshold: int = 14           # grey-level change (after exposure compensation) counted as motion
    motion_fraction: float = 0.002      # share of changed pixels that makes a frame "moving"
    occupancy_threshold: int = 28       # grey-level contrast that counts as "something on the felt"
    occupancy_fraction: float = 0.0015  # share of such pixels that makes the tray not empty
    large_motion_fraction: float = 0.12  # motion covering this share of the tray = a new throw (slides ~0.05, throws 0.15+)
    max_moved_fraction: float = 0.5     # more than this share of dice moved = a new throw
    # ASSUMPTION: a die whose read flickers (2 in one frame, 1 in the next) must not keep a still
    # tray from ever becoming final. After this many readings of one still spell that place the
    # same dice but never agree on every value, the reading is final with those dice unread (the
    # table then asks for a re-throw or the values by hand). 0: wait for agreement however long.
    unsure_after: int = 8

    def __post_init__(self) -> None:
        for name, (low, high, unit) in SETTLE_RANGES.items():
            value = getattr(self, name)
            if not (math.isfinite(value) and low <= value <= high):   # (nan fails every comparison)
                raise ValueError(f"{name} must be from {low} to {high}{unit}, not {value}")
        if self.unsure_after and self.unsure_after <= self.agree_readings:
            raise ValueError("unsure_after must be 0 or more than agree_readings")
        if self.work_width < 16:
            raise ValueError("work_width must be at least 16 px")


@dataclass(frozen=True)
class StateChanged:
    old: SettleState
    new: SettleState
    t: float


@dataclass(frozen=True)
class FinalReading:
    """A throw is over and read: `throw` counts throws seen by this tracker (1, 2, ...).

    `found`: nothing has moved since the tracker started, so these dice were lying there
    already (left from a game before, or from before a restart): read, but not seen thrown."""

    reading: Reading
    throw: int
    t: float
    found: bool = False


@dataclass(frozen=True)
class DiceMoved:
    """Some dice of the current throw were slid (not thrown): indices into `reading.dice`."""

    reading: Reading
    previous: Reading
    moved: tuple[int, ...]
    changed: tuple[int, ...]            # moved dice whose value differs from before
    throw: int
    t: float


Event = StateChanged | FinalReading | DiceMoved


def die_size(d: Die) -> float:
    """Side of a die from its axis-aligned box (geometric mean, good enough for tolerances)."""
    w, h = d.box[2] - d.box[0], d.box[3] - d.box[1]
    return max(1.0, math.sqrt(max(w, 1) * max(h, 1)))


def match_dice(a: Reading, b: Reading) -> list[tuple[int, int, float]]:
    """Greedy nearest-centre matching: (index in a, index in b, distance / die size), closest first."""
    pairs = []
    for i, da in enumerate(a.dice):
        for j, db in enumerate(b.dice):
            dist = math.hypot(da.centre[0] - db.centre[0], da.centre[1] - db.centre[1])
            pairs.append((dist / ((die_size(da) + die_size(db)) / 2), i, j))
    pairs.sort()
    used_a: set[int] = set()
    used_b: set[int] = set()
    out = []
    for rel, i, j in pairs:
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
            out.append((i, j, rel))
    return out


def same_dice(a: Reading, b: Reading, box_tolerance: float) -> list[tuple[int, int, float]] | None:
    """The matches of `match_dice` when both readings place the same dice (same count, every die
    matched within tolerance, nothing blocking), whatever their values; else None."""
    if a.problem_codes() & BLOCKING_PROBLEMS or b.problem_codes() & BLOCKING_PROBLEMS:
        return None
    if len(a.dice) != len(b.dice):
        return None
    matches = match_dice(a, b)
    if len(matches) != len(a.dice) or any(rel > box_tolerance for _i, _j, rel in matches):
        return None
    return matches


def readings_agree(a: Reading, b: Reading, box_tolerance: float) -> bool:
    """Same count, same values, every die matched within tolerance; blocking problems never agree."""
    matches = same_dice(a, b, box_tolerance)
    return matches is not None and all(a.dice[i].value == b.dice[j].value for i, j, _rel in matches)


def flickering_unread(readings: list[Reading], box_tolerance: float) -> Reading | None:
    """The last of `readings` with the dice whose value is not the same in all of them made
    unread, if every reading places the same dice (same count, none moved, nothing blocking);
    else None. Why: a die read 2 in one frame and 1 in the next is one the reader is not sure
    of, whatever each frame says."""
    last = readings[-1]
    values: list[set[int | None]] = [{d.value} for d in last.dice]
    for r in readings[:-1]:
        matches = same_dice(last, r, box_tolerance)
        if matches is None:
            return None
        for i, j, _rel in matches:
            values[i].add(r.dice[j].value)
    flicker = [i for i, v in enumerate(values) if len(v) > 1]
    if not flicker:
        return None     # (cannot happen when the readings disagree: kept for safety)
    dice = list(last.dice)
    for i in flicker:
        d = dice[i]
        dice[i] = dataclasses.replace(d, value=None, confidence=0.0,
                                      problems=tuple(dict.fromkeys(d.problems + (UNSURE_VALUE,))))
    seen = " or ".join(str(v) for v in sorted(v for v in values[flicker[0]] if v is not None)) or "?"
    problem = Problem(UNSURE_VALUE, f"die {flicker[0] + 1} reads {seen} from one frame to the next",
                      tuple(int(v) for v in dice[flicker[0]].box))
    return dataclasses.replace(last, dice=tuple(dice), problems=last.problems + (problem,))


class SettleTracker:
    """Watches frames and readings; see the module docstring for states and events."""

    def __init__(self, config: SettleConfig | None = None, *, tray: Box | None = None,
                 empty_reference: np.ndarray | None = None) -> None:
        self.config = config or SettleConfig()
        self.tray = tray
        self._events: list[Event] = []
        self._ref_small: np.ndarray | None = None
        self._work_map: tuple[int, int, float] | None = None   # (x, y offset, scale) of the small image
        self._frame_width = 0
        self.reset()
        if empty_reference is not None:
            self.set_empty_reference(empty_reference)

    # ------------------------------------------------------------------ public API

    def reset(self) -> None:
        """Forget everything seen (not the config, tray or empty reference)."""
        self._prev: np.ndarray | None = None
        self._anchor: np.ndarray | None = None
        self._still = 0
        self._moved_at: float | None = None     # timestamp of the last frame that moved (or the first)
        self._state = SettleState.MOVING
        self._occupied: bool | None = None
        # the readings of this still spell (since the last motion or final), as many as any rule looks at
        self._readings: deque[Reading] = deque(maxlen=max(2 * self.config.agree_readings, self.config.unsure_after))
        self._final: Reading | None = None       # final reading of the current still spell
        self._last_final: Reading | None = None  # most recent final (kept through motion)
        self._episode: np.ndarray | None = None  # union of motion since the last final
        self._foreign = False
        self._blind = False                      # the latest reading saw nothing of the tray
        # the tray as it lay through the last settled still spell (its first still frame, small):
        # a thing not a die whose place looks the same now was left there before the throw, and
        # is read around (vision.left_things)
        self._before: np.ndarray | None = None
        # the tray as the dice of the last final reading with dice lay (small): felt about their
        # places changed since, with no dice read, means they are covered, not gone (vision.covered)
        self._dice_pic: np.ndarray | None = None
        self._seen_motion = False                # anything moved since the start (see FinalReading.found)
        self._throws = 0
        self._t = 0.0
        self.last_motion = 0.0

    @property
    def state(self) -> SettleState:
        return self._state

    @property
    def still_frames(self) -> int:
        """Consecutive still frames so far (0 while moving)."""
        return self._still

    def _still_enough(self) -> bool:
        """Still for `still_frames` frames and `still_seconds` of the frames' time."""
        if self._still < self.config.still_frames:
            return False
        return self._moved_at is None or self._t - self._moved_at >= self.config.still_seconds - 1e-6

    @property
    def wants_reading(self) -> bool:
        """True when a reading of the current frame would help: still, and not final yet."""
        return self._still > 0 and self._final is None

    @property
    def unsteady(self) -> bool:
        """Still, but twice the readings that should agree have not (a die seen in some frames
        only, or whose value changes): worth telling the players."""
        return self._final is None and self._still_enough() \
            and len(self._readings) >= 2 * self.config.agree_readings

    @property
    def throws(self) -> int:
        return self._throws

    def final_reading(self) -> Reading | None:
        """The agreed reading of the dice at rest now; None while moving or not yet agreed."""
        return self._final

    def last_final_reading(self) -> Reading | None:
        """The most recent final reading, kept while the tray is disturbed."""
        return self._last_final

    def drain_events(self) -> list[Event]:
        """Events since the last call, oldest first."""
        out, self._events = self._events, []
        return out

    def set_empty_reference(self, frame: np.ndarray) -> None:
        """A frame of the empty tray: makes EMPTY/SETTLED decisions without readings more reliable."""
        self._ref_small = self._small(frame)

    def update(self, frame: np.ndarray, timestamp: float) -> SettleState:
        """Feed one camera frame. Cheap enough for every frame."""
        self._t = float(timestamp)
        small = self._small(frame)
        if self._moved_at is not None and self._t < self._moved_at:
            self._moved_at = self._t        # (timestamps went back: a camera's clock reset; wait afresh)
        if self._prev is None or self._prev.shape != small.shape:
            self._prev, self._anchor = small, small
            self._still = 0
            self._moved_at = self._t
            self._set_state(SettleState.MOVING)
            return self._state
        mask = self._motion_mask(small, self._prev)
        frac = float(mask.mean())
        if frac < self.config.motion_fraction and self._anchor is not None:
            # slow creep: compare with the first frame of the still spell too
            creep = self._motion_mask(small, self._anchor)
            if creep.mean() >= self.config.motion_fraction:
                mask, frac = creep, float(creep.mean())
        self.last_motion = frac
        self._prev = small
        if frac >= self.config.motion_fraction:
            self._on_motion(mask)
        else:
            self._still += 1
            if self._still == 1:
                self._anchor = small
            if self._still_enough() and self._occupied is None:
                self._occupied = self._looks_occupied(small)
            self._try_final()
            self._refresh_state()
        return self._state

    def read_around(self, reading: Reading) -> Reading:
        """`reading` (of the latest frame) with the things not dice that lay where they lie now
        before the latest motion (a throw) not blocking it (LEFT_IN_TRAY); the same reading when
        there are none. `offer` does it too. A reading of no dice where the felt about the dice
        last read is covered (a cup put down over them) gets a DICE_COVERED problem: the tray is
        not empty, and the dice seen again as the cup is lifted are not a throw; so does a reading
        of fewer dice, where the cup covers the others."""
        reading = read_around(reading, lambda box: self._lay_there(box, reading.size))
        return with_cover(reading) if self._covered(reading) else reading

    def offer(self, reading: Reading, timestamp: float | None = None) -> Event | None:
        """Offer a reading of the latest frame. Returns the FinalReading / DiceMoved it caused, if any."""
        if timestamp is not None:
            self._t = float(timestamp)
        if self._still == 0:
            return None                       # taken while moving: worthless
        reading = self.read_around(reading)
        self._foreign = bool(reading.problem_codes() & {FOREIGN_OBJECT, DICE_COVERED})   # (a hand, a cup)
        self._blind = bool(reading.problem_codes() & BLIND_PROBLEMS)
        if self._final is not None:
            # already final: only a disagreeing reading matters (something changed we did not see)
            if not readings_agree(self._final, reading, self.config.box_tolerance):
                self._readings.clear()
                self._final = None
                self._readings.append(reading)
            self._refresh_state()
            return None
        self._readings.append(reading)
        n_events = len(self._events)
        self._try_final()
        self._refresh_state()
        new = [e for e in self._events[n_events:] if not isinstance(e, StateChanged)]
        return new[-1] if new else None

    # ------------------------------------------------------------------ internals

    def _small(self, frame: np.ndarray) -> np.ndarray:
        if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or frame.shape[0] < 4 or frame.shape[1] < 4:
            raise ValueError("frame must be a grey or BGR image array of at least 4x4 pixels")
        ox = oy = 0
        self._frame_width = frame.shape[1]      # (the tracked frame's, before any crop: see _lay_there)
        if self.tray is not None:
            x0, y0, x1, y1 = self.tray
            crop = frame[max(0, y0):max(0, y1), max(0, x0):max(0, x1)]
            if crop.shape[0] >= 4 and crop.shape[1] >= 4:
                frame, ox, oy = crop, max(0, x0), max(0, y0)
        h, w = frame.shape[:2]
        ww = min(self.config.work_width, w)
        self._work_map = (ox, oy, ww / w)      # frame pixels -> the small image's (see _lay_there)
        hh = max(4, int(round(h * ww / w)))
        if frame.ndim == 3 and frame.shape[2] in (3, 4) and frame.dtype in (np.uint8, np.uint16, np.float32):
            # grey first: the area average of one channel, not three (~0.25 of a ~0.6 ms update);
            # the grey image within a grey level of the average's grey (fix-calcost5)
            frame = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY if frame.shape[2] == 3 else cv2.COLOR_BGRA2GRAY)
        small = cv2.resize(frame, (ww, hh), interpolation=cv2.INTER_AREA)
        if small.ndim == 3:
            small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY if small.shape[2] == 3 else cv2.COLOR_BGRA2GRAY)
        if small.dtype != np.uint8:
            small = cv2.normalize(small, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
        return cv2.GaussianBlur(small, (3, 3), 0)

    def _motion_mask(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Pixels of `a` that changed from `b` by more than a change of light explains.

        Light changes by rows: an auto-exposure step changes every row alike, and a lamp
        flickering with the mains, seen by a rolling shutter (each row exposed a little later),
        lays bands of light and dark rows over the frame that move from frame to frame. So each
        row's light is matched by its own gain (the median ratio along the row, which is mostly
        tray) before the difference is taken; a die that moves changes a few pixels of a row, not
        its median. Without this, bands of +-5% kept a still tray "moving" for ever."""
        af = a.astype(np.float32) + 1.0
        bf = b.astype(np.float32) + 1.0
        gain = row_medians(af / bf)
        return np.abs(af - bf * gain) > self.config.pixel_threshold

    def _looks_occupied(self, small: np.ndarray) -> bool:
        cfg = self.config
        if self._ref_small is not None and self._ref_small.shape == small.shape:
            dev = cv2.absdiff(small, self._ref_small)
        else:
            k = max(3, (small.shape[1] // 8) | 1)
            dev = cv2.absdiff(small, cv2.medianBlur(small, k))
        return bool((dev > cfg.occupancy_threshold).mean() >= cfg.occupancy_fraction)

    def _on_motion(self, mask: np.ndarray) -> None:
        self._seen_motion = True
        self._note_left()
        self._still = 0
        self._moved_at = self._t
        self._anchor = None
        self._occupied = None
        self._readings.clear()
        self._foreign = False
        self._blind = False
        self._final = None
        if self._episode is None or self._episode.shape != mask.shape:
            self._episode = mask.copy()
        else:
            self._episode |= mask
        self._set_state(SettleState.MOVING)

    def _note_left(self) -> None:
        """As a still spell ends: if it was settled and seen (not dark), its picture is the tray
        as it lay before what comes next. A brief pause in a throw changes nothing."""
        if self._still >= self.config.still_frames and not self._blind and self._anchor is not None:
            self._before = self._anchor

    def _covered(self, reading: Reading) -> bool:
        """Whether `reading`, with nothing blocking, is of a tray some or all of whose dice last
        read are covered: it has fewer dice, each lying where one of them lay (COVER_SAME_PLACE),
        and most of the felt about the places of the others changed since they lay there (dice
        taken out leave it as it was). A cup over some of the dice left the others to be read as
        the next throw ("decide first"). See vision.covered."""
        last, before, now = self._last_final, self._dice_pic, self._prev
        if reading.problem_codes() & BLOCKING_PROBLEMS or last is None or len(reading.dice) >= len(last.dice):
            return False
        if before is None or now is None or before.shape != now.shape:
            return False
        gone = unseen_dice(reading, last, match_dice(reading, last), COVER_SAME_PLACE)
        if gone is None:
            return False
        boxes = [b for b in (self._small_box(d.box, last.size) for d in gone) if b is not None]
        seen = [b for b in (self._small_box(d.box, reading.size) for d in reading.dice) if b is not None]
        return bool(boxes) and covered_share(now, before, boxes, self.config.pixel_threshold, seen) >= COVERED_CHANGED

    def _small_box(self, box: Box, read_size: tuple[int, int] = (0, 0)) -> Box | None:
        """`box` (pixels of a frame of `read_size`) in the small image's pixels; None when it
        falls outside or under 2 px. A camera's full-size frame is read while its small stream is
        tracked (picamera2): the box is brought to the tracked frame's pixels first."""
        now, where = self._prev, self._work_map
        if now is None or where is None:
            return None
        ox, oy, k = where
        if read_size[0] > 0 and self._frame_width > 0:
            box = tuple(v * self._frame_width / read_size[0] for v in box)   # type: ignore[assignment]
        h, w = now.shape
        x0, x1 = max(0, int((box[0] - ox) * k)), min(w, int(math.ceil((box[2] - ox) * k)))
        y0, y1 = max(0, int((box[1] - oy) * k)), min(h, int(math.ceil((box[3] - oy) * k)))
        if x1 - x0 < 2 or y1 - y0 < 2:
            return None
        return x0, y0, x1, y1

    def _lay_there(self, box: Box, read_size: tuple[int, int] = (0, 0)) -> bool:
        """Whether the place `box` (pixels of a frame of `read_size`) of the latest frame looks as
        it did in the tray's last settled still spell: at most LEFT_CHANGED of it changed (a die
        landing at the corner of a phone's box changes a tenth of it; a hand or a cup put down,
        most). A camera's full-size frame is read while its small stream is tracked (picamera2):
        the box is brought to the tracked frame's pixels first."""
        before, now = self._before, self._prev
        small = self._small_box(box, read_size)
        if before is None or now is None or small is None or before.shape != now.shape:
            return False
        x0, y0, x1, y1 = small
        changed = self._motion_mask(now, before)[y0:y1, x0:x1]
        return float(changed.mean()) <= LEFT_CHANGED

    def _refresh_state(self) -> None:
        if not self._still_enough() or self._foreign or self._blind:
            self._set_state(SettleState.MOVING)
        elif self._final is not None:
            self._set_state(SettleState.SETTLED if self._final.dice else SettleState.EMPTY)
        else:
            self._set_state(SettleState.SETTLED if self._occupied else SettleState.EMPTY)

    def _set_state(self, new: SettleState) -> None:
        if new != self._state:
            self._events.append(StateChanged(self._state, new, self._t))
            self._state = new

    def _try_final(self) -> None:
        cfg = self.config
        if self._final is not None or not self._still_enough() or len(self._readings) < cfg.agree_readings:
            return
        recent = list(self._readings)[-cfg.agree_readings:]
        if all(readings_agree(recent[-1], r, cfg.box_tolerance) for r in recent[:-1]):
            reading = recent[-1]
        elif cfg.unsure_after and len(self._readings) >= cfg.unsure_after:
            reading = flickering_unread(list(self._readings)[-cfg.unsure_after:], cfg.box_tolerance)
            if reading is None:
                return
        else:
            return
        self._final = reading
        prev = self._last_final
        episode = float(self._episode.mean()) if self._episode is not None else 1.0
        self._episode = None
        self._last_final = reading
        if not reading.dice:
            return                            # empty tray: the state change says it
        self._dice_pic = self._prev           # (the dice as they lie: see _covered)
        if prev is None or not prev.dice or len(prev.dice) != len(reading.dice):
            self._new_throw(reading)
            return
        matches = match_dice(reading, prev)
        moved = sorted(i for i, j, rel in matches if rel > cfg.box_tolerance)
        changed = sorted(i for i, j, rel in matches if rel > cfg.box_tolerance
                         and reading.dice[i].value != prev.dice[j].value)
        flipped = [i for i, j, rel in matches if rel <= cfg.box_tolerance
                   and reading.dice[i].value != prev.dice[j].value]
        if not moved and not flipped:
            return                            # disturbed but unchanged: keep the throw
        if episode >= cfg.large_motion_fraction or len(moved) > cfg.max_moved_fraction * len(reading.dice):
            self._new_throw(reading)
            return
        moved_all = tuple(sorted(set(moved) | set(flipped)))
        self._events.append(DiceMoved(reading, prev, moved_all, tuple(sorted(set(changed) | set(flipped))),
                                      self._throws, self._t))

    def _new_throw(self, reading: Reading) -> None:
        self._throws += 1
        self._events.append(FinalReading(reading, self._throws, self._t, found=not self._seen_motion))


def row_medians(a: np.ndarray) -> np.ndarray:
    """`np.median(a, axis=1, keepdims=True)` of a 2-D float array without NaNs, bit for bit,
    without its overhead: one partition of the rows around their middle rank(s). The tracker
    takes a gain per row of every camera frame twice (the previous frame and the still spell's
    first); numpy's median cost ~0.05 ms of a 160 x 114 image, this ~0.03 (fix-calcost5)."""
    n = a.shape[1]
    h = n // 2
    if n % 2:
        # (numpy 2's partition of float32 around one rank is ~3x slower than around two)
        p = np.partition(a, (h, h + 1), axis=1) if n > 2 else np.partition(a, h, axis=1)
        return p[:, h:h + 1]
    p = np.partition(a, (h - 1, h), axis=1)
    return ((p[:, h - 1] + p[:, h]) / 2)[:, None]   # numpy's mean of the two, in the array's precision
