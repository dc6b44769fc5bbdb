"""Precomputed bitboard tables for the search: twists by index, hole images, lines per hole.

The search names a twist by an index ``t`` (block ``t // 2 + 1``, clockwise when ``t`` is even),
so a move inside the search is a pair ``(hole, t)``. Turning a board is one mask and one dict
lookup; where a single placed stone lands after twist ``t`` is one table read.

>>> tables = search_tables(6)
>>> len(tables.twists), len(tables.lines)
(8, 32)
>>> a6, c6 = 30, 32
>>> tables.image[0][a6] == 1 << c6  # twist 0 is block 1 clockwise: a6 goes to c6
True
>>> tables.rotate(1 << a6, 0) == 1 << c6
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..rules import Geometry, Twist, geometry


@dataclass(frozen=True, eq=False)
class SearchTables:
    """Everything the inner loop needs for one board size, computed once."""

    geometry: Geometry
    full: int
    twists: tuple[Twist, ...]
    masks: tuple[int, ...]  # per twist: the holes of its block
    turns: tuple[dict[int, int], ...]  # per twist: block subset -> turned subset
    image: tuple[tuple[int, ...], ...]  # per twist, per hole: the bit where that hole's stone lands
    lines: tuple[int, ...]
    lines_through: tuple[tuple[int, ...], ...]  # per hole: the lines of five containing it
    centres: int  # block centres: stones there never move

    def rotate(self, stones: int, t: int) -> int:
        """``stones`` with twist ``t`` applied."""
        inside = stones & self.masks[t]
        if not inside:
            return stones
        return (stones ^ inside) | self.turns[t][inside]

    def twist_index(self, twist: Twist) -> int:
        """The index of ``twist`` in :attr:`twists`."""
        return self.twists.index(twist)


@cache
def search_tables(size: int = 6) -> SearchTables:
    """The shared tables for a ``size`` x ``size`` board."""
    g = geometry(size)
    twists = tuple(Twist(b, cw) for b in range(1, g.block_count + 1) for cw in (True, False))
    masks = tuple(g.block_masks[tw.block - 1] for tw in twists)
    turns = tuple(g.rotation[tw.block - 1][0 if tw.clockwise else 1] for tw in twists)
    image = tuple(
        tuple(g.rotate(1 << h, tw.block, tw.clockwise) for h in range(g.hole_count)) for tw in twists
    )
    through = tuple(tuple(line for line in g.lines if line >> h & 1) for h in range(g.hole_count))
    centres = sum(1 << c for c in g.centres)
    return SearchTables(g, g.full, twists, masks, turns, image, g.lines, through, centres)
