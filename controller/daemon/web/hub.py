"""Live updates: the newest state message, and a wait for the next one, for every WebSocket.

The core thread hands each state to :meth:`Hub.publish_threadsafe`; the message is built once on
the event loop. A slow client skips states it could not send in time and always gets the newest,
so the board's animation frames never pile up in a queue.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable
from typing import Any

RECENT_NOTICES = 12


class Hub:
    """Holds the newest message (as JSON text) and wakes every follower when it changes."""

    def __init__(self, extra: Callable[[], dict[str, Any]] = dict) -> None:
        self.version = 0
        self.message = "{}"
        self.notices: deque[str] = deque(maxlen=RECENT_NOTICES)
        self._extra = extra  # more fields for every message, e.g. the virtual board's marbles
        self._game: Any = None  # the state's games_started: a new game's messages start afresh
        self._changed = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def publish_threadsafe(self, state: dict[str, Any], notices: tuple[str, ...], events: tuple[Any, ...] = ()) -> None:
        """Called on the core thread: schedule the update on the event loop (the page has no use
        for the events: it reads the state)."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.publish, state, notices)

    def publish(self, state: dict[str, Any], notices: tuple[str, ...] = ()) -> None:
        if state.get("games_started") != self._game:  # a new game: the last game's messages go
            self._game = state.get("games_started")
            self.notices.clear()
        self.notices.extend(notices)
        body = {"type": "state", "state": state, "notices": list(self.notices), **self._extra()}
        self.message = json.dumps(body, default=str)
        self.version += 1
        self._changed.set()
        self._changed = asyncio.Event()

    async def next_message(self, seen: int) -> tuple[int, str]:
        """The newest message once it is newer than version ``seen``."""
        while self.version == seen:
            await self._changed.wait()
        return self.version, self.message
