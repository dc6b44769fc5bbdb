"""Move generation on raw bitboards: every distinct child of a position, already judged.

A position inside the search is two bitboards, ``me`` (the side to move) and ``opp``. A child is
``(hole, t, me_after, opp_after, result)``: place on ``hole``, then twist ``t`` (-1 for a
placement that makes five, which ends the game with no twist). ``result`` follows the classic
rules exactly: five on placement wins at once; after the twist both colours five is a draw, only
the opponent's five is a loss, a full board without five is a draw; None means play goes on.
Twists that give the same board (a neutral block, a symmetric block) are listed once.
A node built with ``replies`` also judges the opponent's answer: a move that play goes on after
but that leaves the opponent a win with its next move gets :data:`LOSES_NEXT`, worked out per
twist from the opponent's wins on the board without the new stone (:func:`_safe_holes`), so the
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
from .tables import SearchTables, search_tables

WIN, DRAW, LOSS = 1, 0, -1
LOSES_NEXT = -2  # play goes on, but the opponent can win with its next move

Child = tuple[int, int, int, int, "int | None"]
Turn = tuple[int, int, bool, int]  # my stones and the opponent's after a twist, their five, my fives


class Node:
    """The moves of one position: what each twist does, computed on first use, and its children."""

    __slots__ = ("me", "opp", "tables", "replies", "empty", "placement_wins", "_turns", "_safe", "_seen")

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
        self.empty = tb.full & ~(me | opp)
        self.placement_wins = tb.completions(me, self.empty)
        self._turns: list[Turn | None] = [None] * len(tb.twists)
        self._safe: list[int | None] = [None] * len(tb.twists) if safe is None else safe
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

    def safe(self, t: int) -> int:
        """The holes where my stone, then twist ``t``, leaves the opponent no win with its next
        move (checked on first use, for this twist's children only)."""
        known = self._safe[t]
        if known is None:
            known = self._safe[t] = _safe_holes(self.turn(t), self.tables, t)
        return known

    def child(self, hole: int, t: int) -> Child | None:
        """The child for placing on ``hole`` then twist ``t`` (0 or more), or None if its board was
        handed out already."""
        mine, theirs, opp_five, fives = self.turn(t)
        bit = self.tables.image[t][hole]
        after = mine | bit
        if (after, theirs) in self._seen:
            return None
        self._seen.add((after, theirs))
        result = _judge(bit & fives, opp_five, after | theirs == self.tables.full)
        if result is None and self.replies and not self.safe(t) >> hole & 1:
            result = LOSES_NEXT
        return hole, t, after, theirs, result

    def children(
        self,
        holes: Iterable[int] | None = None,
        twists: Iterable[int] | None = None,
        first: tuple[int, int] | None = None,
    ) -> Iterator[Child]:
        """Placement wins, then ``first``, then every ``hole`` x ``twist`` (all, by default).

        The loop is :meth:`child` written out (the turn, the safe holes and the judgement read
        inline): it builds every child of the search, so each call saved is a node's worth."""
        me, opp, seen, wins = self.me, self.opp, self._seen, self.placement_wins
        for hole in bits(wins):
            seen.add((me | 1 << hole, opp))  # a twist may reach this board too
            yield hole, -1, me | 1 << hole, opp, WIN
        if first is not None and first[1] >= 0 and (child := self.child(*first)) is not None:
            yield child
        order = list(range(len(self._turns))) if twists is None else list(twists)
        turns, safes, replies = self._turns, self._safe, self.replies
        image, full = self.tables.image, self.tables.full
        for hole in bits(self.empty & ~wins) if holes is None else holes:
            if wins >> hole & 1:
                continue  # listed above, bare: a placement that makes five takes no twist
            for t in order:
                mine, theirs, opp_five, fives = turns[t] or self.turn(t)
                bit = image[t][hole]
                after = mine | bit
                key = (after, theirs)
                if key in seen:
                    continue
                seen.add(key)
                if bit & fives:
                    result: int | None = DRAW if opp_five else WIN
                elif opp_five:
                    result = LOSS
                elif after | theirs == full:
                    result = DRAW
                elif replies:
                    safe = safes[t]
                    if safe is None:
                        safe = self.safe(t)
                    result = None if safe >> hole & 1 else LOSES_NEXT
                else:
                    result = None
                yield hole, t, after, theirs, result


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


def _judge(mine: int, opp_five: bool, full: bool) -> int | None:
    if mine:
        return DRAW if opp_five else WIN
    if opp_five:
        return LOSS
    return DRAW if full else None


def _safe_holes(turn: Turn, tb: SearchTables, t: int) -> int:
    """The holes (before twist ``t``) where my stone, then the twist, leaves the opponent no win in
    one, given ``turn``, the board after twist ``t`` without my stone.

    My stone can only take the opponent's wins away: it fills a hole, or it gives me five under
    the opponent's twist (a draw at best for them). So the wins on the board without my stone say
    it all: for each way the opponent could win (a placement alone, or a placement and one twist),
    a safe hole fills the only hole that wins that way, or makes me five under that twist.
    """
    mine, theirs, opp_five, _ = turn
    if opp_five:
        return 0  # every child of this twist ends the game (judged as a loss or a draw)
    full, masks, turned, has_five, completions = tb.full, tb.masks, tb.turns, tb.has_five, tb.completions
    empty = full & ~(mine | theirs)
    safe = empty
    wins = completions(theirs, empty)
    if wins:
        safe &= wins if not wins & (wins - 1) else 0
    for t2 in range(len(masks)):  # the twists written out (tb.rotate): this loop runs 64 times a node
        if not safe:
            return 0
        mask, turn2 = masks[t2], turned[t2]
        a, b = mine & mask, theirs & mask
        mine2 = mine ^ a | turn2[a] if a else mine
        theirs2 = theirs ^ b | turn2[b] if b else theirs
        empty2 = full & ~(mine2 | theirs2)
        # their stones as they were have no five (opp_five above); the placed stone turns too
        wins = empty2 if theirs2 != theirs and has_five(theirs2) else completions(theirs2, empty2)
        if wins and not has_five(mine2):  # a twist that gives me five is never a win for them
            stop = (wins if not wins & (wins - 1) else 0) | completions(mine2, empty2)
            back = turned[t2 ^ 1]
            inside = stop & mask
            safe &= stop ^ inside | back[inside] if inside else stop
    inside = safe & masks[t ^ 1]
    return safe ^ inside | turned[t ^ 1][inside] if inside else safe
