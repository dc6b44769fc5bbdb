"""The web console in-process: a real core and virtual board behind aiohttp's test client."""

from __future__ import annotations

import asyncio
import json

import pytest
from aiohttp.test_utils import TestClient, TestServer

from controller.core import Core
from controller.daemon.config import GameDefaults
from controller.daemon.runtime import Runtime
from controller.daemon.web.app import build_app
from controller.drivers.virtual import VirtualBoard, VirtualPixels
from controller.profile import load_profile
from controller.rules.record import parse_record, replay

from .fakes import FakeJournal, FakeNotifier

PROFILE = load_profile("virtual-6x6")


def console(token: str = "", virtual: bool = True):
    """Run ``check(client, board)`` against a started console; returns its result."""
    board = VirtualBoard.from_profile(PROFILE, buttons=("ok", "back"))
    runtime = Runtime(Core(PROFILE), inputs=board, pixels=VirtualPixels(PROFILE.leds.length),
                      journal=FakeJournal(), notifier=FakeNotifier())
    app = build_app(runtime, PROFILE, board=board if virtual else None, token=token,
                    defaults=GameDefaults(match=True))

    def run(check):
        async def main():
            runtime.start()
            client = TestClient(TestServer(app))
            await client.start_server()
            try:
                return await check(client, board)
            finally:
                await client.close()
                runtime.stop()

        return asyncio.run(main())

    return run


async def post(client, path, body, **kw):
    response = await client.post(path, data=json.dumps(body), **kw)
    return response.status, await response.json()


async def until(client, predicate, timeout_s=5.0):
    for _ in range(int(timeout_s / 0.02)):
        state = json.loads(await (await client.get("/api/state")).text())["state"]
        if predicate(state):
            return state
        await asyncio.sleep(0.02)
    raise AssertionError(f"state never matched: {state}")


def test_layout_describes_board_chain_and_defaults():
    async def check(client, board):
        settings = await (await client.get("/api/layout")).json()
        layout = settings["layout"]
        assert (layout["size"], layout["virtual"], layout["detents_per_quarter"]) == (6, True, 6)
        assert layout["holes"][25] == {"hole": 25, "name": "b5", "column": 1, "row": 4, "block": 1}
        assert [p["kind"] for p in layout["pixels"]].count("status") == 4
        assert settings["defaults"] == {"game": "classic", "players": 2, "computer": False, "match": True}
        assert "classic" in settings["games"]

    console()(check)


def test_the_live_socket_sends_each_change_with_the_marbles():
    async def check(client, board):
        ws = await client.ws_connect("/api/live")
        first = json.loads((await ws.receive()).data)
        assert first["type"] == "state" and first["marbles"] == {}
        assert (await post(client, "/api/board/place", {"hole": "c3", "colour": "white"}))[0] == 200
        while True:
            message = json.loads((await asyncio.wait_for(ws.receive(), 5)).data)
            if message["marbles"]:
                break
        assert message["marbles"] == {"14": "white"}
        await ws.close()

    console()(check)


def test_the_record_download_round_trips_through_the_rules():
    async def check(client, board):
        assert (await post(client, "/api/command", {"name": "new_game", "args": {"game": "classic"}}))[0] == 202
        await until(client, lambda s: s["state"] == "awaiting_placement")
        await post(client, "/api/board/place", {"hole": "b5"})
        await post(client, "/api/board/quarter", {"block": 4, "clockwise": True})
        await until(client, lambda s: s["moves"] == ["b5 4R"])
        response = await client.get("/api/record")
        assert response.headers["Content-Disposition"].startswith('attachment; filename="pentago-')
        record = parse_record(await response.text())
        assert record.moves == ["b5 4R"] and record.headers["Result"] == "*"
        assert replay(record).moves  # the rules accept it

    console()(check)


def test_a_token_guards_the_api_but_not_the_page():
    async def check(client, board):
        assert (await client.get("/")).status == 200
        assert (await client.get("/api/state")).status == 401
        assert (await client.get("/api/state?token=t0ken")).status == 200
        assert (await client.get("/api/state", headers={"Authorization": "Bearer t0ken"})).status == 200
        assert (await client.get("/api/state", headers={"Authorization": "Bearer nope"})).status == 401

    console(token="t0ken")(check)


@pytest.mark.parametrize("path, body, status, error", [
    ("/api/command", {"args": {}}, 400, "missing field 'name'"),
    ("/api/command", {"name": "new_game", "args": []}, 400, "field 'args' = [] has the wrong type"),
    ("/api/board/turn", {"block": 1, "steps": 1.5}, 400, "field 'steps' = 1.5 has the wrong type"),
    ("/api/board/quarter", {"block": 1, "clockwise": "yes"}, 400, "field 'clockwise' = 'yes' has the wrong type"),
    ("/api/board/press", {"button": "start"}, 409, "button 'start' does not exist (ok, back)"),
    ("/api/board/place", {"hole": 99}, 409, "hole 99 is off the 6x board"),
])
def test_malformed_requests_are_answered_with_the_problem(path, body, status, error):
    async def check(client, board):
        assert await post(client, path, body) == (status, {"error": error})
        assert (await client.get("/api/state")).status == 200

    console()(check)


def test_the_real_board_console_has_no_virtual_board_verbs():
    async def check(client, board):
        status, answer = await post(client, "/api/board/place", {"hole": "a1"})
        assert status == 404 and answer["error"].startswith("there is no virtual board")
        assert (await (await client.get("/api/layout")).json())["layout"]["virtual"] is False

    console(virtual=False)(check)
