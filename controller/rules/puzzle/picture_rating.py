"""How hard a picture is to restore: a rating from 1 (easiest) to 5, from what the rulebook names.

The Multiplayer rulebook says a picture is harder the more blocks it occupies, the less
symmetric it is in shape and in colour, and the more colours and stones it has. Each of these is
measured as a share from 0 (easy) to 1 (hard), weighted, and the weighted mean is spread over
the five steps:

- blocks: the share of the board's blocks holding a stone (a twist of an empty block changes
  nothing, so every occupied block is one more thing to remember);
- stones: the stones against a "full" picture of a third of the holes (more is no harder);
- colours: one colour 0, four colours 1;
- shape: how many of the board's eight symmetries (turns and mirrors of the whole board) leave
  the holes that hold stones where they are, on a halving scale: all eight 0, four 1/3, two
  (one mirror, as a house or a heart has) 2/3, none but the identity 1;
- colour: the same, counting only the symmetries that keep every stone's colour too.

The weights (blocks 2, stones 2, colours 2, shape 1, colour 1.5) were set so the shipped library
spreads over the scale: the one-colour symmetric cross and square at 2, Jackson Pollock at 5. A
rating of 1 is left for very small, very symmetric pictures a teacher makes for the youngest.

>>> from controller.rules.puzzle.pictures import parse_picture
>>> plus = parse_picture("Plus\\n" + ". . . . . . . . .\\n" * 3 + ". . . . R . . . .\\n"
...                      ". . . R R R . . .\\n. . . . R . . . .\\n" + ". . . . . . . . .\\n" * 3)
>>> rate(plus).score, rate(plus).shape_symmetries, rate(plus).blocks
(1, 8, 1)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..geometry import bits
from .pictures import Picture

WEIGHTS = {"blocks": 2.0, "stones": 2.0, "colours": 2.0, "shape": 1.0, "colour": 1.5}
FULL_SHARE = 1 / 3  # a picture covering a third of the holes counts as having "many" stones
STEPS = 5
SYMMETRIES = 8

Transform = Callable[[int, int, int], tuple[int, int]]  # (column, row, size) -> (column, row)

_TRANSFORMS: tuple[Transform, ...] = (
    lambda c, r, n: (c, r),
    lambda c, r, n: (n - 1 - r, c),  # a quarter turn
    lambda c, r, n: (n - 1 - c, n - 1 - r),  # a half turn
    lambda c, r, n: (r, n - 1 - c),  # three quarters
    lambda c, r, n: (n - 1 - c, r),  # mirrored left-right
    lambda c, r, n: (c, n - 1 - r),  # mirrored top-bottom
    lambda c, r, n: (r, c),  # mirrored on a diagonal
    lambda c, r, n: (n - 1 - r, n - 1 - c),  # on the other diagonal
)


@dataclass(frozen=True)
class Difficulty:
    """A picture's rating (``score`` 1-5) and what it was computed from."""

    score: int
    stones: int
    blocks: int
    colours: int
    shape_symmetries: int  # of the eight, those that keep the stones' holes
    colour_symmetries: int  # of those, the ones that keep the colours too

    def words(self) -> str:
        """The rating in a line, as the picture list shows it.

        >>> Difficulty(2, 13, 5, 1, 8, 8).words()
        'difficulty 2/5: 13 stones, 5 blocks, 1 colour, symmetry 8/8 in shape, 8/8 in colour'
        """
        plural = "" if self.colours == 1 else "s"
        return (f"difficulty {self.score}/{STEPS}: {self.stones} stones, {self.blocks} blocks, "
                f"{self.colours} colour{plural}, symmetry {self.shape_symmetries}/{SYMMETRIES} in shape, "
                f"{self.colour_symmetries}/{SYMMETRIES} in colour")


def rate(picture: Picture) -> Difficulty:
    """The difficulty of ``picture`` (see the module doc)."""
    g = picture.position.geometry
    stones, blocks, colours = picture.stone_count, len(picture.blocks_occupied()), len(picture.colours_used)
    shape = sum(_keeps(picture, t, by_colour=False) for t in _TRANSFORMS)
    colour = sum(_keeps(picture, t, by_colour=True) for t in _TRANSFORMS)
    shares = {
        "blocks": blocks / g.block_count,
        "stones": min(1.0, stones / (g.hole_count * FULL_SHARE)),
        "colours": (colours - 1) / 3,
        "shape": 1 - math.log2(shape) / 3,
        "colour": 1 - math.log2(colour) / 3,
    }
    mean = sum(WEIGHTS[k] * shares[k] for k in WEIGHTS) / sum(WEIGHTS.values())
    return Difficulty(1 + round(mean * (STEPS - 1)), stones, blocks, colours, shape, colour)


def _keeps(picture: Picture, transform: Transform, by_colour: bool) -> bool:
    """True if ``transform`` maps the picture's stones onto themselves (with their colours)."""
    position = picture.position
    size = position.geometry.size
    planes = position.stones if by_colour else (position.occupied,)
    for plane in planes:
        moved = 0
        for hole in bits(plane):
            column, row = transform(hole % size, hole // size, size)
            moved |= 1 << (row * size + column)
        if moved != plane:
            return False
    return True
