"""Signals for the daemon's event loop, delivered even when the loop is busy.

asyncio's ``loop.add_signal_handler`` passes each signal to the loop as one byte written to the
loop's own self-pipe, the same pipe every ``call_soon_threadsafe`` writes to. The core thread
publishes each new state that way, so while the loop is held up (a long request) the pipe fills,
the signal's byte is dropped with a ``BlockingIOError`` in the C handler, and the SIGTERM is
lost for good. Here the signals get a wake-up socket of their own that nothing else writes to,
and the handler also records the signal, so a dropped byte cannot lose it either.
"""

from __future__ import annotations

import asyncio
import signal
import socket
from collections.abc import Callable
from types import FrameType
from typing import Any


class LoopSignals:
    """Runs ``handlers[signum]()`` on ``loop`` for each signal that arrives, until :meth:`close`.

    Use on the main thread (Python only runs signal handlers there).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, handlers: dict[int, Callable[[], Any]]) -> None:
        self._loop, self._handlers = loop, handlers
        self._pending: list[int] = []
        self._reader, self._writer = socket.socketpair()
        for sock in (self._reader, self._writer):
            sock.setblocking(False)
        self._old_wakeup = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        self._old_handlers = {signum: signal.signal(signum, self._note) for signum in handlers}
        loop.add_reader(self._reader.fileno(), self._deliver)

    def _note(self, signum: int, frame: FrameType | None) -> None:
        """The Python-level handler: remember the signal (the wake-up byte may be dropped)."""
        self._pending.append(signum)

    def _deliver(self) -> None:
        """On the loop, woken by the wake-up socket: run the handler of each signal that came,
        named by a wake-up byte or noted by the Python-level handler (whichever ran first)."""
        arrived = self._drain()
        arrived.extend(self._pending)
        self._pending.clear()
        for signum in dict.fromkeys(arrived):  # once each, in order of arrival
            if signum in self._handlers:
                self._handlers[signum]()

    def _drain(self) -> list[int]:
        arrived: list[int] = []
        try:
            while chunk := self._reader.recv(4096):
                arrived.extend(chunk)
        except BlockingIOError:
            pass
        return arrived

    def close(self) -> None:
        """Restore the handlers and wake-up fd that were there before."""
        self._loop.remove_reader(self._reader.fileno())
        for signum, old in self._old_handlers.items():
            signal.signal(signum, old)
        signal.set_wakeup_fd(self._old_wakeup)
        self._reader.close()
        self._writer.close()
