"""The journal read back: whatever a damaged card or a stray edit leaves in it is a LogError
naming the line (a torn last line is dropped), never another exception, and never a table that
cannot start."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.journal import Journal
from controller.tablelog import FORMAT, LogError, TableLog
from display.screen import Screen

HEADER = json.dumps({"format": FORMAT, "game": "thirteen", "players": ["Ann"], "options": {}}).encode()
DICE = json.dumps({"type": "dice", "player": 0, "values": [6, 6, 6, 3, 3]}).encode()
CHOOSE = json.dumps({"type": "choose", "player": 0, "option": "FULL_HOUSE"}).encode()

BAD_HEADERS = {
    "array": b"[]", "number": b"5", "null": b"null", "string": b'"thirteen"', "true": b"true",
    "not-utf8": b'{"game": "thirt\xff\xfe"}', "torn": b'{"format": "dicetable-log/1", "ga',
    "blank": b"", "nested-too-deep": b"[" * 100_000, "number-too-long": b"1" * 5000,
    "no-game": b"{}", "players-not-a-list": b'{"game": "thirteen", "players": "Ann"}',
    "options-not-an-object": b'{"game": "thirteen", "players": ["Ann"], "options": []}',
    "format": b'{"format": "other/2", "game": "thirteen", "players": ["Ann"]}',
}

BAD_LINES = {
    "array": b"[]", "number": b"5", "null": b"null", "string": b'"dice"', "not-utf8": b'{"type": "d\xff"}',
    "torn": b'{"type": "dice", "pla', "blank": b"", "bom": "\ufeff".encode() + DICE,
    "nested-too-deep": b"[" * 100_000, "number-too-long": b"1" * 5000, "nul-bytes": b"\0" * 40,
}


def write(path: Path, *lines: bytes) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.mark.parametrize("first", BAD_HEADERS.values(), ids=BAD_HEADERS.keys())
def test_a_header_that_is_not_a_game_header_is_a_log_error(tmp_path, first):
    with pytest.raises(LogError, match="journal"):
        Journal.load(write(tmp_path / "current.jsonl", first, DICE))


@pytest.mark.parametrize("line", BAD_LINES.values(), ids=BAD_LINES.keys())
def test_a_damaged_line_in_the_middle_is_a_log_error_naming_it(tmp_path, line):
    path = write(tmp_path / "current.jsonl", HEADER, DICE, line, CHOOSE)
    with pytest.raises(LogError, match="line 3 ") as caught:
        Journal.load(path)
    assert caught.value.index == 1               # the input that should have been there


@pytest.mark.parametrize("line", [BAD_LINES["torn"], BAD_LINES["not-utf8"], b'{"type": "re\xff\xfe'],
                         ids=["torn", "not-utf8", "torn-not-utf8"])
def test_a_torn_last_line_is_dropped_even_with_a_stray_byte(tmp_path, line):
    path = tmp_path / "current.jsonl"
    path.write_bytes(HEADER + b"\n" + DICE + b"\n" + line)
    assert Journal.load(path).inputs == [json.loads(DICE)]


@pytest.mark.parametrize("line", [b"5", b"[]", b"null"], ids=["number", "array", "null"])
def test_a_last_line_that_is_json_but_not_a_record_is_damage_not_a_tear(tmp_path, line):
    with pytest.raises(LogError, match="line 3 is .*not a JSON object"):
        Journal.load(write(tmp_path / "current.jsonl", HEADER, DICE, line))


def test_a_bom_before_the_header_and_crlf_line_ends_are_read(tmp_path):
    path = tmp_path / "current.jsonl"
    path.write_bytes("\ufeff".encode() + HEADER + b"\r\n" + DICE + b"\r\n")
    log = Journal.load(path)
    assert (log.game, log.inputs) == ("thirteen", [json.loads(DICE)])


def table(tmp_path):
    from controller.config import parse_config
    from controller.table_app import TableApp
    from test_table_e2e import FakeButtons, NoFrames

    return TableApp(parse_config(f'[table]\njournal_dir = "{tmp_path}"\n'), Screen((800, 480), headless=True),
                    NoFrames(), FakeButtons())


@pytest.mark.parametrize("first", BAD_HEADERS.values(), ids=BAD_HEADERS.keys())
def test_the_table_starts_and_sets_aside_a_journal_without_a_usable_header(tmp_path, first):
    """Found in review: `[]`, `5`, `null` raised TypeError and a non-UTF-8 byte UnicodeDecodeError
    out of TableApp(), and `dicetable run` blamed the config."""
    write(tmp_path / "current.jsonl", first, DICE)
    app = table(tmp_path)
    assert app.flow is None and not (tmp_path / "current.jsonl").exists()
    assert [p.name.endswith("-unreadable.jsonl") for p in (tmp_path / "games").iterdir()] == [True]


def test_a_torn_last_line_with_a_stray_byte_resumes_the_game(tmp_path):
    """/tmp/review_c/repro_journal_non_utf8.sh: the table refused to start at all."""
    (tmp_path / "current.jsonl").write_bytes(HEADER + b"\n" + DICE + b'\n{"type": "re\xff\xfe')
    app = table(tmp_path)
    assert app.flow is not None and app.flow.log.inputs == [json.loads(DICE)]
    assert "Resumed" in app.flow.message.text


DICE_7 = json.dumps({"type": "dice", "player": 0, "values": [6, 6, 6, 3, 7]}).encode()
DAMAGE = dict(BAD_LINES, **{"refused-by-the-rules": DICE_7, "take-back-of-nothing": None})


@pytest.mark.parametrize("line", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_damaged_journal_resumes_the_game_up_to_the_damage_and_says_so(tmp_path, line):
    """/tmp/review_c/repro_resume_failure_silent.py: one bad line among good moves set the whole
    game aside, and the screen showed the setup menu without a word."""
    from controller.tablelog import replay

    if line is None:     # a take-back right after the header: nothing before it to take back
        lines, good = (HEADER, b'{"undo": true}', DICE, CHOOSE), []
    else:
        lines, good = (HEADER, DICE, CHOOSE, DICE, line, CHOOSE, DICE), [DICE, CHOOSE, DICE]
    write(tmp_path / "current.jsonl", *lines)
    original = (tmp_path / "current.jsonl").read_bytes()
    app = table(tmp_path)
    inputs = [json.loads(g) for g in good]
    assert app.flow is not None and app.flow.log.inputs == inputs
    assert app.flow.state.snapshot() == replay(TableLog("thirteen", ["Ann"], {}, inputs)).snapshot()
    [kept] = (tmp_path / "games").iterdir()
    assert kept.name.endswith("-damaged.jsonl") and kept.read_bytes() == original
    message = app.flow.view().message
    assert message.level == "warning"
    # (the kept journal's long path is a page of its own: the banner's pages, read in turn)
    said = " ".join(message.pages or (message.text,)).replace(" … … ", " ")
    assert f"up to move {len(good)}: the rest of the journal was damaged (kept in {kept})." in said
    assert Journal.load(tmp_path / "current.jsonl").inputs == inputs      # a fresh journal, good moves only
    again = table(tmp_path)             # and another power cut, before a move: as the first came back
    assert again.flow.log.inputs == inputs and again.flow.view().message.text == message.text
    assert again.flow.take_back_offered is None and again.flow.correction_offered is None


def test_a_journal_that_cannot_be_resumed_at_all_is_named_on_the_setup_menu(tmp_path):
    write(tmp_path / "current.jsonl", b"[]", DICE)
    app = table(tmp_path)
    [kept] = (tmp_path / "games").iterdir()
    message = app.menu.view().message
    assert app.flow is None and message.level == "warning"
    assert message.text == f"The last game could not be resumed: its journal is damaged (kept in {kept})."


def test_an_unexpected_error_while_resuming_does_not_stop_the_table(tmp_path, monkeypatch, caplog):
    """Belt and braces: whatever a journal does to the code that reads it, the table starts."""
    import controller.table_app as table_app

    def broken(path):
        raise KeyError("surprise")

    monkeypatch.setattr(table_app, "recover", broken)
    write(tmp_path / "current.jsonl", HEADER, DICE)
    app = table(tmp_path)
    assert app.flow is None and "could not be resumed" in app.menu.view().message.text
    assert "surprise" in caplog.text


def test_damage_after_a_finished_game_goes_to_the_menu_and_says_so(tmp_path):
    """A game over, then a line: the game cannot go on; it is kept aside, the menu says where."""
    five = json.dumps({"type": "dice", "player": 0, "values": [6, 6, 6, 6, 6]}).encode()
    write(tmp_path / "current.jsonl", *finished_thirteen(), five)
    app = table(tmp_path)
    [kept] = (tmp_path / "games").iterdir()
    assert app.flow is None and kept.name.endswith("-damaged.jsonl")
    assert f"kept in {kept}" in app.menu.view().message.text


def test_starting_a_journal_over_an_old_one_replaces_it_whole_or_not_at_all(tmp_path):
    """A resume rewrites current.jsonl (the good moves, without take-backs): it was truncated
    first and written in place, so a power cut in between lost the game being resumed. Here the
    write stops part way (an input json cannot write): the old journal must be intact."""
    path = write(tmp_path / "current.jsonl", HEADER, DICE, CHOOSE)
    before = path.read_bytes()
    broken = TableLog("thirteen", ["Ann"], {}, [json.loads(DICE), {"type": "choose", "option": {1, 2}}])
    with pytest.raises(TypeError):
        Journal(path, broken)
    assert path.read_bytes() == before
    Journal(path, TableLog("thirteen", ["Ann"], {}, [json.loads(DICE)]))
    assert Journal.load(path).inputs == [json.loads(DICE)]


OTHER_VERSIONS = {
    "newer-format": {"format": "dicetable-log/3", "game": "thirteen", "players": ["Ann"], "options": {}},
    "renamed-option": {"format": FORMAT, "game": "thirteen", "players": ["Ann"], "options": {"two_pair_value": 20}},
    "renamed-game": {"format": FORMAT, "game": "thirteen-dice", "players": ["Ann"], "options": {}},
}


@pytest.mark.parametrize("header", OTHER_VERSIONS.values(), ids=OTHER_VERSIONS.keys())
def test_a_journal_of_another_version_is_kept_and_named_as_such_not_as_damage(tmp_path, header, caplog):
    """Staff update the table (docs/install.md, section 11) in the middle of a game whose option was
    since renamed: the screen said the journal was damaged, and sent them looking for a bad card."""
    path = write(tmp_path / "current.jsonl", json.dumps(header).encode(), DICE)
    original = path.read_bytes()
    app = table(tmp_path)
    [kept] = (tmp_path / "games").iterdir()
    assert app.flow is None and kept.read_bytes() == original          # the game is kept, whole
    assert app.menu.view().message.text == ("The last game could not be resumed: it was saved by another "
                                            f"version of the program (kept in {kept}).")
    assert "saved by another version" in caplog.text


REFUSED_GAMES = {   # a header the rules refuse, as a hand edit leaves it: (players, options), what is said
    "nine-players": ("classic", list("ABCDEFGHI"), {}, "Classic poker dice takes 2 to 8 players, not 9"),
    "empty-name": ("thirteen", ["Ann", " "], {}, "a player name cannot be empty"),
    "name-twice": ("thirteen", ["Ann", "Ann"], {}, "player names must be different: Ann twice"),
    "bad-value": ("thirteen", ["Ann"], {"upper_bonus": -5}, "option 'upper_bonus': -5 is below the minimum 0"),
}


@pytest.mark.parametrize("game, players, options, reason", REFUSED_GAMES.values(), ids=REFUSED_GAMES.keys())
def test_a_journal_whose_game_the_rules_refuse_says_what_not_another_version(tmp_path, game, players, options,
                                                                             reason, caplog):
    """Found in review: any rules error at the start of a journal was "saved by another version of
    the program", so staff looked for an update to undo where the header had 9 players or a name
    twice. The screen now says what the rules refuse."""
    header = {"format": FORMAT, "game": game, "players": players, "options": options}
    write(tmp_path / "current.jsonl", json.dumps(header).encode(), DICE)
    app = table(tmp_path)
    [kept] = (tmp_path / "games").iterdir()
    assert app.flow is None
    assert app.menu.view().message.text == (f"The last game could not be resumed: the rules refuse its game "
                                            f"({reason}) (kept in {kept}).")
    assert "another version" not in caplog.text


RESUMED_TAILS = {"torn": b'{"type": "choose", "pla', "newline-lost": CHOOSE, "whole": None}


@pytest.mark.parametrize("tail", RESUMED_TAILS.values(), ids=RESUMED_TAILS.keys())
def test_a_resume_that_cannot_write_its_copy_goes_on_in_the_journal_as_it_was(tmp_path, tail, caplog):
    """Found in review: a resume rewrites the journal through a copy; on a full card the copy
    cannot be written, and the resumed game went on unsaved ("This game cannot be saved") though
    the journal on the card held it whole. Here the copy's name is taken by a folder, so it cannot
    be written either: the game must go on being journaled where it is, a torn tail cut off."""
    path = tmp_path / "current.jsonl"
    path.write_bytes(HEADER + b"\n" + DICE + b"\n" + (tail or b""))
    (tmp_path / "current.jsonl.tmp").mkdir()
    app = table(tmp_path)
    assert app.flow is not None and app.flow.unsaved is None
    assert "Resumed" in app.flow.message.text and "cannot rewrite it" in caplog.text
    expected = [json.loads(DICE)] + ([json.loads(CHOOSE)] if tail == CHOOSE else [])
    assert app.flow.log.inputs == expected
    app.journal.append({"type": "dice", "player": 0, "values": [1, 1, 1, 1, 1]})
    assert Journal.load(path).inputs == expected + [{"type": "dice", "player": 0, "values": [1, 1, 1, 1, 1]}]


def test_a_journal_that_is_not_the_game_resumed_is_not_appended_to(tmp_path):
    """The fallback above only appends to the very game: a copy that cannot be written over a
    journal of another game is an error (the table then says the game cannot be saved)."""
    path = write(tmp_path / "current.jsonl", HEADER, DICE)
    (tmp_path / "current.jsonl.tmp").mkdir()
    with pytest.raises(OSError):
        Journal(path, TableLog("thirteen", ["Bob"], {}, []))
    assert path.read_bytes() == HEADER + b"\n" + DICE + b"\n"


def test_a_copy_that_could_not_be_finished_is_not_left_beside_the_journal(tmp_path):
    """The install review found an empty current.jsonl.tmp left behind by a failed copy."""
    path = write(tmp_path / "current.jsonl", HEADER, DICE)
    broken = TableLog("thirteen", ["Ann"], {}, [{"type": "choose", "option": {1, 2}}])
    with pytest.raises(TypeError):
        Journal(path, broken)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["current.jsonl"]


def finished_thirteen() -> list[bytes]:
    """A whole game of Thirteen for Ann (sixes thrown, the first box scored each time)."""
    from controller.rules import new_game

    state = new_game("thirteen", ["Ann"], {})
    lines = [HEADER]
    while not state.is_over:
        exp = state.expects()
        data = ({"type": "dice", "player": 0, "values": [6] * exp.count} if hasattr(exp, "count")
                else {"type": "choose", "player": 0, "option": exp.options[0].key})
        state = state.apply(data)
        lines.append(json.dumps(data).encode())
    return lines


def test_a_game_over_at_the_power_cut_comes_back_at_its_final_standings(tmp_path):
    """A power cut while the players read their final scores (the moment a table is most often
    switched off): the game was archived at start and the setup menu came back without a word,
    the scores gone from the screen. Now it comes back where it was, and OK puts it away."""
    from controller.table import OVER
    from controller.table_app import STANDINGS_SECONDS

    lines = finished_thirteen()
    write(tmp_path / "current.jsonl", *lines)
    app = table(tmp_path)
    assert app.flow is not None and app.flow.phase == OVER and app.flow.state.is_over
    moves = len(lines) - 1
    assert app.flow.view().message.text == (f"Thirteen for Ann was finished before the restart: its final "
                                            f"standings ({moves} moves replayed).")
    assert not (tmp_path / "games").exists()
    again = table(tmp_path)                                  # and another cut: still there
    assert again.flow.phase == OVER and len(again.flow.log.inputs) == len(lines) - 1
    clock = [0.0]
    again.clock = lambda: clock[0]
    again._note_over()
    clock[0] += STANDINGS_SECONDS + 1
    again.on_button(type("P", (), {"kind": "press", "name": "OK"})())
    [kept] = (tmp_path / "games").iterdir()
    assert again.flow is None and kept.name.endswith("-thirteen.jsonl") and Journal.load(kept).inputs == [
        json.loads(line) for line in lines[1:]]


def cut_journal(lines: list[bytes], at: int) -> bytes:
    """The journal's bytes as a power cut leaves them `at` bytes into writing its last line."""
    return b"\n".join(lines[:-1]) + b"\n" + lines[-1][:at]


