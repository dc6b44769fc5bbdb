"""The hand-over from the core thread to the event loop: bounded, and never blocking the core.

The core thread puts each new state (with its notices and the journal records that made it) here, stamped with the wall-clock time
it was put (the ``at`` of the events read from it: when the board's core made the change, not
when the loop got round to it); the loop takes them all at once.
When the loop falls behind, the oldest states are dropped and counted: the next state still
says where the game is and takes the dropped one's records (a new game is known by its start
record, see :mod:`.messages`), only the notices of the dropped ones are lost. The loop is woken at most once per batch, so even a
stalled loop gets a bounded number of callbacks.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

Records = tuple[dict[str, Any], ...]
Item = tuple[dict[str, Any], tuple[str, ...], Records, float]  # state, notices, records, Unix time of the put


class Inbox:
    """At most ``size`` (state, notices, records, time) items; ``wake`` is called (on the putting thread) when
    the first pair of a batch arrives, and must only schedule the loop's work."""

    def __init__(self, size: int, wake: Callable[[], None]) -> None:
        self._items: deque[Item] = deque()
        self._size = size
        self._lock = threading.Lock()
        self._wake = wake
        self._woken = False
        self.dropped = 0  # states the loop never saw

    def put(self, state: dict[str, Any], notices: tuple[str, ...], records: Records = ()) -> None:
        with self._lock:
            if len(self._items) == self._size:
                self.dropped += 1
                records = self._drop_oldest(records)
            self._items.append((state, notices, records, time.time()))
            wake, self._woken = not self._woken, True
        if wake:
            self._wake()

    def _drop_oldest(self, records: Records) -> Records:
        """Drop the oldest item, its records going to the next one (``records``, the newest, when
        the inbox holds one item)."""
        dropped = self._items.popleft()[2]
        if not self._items:
            return dropped + records
        state, notices, kept, at = self._items[0]
        self._items[0] = (state, notices, dropped + kept, at)
        return records

    def take(self) -> list[Item]:
        """Everything put since the last take, oldest first."""
        with self._lock:
            items = list(self._items)
            self._items.clear()
            self._woken = False
        return items
