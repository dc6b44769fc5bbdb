"""The console's broker connection: every board's status and state in, commands out.

It reconnects by itself, backing off from :data:`RETRY_S` ``[0]`` to ``[1]`` seconds between
attempts (starting again from the shortest once a session was up), and logs a lost or
unreachable broker once per outage, not at every attempt. A broker restarted mid-lesson loses
nothing: the boards publish their status and state again (retained) when they reconnect, and a
broker that kept them hands them over at the resubscribe. At every (re)connect each board's
status is forgotten until the broker says it again, so a board that vanished while the broker
was away (its last will lost with the broker's memory) shows offline rather than online forever;
its last state is kept.

Commands go out without the retain flag, with ``board_name`` set, so a board refuses a command
meant for another one.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import aiomqtt

from ..daemon.mqtt.topics import Topics
from .boards import ID_PREFIX, Boards

log = logging.getLogger(__name__)
RETRY_S = (0.5, 10.0)  # first and longest wait between connection attempts


class NotConnected(RuntimeError):
    """A command asked for while the broker is away."""


class Link:
    """The session to the broker at ``host``:``port`` feeding ``boards`` (``sleep`` waits between
    attempts; a test passes its own)."""

    def __init__(self, host: str, port: int, boards: Boards,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.host, self.port, self.boards = host, port, boards
        self.client: aiomqtt.Client | None = None
        self.sent = 0
        self.sessions = 0  # connections made so far (1 after the first, 2 after a reconnect, ...)
        self._sleep = sleep
        self._down_said = False

    async def run(self) -> None:
        """Keep a session to the broker, forever (cancel the task to stop)."""
        delay = RETRY_S[0]
        while True:
            try:
                await self._session()
            except aiomqtt.MqttError as error:
                self._lost(error)
            finally:
                if self.client is not None:  # it was up: the first retry comes soon
                    delay = RETRY_S[0]
                self.client = None
            await self._sleep(delay)
            delay = min(delay * 2, RETRY_S[1])

    async def _session(self) -> None:
        async with aiomqtt.Client(self.host, self.port) as client:
            self.boards.forget_statuses()
            await client.subscribe(f"{self.boards.prefix}/+/status", qos=1)
            await client.subscribe(f"{self.boards.prefix}/+/state", qos=1)
            await client.subscribe(f"{self.boards.prefix}/+/event", qos=1)  # their answers to our commands
            self.client, self._down_said = client, False
            self.sessions += 1
            log.info("classroom console connected to the broker %s:%d", self.host, self.port)
            async for message in client.messages:
                payload = message.payload
                self.boards.take(str(message.topic), payload if isinstance(payload, bytes) else b"")

    def _lost(self, error: Exception) -> None:
        if not self._down_said:
            said = "lost" if self.client is not None else "unreachable"
            log.warning("broker %s:%d %s (%s); reconnecting by itself", self.host, self.port, said, error)
            self._down_said = True

    async def command(self, board: str, name: str, args: dict[str, Any]) -> str:
        """Send the command to ``board``; its id (the board's answer event carries it)."""
        if self.client is None:
            raise NotConnected(f"the broker {self.host}:{self.port} is not connected; try again shortly")
        self.sent += 1
        request_id = f"{ID_PREFIX}{self.sent}"
        body = {"name": name, "args": args, "board_name": board, "id": request_id}
        await self.client.publish(Topics(self.boards.prefix, board).command, json.dumps(body), qos=1)
        self.boards.asks(board, request_id, name)  # "sent" until the board answers
        return request_id