def test_a_cut_at_every_byte_of_the_last_line_resumes_the_moves_before_it(tmp_path):
    """Wherever in the last line the power goes (its newline lost too), the game resumes with the
    moves before it (with it, once it is whole), says so, and the journal goes on from there."""
    lines = finished_thirteen()[:8]          # (a game under way: the last line a choice)
    moves = [json.loads(line) for line in lines[1:]]
    for at in range(len(lines[-1]) + 1):
        (tmp_path / "current.jsonl").write_bytes(cut_journal(lines, at))
        app = table(tmp_path)
        kept = moves if at == len(lines[-1]) else moves[:-1]
        assert app.flow is not None and app.flow.log.inputs == kept, at
        assert f"after a restart ({len(kept)} moves replayed)." in app.flow.view().message.text, at
        assert Journal.load(tmp_path / "current.jsonl").inputs == kept and not (tmp_path / "games").exists()



def hold(*values: int, player: int = 0) -> bytes:
    return json.dumps({"hold": list(values), "player": player}).encode()


def test_dice_held_when_the_power_went_are_held_again(tmp_path):
    """Holds were journaled only with the throw they were for: dice held when the power went
    came back released, and the screen said "Hold again any dice you had held". The journal
    now has a line at each HOLD press; the resumed table holds those dice again, says so, and
    keeps the line in the journal it rewrites, so that a second cut finds them too."""
    write(tmp_path / "current.jsonl", HEADER, DICE, hold(6), hold(6, 3), hold(3, 3))
    for cut in range(2):
        app = table(tmp_path)
        assert app.flow.log.inputs == [json.loads(DICE)], cut
        assert app.flow.view().message.text == ("Resumed Thirteen for Ann after a restart (1 move replayed). "
                                                "Dice still held: 3 3."), cut
        assert app.flow.tray_values == [3, 3, 6, 6, 6] and app.flow.holds == [True, True, False, False, False]
    press(app, "HOLD3")                                          # and the game goes on from there
    assert json.loads((tmp_path / "current.jsonl").read_bytes().splitlines()[-1]) == {"hold": [3, 3, 6],
                                                                                   "player": 0}


