"""The plain data a screen draws. The controller builds it; the display never imports a game.

The score sheet arrives as the plain dict of `Sheet.to_json()` (tables of rows of cells with a
`kind` that says how to draw them), so the display knows how a sheet looks, not what it means.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class DieMark:
    """One die as the camera saw it, drawn over the tray image."""

    box: tuple[int, int, int, int]       # in tray-image pixels
    label: str                           # face as players know it: "5", or "K" on poker dice
    held: bool = False                   # kept aside by the player (HOLD button)
    doubtful: bool = False               # the reader was unsure: outline in warning colour
    sure: bool = False                   # outlined to check only for the lamp's glare, read surely: no "?"
    selected: bool = False               # the cursor of a 3-button panel is on it
    position: int = 0                    # its number for the HOLD buttons (1 = leftmost), 0: not shown


@dataclass(frozen=True)
class TrayView:
    image: np.ndarray | None             # BGR camera frame (None: no camera image)
    dice: tuple[DieMark, ...] = ()
    caption: str = ""                    # e.g. "Settled: 3 3 5 1 6" or "Dice moving..."
    # things in the tray that are not dice (a phone left there, a hand), boxes in tray-image pixels:
    # outlined, so that players see what stops the throw or what the dice were read around
    things: tuple[tuple[int, int, int, int], ...] = ()


@dataclass(frozen=True)
class OptionView:
    label: str
    points: int | None = None
    selected: bool = False
    enabled: bool = True
    note: str = ""                       # what it does besides its points: "give up", "+10 early"
    short: tuple[str, ...] = ()          # shorter forms of `label`, drawn where it would be cut


@dataclass(frozen=True)
class PromptView:
    """What the table asks now, and of whom."""

    player: str                          # who acts ("" for the table)
    text: str                            # "Ann: choose a category, or hold dice and throw again"
    options: tuple[OptionView, ...] = () # the menu, cursor on the selected one
    hint: str = ""                       # which buttons do what: "HOLD 1-5 keep dice · OK throw"
    short: str = ""                      # `text` for a panel too small for it; set where `text`
                                         # says what to press (kept before the hint's later lines)


@dataclass(frozen=True)
class MessageView:
    text: str
    level: str = "info"                  # info | warning | error
    pages: tuple[str, ...] = ()          # the pages `text` turns with: the banner is sized for the tallest


@dataclass(frozen=True)
class SetupItem:
    label: str                           # "Game", "Players", "two_pairs_value"
    value: str                           # "Thirteen", "4", "20"
    selected: bool = False


@dataclass(frozen=True)
class Standing:
    name: str
    score: int
    place: int
    winner: bool = False


@dataclass(frozen=True)
class HelpView:
    """How a game is played, shown on request (the HINT button) over the sheet's place. A card
    longer than its panel is drawn in pages (the display splits it: only it knows the room);
    `page` says which one, 1/2 on screen."""

    title: str                           # "How to play Thirteen"
    paragraphs: tuple[str, ...]
    foot: str = ""                       # how to close it: "HINT again: back to the sheet"
    page: int = 0                        # the page shown, when the card is longer than its panel
    next_foot: str = ""                  # the foot of every page but the last: "HINT: next page"
    short: tuple[str, ...] = ()          # shorter forms of `title`, drawn where it would be cut


@dataclass(frozen=True)
class TableView:
    """Everything on screen at one moment.

    mode: "setup" (choose game, players, options), "play" (tray + sheet + prompt; a round's
    result arrives as the message), "final" (standings with the winner).
    """

    mode: str
    title: str
    status: str = ""
    sheet: dict[str, Any] | None = None  # Sheet.to_json()
    tray: TrayView | None = None
    prompt: PromptView | None = None
    message: MessageView | None = None
    setup: tuple[SetupItem, ...] = ()
    standings: tuple[Standing, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)
    help: HelpView | None = None         # shown in place of the sheet (play) or of the menu (setup)
