"""The journal's format version, for a café that puts an older build back in the middle of a game.

A build of journal format 1 (`dicetable-log/1`, before the lines that are not inputs) checks the
header's format and reads every line after it as an input, or as a take-back (`{"undo": true}`)
once it knew those. A hold line or a damage line was to it an input the rules refuse: damage. It
resumed the game up to the first HOLD pressed, wrote the journal over with the moves before it
(the rest only in a copy kept aside) and said the journal was damaged; the players went on from a
move of long ago, and the staff looked for a failing card. A journal that may hold such lines says
a newer format, which such a build keeps aside whole, as saved by another version, and this
version reads both."""
from __future__ import annotations

import json
from typing import Any

import pytest

from controller.journal import Journal, recover
from controller.rules import IllegalInput, new_game
from controller.tablelog import FORMAT, OtherVersion, TableLog
from test_table_flow_resume import scripted_journal

#: what a build of each older journal format took as a line that is not an input
KNOWN_TO = {"before take-backs": [], "take-backs": [{"undo": True}]}


def resumed_by_version_1(lines: list[bytes], known: list[dict[str, Any]]) -> list[dict[str, Any]] | str:
    """What a build of journal format 1 resumes from a journal: "another version" for a header of
    another format (kept aside whole), else the inputs up to the first line it cannot apply."""
    header = json.loads(lines[0])
    if header.get("format", FORMAT) != FORMAT:
        return "another version"
    state = new_game(header["game"], header["players"], header["options"])
    inputs: list[dict[str, Any]] = []
    for line in lines[1:]:
        data = json.loads(line)
        if data in known:
            inputs.pop()
            state = new_game(header["game"], header["players"], header["options"])
            for old in inputs:
                state = state.apply(old)
            continue
        try:
            state = state.apply(data)
        except IllegalInput:
            break
        inputs.append(data)
    return inputs


@pytest.mark.parametrize("build", KNOWN_TO)
def test_an_older_build_keeps_a_newer_journal_whole_rather_than_resume_it_short(tmp_path, build):
    """The scripted game of tests/test_table_flow_resume.py (holds, take-backs, a correction): an
    older build either resumes every move of it or none (on the old code: the one throw before the
    first HOLD pressed, of 9 moves)."""
    lines = scripted_journal(tmp_path)
    assert any(b'"hold"' in line for line in lines)
    moves = Journal.load(tmp_path / "live.jsonl").inputs
    assert resumed_by_version_1(lines, KNOWN_TO[build]) in ("another version", moves)


def test_a_damaged_journal_written_again_is_kept_whole_by_an_older_build_too(tmp_path):
    """The journal a resume writes after damage ends with a damage line: a newer format too."""
    from test_table_flow_resume import started

    lines = scripted_journal(tmp_path)
    folder = tmp_path / "table"
    folder.mkdir()
    (folder / "current.jsonl").write_bytes(b"".join(lines[:6]) + b"garbage\n" + b"".join(lines[6:]))
    started(folder)
    again = (folder / "current.jsonl").read_bytes().splitlines(keepends=True)
    assert any(b'"damaged"' in line for line in again)
    assert resumed_by_version_1(again, KNOWN_TO["take-backs"]) == "another version"


def test_this_version_resumes_journals_of_format_1_with_their_holds(tmp_path):
    """A café updating mid-game: the journal of the build before the bump, holds and all."""
    from controller.journal import JOURNAL_FORMAT

    lines = scripted_journal(tmp_path)
    header = dict(json.loads(lines[0]), format=FORMAT)
    old = tmp_path / "old.jsonl"
    old.write_bytes(json.dumps(header).encode() + b"\n" + b"".join(lines[1:]))
    new = recover(tmp_path / "live.jsonl")
    found = recover(old)
    assert json.loads(lines[0])["format"] == JOURNAL_FORMAT
    assert (found.log.inputs, found.held, found.damage) == (new.log.inputs, new.held, None)


def test_a_journal_of_a_format_yet_to_come_is_another_version(tmp_path):
    path = tmp_path / "current.jsonl"
    path.write_text(json.dumps({"format": "dicetable-log/3", "game": "thirteen", "players": ["Ann"],
                                "options": {}}) + "\n")
    with pytest.raises(OtherVersion, match="'dicetable-log/3'"):
        Journal.load(path)


def test_a_table_log_keeps_format_1():
    """A table log (`dicetable play --log`) holds inputs alone: older builds read it as ever."""
    assert TableLog("thirteen", ["Ann"]).to_json()["format"] == FORMAT == "dicetable-log/1"
