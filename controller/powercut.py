"""Power cuts at a real table: `dicetable run` killed (SIGKILL) at chosen moments of a game.

The table is the real program in its own process: a folder camera that sees one image file (the
harness draws the dice on it), a button box on a socket (`socket://`, the serial source's own
protocol), a journal folder of its own. A player in this process plays a game from what it can
see (the journal, as the players see the screen): it throws the dice a seeded player would
throw for that move and presses the buttons for its choice, so that the game's moves depend on
the game alone. Kills come at moments given as (move, seconds after the player began it); after each the
table is started again and the player goes on from what the table resumed. The game then ends
with the moves of an uninterrupted game (`expected_game`, the same player against the rules),
no move applied twice or lost: a move being made at the cut is asked again, never guessed.
`dicetable bench powercut` runs the wide sweep; tests/test_powercut.py a handful of cuts.
"""
from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .plain_file import write_whole
from .resume_words import moves_replayed
from .rules import Decide, GameState, Throw, new_game
from .rules.base import Input, RerollSpec, choose_input, dice_input, reroll_input

CURRENT = "current.jsonl"
SIZE = (640, 480)
#: how long a move may take the table before the player does it again (a throw not read)
MOVE_SECONDS = 12.0
START_SECONDS = 60.0
#: what the table says of dice it finds in the tray as it starts
FOUND = "The dice in the tray were there before: they do not count"
#: what the table says of dice thrown before a decision was made
DECIDE_FIRST = "decide first (OK on the menu), then throw"
#: what the table logs when a move could not be journaled (its screen: "can no longer be saved")
UNSAVED = "this game is no longer saved"


#: what the screen says of a draw as the table makes it (not as a resume repeats it)
DREW = re.compile(r"(?<!replayed\)\. )The table drew [^:]*: ([1-6](?: [1-6])*)")


class Diverged(AssertionError):
    """The table applied a move the uninterrupted game does not have at that place."""


# ------------------------------------------------------------------------------- the player
def player_input(state: GameState, moves: int, seed: int) -> Input:
    """The move a seeded player makes at `state`, the `moves`-th of the game: a function of the
    game alone, so that a move asked again after a cut is the same move. It throws seeded dice
    (the dice held stay in the tray), throws dice again now and then, most often keeping some
    (the HOLD buttons, see Cutter.act), else picks one of the options. Dice the table draws are
    not the player's (see `expected_game`)."""
    rng = random.Random(f"{seed}:{moves}")
    exp = state.expects()
    if isinstance(exp, Throw):
        if exp.drawn:
            raise ValueError("the table draws these dice, not the player")
        return dice_input(exp.player, [rng.randint(1, 6) for _ in range(exp.count)])
    assert isinstance(exp, Decide)
    spec = exp.reroll
    if spec is not None and (not exp.options or rng.random() < 0.35):
        keep = kept(spec, rng)
        if keep is not None:
            return reroll_input(exp.player, keep)
    scored = [o for o in exp.options if o.points is not None]
    pool = scored if scored and rng.random() < 0.8 else list(exp.options)
    return choose_input(exp.player, rng.choice(pool).key)


def kept(spec: RerollSpec, rng: random.Random) -> list[int] | None:
    """The dice a player keeps to throw the others again: some, seven times in ten (a hold the
    rules allow), else none; None when the rules allow no throw again."""
    dice = list(spec.dice)
    sizes = [k for k in range(len(dice) + 1) if spec.min_rethrow <= len(dice) - k <= spec.max_rethrow]
    if not sizes:
        return None
    some = [k for k in sizes if k]
    k = rng.choice(some) if some and (0 not in sizes or rng.random() < 0.7) else 0
    return sorted(rng.sample(dice, k))


def drawn_by_seed(state: GameState, moves: int, seed: int) -> Input:
    """A draw of the table's as a seeded stand-in: the part of a game written into its journal
    before the harness starts the table (`Cutter(preload=...)`), and a game's likely length."""
    exp = state.expects()
    rng = random.Random(f"{seed}:draw:{moves}")
    return dice_input(exp.player, [rng.randint(1, 6) for _ in range(exp.count)])


