"""The dice reader's nets' troubles told to the staff once, on screen (controller/table_app.py).

`vision.dicenet` logs each trouble of its nets once and keeps it (`dicenet.troubles()`): a model
file missing, a folder or damaged (the dice then read by the classical stages alone, less well),
onnxruntime failing to run a net mid-game (OpenCV's dnn took over: the same readings). Before,
the table said none of it: a missing model file only showed in `dicetable check`, which nobody
runs once the table works, and the players met dice read worse without a word.

Each trouble is said once as it comes (the banner), and the lasting ones stay as the game's
notice shown whenever nothing else is (as the config file's mistakes are), in every game after.
"""
from __future__ import annotations

from display.view import MessageView
from vision import dicenet


class ReaderNotices:
    """Which of the nets' troubles the screen has said."""

    def __init__(self) -> None:
        self.told: list[dicenet.Trouble] = []

    def new(self) -> list[dicenet.Trouble]:
        """The troubles not said yet (each returned once)."""
        fresh = [t for t in dicenet.troubles() if t not in self.told]
        self.told += fresh
        return fresh

    def lasting(self) -> MessageView | None:
        """What stays on screen while the reader reads less well (None: it reads as it should)."""
        words = [t.words for t in self.told if t.lasting]
        return MessageView(" ".join(words), "error") if words else None
