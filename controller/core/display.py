"""What the LEDs show: the scene of the moment, rebuilt only when something it shows changed,
and rendered into frames only when they change."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..lights.render import next_change, render
from ..lights.view import View

RGB = tuple[int, int, int]


class Display:
    """The view cache and the last frame for one LED ``chain``."""

    def __init__(self, chain: Any, start_time: float) -> None:
        self.chain = chain
        self.frame: tuple[RGB, ...] | None = None
        self._shown: View | None = None  # the view the last frame was rendered from
        self._shown_t = start_time
        self._key: tuple[Any, ...] | None = None
        self._view = View()

    def view(self, key: tuple[Any, ...], build: Callable[[], View]) -> View:
        """The view for ``key`` (everything the scene shows), built again only when it changed:
        most events change nothing the LEDs show (a bounce, an encoder step, a tick)."""
        if key != self._key:
            self._key, self._view = key, build()
        return self._view

    def render(self, view: View, now: float) -> tuple[RGB, ...] | None:
        """The new frame for ``view`` at ``now``, or None when the LEDs already show it."""
        if view == self._shown and next_change(view, self._shown_t) is None:
            return None  # a still view already on the LEDs: nothing to render
        self._shown, self._shown_t = view, now
        frame = render(view, self.chain, now)
        if frame == self.frame:
            return None
        self.frame = frame
        return frame
