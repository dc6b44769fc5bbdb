"""The classroom console's broker link on its own: it backs off between attempts while the broker
is away (saying so once), starts again from the shortest wait once a session was up, and after a
reconnect shows a board online only when the broker says so again (a board that vanished with
the broker's memory shows offline, its last state kept)."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from controller.classroom.boards import Boards
from controller.classroom.link import RETRY_S, Link

from ..daemon.daemon_proc import free_port
from ..daemon.mosquitto import Broker, Watcher


def test_the_link_backs_off_while_the_broker_is_away_and_says_so_once(caplog):
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 8:
            raise asyncio.CancelledError

    link = Link("127.0.0.1", free_port(), Boards("pentago-board"), sleep=sleep)  # nothing listens there
    with caplog.at_level(logging.WARNING, logger="controller.classroom.link"), pytest.raises(asyncio.CancelledError):
        asyncio.run(link.run())
    assert waits == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0, 10.0] and RETRY_S == (0.5, 10.0)
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and said[0].startswith(f"broker 127.0.0.1:{link.port} unreachable")


async def until(check, what: str, seconds: float = 15.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never {what}")


def test_after_a_broker_restart_a_board_is_online_only_when_the_broker_says_so_again(tmp_path):
    broker = Broker(tmp_path).start()
    hands = Watcher(broker.port)
    boards = Boards("pentago-board")

    async def lesson() -> None:
        link = Link("127.0.0.1", broker.port, boards)
        task = asyncio.create_task(link.run())
        try:
            for name in ("t1", "t2"):
                hands.publish(f"pentago-board/{name}/status", "online", retain=True)
                hands.publish(f"pentago-board/{name}/state", json.dumps({"state": "choosing"}), retain=True)
            await until(lambda: [r["online"] for r in boards.rows()] == [True, True], "both online")
            broker.stop()
            await until(lambda: link.client is None, "the broker gone")
            broker.start()  # remembers nothing: t1 comes back, t2 has vanished meanwhile
            await until(hands.client.is_connected, "the board's hands reconnected")  # paho retries by itself
            hands.publish("pentago-board/t1/status", "online", retain=True)
            await until(lambda: link.sessions == 2 and boards.rows()[0]["online"], "reconnected")
            t1, t2 = boards.rows()
            assert t1["online"] and not t2["online"] and t2["state"] == "choosing"
        finally:
            task.cancel()
            await asyncio.wait([task], timeout=2)

    try:
        asyncio.run(lesson())
    finally:
        hands.close()
        broker.stop()
