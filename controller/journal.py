"""The journal: every applied input appended to a file the moment it is applied.

JSON lines, one record per line, the first line the game header. Appending one line and
fsync-ing it is all a power cut can interrupt, and a torn last line is simply dropped on
resume; that is why this is not the single JSON table log rewritten each time, nor SQLite
(which would add a dependency and a schema for what is an append-only list).
"""
from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, NamedTuple

from .plain_file import NO_FSYNC, NotAFile, kind_of, read_plain, sync_folder, write_whole
from .journal_compact import HOLDS_BEFORE_COMPACTING, without_superseded_holds, without_taken_back
from .rules import GameState
from .tablelog import FORMAT, LogError, TableLog, replay

log = logging.getLogger(__name__)

# A line that takes back the input before it (a choice taken back at the table, or dice already
# accepted reopened to correct them: TableFlow._undo_last_input). Appended, not rewritten: the
# journal stays append-only, so a power cut can still only tear its last line, and it keeps what
# was chosen and taken back.
TAKE_BACK = {"undo": True}
# A line that says which dice the player deciding has marked held (HOLD presses, or the menu's die
# lines), `{"hold": [6, 6], "player": 0}`: the values held, all of them, after each change. Holds
# are not a rules input (the reroll that follows carries the dice kept), so before these lines a
# power cut between a HOLD press and the throw lost them, and players who did not look threw their
# kept dice again. Only the hold line after the last input (or take-back) counts: a new input or a
# take-back starts a new decision with nothing held; a replay skips them all.
HOLD = "hold"
# The line a resume writes after the inputs of a damaged journal, `{"damaged": "games/...-damaged.jsonl"}`
# (the journal kept aside, "" if it could not be): the fresh journal has no damage left in it, and a
# second cut offered back with BACK twice and a long OK the moves after which the journal lost
# moves, and said nothing of the damage. While no input follows it, a resume does as the first did:
# it offers nothing back and names the damage. A replay skips it.
DAMAGED = "damaged"
# The journal's format, in its header. Version 2: lines that are not inputs may follow the header
# (TAKE_BACK, HOLD, DAMAGED). A build of version 1 checks the format and takes every other line
# for an input (or a take-back): a hold line was to it an input the rules refuse, damage, and a
# café that put such a build back mid-game had the game resumed at the first HOLD pressed, the
# journal written over with the moves before it and "damaged" on screen. To it a journal of
# version 2 is one of another version, kept aside whole. Table logs (inputs alone) stay at 1;
# this version reads journals of both (an update mid-game).
JOURNAL_FORMAT = "dicetable-log/2"
JOURNAL_FORMATS = (FORMAT, JOURNAL_FORMAT)


