"""`dicetable bench powercut`: the power-cut sweep, the real table killed at random moments.

A benchmark, not a test (it takes minutes; tests/test_powercut.py kills two short games):
games of Classic, Thirteen, Objective cards, School and Pok'n Roll (its imaginary cup drawn by
the table) are played at a real `dicetable run` and killed (SIGKILL) at random moments, half of
them between a HOLD press and the throw it is for, and at each of the table's draws between the
draw and its journal line; a journal is cut at every byte of its last line; and the storage
goes wrong under a game: a card that fills up, a card made read-only (both on a small tmpfs,
as root), a journal replaced by garbage, the house rules changed in the config file between two
starts. Each row says whether the game ended as the uninterrupted one and what was seen.
"""
from __future__ import annotations

import json
import logging
import os
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

from .powercut import CURRENT, Cut, Cutter, Table, cut_while_correcting, expected_game

GAMES = (("classic", ["Ann", "Zoë"], {"rounds": 2}),
         ("thirteen", ["Ann"], {}),
         ("objective-cards", ["Ann", "Zoë"], {}),
         ("school", ["Ann"], {}),
         ("poknroll", ["Ann", "Zoë", "Cy"], {"imaginary_dice_source": "engine_rng"}))
#: `--rules house`: the same five games under the house rules that change their flow the most:
#: betting Classic (decisions on dice thrown before, bets), Pok'n Roll's abandon in turn with the
#: cups lifted at the end of the hand and the game stopped as soon as a line is full, Objective
#: cards' two-player variant (two secret cards a round), School's free columns and fixed reserve,
#: Thirteen's forced joker; the first player left to the table where a game allows it (drawn once,
#: as the game is set up, and journaled in the header)
HOUSE_GAMES = (("classic", ["Ann", "Zoë", "Cy"], {"variant": "betting", "rounds": 2, "first_player": "drawn"}),
               ("thirteen", ["Ann", "Zoë"], {"joker_forced_order": True, "first_player": "drawn"}),
               ("objective-cards", ["Ann", "Zoë"], {"two_player_strategic_variant": True}),
               ("school", ["Ann"], {"row_fill_order": "any_free_column", "school_reserve_mode": "fixed_three"}),
               ("poknroll", ["Ann", "Zoë", "Cy"], {"imaginary_dice_source": "engine_rng",
                                                  "decision_order": "sequential",
                                                  "reveal_on_abandon": "end_of_hand", "end_timing": "immediate"}))
RULES = {"defaults": GAMES, "house": HOUSE_GAMES}
#: the games journaled before the table first starts but for their last moves (School's 130
#: moves would take four minutes; the last 100 of Pok'n Roll hold about five of the table's draws;
#: under house rules also Thirteen for two, the last 40 of 72, and Objective cards' variant, 40 of 68)
LAST_MOVES = {"school": 40, "poknroll": 100}
HOUSE_LAST_MOVES = {"school": 40, "poknroll": 60, "thirteen": 40, "objective-cards": 40}
#: each journal write held back this long (strace), so that kills fall between draw and line
SLOW_JOURNAL = {"poknroll": 0.3}
#: the longest wait after a move begins at which a cut is drawn (a throw takes about 1.5 s)
LATEST = 2.5
#: after HOLD presses the player waits 0.4 s before the menu; the tray is empty 0.6 s before a throw
HOLD_WINDOW, EMPTY_TRAY = 0.4, 0.6


