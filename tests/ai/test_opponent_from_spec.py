"""The computer's opponent is the one the game's spec names (GameSpec.opponent), carried by the
core's Think to the search; a caller that names none gets the game's variant's, and both agree."""

from __future__ import annotations

import pytest

from controller.ai import OPPONENTS, choose_move, fallback_move, opponent_of
from controller.games import GAMES, get
from controller.rules import ClassicGame, MultiplayerGame

from ..core.test_computer import ComputerRig


@pytest.mark.parametrize("spec", [s for s in GAMES if s.computer], ids=lambda s: s.name)
def test_every_game_the_computer_plays_names_its_opponent_and_the_default_agrees(spec) -> None:
    for size in spec.sizes:
        game = spec.make(spec.options({}, size), size)
        assert spec.opponent in OPPONENTS and opponent_of(game) == spec.opponent


@pytest.mark.parametrize(("start", "opponent"), [
    ({"game": "classic", "computer": [1]}, "search"),
    ({"game": "triple", "computer": [1], "seed": 3}, "triple"),
])
def test_the_cores_request_carries_the_specs_opponent(start, opponent) -> None:
    rig = ComputerRig(start=start)
    think = rig.thinks[-1]
    assert think.opponent == opponent == get(start["game"]).opponent
    move = choose_move(think.game, level=1, seed=0, opponent=think.opponent)
    assert move in think.game.legal_moves()


def test_an_opponent_that_does_not_play_the_game_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="the triple opponent plays Pentago Triple, not classic"):
        choose_move(ClassicGame(), level=1, opponent="triple")
    with pytest.raises(ValueError, match="the family opponent does not play classic"):
        fallback_move(ClassicGame(), opponent="family")
    with pytest.raises(ValueError, match="the search analyses classic Pentago, not multiplayer"):
        choose_move(MultiplayerGame(3), level=1, opponent="search")
