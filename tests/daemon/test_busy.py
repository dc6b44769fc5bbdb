"""A core with a backlog refuses people's commands with a message, on the web (503) and on
MQTT (a refused event), instead of queueing them without bound (issue 19, item 12)."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

from aiohttp.test_utils import TestClient, TestServer

from controller.daemon.config import MqttConfig
from controller.daemon.core_queue import BUSY_WAITING, MAX_COMMANDS
from controller.daemon.runtime import Runtime
from controller.daemon.web.app import build_app
from controller.drivers.virtual import VirtualBoard, VirtualPixels
from controller.events import ButtonPress
from controller.profile import load_profile

from .fakes import FakeCore, FakeJournal, FakeNotifier

PROFILE = load_profile("virtual-6x6")


def stalled_runtime() -> tuple[Runtime, VirtualBoard]:
    """A runtime whose core thread is never started: whatever is queued stays queued."""
    board = VirtualBoard.from_profile(PROFILE, buttons=("ok", "back"))
    return Runtime(FakeCore(), inputs=board, pixels=VirtualPixels(PROFILE.leds.length),
                   journal=FakeJournal(), notifier=FakeNotifier()), board


def test_the_web_console_answers_503_with_a_message_once_the_command_queue_is_full():
    runtime, board = stalled_runtime()

    async def main():
        client = TestClient(TestServer(build_app(runtime, PROFILE, board=board)))
        await client.start_server()
        try:
            answers = []
            for _ in range(MAX_COMMANDS + 3):
                response = await client.post("/api/command", data=json.dumps({"name": "new_game", "args": {}}))
                answers.append((response.status, await response.json()))
            for _ in range(BUSY_WAITING):
                runtime.put(ButtonPress(0.0, "ok"))
            verb = await client.post("/api/board/press", data=json.dumps({"button": "ok"}))
            return answers, verb.status, await verb.json()
        finally:
            await client.close()

    answers, verb_status, verb_answer = asyncio.run(main())
    assert [status for status, _ in answers] == [202] * MAX_COMMANDS + [503] * 3
    assert answers[-1][1]["error"].startswith("the board is busy")
    assert verb_status == 503 and "busy" in verb_answer["error"]
    assert runtime.queue.waiting() == MAX_COMMANDS + BUSY_WAITING  # nothing more was queued


def test_an_mqtt_command_to_a_busy_board_is_refused_with_the_same_reason():
    from controller.daemon.mqtt.bridge import Bridge

    runtime, _ = stalled_runtime()
    bridge = Bridge(MqttConfig(enabled=True, board="b1"), runtime, {})
    message = SimpleNamespace(payload=json.dumps({"name": "menu", "id": 9}).encode(), retain=False,
                              topic="pentago-board/b1/command")
    for _ in range(MAX_COMMANDS + 1):
        bridge._take(message)
    sent = [json.loads(payload) for payload in bridge._outbox]
    assert [e["type"] for e in sent] == ["command"] * MAX_COMMANDS + ["refused"]
    assert sent[-1]["id"] == 9 and sent[-1]["reason"] == runtime.queue.busy_reason()
