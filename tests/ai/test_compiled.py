"""The compiled search (the fast extra): the same scores as the Python search at the same depth,
the same tactics, a budget and a deadline kept, and a clear refusal where numba is missing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.ai import analyse, choose_move, compiled, engine_in_use, to_move
from controller.ai.budget import Budget
from controller.ai.compiled import CHUNK, CompiledSearcher
from controller.ai.evaluate import WIN
from controller.ai.moves import expand
from controller.ai.search import search
from controller.ai.tables import search_tables
from controller.cli import main

from .helpers import ORACLE, game_from, game_of, random_game
from ..commands.test_analyse import O_BLOCKS, X_WINS
from .test_tactics import _opponent_can_win_at_once

pytest.importorskip("numba", reason="the compiled search is the fast extra: pip install '.[fast]'")


def stones(game):
    me, opp = game.position.stones
    return (me, opp) if game.to_move == 1 else (opp, me)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), count=st.integers(4, 30), depth=st.integers(1, 3))
def test_the_compiled_search_scores_every_position_as_the_python_search_does(seed, count, depth):
    game = random_game(seed, count)
    me, opp = stones(game)
    python = search(me, opp, Budget(nodes=10**7), max_depth=depth)
    fast = search(me, opp, Budget(nodes=10**8), max_depth=depth, searcher=CompiledSearcher)
    assert fast.score == python.score  # alpha-beta's value at a depth does not depend on ordering


@pytest.mark.parametrize("entry", ORACLE[::50], ids=lambda e: e["id"])
def test_on_oracle_positions_the_depth_four_scores_agree(entry):
    me, opp = stones(game_of(entry))
    python = search(me, opp, Budget(nodes=10**7), max_depth=4)
    fast = search(me, opp, Budget(nodes=10**8), max_depth=4, searcher=CompiledSearcher)
    assert fast.score == python.score


def test_it_takes_a_win_in_one_and_blocks_the_opponents():
    win = game_from(X_WINS, to_move=1)
    assert win.move_name(choose_move(win, level=2, nodes=5000, engine="compiled")) == "e6"
    block = game_from(O_BLOCKS, to_move=2)
    block.push(choose_move(block, level=2, nodes=5000, engine="compiled"))
    assert not _opponent_can_win_at_once(block)


def test_a_won_endgame_is_seen_through_to_the_win():
    entry = next(e for e in ORACLE if e["id"] == "S-g092-n22")  # the win is 11 plies deep
    game = game_of(entry)
    result = analyse(game, level=2, nodes=3_000_000, engine="compiled")
    assert result.score > WIN - 1000
    assert entry["moves"][game.move_name(to_move(game, *result.move))] == 1


def test_a_node_budget_stops_it_within_the_budget_after_the_first_ply():
    me, opp = stones(game_of(ORACLE[3]))
    result = search(me, opp, Budget(nodes=20_000), searcher=CompiledSearcher)
    assert result.depth >= 1
    assert result.nodes <= 20_000 + len(expand(me, opp))  # the first ply is searched whatever the budget


def test_a_deadline_stops_it_between_chunks_and_it_still_answers():
    me, opp = stones(random_game(1, 6))  # an open position: no search sees its end
    asked = []

    def deadline() -> bool:
        asked.append(1)
        return len(asked) > 3

    result = search(me, opp, Budget(deadline=deadline), searcher=CompiledSearcher)
    assert len(asked) == 4  # asked between iterations and chunks, and it stopped at the first True
    assert result.move in {(c[0], c[1]) for c in expand(me, opp)}


@pytest.mark.parametrize("seed, count", [(1, 6), (2, 10)])
def test_the_deadline_is_asked_after_every_chunk_of_work_however_small_the_root_children(seed, count):
    # in an open position each root child is searched in far less than a chunk of work: the
    # deadline must still be asked after every chunk, not only when a child outgrows one
    me, opp = stones(random_game(seed, count))
    asked, searchers = [], []

    def searcher(budget, tables):
        searchers.append(CompiledSearcher(budget, tables))
        return searchers[-1]

    result = search(me, opp, Budget(nodes=200_000, deadline=lambda: asked.append(1) or False), searcher=searcher)
    assert result.nodes >= 200_000  # the node budget stopped it, not the end of the game
    assert len(asked) >= searchers[0].work // CHUNK > 10


def test_auto_searches_compiled_where_numba_is_and_python_on_nine_by_nine():
    assert engine_in_use("auto") == "compiled"
    assert engine_in_use("compiled", size=9) == "python"


def test_without_numba_compiled_is_refused_naming_the_extra_and_auto_is_python(monkeypatch, capsys):
    monkeypatch.setattr(compiled, "available", lambda: False)
    assert engine_in_use("auto") == "python"
    with pytest.raises(ValueError, match=r"pentago-board\[fast\]"):
        engine_in_use("compiled")
    assert main(["analyse", "--board", X_WINS, "--to-move", "x", "--engine", "compiled"]) == 2
    assert "pentago-board[fast]" in capsys.readouterr().err


def test_an_unknown_engine_is_refused_with_the_engines_named(capsys):
    assert main(["analyse", "--board", X_WINS, "--to-move", "x", "--engine", "turbo"]) == 2
    assert "engine 'turbo' is not one of auto, python, compiled" in capsys.readouterr().err


def test_analyse_with_either_engine_answers_the_same_json_shape(capsys):
    for engine in ("python", "compiled"):
        assert main(["analyse", "--board", ORACLE[5]["board"], "--to-move", ORACLE[5]["to_move"],
                     "--time", "0.1", "--engine", engine, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert set(out) == {"move", "score", "depth", "nodes"} and out["move"] in ORACLE[5]["moves"]


def test_the_tables_it_compiles_are_the_search_tables():
    from controller.ai import kernels

    tb = search_tables(6)
    assert kernels._FULL == tb.full and list(kernels._LINES) == list(tb.lines)
