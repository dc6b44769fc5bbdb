"""Every twist at once: a board's images under many twists side by side in lanes of one integer.

The search asks the same questions of a position under each of its twists: where the stones
land, whether either colour then has five, where one more stone makes five; and, to judge a
move, the same of the position under each of the opponent's replies after each of the mover's
twists. In pure Python each question costs a handful of integer operations whatever the size of
the integers, so asking it of every twist at once, on one integer with a lane of
``hole_count + 1`` bits per twist, costs little more than asking it of one (SWAR: SIMD within a
register). A lane's top bit is its flag, which the lane-wise tests (:meth:`Lanes.nonzero`) carry
into; the five and completion scans read only inside a lane, since a window of five that starts
in a lane ends in it.

:class:`Lanes` holds one set of ways to turn the blocks (each way one lane) and builds the lanes
with one table lookup per block. :class:`TwistLanes` has two: the mover's twists, and every
pair of a twist and a reply twist, counted once per distinct result (29 on 6x6 instead of 64:
twists of two different blocks give the same board in either order; a twist and its reverse give
the board back). From them :meth:`TwistLanes.turns` and :meth:`TwistLanes.safe_holes` answer for
all of a position's twists at once.

>>> lanes = twist_lanes(6)
>>> a6, c6 = 30, 32
>>> lanes.twists.lane(lanes.twists.spread(1 << a6), 0) == 1 << c6  # twist 0, block 1 R: a6 to c6
True
>>> fives = lanes.turns(0b1111 << 30, 0)[3]  # a6-d6: where one more stone makes five
>>> lanes.twists.lane(fives, 4) == 1 << 34, lanes.twists.lane(fives, 2)  # block 3 R: e6; block 2 R: none
(True, 0)
>>> len(lanes.pairs.ways), lanes.pairs.ways[0]  # the first way: every block as it was
(29, (0, 0, 0, 0))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from itertools import combinations

from ..rules.geometry import bits
from .tables import SearchTables, completion_finder, search_tables, wins_and_fives_finder

Turns = tuple[int, int, int, int]  # lanes per twist: my stones, theirs, their five, my fives
Way = tuple[int, ...]  # quarter turns clockwise of each block


class Lanes:
    """Boards side by side, one lane per way of turning the blocks (``ways``)."""

    def __init__(self, tables: SearchTables, ways: list[Way]) -> None:
        self.tables = tables
        g = tables.geometry
        self.ways = tuple(ways)
        self.full = tables.full
        holes = g.hole_count
        self.width = width = holes + 1  # a lane's values stay below its top bit, the flag
        self.flag_shift = holes

        def every_lane(value: int) -> int:
            return sum(value << (width * lane) for lane in range(len(ways)))

        self.fulls, self.flags = every_lane(tables.full), every_lane(1 << holes)
        self.ones, self.lows = every_lane(1), every_lane((1 << holes) - 1)
        self.scans = tuple((shift, every_lane(starts)) for shift, starts in g._five_scans)
        self.completions: Callable[[int, int], int] = completion_finder(self.scans)
        self.wins_and_fives = wins_and_fives_finder(self.scans)
        # per block, per quarter turns: a subset of its holes -> that subset turned
        self.quarters = tuple(_quarters(mask, tables) for mask in g.block_masks)
        self.blocks = tuple(zip(g.block_masks, (_Spread(self, b) for b in range(g.block_count))))
        # per lane, the blocks it turns with their turning back (the rest stay as they are)
        self.undoing = tuple(tuple((g.block_masks[b], self.quarters[b][-q % 4]) for b, q in enumerate(way) if q)
                             for way in self.ways)

    def spread(self, stones: int) -> int:
        """``stones`` turned every way: lane ``k`` holds it turned as ``ways[k]``."""
        out = 0
        for mask, table in self.blocks:
            out |= table[stones & mask]
        return out

    def lane(self, lanes: int, k: int) -> int:
        """Lane ``k`` of ``lanes``."""
        return lanes >> (self.width * k) & self.full

    def undone(self, lanes: int, which: int) -> Iterator[tuple[int, int]]:
        """For each lane set in ``which`` (a result of :meth:`nonzero`), lowest first: its number
        and its board in ``lanes`` turned back to the board's own frame."""
        flags, width, full, undoing = which & self.flags, self.width, self.full, self.undoing
        while flags:  # a few lanes of many: bit by bit, not byte by byte
            low = flags & -flags
            flags ^= low
            k = (low.bit_length() - 1) // width
            stones = lanes >> width * k & full
            for mask, back in undoing[k]:
                inside = stones & mask
                stones ^= inside ^ back[inside]
            yield k, stones

    def nonzero(self, lanes: int) -> int:
        """All ones in every lane of ``lanes`` that is not zero, zeros elsewhere."""
        flags = (lanes + self.lows) & self.flags
        return (flags << 1) - (flags >> self.flag_shift)

    def fives(self, lanes: int) -> int:
        """Lanes that hold five in a row (all ones), the rest zero."""
        found = 0
        for shift, starts in self.scans:
            pairs = lanes & lanes >> shift
            found |= pairs & pairs >> 2 * shift & lanes >> 4 * shift & starts
        return self.nonzero(found)

    def several(self, lanes: int) -> int:
        """Lanes that hold two bits or more (all ones), the rest zero."""
        return self.nonzero(lanes & ((lanes | self.flags) - self.ones))  # x & (x - 1), lane by lane


