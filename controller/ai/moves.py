"""Move generation on raw bitboards: every distinct child of a position, already judged.

A position inside the search is two bitboards, ``me`` (the side to move) and ``opp``. A child is
``(hole, t, me_after, opp_after, result)``: place on ``hole``, then twist ``t`` (-1 for a
placement that makes five, which ends the game with no twist). ``result`` follows the classic
rules exactly: five on placement wins at once; after the twist both colours five is a draw, only
the opponent's five is a loss, a full board without five is a draw; None means play goes on.
Twists that give the same board (a neutral block, a symmetric block) are listed once.
A node built with ``replies`` also judges the opponent's answer: a move that play goes on after
but that leaves the opponent a win with its next move gets :data:`LOSES_NEXT`, worked out per
twist from the opponent's wins on the board without the new stone (:meth:`~.lanes.TwistLanes.safe_holes`), so the
search never builds a node only to find it lost at once.

A :class:`Node` computes what each twist does to the board once and hands out children lazily,
so a search that cuts off after the first few children never builds the rest.

>>> from controller.rules import Position
>>> me, opp = Position.parse("xxxx.." + "." * 24 + "oooo..").stones
>>> has_winning_move(me, opp)
True
>>> [c for c in expand(me, opp) if c[4] == WIN][0][:2]  # a6-d6 plus e6 (hole 34) is five on placement
(34, -1)
>>> me, opp = Position.parse("x.x..." + "." * 24 + "oooo..").stones
>>> {c[0] for c in expand(me, opp, replies=True) if c[4] != LOSES_NEXT}  # o's a1-d1: only e1 stops it
{4}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..rules.geometry import bits
from .lanes import Turn, twist_lanes
from .tables import SearchTables, search_tables

WIN, DRAW, LOSS = 1, 0, -1
LOSES_NEXT = -2  # play goes on, but the opponent can win with its next move

Child = tuple[int, int, int, int, "int | None"]
# per twist: my stones and the opponent's after it, then its children's holes by result:
# win, draw, loss, loses next, play goes on
Judged = tuple[int, int, int, int, int, int, int]


class Node:
    """The moves of one position: what each twist does, and its children judged, twist by twist
    on first use (a search that cuts off early never judges the rest)."""

    __slots__ = ("me", "opp", "tables", "lanes", "replies", "empty", "placement_wins", "_turns", "_safe",
                 "_judged", "_seen")

    def __init__(
        self,
        me: int,
        opp: int,
        tables: SearchTables | None = None,
        replies: bool = False,
        safe: list[int | None] | None = None,
    ) -> None:
        """``safe``: this position's safe holes per twist as far as known (None: not yet), filled
        in place, so a search that meets the position again need not work them out again."""
        self.me, self.opp, self.replies = me, opp, replies
        self.tables = tb = tables or search_tables()
        self.lanes = lanes = twist_lanes(tb.geometry.size)
        self.empty = tb.full & ~(me | opp)
        self.placement_wins = tb.completions(me, self.empty)
        self._turns = lanes.turns(me, opp)
        self._safe: list[int | None] = [None] * len(tb.twists) if safe is None else safe
        self._judged: list[Judged | None] = [None] * len(tb.twists)
        self._seen: set[tuple[int, int]] = set()

    def turn(self, t: int) -> Turn:
        """Twist ``t`` applied to both colours, whether the opponent then has five, and the
        holes (in the turned frame) where my stone gives me five (all holes if I already have)."""
        return self._turns[t]

    def safe(self, t: int) -> int:
        """The holes where my stone, then twist ``t``, leaves the opponent no win with its next
        move (worked out for every twist at once, on first use)."""
        known = self._safe[t]
        if known is None:
            self._safe[:] = self.lanes.safe_holes(self.me, self.opp, self._turns)
            known = self._safe[t]
        return known  # type: ignore[return-value]

    def judged(self, t: int) -> Judged:
        """Twist ``t``'s children as sets of holes (where the stone goes) by their result, after
        both colours with the twist applied (without the stone). The holes whose placement alone
        makes five are in none of the sets (:attr:`placement_wins`: no twist follows)."""
        known = self._judged[t]
        if known is None:
            known = self._judged[t] = self._judge(t)
        return known

    def _judge(self, t: int) -> Judged:
        tb = self.tables
        mine, theirs, opp_five, fives = self._turns[t]
        holes = self.empty & ~self.placement_wins
        inside = fives & tb.masks[t ^ 1]  # my fives, taken back to the frame the stone is placed in
        wins = (fives ^ inside | tb.turns[t ^ 1][inside] if inside else fives) & holes
        if opp_five:  # the twist gives the opponent five: a draw if it gives me five too
            return mine, theirs, 0, wins, holes & ~wins, 0, 0
        holes &= ~wins
        if not self.empty & (self.empty - 1):  # the last hole: a full board without five
            return mine, theirs, wins, holes, 0, 0, 0
        if not self.replies:
            return mine, theirs, wins, 0, 0, 0, holes
        safe = self.safe(t) & holes
        return mine, theirs, wins, 0, 0, holes & ~safe, safe

    def child(self, hole: int, t: int) -> Child | None:
        """The child for placing on ``hole`` then twist ``t`` (0 or more), or None if its board was
        handed out already."""
        mine, theirs, *results = self.judged(t)
        after = mine | self.tables.image[t][hole]
        if (after, theirs) in self._seen:
            return None
        self._seen.add((after, theirs))
        return hole, t, after, theirs, _result(results, hole)

    def children(
        self,
        holes: Iterable[int] | None = None,
        twists: Iterable[int] | None = None,
        first: tuple[int, int] | None = None,
    ) -> Iterator[Child]:
        """Placement wins, then ``first``, then every ``hole`` x ``twist`` (all, by default)."""
        me, opp, seen, wins = self.me, self.opp, self._seen, self.placement_wins
        for hole in bits(wins):
            seen.add((me | 1 << hole, opp))  # a twist may reach this board too
            yield hole, -1, me | 1 << hole, opp, WIN
        if first is not None and first[1] >= 0 and (child := self.child(*first)) is not None:
            yield child
        order = list(range(len(self._turns))) if twists is None else list(twists)
        judged, image = self._judged, self.tables.image
        for hole in bits(self.empty & ~wins) if holes is None else holes:
            if wins >> hole & 1:
                continue  # listed above, bare: a placement that makes five takes no twist
            for t in order:
                mine, theirs, *results = judged[t] or self.judged(t)
                after = mine | image[t][hole]
                key = (after, theirs)
                if key not in seen:
                    seen.add(key)
                    yield hole, t, after, theirs, _result(results, hole)


def _result(results: list[int], hole: int) -> int | None:
    """The result of placing on ``hole``, from a twist's sets of holes (win, draw, loss, loses
    next, play goes on)."""
    win, draw, loss, loses, _ = results
    if not (win | draw | loss | loses) >> hole & 1:
        return None
    if loses >> hole & 1:
        return LOSES_NEXT
    return WIN if win >> hole & 1 else DRAW if draw >> hole & 1 else LOSS


def expand(me: int, opp: int, tables: SearchTables | None = None, replies: bool = False) -> list[Child]:
    """Every distinct move of the side to move, with the position after it and its result
    (with ``replies``, :data:`LOSES_NEXT` for a move after which the opponent can win at once)."""
    return list(Node(me, opp, tables, replies).children())


def has_winning_move(me: int, opp: int, tables: SearchTables | None = None) -> bool:
    """True if the side to move can win with its next move (on placement or after a twist).

    Without building a node: it skips the work a twist that gives the opponent five does not need.
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
