"""Move ordering: the moves most likely to be best are searched first, so alpha-beta cuts early.

Near the root (a node searched two or more plies deep) every child is built and sorted: the
move the transposition table remembers first, then by the static evaluation of the child plus a
history bonus for moves that caused cut-offs elsewhere, and moves that hand the opponent five
last. At the frontier children are handed out lazily: holes by what the placement is worth
before the twist (extending own open lines, blocking the opponent's), twists by how often each
caused a cut-off.

>>> from controller.ai.moves import Node
>>> from controller.rules import Position
>>> me, opp = Position.parse("oooo.." + "." * 24 + "xx....").stones[::-1]
>>> frontier_holes(Node(me, opp))[0] in (34, 35)  # block the opponent's four on e6 or f6
True
"""

from __future__ import annotations

from ..rules.geometry import bits
from .evaluate import evaluate
from .moves import LOSES_NEXT, LOSS, Child, Node
from .tables import SearchTables, search_tables

PLACE_WEIGHTS = (1, 4, 20, 120, 800, 0)  # by own stones already in an open line through the hole
BLOCK_WEIGHTS = (0, 3, 15, 100, 700, 0)  # by opponent stones in a line that the hole blocks
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


def frontier_holes(node: Node) -> list[int]:
    """The empty holes of ``node``, the most valuable placement first."""
    values = {h: hole_value(h, node.me, node.opp, node.tables) for h in bits(node.empty)}
    return sorted(values, key=values.__getitem__, reverse=True)


def twist_order(cutoffs: list[int]) -> list[int]:
    """Twist indices, those that caused the most cut-offs first."""
    return sorted(range(len(cutoffs)), key=cutoffs.__getitem__, reverse=True)


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