NOTHING_HELD = {   # journals that resume with no die held, and without a word of holds
    "old-journal": (HEADER, DICE),
    "released-again": (HEADER, DICE, hold(6), hold()),
    "a-move-after-it": (HEADER, DICE, hold(6, 6), json.dumps({"type": "reroll", "player": 0,
                                                             "keep": [6, 6]}).encode()),
    "a-take-back-after-it": (HEADER, DICE, hold(6, 6), CHOOSE, json.dumps({"undo": True}).encode()),
    "another-player": (HEADER, DICE, hold(6, player=1)),
    "dice-not-thrown": (HEADER, DICE, hold(5)),
    "not-a-hold-line": (HEADER, DICE, b'{"hold": "six", "player": 0}'),
    "torn": (HEADER, DICE, hold(6, 6)[:-3]),
}


@pytest.mark.parametrize("lines", NOTHING_HELD.values(), ids=NOTHING_HELD.keys())
def test_a_game_resumed_with_no_hold_that_fits_holds_nothing(tmp_path, lines):
    write(tmp_path / "current.jsonl", *lines)
    app = table(tmp_path)
    assert app.flow is not None and not any(app.flow.holds)
    assert "held" not in app.flow.view().message.text and not (tmp_path / "games").exists()
    again = table(tmp_path)         # (the journal rewritten keeps its lines: a second cut the same)
    assert not any(again.flow.holds) and "held" not in again.flow.view().message.text


