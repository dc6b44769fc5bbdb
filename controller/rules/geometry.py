"""Board geometry: holes, blocks, lines of five and block rotation, as bitboard tables.

A hole is an integer index, ``row * size + column``, with row 0 the bottom row (rank 1) and
column 0 the left column (file a), so ``a1`` is 0 on every board. A set of holes is an integer
bitboard. Blocks are numbered from 1 in reading order (1 is top-left). Everything a game needs in
its inner loop is a precomputed table here: rotation is one dictionary lookup per block and
direction, five-in-a-row detection is a handful of shifts.

>>> g = geometry(6)
>>> g.size, g.block_count, g.hole_count
(6, 4, 36)
>>> len(g.lines)
32
>>> geometry(9).block_count, len(geometry(9).lines)
(9, 140)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

BLOCK_SIDE = 3  # every rotating block is 3x3 holes
FIVE = 5

# Line directions as (column step, row step): right, up, up-right, up-left.
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (-1, 1))


def bits(mask: int) -> list[int]:
    """The hole indices set in ``mask``, lowest first.

    >>> bits(0b10110)
    [1, 2, 4]
    >>> bits(1 << 100 | 1 << 3)  # past the tables' reach too
    [3, 100]
    """
    out: list[int] = []
    for table in _BYTES:  # a byte at a time: the searches list a board's holes at every node
        if not mask:
            return out
        if mask & 255:
            out += table[mask & 255]
        mask >>= 8
    base = 8 * len(_BYTES)
    while mask:
        low = mask & -mask
        out.append(base + low.bit_length() - 1)
        mask ^= low
    return out


# per byte of a mask (enough for a 9x9 board), every value's set bits as hole indices
_BYTES = tuple(tuple(tuple(8 * byte + i for i in range(8) if value >> i & 1) for value in range(256))
               for byte in range(11))


@dataclass(frozen=True, eq=False)
class Geometry:
    """The fixed shape of a square board made of 3x3 rotating blocks."""

    size: int
    blocks_per_side: int = field(init=False)
    block_count: int = field(init=False)
    hole_count: int = field(init=False)
    full: int = field(init=False, repr=False)
    block_holes: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    block_masks: tuple[int, ...] = field(init=False, repr=False)
    block_of: tuple[int, ...] = field(init=False, repr=False)
    centres: tuple[int, ...] = field(init=False, repr=False)
    lines: tuple[int, ...] = field(init=False, repr=False)
    line_holes: tuple[tuple[int, ...], ...] = field(init=False, repr=False)  # each line's holes in order
    rotation: tuple[tuple[dict[int, int], dict[int, int]], ...] = field(init=False, repr=False)
    _five_scans: tuple[tuple[int, int], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.size % BLOCK_SIDE or self.size < 6:
            raise ValueError(f"board size {self.size} is not a multiple of 3 of at least 6")
        self._put("blocks_per_side", self.size // BLOCK_SIDE)
        self._put("block_count", self.blocks_per_side**2)
        self._put("hole_count", self.size * self.size)
        self._put("full", (1 << self.hole_count) - 1)
        blocks = tuple(self._holes_of_block(b) for b in range(1, self.block_count + 1))
        self._put("block_holes", blocks)
        self._put("block_masks", tuple(_mask(holes) for holes in blocks))
        owner = [0] * self.hole_count
        for number, holes in enumerate(blocks, start=1):
            for hole in holes:
                owner[hole] = number
        self._put("block_of", tuple(owner))
        self._put("centres", tuple(holes[4] for holes in blocks))
        ordered = tuple(tuple(line) for line in self._lines_of_five())
        self._put("line_holes", ordered)
        self._put("lines", tuple(_mask(line) for line in ordered))
        self._put("rotation", tuple(_rotation_tables(holes) for holes in blocks))
        self._put("_five_scans", self._scans())

    def _put(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)  # the tables are computed once, then frozen

    def hole(self, column: int, row: int) -> int:
        """The index of the hole at 0-based ``column`` and ``row`` (row 0 at the bottom)."""
        return row * self.size + column

    def column_row(self, hole: int) -> tuple[int, int]:
        """The 0-based column and row of ``hole``."""
        return hole % self.size, hole // self.size

    def is_on_board(self, column: int, row: int) -> bool:
        return 0 <= column < self.size and 0 <= row < self.size

    def rotate(self, stones: int, block: int, clockwise: bool) -> int:
        """The bitboard ``stones`` with ``block`` (1-based) turned 90 degrees.

        >>> g = geometry(6)
        >>> a6, c6 = g.hole(0, 5), g.hole(2, 5)
        >>> g.rotate(1 << a6, 1, True) == 1 << c6
        True
        """
        mask = self.block_masks[block - 1]
        inside = stones & mask
        if not inside:
            return stones
        return (stones ^ inside) | self.rotation[block - 1][0 if clockwise else 1][inside]

    def has_five(self, stones: int) -> bool:
        """True if ``stones`` holds five or more in a row in any direction."""
        for shift, starts in self._five_scans:
            pairs = stones & (stones >> shift)
            if pairs & (pairs >> 2 * shift) & (stones >> 4 * shift) & starts:
                return True
        return False

    def fives(self, stones: int) -> list[tuple[int, ...]]:
        """The maximal runs of five or more in ``stones``, each as holes in order along the run.

        A run of six counts once, as six holes.

        >>> g = geometry(6)
        >>> row = sum(1 << g.hole(c, 0) for c in range(6))
        >>> [len(run) for run in g.fives(row)]
        [6]
        """
        runs: list[int] = []
        for line in self.lines:
            if stones & line == line:
                for i, run in enumerate(runs):
                    if run & line and self._collinear(run, line):
                        runs[i] = run | line
                        break
                else:
                    runs.append(line)
        return [tuple(bits(run)) for run in runs]

    def _collinear(self, run: int, line: int) -> bool:
        a, b = bits(run)[:2]
        c, d = bits(line)[:2]
        return b - a == d - c

    def _holes_of_block(self, number: int) -> tuple[int, ...]:
        """Holes of block ``number`` in reading order (positions 1..9 of the rulebook)."""
        top_row = self.size - 1 - BLOCK_SIDE * ((number - 1) // self.blocks_per_side)
        left = BLOCK_SIDE * ((number - 1) % self.blocks_per_side)
        return tuple(
            self.hole(left + c, top_row - r) for r in range(BLOCK_SIDE) for c in range(BLOCK_SIDE)
        )

    def _lines_of_five(self) -> list[list[int]]:
        lines = []
        for row in range(self.size):
            for column in range(self.size):
                for dc, dr in DIRECTIONS:
                    cells = [(column + k * dc, row + k * dr) for k in range(FIVE)]
                    if all(self.is_on_board(c, r) for c, r in cells):
                        lines.append([self.hole(c, r) for c, r in cells])
        return lines

    def _scans(self) -> tuple[tuple[int, int], ...]:
        """(shift, start mask) per direction for the shift-and-mask five detector."""
        scans = []
        for dc, dr in DIRECTIONS:
            starts = _mask(
                self.hole(c, r)
                for r in range(self.size)
                for c in range(self.size)
                if self.is_on_board(c + 4 * dc, r + 4 * dr)
            )
            scans.append((dr * self.size + dc, starts))
        return tuple(scans)


def _mask(holes: Iterable[int]) -> int:
    out = 0
    for hole in holes:
        out |= 1 << hole
    return out


def _rotation_tables(holes: tuple[int, ...]) -> tuple[dict[int, int], dict[int, int]]:
    """For one block: every subset of its holes mapped to that subset turned R and L."""
    # Position p (0..8, reading order) sits at local (x, y) = (p % 3 - 1, 1 - p // 3).
    # Clockwise seen from above maps (x, y) to (y, -x): the top-left corner goes top-right.
    clockwise = [0] * 9
    for p in range(9):
        x, y = p % 3 - 1, 1 - p // 3
        nx, ny = y, -x
        clockwise[p] = (1 - ny) * 3 + (nx + 1)
    counter = [0] * 9
    for p, q in enumerate(clockwise):
        counter[q] = p
    tables: tuple[dict[int, int], dict[int, int]] = ({}, {})
    for subset in range(512):
        for table, perm in zip(tables, (clockwise, counter)):
            src = _mask(holes[p] for p in range(9) if subset >> p & 1)
            table[src] = _mask(holes[perm[p]] for p in range(9) if subset >> p & 1)
    return tables


@cache
def geometry(size: int) -> Geometry:
    """The shared geometry for a ``size`` x ``size`` board (6 or 9)."""
    if size not in (6, 9):
        raise ValueError(f"board size {size} is not supported (6 or 9)")
    return Geometry(size)
