"""It takes an immediate win, on placement or by the twist, and blocks the opponent's."""

import pytest

from controller.ai import choose_move
from controller.rules import ClassicGame

from .helpers import game_from

LEVELS = [0, 1, 2, 3]


def play(game: ClassicGame, level: int) -> ClassicGame:
    game.push(choose_move(game, level=level, nodes=2000))
    return game


@pytest.mark.parametrize("level", LEVELS)
def test_takes_a_five_on_placement(level):
    game = play(game_from("xxxx.. ...... ...... ...... ...... oooo.o"), level)
    assert game.outcome is not None and game.outcome.termination.value == "five on placement"
    assert game.outcome.winners == (1,)


@pytest.mark.parametrize("level", LEVELS)
def test_takes_a_five_made_by_the_twist(level):
    # x has a6 b6 c6 and d5 d4: no hole makes five, but turning block 2 clockwise brings d5 and
    # d4 to e6 and d6. o's c1 threat does not matter: x moves first.
    game = play(game_from("xxx... ...x.. ...x.. ...... o..... oo.oo."), level)
    assert game.outcome is not None and game.outcome.termination.value == "five after twist"
    assert game.outcome.winners == (1,)


@pytest.mark.parametrize("level", LEVELS)
def test_blocks_a_five_on_placement(level):
    # o has a2-d2: e2 makes five at once; only a stone on e2 stops it.
    game = game_from("x..x.. ...... ...... ...... oooo.. x.....")
    assert _opponent_can_win_at_once(game_from("x..x.. ...... ...... ...... oooo.. x.....", to_move=2))
    play(game, level)
    assert game.move_name(game.moves[-1]).startswith("e2")
    assert not _opponent_can_win_at_once(game)


@pytest.mark.parametrize("level", LEVELS)
def test_blocks_a_five_made_by_a_twist(level):
    # o has a1 b1 c1 and d3 d2: turning block 4 counter-clockwise brings d3 d2 to d1 e1.
    board = "x....x ..x.x. x..... ...o.. ...o.. ooo..."
    assert _opponent_can_win_at_once(game_from(board, to_move=2))
    game = play(game_from(board), level)
    assert not _opponent_can_win_at_once(game)


def _opponent_can_win_at_once(game: ClassicGame) -> bool:
    assert game.outcome is None
    for move in game.legal_moves():
        game.push(move)
        won = game.outcome is not None and game.outcome.winners == (game.to_move,)
        game.pop()
        if won:
            return True
    return False