class Journal:
    def __init__(self, path: str | Path, table_log: TableLog, fsync: bool = True,
                 held: Held | None = None, lines: list[dict[str, Any]] | None = None,
                 stamp: Callable[[], int] | None = None):
        """`held`: the holds of the decision the game is at (a resume's), kept in the rewritten
        journal after its inputs, so that a second cut still finds them. `lines`: the lines of a
        whole journal resumed (Recovered.lines), written as they were in place of the inputs and
        `held`: a journal of inputs alone lost its take-backs and the holds of its last choice,
        and a second cut offered back a choice already taken back, or one without its holds.
        `stamp`: the time (ns) the journal's file gets at each write, in place of the kernel's
        (the table's: 0 where its clock cannot be trusted; None: the kernel's). `lines` are
        written without their superseded hold lines and take-backs (journal_compact)."""
        self.path = Path(path)
        self.fsync = fsync
        self.stamp = stamp
        #: the journal's lines as written (its header first), to write it again whole should it be
        #: removed or replaced under the table (see `append`); None: not known (appended to as found)
        self._lines: list[dict[str, Any]] | None = None
        #: hold lines appended since the journal was last written whole (see `hold`)
        self.holds_appended = 0
        if lines is not None:
            lines = superseded_dropped(lines)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._rewrite(table_log, held, lines)
        except OSError as exc:
            if not self._holds(table_log):
                raise
            # a full card: the copy could not be written, but the journal on the card is this
            # very game, so it goes on being appended to rather than the game going unsaved
            log.warning("journal %s: cannot rewrite it (%s); the game goes on appended to it as it was",
                        self.path, exc.strerror or exc)

    def _rewrite(self, table_log: TableLog, held: Held | None = None,
                 lines: list[dict[str, Any]] | None = None) -> None:
        """Write the journal of `table_log` beside and rename it over: a resume rewrites the
        journal of the game it resumes, and a power cut in the middle must leave that journal
        whole, not half of it. A copy that could not be finished is removed."""
        header = {"format": JOURNAL_FORMAT, "game": table_log.game, "players": table_log.players,
                  "options": table_log.options}
        self._write_whole([header, *(_body(table_log, held) if lines is None else lines)])

    def _write_whole(self, lines: list[dict[str, Any]]) -> None:
        """The journal's `lines` (its header first) written beside it (current.jsonl.tmp) and
        renamed over it (until the rename, the journal on the card is the one `_lines` knew).
        Synced by the journal's own `_sync` (the file's time stamped first); the folder is synced
        here, not by write_whole, so that `_lines` follows the file as soon as it is renamed."""
        write_whole(self.path, "".join(json.dumps(data) + "\n" for data in lines), sync=self._sync, folder="no")
        self._lines = list(lines)
        if self.fsync:
            sync_folder(self.path.parent)

    def _holds(self, table_log: TableLog) -> bool:
        """Is the journal on the card already `table_log`'s game, undamaged, so that appending to
        it keeps the game? A torn last line (the power cut being resumed from) is cut off first
        (truncating needs no free space): the next line must not be glued to it."""
        try:
            found, damage = Journal.read(self.path)
        except LogError:
            return False
        same = (found.game, found.players, found.options, found.inputs) == (
            table_log.game, table_log.players, table_log.options, table_log.inputs)
        if damage is not None or not same:
            return False
        try:
            data = self.path.read_bytes()
            end = data.rfind(b"\n") + 1
            if end < len(data):
                try:
                    _record(data[end:])               # whole, only its newline lost: end it
                    with self.path.open("ab") as fh:
                        fh.write(b"\n")
                except ValueError:                    # torn: cut it off
                    os.truncate(self.path, end)
            # a read-only card cannot take the next move either: say so now, not after the
            # players' first move of the resumed game ("can no longer be saved")
            with self.path.open("ab"):
                pass
        except OSError:
            return False
        return True

    def append(self, data: dict[str, Any]) -> None:
        """`data` appended as a line, on the card before the move counts. A journal removed while
        the game was played (a staff "clean-up", a sync tool) was made again by the append as a
        file without its header: the game's moves lost at the next start ("damaged"). A FIFO put
        in its place hung the table at the next move. Either way it is now written again whole,
        from the lines this journal wrote, with `data` (said in the log): the game is kept."""
        lies = self._replaced()
        if lies is not None and self._lines is not None:
            log.error("journal %s was %s while the game was played: written again whole (%d lines)",
                      self.path, lies, len(self._lines) + 1)
            self._write_whole([*self._lines, data])
            return
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(data) + "\n")
            self._sync(fh)
        if self._lines is not None:
            self._lines.append(data)

    def _replaced(self) -> str | None:
        """How the journal's name no longer holds the journal ("removed", "replaced by a FIFO
        (named pipe)"); None when it does (a plain file), or it cannot be told."""
        try:
            mode = os.stat(self.path).st_mode
        except FileNotFoundError:
            return "removed"
        except OSError:
            return None
        kind = kind_of(mode)
        return None if kind is None else f"replaced by {kind}"

    def take_back(self) -> None:
        """The last input was taken back: journal that, so that a resume does not replay it.
        Counted with the hold lines: BACK twice over and over is compacted as HOLD is."""
        self.append(TAKE_BACK)
        self._appended_superseded()

    def hold(self, player: int, values: list[int]) -> None:
        """The dice `player` has held now (all of them): a resume holds them again. Every
        HOLDS_BEFORE_COMPACTING of them the journal is written again without the superseded ones:
        appended alone, HOLD pressed 100,000 times made a journal of 2.65 MB."""
        self.append(hold_line(player, values))
        self._appended_superseded()

    def _appended_superseded(self) -> None:
        """A line a later one may supersede (a hold, a take-back) was appended: every
        HOLDS_BEFORE_COMPACTING of them the journal is written again without the superseded ones."""
        self.holds_appended += 1
        if self.holds_appended >= HOLDS_BEFORE_COMPACTING:
            self.compact()

    def compact(self) -> bool:
        """Write the journal again (beside it, renamed over it, as a resume does) without its
        superseded hold lines and take-backs; what a resume reads from it stays the same. The hold line is already
        safe when this runs, so a journal that cannot be written again (a full card) or read back
        whole is left as it is, appended to, and tried again HOLDS_BEFORE_COMPACTING holds later:
        said in the log, not on screen, as the game is still saved. False when it was left."""
        self.holds_appended = 0
        try:
            found = Journal.read_ending(self.path)
            if found.damage is not None:
                raise LogError(found.damage)
            self._rewrite(found.log, lines=superseded_dropped(found.lines))
        except (OSError, LogError) as exc:
            log.warning("journal %s: cannot drop its superseded hold lines (%s); it is appended to as it is",
                        self.path, getattr(exc, "strerror", None) or exc)
            return False
        return True

    def _sync(self, fh) -> None:
        """Flush and fsync: the line is on the card before the move counts. A card that fails
        (EIO), or is full where the filesystem finds it out only at fsync (ENOSPC, EDQUOT), is a
        write that failed: the game then goes on unsaved and says so. (Only a filesystem that
        has no fsync at all, EINVAL, is let go.) Every error was let go: a failing card's moves
        were taken as saved, the screen said nothing, and a power cut lost them."""
        fh.flush()
        self._stamp(fh)
        if self.fsync:
            try:
                os.fsync(fh.fileno())
            except OSError as exc:
                if exc.errno not in NO_FSYNC:
                    raise
                log.warning("journal fsync not supported here: %s", exc)

    def _stamp(self, fh) -> None:
        """Give the file the time `stamp` says, before it is synced (so that the line and its time
        reach the card together). A time that cannot be set leaves the kernel's: the game goes on."""
        if self.stamp is None:
            return
        try:
            written_at = self.stamp()
            os.utime(fh.fileno(), ns=(written_at, written_at))
        except OSError as exc:
            log.debug("journal %s: cannot set its time: %s", self.path, exc)

    @staticmethod
    def load(path: str | Path) -> TableLog:
        """Read a journal back as a table log; a torn last line (power cut) is dropped. Any other
        line that is not a journal line is a LogError naming it (`index`: where its input was)."""
        table_log, damage = Journal.read(path)
        if damage is not None:
            raise LogError(f"journal {path}: {damage}", len(table_log.inputs))
        return table_log

    @staticmethod
    def read(path: str | Path) -> tuple[TableLog, str | None]:
        """The journal's game up to its first damaged line, and what that damage is (None: none)."""
        ending = Journal.read_ending(path)
        return ending.log, ending.damage

    @staticmethod
    def read_ending(path: str | Path) -> Ending:
        """As `read`, with whether the last input line read took back an input (see `recover`),
        and the holds of the decision the game is at (the last hold line after that line).

        Only a journal without a usable header is a LogError: the moves before a damaged line
        still replay, and a resume keeps them. Lines are decoded one by one (bytes split at
        newlines), so a stray non-UTF-8 byte is the damage of one line, not of the file.
        """
        try:
            lines = read_plain(path).split(b"\n")    # (a FIFO hung the start, a link to /dev/zero never ended)
        except NotAFile as exc:
            raise NotAJournal(f"journal {path} is {exc.kind}, not a file",
                              f"its journal is {exc.kind}, not a file") from None
        except OSError as exc:
            why = exc.strerror or str(exc)
            raise NotAJournal(f"cannot read journal {path}: {why}", f"its journal cannot be read ({why})") from None
        if lines[-1] == b"":
            lines.pop()                       # the newline that ends the last line
        if not lines:
            raise LogError(f"journal {path} is empty")
        try:
            header = _record(lines[0].removeprefix(BOM))   # (an editor may have added a BOM)
        except ValueError as exc:
            raise LogError(f"journal {path} has no header line (line 1 {exc})") from None
        inputs: list[Any] = []
        kept: list[dict[str, Any]] = []       # every line read, in order
        damage = None
        taken_back = False
        damaged: tuple[int, str] | None = None    # the inputs a damage line followed, and its words
        held: Held | None = None
        held_at: list[Held | None] = []       # the holds at the decision each input answered
        undone: dict[str, Any] | None = None  # the input the last line (a take-back) took back
        for number, line in enumerate(lines[1:], start=2):
            try:
                data = _record(line)
            except ValueError as exc:
                if isinstance(exc, _Torn) and number == len(lines):
                    log.warning("journal %s: dropped a torn last line", path)
                else:
                    damage = f"line {number} {exc}"
                break
            kept.append(data)
            if is_hold(data):
                held = _held(data, number, path)
                continue
            if is_damaged(data):
                damaged, held, taken_back, undone = (len(inputs), str(data[DAMAGED])), None, False, None
                continue
            if data == TAKE_BACK:
                if not inputs:
                    damage = f"line {number} takes back an input that is not there"
                    break
                undone = inputs.pop()
                held_at.pop()
            else:
                inputs.append(data)
                held_at.append(held)
            held = None                       # (a move or a take-back: a new decision, nothing held)
            taken_back = data == TAKE_BACK
            if not taken_back:
                undone = None
        header["inputs"] = inputs
        try:
            return Ending(TableLog.from_json(header, JOURNAL_FORMATS), damage, taken_back, held,
                          held_at[-1] if held_at else None, kept,
                          damaged[1] if damaged and len(inputs) <= damaged[0] else None, undone)
        except LogError as exc:
            raise type(exc)(f"journal {path}: {exc}") from None     # (OtherVersion stays one)


