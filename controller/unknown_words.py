"""What `dicetable` says to words on its command line that no option takes.

argparse names them under the usage of the whole program (`usage: dicetable [-h] [-v]
{demo,run,...}`): someone who typed `dicetable demo --gmae thirteen`, or copied an option from the
docs into the wrong command, learnt neither which options `demo` has nor which one they meant.
Here they are named under the usage of the command typed, with the option they most look like.
"""
from __future__ import annotations

import argparse
import difflib
from typing import NoReturn


def subcommand_parser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of `command` among `parser`'s subcommands (the parser itself if it has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]
    return parser


def likely_meant(word: str, *parsers: argparse.ArgumentParser) -> str | None:
    """The option of `parsers` that `word` (an unknown `--opt` or `--opt=value`) is most like
    (never --help: `--half` is not a misspelt --help)."""
    if not word.startswith("-"):
        return None
    known = [flag for parser in parsers for action in parser._actions for flag in action.option_strings
             if flag.startswith("--") and flag != "--help"]
    close = difflib.get_close_matches(word.split("=", 1)[0], known, n=1, cutoff=0.6)
    return close[0] if close else None


def refuse_unknown(parser: argparse.ArgumentParser, command: str, extras: list[str]) -> NoReturn:
    """Exit 2 naming `extras` under `command`'s usage, with the option each unknown one looks like."""
    sub = subcommand_parser(parser, command)
    hints = [f"{word}: did you mean {meant}?" for word in extras if (meant := likely_meant(word, sub, parser))]
    message = f"unrecognized arguments: {' '.join(extras)}"
    if hints:
        message += " (" + "; ".join(hints) + ")"
    sub.error(f"{message}; `{sub.prog} --help` lists its options")
