"""The hand-over from the core thread to the event loop: bounded, and never blocking the core.

The core thread puts each new state (with its notices) here, stamped with the wall-clock time
it was put (the ``at`` of the events read from it: when the board's core made the change, not
when the loop got round to it); the loop takes them all at once.
When the loop falls behind, the oldest states are dropped and counted: the next state still
says where the game is (moves are read from the difference, see :mod:`.messages`), only the
notices of the dropped ones are lost. The loop is woken at most once per batch, so even a
stalled loop gets a bounded number of callbacks.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

Item = tuple[dict[str, Any], tuple[str, ...], float]  # state, notices, Unix time of the put


class Inbox:
    """At most ``size`` (state, notices, time) items; ``wake`` is called (on the putting thread) when
    the first pair of a batch arrives, and must only schedule the loop's work."""

    def __init__(self, size: int, wake: Callable[[], None]) -> None:
        self._items: deque[Item] = deque(maxlen=size)
        self._lock = threading.Lock()
        self._wake = wake
        self._woken = False
        self.dropped = 0  # states the loop never saw

    def put(self, state: dict[str, Any], notices: tuple[str, ...]) -> None:
        with self._lock:
            if len(self._items) == self._items.maxlen:
                self.dropped += 1
            self._items.append((state, notices, time.time()))
            wake, self._woken = not self._woken, True
        if wake:
            self._wake()

    def take(self) -> list[Item]:
        """Everything put since the last take, oldest first."""
        with self._lock:
            items = list(self._items)
            self._items.clear()
            self._woken = False
        return items