def kill_sweep(root: Path, cuts: int, seed: int, rules: str = "defaults") -> Iterator[dict[str, Any]]:
    """Each game killed at random moments, `cuts` in all (shared by the moves played): half of
    a game's between a HOLD press and the throw it is for (where it holds dice), and one at each
    draw of the table's, between the draw and its journal line. `rules`: each game's default
    house rules, or HOUSE_GAMES'."""
    rng = random.Random(seed)
    games = []
    last_moves = HOUSE_LAST_MOVES if rules == "house" else LAST_MOVES
    for game, players, options in RULES[rules]:
        inputs = expected_game(game, players, options, seed)[0]     # (the table's draws: seeded stand-ins)
        preload = max(0, len(inputs) - last_moves.get(game, len(inputs)))
        games.append((game, players, options, inputs, preload))
    total = sum(len(inputs) - preload for *_, inputs, preload in games)
    for game, players, options, inputs, preload in games:
        moves = len(inputs) - preload
        count = max(1, round(cuts * moves / total))
        holds = [i for i, d in enumerate(inputs) if i >= preload and d["type"] == "reroll" and d["keep"]]
        plan = []
        for k in range(count):
            if holds and k % 2 == 0:
                at = rng.choice(holds)
                plan.append(Cut(at, round(rng.uniform(0, HOLD_WINDOW), 2)) if rng.random() < 0.5
                            else Cut(at + 1, round(rng.uniform(0, EMPTY_TRAY), 2)))
            else:
                plan.append(Cut(rng.randint(preload, len(inputs)), round(rng.uniform(0, LATEST), 2)))
        slow = SLOW_JOURNAL.get(game, 0.0)
        draws = [round(rng.uniform(0.02, slow * 0.8), 2) for _ in range(10)] if slow else []
        table = Table(root / game, game, players, options, seed, slow_journal=slow)
        yield _row(game, moves, Cutter(table, plan, seed, preload=preload, draw_cuts=draws))


def _row(name: str, moves: int, cutter: Cutter) -> dict[str, Any]:
    try:
        outcome = cutter.play()
        error = ""
    except Exception as exc:    # noqa: BLE001  (a row that failed says why; the sweep goes on)
        outcome, error = cutter.outcome, f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    return {"game": name, "moves": moves, "kills": outcome.kills, "asked again": outcome.asked_again,
            "holds": outcome.holds, "hold cuts": outcome.hold_cuts, "holds kept": outcome.holds_kept,
            "draws": outcome.draws,
            "draw cuts": outcome.draw_cuts,
            "same game": outcome.same and not error, "resumed said": len(outcome.resumed),
            "errors logged": len(outcome.problems), "dice taken for a throw": outcome.false_throws,
            "seconds": round(outcome.seconds, 1), "failure": error}


# --------------------------------------------------------------------------- cut journals
def truncations(seed: int, games: tuple = GAMES) -> dict[str, Any]:
    """Every game's journal, at every third move, cut at every byte of its last line, resumed
    by a table in this process: the moves before the cut line come back, never an exception."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from display.screen import Screen

    from .config import parse_config
    from .table_app import TableApp
    from .tablelog import FORMAT

    screen = Screen((800, 480), headless=True)
    logging.disable(logging.WARNING)          # ("dropped a torn last line", 1,500 times)
    cases = failures = 0
    with tempfile.TemporaryDirectory(prefix="dicetable-cut-") as tmp:
        folder = Path(tmp)
        config = parse_config(f'[table]\njournal_dir = "{folder}"\nidle_minutes = 0\n')
        for game, players, options in games[:3]:     # (a journal cut before a draw: the table draws)
            inputs, _ = expected_game(game, players, options, seed)
            header = json.dumps({"format": FORMAT, "game": game, "players": players, "options": options})
            lines = [header.encode()] + [json.dumps(d).encode() for d in inputs]
            for end in sorted({*range(2, len(lines) + 1, 3), len(lines)}):
                last = lines[end - 1]
                for at in range(len(last) + 1):
                    cases += 1
                    shutil.rmtree(folder / "games", ignore_errors=True)
                    (folder / CURRENT).write_bytes(b"\n".join(lines[:end - 1]) + b"\n" + last[:at])
                    want = inputs[:end - 2] if at < len(last) else inputs[:end - 1]
                    try:
                        app = TableApp(config, screen, _NoFrames(), _NoButtons())
                        ok = app.flow is not None and app.flow.log.inputs == want
                        ok = ok and app.flow.state.is_over == (len(want) == len(inputs))
                    except Exception:   # noqa: BLE001  (counted: that is what is measured)
                        ok = False
                    failures += not ok
    logging.disable(logging.NOTSET)
    return {"journals cut": cases, "resumed wrong or crashed": failures}


class _NoFrames:
    error = None

    def read(self):
        return None


class _NoButtons:
    class status:            # noqa: N801  (the source's attribute)
        connected, message = True, ""

    def poll(self):
        return []

    def feed(self, event):
        return False


# --------------------------------------------------------------------------- bad storage
def _mount(path: Path, size: str = "64k") -> bool:
    path.mkdir(parents=True, exist_ok=True)
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                          capture_output=True).returncode == 0


def _umount(path: Path) -> None:
    subprocess.run(["umount", str(path)], capture_output=True)


def _fill(folder: Path, keep_pages: int = 0) -> Path:
    """Fill the filesystem of `folder` up (less `keep_pages` pages)."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    pages = filler.stat().st_size // 4096
    os.truncate(filler, max(0, pages - keep_pages) * 4096)
    return filler


