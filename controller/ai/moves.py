"""Move generation on raw bitboards: every distinct child of a position, already judged.

A position inside the search is two bitboards, ``me`` (the side to move) and ``opp``. A child is
``(hole, t, me_after, opp_after, result)``: place on ``hole``, then twist ``t`` (-1 for a
placement that makes five, which ends the game with no twist). ``result`` follows the classic
rules exactly: five on placement wins at once; after the twist both colours five is a draw, only
the opponent's five is a loss, a full board without five is a draw; None means play goes on.
Twists that give the same board (a neutral block, a symmetric block) are listed once.

A :class:`Node` computes what each twist does to the board once and hands out children lazily,
so a search that cuts off after the first few children never builds the rest.

>>> from controller.rules import Position
>>> me, opp = Position.parse("xxxx.." + "." * 24 + "oooo..").stones
>>> has_winning_move(me, opp)
True
>>> [c for c in expand(me, opp) if c[4] == WIN][0][:2]  # a6-d6 plus e6 (hole 34) is five on placement
(34, -1)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..rules.geometry import bits
from .tables import SearchTables, search_tables

WIN, DRAW, LOSS = 1, 0, -1

Child = tuple[int, int, int, int, "int | None"]
Turn = tuple[int, int, bool, int]  # my stones and the opponent's after a twist, their five, my fives


class Node:
    """The moves of one position: what each twist does, computed on first use, and its children."""

    __slots__ = ("me", "opp", "tables", "empty", "placement_wins", "_turns", "_seen")

    def __init__(self, me: int, opp: int, tables: SearchTables | None = None) -> None:
        self.me, self.opp = me, opp
        self.tables = tb = tables or search_tables()
        self.empty = tb.full & ~(me | opp)
        self.placement_wins = tb.completions(me, self.empty)
        self._turns: list[Turn | None] = [None] * len(tb.twists)
        self._seen: set[tuple[int, int]] = set()

    def turn(self, t: int) -> Turn:
        """Twist ``t`` applied to both colours, whether the opponent then has five, and the
        holes (in the turned frame) where my stone gives me five (all holes if I already have)."""
        known = self._turns[t]
        if known is None:
            tb = self.tables
            mine, theirs = tb.rotate(self.me, t), tb.rotate(self.opp, t)
            fives = tb.full if tb.has_five(mine) else tb.completions(mine, tb.full & ~(mine | theirs))
            known = self._turns[t] = (mine, theirs, tb.has_five(theirs), fives)
        return known

    def has_win(self) -> bool:
        """True if the side to move can win with its next move (on placement or after a twist)."""
        if self.placement_wins:
            return True
        return any(fives and not opp_five for _, _, opp_five, fives in map(self.turn, range(len(self._turns))))

    def child(self, hole: int, t: int) -> Child | None:
        """The child for placing on ``hole`` then twist ``t`` (0 or more), or None if its board was
        handed out already."""
        mine, theirs, opp_five, fives = self.turn(t)
        bit = self.tables.image[t][hole]
        after = mine | bit
        if (after, theirs) in self._seen:
            return None
        self._seen.add((after, theirs))
        return hole, t, after, theirs, _judge(bit & fives, opp_five, after | theirs == self.tables.full)

    def children(
        self,
        holes: Iterable[int] | None = None,
        twists: Iterable[int] | None = None,
        first: tuple[int, int] | None = None,
    ) -> Iterator[Child]:
        """Placement wins, then ``first``, then every ``hole`` x ``twist`` (all, by default)."""
        for hole in bits(self.placement_wins):
            self._seen.add((self.me | 1 << hole, self.opp))  # a twist may reach this board too
            yield hole, -1, self.me | 1 << hole, self.opp, WIN
        if first is not None and first[1] >= 0 and (child := self.child(*first)) is not None:
            yield child
        order = list(range(len(self._turns))) if twists is None else list(twists)
        for hole in bits(self.empty & ~self.placement_wins) if holes is None else holes:
            if self.placement_wins >> hole & 1:
                continue  # listed above, bare: a placement that makes five takes no twist
            for t in order:
                if (child := self.child(hole, t)) is not None:
                    yield child


def expand(me: int, opp: int, tables: SearchTables | None = None) -> list[Child]:
    """Every distinct move of the side to move, with the position after it and its result."""
    return list(Node(me, opp, tables).children())


def has_winning_move(me: int, opp: int, tables: SearchTables | None = None) -> bool:
    """True if the side to move can win with its next move (on placement or after a twist).

    The same answer as :meth:`Node.has_win`, without building a node: the search asks this at
    every leaf, so it skips the work a twist that gives the opponent five does not need.
    """
    tb = tables or search_tables()
    full, completions, has_five, rotate = tb.full, tb.completions, tb.has_five, tb.rotate
    if completions(me, full & ~(me | opp)):
        return True
    for t in range(len(tb.twists)):
        theirs = rotate(opp, t)
        if has_five(theirs):
            continue  # this twist gives the opponent five: a draw at best
        mine = rotate(me, t)
        if has_five(mine) or completions(mine, full & ~(mine | theirs)):
            return True
    return False


def _judge(mine: int, opp_five: bool, full: bool) -> int | None:
    if mine:
        return DRAW if opp_five else WIN
    if opp_five:
        return LOSS
    return DRAW if full else None
