"""The hand-over from the core thread to the event loop: never blocking the core, never losing an event.

The core thread puts each new state here with the events that led to it (the core's typed
events, then its notices as :class:`~controller.flow.published.Notice` events), each stamped
with the wall-clock time it was put (its ``at``: when the board's core made the change, not
when the loop got round to it); the loop takes them all at once.
When the loop falls behind, the oldest states are dropped (only the newest says where the board
is) and counted, but never their events: a dropped state's events go in front of the next
one's, so every event arrives once, in order. The loop is woken at most once per batch, so even
a stalled loop gets a bounded number of callbacks.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from ...flow.published import Event, Notice

Stamped = tuple[tuple[Event, float], ...]  # events, each with the Unix time it was put
Item = tuple[dict[str, Any], Stamped]  # a state and the events that led to it


class Inbox:
    """At most ``size`` states, with every event put; ``wake`` is called (on the putting
    thread) when the first item of a batch arrives, and must only schedule the loop's work."""

    def __init__(self, size: int, wake: Callable[[], None]) -> None:
        self._items: deque[Item] = deque()
        self._size = size
        self._lock = threading.Lock()
        self._wake = wake
        self._woken = False
        self.dropped = 0  # states the loop never saw (their events it did)

    def put(self, state: dict[str, Any], notices: tuple[str, ...], events: tuple[Event, ...] = ()) -> None:
        at = time.time()
        stamped = tuple((event, at) for event in (*events, *map(Notice, notices)))
        with self._lock:
            if len(self._items) == self._size:
                self.dropped += 1
                stamped = self._drop_oldest(stamped)
            self._items.append((state, stamped))
            wake, self._woken = not self._woken, True
        if wake:
            self._wake()

    def _drop_oldest(self, stamped: Stamped) -> Stamped:
        """Drop the oldest state, its events going in front of the next one's (``stamped``, the
        newest, when the inbox holds one item)."""
        dropped = self._items.popleft()[1]
        if not self._items:
            return dropped + stamped
        state, kept = self._items[0]
        self._items[0] = (state, dropped + kept)
        return stamped

    def take(self) -> list[Item]:
        """Everything put since the last take, oldest first."""
        with self._lock:
            items = list(self._items)
            self._items.clear()
            self._woken = False
        return items
