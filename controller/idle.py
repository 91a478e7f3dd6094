"""A table left alone: players walk off mid-game, and the next group finds a stranger's game.

Ending it takes ABANDON twice (a long DOWN twice on a three-button panel), which no screen of a
game in progress names, and which a secret choice in Pok'n Roll does not even take. So after
`idle_minutes` (`[table]`) with no press and no dice thrown, the screen asks *Still
playing?*; any button answers it (and does nothing else: the OK of a passer-by must not score a
box), and a game nobody claims within `STILL_PLAYING_SECONDS` is put away as abandoned (its
journal kept, as for ABANDON) and the setup menu comes back. A table at the final standings, or
on a setup menu someone began to change, goes back to the café's setup menu without asking.

No pygame, no game: the app tells the watch what happens and asks it what time it is.
"""
from __future__ import annotations

import math
from typing import Callable

#: how long "Still playing?" stays on screen before the game is put away
STILL_PLAYING_SECONDS = 120.0


class IdleWatch:
    """How long the table has been left alone (`idle_seconds` 0: it never counts as left)."""

    def __init__(self, idle_seconds: float, clock: Callable[[], float]) -> None:
        self.idle_seconds = idle_seconds
        self.clock = clock
        self.since = clock()
        self.unseen_before = 0.0      # how long nobody was there before the watch began (left_before)
        self.touches = 0              # how many times someone was there since the watch began

    def touch(self) -> None:
        """Someone is there: a button, a throw."""
        self.since = self.clock()
        self.unseen_before = 0.0
        self.touches += 1

    def left_before(self, seconds: float) -> None:
        """Nobody was there for `seconds` up to now, as the watch learns (a game resumed from a
        journal last written then: the table was switched off over night; told as it starts, or
        once the network has set the clock): if that is `idle_seconds` or more, the question is
        asked at once, with its whole time to answer it (not again once asked)."""
        if self.idle_seconds > 0 and seconds >= self.idle_seconds and not self.left:
            self.since = self.clock() - self.idle_seconds
            self.unseen_before = seconds - self.idle_seconds

    @property
    def alone_for(self) -> float:
        """Seconds since anyone was last seen, counting the time before the watch began."""
        return self.left_for + self.unseen_before

    @property
    def left_for(self) -> float:
        """Seconds since anyone was last seen."""
        return self.clock() - self.since

    @property
    def left(self) -> bool:
        """Alone for `idle_seconds`: time to ask (a game) or to tidy up (a menu, the standings)."""
        return self.idle_seconds > 0 and self.left_for >= self.idle_seconds

    @property
    def given_up(self) -> bool:
        """Nobody answered "Still playing?" in time."""
        return self.left and self.left_for >= self.idle_seconds + STILL_PLAYING_SECONDS

    def still_playing(self) -> str:
        """The question on screen while it is asked, with the time left to answer it."""
        remaining = self.idle_seconds + STILL_PLAYING_SECONDS - self.left_for
        minutes = max(1, math.ceil(remaining / 60))
        return (f"Still playing? Press any button to carry on. If nobody does, this game is put away "
                f"(it is kept) in {minutes} minute{'s' if minutes > 1 else ''} and the table is free "
                "for a new game.")


def left_message(title: str, players: tuple[str, ...] | list[str], seconds: float, offered: bool = True) -> str:
    """What the setup menu says after a game was put away for being left alone (`offered`: and
    the menu offers to take it up, under the games; else it is kept for the staff)."""
    left = f"Nobody played {title} ({', '.join(players)}) for {_duration(seconds)}: it was put away"
    if offered:
        return f"{left}. Take up {title}, under the games, goes on with it; or choose a game."
    return f"{left} and kept for the staff. Choose a game."



def _duration(seconds: float) -> str:
    """"32 minutes", "12 hours", "3 days": as long as it was, to the unit that matters."""
    minutes = int(seconds // 60)
    for unit, size in (("day", 24 * 60), ("hour", 60)):
        if minutes >= 2 * size:
            return f"{minutes // size} {unit}s"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
