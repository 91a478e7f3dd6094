"""The banner over the table's sheet: what the table says, for how long, and the notes of the
moves (a round won, a showdown) shown page by page.

The table flow (controller/table.py) decides what to say and when; this keeps the banner's own
state: the message on it and until when, the pages of notes still to come with the move that made
them, and which of those were logged already. Messages longer than the banner of the screen holds
turn in pages (the screen's size decides, `display.render.note_pages`), each for
`message_seconds`. Nothing here touches the game.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import Callable, Mapping, Sequence

from display.view import MessageView

from .short_panel import reworded

# the table's log, whoever in the table writes it: the staff (journalctl) and the tests read it
# under this name
log = logging.getLogger("controller.table")

#: a page of notes: (the log's length after the move that made it, its text, the set it is one of)
NotePage = tuple[int, str, tuple[str, ...]]


class Banner:
    """The banner's message and the notes' pages still to show (see the module's docstring)."""

    def __init__(self, clock: Callable[[], float], message_seconds: float, words: Mapping[str, str],
                 screen_size: tuple[int, int], final: Callable[[], bool]):
        self.clock = clock
        self.message_seconds = message_seconds
        self.words = words                  # what this panel calls BACK and ABANDON (reworded)
        self.screen_size = screen_size
        self._final = final                 # whether the final standings are on screen (a banner of their own)
        self.message: MessageView | None = None
        self._message_until = 0.0
        self._message_since = 0.0
        # the notes of moves still to be shown, a banner's page each, with the number of inputs
        # of the move that made them; the page on screen and its move (see `add_notes`)
        self._note_pages: list[NotePage] = []     # (+ the page's set: `_next_page`)
        self._page: MessageView | None = None
        self._page_move = 0
        # the pages of notes already logged, with their move: a page cut short by another message
        # ("I see 4 dice") is shown again after it, and was logged again, the log then reading as
        # if "Ann scored 22 in Chance" had been scored twice
        self._pages_logged: set[tuple[int, str]] = set()

    def say(self, text: str, level: str = "info", logged: bool = True, staff: bool | None = None) -> None:
        """Show `text` (TableFlow.say says what `logged` and `staff` are for)."""
        if self.page_shown:
            # a note cut short by another message ("I see 4 dice") is shown again after it
            self._note_pages.insert(0, (self._page_move, self._page.text, self._page.pages))
        self._page = None
        text = reworded(text, self.words)
        self.message = MessageView(text, level)
        self._message_since = self.clock()
        # a message longer than the banner holds is shown in pages (see in_pages), each for as long
        self._message_until = self._message_since + self.message_seconds * len(self.pages(text))
        if logged:
            (log.warning if (level == "error" if staff is None else staff) else log.info)("%s", text)

    def tick(self, now: float) -> None:
        """Time passes: the message fades, and the next page of notes takes its place."""
        if self.message and now >= self._message_until:
            self.message = None
        if self.message is None and self._note_pages:
            self._next_page()

    def clear(self) -> None:
        """Nothing on the banner; a page of notes cut short comes back after (as after a message)."""
        if self.page_shown:
            self._note_pages.insert(0, (self._page_move, self._page.text, self._page.pages))
        self._page = self.message = None

    def page_done(self) -> None:
        """The page on the banner was said with what follows it (a draw's news): a message said
        over it does not bring it back."""
        self._page = None

    def add_notes(self, new: Sequence[str], mode: str, move: int) -> None:
        """A move's new notes (`move`: the log's length after it), on the pages the banner of this
        screen holds in `mode` ("play", "final"), shown at once from their first page: the pages of
        earlier moves still to come give way to them (`_give_way`)."""
        from display.render import note_pages      # (pygame: only where a screen shows them)
        pages = tuple(note_pages(new, mode, self.screen_size))
        self._give_way(move)
        self._note_pages += [(move, page, pages) for page in pages]
        if not self.page_shown:
            self._next_page()

    def add_after(self, text: str, move: int) -> None:
        """`text` as the page(s) shown after what the banner says now (a staff notice after a draw
        or a box's note, already logged by its sayer)."""
        pages = tuple(self.pages(text))
        self._note_pages += [(move, page, pages) for page in pages]

    def _give_way(self, move: int) -> None:
        """Forget the pages of notes of the moves before `move` (the log's length after it), the
        one on the banner too: a note shown after a later move's would be read as that move's."""
        self._note_pages = [page for page in self._note_pages if page[0] >= move]
        self._pages_logged = {page for page in self._pages_logged if page[0] >= move}
        if self.page_shown and self._page_move < move:
            self._page = self.message = None

    @property
    def page_shown(self) -> bool:
        """Whether the banner shows a page of notes now."""
        return self._page is not None and self.message is self._page

    def _next_page(self) -> None:
        """The next page of notes on the banner."""
        move, text, pages = self._note_pages.pop(0)
        self.say(text, logged=(move, text) not in self._pages_logged)
        self._pages_logged.add((move, text))
        if len(pages) > 1:      # the banner sized for the set's tallest page: the screen under it stays put
            self.message = replace(self.message, pages=tuple(reworded(page, self.words) for page in pages))
        self._page, self._page_move = self.message, move

    def drop_pages_after(self, inputs: int) -> None:
        """Forget the notes of moves taken back (the game no longer has them)."""
        self._note_pages = [page for page in self._note_pages if page[0] <= inputs]
        # (a move made again is said again)
        self._pages_logged = {page for page in self._pages_logged if page[0] <= inputs}
        if self.page_shown and self._page_move > inputs:
            self.message = None

    def pages(self, text: str) -> list[str]:
        """`text` as the pages the banner of this screen draws whole (one when it fits)."""
        from display.render import note_pages      # (pygame: only where a screen shows them)
        return note_pages([text], "final" if self._final() else "play", self.screen_size)

    def in_pages(self, message: MessageView) -> MessageView:
        """`message` as the page of it shown now, each for `message_seconds`, when the banner does
        not hold it whole: at 320x240 the banner's four lines cut "I see 5 dice; the game needs 7
        ... Fix the tray, or hold OK to enter the values" after "Fix the tray or", and a player
        never read what to do; and two ties broken on the final screen lost their rule. A message
        said (`say`) turns from its first page; one that stays (a tie-break, a notice) by the clock."""
        pages = self.pages(message.text)
        if len(pages) < 2:
            return message
        since = self._message_since if message is self.message else 0.0
        page = pages[int((self.clock() - since) // self.message_seconds) % len(pages)]
        return replace(message, text=page, pages=tuple(pages))


def new_notes(before: Sequence[str], after: Sequence[str]) -> list[str]:
    """The notes a move added to a sheet's: those after the old ones when it kept them
    (Pok'n Roll's hand, Classic's roll-off), those before them when they follow (Objective
    cards' reveal before the last round's), else all of them: the game wrote a new list (School's
    move, Classic's round, Pok'n Roll's next hand), whose notes may read as an older one did
    ("Turn 1: Bob abandons" in two hands running was taken for old and never shown)."""
    before, after = tuple(before), tuple(after)
    if after[:len(before)] == before:
        return list(after[len(before):])
    if before and after[-len(before):] == before:
        return list(after[:-len(before)])
    return list(after)