def test_hold_lines_are_not_moves_to_a_replay(tmp_path):
    """`dicetable replay` and `play --resume` read the journal's moves: its hold lines are not
    among them, wherever they are."""
    from controller.journal import load_any

    path = write(tmp_path / "current.jsonl", HEADER, hold(), DICE, hold(6), hold(6, 6), CHOOSE, hold(6))
    assert load_any(path).inputs == [json.loads(DICE), json.loads(CHOOSE)]


def test_a_game_resumed_where_the_table_draws_counts_the_moves_replayed_and_says_what_it_drew(tmp_path):
    """A cut just before the table drew the imaginary cup: it draws it as the game comes back.
    The screen said "(12 moves replayed)" of 11, and hid the draw's own words under that."""
    from controller.rules import new_game
    from controller.rules.base import choose_input, dice_input

    game, players, options = "poknroll", ["Ann", "Bob", "Cy"], {"imaginary_dice_source": "engine_rng"}
    state = new_game(game, players, options)
    lines = [json.dumps({"format": FORMAT, "game": game, "players": players, "options": options}).encode()]
    for step in ([5, 5, 2], "CONTINUE", "CONTINUE", "ABANDON", [6, 6], [2], "CONTINUE", "CONTINUE", [1], [3, 1],
                 [4, 6]):
        exp = state.expects()
        data = dice_input(exp.player, step) if isinstance(step, list) else choose_input(exp.player, step)
        state = state.apply(data)
        lines.append(json.dumps(data).encode())
    write(tmp_path / "current.jsonl", *lines)
    app = table(tmp_path)
    text = app.flow.view().message.text
    assert len(app.flow.log.inputs) == 12 and Journal.load(tmp_path / "current.jsonl").inputs == app.flow.log.inputs
    assert "after a restart (11 moves replayed). The table drew the imaginary player's dice: " in text

