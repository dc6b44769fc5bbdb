"""The web API's new-game checks for Pentago Triple's options: a bad one is a 400 naming it,
before the core sees it, exactly as for the other games."""

from __future__ import annotations

import pytest

from tests.daemon.web.test_app import console, post, until


@pytest.mark.parametrize(("args", "error"), [
    ({"cards": "BYRYX"}, "new_game: cards 'BYRYX': 'BYRYX' is not a card: write five colour letters B, Y or R, e.g. BYRYB"),
    ({"seed": -1}, "new_game: seed -1: a whole number from 0 to 2147483647"),
    ({"personal": True, "bonus": True}, "new_game: mode: personal cards and the bonus game are two different games: choose one"),
    ({"players": 3, "cards": ["BYRYB"]}, "new_game: 3 players need 2 face-up cards, not 1"),
    ({"mode": "duel"}, "new_game: mode 'duel': the modes are 'shared', 'personal' and 'bonus'"),
    ({"two_colour": True, "cards": "BYRYB"},
     "new_game: two-colour play needs cards in exactly two colours; these use blue, yellow, red"),
])
def test_a_bad_triple_option_is_a_400_naming_it(args: dict, error: str) -> None:
    async def check(client, board):
        body = {"name": "new_game", "args": {"game": "triple", **args}}
        assert await post(client, "/api/command", body) == (400, {"error": error})

    console()(check)


def test_good_triple_options_start_the_game_and_the_state_shows_its_cards() -> None:
    async def check(client, board):
        body = {"name": "new_game", "args": {"game": "triple", "players": 3, "mode": "bonus", "cards": "BYRYB,RRYBB"}}
        assert (await post(client, "/api/command", body))[0] == 202
        state = await until(client, lambda s: s["game"] == "triple")
        assert state["cards"] == ["BYRYB"] and state["marbles"] == ["blue", "yellow", "red"]
        assert state["taken"] == {"1": [], "2": [], "3": []} and state["eliminated"] == []
        assert state["options"]["mode"] == "bonus"

    console()(check)
