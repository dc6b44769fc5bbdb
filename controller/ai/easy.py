"""Levels 0 and 1: one move ahead, aware of immediate wins and losses, with seeded randomness.

Level 1 takes a winning move if there is one; otherwise it drops the moves after which the
opponent can win at once (unless every move does), scores the rest by the static evaluation plus
a random jitter drawn from ``seed``, and plays the best. Level 0, the beginner, takes a win and
blocks one the same way, but otherwise plays level 1's choice only a share
(:data:`BEGINNER_CARE`) of its moves and a safe move drawn at random for the rest, so it misses
many chances a greedy child would take (bench/ai_levels.py measures it).

>>> from controller.rules import Position
>>> me, opp = Position.parse("xxxx.." + "." * 24 + "oooo..").stones
>>> easy_move(me, opp, seed=1)
(34, -1)
>>> beginner_move(me, opp, seed=1)
(34, -1)
>>> pick(me, opp, seed=1)[2:]  # a five now: the score of a win in one ply, one node per move
(999999, 216)
"""

from __future__ import annotations

import random

from .evaluate import WIN, evaluate
from .moves import DRAW, Child, expand, has_winning_move
from .moves import WIN as WON
from .tables import SearchTables, search_tables

JITTER = 60  # evaluation units of noise: enough to vary play, not to throw away a clear edge
LOSING = -(10**9)
BEGINNER_CARE = 0.5  # the share of its moves the beginner plays with level 1's care

Pick = tuple[int, int, int, int]  # hole, twist index, score for the mover, nodes (moves looked at)


def easy_move(me: int, opp: int, seed: int = 0, tables: SearchTables | None = None) -> tuple[int, int]:
    """The level-1 move ``(hole, twist index)`` for the side to move."""
    hole, t, _, _ = pick(me, opp, seed, tables)
    return hole, t


def beginner_move(me: int, opp: int, seed: int = 0, tables: SearchTables | None = None) -> tuple[int, int]:
    """The level-0 move ``(hole, twist index)`` for the side to move."""
    hole, t, _, _ = pick(me, opp, seed, tables, care=BEGINNER_CARE)
    return hole, t


def pick(me: int, opp: int, seed: int = 0, tables: SearchTables | None = None, care: float = 1.0) -> Pick:
    """Level 1's move (``care`` 1) or the beginner's (level 1's move with probability ``care``,
    else a random safe move), with its score in the search's units (:data:`WIN` minus plies for
    a proven result)."""
    tb = tables or search_tables()
    rng = random.Random(seed)
    children = expand(me, opp, tb)
    if not children:
        raise ValueError("no legal move: the board is full")
    wins = [c for c in children if c[4] == WON]
    if wins:
        return wins[0][0], wins[0][1], WIN - 1, len(children)
    scored = [(_score(c, tb), c) for c in children]
    if care >= 1.0 or rng.random() < care:
        score, best = max(scored, key=lambda s: s[0] + rng.randrange(JITTER))
    else:
        score, best = rng.choice([s for s in scored if s[0] > LOSING // 2] or scored)
    return best[0], best[1], _reported(score), len(children)


def _score(child: Child, tb: SearchTables) -> int:
    if child[4] is not None:
        return 0 if child[4] == DRAW else LOSING
    if has_winning_move(child[3], child[2], tb):
        return LOSING // 2
    return -evaluate(child[3], child[2], tb)


def _reported(score: int) -> int:
    """A pick's score as the search reports it: lost now, lost in two plies, or the evaluation."""
    if score == LOSING:
        return -(WIN - 1)
    if score == LOSING // 2:
        return -(WIN - 2)
    return score