def _storage_fails(fix: Callable[[], None]) -> Callable[[Cutter, int], None]:
    """What the players and the staff do when the table says the game can no longer be saved:
    a power cut while the storage is still bad (the game resumes up to the failure and still
    cannot be saved), then another once the staff fixed it (it resumes and is saved again)."""
    def on_unsaved(cutter: Cutter, n: int) -> None:
        if cutter._moves() != cutter.expected[:n]:
            raise AssertionError(f"the journal of a failed storage is not the game up to move {n}")
        cutter.restart()
        # a read-only card is found out as the game resumes; a full one at the move that needs
        # a new block (the journal's last one may still take it)
        if not cutter.said("cannot journal games", seconds=1.0) and not (
                cutter.act(n) and cutter.said("this game is no longer saved")):
            raise AssertionError("the table started on bad storage did not say the game cannot be saved")
        cutter.restart(meanwhile=fix)
    return on_unsaved


def storage_scenarios(root: Path, seed: int) -> Iterator[dict[str, Any]]:
    game, players, options = GAMES[0]
    moves = len(expected_game(game, players, options, seed)[0])

    # a journal replaced by garbage while the table is off: kept aside, a new game from the start
    table = Table(root / "garbage", game, players, options, seed)
    cutter = Cutter(table, [], seed)

    def garbage(c: Cutter, n: int) -> None:
        c.restart(meanwhile=lambda: (c.table.journal_dir / CURRENT).write_bytes(random.Random(n).randbytes(300)))
        c._setup()
    cutter.events = {4: garbage}
    row = _row("garbage journal at move 4", moves, cutter)
    row["kept aside"] = len(list((table.journal_dir / "games").glob("*-unreadable.jsonl")))
    yield row

    # the house rules changed in the config between two starts: the game keeps its own
    table = Table(root / "options", game, players, options, seed)
    cutter = Cutter(table, [], seed)
    cutter.events = {3: lambda c, n: c.restart(meanwhile=lambda: c.table.write_config({"rounds": 5}))}
    yield _row("rules changed in the config at move 3", moves, cutter)

    if os.geteuid() != 0:
        yield {"game": "full and read-only card", "failure": "skipped: tmpfs needs root"}
        return
    # a card made read-only under a game (as a failing SD card does), mended after a cut
    table = Table(root / "readonly", game, players, options, seed)
    mount = table.journal_dir
    if _mount(mount):
        try:
            cutter = Cutter(table, [], seed)
            remount = lambda mode: subprocess.run(["mount", "-o", f"remount,{mode}", str(mount)], check=True)  # noqa: E731
            cutter.events = {5: lambda c, n: remount("ro")}
            cutter.on_unsaved = _storage_fails(lambda: remount("rw"))
            yield _row("card read-only at move 5", moves, cutter)
        finally:
            _umount(mount)
    # a card that fills up: one page left, which the journal fills at its 75th move or so
    game3, players3, options3 = "thirteen", ["Ann", "Zoë", "Cy"], {}
    moves3 = len(expected_game(game3, players3, options3, seed)[0])
    table = Table(root / "full", game3, players3, options3, seed)
    mount = table.journal_dir
    if _mount(mount, "32k"):
        try:
            cutter = Cutter(table, [], seed)
            filler = _fill(mount, keep_pages=1)
            cutter.on_unsaved = _storage_fails(lambda: filler.unlink())
            yield _row("card full (the journal's page filled mid-game)", moves3, cutter)
        finally:
            _umount(mount)


