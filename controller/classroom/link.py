"""The console's broker connection: every board's status and state in, commands out.

It reconnects by itself (a broker restarted mid-lesson loses nothing: status and state are
retained, so they arrive again at the resubscribe) and publishes commands without the retain
flag, with ``board_name`` set, so a board refuses a command meant for another one.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import aiomqtt

from ..daemon.mqtt.topics import Topics
from .boards import Boards

log = logging.getLogger(__name__)
RECONNECT_S = 1.0


class NotConnected(RuntimeError):
    """A command asked for while the broker is away."""


class Link:
    def __init__(self, host: str, port: int, boards: Boards) -> None:
        self.host, self.port, self.boards = host, port, boards
        self.client: aiomqtt.Client | None = None
        self.sent = 0

    async def run(self) -> None:
        """Keep a session to the broker, forever (cancel the task to stop)."""
        while True:
            try:
                async with aiomqtt.Client(self.host, self.port) as client:
                    await client.subscribe(f"{self.boards.prefix}/+/status", qos=1)
                    await client.subscribe(f"{self.boards.prefix}/+/state", qos=1)
                    self.client = client
                    log.info("classroom console connected to the broker %s:%d", self.host, self.port)
                    async for message in client.messages:
                        payload = message.payload
                        self.boards.take(str(message.topic), payload if isinstance(payload, bytes) else b"")
            except aiomqtt.MqttError as error:
                log.warning("broker %s:%d unreachable (%s); trying again", self.host, self.port, error)
            finally:
                self.client = None
            await asyncio.sleep(RECONNECT_S)

    async def command(self, board: str, name: str, args: dict[str, Any]) -> None:
        if self.client is None:
            raise NotConnected(f"the broker {self.host}:{self.port} is not connected; try again shortly")
        self.sent += 1
        body = {"name": name, "args": args, "board_name": board, "id": f"classroom-{self.sent}"}
        await self.client.publish(Topics(self.boards.prefix, board).command, json.dumps(body), qos=1)
