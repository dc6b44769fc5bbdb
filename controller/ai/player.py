"""The computer opponent's entry point: a legal move for the seat to move, at a chosen level.

Level 1 looks one move ahead: it takes a win, avoids moves that hand the opponent a win, and
picks among the rest by the static evaluation with some seeded randomness. Level 2 searches by
iterative deepening (see :mod:`controller.ai.search`); level 3 the same with a larger default
budget. A search stops when ``deadline()`` turns True or after ``nodes`` nodes; with neither,
each level has a default node budget, so a call without a deadline is exactly repeatable.

>>> from controller.rules import ClassicGame
>>> game = ClassicGame()
>>> for text in ["a1 1R", "b2 1R", "a2 1L", "b3 1R", "a3 1L", "b4 2R", "a4 2R"]:
...     game.push_text(text)
>>> game.move_name(choose_move(game, level=2))[:2]  # seat 2 must stop a1-a4 becoming five
'a5'
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules import ClassicGame, Move, Phase
from .budget import Budget
from .easy import easy_move
from .search import SearchResult, search
from .tables import search_tables

DEFAULT_NODES = {2: 10_000, 3: 60_000}  # about 0.4 s and 2.5 s of CPU on a desktop core
LEVELS = (1, 2, 3)
# Thinking time per move to build a deadline from, in seconds on a Raspberry Pi 4-class CPU
# (about four times slower than the desktop core bench/ai_oracle.py was measured on). The caller
# owns the clock; the search only calls the deadline.
THINK_SECONDS = {1: 0.0, 2: 1.5, 3: 6.0}


def choose_move(
    game: ClassicGame,
    *,
    level: int = 2,
    deadline: Callable[[], bool] | None = None,
    seed: int = 0,
    nodes: int | None = None,
) -> Move:
    """A legal move for the seat to move in ``game``.

    ``deadline`` returns True once time is up (build it from :data:`THINK_SECONDS`); ``nodes``
    caps the search at that many nodes; ``seed`` breaks ties (level 2 and 3) or adds noise
    (level 1). Depth 1 is always searched in full, so an early deadline still gets a move that
    takes any immediate win and avoids handing the opponent one where possible.

    Raises ValueError if the game does not await a placement, is not a two-player game, or
    ``level`` is not 1, 2 or 3.
    """
    me, opp = _bitboards(game, level)
    if level == 1:
        hole, t = easy_move(me, opp, seed, search_tables(game.geometry.size))
    else:
        hole, t = analyse(game, level=level, deadline=deadline, seed=seed, nodes=nodes).move
    return to_move(game, hole, t)


def analyse(
    game: ClassicGame,
    *,
    level: int = 2,
    deadline: Callable[[], bool] | None = None,
    seed: int = 0,
    nodes: int | None = None,
) -> SearchResult:
    """The full search result (move, score, depth, nodes) behind :func:`choose_move`.

    ``level`` only picks the default node budget here (level 1 has no search of its own and
    gets level 2's).
    """
    me, opp = _bitboards(game, level)
    if nodes is None and deadline is None:
        nodes = DEFAULT_NODES.get(level, DEFAULT_NODES[2])
    tables = search_tables(game.geometry.size)
    return search(me, opp, Budget(nodes, deadline), seed=seed, tables=tables)


def to_move(game: ClassicGame, hole: int, t: int) -> Move:
    """The rules' :class:`Move` for the search's ``(hole, twist index)``."""
    if t < 0:
        return Move(hole)
    return Move(hole, search_tables(game.geometry.size).twists[t])


def _bitboards(game: ClassicGame, level: int) -> tuple[int, int]:
    if level not in LEVELS:
        raise ValueError(f"level {level!r} is not one of {LEVELS}")
    if game.players != 2:
        raise ValueError(f"the computer opponent plays two-player games, not {game.players} players")
    if game.phase is not Phase.PLACE:
        raise ValueError(f"the computer opponent moves only when a placement is due, not in phase {game.phase.value!r}")
    stones = game.position.stones
    return stones[game.colour], stones[1 - game.colour]