def correction_scenarios(root: Path, seed: int) -> Iterator[dict[str, Any]]:
    """Cuts while the dice just accepted are being corrected (a long OK, a die changed, not yet
    accepted), at each throw of Classic's first four: the table must come back correcting them
    and BACK leave them as read, the game the uninterrupted one (powercut.cut_while_correcting)."""
    game, players, options = GAMES[0]
    inputs = expected_game(game, players, options, seed)[0]
    throws = [n for n, d in enumerate(inputs) if d["type"] == "dice" and d["player"] is not None][:4]
    cutter = Cutter(Table(root / "correcting", game, players, options, seed), [], seed)
    counts: dict[str, int] = {}
    cutter.events = {n: cut_while_correcting(counts) for n in throws}
    row = _row("cut while correcting dice accepted", len(inputs), cutter)
    row["came back correcting"] = f"{counts.get('came back correcting', 0)} of {counts.get('cut', 0)}"
    yield row


# --------------------------------------------------------------------------- the command
def run(cuts: int = 60, seed: int = 1, as_json: bool = False, rules: str = "defaults") -> int:
    """The sweep; each row printed as it is done (the whole takes about ten minutes). `rules`:
    "house" plays HOUSE_GAMES, and leaves out the storage's scenarios (about the card, not the
    rules)."""
    started = time.monotonic()
    rows: list[dict[str, Any]] = []
    parts = [lambda: kill_sweep(root / "kills", cuts, seed, rules)]
    if rules == "defaults":
        parts.append(lambda: storage_scenarios(root / "storage", seed))
        parts.append(lambda: correction_scenarios(root / "flows", seed))
    with tempfile.TemporaryDirectory(prefix="dicetable-powercut-") as tmp:
        root = Path(tmp)
        for part in parts:
            for row in part():
                rows.append(row)
                if not as_json:
                    print(_line(row), flush=True)
        cut = truncations(seed, RULES[rules])
    held = all(r.get("same game") for r in rows if "moves" in r) and cut["resumed wrong or crashed"] == 0
    if as_json:
        print(json.dumps({"rows": rows, "truncations": cut, "held": held}))
        return 0 if held else 1
    print(f"journals cut at every byte of a last line: {cut['journals cut']}, resumed wrong or crashed: "
          f"{cut['resumed wrong or crashed']}")
    print(f"{'held' if held else 'LOST'}; {time.monotonic() - started:.0f} s")
    return 0 if held else 1


def _line(r: dict[str, Any]) -> str:
    if "moves" not in r:
        return f"{r['game']}: {r['failure']}"
    return (f"{r['game']}: {r['moves']} moves, {r['kills']} kills, {r['asked again']} moves under way asked "
            f"again, {r['holds']} holds, {r['hold cuts']} kills between a HOLD press and its throw "
            f"({r['holds kept']} resumed with the dice held again), "
            f"{r['draws']} draws by the table, {r['draw cuts']} kills before a draw's line, "
            f"{'the same game' if r['same game'] else 'NOT the same game'}, resumed said "
            f"{r['resumed said']}x, {r['errors logged']} error lines, {r['dice taken for a throw']} times dice "
            f"nobody threw taken for a throw, {r['seconds']} s"
            + (f"; kept aside {r['kept aside']}" if "kept aside" in r else "")
            + (f"; came back correcting {r['came back correcting']}" if "came back correcting" in r else "")
            + (f"  FAILURE: {r['failure']}" if r["failure"] else ""))
