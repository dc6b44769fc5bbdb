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
from controller.games import Catalogue, parse_record, replay

from ..fakes import FakeJournal, FakeNotifier

PROFILE = load_profile("virtual-6x6")


def console(token: str = "", virtual: bool = True, bind: str = "127.0.0.1", profile=PROFILE,
            defaults: GameDefaults = GameDefaults(match=True), pictures=None):
    """Run ``check(client, board)`` against a started console; returns its result."""
    board = VirtualBoard.from_profile(profile, buttons=("ok", "back"))
    # the board's games, reading its library, as the daemon makes them
    games = Catalogue.shipped() if pictures is None else Catalogue(pictures)
    runtime = Runtime(Core(profile, catalogue=games), inputs=board, pixels=VirtualPixels(profile.leds.length),
                      journal=FakeJournal(), notifier=FakeNotifier(), games=games)
    app = build_app(runtime, profile, board=board if virtual else None, token=token,
                    defaults=defaults, bind=bind)

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
        assert settings["defaults"] == {"game": "classic", "players": 2, "computer": False, "hints": True, "match": True}
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


@pytest.mark.parametrize("args", [{"game": "classic", "computer": True}, {"game": "triple", "players": 3}])
def test_a_new_game_from_the_page_is_checked_once(args, monkeypatch):
    """The web adapter checks a new game's options into a GameOptions; the core and the flow
    trust it: one check, one rules object for the check and one for the game (it was three
    checks and four rules objects, Triple four and five)."""
    from controller.games.spec import GameSpec
    calls = []
    check, make = GameSpec.options, GameSpec.make
    monkeypatch.setattr(GameSpec, "options", lambda spec, *a, **kw: calls.append("check") or check(spec, *a, **kw))
    monkeypatch.setattr(GameSpec, "make", lambda spec, *a, **kw: calls.append("rules") or make(spec, *a, **kw))

    async def check_once(client, board):
        calls.clear()  # the page's layout checks each game's options once, when the app is built
        assert (await post(client, "/api/command", {"name": "new_game", "args": args}))[0] == 202
        await until(client, lambda s: s["game"] == args["game"] and s["state"] == "awaiting_placement")
        assert sorted(calls) == ["check", "rules", "rules"]

    console()(check_once)


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
    ("/api/board/place", {"hole": 99}, 400, "field 'hole' = 99 is out of range; from 0 to 35"),
    ("/api/board/turn", {"block": 5, "steps": 1}, 400, "field 'block' = 5 is out of range; from 1 to 4"),
    # issue 9 item 6: a turn is bounded by the hardware (a full turn of 6-detent quarters)
    ("/api/board/turn", {"block": 1, "steps": 500000}, 400, "field 'steps' = 500000 is out of range; from -24 to 24"),
    ("/api/board/turn", {"block": 1, "steps": 0}, 400, "field 'steps' = 0 turns nothing; give detents, positive clockwise"),
    # item 17: a colour the board has not
    ("/api/board/place", {"hole": "a1", "colour": "pink"}, 400,
     "colour 'pink' is not a marble colour of this board; one of white, black, blue, yellow, red, green (or leave it out)"),
    ("/api/board/place", {"hole": "a1" * 500}, 400,
     "field 'hole' = 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a...a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1' "
     "is too long (at most 16 characters)"),
    ("/api/command", {"name": "new_game", "args": {"colour": "red"}}, 400,
     "new_game takes no argument 'colour'; arguments: game, players, twist, neutral_skip, names, computer, match, level, hints, "
     "two_colour, mode, cards, seed, personal, bonus, practice, picture, start_k, restore_limit_s, dismantle_limit_s, show_s, check"),
    ("/api/command", {"name": "take_back", "args": {"x": 1}}, 400, "take_back takes no argument 'x'"),
    # a text field holds no control character (a newline, an escape: it goes into the log and the page)
    ("/api/board/press", {"button": "ok\n"}, 400, "field 'button' = 'ok\\n' holds a control character (0x0a)"),
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


@pytest.mark.parametrize("raw, error", [
    ("[" * 10_000, "the request body nests too deeply"),  # issue 9 item 8 (100k: too big, below)
    ('{"hole": ' + "7" * 5000 + "}", "the number 7777777777777777777777777777777777777... is too long (at most 18 digits)"),
    ('{"hole": NaN}', "NaN is not a number the board accepts"),
    ("{'hole': 1}", "the request body is not JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))"),
    (b"\xff\xfe", "the request body is not JSON ('utf-8' codec can't decode byte 0xff in position 0: invalid start byte)"),
    ("x" * 20_000, "the request body is 20000 bytes; at most 16384"),
])
def test_bodies_that_are_not_small_json_get_a_400_before_any_work(raw, error):
    async def check(client, board):
        response = await client.post("/api/board/place", data=raw)
        assert (response.status, await response.json()) == (400, {"error": error})
        assert board.marbles() == {}

    console()(check)