class NotAJournal(LogError):
    """The journal cannot be read at all: a folder, a FIFO or a device lies under its name, or the
    system refuses to read it (no permission). Not damage of the card's, which the staff were
    told it was: `words` say what it is, for the screen."""

    def __init__(self, message: str, words: str) -> None:
        super().__init__(message)
        self.words = words


#: a hold line's content: the player deciding, and the values of the dice they hold
Held = tuple[int, list[int]]


class Ending(NamedTuple):
    """A journal read (Journal.read_ending)."""

    log: TableLog
    damage: str | None
    taken_back: bool
    held: Held | None
    held_before: Held | None    # the holds when the last input was made (a choice taken back gets them)
    lines: list[dict[str, Any]]  # the lines after the header up to any damage, take-backs and holds too
    after_damage: str | None     # a damage line with no input after it: the journal it names kept aside
    undone: dict[str, Any] | None = None    # the input the last line took back (`taken_back`), else None


def _body(table_log: TableLog, held: Held | None) -> list[dict[str, Any]]:
    """A fresh journal's lines after its header: the inputs, then the holds of the decision."""
    return list(table_log.inputs) + ([hold_line(*held)] if held is not None else [])


def damaged_line(kept: str | Path | None) -> dict[str, Any]:
    """The line after the inputs of a journal rewritten after damage (`kept`: where it went)."""
    return {DAMAGED: str(kept or "")}