def test_a_name_torn_inside_a_letter_of_two_bytes_is_a_torn_line_not_a_crash(tmp_path):
    """A journal written by hand or by another tool keeps "Zoë" as UTF-8, two bytes for the ë
    (the table writes \\u00eb): cut between them, the last line is torn (dropped), and a header
    cut there is not a game (kept aside, named on the setup menu), never an exception."""
    header = json.dumps({"format": FORMAT, "game": "thirteen", "players": ["Zoë"], "options": {}},
                        ensure_ascii=False).encode()
    by_name = json.dumps({"type": "choose", "player": 0, "option": "FULL_HOUSE", "by": "Zoë"},
                              ensure_ascii=False).encode()
    inside = by_name.index("ë".encode()) + 1
    (tmp_path / "current.jsonl").write_bytes(cut_journal([header, DICE, by_name], inside))
    app = table(tmp_path)
    assert app.flow is not None and app.flow.log.inputs == [json.loads(DICE)]
    assert list(app.flow.state.players) == ["Zoë"]
    (tmp_path / "current.jsonl").write_bytes(header[:header.index("ë".encode()) + 1])
    app = table(tmp_path)
    assert app.flow is None and app.menu.view().message.text.startswith("The last game could not be resumed")


def test_a_journal_renamed_into_place_or_archived_has_its_folder_synced(tmp_path, monkeypatch):
    """A journal is written beside and renamed over current.jsonl, and archived by a rename into
    games/: the files were fsynced, their folders never, so a power cut soon after could lose the
    rename itself (a game started whose journal is not found; an abandoned game back on the
    table) on a filesystem that does not order it before the next fsync."""
    import os
    import stat

    import controller.journal as journal_module

    synced: list[str] = []
    real = os.fsync

    def fsync(fd):
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)

    monkeypatch.setattr(journal_module.os, "fsync", fsync)
    write(tmp_path / "current.jsonl", *finished_thirteen()[:5])
    app = table(tmp_path)                                   # resumed: the journal written anew
    assert synced == [str(tmp_path)]
    synced.clear()
    app.finish_game()                                       # archived
    assert synced == [str(tmp_path / "games"), str(tmp_path)]


def card_turned_read_only(monkeypatch) -> None:
    """Every file opened for writing fails as on a card that turned read-only (EROFS), as
    failing SD cards do; reading goes on."""
    import errno
    import pathlib

    real_open = pathlib.Path.open

    def read_only(self, mode="r", *args, **kwargs):
        if any(c in mode for c in "wax+"):
            raise OSError(errno.EROFS, "Read-only file system", str(self))
        return real_open(self, mode, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "open", read_only)


def test_a_game_resumed_on_a_read_only_card_says_at_once_that_it_cannot_be_saved(tmp_path, monkeypatch):
    """A card that turned read-only (as failing SD cards do): the resume could not write its copy,
    found the journal to be this very game and went on "appending" to it, so the screen said
    only "Resumed" and, at the players' first move, that the game could no longer be saved."""
    path = write(tmp_path / "current.jsonl", HEADER, DICE)
    card_turned_read_only(monkeypatch)
    app = table(tmp_path)
    assert app.flow is not None and app.journal is None and app.flow.log.inputs == [json.loads(DICE)]
    assert app.flow.unsaved.text.startswith("This game can no longer be saved (Read-only file system): a power "
                                            "cut would lose the moves from now on.")
    assert path.read_bytes() == HEADER + b"\n" + DICE + b"\n"


def test_a_huge_illegal_input_in_a_journal_is_quoted_in_part_in_the_log(tmp_path, caplog):
    """The table resumes up to an input the rules refuse and logs why: the log line quoted the whole
    input (here a choice of 100,000 letters), one line of 100 KB in the system log."""
    huge = json.dumps({"type": "choose", "player": 0, "option": "A" * 100_000}).encode()
    write(tmp_path / "current.jsonl", HEADER, DICE, huge)
    app = table(tmp_path)
    assert app.flow is not None and app.flow.log.inputs == [json.loads(DICE)]
    [damaged] = [r.getMessage() for r in caplog.records if "is damaged" in r.getMessage()]
    assert "input 1 is illegal: 'AAAA" in damaged and len(damaged) < 400


def press_ok_at_the_standings(app) -> None:
    from controller.table_app import STANDINGS_SECONDS

    clock = [0.0]
    app.clock = lambda: clock[0]
    app._note_over()
    clock[0] += STANDINGS_SECONDS + 1
    app.on_button(type("P", (), {"kind": "press", "name": "OK"})())