def test_clear_board_lifts_every_marble_in_one_request():
    async def check(client, board):
        for hole in ("a1", "f6", "c3"):
            await post(client, "/api/board/place", {"hole": hole})
        assert await post(client, "/api/board/clear", {}) == (200, {"done": "clear", "lifted": ["a1", "c3", "f6"]})
        assert board.marbles() == {}

    console()(check)


# issue 9 item 7: no other web page may drive the board or read it (CSRF, DNS rebinding)
@pytest.mark.parametrize("headers, status", [
    ({"Origin": "http://evil.example"}, 403),
    ({"Origin": "null"}, 403),
    ({"Host": "evil.example"}, 403),
    ({"Host": "evil.example:{port}", "Origin": "http://evil.example:{port}"}, 403),
    ({"Origin": "http://127.0.0.1:{port}"}, 202),
    ({"Origin": "http://localhost:{port}", "Host": "localhost:{port}"}, 202),
    ({"Host": "[::1]:{port}"}, 202),
    ({}, 202),  # curl and scripts send no Origin
])
def test_state_changes_only_from_this_consoles_own_page(headers, status):
    async def check(client, board):
        port = client.port
        sent = {key: value.format(port=port) for key, value in headers.items()}
        response = await client.post("/api/command", data='{"name": "new_game"}',
                                     headers={"Content-Type": "text/plain", **sent})
        answer = await response.json()
        assert response.status == status, answer
        if status == 403:
            assert answer["error"].startswith("refused: ")
            await asyncio.sleep(0.1)
            assert (await until(client, lambda s: True))["state"] == "choosing"

    console()(check)


