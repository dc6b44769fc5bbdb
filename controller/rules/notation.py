"""Text notation for holes, twists and moves, as parse/format pairs.

Holes are algebraic (``b5``; columns a.. left to right, rows 1.. bottom to top). The classic
rulebook's block/position form ``2/5`` (block 2, position 5 = centre, positions 1-9 in reading
order) is accepted too. Twists are ``<block><R|L>``, R clockwise seen from above. A move is
``<hole> <twist>`` or a bare ``<hole>`` (a win on placement, or a skipped twist).

Parsing is generous about case and spacing; formatting prints one canonical form.

>>> g = geometry(6)
>>> move_name(parse_move("B5  4r", g), g)
'b5 4R'
>>> move_name(parse_move("2/5 1l", g), g)
'e5 1L'
>>> parse_move("b7 4R", g)
Traceback (most recent call last):
...
controller.rules.errors.NotationError: 'b7' is not a hole on the 6x6 board (columns a-f, rows 1-6)
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .errors import NotationError
from .geometry import Geometry, geometry  # noqa: F401 (geometry: the examples use it)


class Twist(NamedTuple):
    """A quarter turn of one block (1-based), clockwise or counter-clockwise seen from above."""

    block: int
    clockwise: bool

    def __str__(self) -> str:
        return f"{self.block}{'R' if self.clockwise else 'L'}"


class Move(NamedTuple):
    """A placement in ``hole`` followed by ``twist``, or by no twist (None)."""

    hole: int
    twist: Twist | None = None

    # What every game's move says (a Triple move has both as fields): the marble's colour index
    # when the move chose it (here the seat's own: None), and the hole a moved marble came from.
    @property
    def colour(self) -> int | None:
        return None

    @property
    def origin(self) -> int | None:
        return None


_HOLE = re.compile(r"([a-z])(\d{1,2})")
_BLOCK_POSITION = re.compile(r"(\d)/(\d)")
_TWIST = re.compile(r"(\d{1,2})([rl])")
_TWIST_LIKE = re.compile(r"\d+[^/]*")  # a word led by a digit and not block/position: a twist attempt


def hole_name(hole: int, g: Geometry) -> str:
    """The algebraic name of ``hole``.

    >>> hole_name(0, geometry(6)), hole_name(80, geometry(9))
    ('a1', 'i9')
    """
    column, row = g.column_row(hole)
    return f"{chr(ord('a') + column)}{row + 1}"


def parse_hole(text: str, g: Geometry) -> int:
    """The hole named ``text``: algebraic (``b5``) or block/position (``2/5``).

    >>> parse_hole("2/5", geometry(6)) == parse_hole("e5", geometry(6))
    True
    """
    word = text.strip().lower()
    if m := _HOLE.fullmatch(word):
        column, row = ord(m[1]) - ord("a"), int(m[2]) - 1
        if g.is_on_board(column, row):
            return g.hole(column, row)
    elif m := _BLOCK_POSITION.fullmatch(word):
        block, position = int(m[1]), int(m[2])
        if 1 <= block <= g.block_count and 1 <= position <= 9:
            return g.block_holes[block - 1][position - 1]
        raise NotationError(
            f"{text.strip()!r} is not a hole: blocks are 1-{g.block_count}, positions 1-9"
        )
    last = chr(ord("a") + g.size - 1)
    raise NotationError(
        f"{text.strip()!r} is not a hole on the {g.size}x{g.size} board "
        f"(columns a-{last}, rows 1-{g.size})"
    )


def parse_twist(text: str, g: Geometry) -> Twist:
    """A twist from ``4R`` / ``4l`` form.

    >>> parse_twist("3l", geometry(6))
    Twist(block=3, clockwise=False)
    """
    word = text.strip().lower()
    m = _TWIST.fullmatch(word)
    if not m:
        raise NotationError(
            f"{text.strip()!r} is not a twist: write the block number then R (clockwise) "
            f"or L (counter-clockwise), e.g. 4R"
        )
    block = int(m[1])
    if not 1 <= block <= g.block_count:
        raise NotationError(f"{text.strip()!r}: there is no block {block} (blocks 1-{g.block_count})")
    return Twist(block, m[2] == "r")


def parse_move(text: str, g: Geometry) -> Move:
    """A move from ``<hole> [<twist>]``."""
    words = text.split()
    if not 1 <= len(words) <= 2:
        raise NotationError(f"{text.strip()!r} is not a move: write a hole and a twist, e.g. 'b5 4R'")
    hole = parse_hole(words[0], g)
    twist = parse_twist(words[1], g) if len(words) == 2 else None
    return Move(hole, twist)


def move_name(move: Move, g: Geometry) -> str:
    """The canonical text of ``move``."""
    hole = hole_name(move.hole, g)
    return hole if move.twist is None else f"{hole} {move.twist}"


def split_moves(words: list[str], g: Geometry) -> list[str]:
    """Group loose words into move texts: a hole, then its twist if the next word is one.

    Lets a command line take ``b5 4R a1`` as well as ``"b5 4R" a1``. A word led by a digit can
    only be a twist (holes start with a letter, or are ``2/5``), so a bad one such as ``4X``
    stays with its hole and is reported as the twist it tries to be.

    >>> split_moves(["b5 4R", "a1", "c3", "1L"], geometry(6))
    ['b5 4R', 'a1', 'c3 1L']
    >>> split_moves(["b5", "4X", "2/5"], geometry(6))
    ['b5 4X', '2/5']
    """
    tokens = [t for w in words for t in w.split()]
    moves: list[str] = []
    for token in tokens:
        if moves and _TWIST_LIKE.fullmatch(token) and len(moves[-1].split()) == 1:
            moves[-1] += " " + token
        else:
            moves.append(token)
    return moves
