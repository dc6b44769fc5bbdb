"""Multiplayer and team seats: every level takes a five now and stops the next seat's five in one;
the threat finder agrees with the rules on random crowded positions."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.ai import choose_move, fallback_move
from controller.ai.family import winning_holes
from controller.ai.family.board import Seating
from controller.rules import MultiplayerGame, Position, TeamGame

from .family_helpers import multiplayer_at, seat_can_score, teams_at

LEVELS = [0, 1, 2, 3]
EMPTY_ROW = "........."


def board(*rows: str) -> str:
    """A 9x9 board from its top rows (the rest empty), rows top first."""
    return "/".join(list(rows) + [EMPTY_ROW] * (9 - len(rows)))


def multiplayer(rows: str, players: int, to_move: int, twist: str = "cw") -> MultiplayerGame:
    return MultiplayerGame(players, twist, position=Position.parse(rows, colours=players), to_move=to_move)


def play(game, level, seed=0):
    game.push(choose_move(game, level=level, seed=seed, nodes=30))
    return game


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [3, 4])
def test_takes_a_five_on_placement(level, players):
    # seat 2 (o) has a1-d1; x threatens too, but o moves now
    game = play(multiplayer(board("xxxx.....", *[EMPTY_ROW] * 7, "oooo....."), players, 2), level)
    assert game.places == ((2,),)
    assert game.move_name(game.moves[-1]) == "e1"


@pytest.mark.parametrize("level", LEVELS)
def test_takes_a_five_made_by_the_twist(level):
    # x has a9 b9 c9 and d8 d7: no hole makes five, but turning block 2 (d7-f9) clockwise takes
    # d8 to e9 and d7 to d9
    game = multiplayer(board("xxx......", "...x.....", "...x.....", EMPTY_ROW, "........o", "y........"), 3, 1)
    assert seat_can_score(game)
    play(game, level)
    assert game.places == ((1,),)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_stops_the_next_seats_five_on_placement(level, players):
    # seat 2 (o) has b1-e1 and x holds a1: f1 is the hole that makes five
    rows = board("x........", *[EMPTY_ROW] * 7, "xoooo....")
    game = multiplayer(rows, players, 1)
    play(game, level)
    assert not seat_can_score(game)


@pytest.mark.parametrize("level", LEVELS)
def test_stops_the_next_seats_five_made_by_a_twist(level):
    # o has a1 b1 c1 and d3 d2: no hole makes five, but turning block 8 (d1-f3)
    # counter-clockwise takes d3 to d1 and d2 to e1
    rows = board("x...x....", *[EMPTY_ROW] * 5, "...o.....", "...o.....", "ooo......")
    assert seat_can_score(multiplayer(rows, 3, 2, twist="both"))
    game = multiplayer(rows, 3, 1, twist="both")
    play(game, level)
    assert not seat_can_score(game)


@pytest.mark.parametrize("level", LEVELS)
def test_teams_build_with_the_partners_colour(level):
    # seat 3 plays x with seat 1: x's four on a1-d1 are the pair's; seat 3 completes them
    game = TeamGame(position=Position.parse(board(*[EMPTY_ROW] * 8, "xxxx.oo.o")), to_move=3)
    play(game, level)
    assert game.outcome is not None and game.outcome.winners == (1, 3)


@pytest.mark.parametrize("level", LEVELS)
def test_teams_stop_the_other_pairs_five(level):
    game = TeamGame(position=Position.parse(board("xx.x.....", *[EMPTY_ROW] * 7, "oooo.....")), to_move=1)
    play(game, level)
    assert not seat_can_score(game)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]), twist=st.sampled_from(["cw", "both"]))
def test_the_threat_finder_agrees_with_the_rules(seed, players, twist):
    game = multiplayer_at(seed, players, twist)
    seating = Seating.of(game)
    assert bool(winning_holes(game.position.stones, game.colour, seating)) == seat_can_score(game)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4]), level=st.sampled_from(LEVELS))
def test_never_leaves_the_next_seat_a_five_when_a_move_avoids_it(seed, players, level):
    game = multiplayer_at(seed, players)
    if seat_can_score(game):
        return  # it takes its own five instead (tested above)
    move = choose_move(game, level=level, seed=seed, nodes=30)
    assert move in game.legal_moves()
    if not _leaves_no_five(game, move):
        # no other move avoids it either: asked of the threat finder (checked against the rules
        # above), since asking the rules of every move takes minutes
        assert not any(_finder_says_no_five(game, m) for m in game.legal_moves())


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), level=st.sampled_from(LEVELS))
def test_team_moves_in_crowded_positions_are_legal_and_careful(seed, level):
    game = teams_at(seed)
    move = choose_move(game, level=level, seed=seed, nodes=30)
    assert move in game.legal_moves()
    if not seat_can_score(game) and not _leaves_no_five(game, move):
        assert not any(_finder_says_no_five(game, m) for m in game.legal_moves())


def test_the_fallback_is_a_legal_move():
    game = multiplayer_at(5, 4)
    assert fallback_move(game, seed=2) in game.legal_moves()


def _finder_says_no_five(game, move) -> bool:
    """:func:`_leaves_no_five` with the threat finder in place of every reply."""
    seat = game.to_move
    game.push(move)
    try:
        if game.is_over():
            return seat in game.outcome.standings[0]
        if game.places:
            return any(seat in place for place in game.places)
        return not winning_holes(game.position.stones, game.colour, Seating.of(game))
    finally:
        game.pop()


def _leaves_no_five(game, move) -> bool:
    """True if after ``move`` the next seat cannot make five in one (or the move itself scored);
    False if it gave another seat five."""
    seat = game.to_move
    game.push(move)
    try:
        if game.is_over():
            return seat in game.outcome.standings[0]
        if game.places:
            return any(seat in place for place in game.places)
        return not seat_can_score(game)
    finally:
        game.pop()


def test_refuses_a_game_awaiting_a_twist():
    game = MultiplayerGame(3)
    game.place(40)
    with pytest.raises(ValueError, match="only when a placement is due, not in phase 'twist'"):
        choose_move(game)


def test_refuses_an_unknown_level():
    with pytest.raises(ValueError, match=r"level 5 is not one of \(0, 1, 2, 3\)"):
        choose_move(TeamGame(), level=5)
