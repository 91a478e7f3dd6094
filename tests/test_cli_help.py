"""`dicetable`'s help as a newcomer reads it, with only a fresh clone and the docs.

Found by walking the docs: `dicetable` alone said only `error: the following arguments are
required: command`; `dicetable run --help` listed `--config CONFIG`, `--fullscreen` and
`--headless` with no word of what they do (so did demo's `--seed`, play's `--size`, replay's
`--json`, games' `--options`), and no subcommand but check and calibrate said what it is for; a
mistyped option (`dicetable demo --gmae thirteen`) was refused under the usage of the whole
program, which lists no option of `demo`."""
from __future__ import annotations

import argparse

import pytest

import controller.cli as cli

#: subcommands registered by vision/ (read, bench, calibrate): their words are that package's
VISIONS = {"read", "bench", "calibrate"}


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def exit_code(argv: list[str]) -> int:
    try:
        return cli.main(argv)
    except SystemExit as exc:
        return int(exc.code)


def test_dicetable_alone_lists_the_commands_and_what_each_does(capsys):
    assert exit_code([]) == 2
    err = " ".join(capsys.readouterr().err.split())
    parser = cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [choice.dest for choice in action._choices_actions if " ".join(choice.help.split()) not in err]
    assert missing == [], err
    assert "dicetable demo" in err and "dicetable COMMAND --help" in err


@pytest.mark.parametrize("name", sorted(set(subcommands()) - VISIONS))
def test_every_option_of_the_table_s_commands_says_what_it_does(name):
    parser = subcommands()[name]
    silent = [action.option_strings or [action.dest] for action in parser._actions
              if not action.help and not isinstance(action, argparse._HelpAction)]
    assert silent == [], f"dicetable {name}: options with no help"
    assert parser.description, f"dicetable {name} --help does not say what the command is for"


@pytest.mark.parametrize("argv, meant", [
    (["demo", "--gmae", "thirteen"], "--game"),
    (["check", "--no-camara"], "--no-camera"),
    (["play", "--game", "thirteen", "--players", "Ann,Bob", "--scrennshots", "shots"], "--screenshots"),
])
def test_a_mistyped_option_is_named_under_its_command_with_the_one_meant(capsys, argv, meant):
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert f"usage: dicetable {argv[0]} " in err            # (its own options, not the program's usage)
    assert f"did you mean {meant}?" in err
    assert "Traceback" not in err


def test_a_word_no_option_takes_is_still_refused_with_exit_2(capsys):
    assert exit_code(["replay", "x.json", "y.json"]) == 2
    err = capsys.readouterr().err
    assert "usage: dicetable replay " in err and "unrecognized arguments: y.json" in err
    assert "did you mean" not in err
