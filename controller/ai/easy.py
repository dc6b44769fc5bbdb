"""Level 1: one move ahead, aware of immediate wins and losses, with seeded randomness.

It takes a winning move if there is one; otherwise it drops the moves after which the opponent
can win at once (unless every move does), scores the rest by the static evaluation plus a random
jitter drawn from ``seed``, and plays the best.

>>> from controller.rules import Position
>>> me, opp = Position.parse("xxxx.." + "." * 24 + "oooo..").stones
>>> easy_move(me, opp, seed=1)
(34, -1)
"""

from __future__ import annotations

import random

from .evaluate import evaluate
from .moves import DRAW, WIN, Child, expand, has_winning_move
from .tables import SearchTables, search_tables

JITTER = 60  # evaluation units of noise: enough to vary play, not to throw away a clear edge
LOSING = -(10**9)


def easy_move(me: int, opp: int, seed: int = 0, tables: SearchTables | None = None) -> tuple[int, int]:
    """The level-1 move ``(hole, twist index)`` for the side to move."""
    tb = tables or search_tables()
    rng = random.Random(seed)
    children = expand(me, opp, tb)
    if not children:
        raise ValueError("no legal move: the board is full")
    wins = [c for c in children if c[4] == WIN]
    if wins:
        return wins[0][0], wins[0][1]
    best = max(children, key=lambda c: _score(c, tb) + rng.randrange(JITTER))
    return best[0], best[1]


def _score(child: Child, tb: SearchTables) -> int:
    if child[4] is not None:
        return 0 if child[4] == DRAW else LOSING
    if has_winning_move(child[3], child[2], tb):
        return LOSING // 2
    return -evaluate(child[3], child[2], tb)