def canonical(inputs: list[Input]) -> list[Input]:
    """Moves as the rules take them: dice are a multiset (the journal keeps them as the camera
    saw them, left to right)."""
    return [{k: sorted(v) if k in ("values", "keep") else v for k, v in data.items()} for data in inputs]


def expected_game(game: str, players: list[str], options: dict, seed: int,
                  draws: dict[int, Input] | None = None, seeded_until: int | None = None
                  ) -> tuple[list[Input], GameState]:
    """The uninterrupted game: the player's moves against the rules, and the final state. The
    table's own draws are not the player's: those before move `seeded_until` (None: all) are
    seeded stand-ins (`drawn_by_seed`), the others the table's as `draws` has them; the game
    stops short (its state not over) at a draw not yet made."""
    state = new_game(game, players, options)
    inputs: list[Input] = []
    draws = draws or {}
    while not state.is_over:
        n = len(inputs)
        exp = state.expects()
        if isinstance(exp, Throw) and exp.drawn:
            if seeded_until is None or n < seeded_until:
                data = drawn_by_seed(state, n, seed)
            elif n in draws:
                data = draws[n]
            else:
                break
        else:
            data = player_input(state, n, seed)
        state = state.apply(data)
        inputs.append(data)
    return inputs, state


#: what the table says as it comes back in the middle of a correction (resume_words.correction_resumed)
CORRECTING = "dice were being corrected: they are back as read"


def cut_while_correcting(counts: dict[str, int]) -> Callable[["Cutter", int], None]:
    """A Cutter event for move n, a throw of the players': the dice thrown and accepted, a long
    OK to correct them, a die changed (not accepted), and the power goes. The table must come
    back correcting them, say so, and write nothing until the players decide; BACK then leaves
    the dice as read, and the game goes on as the uninterrupted one. `counts` gets "cut" and
    "came back correcting". (The table before this came back asking for the throw again.)"""
    def event(c: Cutter, n: int) -> None:
        if not (c.act(n) and c._wait(MOVE_SECONDS, lambda: len(c._moves()) > n)):
            return                                    # (the move goes on as any other)
        c.table.hold("OK")
        if not c._wait(MOVE_SECONDS, lambda: len(c._moves()) == n):
            raise AssertionError(f"a long OK did not reopen move {n} to correct it")
        c.table.press("UP")
        c._wait(0.3)
        c.restart()
        counts["cut"] = counts.get("cut", 0) + 1
        if not c.said(CORRECTING):
            raise AssertionError(f"after a cut while move {n} was corrected the table said "
                                 f"{c._said(r'Resumed .*', 1.0)}, not that it corrects them")
        c._wait(1.0)
        if len(c._moves()) != n:
            raise AssertionError(f"move {n} was written again before the players decided")
        counts["came back correcting"] = counts.get("came back correcting", 0) + 1
        c.table.press("BACK")
        if not c._wait(MOVE_SECONDS, lambda: len(c._moves()) > n):
            raise AssertionError(f"BACK did not leave move {n}'s dice as read")
    return event


