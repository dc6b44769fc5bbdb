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

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ..rules import Geometry, Twist, geometry

COMPILED_SIZE = 6  # the one board the compiled search plays: numba freezes its tables into the kernels


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
    landing: tuple[tuple[tuple[int, ...], ...], ...]  # per twist, per hole: the lines through where it lands
    centres: int  # block centres: stones there never move
    has_five: Callable[[int], bool]
    completions: Callable[[int, int], int]

    def rotate(self, stones: int, t: int) -> int:
        """``stones`` with twist ``t`` applied."""
        inside = stones & self.masks[t]
        if not inside:
            return stones
        return (stones ^ inside) | self.turns[t][inside]


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
    landing = tuple(tuple(through[bit.bit_length() - 1] for bit in row) for row in image)
    centres = sum(1 << c for c in g.centres)
    scans = g._five_scans  # (shift, window starts) per direction, shared with the rules
    five = _five_test(scans)
    return SearchTables(
        g, g.full, twists, masks, turns, image, g.lines, through, landing, centres, five, completion_finder(scans)
    )


def _five_test(scans: tuple[tuple[int, int], ...]) -> Callable[[int], bool]:
    """The rules' shift-and-mask five detector, unrolled: it runs at every node."""
    (s1, m1), (s2, m2), (s3, m3), (s4, m4) = scans

    def has_five(x: int) -> bool:
        """True if ``x`` holds five in a row."""
        p = x & x >> s1
        if p & p >> 2 * s1 & x >> 4 * s1 & m1:
            return True
        p = x & x >> s2
        if p & p >> 2 * s2 & x >> 4 * s2 & m2:
            return True
        p = x & x >> s3
        if p & p >> 2 * s3 & x >> 4 * s3 & m3:
            return True
        p = x & x >> s4
        return bool(p & p >> 2 * s4 & x >> 4 * s4 & m4)

    return has_five


def completion_finder(scans: tuple[tuple[int, int], ...]) -> Callable[[int, int], int]:
    """A function giving the holes of ``empty`` where one more stone makes ``x`` five in a row.

    Bit-parallel over every window of five in one direction at once: the windows that lie wholly
    in ``x`` or ``empty`` and hold at least four stones of ``x``; their empty hole completes it.
    """
    steps = tuple((s, 2 * s, 3 * s, 4 * s, m) for s, m in scans)

    def completions(x: int, empty: int) -> int:
        """The holes of ``empty`` that complete a five for ``x``."""
        y = x | empty
        out = 0
        for s1, s2, s3, s4, m in steps:
            w = y & y >> s1
            w &= w >> s2 & y >> s4 & m  # windows with no stone of the other colour
            if w:
                a1, a2, a3 = x >> s1, x >> s2, x >> s3
                p01, p23 = x & a1, a2 & a3
                w &= p01 & p23 | x >> s4 & (p01 & (a2 | a3) | p23 & (x | a1))  # four or five of x
                if w:
                    out |= (w | w << s1 | w << s2 | w << s3 | w << s4) & empty
        return out

    return completions


def wins_and_fives_finder(scans: tuple[tuple[int, int], ...]) -> Callable[[int, int], tuple[int, int]]:
    """:func:`completion_finder`'s twin that also gives the starts of the windows already five
    (one pass for both questions the safe holes ask of the opponent's stones; the plain finder
    stays as it is, since most callers want the holes alone)."""
    steps = tuple((s, 2 * s, 3 * s, 4 * s, m) for s, m in scans)

    def wins_and_fives(x: int, empty: int) -> tuple[int, int]:
        y = x | empty
        out = fives = 0
        for s1, s2, s3, s4, m in steps:
            w = y & y >> s1
            w &= w >> s2 & y >> s4 & m  # windows with no stone of the other colour
            if w:
                a1, a2, a3, a4 = x >> s1, x >> s2, x >> s3, x >> s4
                p01, p23 = x & a1, a2 & a3
                four = p01 & p23
                fives |= w & four & a4
                w &= four | a4 & (p01 & (a2 | a3) | p23 & (x | a1))  # four or five of x
                if w:
                    out |= (w | w << s1 | w << s2 | w << s3 | w << s4) & empty
        return out, fives

    return wins_and_fives