def test_a_finished_game_that_could_not_be_put_away_comes_back_as_finished_not_resumed(tmp_path, monkeypatch):
    """Found in review, the "ghost game": on a card that cannot be written the journal of a game
    that ended could not be archived, so once the card was mended the next start said "Resumed
    Thirteen for Ann after a restart" of a game the players had finished. It comes back at its
    final standings, saying (for as long as they are shown) that it was finished before the
    restart, and OK puts it away, as a game over at a power cut."""
    import errno

    import controller.table_app
    from controller.table import OVER

    def read_only(*args):
        raise OSError(errno.EROFS, "Read-only file system")

    lines = finished_thirteen()
    write(tmp_path / "current.jsonl", *lines)
    app = table(tmp_path)
    monkeypatch.setattr(controller.table_app.os, "replace", read_only)     # the card turns read-only
    press_ok_at_the_standings(app)
    assert app.flow is None and (tmp_path / "current.jsonl").exists()       # not put away, and said so
    assert app.menu.view().message.text == ("The game just played could not be put away (Read-only file system): "
                                            "it will come back, as finished, at the next start. Please tell the staff.")
    monkeypatch.undo()                                                       # the card mended
    ghost = table(tmp_path)
    assert ghost.flow is not None and ghost.flow.phase == OVER
    view = ghost.flow.view()
    assert view.mode == "final" and "Resumed" not in view.message.text
    assert "was finished before the restart: its final standings" in view.message.text
    ghost.flow.message = None                                                # (the message fades)
    assert ghost.flow.view().prompt.hint.startswith("Finished before the restart · OK: a new game")
    press_ok_at_the_standings(ghost)
    [kept] = (tmp_path / "games").iterdir()
    assert ghost.flow is None and kept.name.endswith("-thirteen.jsonl") and not (tmp_path / "current.jsonl").exists()
    assert table(tmp_path).flow is None                                      # and it stays away


def press(app, name: str) -> None:
    app.on_button(type("P", (), {"kind": "press", "name": name})())


REROLL = json.dumps({"type": "reroll", "player": 0, "keep": [6, 6, 6]}).encode()
HELD_33 = json.dumps({"hold": [3, 3], "player": 0}).encode()
TAKE_BACKS = {   # the journal's last lines -> what BACK twice says after the restart, the holds then
    "a-box-scored": ((CHOOSE,), "Taken back: Ann's choice (Full house: +10 early, 40 points). Ann: choose again.", [False] * 5),
    "dice-kept": ((REROLL,), "Taken back: Ann's choice (Throw 2 again, keeping 6 6 6). Ann: choose again.",
                  [False, False, True, True, True]),      # (the tray in order: 3 3 6 6 6)
    # (dice held, then a box scored instead: they come back held, as at the table)
    "a-box-scored-with-dice-held": ((HELD_33, CHOOSE), "Taken back: Ann's choice (Full house: +10 early, 40 points). "
                                    "Ann: choose again.", [True, True, False, False, False]),
}


@pytest.mark.parametrize("last, said, holds", TAKE_BACKS.values(), ids=TAKE_BACKS.keys())
def test_the_choice_made_just_before_a_power_cut_can_be_taken_back_after_it(tmp_path, last, said, holds):
    """Found in review: BACK twice takes back the last choice, but the table kept it only in
    memory, so after a power cut a slip made just before it stood for good. The journal holds
    the choice and the game before it: the resumed table offers it back, as it did before."""
    write(tmp_path / "current.jsonl", HEADER, DICE, *last)
    app = table(tmp_path)
    assert "BACK twice: undo Ann's choice" in app.flow.view().prompt.hint
    press(app, "BACK")
    press(app, "BACK")
    assert app.flow.message.text == said
    assert app.flow.log.inputs == [json.loads(DICE)] and app.flow.holds == holds
    assert Journal.load(tmp_path / "current.jsonl").inputs == [json.loads(DICE)]       # journaled too
    assert app.flow.take_back_offered is None         # (one take-back, as at any time)
    assert table(tmp_path).flow.holds == holds        # (and so are the holds given back)


NOT_OFFERED = {   # journals after which BACK twice has nothing to take back
    "a-throw-last": (HEADER, DICE),
    "taken-back-already": (HEADER, DICE, CHOOSE, json.dumps({"undo": True}).encode()),
    "the-game-over": tuple(finished_thirteen()),
}


def objective_cards_to(inputs: int) -> tuple[bytes, ...]:
    """A journal of the objective-cards fixture's first `inputs` inputs (inputs 1 and 2 are the
    players' secret cards)."""
    data = json.loads((Path(__file__).parent / "fixtures" / "logs" / "objective-cards.json").read_text())
    header = {k: data[k] for k in ("format", "game", "players", "options")}
    return (json.dumps(header).encode(), *(json.dumps(x).encode() for x in data["inputs"][:inputs]))


NOT_OFFERED["a-secret-card"] = objective_cards_to(3)
NOT_OFFERED["a-stop-that-turned-the-cards-over"] = objective_cards_to(6)


@pytest.mark.parametrize("lines", NOT_OFFERED.values(), ids=NOT_OFFERED.keys())
def test_after_a_restart_nothing_else_is_offered_back(tmp_path, lines):
    write(tmp_path / "current.jsonl", *lines)
    app = table(tmp_path)
    assert app.flow.take_back_offered is None