# ------------------------------------------------------------------------------- the camera
class Tray:
    """The image file the table's folder camera reads, replaced whole (a rename) at each change."""

    def __init__(self, path: Path, seed: int):
        from vision.calibrate import calibrate
        from vision.reader import read
        from vision.synthetic import TrayStyle, render_tray

        self.path = path
        self.style = TrayStyle(border_px=28, die_px=50.0)      # the demo's camera
        self.seed = seed
        self._cache: dict[tuple, tuple[bytes, list[int]]] = {}
        self.throws = 0
        #: the dice of the image shown as the table numbers them for the HOLD buttons (left to right)
        self.order: list[int] = []
        # calibrated as an installer does (`dicetable calibrate`): the empty tray, one throw
        empty = [render_tray([], seed=s, size=SIZE, style=self.style).image for s in (1, 2, 3)]
        thrown = [render_tray([1, 2, 3, 4, 5], seed=s, size=SIZE, style=self.style).image for s in (4, 5, 6)]
        self.calibration = calibrate(empty, thrown, reader=read).to_dict()
        self.show(())

    def show(self, values: tuple[int, ...]) -> None:
        """The dice `values` thrown (each throw lands elsewhere: the same values thrown again
        after a cut are a new throw, not the same picture, which the table takes for dice that
        were only covered by a hand); () the tray empty."""
        self.values = tuple(values)
        self.throws += bool(values)
        image, self.order = self._image(tuple(sorted(values)), self.throws if values else 0)
        # whole, so the folder camera never reads half an image; beside as a hidden name (the
        # camera reads every image in the folder), and not synced: the harness is never cut,
        # only the table is (the page cache outlives a killed process)
        write_whole(self.path, image, tmp=self.path.with_name("." + self.path.name), sync=False, folder="no")

    def _image(self, values: tuple[int, ...], throw: int) -> tuple[bytes, list[int]]:
        """A throw of `values` that the reader reads right and surely (tried until one is):
        the reader's misreads are the subject of other tests, not of this one."""
        if (values, throw) not in self._cache:
            import cv2

            from vision import reader
            from vision.synthetic import render_tray

            for attempt in range(200):
                seed = random.Random(f"{self.seed}:{values}:{throw}:{attempt}").randrange(2**31)
                image = render_tray(list(values), seed=seed, size=SIZE, style=self.style).image
                dice = reader.read(image, self.calibration).dice
                if sorted(d.value or 0 for d in dice) == list(values) and all(d.confidence >= 0.9 for d in dice):
                    break
            else:
                raise RuntimeError(f"no throw of {values} reads right")
            self._cache = {k: v for k, v in self._cache.items() if not k[0]}      # (the empty tray, kept)
            self._cache[(values, throw)] = (cv2.imencode(".png", image)[1].tobytes(), [int(d.value) for d in dice])
        return self._cache[(values, throw)]


# ------------------------------------------------------------------------------- the table
@dataclass
class Cut:
    """A kill `after` seconds after the player began move number `moves` (counted from 0; the
    number of moves of the game: at the final standings)."""

    moves: int
    after: float


@dataclass
class Outcome:
    inputs: list[Input]                  # the game's moves, as its journal has them at the end
    expected: list[Input]
    starts: int = 0
    kills: int = 0
    asked_again: int = 0                 # moves under way at a cut that the player made again
    resumed: list[str] = field(default_factory=list)    # what the screen said after each restart
    hold_cuts: int = 0                   # kills after HOLD presses, before the throw they were for was read
    draw_cuts: int = 0                   # kills at a draw of the table's before its journal line
    draws: int = 0                       # the table's draws in the game (after the preloaded part)
    holds: int = 0                       # throws again keeping dice held with the HOLD buttons
    holds_kept: int = 0                  # restarts at a decision with dice held, held again (and said)
    problems: list[str] = field(default_factory=list)   # log lines at error level, tracebacks
    #: times the table took dice nobody threw for a throw made before a decision (the player
    #: here never throws before deciding): after a restart at a decision, the dice lying there
    false_throws: int = 0
    seconds: float = 0.0

    @property
    def same(self) -> bool:
        return canonical(self.inputs) == canonical(self.expected)