def is_damaged(data: dict[str, Any]) -> bool:
    """A damage line (see DAMAGED), not a rules input."""
    return DAMAGED in data and "type" not in data


def hold_line(player: int, values: list[int]) -> dict[str, Any]:
    return {HOLD: list(values), "player": player}


def is_hold(data: dict[str, Any]) -> bool:
    """A hold line, not a rules input (which always has a `type`)."""
    return HOLD in data and "type" not in data


def _held(data: dict[str, Any], number: int, path: str | Path) -> Held | None:
    """A hold line's player and values; None (with a warning) for one that does not say them.
    Not damage: holds are not moves, and at worst the player holds the dice again."""
    player, values = data.get("player"), data.get(HOLD)
    if (isinstance(player, int) and not isinstance(player, bool) and isinstance(values, list)
            and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in values)):
        return player, list(values)
    log.warning("journal %s: line %d is not a hold line the table can use; no dice held", path, number)
    return None


def superseded_dropped(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A journal's lines without those a resume does not read (journal_compact): inputs taken
    back with their take-backs, then hold lines another hold line follows."""
    return without_superseded_holds(without_taken_back(lines, is_hold, is_input, is_take_back), is_hold)


def is_input(data: dict[str, Any]) -> bool:
    """A rules input (it has a `type`)."""
    return "type" in data


def is_take_back(data: dict[str, Any]) -> bool:
    return data == TAKE_BACK


def is_journal(path: str | Path) -> bool:
    """A table's journal (JSON lines) is named .jsonl; a table log (one JSON object) anything else."""
    return str(path).endswith(".jsonl")


def load_any(path: str | Path) -> TableLog:
    """A table log or a table's journal, told by its name: `dicetable replay` and `dicetable play
    --resume` take both (play took only logs, and said of a journal "not valid JSON: Extra data at
    line 2")."""
    return Journal.load(path) if is_journal(path) else TableLog.load(path)


@dataclass
class Recovered:
    """A journal's game, replayed as far as it goes."""

    log: TableLog                # the inputs that replay; the journal's others are lost
    state: GameState
    damage: str | None = None    # why the rest was not replayed (None: the whole journal was)
    #: the journal's last line took back an input: the input now last was not the last made, and
    #: the table does not offer it back (BACK twice takes back one choice, not one more after it)
    taken_back: bool = False
    #: the dice held at the decision the game is at when the power went (None: none journaled)
    held: Held | None = None
    #: the dice held when the last input was made (BACK twice gives them back with the choice)
    held_before: Held | None = None
    #: the journal's lines after its header, when it is whole (None: damaged), for the journal
    #: rewritten on resume to keep (Journal's `lines`): what a resume reads from them, a second one must
    lines: list[dict[str, Any]] | None = None
    #: the game was resumed after damage before, with no input since: where that journal was kept
    #: ("" if nowhere), for a resume to do as that one did (offer nothing back, name the damage)
    after_damage: str | None = None
    #: the input the journal's last line took back (None: it took back none): dice taken back
    #: there were being corrected with a long OK when the power went (TableFlow.resume_correction)
    undone: dict[str, Any] | None = None


def recover(path: str | Path) -> Recovered:
    """The game in a journal up to its first damaged line or the first input the rules refuse:
    one bad line must cost the moves from there on, not the whole game. LogError when there is
    no game to resume (no usable header, an unknown game or options)."""
    ending = Journal.read_ending(path)
    table_log, damage = ending.log, ending.damage
    try:
        # (holds only where the journal is whole: after damage the players play the moves again)
        if damage:
            return Recovered(table_log, replay(table_log), damage)
        return Recovered(table_log, replay(table_log), None, ending.taken_back, ending.held,
                         ending.held_before, ending.lines, ending.after_damage, ending.undone)
    except LogError as exc:
        if exc.index is None:
            raise
        del table_log.inputs[exc.index:]
        return Recovered(table_log, replay(table_log), str(exc))


BOM = "\ufeff".encode()


class _Torn(ValueError):
    """A line that is not JSON text at all: as the last line, what a power cut leaves."""


def _record(line: bytes) -> dict[str, Any]:
    """One journal line as its JSON object; ValueError saying what else it is."""
    try:
        data = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        raise _Torn("is not UTF-8 text") from None
    except (ValueError, RecursionError):      # not JSON; a number too long; nested too deep
        raise _Torn("is not JSON") from None
    if not isinstance(data, dict):
        shown = json.dumps(data)
        raise ValueError(f"is {shown if len(shown) <= 20 else shown[:17] + '...'}, not a JSON object")
    return data