def test_a_choice_offered_back_after_a_restart_is_the_one_kept_before_it(tmp_path):
    """The rebuilt take-back (TableFlow.offer_take_back) against the one the table kept in memory
    when the choice was made: the same line, tray, holds and cursor (objective cards: after a
    reroll; its STOP, which turns the cards over, is never offered back)."""
    from controller.table import TableFlow
    from controller.tablelog import replay

    for inputs in (4,):
        lines = objective_cards_to(inputs)
        write(tmp_path / "current.jsonl", *lines)
        before = Journal.load(tmp_path / "current.jsonl")
        made = before.inputs.pop()
        live = TableFlow(replay(before), before)
        if made["type"] == "reroll":
            keep = list(made["keep"])
            for i, v in enumerate(live.tray_values):
                if v in keep:
                    keep.remove(v)
                    live.on_button(type("P", (), {"kind": "press", "name": f"HOLD{i + 1}"})())
        wanted = ("reroll", None) if made["type"] == "reroll" else ("option", made.get("option"))
        live.cursor = next(i for i, e in enumerate(live.menu()) if (e.action, e.key or None) == wanted)
        live.on_button(type("P", (), {"kind": "press", "name": "OK"})())
        assert live.log.inputs[-1] == made
        resumed = table(tmp_path).flow
        kept, offered = live.take_back_offered, resumed.take_back_offered
        assert offered is not None and kept is not None
        for field in ("inputs", "player", "label", "tray_values", "holds", "cursor"):
            assert getattr(offered, field) == getattr(kept, field), (inputs, field)
        assert offered.state.sheet().to_json() == kept.state.sheet().to_json()


def test_a_finished_game_found_on_a_read_only_card_says_it_cannot_be_put_away(tmp_path, monkeypatch):
    """The ghost game while the card is still read-only: the standings said "This game can no
    longer be saved: a power cut would lose the moves from now on", of a game with no move left."""
    write(tmp_path / "current.jsonl", *finished_thirteen())
    card_turned_read_only(monkeypatch)
    app = table(tmp_path)
    assert app.flow.state.is_over and app.journal is None
    assert app.flow.unsaved.text == ("The journal cannot be written (Read-only file system): this finished game "
                                     "cannot be put away, and new games cannot be saved. Please tell the staff.")


