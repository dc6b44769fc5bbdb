"""Positions: which colour sits in which hole, as one bitboard per colour.

Colours are 0-based indices (0 = the first player's colour in classic play). A position is
immutable; every change returns a new one, so positions can be history entries and dict keys.

>>> from controller.rules.notation import parse_hole
>>> p = Position.empty(6, colours=2).place(parse_hole("b5", geometry(6)), 0)
>>> print(p.diagram())
6 . . . . . .
5 . x . . . .
4 . . . . . .
3 . . . . . .
2 . . . . . .
1 . . . . . .
  a b c d e f
>>> Position.parse(p.text()) == p
True
"""

from __future__ import annotations

from .errors import NotationError
from .geometry import Geometry, bits, geometry

# One symbol per colour in text boards; `.` is an empty hole. x and o follow the oracle data.
SYMBOLS = "xoyz"
EMPTY = "."
MAX_COLOURS = len(SYMBOLS)


class Position:
    """Stones of up to four colours on a 6x6 or 9x9 board."""

    __slots__ = ("geometry", "stones", "_hash")

    def __init__(self, geometry: Geometry, stones: tuple[int, ...]) -> None:
        if not 1 <= len(stones) <= MAX_COLOURS:
            raise ValueError(f"a position has 1 to {MAX_COLOURS} colours, not {len(stones)}")
        self.geometry = geometry
        self.stones = stones
        self._hash = hash((geometry.size, stones))

    @classmethod
    def empty(cls, size: int = 6, colours: int = 2) -> Position:
        return cls(geometry(size), (0,) * colours)

    # -- reading -------------------------------------------------------------------------------

    @property
    def occupied(self) -> int:
        out = 0
        for s in self.stones:
            out |= s
        return out

    @property
    def empty_holes(self) -> int:
        return self.geometry.full & ~self.occupied

    def colour_at(self, hole: int) -> int | None:
        """The colour in ``hole``, or None if it is empty."""
        bit = 1 << hole
        for colour, s in enumerate(self.stones):
            if s & bit:
                return colour
        return None

    def is_full(self) -> bool:
        return self.occupied == self.geometry.full

    def stone_count(self) -> int:
        return self.occupied.bit_count()

    def is_neutral_block(self, block: int) -> bool:
        """True if ``block`` is empty or holds only its centre: turning it changes nothing."""
        g = self.geometry
        return not (self.occupied & g.block_masks[block - 1] & ~(1 << g.centres[block - 1]))

    def has_neutral_block(self) -> bool:
        return any(self.is_neutral_block(b) for b in range(1, self.geometry.block_count + 1))

    def has_five(self, colour: int) -> bool:
        return self.geometry.has_five(self.stones[colour])

    def fives(self, colour: int) -> list[tuple[int, ...]]:
        return self.geometry.fives(self.stones[colour])

    # -- changing ------------------------------------------------------------------------------

    def place(self, hole: int, colour: int) -> Position:
        """A copy with a ``colour`` stone in ``hole`` (which the caller has checked is empty)."""
        stones = list(self.stones)
        stones[colour] |= 1 << hole
        return Position(self.geometry, tuple(stones))

    def lift(self, hole: int) -> Position:
        """A copy with ``hole`` emptied."""
        keep = ~(1 << hole)
        return Position(self.geometry, tuple(s & keep for s in self.stones))

    def rotate(self, block: int, clockwise: bool) -> Position:
        """A copy with ``block`` turned a quarter turn."""
        turn = self.geometry.rotate
        return Position(self.geometry, tuple(turn(s, block, clockwise) for s in self.stones))

    # -- text ----------------------------------------------------------------------------------

    def rows(self, symbols: str = SYMBOLS) -> list[str]:
        """One string per row, top row first, columns a.. left to right (the JSON board).

        ``symbols`` gives each colour's letter (Triple writes ``byr``).
        """
        size = self.geometry.size
        cells = [EMPTY] * self.geometry.hole_count
        for colour, s in enumerate(self.stones):
            for hole in bits(s):
                cells[hole] = symbols[colour]
        return ["".join(cells[r * size:(r + 1) * size]) for r in reversed(range(size))]

    def text(self) -> str:
        """The compact form: rows top to bottom joined by ``/``, e.g. ``......//...``."""
        return "/".join(self.rows())

    def diagram(self) -> str:
        """A labelled board for people: rank numbers on the left, files below."""
        size = self.geometry.size
        lines = [f"{size - i} " + " ".join(row) for i, row in enumerate(self.rows())]
        lines.append("  " + " ".join(chr(ord("a") + c) for c in range(size)))
        return "\n".join(lines)

    @classmethod
    def parse(cls, text: str, colours: int | None = None) -> Position:
        """Read a board from its compact text: rows top to bottom, separated by ``/``.

        The oracle's unseparated 36-character form is accepted too. ``colours`` defaults to the
        highest colour present, at least two.

        >>> Position.parse("x" + "." * 35).colour_at(30)
        0
        >>> Position.parse("...")
        Traceback (most recent call last):
        ...
        controller.rules.errors.NotationError: board '...' has 3 holes; a board has 36 (6x6) or 81 (9x9)
        """
        cells = text.replace("/", "").replace("\n", "").replace(" ", "")
        size = {36: 6, 81: 9}.get(len(cells))
        if size is None:
            raise NotationError(
                f"board {text!r} has {len(cells)} holes; a board has 36 (6x6) or 81 (9x9)"
            )
        bad = sorted(set(cells) - set(SYMBOLS) - {EMPTY})
        if bad:
            raise NotationError(f"board {text!r} has {bad[0]!r}; holes are {EMPTY!r} or {SYMBOLS}")
        used = max((SYMBOLS.index(c) + 1 for c in cells if c != EMPTY), default=0)
        count = colours if colours is not None else max(2, used)
        if used > count:
            raise NotationError(f"board {text!r} has {used} colours, more than {count}")
        stones = [0] * count
        for i, c in enumerate(cells):
            if c != EMPTY:
                row, column = size - 1 - i // size, i % size
                stones[SYMBOLS.index(c)] |= 1 << (row * size + column)
        return cls(geometry(size), tuple(stones))

    # -- identity ------------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and other.geometry is self.geometry
            and other.stones == self.stones
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Position.parse({self.text()!r})"