class Table:
    """`dicetable run` in a process of its own, its camera, buttons and journal in `root`."""

    def __init__(self, root: Path, game: str, players: list[str], options: dict, seed: int = 1,
                 extra_config: str = "", slow_journal: float = 0.0):
        self.root = root
        # each write to the journal held back this long (strace): a kill then falls between a
        # move the table made itself (a draw) and its line, a window of microseconds otherwise
        self.slow_journal = slow_journal
        self.journal_dir = root / "journal"
        self.game, self.players, self.options = game, players, options
        root.mkdir(parents=True, exist_ok=True)
        self.tray = Tray(root / "tray.png", seed)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(START_SECONDS)
        self.notify_path = root / "notify.sock"
        self.notify_path.unlink(missing_ok=True)
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(str(self.notify_path))
        self.config = root / "config.toml"
        self.write_config(options, extra_config)
        self.proc: subprocess.Popen | None = None
        self.box: socket.socket | None = None
        self.logs: list[Path] = []

    def write_config(self, options: dict, extra: str = "") -> None:
        from .calibrate import toml_section, toml_value

        port = self.listener.getsockname()[1]
        text = (f"[table]\ngame = {json.dumps(self.game)}\nplayers = {toml_value(self.players)}\n"
                f"journal_dir = {json.dumps(str(self.journal_dir))}\nidle_minutes = 0\n"
                "confirm_seconds = 0.3\ncheck_seconds = 0.3\n" + extra)
        text += f"[table.options.{self.game}]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in options.items())
        text += (f'[camera]\ntype = "folder"\nfiles = [{json.dumps(str(self.tray.path))}]\nloop = true\nfps = 20\n'
                 f'[buttons]\ntype = "serial"\nport = "socket://127.0.0.1:{port}"\nreconnect_initial_s = 0.1\n'
                 # (the harness presses faster than hands can: a box would be taken as flooding; and
                 # its presses sent while the table was busy are all meant)
                 'flood_guard = false\nbusy_after_s = 0\n'
                 '[display]\nsize = [800, 480]\n')
        text += toml_section("vision", self.tray.calibration)
        self.config.write_text(text, encoding="utf-8")

    # -- the process
    def start(self) -> None:
        log = self.root / f"run-{len(self.logs) + 1}.log"
        self.logs.append(log)
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "NOTIFY_SOCKET": str(self.notify_path),
               "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
        env.pop("WATCHDOG_USEC", None)
        command = [sys.executable, "-m", "controller.cli", "run", "--headless", "--config", str(self.config)]
        if self.slow_journal:
            command = ["strace", "-f", "-qq", "--seccomp-bpf", "-o", "/dev/null", "-e", "trace=write",
                       "-e", f"inject=write:delay_enter={int(self.slow_journal * 1e6)}",
                       "-P", str(self.journal_dir / CURRENT), *command]
        with log.open("wb") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=self.root)
        self.box, _ = self.listener.accept()       # the button box connects...
        self.notify.settimeout(START_SECONDS)
        while self.notify.recv(256) != b"READY=1":  # ...and the loop is about to start
            pass
        # (pyserial empties the port as it opens it: presses before that are lost, as they are
        # on a box whose table is still starting)
        end = time.monotonic() + START_SECONDS
        while "button box connected" not in self.log_text() and time.monotonic() < end:
            time.sleep(0.02)

    def kill(self) -> None:
        """The power cut: no clean-up of any kind in the table."""
        assert self.proc is not None
        if self.slow_journal:      # the table itself, strace's child (strace killed would let it go)
            for pid in _children(self.proc.pid):
                os.kill(pid, signal.SIGKILL)
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        if self.box is not None:
            self.box.close()
        self.box = self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.kill()
        self.listener.close()
        self.notify.close()
        self.notify_path.unlink(missing_ok=True)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def press(self, *names: str) -> None:
        assert self.box is not None
        self.box.sendall("".join(f"P {n}\nR {n}\n" for n in names).encode())

    def hold(self, name: str) -> None:
        """A long press of `name` (the button box says H when a button is held down)."""
        assert self.box is not None
        self.box.sendall(f"H {name}\nR {name}\n".encode())

    def log_text(self, run: int = -1) -> str:
        return self.logs[run].read_text(encoding="utf-8", errors="replace")

    # -- what the players see
    def journal(self):
        """The game in the journal as a resume would take it up (None: no journal yet)."""
        from .journal import recover

        from .tablelog import LogError

        path = self.journal_dir / CURRENT
        if not path.exists():
            return None
        try:
            return recover(path)
        except LogError:
            if path.exists():
                raise
            return None     # (archived by the table at its game's end between the two looks)

    def archived(self) -> list[Path]:
        folder = self.journal_dir / "games"
        return sorted(folder.iterdir()) if folder.is_dir() else []


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


