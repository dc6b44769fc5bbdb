"""Picture-Puzzle practice's dismantle level through the web API (issue 13): the level named in
a new game reaches the game's options, a bad one is a 400 saying why, and a config that
practises preselects the form with its level."""

from __future__ import annotations

from controller.daemon.config import GameDefaults
from controller.profile import load_profile

from .test_app import console as web_console
from .test_app import post, until

PROFILE = load_profile("virtual-9x9")
PRACTICE = {"game": "puzzle", "picture": "orion", "players": 1, "practice": True}


def console(defaults: GameDefaults):
    """The web console of a virtual 9x9 board with ``defaults`` from its config."""
    run = web_console(profile=PROFILE, defaults=defaults)
    return lambda check: run(lambda client, board: check(client))


def test_the_level_of_a_practice_game_reaches_its_options_and_a_bad_one_is_refused():
    async def check(client):
        status, answer = await post(client, "/api/command", {"name": "new_game", "args": {**PRACTICE, "level": 4}})
        assert (status, answer) == (400, {"error": "new_game: level 4: the dismantle levels are 0, 1, 2 and 3"})
        assert (await post(client, "/api/command", {"name": "new_game", "args": {**PRACTICE, "level": 0}}))[0] == 202
        state = await until(client, lambda s: s["options"] and s["options"].get("game") == "puzzle")
        assert (state["options"]["practice"], state["options"]["level"]) == (True, 0)
        assert (await post(client, "/api/command", {"name": "new_game", "args": PRACTICE}))[0] == 202
        state = await until(client, lambda s: s["options"] and s["options"]["level"] == 1)  # no level named: 1

    console(GameDefaults())(check)


def test_a_config_that_practises_preselects_practice_and_its_level():
    async def check(client):
        settings = await (await client.get("/api/layout")).json()
        defaults = settings["defaults"]
        assert (defaults["game"], defaults["players"], defaults["practice"], defaults["level"]) == ("puzzle", 1, True, 3)

    console(GameDefaults(game="puzzle", practice=True, level=3))(check)
