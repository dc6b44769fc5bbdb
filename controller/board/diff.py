"""Compare a settled physical board with the position the game expects.

The result is a :class:`Diff`: which blocks sit turned (and by how many quarters), which holes
hold a marble the game does not know, which expected marbles are missing or of the wrong colour,
and which holes or blocks cannot be read. The flow decides whether a diff is a legal step; this
module only says what is physically different.

Holes in a diff are named in the frame of the board *after* its turns: a marble placed and then
turned with its block shows where it now sits.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..events import EMPTY, MARBLE
from ..rules import Position
from .physical import Physical


@dataclass(frozen=True)
class Diff:
    """What differs between the sensed board and the expected position (empty: they match)."""

    turns: tuple[tuple[int, int], ...] = ()  # (block, quarters clockwise), quarters != 0
    added: tuple[tuple[int, int | None], ...] = ()  # (hole, sensed colour or None for presence)
    removed: tuple[int, ...] = ()
    recoloured: tuple[tuple[int, int], ...] = ()  # (hole, sensed colour) where another is due
    unsure: tuple[int, ...] = ()  # holes whose sensor cannot tell
    torn: tuple[int, ...] = ()  # blocks whose encoder stands between quarters
    turned_expected: Position | None = None  # the expected position with ``turns`` applied

    def is_same(self) -> bool:
        return not (self.turns or self.added or self.removed or self.recoloured or self.unsure or self.torn)

    def is_clean(self) -> bool:
        """Nothing but turns and added marbles: the kinds of difference a move can make."""
        return not (self.removed or self.recoloured or self.unsure or self.torn)


def compare(expected: Position, physical: Physical, colours: tuple[str, ...]) -> Diff:
    """The :class:`Diff` from ``expected`` to the sensed board.

    ``colours`` names colour index 0, 1, ... as polarity sensors report them; presence sensing
    reads "marble" and carries no colour. Each block's turn is the quarter its encoder allows
    that best fits the readings; ties go to the encoder's nearest quarter.
    """
    turns, torn, turned = [], [], expected
    for block in range(1, expected.geometry.block_count + 1):
        options = physical.quarters(block)
        if not options:
            torn.append(block)
            continue
        quarters, turned = _best_turn(turned, block, options, physical, colours)
        if quarters:
            turns.append((block, quarters))
    holes = _compare_holes(turned, physical.readings, colours)
    return Diff(tuple(turns), *holes, tuple(torn), turned)


def rotated(position: Position, block: int, quarters: int) -> Position:
    """``position`` with ``block`` turned ``quarters`` quarter turns (clockwise positive)."""
    for _ in range(abs(quarters)):
        position = position.rotate(block, quarters > 0)
    return position


def _best_turn(position: Position, block: int, options: tuple[int, ...], physical: Physical,
               colours: tuple[str, ...]) -> tuple[int, Position]:
    holes = position.geometry.block_holes[block - 1]
    best: tuple[int, int, Position] | None = None
    for quarters in options:
        candidate = rotated(position, block, quarters)
        misses = sum(not _fits(candidate.colour_at(h), physical.readings[h], colours) for h in holes)
        if best is None or misses < best[0]:
            best = (misses, quarters, candidate)
    assert best is not None  # options is never empty here
    return best[1], best[2]


def _fits(expected: int | None, reading: str, colours: tuple[str, ...]) -> bool:
    if expected is None:
        return reading == EMPTY
    return reading == MARBLE or _colour(reading, colours) == expected


def _colour(reading: str, colours: tuple[str, ...]) -> int | None:
    return colours.index(reading) if reading in colours else None


def _compare_holes(position: Position, readings: list[str], colours: tuple[str, ...]):
    added, removed, recoloured, unsure = [], [], [], []
    for hole, reading in enumerate(readings):
        want = position.colour_at(hole)
        if reading == EMPTY:
            if want is not None:
                removed.append(hole)
        elif reading == MARBLE:
            if want is None:
                added.append((hole, None))
        elif (sensed := _colour(reading, colours)) is None:  # UNSURE, or a name we do not know
            unsure.append(hole)
        elif want is None:
            added.append((hole, sensed))
        elif sensed != want:
            recoloured.append((hole, sensed))
    return tuple(added), tuple(removed), tuple(recoloured), tuple(unsure)