def test_a_take_back_that_cannot_be_rebuilt_does_not_keep_the_game_from_resuming(tmp_path, monkeypatch, caplog):
    from controller.table import TableFlow

    def broken(self, inputs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(TableFlow, "offer_take_back", broken)
    write(tmp_path / "current.jsonl", HEADER, DICE, CHOOSE)
    app = table(tmp_path)
    assert app.flow is not None and app.flow.log.inputs == [json.loads(DICE), json.loads(CHOOSE)]
    assert app.flow.take_back_offered is None and "cannot offer the last choice" in caplog.text


@pytest.mark.parametrize("game", ["classic", "objective-cards", "thirteen"])
def test_every_open_choice_of_a_game_can_be_taken_back_after_a_restart(game):
    """Each prefix of a whole game's log that ends in a choice made in the open (a reroll, a box):
    the resumed flow offers it back, and BACK twice brings back the game before it, waiting for
    the same decision. Prefixes ending in dice, a secret choice or a choice that revealed what was
    secret (objective cards' STOP) offer nothing."""
    from controller.rules import Decide
    from controller.table import DECIDE, TableFlow
    from controller.tablelog import replay

    full = TableLog.load(Path(__file__).parent / "fixtures" / "logs" / f"{game}.json")
    offered = 0
    for k in range(1, len(full.inputs) + 1):
        log = TableLog(full.game, full.players, full.options, list(full.inputs[:k]))
        before = replay(TableLog(full.game, full.players, full.options, list(full.inputs[:k - 1])))
        flow = TableFlow(replay(log), log, clock=lambda: 0.0)
        flow.offer_take_back(k)
        exp = before.expects()
        made = full.inputs[k - 1]
        open_choice = made["type"] != "dice" and isinstance(exp, Decide) and not exp.secret and not exp.reveals(made)
        assert (flow.take_back_offered is not None) == open_choice, k
        if open_choice:
            offered += 1
            flow.on_button(type("P", (), {"kind": "press", "name": "BACK"})())
            flow.on_button(type("P", (), {"kind": "press", "name": "BACK"})())
            assert flow.log.inputs == full.inputs[:k - 1] and flow.phase == DECIDE, k
            assert flow.state.sheet().to_json() == before.sheet().to_json(), k
    assert offered >= 8


def test_a_classic_game_resumed_at_a_decision_names_its_dice_as_cards(tmp_path):
    """The menu and the holds named Classic's dice by their pips after a resume (*Die 1 (5)*,
    *Dice still held: 5*) where the players had seen K on the screen before the cut: the faces
    were known only from a throw asked for by the table since it started."""
    header = json.dumps({"format": FORMAT, "game": "classic", "players": ["Ann", "Zoë"], "options": {}}).encode()
    dice = json.dumps({"type": "dice", "player": 0, "values": [5, 5, 1, 2, 3]}).encode()
    write(tmp_path / "current.jsonl", header, dice, hold(5, 5))
    app = table(tmp_path)
    assert app.flow.view().message.text.endswith("(1 move replayed). Dice still held: K K.")
    labels = [e.label for e in app.flow.menu() if e.action == "die"]
    assert [x[6:] for x in labels] == ["(K): release", "(K): release", "(9): hold", "(10): hold", "(J): hold"]


def hold_ok(app) -> None:
    app.on_button(type("P", (), {"kind": "hold", "name": "OK"})())


def test_dice_read_just_before_a_power_cut_can_be_corrected_after_it(tmp_path):
    """A long OK corrects the dice just accepted, until anything else is applied; the table kept
    them only in memory, so after a cut a misread stood for good (BACK twice for a choice was
    rebuilt from the journal, this was not). Now it is: the resumed table offers the dice back,
    drawn in a row where the camera has not found them, and the journal says what happened."""
    write(tmp_path / "current.jsonl", HEADER, DICE)
    app = table(tmp_path)
    assert "hold OK: correct the dice" in app.flow.view().prompt.hint
    hold_ok(app)
    assert app.flow.phase == "correct" and sorted(app.flow.pending) == [3, 3, 6, 6, 6]
    assert len(app.flow.pending_boxes) == 5 and app.flow.view().tray.dice        # (drawn, numbered)
    assert app.flow.log.inputs == []
    app.flow.pending[:] = [6, 6, 6, 3, 2]                                          # the die misread
    hold_ok(app)
    corrected = {"type": "dice", "player": 0, "values": [6, 6, 6, 3, 2]}
    assert app.flow.log.inputs == [corrected] and app.flow.phase == "decide"
    assert [json.loads(x) for x in (tmp_path / "current.jsonl").read_bytes().splitlines()[1:]] == [
        json.loads(DICE), {"undo": True}, corrected]
    assert table(tmp_path).flow.correction_offered is not None        # (again after another cut)


def test_a_correction_offered_after_a_restart_left_alone_keeps_the_dice_as_read(tmp_path):
    """(A choice after the dice taken back before the cut: the dice are the last move again, and
    a long OK at the table corrected them then.)"""
    write(tmp_path / "current.jsonl", HEADER, DICE, CHOOSE, json.dumps({"undo": True}).encode())
    app = table(tmp_path)
    hold_ok(app)
    press(app, "BACK")
    assert app.flow.log.inputs == [json.loads(DICE)] and app.flow.phase == "decide"
    assert app.flow.message.text == "Correction cancelled: the dice stay as they were read."


NO_CORRECTION = {   # journals after which a long OK has no dice to correct
    "a-choice-last": (HEADER, DICE, CHOOSE),
    "corrected-already": (HEADER, DICE, json.dumps({"undo": True}).encode()),
    "the-game-over": tuple(finished_thirteen()),
}


@pytest.mark.parametrize("lines", NO_CORRECTION.values(), ids=NO_CORRECTION.keys())
def test_after_a_restart_no_other_dice_are_offered_for_correction(tmp_path, lines):
    write(tmp_path / "current.jsonl", *lines)
    assert table(tmp_path).flow.correction_offered is None


def test_dice_the_table_drew_are_not_offered_for_correction_after_a_restart():
    """Every prefix of a Pok'n Roll game whose imaginary cup the table draws: dice thrown at the
    table are offered back, the table's own draws never (a second chance at the cup)."""
    from controller.rules import Throw
    from controller.table import TableFlow
    from controller.tablelog import replay

    full = TableLog.load(Path(__file__).parent / "fixtures" / "logs" / "poknroll.json")
    full.options["imaginary_dice_source"] = "engine_rng"
    offered = drawn = 0
    for k in range(1, len(full.inputs) + 1):
        log = TableLog(full.game, full.players, full.options, list(full.inputs[:k]))
        exp = replay(TableLog(full.game, full.players, full.options, list(full.inputs[:k - 1]))).expects()
        try:
            state = replay(log)
        except Exception:                   # (the fixture's cup thrown where the table draws it)
            break
        flow = TableFlow(state, log, clock=lambda: 0.0)
        if len(flow.log.inputs) != k:        # (the table drew at once: that ends the offer)
            continue
        flow.offer_correction(k)
        is_throw = full.inputs[k - 1]["type"] == "dice" and isinstance(exp, Throw)
        assert (flow.correction_offered is not None) == (is_throw and not exp.drawn), k
        offered += flow.correction_offered is not None
        drawn += is_throw and exp.drawn
    assert offered > 10 and drawn >= 1


def test_dice_offered_for_correction_after_a_restart_are_marked_where_the_camera_found_them(tmp_path):
    from test_table_flow import reading

    write(tmp_path / "current.jsonl", HEADER, DICE)
    app = table(tmp_path)
    found = reading([3, 6, 6, 3, 6])
    app.flow.on_found_tray(found)                       # (the dice lying in the tray through the cut)
    hold_ok(app)
    assert app.flow.pending == [3, 6, 6, 3, 6] and app.flow.pending_boxes == [d.box for d in found.dice]


class PowerCut(BaseException):
    """The power going: nothing after it runs."""


def test_a_power_cut_as_a_damaged_journal_is_being_resumed_keeps_the_game(tmp_path, monkeypatch):
    """The damaged journal was moved to games/ before the fresh one was written: a cut between
    the two left no journal, and the table came back at the setup menu without a word. It is
    now copied there, and the fresh journal renamed over it."""
    import controller.table_app as table_app

    write(tmp_path / "current.jsonl", HEADER, DICE, CHOOSE, b"garbage", DICE)
    original = (tmp_path / "current.jsonl").read_bytes()

    def cut(*args, **kwargs):
        raise PowerCut

    with monkeypatch.context() as patch:
        patch.setattr(table_app, "Journal", cut)
        with pytest.raises(PowerCut):
            table(tmp_path)
    app = table(tmp_path)
    assert app.flow is not None and app.flow.log.inputs == [json.loads(DICE), json.loads(CHOOSE)]
    assert "the rest of the journal was damaged" in app.flow.view().message.text
    kept = sorted((tmp_path / "games").iterdir())
    assert len(kept) == 2 and all(k.read_bytes() == original for k in kept)    # (kept at each start)
    shown = app.flow.view().message
    assert any(str(k) in " ".join(shown.pages or (shown.text,)) for k in kept)   # (the path: a page of its own)
    assert Journal.load(tmp_path / "current.jsonl").inputs == app.flow.log.inputs
