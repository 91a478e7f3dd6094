"""`dicetable demo`, `dicetable play --fixtures`, `dicetable run`: the table put together.

Each composes the same parts (a frame source, the settle tracker, the reader, the table flow,
a button source, the screen) and differs only in where frames and presses come from.
"""
from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from display.screen import Screen
from hardware import make_frame_source
from vision import reader as vision_reader
from vision.cli import output_folder
from vision.image_file import load as load_image
from vision.settle import SettleConfig, SettleTracker

from .config import screen_size_problem
from .demo import DemoDirector, Press
from .demo_text import check_player_count
from .draws import draw_first_player, first_player_words
from .journal import Journal
from .names import drawable_players, players_from
from .peak_memory import peak_rss_mb
from .plain_file import not_writable_over
from .rules import GAMES, OptionError, new_game
from .rules.base import shown
from .table import CONFIRM, DECIDE, OVER, WAIT_DICE, TableFlow
from .tablelog import LogError, TableLog, replay
from .runner import TableRunner, VirtualClock
from .watchdog import Watchdog

log = logging.getLogger(__name__)

DEMO_ORDER = ["thirteen", "classic", "objective-cards", "poknroll", "school"]
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise OptionError(f"--size takes WIDTHxHEIGHT, e.g. 800x480, not {text!r}") from None
    problem = screen_size_problem(w, h)
    if problem:
        raise OptionError(f"--size {problem}")
    return w, h


def _slug(game: str) -> str:
    return game.replace("-", "_")


# ---------------------------------------------------------------------------------- the demo
@dataclass
class GameReport:
    game: str
    players: list[str]
    result: dict[str, Any]
    inputs: int
    throws: int
    rethrows: int
    misreads: int
    dice_read: int
    frames: int
    seconds: float
    screenshots: list[str] = field(default_factory=list)


def demo_players(game: str, requested: int | None) -> list[str]:
    cls = GAMES[game]
    # School is 45 turns a player: one player shows every rule of its sheet in a third of the time
    check_player_count([game], requested)
    n = (1 if game == "school" else max(cls.min_players, 2)) if requested is None else requested
    return NAMES[:n]


def screen_size_of(screen: Screen | None) -> dict[str, tuple[int, int]]:
    """The flow's `screen_size` for this screen (none: the flow's own, the smallest), so that
    HINT turns the card's pages as this screen draws them."""
    return {} if screen is None else {"screen_size": screen.size}


