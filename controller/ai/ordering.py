"""Move ordering: the moves most likely to be best are searched first, so alpha-beta cuts early.

Order of preference: the move the transposition table remembers, then moves by a score. Near the
root (``depth >= 2``) the score is the static evaluation of the child, which is dear but pays for
itself; at the frontier it is cheap: how much the placed hole adds to open lines of both colours
(extending its own lines, blocking the opponent's) plus a history bonus for moves that caused
cut-offs elsewhere. Moves that hand the opponent five go last.

>>> from controller.ai.moves import expand
>>> from controller.rules import Position
>>> me, opp = Position.parse("oooo.." + "." * 24 + "xx....").stones[::-1]
>>> best = order(me, opp, expand(me, opp), None, {}, 1)[0]
>>> best[0] in (34, 35)  # block the opponent's four on e6/f6 (before any twist)
True
"""

from __future__ import annotations

from collections.abc import Callable

from .evaluate import evaluate
from .moves import LOSS, Child
from .tables import SearchTables, search_tables

PLACE_WEIGHTS = (1, 4, 20, 120, 800, 0)  # by own stones already in an open line through the hole
BLOCK_WEIGHTS = (0, 3, 15, 100, 700, 0)  # by opponent stones in a line that the hole blocks
FIRST, LAST = 10**9, -(10**9)

History = dict[tuple[int, int], int]


def order(
    me: int,
    opp: int,
    children: list[Child],
    remembered: tuple[int, int] | None,
    history: History,
    depth: int,
    tables: SearchTables | None = None,
) -> list[Child]:
    """``children`` of ``(me, opp)`` sorted best-first for a node searched ``depth`` plies deep."""
    tb = tables or search_tables()
    if depth >= 2:
        value = _evaluation_value(tb)
    else:
        value = _placement_value(me, opp, tb)

    def key(child: Child) -> int:
        move = (child[0], child[1])
        if child[4] == LOSS:
            return LAST
        if move == remembered:
            return FIRST
        return value(child) + history.get(move, 0)

    return sorted(children, key=key, reverse=True)


def _evaluation_value(tb: SearchTables) -> Callable[[Child], int]:
    return lambda child: -evaluate(child[3], child[2], tb)


def _placement_value(me: int, opp: int, tb: SearchTables) -> Callable[[Child], int]:
    values: dict[int, int] = {}

    def value(child: Child) -> int:
        hole = child[0]
        if hole not in values:
            values[hole] = hole_value(hole, me, opp, tb)
        return values[hole]

    return value


def hole_value(hole: int, me: int, opp: int, tables: SearchTables | None = None) -> int:
    """What placing on ``hole`` is worth before the twist: lines it extends plus lines it blocks."""
    tb = tables or search_tables()
    total = 0
    for line in tb.lines_through[hole]:
        a = me & line
        b = opp & line
        if not b:
            total += PLACE_WEIGHTS[a.bit_count()]
        elif not a:
            total += BLOCK_WEIGHTS[b.bit_count()]
    return total
