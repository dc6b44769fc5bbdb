"""Pentago Triple's move notation, as a parse/format pair.

A placement names its colour, then the hole, then the twist: ``Rb5 4R`` (a red marble on b5,
block 4 clockwise); ``Rb5`` alone when the placement completes a pattern (the turn ends there).
A move-phase turn names the marble's hole and where it goes: ``a1-b5 4R``, or ``a1-b5`` when the
move completes a pattern. Colours are ``B`` blue, ``Y`` yellow, ``R`` red; holes are algebraic or
the rulebook's block/position form (``R2/5``); case and spacing are free, the canonical form is
printed.

>>> g = geometry(6)
>>> triple_move_name(parse_triple_move("rB5  4r", g), g)
'Rb5 4R'
>>> triple_move_name(parse_triple_move("A1-b5 1l", g), g), triple_move_name(parse_triple_move("Y2/5", g), g)
('a1-b5 1L', 'Ye5')
>>> parse_triple_move("b5 4R", g)
Traceback (most recent call last):
...
controller.rules.errors.NotationError: 'b5' names no colour: write B, Y or R before the hole, e.g. Rb5 4R
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import COLOUR_LETTERS
from ..errors import NotationError
from ..geometry import Geometry, geometry  # noqa: F401 (geometry: the examples use it)
from ..notation import Twist, hole_name, parse_hole, parse_twist


class TripleMove(NamedTuple):
    """A Triple turn: a ``colour`` marble placed in ``hole`` (``origin`` None), or the marble on
    ``origin`` moved to ``hole`` (``colour`` None); then ``twist``, or None when a pattern made by
    the placement or move ended the turn."""

    hole: int
    colour: int | None = None
    origin: int | None = None
    twist: Twist | None = None

    def is_placement(self) -> bool:
        return self.origin is None


def parse_triple_move(text: str, g: Geometry) -> TripleMove:
    """A Triple move from ``<colour><hole> [<twist>]`` or ``<from>-<to> [<twist>]``."""
    words = text.split()
    if not 1 <= len(words) <= 2:
        raise NotationError(
            f"{text.strip()!r} is not a Triple move: write the colour, the hole and the twist "
            f"(e.g. 'Rb5 4R'), or from-to and the twist (e.g. 'a1-b5 4R')"
        )
    twist = parse_twist(words[1], g) if len(words) == 2 else None
    word = words[0]
    if "-" in word:
        origin, _, target = word.partition("-")
        return TripleMove(parse_hole(target, g), None, parse_hole(origin, g), twist)
    if _is_hole(word, g):
        raise NotationError(f"{word!r} names no colour: write B, Y or R before the hole, e.g. Rb5 4R")
    letter = word[:1].upper()
    if letter not in COLOUR_LETTERS:
        raise NotationError(
            f"{word!r} is not a placement: write the colour (B blue, Y yellow, R red) then the hole, e.g. Rb5"
        )
    return TripleMove(parse_hole(word[1:], g), COLOUR_LETTERS.index(letter), None, twist)


def triple_move_name(move: TripleMove, g: Geometry) -> str:
    """The canonical text of ``move``."""
    if move.origin is not None:
        head = f"{hole_name(move.origin, g)}-{hole_name(move.hole, g)}"
    else:
        assert move.colour is not None, "a placement has a colour"
        head = f"{COLOUR_LETTERS[move.colour]}{hole_name(move.hole, g)}"
    return head if move.twist is None else f"{head} {move.twist}"


def _is_hole(word: str, g: Geometry) -> bool:
    try:
        parse_hole(word, g)
    except NotationError:
        return False
    return True
