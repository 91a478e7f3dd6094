"""Which game the setup menu keeps for *play again* across a restart, and under which house rules
(controller/table_app.py).

Out of `TableApp` (fix-appsplit): the game just played is found in the archive
(controller/kept_games.py reads its header), kept when it was played a moment ago by a clock the
network set (controller/journal_times.py), and played again under the house rules the config
sets now, where it sets them.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Callable

from .config import Config
from .kept_games import last_played
from .rules import find_game
from .setup_menu import SetupResult

# (the staff's log filters read these lines as the app's: its name is kept)
log = logging.getLogger("controller.table_app")


def configured_rules(config: Config, game: str) -> dict[str, Any]:
    """The house rules the config sets for `game` (those its rules take). A game remembered
    across a restart (resumed, or just played) is played again under them: the staff change
    the config's house rules and restart the table for the next game to have them
    (docs/install.md), and the game kept for 'play again' brought the old ones back."""
    try:
        specs = {spec.name: spec for spec in find_game(game).OPTIONS}
    except Exception:
        return {}
    out = {}
    for name, value in dict(config.table.options.get(game, {}) or {}).items():
        try:
            out[name] = specs[name].check(value)
        except Exception:   # (a mistake the menu already says; its default stands)
            continue
    return out


def recent_game(folder: Path, archived: list[str], age_of: Callable[[Path], float],
                config: Config) -> SetupResult | None:
    """The game just played, for the menu of a table started at its setup menu (the power went
    there, or as a group played again): the newest game of the archive `folder` (its names
    `archived`, oldest first) when its last move was less than idle_minutes ago (30 when 0) by
    `age_of` its journal (0: not known), and its rules take it under the config's house rules.
    Before, the group found the café's setup and typed its names again. None: the café's setup
    (last night's game, the clock not set, a game put away or kept aside)."""
    found = last_played(folder, archived)
    if found is None:
        return None
    age = age_of(folder / archived[-1])
    if not 0 < age < (config.table.idle_minutes or 30) * 60:
        return None
    game, players, options = found
    options = {**options, **configured_rules(config, game)}
    try:
        find_game(game).new(players, options)       # (the rules take it: else the café's setup)
    except Exception as exc:
        log.warning("the last game played, %s, is not kept on the menu: %s", archived[-1], exc)
        return None
    log.info("the setup menu keeps the last game played, %s", archived[-1])
    return SetupResult(game, players, dict(options))
