"""Is the board's referee answering? What the page, MQTT and doctor say of a running daemon.

The runtime knows (:meth:`~controller.daemon.runtime.Runtime.health`): ``live``; ``paused``
while its journal cannot be written (nothing is shown until it is durable; see the runtime);
``stopped`` while the core thread does not answer (busy with one event past
:data:`STUCK_S`, or gone). Only another thread can see that the core thread stopped, so
:func:`watch` runs on the event loop: it hands every change to the runtime's health listeners
(the web page, the MQTT bridge) and ends the daemon, exit status 1 so that systemd restarts it,
once the core thread is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any

from .logs import event as log

LIVE, PAUSED, STOPPED = "live", "paused", "stopped"
STUCK_S = 5.0  # a core thread busy this long with one event does not answer
WATCH_S = 1.0  # how often the event loop looks


@dataclass(frozen=True)
class Health:
    """``status`` (live, paused, stopped) and what it means, in words for people."""

    status: str
    words: str

    def to_json(self) -> dict[str, str]:
        return {"status": self.status, "words": self.words}


def live() -> Health:
    return Health(LIVE, "the referee is following the board")


def paused(why: str) -> Health:
    return Health(PAUSED, f"cannot save: the board is paused ({why}); it goes on by itself once its "
                          "journal can be written again")


def stopped(why: str) -> Health:
    return Health(STOPPED, f"stopped: {why}; the service restarts it (if it does not, see "
                           "journalctl -u pentago-board)")


async def watch(runtime: Any, ended: asyncio.Event) -> None:
    """Until ``ended`` is set: hand each change of ``runtime``'s health to its health listeners;
    set ``ended`` once the core thread is gone (``runtime.failed`` is then True)."""
    last: Health | None = None
    while not ended.is_set():
        health = runtime.health()
        if health != last:
            last = health
            for listener in list(runtime.health_listeners):
                try:
                    listener(health)
                except Exception:  # e.g. the web loop closing: the watch goes on
                    logging.getLogger("pentago_board").exception("health listener failed")
        if runtime.core_gone():
            log("the core thread is gone; exiting for systemd to restart the board", logging.ERROR)
            runtime.failed = True
            ended.set()
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ended.wait(), WATCH_S)
