"""Fuzz of every web route (issue 9, "Keep attacking"): whatever a client sends (any method, path,
body, Host, Origin, token), the console answers below 500, and every refusal is JSON with a
message, never a traceback. The board and the core live on: the state is served afterwards.

The console runs in-process on a real core and virtual board, one server for all examples.
``PENTAGO_FUZZ_EXAMPLES`` sets the examples per test (default 250, the CI's short run); the
figures are printed at the end (``pytest -s``).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections import Counter

import pytest
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.core import Core
from controller.daemon.runtime import Runtime
from controller.daemon.web.app import build_app
from controller.daemon.web.verbs import VERBS
from controller.drivers.virtual import VirtualBoard, VirtualPixels
from controller.profile import load_profile
from tests.daemon.fakes import FakeJournal, FakeNotifier

PROFILE = load_profile("virtual-6x6")
TOKEN = "fuzz-t0ken"
EXAMPLES = int(os.environ.get("PENTAGO_FUZZ_EXAMPLES", "250"))
FIGURES: Counter[str] = Counter()

ROUTES = [("GET", "/"), ("GET", "/static/app.js"), ("GET", "/api/layout"), ("GET", "/api/state"),
          ("GET", "/api/record"), ("GET", "/api/live"), ("POST", "/api/command"),
          *[("POST", f"/api/board/{verb}") for verb in VERBS]]
FIELDS = ["hole", "colour", "block", "steps", "clockwise", "button", "name", "args",
          "game", "players", "computer", "match"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=10**17, max_value=10**40)
    | st.floats() | st.text(max_size=12) | st.sampled_from(["a1", "f6", "2/5", "white", "black", "ok", "new_game"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6) | st.sampled_from(FIELDS), inner, max_size=4),
    max_leaves=10,
)
# Mostly objects with the fields the routes read (so handlers get deep), sometimes anything.
objects = st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=5)
texts = st.one_of(
    objects.map(json.dumps),
    json_values.map(lambda v: json.dumps(v, allow_nan=True)),
    st.integers(1, 60_000).map(lambda n: "[" * n),  # deep nesting
    st.integers(1, 9000).map(lambda n: '{"steps": ' + "9" * n + ', "block": 1}'),  # huge ints
    st.text(max_size=40),
)
bodies = st.one_of(texts.map(str.encode), st.binary(max_size=64))
paths = st.one_of(st.sampled_from([path for _, path in ROUTES]),
                  st.text(max_size=20).map(lambda t: "/api/" + t.replace("?", "")),
                  st.integers(100, 7000).map(lambda n: "/api/board/" + "x" * n))  # echoed back cut short
methods = st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"])
hosts = st.sampled_from(["127.0.0.1:{port}", "localhost:{port}", "[::1]:{port}", "evil.example:{port}",
                         "127.0.0.1", "", "127.0.0.1:1", "[::1", "a:b:c"]) | st.text(max_size=12)
origins = st.none() | st.sampled_from(["http://127.0.0.1:{port}", "http://evil.example", "null",
                                       "http://[::1]:{port}", "file://", "http://[bad"]) | st.text(max_size=12)
tokens = st.sampled_from([TOKEN, TOKEN, TOKEN, "", "wrong"]) | st.text(max_size=8)


@pytest.fixture(scope="module")
def served():
    board = VirtualBoard.from_profile(PROFILE, buttons=("ok", "back"))
    runtime = Runtime(Core(PROFILE), inputs=board, pixels=VirtualPixels(PROFILE.leds.length),
                      journal=FakeJournal(), notifier=FakeNotifier())
    loop = asyncio.new_event_loop()
    client = TestClient(TestServer(build_app(runtime, PROFILE, board=board, token=TOKEN)), loop=loop)
    runtime.start()
    loop.run_until_complete(client.start_server())
    yield loop, client
    loop.run_until_complete(client.close())
    runtime.stop()
    loop.close()
    print(_figures())


def _figures() -> str:
    statuses = {key[1:]: n for key, n in sorted(FIGURES.items()) if key.startswith("#")}
    return f"\nweb fuzz: {FIGURES['requests']} requests; by status {statuses}; 500s: {FIGURES['#500']}"


async def _send(client: TestClient, method: str, path: str, body: bytes, headers: dict[str, str],
                token: str | None) -> tuple[int, str, str]:
    params = {"token": token} if token is not None else None
    async with client.request(method, path, data=body or None, headers=headers, params=params) as response:
        return response.status, response.headers.get("Content-Type", ""), await response.text()


def check(served, method: str, path: str, body: bytes, host: str, origin: str | None, token: str | None) -> None:
    loop, client = served
    port = str(client.port)
    headers = {"Host": host.replace("{port}", port)}
    if origin is not None:
        headers["Origin"] = origin.replace("{port}", port)
    try:
        status, kind, text = loop.run_until_complete(_send(client, method, path, body, headers, token))
    except ValueError:  # a header aiohttp itself will not send (e.g. a newline): nothing reached us
        return
    FIGURES["requests"] += 1
    FIGURES[f"#{status}"] += 1
    assert status < 500, (status, text[:300])
    assert "Traceback" not in text
    if status >= 400:
        assert kind.startswith("application/json"), (status, kind, text[:200])
        error = json.loads(text)["error"]
        assert isinstance(error, str) and error and len(error) < 400


FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))


@FUZZ
@given(route=st.sampled_from(ROUTES), body=bodies, token=tokens)
def test_every_route_with_any_body_answers_below_500_with_a_message(served, route, body, token):
    method, path = route
    check(served, method, path, body, "127.0.0.1:{port}", None, token)


@FUZZ
@given(method=methods, path=paths, body=bodies, host=hosts, origin=origins, token=st.none() | tokens)
def test_any_request_at_all_answers_below_500_with_a_message(served, method, path, body, host, origin, token):
    check(served, method, path, body, host, origin, token)


# Well-formed requests with plausible values, so the virtual board and the core get deep too.
plausible = st.fixed_dictionaries({}, optional={
    "hole": st.sampled_from(["a1", "b1", "c3", "f6", "2/5", "z9"]) | st.integers(-2, 40),
    "colour": st.sampled_from(["white", "black", "pink"]) | st.none(),
    "block": st.integers(0, 5), "steps": st.integers(-30, 30), "clockwise": st.booleans(),
    "button": st.sampled_from(["ok", "back", "start"]),
    "name": st.sampled_from(["new_game", "take_back", "menu", "abort"]),
    "args": st.fixed_dictionaries({}, optional={"game": st.sampled_from(["classic", "chess"]),
                                                "players": st.integers(0, 5), "computer": st.booleans(),
                                                "match": st.booleans() | st.integers()}),
})


@FUZZ
@given(steps=st.lists(st.tuples(st.sampled_from([path for method, path in ROUTES if method == "POST"]), plausible),
                      min_size=1, max_size=6))
def test_plausible_play_answers_below_500(served, steps):
    for path, data in steps:
        check(served, "POST", path, json.dumps(data).encode(), "127.0.0.1:{port}", "http://127.0.0.1:{port}", TOKEN)


def test_the_board_still_answers_after_the_fuzz(served):
    loop, client = served
    status, _, text = loop.run_until_complete(_send(client, "GET", "/api/state", b"", {}, TOKEN))
    assert status == 200 and json.loads(text)["type"] == "state"
    assert FIGURES["#500"] == 0
