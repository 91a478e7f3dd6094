"""A game's players under names the screen can draw, resumed or new.

A journal keeps the names as they were typed: a game begun where a font had 王小明's letters (a
desktop with Noto CJK, a terminal game) and resumed on a table without one was drawn "???" on
every sheet column, prompt and note, two such players "???" and "??": they could not tell whose
column was whose. A new game takes the menu's stand-ins (`names.drawable_players`); a resumed
one now takes the same, worked out from the journal's names alone, so that a second restart,
or the next game with the same players, gives each seat the same stand-in all evening. The
journal keeps the names as typed: a screen that can draw them shows them again.
"""
from __future__ import annotations

from .names import drawable_players
from .rules.base import GameState
from .tablelog import TableLog, replay


def drawable_game(table_log: TableLog, state: GameState) -> tuple[TableLog, GameState, str]:
    """The game `table_log` replays to (`state`) as the table plays it: its log and state under
    names this screen can draw, and what was changed in words for the staff (`table_log` and
    `state` themselves, and "", when every name can be drawn). The log's inputs are a copy: the
    journal goes on from `table_log`, with the names as typed."""
    players, said = drawable_players(list(table_log.players))
    if not said:
        return table_log, state, ""
    renamed = TableLog(table_log.game, players, dict(table_log.options), list(table_log.inputs))
    return renamed, replay(renamed), said
