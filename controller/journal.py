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
from pathlib import Path
from typing import Any

from .tablelog import FORMAT, LogError, TableLog

log = logging.getLogger(__name__)

# A line that takes back the input before it (a choice taken back at the table, or dice already
# accepted reopened to correct them: TableFlow._undo_last_input). Appended, not rewritten: the
# journal stays append-only, so a power cut can still only tear its last line, and it keeps what
# was chosen and taken back.
TAKE_BACK = {"undo": True}


class Journal:
    def __init__(self, path: str | Path, table_log: TableLog, fsync: bool = True):
        self.path = Path(path)
        self.fsync = fsync
        self.path.parent.mkdir(parents=True, exist_ok=True)
        header = {"format": FORMAT, "game": table_log.game, "players": table_log.players,
                  "options": table_log.options}
        with self.path.open("w", encoding="utf-8") as fh:
            fh.write(json.dumps(header) + "\n")
            for data in table_log.inputs:
                fh.write(json.dumps(data) + "\n")
            self._sync(fh)

    def append(self, data: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(data) + "\n")
            self._sync(fh)

    def take_back(self) -> None:
        """The last input was taken back: journal that, so that a resume does not replay it."""
        self.append(TAKE_BACK)

    def _sync(self, fh) -> None:
        fh.flush()
        if self.fsync:
            try:
                os.fsync(fh.fileno())
            except OSError as exc:  # pragma: no cover - filesystems without fsync
                log.warning("journal fsync failed: %s", exc)

    @staticmethod
    def load(path: str | Path) -> TableLog:
        """Read a journal back as a table log; a torn last line (power cut) is dropped."""
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise LogError(f"cannot read journal {path}: {exc.strerror or exc}") from None
        if not lines:
            raise LogError(f"journal {path} is empty")
        try:
            header = json.loads(lines[0])
        except json.JSONDecodeError:
            raise LogError(f"journal {path} has no header line") from None
        inputs = []
        for number, line in enumerate(lines[1:], start=2):
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                if number == len(lines):
                    log.warning("journal %s: dropped a torn last line", path)
                    break
                raise LogError(f"journal {path}: line {number} is not JSON") from None
            if data == TAKE_BACK:
                if not inputs:
                    raise LogError(f"journal {path}: line {number} takes back an input that is not there")
                inputs.pop()
            else:
                inputs.append(data)
        header["inputs"] = inputs
        return TableLog.from_json(header)