def play_demo_game(game: str, players: list[str], screen: Screen | None, *, seed: int, shots: Path | None,
                   realtime: bool, options: dict | None = None, max_frames: int = 400_000,
                   progress: Callable[[str], None] | None = None, draw: bool = False,
                   journal_dir: Path | None = None) -> GameReport:
    """One complete game at the synthetic table. Returns what happened, measured. `draw`: every
    frame drawn on `screen`, as a table does (always when `realtime`); `journal_dir`: the game
    journaled there, as a table does (the soak benchmark: without them it measured neither)."""
    rng = random.Random(seed)
    clock: Callable[[], float] = time.monotonic if realtime else VirtualClock()
    state = new_game(game, players, options)
    table_log = TableLog(game, players, dict(options or {})).with_every_option()
    hooks: dict[str, Any] = {}
    if journal_dir is not None:
        journal = Journal(journal_dir / "current.jsonl", table_log)
        hooks = {"on_apply": journal.append, "on_take_back": journal.take_back, "on_hold": journal.hold}
    flow = TableFlow(state, table_log, clock=clock, confirm_seconds=1.2, **hooks, **screen_size_of(screen))
    director = DemoDirector(flow, rng, fps=10.0 if realtime else 6.0, brisk=not realtime)
    fps = director.fps
    source = make_frame_source({"type": "generated", "factory": director.frames, "fps": fps})
    tracker = SettleTracker(SettleConfig())
    calibration = director.calibrate()  # as an installer does once with `dicetable calibrate`

    def read(image):
        return vision_reader.read(image, calibration)

    runner = TableRunner(flow, tracker, read, screen)
    report = GameReport(game, players, {}, 0, 0, 0, 0, 0, 0, 0.0)
    started = time.perf_counter()
    shot_moments: dict[str, bool] = {}

    def shoot(name: str) -> None:
        if screen is not None and shots is not None:
            runner.draw()
            target = shots / f"{_slug(game)}-{len(report.screenshots) + 1:02d}-{name}.png"
            lies = not_writable_over(target)     # (a FIFO there: the PNG's write waited for ever)
            if lies:
                print(f"dicetable demo: screenshot {target} not written: it is {lies}, not a file", file=sys.stderr)
                return
            path = screen.screenshot(target)
            report.screenshots.append(str(path))

    halfway = {"thirteen": 13, "classic": 2, "objective-cards": 5, "poknroll": 6, "school": 45}.get(game, 10)
    decisions = 0
    source.open()
    try:
        for frame_no in range(max_frames):
            if flow.phase == OVER:
                break
            frame = source.read()
            if frame is None:
                continue
            t0 = time.perf_counter()
            runner.feed_frame(frame.image, frame.timestamp)
            if not shot_moments.get("how-to-play"):
                # what a newcomer sees on pressing HINT: the card of the game about to be played
                shot_moments["how-to-play"] = True
                if shots is not None:
                    runner.feed_button(Press("HINT"))
                    shoot("how-to-play")
                    runner.feed_button(Press("HINT"))
            if flow.phase == CONFIRM and not shot_moments.get("reading"):
                shot_moments["reading"] = True
                shoot("reading")
            for press in director.presses():
                runner.feed_button(press)
            flow.tick()
            if flow.message and flow.message.level != "info" and not shot_moments.get("warning"):
                shot_moments["warning"] = True
                shoot("message")
            if flow.phase != WAIT_DICE and flow.phase != CONFIRM and flow.menu():
                if not shot_moments.get("decision"):
                    shot_moments["decision"] = True
                    shoot("decision")
                if len(table_log.inputs) != decisions:
                    decisions = len(table_log.inputs)
                    if sum(1 for d in table_log.inputs if d["type"] == "choose") == halfway and \
                            not shot_moments.get("halfway"):
                        shot_moments["halfway"] = True
                        shoot("midgame")
            if realtime or draw:
                runner.draw()
            if realtime:
                for event in screen.events() if screen else []:
                    if getattr(event, "type", None) in (screen.pygame.QUIT,) or (
                            getattr(event, "type", None) == screen.pygame.KEYDOWN and
                            event.key == screen.pygame.K_ESCAPE):
                        raise KeyboardInterrupt
                time.sleep(max(0.0, 1.0 / fps - (time.perf_counter() - t0)))
            else:
                clock.advance(1.0 / fps)  # type: ignore[union-attr]
            if progress and frame_no % 500 == 0 and frame_no:
                progress(f"  {state.title}: {len(table_log.inputs)} inputs, {flow.state.sheet().status}")
        else:
            raise RuntimeError(f"{game}: the demo did not finish within {max_frames} frames")
    finally:
        source.close()
    shoot("final")
    assert replay(table_log).snapshot() == flow.state.snapshot(), "the log must rebuild the game"
    stats = director.stats
    report.result = flow.state.result().to_json()
    report.inputs = len(table_log.inputs)
    report.throws, report.rethrows, report.misreads = stats.throws, stats.rethrows, stats.misreads
    report.dice_read, report.frames = stats.dice_read, stats.frames
    report.seconds = time.perf_counter() - started
    return report


