"""POST /api/command save_picture: the board as it stands saved among the user pictures (a 400
naming what is wrong with a bad title, before the core sees it); the picture then starts a game.
The MQTT command topic checks commands with the same code."""

from __future__ import annotations

import pytest

from controller.daemon.web.api import BadRequest
from controller.daemon.requests import command
from controller.games import Catalogue, PictureStore
from tests.daemon.web.test_app import console, post, until


@pytest.fixture
def user_pictures(tmp_path):
    return PictureStore(tmp_path / "pictures")  # the console's board reads it, and its runtime writes to it


def test_a_saved_board_becomes_a_picture_a_new_game_can_play(user_pictures):
    async def check(client, board):
        for hole, colour in (("a1", "red"), ("c3", "black")):
            assert (await post(client, "/api/board/place", {"hole": hole, "colour": colour}))[0] == 200
        assert await post(client, "/api/command", {"name": "save_picture", "args": {"title": "Two Dots"}}) \
            == (202, {"queued": "save_picture"})
        await until(client, lambda state: "two-dots" in user_pictures.names(6))
        status, answer = await post(client, "/api/command", {"name": "save_picture", "args": {"title": "two  dots"}})
        assert status == 400 and "already in the 6x6 library" in answer["error"]
        await post(client, "/api/board/clear", {})
        assert (await post(client, "/api/command", {"name": "new_game",
                                                     "args": {"game": "puzzle", "picture": "Two Dots"}}))[0] == 202
        state = await until(client, lambda state: (state.get("options") or {}).get("picture") == "two-dots")
        assert state["options"]["game"] == "puzzle"

    console(pictures=user_pictures)(check)


@pytest.mark.parametrize("args, said", [
    ({"title": "a/b"}, "only letters, digits, spaces, - and ' (no '/')"),
    ({"title": ""}, "a title has 1 to 30 characters"),
    ({"title": ["x"]}, "give the picture's title as text"),
    ({}, "give the picture's title as text"),
    ({"title": "Ok", "size": 9}, "save_picture takes no argument 'size'; arguments: title"),
    ({"title": "Square"}, "a picture named 'square' is already in the 6x6 and 9x9 library"),
])
def test_a_bad_title_is_a_400_and_the_daemon_goes_on(user_pictures, args, said):
    async def check(client, board):
        status, answer = await post(client, "/api/command", {"name": "save_picture", "args": args})
        assert status == 400 and said in answer["error"]
        assert (await client.get("/api/state")).status == 200
        with pytest.raises(BadRequest, match="save_picture"):  # the MQTT command topic's check
            command({"name": "save_picture", "args": args}, Catalogue(user_pictures))

    console(pictures=user_pictures)(check)


def test_the_new_game_form_offers_a_saved_picture_once_the_page_reloads_its_layout(user_pictures):
    async def check(client, board):
        def pictures(layout):
            puzzle = next(game for game in layout["layout"]["games"] if game["name"] == "puzzle")
            return [v["value"] for v in next(o for o in puzzle["options"] if o["name"] == "picture")["values"]]

        before = pictures(await (await client.get("/api/layout")).json())
        assert "four-w" not in before and before[0] == "red-cross"  # the 6x6 board's own, easiest first
        await post(client, "/api/board/place", {"hole": "d4", "colour": "green"})
        await post(client, "/api/command", {"name": "save_picture", "args": {"title": "Green Dot"}})
        await until(client, lambda state: state["pictures_saved"] == 1)  # the page's cue to read it afresh
        assert "green-dot" in user_pictures.names(6)
        layout = await (await client.get("/api/layout")).json()
        assert pictures(layout) == [*before, "green-dot"]
        # Issue 22, item 12: under its title, with its difficulty (it was its file name alone).
        assert layout["layout"]["menu"]["pages"]["puzzle"]["picture"][-1] == {
            "value": "green-dot", "means": "Green Dot (difficulty 2/5 on 6x6)"}

    console(pictures=user_pictures)(check)