class Cutter:
    """Plays a game at `table` and kills it at the `cuts`."""

    def __init__(self, table: Table, cuts: list[Cut], seed: int = 1,
                 events: dict[int, Callable[["Cutter", int], None]] | None = None,
                 preload: int = 0, draw_cuts: list[float] | None = None):
        self.table = table
        # the game's first `preload` moves are in its journal before the table first starts (a
        # game taken up near its end: School's 150 moves would take the sweep four minutes)
        self.preload = preload
        # a kill this long after each draw of the table's falls due (one for each, in turn)
        self.draw_cuts = list(draw_cuts or [])
        self.draws: dict[int, Input] = {}     # the table's draws as its journal first had them
        # what happens to the table as move n begins (a disk that fills up, a config edited...)
        self.events = dict(events or {})
        # what to do when the table says it can no longer save the game (None: a failure)
        self.on_unsaved: Callable[["Cutter", int], None] | None = None
        self.cuts = sorted(cuts, key=lambda c: (c.moves, c.after))
        self.seed = seed
        # the game's house rules as its journal's header has them: with `first_player = "drawn"`,
        # the seat the table drew as the game was set up (see _learn_options)
        self.options = dict(table.options)
        self.outcome = Outcome([], [])
        self._expect()
        self._deadline: float | None = None
        self._started_at = 0.0
        self._holding: int | None = None     # the move whose HOLD presses were sent
        self._restarted = True
        self._open_for: int | None = None     # whose secret menu the player opened (see _move)

    def _expect(self) -> None:
        """The uninterrupted game with the table's draws as far as they are known."""
        expected, self.final = expected_game(self.table.game, self.table.players, self.options, self.seed,
                                             self.draws, self.preload)
        self.expected = self.outcome.expected = canonical(expected)

    def _learn_draws(self, moves: list[Input]) -> None:
        """The table's draws in the journal: each new one extends the game expected; one that
        is not what the journal first had is a draw made twice (a second chance at the cup)."""
        for i, data in self.draws.items():
            if i < len(moves) and moves[i] != data:
                raise Diverged(f"move {i}, drawn by the table as {data['values']}, was drawn again as "
                               f"{moves[i]['values']}")
        while not self.final.is_over and len(self.expected) < len(moves):
            self.draws[len(self.expected)] = moves[len(self.expected)]
            self.outcome.draws += 1
            self._expect()

    def _held(self) -> list[int]:
        """The dice held at the decision the game is at, as the journal has them (what a resume
        holds again, and what the table holds while it runs: each change is journaled)."""
        from .tablelog import LogError

        try:
            found = self.table.journal()
        except LogError:
            return []
        return sorted(found.held[1]) if found is not None and found.held is not None else []

    def _moves(self) -> list[Input]:
        from .tablelog import LogError

        try:
            found = self.table.journal()
        except LogError:
            return []                         # (no game in it: the table will say so)
        return canonical(found.log.inputs) if found is not None else []

    def _wait(self, seconds: float, until=None) -> bool:
        """Wait, killing and starting the table again when a cut falls due; True as soon as
        `until()` holds. False at a cut (the table has been started again) or when the time is up."""
        end = time.monotonic() + seconds
        while True:
            now = time.monotonic()
            if self._deadline is not None and now >= self._deadline:
                self._cut()
                return False
            if until is not None and until():
                return True
            if now >= end:
                return False
            if not self.table.alive():
                raise AssertionError(f"the table stopped by itself:\n{self.table.log_text()[-3000:]}")
            time.sleep(0.02)

    def _cut(self) -> None:
        self._deadline = None
        n = len(self._moves())
        if n < len(self.expected) and self._holding == n:
            self.outcome.hold_cuts += 1          # (the HOLD presses sent, the throw again not chosen)
        elif 0 < n < len(self.expected) and self.expected[n]["type"] == "dice" and \
                self.expected[n - 1]["type"] == "reroll" and self.expected[n - 1]["keep"]:
            self.outcome.hold_cuts += 1          # (chosen, the dice not yet thrown again)
        elif n == len(self.expected) and not self.final.is_over:
            self.outcome.draw_cuts += 1          # (the draw made or about to be, its line not written)
        self.restart()

    @property
    def unreadable(self) -> bool:
        """Whether the journal holds no game a table could resume (garbage)."""
        from .tablelog import LogError

        try:
            self.table.journal()
        except LogError:
            return True
        return False

    def _start(self) -> None:
        before, unreadable, held = self._moves(), self.unreadable, self._held()
        existed = (self.table.journal_dir / CURRENT).exists()
        if self.outcome.starts == 0 and self.preload:
            from .journal import Journal
            from .tablelog import TableLog

            inputs = expected_game(self.table.game, self.table.players, self.table.options, self.seed,
                                   seeded_until=self.preload)[0][:self.preload]
            Journal(self.table.journal_dir / CURRENT, TableLog(self.table.game, list(self.table.players),
                                                               dict(self.table.options), inputs))
        self.table.start()
        # (a restart: the dice decided on are found in the tray and numbered anew, see _hold)
        self._started_at = time.monotonic() if self.outcome.starts else 0.0
        self.outcome.starts += 1
        self._restarted = True
        self._open_for = None
        self._holding = None         # (no HOLD pressed on this table yet)
        if self.outcome.starts > 1 and existed:
            self._check_resumed(before, unreadable, held)

    def _check_resumed(self, moves: list[Input], unreadable: bool, held: list[int]) -> None:
        """The screen (the table's log carries what it says) names the game and the moves resumed
        (a journal with no game in it: that the last game could not be resumed), and the dice
        still held when the journal had some held (as the screen names them: Classic's 5 is K)."""
        if unreadable:
            # (the setup menu's notice is not logged; the log line beside it is)
            if not self._said(r"cannot resume .*it is kept aside"):
                raise AssertionError("a journal that cannot be resumed was not said to be kept aside")
            return
        # (a game over at the cut comes back at its standings, "... was finished before the restart")
        said = "".join(self._said(r"(?:Resumed |was finished before the restart).*") or [""])
        self.outcome.resumed.append(said)
        want = f"after a restart ({moves_replayed(len(moves))})." if said.startswith("Resumed") else \
            f"its final standings ({moves_replayed(len(moves))})."
        if want not in said:
            raise AssertionError(f"after the cut at move {len(moves)} the screen said {said!r}, not ...{want!r}")
        if ("Dice still held: " in said) != bool(held) or (held and self._held() != held):
            raise AssertionError(f"after the cut at move {len(moves)} with {held or 'no dice'} held, the screen "
                                 f"said {said!r} and the journal holds {self._held()}")
        self.outcome.holds_kept += bool(held)

    def _said(self, pattern: str, timeout: float = 10.0) -> list[str]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = re.findall(pattern, self.table.log_text())
            if found:
                return found
            time.sleep(0.05)
        return []

    def play(self) -> Outcome:
        started = time.monotonic()
        try:
            self._start()
            self._setup()
            while True:
                moves = self._moves()
                n = len(moves)
                self._learn_draws(moves)
                if moves != self.expected[:n]:
                    raise Diverged(f"the journal's moves are not the game's at move {n}: "
                                   f"{moves[-3:]} (expected {self.expected[max(0, n - 3):n]})")
                if n == len(self.expected) and self.final.is_over:
                    break
                self._move(n)
            self._finish()
        finally:
            self.table.stop()
            self.outcome.seconds = time.monotonic() - started
            for i in range(len(self.table.logs)):
                self.outcome.problems += [line for line in self.table.log_text(i).splitlines()
                                          if " ERROR " in line or " CRITICAL " in line or "Traceback" in line]
                self.outcome.false_throws += self.table.log_text(i).count(DECIDE_FIRST)
        return self.outcome

    def _arm(self, n: int) -> None:
        while self.cuts and self.cuts[0].moves < n:
            self.cuts.pop(0)                   # (a move made by the table itself: none here)
        if self._deadline is None and self.cuts and self.cuts[0].moves == n:
            self._deadline = time.monotonic() + self.cuts.pop(0).after

    def _learn_options(self) -> None:
        """The house rules of the game the table set up, from its journal's header: a first player
        left to the table is drawn there, once, and the game expected starts at the seat drawn."""
        found = self.table.journal()
        if found is not None and found.log.options != self.options:
            self.options = dict(found.log.options)
            self._expect()

    def _setup(self) -> None:
        """The setup menu preselects the game, players and rules (the config): OK through it."""
        while self.table.journal() is None:
            self._restarted = False
            self.table.press("OK", "OK", "OK", "OK", "OK")
            if self._wait(MOVE_SECONDS, lambda: self.table.journal() is not None):
                self._learn_options()
                return
            if not self._restarted:
                raise AssertionError("the setup menu did not start the game")

    def _move(self, n: int) -> None:
        """Make move n as the players would, until the journal has it (or a cut comes)."""
        if n in self.events:
            self.events.pop(n)(self, n)
            return                  # (the table may have another game now: look again)
        if n == len(self.expected):
            self._table_draws(n)
            return
        state = self.state(n)
        data = self.expected[n]
        self._arm(n)
        for attempt in range(3):
            run = len(self.table.logs)
            made = lambda: len(self._moves()) > n or UNSAVED in self.table.log_text()   # noqa: E731
            if self.act(n) and self._wait(MOVE_SECONDS, made):
                if len(self._moves()) <= n and len(self.table.logs) == run:
                    self._unsaved(n)
                return
            if self._restarted:
                self._after_cut(n, state)
                return
        raise AssertionError(f"move {n} ({data}) was never applied:\n{self.table.log_text()[-3000:]}")

    def _table_draws(self, n: int) -> None:
        """Move n is the table's own draw: it is made at once (a kill may come before its line)."""
        self._arm(n)
        if self._deadline is None and self.draw_cuts:
            self._deadline = time.monotonic() + self.draw_cuts.pop(0)
        self._restarted = False
        if self._wait(MOVE_SECONDS, lambda: len(self._moves()) > n):
            return
        if not self._restarted:
            raise AssertionError(f"the table did not draw move {n}:\n{self.table.log_text()[-3000:]}")

    def _unsaved(self, n: int) -> None:
        """The table could not journal move n (and says so): the storage's scenario goes on."""
        if self.on_unsaved is None:
            raise AssertionError(f"move {n} could not be saved:\n{self.table.log_text()[-3000:]}")
        self.on_unsaved(self, n)

    def state(self, n: int) -> GameState:
        """The game before move n."""
        from .tablelog import TableLog, replay

        return replay(TableLog(self.table.game, list(self.table.players), dict(self.options),
                               self.expected[:n]))

    def act(self, n: int) -> bool:
        """What the players do for move n: throw its dice (the tray seen empty first), or press
        the buttons of its choice. False if a cut came meanwhile (the table is started again)."""
        from .table import TableFlow
        from .tablelog import TableLog

        self._restarted = False
        state, data = self.state(n), self.expected[n]
        exp = state.expects()
        if isinstance(exp, Throw):
            self._open_for = None
            self.table.tray.show(())
            if not self._wait(0.6) and self._restarted:
                return False
            self.table.tray.show(tuple(exp.held) + tuple(data["values"]))    # (the held dice stay)
            return True
        log = TableLog(self.table.game, list(self.table.players), dict(self.options), self.expected[:n])
        flow = TableFlow(state, log)        # (where the table's menu cursor starts)
        entries = flow.menu()
        target = next(i for i, e in enumerate(entries) if
                      (e.action == "reroll" if data["type"] == "reroll" else e.key == data.get("option")))
        # a secret menu is opened with OK, and stays open for its player's next secret choice
        # (two cards in a row) unless the table was started again meanwhile
        presses = [] if flow.choices_shown or self._open_for == exp.player else ["OK"]
        self._open_for = exp.player if exp.secret else None
        if data["type"] == "reroll" and data["keep"]:
            if not self._hold(n, exp, data["keep"]):
                return False
        steps = target - flow.cursor
        self.table.press(*presses, *(["DOWN" if steps > 0 else "UP"] * abs(steps)), "OK")
        return True

    def _hold(self, n: int, exp: Decide, keep: list[int]) -> bool:
        """The HOLD buttons of the dice kept, as the screen numbers them (the tray's dice left to
        right; the dice as recorded while the camera has not found them), then a moment before
        the menu (a kill may fall between). False if a cut came meanwhile."""
        assert exp.reroll is not None
        # a player looks at the screen after a restart: the camera finds the dice in the tray
        # (and numbers them as they lie) within a second
        if not self._wait(max(0.0, self._started_at + 1.5 - time.monotonic())) and self._restarted:
            return False
        tray = self.table.tray
        order = tray.order if sorted(tray.values) == sorted(exp.reroll.dice) else list(exp.reroll.dice)
        held = self._held()
        if held == sorted(keep):          # (held before a cut, and held again as the table came back)
            self._holding = n
            return True
        # dice held otherwise (some of them before a cut): BACK releases them all, then as meant
        left, buttons = list(keep), ["BACK"] if held else []
        for i, value in enumerate(order):
            if value in left:
                left.remove(value)
                buttons.append(f"HOLD{i + 1}")
        self.table.press(*buttons)
        self._holding = n
        self.outcome.holds += 1
        return self._wait(0.4) or not self._restarted

    def restart(self, meanwhile: Callable[[], None] | None = None) -> None:
        """A power cut; `meanwhile` is done while the table is off (the card emptied...)."""
        self.table.kill()
        self.outcome.kills += 1
        if meanwhile is not None:
            meanwhile()
        self._start()

    def said(self, text: str, run: int = -1, seconds: float = MOVE_SECONDS) -> bool:
        """Whether the table says `text` (its log has what its screen says) within `seconds`."""
        return self._wait(seconds, lambda: text in self.table.log_text(run))

    def _after_cut(self, n: int, state: GameState) -> None:
        """A cut while move n was under way. If the journal does not have it, the table must ask
        for it again: dice lying in the tray through the cut are not taken for the throw (it
        says so), nothing is applied until the players act."""
        if len(self._moves()) != n:
            return                                   # (it was made just before the cut)
        self.outcome.asked_again += 1
        if isinstance(state.expects(), Throw) and self.table.tray.values:
            self._restarted = False
            said = self._wait(MOVE_SECONDS, lambda: FOUND in self.table.log_text())
            if self._restarted:
                return
            if not said:
                raise AssertionError("the screen did not say that the dice in the tray do not count")
            self._wait(0.6)          # (longer than confirm_seconds: dice taken would count by now)
            if self._restarted:
                return
            if len(self._moves()) != n:
                raise AssertionError(f"the dice lying in the tray through the cut were taken as move {n}")

    def _finish(self) -> None:
        """The standings: a cut there still keeps the game; OK then archives it."""
        from .journal import recover
        from .tablelog import TableLog, replay

        self._arm(len(self.expected))
        self._wait(2.5)
        for _ in range(4):            # (an OK within 2 s of the standings is not taken: again)
            if self.table.journal() is None:
                break
            self.table.press("OK")
            self._wait(2.5, lambda: self.table.journal() is None)
        else:
            raise AssertionError("OK at the standings did not put the game away")
        archived = [p for p in self.table.archived() if p.name.endswith(f"-{self.table.game}.jsonl")]
        if len(archived) != 1:
            raise AssertionError(f"the game is not archived once: {archived}")
        found = recover(archived[0])
        self.outcome.inputs = list(found.log.inputs)
        # (dice compared as the multisets the rules take: the journal has them as the camera
        # saw them, left to right, and a sheet's notes may show them in that order)
        end = self.state(len(self.expected))
        found_end = replay(TableLog(self.table.game, list(self.table.players), dict(self.options),
                                    canonical(found.log.inputs)))
        if found.damage or not found.state.is_over or (found_end.sheet(), found_end.result()) != (
                end.sheet(), end.result()):
            raise AssertionError("the final sheet is not the uninterrupted game's")
        self._check_draws_shown()

    def _check_draws_shown(self) -> None:
        """Every draw the screen showed (the table's log has what it says) is one of the game's,
        in turn: a draw shown and then drawn again after a cut would not be."""
        game = [sorted(d["values"]) for i, d in sorted(self.draws.items())]
        shown = [sorted(int(v) for v in values.split()) for run in range(len(self.table.logs))
                 for values in DREW.findall(self.table.log_text(run))]
        it = iter(game)
        if not all(any(d == s for d in it) for s in shown):
            raise AssertionError(f"the screen showed the draws {shown}, the game has {game}")


def run_game(root: Path, game: str, players: list[str], options: dict, cuts: list[Cut], seed: int = 1,
             extra_config: str = "", events: dict[int, Callable[[Cutter, int], None]] | None = None) -> Outcome:
    table = Table(root, game, players, options, seed, extra_config)
    return Cutter(table, cuts, seed, events).play()