def run_demo(args: argparse.Namespace) -> int:
    try:
        size = parse_size(args.size)
        games = [args.game] if args.game else DEMO_ORDER
        rosters = {g: demo_players(g, args.players) for g in games}
        shots = output_folder(args.screenshots, "--screenshots") if args.screenshots else None
    except (OptionError, ValueError) as exc:
        print(f"dicetable demo: {exc}", file=sys.stderr)
        return 2
    screen = Screen(size, fullscreen=args.fullscreen, headless=args.headless)
    realtime = not screen.headless and not args.fast
    if shots is None and screen.headless:
        try:
            shots = output_folder("demo-screenshots", "the screenshot folder")
        except ValueError as exc:
            screen.close()
            print(f"dicetable demo: {exc} (name another with --screenshots DIR)", file=sys.stderr)
            return 2
    where = "headless (no screen)" if screen.headless else "in a window"
    print(f"dicetable demo: {len(games)} game(s), automatic players, synthetic camera, {where}.")
    if shots:
        print(f"Screenshots go to {shots}/")
    reports = []
    try:
        for i, game in enumerate(games):
            print(f"\n== {GAMES[game].title}: {', '.join(rosters[game])} ==", flush=True)
            report = play_demo_game(game, rosters[game], screen, seed=args.seed + i, shots=shots,
                                    realtime=realtime, progress=print)
            reports.append(report)
            res = report.result
            for group in res["ranking"]:
                for name in group:
                    print(f"  {name:>5}: {res['scores'][name]}")
            print(f"  {'Winners' if len(res['winners']) > 1 else 'Winner'}: {', '.join(res['winners'])}"
                  + (f" ({res['tie_break']})" if res["tie_break"] else ""))
            print(f"  {report.throws} throws read by the camera ({report.dice_read} dice), "
                  f"{report.misreads} corrected by hand, {report.rethrows} re-thrown; {report.inputs} inputs; "
                  f"{report.seconds:.1f} s")
    except KeyboardInterrupt:
        print("\nDemo stopped.")
    finally:
        screen.close()
    peak_mb = peak_rss_mb()
    if reports:
        shots_note = f"{sum(len(r.screenshots) for r in reports)} screenshots in {shots}/; " if shots else ""
        print(f"\n{shots_note}peak memory {peak_mb:.0f} MB")
    return 0


