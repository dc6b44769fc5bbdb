"""Team Pentago: two pairs, partners opposite, the pair that makes five wins."""

import pytest

from controller.rules import IllegalMoveError, Position, TeamGame, Termination, geometry, parse_hole

from .test_multiplayer import DOUBLE, board

# A full 9x9 board of two colours without five, before or after any twist.
FULL = "xxooxxoox/oxoxoxoxo/ooxxooxxo/xoxoxoxox/oxoxoxoxo/xxooxxoox/xoxoxoxox/oxoxoxoxo/ooxooxoox"


def teams(to_move: int = 1, **stones: str) -> TeamGame:
    return TeamGame(position=board(2, **stones), to_move=to_move)


def test_partners_sit_opposite_and_share_a_colour():
    game = TeamGame()
    seats, colours = [], []
    for move in ("a1 1R", "b2 2R", "c3 3R", "d4 4R", "e5 5R"):
        seats.append(game.to_move)
        colours.append(game.colour)
        game.push_text(move)
    assert seats == [1, 2, 3, 4, 1] and colours == [0, 1, 0, 1, 0]
    assert game.team_of(3) == (1, 3) and game.team_of(2) == (2, 4)


def test_the_team_that_makes_five_wins_both_partners():
    game = teams(to_move=3, x="a9 b9 c9 d9", o="a1 b1")
    game.push_text("e9")  # seat 3 completes the pair's row on placement
    assert game.outcome.termination is Termination.FIVE_ON_PLACEMENT
    assert game.outcome.winners == (1, 3) and game.standings == ((1, 3), (2, 4))


def test_a_five_after_the_twist_wins_for_the_pair():
    game = teams(to_move=2, x="i9", o="a1 a2 a3 d3 e3")
    game.push_text("h8 7R")
    assert game.outcome.winners == (2, 4) and game.standings == ((2, 4), (1, 3))


def test_both_teams_five_after_one_turn_is_a_draw():
    game = teams(**DOUBLE)
    game.push_text("i9 7R")
    assert game.outcome.termination is Termination.BOTH_FIVE
    assert game.outcome.result == "draw" and game.outcome.winners == ()
    assert game.standings == ((1, 2, 3, 4),)


def test_a_full_board_without_five_is_a_draw():
    full = Position.parse(FULL, colours=2)
    last = parse_hole("a1", geometry(9))
    game = TeamGame(position=full.lift(last), to_move=2)  # a1 held o's stone
    game.push_text("a1 7R")
    assert game.outcome.termination is Termination.BOARD_FULL
    assert game.outcome.winners == () and game.standings == ((1, 2, 3, 4),)


def test_team_twists_are_clockwise_unless_both():
    with pytest.raises(IllegalMoveError, match="5L turns counter-clockwise"):
        TeamGame().push_text("e5 5L")
    game = TeamGame(twist="both")
    game.push_text("e5 5L")
    assert game.to_move == 2


def test_team_play_needs_four_players():
    with pytest.raises(ValueError, match=r"^team play needs exactly 4 players \(two pairs\), not 3$"):
        TeamGame(players=3)
    with pytest.raises(ValueError, match="team Pentago is played on the 9x9 board"):
        TeamGame(position=Position.empty(6, 2))
