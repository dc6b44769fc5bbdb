"""The board's grid as the hardware sees it: holes, their names and the 3x3 blocks that turn.

Drivers know the hardware and nothing of games, so they do not use the rules' geometry (its
lines of five and bitboards are game knowledge); this is the little they need, from the size
alone. Holes are ``row * size + column`` with a1 = 0; blocks are numbered from 1 in reading
order (1 is top-left); clockwise is seen from above.

>>> grid = Grid(6)
>>> grid.block_count, grid.hole_count, grid.name(14), grid.hole("c3"), grid.hole("2/5")
(4, 36, 'c3', 14, 28)
>>> grid.name(grid.turned(grid.hole("a1"), clockwise=True))  # block 3's corner goes to its top
'a3'
"""

from __future__ import annotations

import re

SIDE = 3  # every block is 3x3 holes
_NAME = re.compile(r"([a-z])(\d{1,2})")
_BLOCK_POSITION = re.compile(r"(\d)/(\d)")


class Grid:
    """A ``size`` x ``size`` board of 3x3 blocks (size a multiple of 3, at least 6)."""

    def __init__(self, size: int) -> None:
        if size % SIDE or size < 2 * SIDE:
            raise ValueError(f"board size {size} is not a multiple of 3 of at least 6")
        self.size = size
        self.per_side = size // SIDE
        self.block_count = self.per_side**2
        self.hole_count = size * size

    def name(self, hole: int) -> str:
        """The algebraic name of ``hole`` (``a1`` is 0)."""
        row, column = divmod(hole, self.size)
        return f"{chr(ord('a') + column)}{row + 1}"

    def hole(self, text: str) -> int:
        """The hole named ``text``: ``c3``, or block/position as the rulebook writes it (``2/5``,
        positions 1-9 in reading order); ValueError naming the text otherwise."""
        word = text.strip().lower()
        if (m := _NAME.fullmatch(word)) and ord(m[1]) - ord("a") < self.size and 1 <= int(m[2]) <= self.size:
            return (int(m[2]) - 1) * self.size + ord(m[1]) - ord("a")
        if (m := _BLOCK_POSITION.fullmatch(word)) and 1 <= int(m[1]) <= self.block_count and m[2] != "0":
            return self.block_holes(int(m[1]))[int(m[2]) - 1]
        last = chr(ord("a") + self.size - 1)
        raise ValueError(f"{text.strip()!r} is not a hole on the {self.size}x{self.size} board "
                         f"(columns a-{last}, rows 1-{self.size}, or block/position such as 2/5)")

    def block_of(self, hole: int) -> int:
        row, column = divmod(hole, self.size)
        return (self.per_side - 1 - row // SIDE) * self.per_side + column // SIDE + 1

    def block_holes(self, block: int) -> tuple[int, ...]:
        """The block's nine holes in reading order (top row first, left to right)."""
        top, left = self._corner(block)
        return tuple((top - r) * self.size + left + c for r in range(SIDE) for c in range(SIDE))

    def turned(self, hole: int, clockwise: bool) -> int:
        """Where the marble on ``hole`` sits after its block turns a quarter."""
        top, left = self._corner(self.block_of(hole))
        row, column = divmod(hole, self.size)
        down, across = top - row, column - left  # inside the block, from its top-left hole
        down, across = (across, SIDE - 1 - down) if clockwise else (SIDE - 1 - across, down)
        return (top - down) * self.size + left + across

    def _corner(self, block: int) -> tuple[int, int]:
        """The row and column of the block's top-left hole."""
        r, c = divmod(block - 1, self.per_side)
        return self.size - 1 - r * SIDE, c * SIDE