# --------------------------------------------------------------------------- fixture playing
class FixturePlayer:
    """Headless test mode: frames from image files, presses from a script.

    The script is a scripted-button file with these directives (docs/hardware.md, "Headless play"):
      game GAME NAME,NAME [name=value ...]  the game to play (unless given on the command line)
      throw [FILE]   the camera sees an empty tray, then FILE (or the next image) until it is read
      wait           let the reading on screen be accepted by time (as if nobody pressed anything)
      choose KEY     move the menu cursor to option KEY with UP/DOWN and press OK (a secret
                     choice is first opened with OK, as its player would)
      keep V V ...   press HOLDn for dice showing these values, then "throw again" (or "keep all")
      screenshot NAME  save the screen as NAME.png in the screenshots folder
    A reading being shown is accepted automatically before any step that is not OK/BACK.
    """

    def __init__(self, fixtures: Path, steps: list, screen: Screen | None, shots: Path | None,
                 still_frames: int = 12, empty_frames: int = 10):
        self.fixtures = fixtures
        self.images = sorted(p for p in fixtures.iterdir() if p.suffix.lower() in (".png", ".jpg", ".jpeg"))
        self.next_image = 0
        self.steps = steps
        self.screen = screen
        self.shots = shots
        self.still_frames = still_frames
        self.empty_frames = empty_frames
        self.clock = VirtualClock()
        self.flow: TableFlow | None = None
        self.runner: TableRunner | None = None
        self.t = 0.0
        self.errors: list[str] = []  # steps that did not fit the game, "script line N: why"
        self.notes: list[str] = []   # what the table changed and said (a name it cannot draw)
        self.line = 0

    def start_game(self, game: str, players: list[str], options: dict) -> None:
        said = ""
        if self.screen is not None:     # (names the screen cannot draw: the menu's stand-ins)
            players, said = drawable_players(players)
            if said:
                self.notes.append(said)
        options = draw_first_player(players, options)       # (a first player left to the table)
        state = new_game(game, players, options)
        table_log = TableLog(game, players, options).with_every_option()
        self.flow = TableFlow(state, table_log, clock=self.clock, confirm_seconds=1.5,
                              **screen_size_of(self.screen))
        drawn = " ".join(words for words in (said, first_player_words(state)) if words)
        if drawn:
            self.flow.say(drawn, "warning" if said else "info")
        self.runner = TableRunner(self.flow, SettleTracker(SettleConfig()), vision_reader.read, self.screen)

    def _frame(self, image: np.ndarray) -> None:
        assert self.runner is not None
        self.t += 0.1
        self.clock.advance(0.1)
        self.runner.feed_frame(image, self.t)
        self.flow.tick()

    def throw(self, name: str | None) -> None:
        if name is None:
            if not self.images:
                raise ValueError(f"no images in {self.fixtures}")
            path = self.images[self.next_image % len(self.images)]
            self.next_image += 1
        else:
            path = self.fixtures / name
            if not path.is_file():
                self.flow.say(f"Camera frame {name} is not in the fixtures.", "error")
                self._error(f"no image {name} in {self.fixtures}")
                return
        # (not cv2.imread: a name that is not UTF-8 was a segmentation fault)
        image, _why = load_image(str(path))
        if image is None:
            # an unreadable frame: the camera shows garbage for a moment; the table says so
            self.flow.say(f"Camera frame {path.name} could not be read.", "error")
            self._error(f"unreadable fixture {path.name}")
            return
        border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
        empty = np.empty_like(image)
        empty[:] = np.median(border, axis=0).astype(np.uint8)
        # long enough for the tracker to see a still, empty tray: then even the same picture
        # again is a new throw, not a hand passing over unchanged dice
        for _ in range(self.empty_frames):
            self._frame(empty)
        for _ in range(self.still_frames):
            self._frame(image)

    def _error(self, text: str) -> None:
        self.errors.append(f"script line {self.line}: {text}")

    def settle_confirmation(self) -> None:
        if self.flow is not None and self.flow.phase == CONFIRM and not self.flow.waits_for_ok:
            # (a reading with a die to check waits longer: check_seconds; one with a die in the
            # glare read unsurely waits for the script's OK)
            self.clock.advance(max(0.0, self.flow.confirm_due - self.clock()) + 0.01)
            self.flow.tick()

    def press(self, name: str, kind: str = "press") -> None:
        self.runner.feed_button(Press(name, kind))

    def _open_secret(self) -> None:
        """A secret decision waits behind its gate: its player presses OK to see the menu."""
        if not self.flow.choices_shown:
            self.press("OK")

    def choose(self, key: str) -> None:
        self._open_secret()
        entries = self.flow.menu()
        target = next((i for i, e in enumerate(entries) if e.action == "option" and e.key == key), None)
        if target is None:
            self.flow.say(f"The script chose {key!r}, which is not on the menu now.", "warning")
            self._error(f"not on the menu now: {key}")
            return
        self._move_to(target)
        self.press("OK")

    def keep(self, values: list[int]) -> None:
        flow = self.flow
        # (holds linger after a decision: the menu says whether dice can be thrown again now)
        if not flow.holds or flow.phase != DECIDE or not any(e.action == "reroll" for e in flow.menu()):
            flow.say("The script asked to hold dice, but no dice can be held now.", "warning")
            self._error("keep when no dice can be held")
            return
        self._open_secret()
        want = list(values)
        for i, v in enumerate(flow.tray_values):
            wanted = v in want
            if wanted:
                want.remove(v)
            if wanted != flow.holds[i]:
                self.press(f"HOLD{i + 1}")
        target = next(i for i, e in enumerate(flow.menu()) if e.action == "reroll")
        self._move_to(target)
        self.press("OK")

    def _move_to(self, target: int) -> None:
        while self.flow.cursor != target:
            self.press("DOWN" if target > self.flow.cursor else "UP")

    def screenshot(self, name: str) -> None:
        if self.screen is not None and self.shots is not None:
            self.runner.draw()
            target = self.shots / f"{name}.png"
            lies = not_writable_over(target)     # (a FIFO there: the PNG's write waited for ever)
            if lies:
                self._error(f"screenshot {target} not written: it is {lies}, not a file")
                return
            self.screen.screenshot(target)

    def run(self) -> TableFlow:
        """Play the steps. A step that cannot mean anything (a bare `game`, `choose` without a
        key) raises ValueError naming its line; one that does not fit the game at that moment
        (an image not found, a key not on the menu) is told on screen and kept in `errors`."""
        for step in self.steps:       # (a bad name refused before any picture is written)
            if step.kind == "directive" and step.name == "screenshot":
                _screenshot_name(step)
        for step in self.steps:
            self.line = step.line
            if step.kind == "directive" and step.name == "game":
                if self.flow is None:
                    self._start_from(step)
                continue
            if self.flow is None:
                raise ValueError(f"script line {step.line}: no game yet (give --game or a 'game' line first)")
            is_confirm_button = step.kind in ("press", "hold") and step.name in ("OK", "BACK")
            if not is_confirm_button:
                self.settle_confirmation()
            if step.kind in ("press", "hold"):
                self.press(step.name, step.kind)
            elif step.kind == "directive":
                args = list(step.args)
                if step.name == "throw":
                    self.throw(_args(step, 0, 1, "at most one image FILE")[0] if args else None)
                elif step.name == "wait":
                    _args(step, 0, 0, "nothing")
                    self.settle_confirmation()
                elif step.name == "choose":
                    self.choose(_args(step, 1, 1, "one menu KEY, e.g. 'choose STAND'")[0])
                elif step.name == "keep":
                    values = _args(step, 0, 5, "the dice values to keep, e.g. 'keep 6 6'")
                    if not all(v in "123456" and len(v) == 1 for v in values):
                        raise ValueError(f"script line {step.line}: 'keep' takes dice values 1 to 6, "
                                         f"not {' '.join(values)!r}")
                    self.keep([int(v) for v in values])
                elif step.name == "screenshot":
                    self.screenshot(_screenshot_name(step))
                else:
                    raise ValueError(f"script line {step.line}: unknown directive {step.name!r} "
                                     f"(known: {', '.join(DIRECTIVES)})")
            if self.flow.phase == OVER:
                break
        if self.flow is None:
            raise ValueError("the script names no game (give --game, or begin it with 'game GAME NAME,NAME')")
        self.settle_confirmation()
        return self.flow

    def _start_from(self, step) -> None:
        """`game GAME [NAME,NAME] [name=value ...]`"""
        args = _args(step, 1, 99, "GAME [NAME,NAME] [name=value ...], e.g. 'game classic Ann,Bob'")
        players = players_from(args[1], f"script line {step.line}: the names") if len(args) > 1 else NAMES[:2]
        options = {}
        for pair in args[2:]:
            name, eq, raw = pair.partition("=")
            if not (name and eq):
                raise ValueError(f"script line {step.line}: an option is name=value, not {pair!r}")
            try:
                options[name] = json.loads(raw)
            except json.JSONDecodeError:
                options[name] = raw
        try:
            self.start_game(args[0], players, options)
        except OptionError as exc:
            raise ValueError(f"script line {step.line}: {exc}") from None


