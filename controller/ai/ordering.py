"""Move ordering at the root: the moves most likely to be best are searched first, so
alpha-beta cuts early.

The root's children are sorted once: the move the transposition table remembers first, then by
the static evaluation of the child plus a history bonus for moves that caused cut-offs
elsewhere, and moves that lose (at once, or to the opponent's next move) last. Below the root
the search orders the same way from the scores of one board per twist
(:class:`~controller.ai.search.Searcher`).

>>> from controller.ai.moves import expand
>>> from controller.rules import Position
>>> x, o = Position.parse("oooo.." + "." * 24 + "xx....").stones
>>> moves = order(expand(x, o, replies=True), None, {})  # x to move against o's a6-d6
>>> moves[0][4], moves[-1][4] == LOSES_NEXT  # a move that stops the five first, one that does not last
(None, True)
"""

from __future__ import annotations

from .evaluate import evaluate
from .moves import LOSES_NEXT, LOSS, Child
from .tables import SearchTables, search_tables

FIRST, LAST = 10**9, -(10**9)

History = dict[tuple[int, int], int]


def order(
    children: list[Child],
    remembered: tuple[int, int] | None,
    history: History,
    tables: SearchTables | None = None,
) -> list[Child]:
    """``children`` sorted best-first by evaluation, the ``remembered`` move first."""
    tb = tables or search_tables()

    def key(child: Child) -> int:
        move = (child[0], child[1])
        if child[4] == LOSS or child[4] == LOSES_NEXT:
            return LAST
        if move == remembered:
            return FIRST
        return history.get(move, 0) - evaluate(child[3], child[2], tb)

    return sorted(children, key=key, reverse=True)
