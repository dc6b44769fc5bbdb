"""Every twist at once (controller/ai/lanes.py) answers as each twist asked alone does, on both
board sizes, and the frontier's incremental score is the static evaluation's."""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from controller.ai.evaluate import evaluate, their_stone
from controller.ai.lanes import twist_lanes
from controller.ai.moves import has_winning_move
from controller.ai.tables import search_tables
from controller.rules import ClassicGame
from controller.rules.geometry import bits


def position(size: int, seed: int, plies: int) -> tuple[int, int]:
    """The side to move's stones and the other's after up to ``plies`` random moves."""
    rng = random.Random(seed)
    game = ClassicGame(size=size)
    for _ in range(plies):
        game.push(rng.choice(game.legal_moves()))
        if game.is_over():
            game.pop()
            break
    stones = game.position.stones
    return stones[game.colour], stones[1 - game.colour]


sizes_and_positions = st.tuples(st.sampled_from((6, 6, 9)), st.integers(0, 10**6), st.integers(0, 80))


@settings(max_examples=60, deadline=None)
@given(sizes_and_positions)
def test_every_lane_holds_its_twists_board_fives_and_winning_holes(case):
    size, seed, plies = case
    me, opp = position(size, seed, plies)
    tb, lanes = search_tables(size), twist_lanes(size)
    mine, theirs, their_five, wins = lanes.turns(me, opp)
    lane = lanes.twists.lane
    for t in range(len(tb.twists)):
        turned_me, turned_opp = tb.rotate(me, t), tb.rotate(opp, t)
        assert (lane(mine, t), lane(theirs, t)) == (turned_me, turned_opp)
        assert bool(lane(their_five, t)) == tb.has_five(turned_opp)
        expected = tb.full if tb.has_five(turned_me) else tb.completions(turned_me, tb.full & ~(turned_me | turned_opp))
        assert lane(wins, t) == expected


@settings(max_examples=40, deadline=None)
@given(sizes_and_positions)
@example((6, 510511, 24))
@example((9, 7, 60))
def test_a_hole_is_safe_exactly_when_the_opponent_then_has_no_win_in_one(case):
    size, seed, plies = case
    me, opp = position(size, seed, plies)
    tb, lanes = search_tables(size), twist_lanes(size)
    empty = tb.full & ~(me | opp)
    safe = lanes.safe_holes(me, opp, lanes.turns(me, opp))
    for t in range(len(tb.twists)):
        for hole in bits(empty):
            after_me, after_opp = tb.rotate(me | 1 << hole, t), tb.rotate(opp, t)
            if tb.has_five(after_me) or tb.has_five(after_opp) or after_me | after_opp == tb.full:
                continue  # the game is over: its result is judged, not its safety
            assert bool(safe[t] >> hole & 1) == (not has_winning_move(after_opp, after_me, tb)), (t, hole)


@settings(max_examples=100, deadline=None)
@given(sizes_and_positions, st.integers(0, 80))
def test_a_stone_changes_the_evaluation_by_the_lines_through_its_hole(case, pick):
    size, seed, plies = case
    me, opp = position(size, seed, plies)
    tb = search_tables(size)
    empty = bits(tb.full & ~(me | opp))
    if not empty:
        return
    hole = empty[pick % len(empty)]
    change = their_stone(me, opp, tb.lines_through[hole], tb.centres >> hole & 1)
    assert evaluate(me, opp | 1 << hole, tb) == evaluate(me, opp, tb) + change


def test_twists_and_replies_that_give_the_same_board_share_a_lane():
    lanes = twist_lanes(6)
    assert len(lanes.pairs.ways) == 29  # of 64: one board as it was, four halves turned, 24 of two blocks
    assert all(len(twists) == 8 for twists in lanes.members[:1])  # a twist then its reverse: every twist
    counted = sum(len(twists) for twists in lanes.members)
    assert counted == 1 * 8 + 4 * 2 + 24 * 2  # each twist meets 8 replies, in 8 lanes


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(4, 28))
@example(seed=3, plies=20)  # a game in its middle: three plies searched
def test_the_search_reaches_no_position_whose_side_to_move_can_win_at_once(seed, plies):
    """Why its nodes look for no win of their own (Node's ``can_win``): a move after which the
    opponent can win at once is judged a loss and never searched."""
    from controller.ai.budget import Budget
    from controller.ai.search import Searcher, search

    reached = []

    class Watching(Searcher):
        def negamax(self, me, opp, depth, alpha, beta, ply):
            reached.append(has_winning_move(me, opp, self.tables))
            return super().negamax(me, opp, depth, alpha, beta, ply)

    me, opp = position(6, seed, plies)
    search(me, opp, Budget(nodes=3000), searcher=Watching)
    assert not any(reached)  # (a position won at once, or lost whatever is played, searches nothing)
