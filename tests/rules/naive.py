"""A deliberately plain reference for the rules: a 2-D list and a loop over every line.

Tests compare the bitboard engine with it; bench/rules_throughput.py measures against it.
Rows are indexed from the bottom (row 0 = rank 1), like the engine's holes.
"""

from __future__ import annotations

Board = list[list[int | None]]  # board[row][column] = colour or None


def board_of(position) -> Board:
    size = position.geometry.size
    board: Board = [[None] * size for _ in range(size)]
    for hole in range(size * size):
        board[hole // size][hole % size] = position.colour_at(hole)
    return board


def has_five(board: Board, colour: int) -> bool:
    size = len(board)
    for row in range(size):
        for column in range(size):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                cells = [(column + k * dc, row + k * dr) for k in range(5)]
                if all(0 <= c < size and 0 <= r < size and board[r][c] == colour for c, r in cells):
                    return True
    return False


def rotate(board: Board, block: int, clockwise: bool) -> Board:
    """Turn block (1-based, reading order from the top-left) a quarter turn seen from above."""
    size = len(board)
    per_side = size // 3
    top = size - 1 - 3 * ((block - 1) // per_side)
    left = 3 * ((block - 1) % per_side)
    out = [row[:] for row in board]
    for i in range(3):  # i: rows down from the block's top
        for j in range(3):  # j: columns right from the block's left
            # clockwise: the cell at (i, j) moves to (j, 2 - i)
            ni, nj = (j, 2 - i) if clockwise else (2 - j, i)
            out[top - ni][left + nj] = board[top - i][left + j]
    return out


def children(board: Board, colour: int, colours: int) -> list[tuple[Board, bool]]:
    """Every (board after place + twist, any colour has five) for the mover, no shortcuts."""
    size = len(board)
    out = []
    for row in range(size):
        for column in range(size):
            if board[row][column] is not None:
                continue
            placed = [r[:] for r in board]
            placed[row][column] = colour
            for block in range(1, (size // 3) ** 2 + 1):
                for clockwise in (True, False):
                    after = rotate(placed, block, clockwise)
                    out.append((after, any(has_five(after, c) for c in range(colours))))
    return out
