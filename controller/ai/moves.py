"""Move generation on raw bitboards: every distinct child of a position, already judged.

A position inside the search is two bitboards, ``me`` (the side to move) and ``opp``. A child is
``(hole, t, me_after, opp_after, result)``: place on ``hole``, then twist ``t`` (-1 for a
placement that makes five, which ends the game with no twist). ``result`` follows the classic
rules exactly: five on placement wins at once; after the twist both colours five is a draw, only
the opponent's five is a loss, a full board without five is a draw; None means play goes on.
Twists that give the same board (a neutral block, a symmetric block) are listed once.
A node built with ``replies`` also judges the opponent's answer: a move that play goes on after
but that leaves the opponent a win with its next move gets :data:`LOSES_NEXT`, worked out for
every twist at once from the opponent's wins on the board without the new stone
(:meth:`~.lanes.TwistLanes.safe_holes`), so the search never builds a node only to find it lost
at once.

A :class:`Node` works out what every twist does to the board at once (:mod:`.lanes`) and judges
its children a twist at a time, as sets of holes by result (:meth:`Node.judged`): the search
reads a twist's results from a handful of integers and builds only the children it searches;
:meth:`Node.children` hands them out one by one, for the root and the one-move levels.

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
from .lanes import twist_lanes
from .tables import SearchTables, search_tables

WIN, DRAW, LOSS = 1, 0, -1
LOSES_NEXT = -2  # play goes on, but the opponent can win with its next move

Child = tuple[int, int, int, int, "int | None"]
# per twist: my stones and the opponent's after it, the holes after which play goes on, the best
# known result among the rest and a hole of it, and the rest's holes by result (win, draw, loss,
# loses next)
Judged = tuple[int, int, int, "int | None", int, tuple[int, int, int, int]]


class Node:
    """The moves of one position: what each twist does, and its children judged, twist by twist
    on first use (a search that cuts off early never judges the rest)."""

    __slots__ = ("me", "opp", "tables", "lanes", "replies", "empty", "placement_wins", "_turns", "safe_sets",
                 "_judged", "_seen")

    def __init__(
        self,
        me: int,
        opp: int,
        tables: SearchTables | None = None,
        replies: bool = False,
        safe: list[int] | None = None,
        can_win: bool = True,
    ) -> None:
        """``safe``: this position's safe holes per twist if known (a search that meets the
        position again need not work them out again: :meth:`safe_holes` hands them out).
        ``can_win`` False: the side to move is known to have no win in one (every node the
        search reaches below its root: the move that led there was judged safe), so no win is
        looked for."""
        self.me, self.opp, self.replies = me, opp, replies
        self.tables = tb = tables or search_tables()
        self.lanes = lanes = twist_lanes(tb.geometry.size)
        self.empty = tb.full & ~(me | opp)
        self.placement_wins = tb.completions(me, self.empty) if can_win else 0
        self._turns = lanes.turns(me, opp, can_win)
        self.safe_sets = safe
        self._judged: list[Judged | None] = [None] * len(tb.twists)
        self._seen: set[tuple[int, int]] = set()

    def safe_holes(self) -> list[int]:
        """Per twist, the holes where my stone, then the twist, leaves the opponent no win with
        its next move (worked out for every twist at once, on first use)."""
        if self.safe_sets is None:
            self.safe_sets = self.lanes.safe_holes(self.me, self.opp, self._turns)
        return self.safe_sets

    def judged(self, t: int) -> Judged:
        """Twist ``t``'s children: both colours after the twist (without the stone), the holes
        (where the stone goes) after which play goes on, the best result among the others (None
        if there are none) with one hole that has it, and the others' holes by result. The holes
        whose placement alone makes five are in none of them (:attr:`placement_wins`: no twist
        follows)."""
        known = self._judged[t]
        if known is None:
            known = self._judged[t] = self._judge(t)
        return known

    def _judge(self, t: int) -> Judged:
        tb = self.tables
        full, shift = tb.full, self.lanes.twists.width * t
        mine_lanes, theirs_lanes, their_five, fives = self._turns
        mine, theirs, fives = mine_lanes >> shift & full, theirs_lanes >> shift & full, fives >> shift & full
        holes = self.empty & ~self.placement_wins
        inside = fives & tb.masks[t ^ 1]  # my fives, taken back to the frame the stone is placed in
        wins = (fives ^ inside | tb.turns[t ^ 1][inside] if inside else fives) & holes
        if their_five >> shift & 1:  # the twist gives the opponent five: a draw if it gives me five too
            return _judgement(mine, theirs, 0, 0, wins, holes & ~wins, 0)
        holes &= ~wins
        if not self.empty & (self.empty - 1):  # the last hole: a full board without five
            return _judgement(mine, theirs, 0, wins, holes, 0, 0)
        if not self.replies:
            return _judgement(mine, theirs, holes, wins, 0, 0, 0)
        safe = (self.safe_sets or self.safe_holes())[t] & holes
        if not (wins or holes & ~safe):
            return mine, theirs, safe, None, -1, NOTHING_KNOWN  # the common case, quickly
        return _judgement(mine, theirs, safe, wins, 0, 0, holes & ~safe)

    def child(self, hole: int, t: int) -> Child | None:
        """The child for placing on ``hole`` then twist ``t`` (0 or more), or None if its board was
        handed out already."""
        mine, theirs, *_, results = self.judged(t)
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
        order = list(range(len(self._judged))) if twists is None else list(twists)
        judged, image = self._judged, self.tables.image
        for hole in bits(self.empty & ~wins) if holes is None else holes:
            if wins >> hole & 1:
                continue  # listed above, bare: a placement that makes five takes no twist
            for t in order:
                mine, theirs, *_, results = judged[t] or self.judged(t)
                after = mine | image[t][hole]
                key = (after, theirs)
                if key not in seen:
                    seen.add(key)
                    yield hole, t, after, theirs, _result(results, hole)


NOTHING_KNOWN = (0, 0, 0, 0)


def _judgement(mine: int, theirs: int, play: int, win: int, draw: int, loss: int, loses: int) -> Judged:
    for holes, result in ((win, WIN), (draw, DRAW), (loses, LOSES_NEXT), (loss, LOSS)):
        if holes:
            return mine, theirs, play, result, (holes & -holes).bit_length() - 1, (win, draw, loss, loses)
    return mine, theirs, play, None, -1, (win, draw, loss, loses)


def _result(results: tuple[int, int, int, int], hole: int) -> int | None:
    """The result of placing on ``hole``, from a twist's sets of holes (win, draw, loss, loses
    next) whose result is known."""
    win, draw, loss, loses = results
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
    """True if the side to move can win with its next move (on placement or after a twist)."""
    tb = tables or search_tables()
    if tb.completions(me, tb.full & ~(me | opp)):
        return True
    lanes = twist_lanes(tb.geometry.size)
    _, _, their_five, wins = lanes.turns(me, opp)
    return bool(wins & ~their_five)  # a twist that gives the opponent five is a draw at best
