"""Picture-Puzzle's steps, as a parse/format pair: the physical actions in the order they happen.

A removal is ``-`` and the hole (``-e5``), a twist is the block and its direction (``3R``, ``3L``),
a placement is the hole (``e5``), or the colour letter of the picture format and the hole
(``Re5``) when the colour is not plain from the picture. Holes may also be written in the
rulebook's block/position form (``-2/5``); case is free; the canonical form is printed.

>>> g = geometry(9)
>>> [step_name(parse_step(text, g), g) for text in ("-E5", "3r", "e5", "re5", "R2/5")]
['-e5', '3R', 'e5', 'Re5', 'Re8']
>>> parse_step("Xe5", g)
Traceback (most recent call last):
...
controller.rules.errors.NotationError: 'Xe5' is not a step: write a removal (-e5), a twist (3R) or a placement (e5, or Re5 with the colour: W white, B black, R red, G green)
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from ..errors import NotationError
from ..geometry import Geometry, geometry  # noqa: F401 (geometry: the examples use it)
from ..notation import Twist, hole_name, parse_hole, parse_twist
from .pictures import COLOUR_WORDS, colour_of_letter, letter_of


class Kind(Enum):
    REMOVE = "removal"
    TWIST = "twist"
    PLACE = "placement"


class Step(NamedTuple):
    """One physical action: a removal from ``hole``, a ``twist``, or a placement in ``hole`` of
    ``colour`` (None: the picture's only colour)."""

    kind: Kind
    hole: int | None = None
    twist: Twist | None = None
    colour: int | None = None

    @classmethod
    def remove(cls, hole: int) -> Step:
        return cls(Kind.REMOVE, hole)

    @classmethod
    def turn(cls, twist: Twist) -> Step:
        return cls(Kind.TWIST, twist=twist)

    @classmethod
    def place(cls, hole: int, colour: int | None = None) -> Step:
        return cls(Kind.PLACE, hole, colour=colour)


def parse_step(text: str, g: Geometry) -> Step:
    """The step written ``text`` (see the module doc); NotationError says what a step looks like."""
    word = text.strip()
    if word.startswith("-"):
        return Step.remove(parse_hole(word[1:], g))
    if word[:1].isdigit() and "/" not in word:
        return Step.turn(parse_twist(word, g))
    try:
        return Step.place(parse_hole(word, g))
    except NotationError:
        if colour_of_letter(word[:1]) is None or not word[1:]:
            raise NotationError(
                f"{word!r} is not a step: write a removal (-e5), a twist (3R) or a placement "
                f"(e5, or Re5 with the colour: {COLOUR_WORDS})"
            ) from None
    return Step.place(parse_hole(word[1:], g), colour_of_letter(word[:1]))


def step_name(step: Step, g: Geometry) -> str:
    """The canonical text of ``step``."""
    if step.kind is Kind.TWIST:
        return str(step.twist)
    assert step.hole is not None, "removals and placements name a hole"
    hole = hole_name(step.hole, g)
    if step.kind is Kind.REMOVE:
        return f"-{hole}"
    return hole if step.colour is None else f"{letter_of(step.colour)}{hole}"