# the directives FixturePlayer understands (its docstring and docs/hardware.md say what they do)
DIRECTIVES = ("game", "throw", "wait", "choose", "keep", "screenshot")


def _args(step, low: int, high: int, usage: str) -> list[str]:
    """The words after a directive, if there are low..high of them."""
    if not low <= len(step.args) <= high:
        raise ValueError(f"script line {step.line}: '{step.name}' takes {usage}")
    return list(step.args)


def _screenshot_name(step) -> str:
    """The NAME of `screenshot [NAME]` (default: step-LINE). A name with a folder in it is refused:
    `screenshot ../x` wrote x.png beside the --screenshots folder, `screenshot /etc/x` anywhere
    the user may write."""
    words = _args(step, 0, 1, "at most one NAME")
    if not words:
        return f"step-{step.line}"
    name = words[0]
    if name in (".", "..") or any(c in name for c in "/\\\0"):
        raise ValueError(f"script line {step.line}: 'screenshot' takes a NAME without a folder in it, "
                         f"not {shown(name)} (the picture goes in the --screenshots folder)")
    return name


def play_fixtures(args: argparse.Namespace) -> int:
    from hardware.button_scripted import parse_script, read_script

    if not (args.fixtures and args.script):
        print("dicetable play: headless mode needs both --fixtures DIR and --script FILE", file=sys.stderr)
        return 2
    if args.resume:     # (it was ignored without a word: the script's game started afresh)
        print("dicetable play: --resume continues a game typed at the terminal; it does not go with "
              "--fixtures and --script", file=sys.stderr)
        return 2
    fixtures = Path(args.fixtures)
    try:
        steps = parse_script(read_script(args.script).splitlines(), args.script)
        if not fixtures.is_dir():
            raise ValueError(f"{fixtures} is not a folder of images")
        shots = output_folder(args.screenshots, "--screenshots") if args.screenshots else None
        screen = Screen(parse_size(args.size), headless=True) if (args.screenshots or args.headless) else None
        player = FixturePlayer(fixtures, steps, screen, shots)
        if args.game:
            from .cli import parse_options

            players = players_from(args.players or "Ann,Bob")     # (a ValueError said below)
            player.start_game(args.game, players, parse_options(args.option))
        flow = player.run()
    except (OSError, ValueError, OptionError, LogError) as exc:
        print(f"dicetable play: {exc}", file=sys.stderr)
        return 2
    if args.log:
        try:
            flow.log.save(args.log)
        except OSError as exc:
            print(f"dicetable play: cannot write the log {args.log}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    if shots and screen:
        player.screenshot("final")
    print(flow.state.sheet().to_text(), flush=True)
    for note in player.notes:       # (said on screen, and here: the log's names are not those typed)
        print(f"dicetable play: {note}", file=sys.stderr, flush=True)
    for error in player.errors:     # why the game may have stopped short: said, not only kept
        print(f"dicetable play: {error}", file=sys.stderr, flush=True)
    if flow.state.is_over:
        print("\n" + flow.state.result().to_text())
        return 0
    print(f"\nThe script ended before the game did ({len(flow.log.inputs)} inputs applied).")
    return 3


# ------------------------------------------------------------------------------- the real table
def run_table(args: argparse.Namespace, *, sleep: Callable[[float], None] = time.sleep,
              max_wait_s: float | None = None) -> int:
    from .table_app import TableApp
    from .table_lock import TableBusy
    from .table_user import RootInTablesFolder

    try:
        app = TableApp.from_args(args)
    except (TableBusy, RootInTablesFolder) as exc:  # (nothing of the other table's is touched; no screen taken)
        log.error("cannot start the table: %s", exc)
        print(f"dicetable run: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # (a config's mistakes are left out as it starts: this is anything else)
        log.error("cannot start the table: %s", exc)
        print(f"dicetable run: {exc}", file=sys.stderr)
        show_start_error(args, exc, sleep=sleep, max_wait_s=max_wait_s)
        return 2
    return app.run_forever()


def show_start_error(args: argparse.Namespace, exc: Exception, *, sleep: Callable[[float], None] = time.sleep,
                     max_wait_s: float | None = None) -> None:
    """A table that cannot start (a part that fails as it is built; the config's own mistakes are
    left out, see config.parse_config_leniently) says why on its own screen, and waits
    there until the config file changes; the program then ends and systemd starts it again with
    the new file. Before, the kiosk's screen stayed black while systemd restarted the program
    every two seconds, and only the log said why."""
    from display.view import MessageView, PromptView, TableView

    try:
        screen = Screen((1280, 720), fullscreen=args.fullscreen, headless=args.headless)
    except Exception:  # noqa: BLE001  (the screen itself is what failed: the log has said it)
        return
    config = Path(args.config)
    view = TableView("setup", "The table cannot start",
                     prompt=PromptView("", "", hint=f"Fix {config}: the table starts again by itself once it is "
                                                    "saved (docs/install.md, section 10)."),
                     message=MessageView(str(exc), "error"))
    before = _stamp(config)
    waited = 0.0
    watchdog = Watchdog()                       # (waiting here is not hanging)
    try:
        screen.show(view)
        while _stamp(config) == before and (max_wait_s is None or waited < max_wait_s):
            watchdog.ping()
            for _event in screen.events():      # (a window that is not read stops answering)
                pass
            sleep(1.0)
            waited += 1.0
    finally:
        screen.close()


def _stamp(path: Path) -> tuple[float, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime, st.st_size)