def test_a_foreign_page_gets_no_live_socket_and_a_bad_host_no_page():
    async def check(client, board):
        response = await client.get("/api/live", headers={"Origin": "http://evil.example", "Connection": "Upgrade",
                                                          "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                                                          "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
        assert response.status == 403
        assert (await client.get("/", headers={"Host": "evil.example"})).status == 403
        ws = await client.ws_connect("/api/live", headers={"Origin": f"http://127.0.0.1:{client.port}"})
        assert json.loads((await ws.receive()).data)["type"] == "state"
        await ws.close()

    console()(check)


def test_a_wildcard_bind_takes_addresses_and_the_token_but_no_foreign_names():
    async def check(client, board):
        port = client.port
        ok = await client.get("/api/state?token=t0ken", headers={"Host": f"192.168.1.20:{port}"})
        assert ok.status == 200
        rebound = await client.get("/api/state?token=t0ken", headers={"Host": f"pentago.evil.example:{port}"})
        assert rebound.status == 403
        assert (await client.get("/api/state", headers={"Host": f"192.168.1.20:{port}"})).status == 401

    console(token="t0ken", bind="0.0.0.0")(check)


def test_the_layout_names_colours_as_they_look_and_explains_the_lights_and_the_menu():
    async def check(client, board):
        layout = (await (await client.get("/api/layout")).json())["layout"]
        assert layout["looks"]["black"] == {"marble": "#1b1b1f", "light": "violet", "rgb": [90, 0, 160]}
        looks = [entry["looks"] for entry in layout["legend"]["all"]]
        assert len(looks) == len(set(looks)), looks  # issue 22, item 11: one word per colour
        means = {entry["looks"]: entry["means"] for entry in layout["legend"]["all"]}
        assert means["violet"].startswith("turn pixels: black to move, or black won")
        assert means["white"].startswith("turn pixels: white to move, or white won")
        assert means["sky blue"].startswith("the computer's move or a hint")
        # Issue 22, item 1: Triple's prompts light the hole in the marble's colour, and say so.
        assert "on an empty hole in Pentago Triple: the computer's move or a hint, put a yellow marble here" in means["yellow"]
        assert "put a red marble here" in means["red"] and means["red"].startswith("turn pixels: red to move")
        # Issue 31, item 2: each game's own lights, for the page to show first.
        classic = {entry["looks"]: entry["means"] for entry in layout["legend"]["games"]["classic"]}
        assert classic["violet"].startswith("turn pixels: black to move, or black won") and "yellow" not in classic
        # Issue 31, item 4: the light under a new marble, in the games judged at once (not Triple: judged settled)
        assert classic["violet"].endswith("; under a new marble: dim while the board reads it, full once the board "
                                          "has accepted it (until its twist); on a block's arrow: dim while the board "
                                          "reads the block turning that way for the twist due (the turn light moves on "
                                          "once the twist is accepted)")
        assert "sky blue" in classic and len(classic) < len(means)
        triple = {entry["looks"]: entry["means"] for entry in layout["legend"]["games"]["triple"]}
        assert "put a yellow marble here" in triple["yellow"] and not any("Picture-Puzzle" in m for m in triple.values())
        assert not any("under a new marble" in m or "block's arrow" in m for m in triple.values())
        assert layout["menu"]["games"] == [{"value": "classic", "means": "Classic Pentago"},
                                           {"value": "triple", "means": "Pentago Triple"},
                                           {"value": "puzzle", "means": "Picture-Puzzle"}]
        assert layout["menu"]["pages"]["classic"]["computer"] == [
            {"value": False, "means": "two players at the board"},
            {"value": True, "means": "play against the computer (it plays seat 2)"},
            {"value": [1], "means": "the computer plays seat 1 (it starts)"},
            {"value": [1, 2], "means": "the computer plays every seat (a game to watch)"}]
        assert [option["value"] for option in layout["menu"]["pages"]["classic"]["level"]] == [None, 0, 1, 2, 3]

    console()(check)


def test_the_layout_offers_the_board_s_games_with_their_options_and_seat_colours():
    from controller.daemon.web.layout import layout
    from controller.profile import load_profile

    six = {g["name"]: g for g in layout(load_profile("virtual-6x6"), virtual=True)["games"]}
    assert list(six) == ["classic", "triple", "puzzle"] and six["triple"]["marbles"] == ["blue", "yellow", "red"]
    assert six["puzzle"]["marbles"] == ["white", "black", "red", "green"]  # the picture letters W, B, R, G
    assert six["triple"]["seats"]["4"] == ["white", "black", "green", "magenta"]  # no seat wears a marble's colour
    games = {g["name"]: g for g in layout(load_profile("virtual-9x9"), virtual=True)["games"]}
    assert list(games) == ["classic", "multiplayer", "teams", "puzzle"] and games["teams"]["title"] == "Team Pentago"
    players = next(o for o in games["multiplayer"]["options"] if o["name"] == "players")
    assert players["default"] == 3 and players["menu"] and [v["value"] for v in players["values"]] == [2, 3, 4]
    assert games["multiplayer"]["seats"]["4"] == ["white", "black", "red", "green"]
    assert games["teams"]["seats"] == {"4": ["white", "black", "white", "black"]}


def test_your_hand_offers_every_seat_colour_the_board_s_games_use():
    """Issue 10, item 7: a third and fourth seat's marbles may be put on the 9x9 virtual board
    (the page's "Your hand"; the verbs refuse any other colour), and the form knows how long a
    seat's name may be."""
    from controller.daemon.web.layout import layout, marble_colours
    from controller.profile import load_profile

    assert marble_colours(layout(load_profile("virtual-6x6"), virtual=True)) == (  # Picture-Puzzle's green too
        "white", "black", "blue", "yellow", "red", "green")
    nine = layout(load_profile("virtual-9x9"), virtual=True)
    assert marble_colours(nine) == ("white", "black", "red", "green")
    assert nine["name_chars"] == 24


def test_a_black_marble_from_your_hand_is_no_white_move_on_the_virtual_board():
    """Issue 9, item 17: the virtual board tells every colour apart, so "Your hand" picking black
    on seat 1's turn is refused, and the page is told which colour is due."""
    async def check(client, board):
        assert (await post(client, "/api/command", {"name": "new_game", "args": {"game": "classic"}}))[0] == 202
        await until(client, lambda s: s["state"] == "awaiting_placement")
        assert (await post(client, "/api/board/place", {"hole": "c3", "colour": "black"}))[0] == 200
        state = await until(client, lambda s: s["repair"])
        assert state["repair"] == ["remove the black marble on c3: the next marble is white"]
        assert state["moves"] == [] and state["to_move"] == 1  # no move taken (repair mode, or soon)
        await post(client, "/api/board/lift", {"hole": "c3"})
        await post(client, "/api/board/place", {"hole": "c3", "colour": "white"})
        state = await until(client, lambda s: s["state"] == "awaiting_twist")
        assert state["repair"] == [] and state["physical"][3] == "..x..."

    console()(check)


def test_clear_board_turns_a_block_left_mid_turn_back_then_lifts_every_marble():
    """Issue 22, item 4: Clear board failed with 409 "block 3 is mid-turn" after a one-detent twist."""
    from controller.daemon.web.verbs import clear
    from controller.drivers.virtual import VirtualBoard, VirtualBoardError

    board = VirtualBoard(6, sensing="colour", detents_per_quarter=6)
    board.start(lambda event: None)
    board.place("b2", "white")
    board.place("e5", "black")
    board.turn(3, 1)
    assert board.offsets() == {3: 1}
    try:
        board.lift("b2")
        raise AssertionError("lifted from a block mid-turn")
    except VirtualBoardError as error:
        assert str(error) == "cannot lift a marble from b2: block 3 is mid-turn; finish its turn or turn it back"
    assert clear(board) == {"done": "clear", "lifted": ["b2", "e5"]}
    assert board.offsets() == {} and board.marbles() == {}
