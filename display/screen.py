"""The window (or kiosk, or headless surface) that owns pygame's display and its events."""
from __future__ import annotations

import dataclasses
import logging
import os
import time
from pathlib import Path
from typing import Callable

from .view import TableView

log = logging.getLogger(__name__)

#: seconds before the first try to open a lost display again, doubling up to the second figure
REOPEN_FIRST_S, REOPEN_MAX_S = 1.0, 30.0


def want_headless(requested: bool) -> bool:
    """Headless when asked, or when there is no screen to open a window on."""
    if requested:
        return True
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                or os.environ.get("SDL_VIDEODRIVER") not in (None, "", "dummy") or _has_framebuffer())


def _has_framebuffer() -> bool:
    return Path("/dev/fb0").exists() and os.environ.get("SDL_VIDEODRIVER") == "kmsdrm"


class Screen:
    """Draws TableViews. Headless uses SDL's dummy driver: same drawing, no window."""

    def __init__(self, size: tuple[int, int] = (1280, 720), fullscreen: bool = False, headless: bool = False,
                 clock: Callable[[], float] = time.monotonic):
        self.headless = want_headless(headless)
        if self.headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        # SDL would turn SIGTERM/SIGINT into a QUIT event that a headless loop never reads, so
        # `systemctl stop`, `timeout` and Ctrl-C could not stop the program. Keep Python's handlers.
        os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
        import pygame

        self.pygame = pygame
        self.clock = clock
        self._asked = (size, fullscreen)
        self.lost = ""                  # why the display went away ("" while it works)
        self._reopen_at = 0.0
        self._reopen_delay = REOPEN_FIRST_S
        self._open()
        log.info("screen %sx%s%s", *self.surface.get_size(), " (headless)" if self.headless else "")

    def _open(self) -> None:
        """Open the display (again): at start, and after it was lost."""
        pygame = self.pygame
        size, fullscreen = self._asked
        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if fullscreen and not self.headless else 0
        if fullscreen and not self.headless:
            size = (0, 0)
        self.surface = pygame.display.set_mode(size, flags)
        self._size: tuple[int, int] = self.surface.get_size()
        pygame.display.set_caption("dicetable")
        if fullscreen and not self.headless:
            pygame.mouse.set_visible(False)
        self._static_view: TableView | None = None   # what is drawn outside the tray (see show)
        self._static = None                          # the screen as drawn without its tray

    @property
    def size(self) -> tuple[int, int]:
        """The size the display was last opened at: a display opened again after it was lost may
        have another (another monitor, the HDMI mode negotiated again); while it is lost, the last."""
        return self._size

    def show(self, view: TableView) -> None:
        """Draw `view`, unless the display is lost: then the game goes on without it (every move
        journaled as ever) and the display is opened again, now and then, until it comes back.
        Before, a lost display raised at every pass: the table never drew again until restarted."""
        if self.lost and not self._reopen():
            return
        try:
            self._draw(view)
        except self.pygame.error as exc:
            self._lose(exc)

    def _draw(self, view: TableView) -> None:
        """Only the tray is drawn again while nothing else changed: at 20 frames a
        second the whole screen (the sheet's hundreds of cells) cost ~9 ms a frame at 1920x1080
        on the development machine, three to five times that on a Pi, taken from the reader."""
        from .render import render_static, render_tray, tray_rect

        static = dataclasses.replace(view, tray=None)
        if static != self._static_view:
            render_static(self.surface, view)
            self._static = self.surface.copy()
            self._static_view = static
            render_tray(self.surface, view)
            if not self.headless:
                self.pygame.display.flip()
            return
        rect = tray_rect(self.surface, view)
        if rect is None:
            return                               # nothing on screen changed
        self.surface.blit(self._static, rect, rect)   # the tray's corners as the static drawing left them
        render_tray(self.surface, view)
        if not self.headless:
            self.pygame.display.update(rect)

    def screenshot(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.pygame.image.save(self.surface, str(path))
        return path

    def events(self) -> list:
        """Pending window events (keys go to the keyboard button source); none while the display
        is lost. Before, pygame's error here stopped the pass before the button box was read."""
        if self.lost:
            return []
        try:
            return self.pygame.event.get()
        except self.pygame.error as exc:
            self._lose(exc)
            return []

    def _lose(self, exc: Exception) -> None:
        """The display has gone (the monitor's cable, kmsdrm taken by another program): say so once."""
        self.lost = str(exc) or type(exc).__name__
        log.error("screen lost (%s): the game goes on and is kept; check the screen's power and cable. "
                  "The table opens the screen again by itself, no restart needed", self.lost)
        self._reopen_delay = REOPEN_FIRST_S
        self._reopen_at = self.clock() + self._reopen_delay

    def _reopen(self) -> bool:
        """Try to open the lost display again, when its backoff delay has passed."""
        now = self.clock()
        if now < self._reopen_at:
            return False
        try:
            self.pygame.display.quit()
            self._open()
        except self.pygame.error as exc:
            self._reopen_delay = min(self._reopen_delay * 2, REOPEN_MAX_S)
            self._reopen_at = now + self._reopen_delay
            log.debug("screen still lost: %s", exc)
            return False
        log.info("screen back (%sx%s) after: %s", *self.surface.get_size(), self.lost)
        self.lost = ""
        return True

    def close(self) -> None:
        self.pygame.display.quit()
