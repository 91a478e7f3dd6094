"""The `dicetable` command: one entry point for the table, the demo and the tools."""
from __future__ import annotations

import argparse
import json
import logging
import os
import shlex
import sys
from pathlib import Path

# pygame prints its banner on stdout as it is imported, and the imports below import it (a seat
# name's glyphs are checked in the screen's font): said before them, or every command's output,
# `dicetable play`'s and `dicetable games --options`' lines to copy into the config, began with it
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from .logsetup import log_crashes, log_handler, log_warnings
from .names import players_from
from .rules import GAMES, OptionError, load_all
from .tablelog import LogError, TableLog, replay
from .unknown_words import refuse_unknown

log = logging.getLogger("dicetable")

#: what `dicetable --help` (and `dicetable` alone) says first: to a newcomer, where to begin
DESCRIPTION = ("The dice table's program. New here? `dicetable demo` shows it at work; `dicetable check` "
               "says what a table still needs; `dicetable COMMAND --help` lists a command's options, "
               "and docs/commands.md says all each one does.")


def parse_options(pairs: list[str] | None) -> dict:
    """`--option name=value` pairs; values are JSON when they parse as JSON, else strings."""
    out: dict = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise OptionError(f"--option takes name=value, not {pair!r}")
        name, raw = pair.split("=", 1)
        name = name.strip()
        if not name:
            raise OptionError(f"--option takes name=value, not {pair!r} (the name is missing)")
        try:
            out[name] = json.loads(raw)
        except json.JSONDecodeError:
            out[name] = raw
    return out


# ------------------------------------------------------------------------------------ commands
def cmd_games(args: argparse.Namespace) -> int:
    """Each option's line is TOML, its explanation a comment: staff copy it into the config's
    [table.options.GAME]. Printed as Python (True, 'shared'), a copied line stopped the table."""
    from .calibrate import toml_value

    for name in sorted(GAMES):
        cls = GAMES[name]
        print(f"{name}: {cls.title} ({cls.min_players}-{cls.max_players} players)")
        if args.options:
            for spec in cls.OPTIONS:
                choices = f"one of {', '.join(toml_value(c) for c in spec.choices)}: " if spec.choices else ""
                print(f"    {spec.name} = {toml_value(spec.default)}  # {choices}{spec.doc}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .journal import load_any

    try:
        table_log = load_any(args.log)      # a table log, or a table's journal (/var/lib/dicetable/...)
        state = replay(table_log)
    except LogError as exc:
        if args.json:
            print(json.dumps({"error": str(exc), "index": exc.index}))
        else:
            print(f"dicetable replay: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"game": table_log.game, "over": state.is_over, "sheet": state.sheet().to_json(),
                          "result": state.result().to_json()}, indent=1))
    else:
        print(state.sheet().to_text())
        print()
        print(state.result().to_text() if state.is_over else "(the game is not over yet)")
    return 0


def resume_conflict(args: argparse.Namespace, table_log: TableLog, players: list[str]) -> str | None:
    """A resumed game keeps the game, players and options of its log: --game, --players or
    --option saying otherwise were ignored without a word; now the first disagreement is told.
    Giving the same ones as the log is harmless; an option is compared by its value, the log's
    default for one an older log left out (its header kept only the rules set otherwise)."""
    where = args.resume
    if args.game and args.game != table_log.game:
        return (f"--game {args.game} does not match {where}, a {table_log.game} game "
                f"(a resumed game keeps its game: leave --game out)")
    if players and players != table_log.players:
        return (f"--players {','.join(players)} does not match {where}, whose players are "
                f"{','.join(table_log.players)} (a resumed game keeps its players: leave --players out)")
    played = every_option(table_log)
    for name, value in parse_options(args.option).items():
        if name not in played or played[name] != value:
            logged = json.dumps(played[name]) if name in played else "not set"
            return (f"--option {name}={json.dumps(value)} does not match {where}, where {name} is {logged} "
                    f"(a resumed game keeps its options: leave --option out)")
    return None


