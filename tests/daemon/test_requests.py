"""One request vocabulary for every way in: the daemon's commands are the core's (less the few
the core sends itself), and the web console, the MQTT command topic and the classroom console
refuse the same bad command with the same words."""

from __future__ import annotations

import asyncio
import json

import pytest
from aiohttp.test_utils import TestClient, TestServer

from controller.classroom.app import make_app
from controller.classroom.boards import Boards
from controller.classroom.link import Link
from controller.core.computer import COMPUTER_ANSWER, HINT_ANSWER
from controller.core.core import COMMANDS as CORE_COMMANDS
from controller.core.effects import SavePicture
from controller.daemon.mqtt.commands import Refused, parse_request
from controller.daemon.requests import COMMANDS

from .web.test_app import console, post

SIZE = 6  # the web console's virtual-6x6 board; the classroom's board publishes a 6x6 state

BAD = [
    ({"name": "fly"}, "unknown command 'fly'; one of new_game, take_back, menu, hint, save_picture"),
    ({"name": "take_back", "args": {"steps": 2}}, "take_back takes no argument 'steps'"),
    ({"name": "new_game", "args": {"colour": "red"}}, "new_game takes no argument 'colour'; arguments: game,"),
    ({"name": "new_game", "args": {"game": "chess"}}, "new_game: game 'chess' is not available"),
    ({"name": "new_game", "args": {"game": "puzzle", "picture": "four-w"}},
     "new_game: no picture 'four-w' for the 6x6 board"),
    ({"name": "save_picture", "args": {"title": 7}}, "save_picture: "),
]


def test_the_daemon_takes_the_core_s_commands_less_those_the_core_sends_itself():
    """The core may not import the daemon, so this holds the two lists together: every command a
    person may send is one the core handles, and the core's others are its own (the computer's
    answers, the picture store's) or the old name of "menu"."""
    assert set(COMMANDS) <= set(CORE_COMMANDS)
    assert set(CORE_COMMANDS) - set(COMMANDS) == {COMPUTER_ANSWER, HINT_ANSWER, SavePicture.answer, "abort"}


def by_web() -> list[str]:
    async def check(client, board):
        said = []
        for body, _ in BAD:
            status, answer = await post(client, "/api/command", body)
            assert status == 400, answer
            said.append(answer["error"])
        return said

    return console()(check)


def by_mqtt() -> list[str]:
    said = []
    for body, _ in BAD:
        with pytest.raises(Refused) as refused:
            parse_request(json.dumps(body).encode(), "b1", size=SIZE)
        said.append(str(refused.value))
    return said


def by_classroom() -> list[str]:
    """The console's own check (a board of this size is known; no broker is needed to refuse)."""
    boards = Boards("pentago")
    boards.take("pentago/b1/state", json.dumps({"board": [[None] * SIZE] * SIZE}).encode())

    async def never(_: float) -> None:
        await asyncio.Event().wait()

    async def main() -> list[str]:
        client = TestClient(TestServer(make_app(Link("127.0.0.1", 1, boards, sleep=never), "127.0.0.1", "")))
        await client.start_server()
        try:
            said = []
            for body, _ in BAD:
                response = await client.post("/api/command", data=json.dumps({"boards": ["b1"], **body}))
                answer = await response.json()
                assert response.status == 400, answer
                said.append(answer["refused"]["b1"] if "refused" in answer else answer["error"])
            return said
        finally:
            await client.close()

    return asyncio.run(main())


# What the classroom console says of a board's refusal of a new game's options: the teacher's
# words, not the API's "new_game: ..." (issue 31, item 3); the requests it cannot send say the same.
TEACHER = {"new_game: ": "Could not start a new game on board b1: "}


def test_web_mqtt_and_classroom_refuse_a_bad_command_with_the_same_reason():
    web, mqtt, classroom = by_web(), by_mqtt(), by_classroom()
    for (_, words), from_web, from_mqtt, from_classroom in zip(BAD, web, mqtt, classroom, strict=True):
        assert words in from_web
        assert from_web == from_mqtt
        api = next((prefix for prefix in TEACHER if from_web.startswith(prefix)), None)
        assert from_classroom == (from_web if api is None else TEACHER[api] + from_web.removeprefix(api))
