"""Every move the opponent returns is legal; bad calls fail with a clear ValueError."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.ai import choose_move
from controller.rules import ClassicGame, Phase

from .helpers import random_game


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), stones=st.integers(0, 34), level=st.sampled_from([0, 1, 2, 3]))
def test_the_move_is_legal_in_random_positions(seed, stones, level):
    game = random_game(seed, stones)
    move = choose_move(game, level=level, seed=seed, nodes=300)
    assert move in game.legal_moves()
    game.push(move)  # the rules accept it as a whole move


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_move_of_a_whole_game_between_levels_is_legal(seed):
    game = ClassicGame()
    levels = (1, 2)
    while not game.is_over():
        move = choose_move(game, level=levels[game.to_move - 1], seed=seed, nodes=200)
        assert move in game.legal_moves(), game
        game.push(move)


def test_refuses_a_game_awaiting_a_twist():
    game = ClassicGame()
    game.place(0)
    with pytest.raises(ValueError, match="only when a placement is due, not in phase 'twist'"):
        choose_move(game)


def test_refuses_a_finished_game():
    game = ClassicGame()
    for text in ["a1 1R", "b2 1R", "a2 1L", "b3 1R", "a3 1L", "b4 2R", "a4 2R", "c4 2R", "a5"]:
        game.push_text(text)
    assert game.phase is Phase.OVER
    with pytest.raises(ValueError, match="not in phase 'over'"):
        choose_move(game)


def test_refuses_an_unknown_level():
    with pytest.raises(ValueError, match=r"level 4 is not one of \(0, 1, 2, 3\)"):
        choose_move(ClassicGame(), level=4)


def test_refuses_a_multiplayer_game():
    with pytest.raises(ValueError, match="two-player games, not 3 players"):
        choose_move(ClassicGame(size=9, players=3))


def test_refuses_a_node_budget_below_one():
    with pytest.raises(ValueError, match="node budget must be at least 1, not 0"):
        choose_move(ClassicGame(), nodes=0)
