"""Rules engines of the five games, found by name in a registry.

    from controller.rules import new_game
    state = new_game("thirteen", ["Ann", "Bob"])
    state.expects()          # what comes next
    state = state.apply({"type": "dice", "player": 0, "values": [1, 2, 3, 4, 5]})
"""
from .base import (  # noqa: F401
    GAMES, Cell, Decide, GameOver, GameState, IllegalInput, Input, Option, OptionError, OptionSpec,
    RerollSpec, Result, Row, RulesError, Sheet, Table, Throw, choose_input, dice_input, find_game,
    new_game, reroll_input,
)


def load_all() -> None:
    """Import every game module so that each registers itself. Missing modules are skipped
    only while the project is being built; the registry test checks all five are present."""
    import importlib

    for module in ("thirteen", "classic", "school", "poknroll", "objective_cards"):
        try:
            importlib.import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{module}":
                raise


load_all()
