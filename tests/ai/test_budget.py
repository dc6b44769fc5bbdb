"""Deterministic for a fixed seed and node budget; the deadline stops deeper search, never depth 1."""

import pytest

from controller.ai import analyse, choose_move
from controller.ai.budget import POLL_EVERY, Budget, OutOfBudget

from .helpers import ORACLE, game_of, random_game


def test_same_seed_and_budget_give_the_same_move_and_effort():
    for seed in range(3):
        game = random_game(seed, 12)
        first = analyse(game, seed=seed, nodes=1500)
        again = analyse(game, seed=seed, nodes=1500)
        assert first == again


def test_level_one_varies_with_the_seed_on_an_open_board():
    game = random_game(0, 0)
    moves = {choose_move(game, level=1, seed=seed) for seed in range(12)}
    assert len(moves) > 1


def test_node_budget_is_kept_after_the_first_iteration():
    game = random_game(5, 10)
    result = analyse(game, nodes=800)
    first_iteration = analyse(game, nodes=1).nodes  # depth 1 always completes
    assert result.depth >= 1
    assert result.nodes <= max(800, first_iteration) + 1


def test_an_expired_deadline_still_returns_the_depth_one_move():
    game = random_game(3, 14)
    calls = []

    def deadline() -> bool:
        calls.append(1)
        return True

    result = analyse(game, deadline=deadline)
    assert result.depth == 1
    assert calls  # the deadline was consulted before going deeper


def test_a_later_deadline_allows_a_deeper_search():
    # a drawn position whose search neither proves a result nor runs out of moves before the deadline
    game = game_of(next(entry for entry in ORACLE if entry["id"] == "S-g026-n23"))
    ticks = iter(range(10**9))

    def deadline() -> bool:
        return next(ticks) > 40  # true after 41 polls: every POLL_EVERY nodes and between iterations

    result = analyse(game, deadline=deadline)
    assert result.depth >= 2
    assert result.nodes >= 30 * POLL_EVERY


def test_a_costly_node_asks_the_deadline_at_each_tick():
    asked = []

    def deadline() -> bool:
        asked.append(1)
        return len(asked) >= 3

    budget = Budget(deadline=deadline)
    budget.tick_costly()
    budget.tick_costly()
    with pytest.raises(OutOfBudget, match="deadline reached"):
        budget.tick_costly()
    assert budget.nodes == 3 and len(asked) == 3  # far fewer than POLL_EVERY nodes: asked at each


def test_the_python_search_asks_the_deadline_every_poll_of_nodes():
    game = random_game(1, 6)  # open: the node budget, not the end of the game, stops the search
    asked = []
    first_iteration = analyse(game, nodes=1).nodes  # searched in full before the deadline is asked
    result = analyse(game, nodes=20_000, deadline=lambda: asked.append(1) or False)
    assert len(asked) >= (result.nodes - first_iteration) // POLL_EVERY


def test_the_garbage_collector_is_off_while_a_search_runs_and_as_it_was_after():
    """A full collection mid-search overran the deadline (bench/ai_deadline.py); the search makes
    no reference cycles, so it runs with the collector off and leaves it as it found it."""
    import gc

    game = random_game(3, 20)
    seen: list[bool] = []
    analyse(game, nodes=2000, progress=lambda result: seen.append(gc.isenabled()))
    assert seen and not any(seen)
    assert gc.isenabled()
    gc.disable()
    try:
        analyse(game, nodes=500)
        assert not gc.isenabled()  # off before, off after: a caller's choice is kept
    finally:
        gc.enable()