def every_option(table_log: TableLog) -> dict:
    """The value of every house rule `table_log`'s game is played with (its own options, if the
    log is refused: replaying it says why)."""
    try:
        return table_log.with_every_option().options
    except LogError:
        return dict(table_log.options)


def holds_another_game(path: Path, resumed: str | None) -> bool:
    """--log names a file with something in it that is not the log being resumed: it was written
    over, at once, before the first question (last night's unfinished game, the table's journal)."""
    try:
        if not path.is_file() or path.stat().st_size == 0:
            return False
        return not (resumed and Path(resumed).exists() and path.samefile(resumed))
    except OSError:
        return False


def cmd_play(args: argparse.Namespace) -> int:
    if args.fixtures or args.script:
        from .table_cli import play_fixtures

        return play_fixtures(args)
    from .draws import draw_first_player, first_player_words
    from .journal import is_journal, load_any
    from .terminal import play_terminal

    try:
        players = players_from(args.players)
    except ValueError as exc:
        print(f"dicetable play: {exc}", file=sys.stderr)
        return 2
    if args.resume and is_journal(args.resume) and not args.log:
        # (the game goes on in a table log: written over the journal, a JSON object where JSON
        # lines belong, the table would take its own journal for damage)
        print(f"dicetable play: {args.resume} is a table's journal, which is read, not written: add "
              f"--log GAME.json to go on with its game in a table log", file=sys.stderr)
        return 2
    try:
        if args.resume:
            table_log = load_any(args.resume)
            conflict = resume_conflict(args, table_log, players)
            if conflict:
                print(f"dicetable play: {conflict}", file=sys.stderr)
                return 2
            state = replay(table_log)
        else:
            if not args.game:
                print("dicetable play: name a game with --game (see 'dicetable games')", file=sys.stderr)
                return 2
            if not players:
                print("dicetable play: name the players with --players, e.g. --players Ann,Bob", file=sys.stderr)
                return 2
            # (a first player left to the table is drawn once, here; the log keeps the seat drawn)
            table_log = TableLog(args.game, players,
                                 draw_first_player(players, parse_options(args.option))).with_every_option()
            state = table_log.start()
    except (LogError, OptionError) as exc:
        print(f"dicetable play: {exc}", file=sys.stderr)
        return 2
    # a resumed game goes on writing the log it came from, unless --log names another file
    log_path = Path(args.log) if args.log else Path(args.resume) if args.resume else None
    if args.log and holds_another_game(Path(args.log), args.resume):
        print(f"dicetable play: {args.log} already holds a game, which this one would be written over: go on "
              f"with it with --resume {args.log}, or give another --log", file=sys.stderr)
        return 2

    def save() -> None:
        if log_path:
            try:
                table_log.save(log_path)
            except OSError as exc:
                print(f"dicetable play: cannot write the log {log_path}: {exc.strerror or exc}", file=sys.stderr)

    if log_path:
        try:
            table_log.save(log_path)
        except OSError as exc:
            print(f"dicetable play: cannot write the log {log_path}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    forgiving_terminal()
    drawn = first_player_words(state)
    if drawn and not table_log.inputs:        # (saved first: a log written names the same seat)
        print(drawn)
    resume = f"dicetable play --resume {shlex.quote(str(log_path))}" if log_path else ""
    play_terminal(state, table_log, input, sys.stdout, save, resume=resume)
    return 0


def forgiving_terminal() -> None:
    """A line typed that is not UTF-8 (bytes piped in, a terminal set to Latin-1) raised
    UnicodeDecodeError out of input() where the locale is a UTF-8 one other than C.UTF-8 (a
    Pi's en_GB.UTF-8), and a character the terminal cannot show (the status line's '—' on an
    ASCII or Latin-1 terminal) UnicodeEncodeError out of print: either ended the game with a
    traceback. Bytes that are not text are read as '�' (refused as any typo is), and what the
    terminal cannot show is printed as '?'."""
    for stream in (sys.stdin, sys.stdout):
        reconfigure = getattr(stream, "reconfigure", None)     # (not on a test's stand-in)
        if reconfigure is not None:
            try:
                reconfigure(errors="replace")
            except (ValueError, OSError):   # (a stream already closed, or not a text one)
                pass


def cmd_demo(args: argparse.Namespace) -> int:
    from .demo_text import check_player_count

    try:
        check_player_count([args.game] if args.game else sorted(GAMES), args.players, one_game=bool(args.game))
    except OptionError as exc:
        print(f"dicetable demo: {exc}", file=sys.stderr)
        return 2
    if args.text:
        from .demo_text import run_text_demo

        return run_text_demo(sys.stdout, [args.game] if args.game else None, args.players, args.seed)
    from .table_cli import run_demo

    return run_demo(args)


def cmd_run(args: argparse.Namespace) -> int:
    from .table_cli import run_table

    return run_table(args)


def cmd_bench_rules(args: argparse.Namespace) -> int:
    from .bench_rules import run

    return run(seconds=2.0 if args.limit is None else max(0.2, args.limit / 10), as_json=args.json)


def cmd_bench_table(args: argparse.Namespace) -> int:
    from .bench_table import run

    return run(as_json=args.json, quick=args.limit is not None)


def cmd_bench_soak(args: argparse.Namespace) -> int:
    from .bench_soak import run

    return run(count=10 if args.limit is None else max(1, args.limit), as_json=args.json)


def cmd_bench_evening(args: argparse.Namespace) -> int:
    from .bench_evening import run

    return run(count=100 if args.limit is None else max(1, args.limit), as_json=args.json)


def cmd_bench_journal(args: argparse.Namespace) -> int:
    from .bench_journal import run

    return run(count=100_000 if args.limit is None else max(1, args.limit), as_json=args.json)


def cmd_bench_powercut(args: argparse.Namespace) -> int:
    from .bench_powercut import run

    return run(cuts=60 if args.limit is None else max(1, args.limit), as_json=args.json,
               rules=args.rules or "defaults")


def cmd_bench_archive(args: argparse.Namespace) -> int:
    from .bench_archive import run

    return run(count=5000 if args.limit is None else max(1, args.limit), as_json=args.json)


# -------------------------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    from vision.cli import AnyOrderParser

    parser = AnyOrderParser(prog="dicetable", description=DESCRIPTION)   # options in any order
    parser.add_argument("-v", "--verbose", action="store_true", help="log more")
    sub = parser.add_subparsers(dest="command", required=True, title="commands", metavar="COMMAND")

    p = sub.add_parser("demo", help="see the table work: games played by automatic players before a synthetic camera",
                       description="Complete games played by automatic players in front of a synthetic camera, "
                                   "through the table's real reader, rules and screen: in a window, or headless "
                                   "(no screen: PNG screenshots in demo-screenshots/).")
    p.add_argument("--game", choices=sorted(GAMES), help="one game (default: each game in turn)")
    p.add_argument("--players", type=int,
                   help="number of automatic players, within the range of each game played (dicetable games)")
    p.add_argument("--headless", action="store_true", help="no window (SDL dummy driver)")
    p.add_argument("--screenshots", metavar="DIR", help="write PNG screenshots here")
    p.add_argument("--seed", type=int, default=1,
                   help="where the random dice start: the same seed plays the same games (default 1)")
    p.add_argument("--size", default="1280x720", metavar="WxH", help="screen size (default 1280x720)")
    p.add_argument("--fullscreen", action="store_true", help="fill the whole screen instead of a window")
    p.add_argument("--text", action="store_true", help="rules only, in the terminal (no camera, no screen)")
    p.add_argument("--fast", action="store_true", help="no pauses between steps")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("run", help="the real table (camera, buttons, screen) from a config file",
                       description="The real table: camera, buttons and screen as the config file sets them; "
                                   "resumes an unfinished game. Installed as a service, systemd runs it "
                                   "(docs/install.md).")
    p.add_argument("--config", default="/etc/dicetable/config.toml", metavar="PATH",
                   help="config file (default /etc/dicetable/config.toml)")
    p.add_argument("--fullscreen", action="store_true",
                   help="fill the whole screen (as does fullscreen = true in [display])")
    p.add_argument("--headless", action="store_true", help="no window (SDL dummy driver): for tests")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("play", help="play in the terminal typing dice values, or headless from fixtures",
                       description="A table without a camera: players type the values they read (type help "
                                   "once it runs). With --fixtures and --script: frames from images and presses "
                                   "from a script, headless (docs/hardware.md).")
    p.add_argument("--game", choices=sorted(GAMES), help="the game to play (dicetable games lists them)")
    p.add_argument("--players", help="comma-separated names, e.g. Ann,Bob")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a house-rule option (repeatable)")
    p.add_argument("--log", help="write the table log here after every input")
    p.add_argument("--resume", metavar="LOG",
                   help="continue the game of this table log (or of a table's .jsonl journal, with --log NEW.json)")
    p.add_argument("--fixtures", metavar="DIR", help="headless test mode: frames from this folder")
    p.add_argument("--script", metavar="FILE", help="headless test mode: button presses from this file")
    p.add_argument("--headless", action="store_true", help="with --fixtures: draw the screen, with no window")
    p.add_argument("--screenshots", metavar="DIR",
                   help="with --fixtures: write the script's screenshots (and the last screen) here")
    p.add_argument("--size", default="1280x720", metavar="WxH",
                   help="with --fixtures: the screen's size (default 1280x720)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("replay",
                       help="apply every input of a table log (or a .jsonl journal); print the sheet and result",
                       description="Apply every input of a table log (or of a table's .jsonl journal) and print "
                                   "the score sheet and the result; exit 2 at an input the rules refuse.")
    p.add_argument("log", help="a table log (.json) or a table's journal (.jsonl)")
    p.add_argument("--json", action="store_true", help="the sheet and result as JSON")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("games", help="list the games and their options",
                       description="The games, their numbers of players, and (--options) their house rules.")
    p.add_argument("--options", action="store_true",
                   help="each game's house rules: a line to copy into the config's [table.options.GAME], "
                        "its default and what it does")
    p.set_defaults(func=cmd_games)

    from .check import register as register_check

    register_check(sub)
    register_tools(sub)
    return parser


def register_tools(sub) -> None:
    """Subcommands that live with their package (vision: read, bench; the table's: calibrate)."""
    from vision import cli as vision_cli

    from . import calibrate

    vision_cli.add_bench_target("rules", cmd_bench_rules, ("limit",))
    vision_cli.add_bench_target("table", cmd_bench_table, ("limit",))
    vision_cli.add_bench_target("soak", cmd_bench_soak, ("limit",))
    vision_cli.add_bench_target("evening", cmd_bench_evening, ("limit",))
    vision_cli.add_bench_target("journal", cmd_bench_journal, ("limit",))
    vision_cli.add_bench_target("powercut", cmd_bench_powercut, ("limit", "rules"))
    vision_cli.add_bench_target("archive", cmd_bench_archive, ("limit",))
    vision_cli.register(sub)
    calibrate.register(sub, capture=_capture_from_camera)


def _capture_from_camera(args: argparse.Namespace):
    """`dicetable calibrate --camera` (imported only then: it opens the camera hardware)."""
    from .calibrate_camera import capture_from_camera

    return capture_from_camera(args)


def main(argv: list[str] | None = None) -> int:
    log_crashes(sys.stderr)
    try:
        load_all()                  # (the vision's libraries: seconds on a Pi, where Ctrl-C may come)
    except KeyboardInterrupt:
        print("dicetable: stopped (Ctrl-C) while it was starting.", file=sys.stderr)
        return 130
    parser = build_parser()
    words = sys.argv[1:] if argv is None else list(argv)
    if not words:                   # (`dicetable` alone: the commands and what each does, not an error line)
        parser.print_help(sys.stderr)
        return 2
    args, extras = parser.parse_known_args(words)
    if extras:
        refuse_unknown(parser, args.command, extras)
    quiet = args.command in ("demo", "play", "replay", "read", "bench", "games", "check")
    logging.basicConfig(level=logging.DEBUG if args.verbose else (logging.ERROR if quiet else logging.INFO),
                        handlers=[log_handler(sys.stderr)])     # (under systemd: with each line's priority)
    log_warnings(sys.stderr)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `dicetable replay x.json | head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
