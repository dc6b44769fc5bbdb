"""The core's one queue: bounded where the outside world can flood it, and a stop that jumps it.

A flickering sensor, a storm of serial frames or a script posting commands in a loop must not
keep the core busy for seconds (20,000 hole toggles once held it 10 s, and a SIGTERM behind them
13.8 s), so:

- hole readings are coalesced per hole: between two other events, a hole keeps only its newest
  reading, and the newest marble reading before it when that one ends empty, so the core still
  learns that a marble was seen there (it tells a placement made before a twist from one after);
  a hole's coalesced readings move to the end, so the core sees them in the order of their times;
- commands from people (web console, MQTT) are bounded: :meth:`CoreQueue.offer` refuses one
  when :data:`MAX_COMMANDS` wait already, and the caller answers "busy" (the simulator's board
  verbs likewise while :data:`BUSY_WAITING` items wait, see :meth:`CoreQueue.is_busy`);
- :meth:`CoreQueue.close` makes the next :meth:`CoreQueue.get` return :data:`STOP` whatever is
  queued: what is left was never shown as done (the journal holds every accepted action, and the
  sensors are read afresh at the next start).

Everything else (encoder steps, buttons, link changes, the computer's answers) keeps its order.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from queue import Empty

from ..events import EMPTY, UNSURE, Command, HoleReading

MAX_COMMANDS = 32  # commands from people waiting for the core; a new game takes a few ms each
BUSY_WAITING = 256  # past this many waiting items the simulator's board verbs are refused too
STOP = object()  # what get() returns once the queue is closed


class _Readings(dict[int, list[HoleReading]]):
    """One run of hole readings between two other events: hole -> its readings, oldest first."""

    def add(self, reading: HoleReading) -> int:
        """Coalesce ``reading`` in; returns by how many readings the run grew (-1, 0 or 1)."""
        earlier = self.pop(reading.hole, [])
        if reading.reading in (EMPTY, UNSURE):
            marble = [r for r in earlier if r.reading not in (EMPTY, UNSURE)][-1:]
            self[reading.hole] = marble + [reading]
        else:
            self[reading.hole] = [reading]
        return len(self[reading.hole]) - len(earlier)

    def take(self) -> HoleReading:
        hole = next(iter(self))
        readings = self[hole]
        first = readings.pop(0)
        if not readings:
            del self[hole]
        return first


class CoreQueue:
    """Thread-safe: any thread puts, the core thread gets (see the module docstring)."""

    def __init__(self, max_commands: int = MAX_COMMANDS) -> None:
        self.max_commands = max_commands
        self.refused = 0  # commands refused because the queue was full
        self._items: deque[object] = deque()
        self._commands = 0  # commands offered and not yet taken
        self._size = 0  # items waiting, each coalesced reading counted once
        self._closed = False
        self._ready = threading.Condition()

    def put(self, item: object) -> None:
        """Queue ``item`` (never refused; a hole reading may be coalesced, see the module)."""
        with self._ready:
            if self._closed:
                return
            if isinstance(item, HoleReading):
                tail = self._items[-1] if self._items else None
                if not isinstance(tail, _Readings):
                    tail = _Readings()
                    self._items.append(tail)
                self._size += tail.add(item)
            else:
                self._items.append(item)
                self._size += 1
            self._ready.notify()

    def offer(self, command: Command) -> bool:
        """Queue a person's command unless :attr:`max_commands` wait already (then False)."""
        with self._ready:
            if self._commands >= self.max_commands:
                self.refused += 1
                return False
            self._commands += 1
        self.put(_Offered(command))
        return True

    def get(self, timeout: float | None = None) -> object:
        """The next item (:data:`STOP` once closed); raises :class:`queue.Empty` after ``timeout`` s."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._ready:
            while not self._items and not self._closed:
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    raise Empty
                self._ready.wait(left)
            if self._closed:
                return STOP
            return self._take()

    def get_nowait(self) -> object:
        return self.get(0.0)

    def _take(self) -> object:
        self._size -= 1
        head = self._items[0]
        if isinstance(head, _Readings):
            item = head.take()
            if not head:
                self._items.popleft()
            return item
        self._items.popleft()
        if isinstance(head, _Offered):
            self._commands -= 1
            return head.command
        return head

    def close(self) -> None:
        """From now on get() returns STOP at once and put() drops what it is given."""
        with self._ready:
            self._closed = True
            self._items.clear()
            self._commands = self._size = 0
            self._ready.notify_all()

    def is_busy(self) -> bool:
        return self._size >= BUSY_WAITING or self._commands >= self.max_commands

    def busy_reason(self) -> str:
        """What a refused request is told (the web console and MQTT say the same)."""
        return (f"the board is busy: {self._size} events wait for it ({self._commands} commands); "
                "try again in a moment")

    def waiting(self) -> int:
        """How many items wait (each coalesced reading counted once)."""
        return self._size


class _Offered:
    """A command that counts against the bound until the core takes it."""

    __slots__ = ("command",)

    def __init__(self, command: Command) -> None:
        self.command = command
