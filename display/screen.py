"""The window (or kiosk, or headless surface) that owns pygame's display and its events."""
from __future__ import annotations

import dataclasses
import logging
import os
from pathlib import Path

from .view import TableView

log = logging.getLogger(__name__)


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

    def __init__(self, size: tuple[int, int] = (1280, 720), fullscreen: bool = False, headless: bool = False):
        self.headless = want_headless(headless)
        if self.headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        # SDL would turn SIGTERM/SIGINT into a QUIT event that a headless loop never reads, so
        # `systemctl stop`, `timeout` and Ctrl-C could not stop the program. Keep Python's handlers.
        os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
        import pygame

        self.pygame = pygame
        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if fullscreen and not self.headless else 0
        if fullscreen and not self.headless:
            size = (0, 0)
        self.surface = pygame.display.set_mode(size, flags)
        pygame.display.set_caption("dicetable")
        if fullscreen and not self.headless:
            pygame.mouse.set_visible(False)
        log.info("screen %sx%s%s", *self.surface.get_size(), " (headless)" if self.headless else "")
        self._static_view: TableView | None = None   # what is drawn outside the tray (see show)
        self._static = None                          # the screen as drawn without its tray

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def show(self, view: TableView) -> None:
        """Draw `view`. Only the tray is drawn again while nothing else changed: at 20 frames a
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
        """Pending window events (keys go to the keyboard button source)."""
        return self.pygame.event.get()

    def close(self) -> None:
        self.pygame.display.quit()