class _Spread(dict[int, int]):
    """One block's holes, every subset mapped to its images in every lane of ``lanes``, each
    worked out when first met: a 9x9 board's 154 pair lanes of 9 blocks would take seconds and
    many megabytes to tabulate whole, and a search meets few of its subsets."""

    def __init__(self, lanes: Lanes, block: int) -> None:
        super().__init__()
        self.turned = lanes.quarters[block]
        # per quarter turns, a one in every lane whose way turns the block so: multiplying a
        # subset turned so by it puts a copy in each of those lanes (a lane holds any board)
        self.copies = tuple(sum(1 << lanes.width * lane for lane, way in enumerate(lanes.ways) if way[block] == q)
                            for q in range(4))

    def __missing__(self, subset: int) -> int:
        image = self[subset] = sum(turned[subset] * copies for turned, copies in zip(self.turned, self.copies))
        return image


class TwistLanes:
    """The mover's twists in lanes (:attr:`twists`) and every twist-and-reply (:attr:`pairs`)."""

    def __init__(self, tables: SearchTables) -> None:
        self.tables = tables
        blocks = tables.geometry.block_count
        quarter = {True: 1, False: 3}  # clockwise, counter-clockwise
        single = [tuple(quarter[tw.clockwise] if b == tw.block - 1 else 0 for b in range(blocks))
                  for tw in tables.twists]
        self.twists = Lanes(tables, single)
        pairs = [tuple(0 for _ in range(blocks))]  # a twist, then its reverse
        pairs += [tuple(2 if b == block else 0 for b in range(blocks)) for block in range(blocks)]  # one twice
        pairs += [tuple(q1 if b == b1 else q2 if b == b2 else 0 for b in range(blocks))
                  for b1, b2 in combinations(range(blocks), 2) for q1 in (1, 3) for q2 in (1, 3)]
        self.pairs = Lanes(tables, pairs)
        lane_of = {way: k for k, way in enumerate(pairs)}
        # per pair lane, the mover's twists it follows (the reply being the other twist)
        members: list[list[int]] = [[] for _ in pairs]
        for t, first in enumerate(single):
            for second in single:
                members[lane_of[tuple((a + b) % 4 for a, b in zip(first, second))]].append(t)
        self.members = tuple(tuple(sorted(set(m))) for m in members)

    def turns(self, me: int, opp: int, can_win: bool = True) -> Turns:
        """Every twist of the side to move, lane ``t`` for twist ``t``: both colours after it,
        whether the opponent then has five (all ones), and the holes (in the turned frame) where
        my stone gives me five (all holes if I already have). A position known to give the side
        to move no win in one (``can_win`` False) has such holes only where the twist gives the
        opponent five too (a draw), so only then are they looked for."""
        lanes = self.twists
        mine, theirs = lanes.spread(me), lanes.spread(opp)
        their_five = lanes.fives(theirs)
        if not (can_win or their_five):
            return mine, theirs, their_five, 0
        fulls = lanes.fulls
        mine_five = lanes.fives(mine)
        wins = (fulls & mine_five) | (lanes.completions(mine, fulls & ~(mine | theirs)) & ~mine_five)
        return mine, theirs, their_five, wins

    def safe_holes(self, me: int, opp: int, turns: Turns) -> list[int]:
        """Per twist ``t`` of the side to move, the holes where my stone, then ``t``, leaves the
        opponent no win in one (``turns``: :meth:`turns` of the same position).

        My stone can only take the opponent's wins away: it fills a hole, or it gives me five
        under the opponent's twist (a draw at best for them). So the wins on the board without
        my stone say it all: for each way the opponent could win (a placement alone, or a
        placement and one twist), a safe hole fills the only hole that wins that way, or makes
        me five under that twist.
        """
        lanes = self.twists  # their placement alone, after each of my twists
        mine, theirs, their_five, _ = turns
        empty = self.tables.full & ~(me | opp)
        safe = [0 if their_five >> lanes.width * t & 1 else empty  # they have five: the game is over
                for t in range(len(lanes.ways))]
        wins = lanes.completions(theirs, lanes.fulls & ~(mine | theirs))
        if wins:
            for t, win in lanes.undone(wins, lanes.nonzero(wins)):
                safe[t] &= win if not win & (win - 1) else 0  # two wins: no stone stops both
        lanes = self.pairs  # a placement and a twist, after each of my twists
        mine2, theirs2 = lanes.spread(me), lanes.spread(opp)
        empty2 = lanes.fulls & ~(mine2 | theirs2)
        wins, fives = lanes.wins_and_fives(theirs2, empty2)
        if fives:  # their five after both twists: any placement wins
            their_five = lanes.nonzero(fives)
            wins = (empty2 & their_five) | (wins & ~their_five)
        threats = lanes.nonzero(wins)
        if threats:
            threats &= ~lanes.fives(mine2)  # a twist that gives me five wins nothing
        if threats:
            stop = (wins & ~lanes.several(wins)) | lanes.completions(mine2, empty2)
            for k, allowed in lanes.undone(stop, threats):
                for t in self.members[k]:
                    safe[t] &= allowed
        return safe


def _quarters(mask: int, tables: SearchTables) -> tuple[dict[int, int], ...]:
    """Every subset of a block's holes turned 0, 1, 2 and 3 quarters clockwise."""
    g = tables.geometry
    block = g.block_masks.index(mask) + 1
    subsets = [0]
    for hole in bits(mask):
        subsets += [s | 1 << hole for s in subsets]
    out: list[dict[int, int]] = [{s: s for s in subsets}]
    for _ in range(3):
        out.append({s: g.rotate(out[-1][s], block, True) for s in subsets})
    return tuple(out)


@cache
def twist_lanes(size: int = 6) -> TwistLanes:
    """The shared lane tables for a ``size`` x ``size`` board, built on first use."""
    return TwistLanes(search_tables(size))
