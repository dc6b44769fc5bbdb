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
    loose: tuple[int, ...] = ()  # neutral blocks between quarters: no matter to the position
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
    turns, torn, loose, turned = [], [], [], expected
    for block in range(1, expected.geometry.block_count + 1):
        found = _turn_of(turned, block, physical, colours)
        if found is None:
            (loose if expected.is_neutral_block(block) else torn).append(block)
            continue
        quarters, turned = found
        if quarters:
            turns.append((block, quarters))
    holes = _compare_holes(turned, physical.readings, colours)
    return Diff(tuple(turns), *holes, tuple(torn), tuple(loose), turned)


def rotated(position: Position, block: int, quarters: int) -> Position:
    """``position`` with ``block`` turned ``quarters`` quarter turns (clockwise positive)."""
    for _ in range(abs(quarters)):
        position = position.rotate(block, quarters > 0)
    return position


def _turn_of(position: Position, block: int, physical: Physical,
             colours: tuple[str, ...]) -> tuple[int, Position] | None:
    """The block's quarter turn and the position turned by it; None if the block is torn.

    Normally the encoder's candidates are ranked by how well the readings fit. When the count
    has drifted between quarters (missed detents), the readings settle it if one of the two
    neighbouring quarters fits them strictly better and lies less than half a quarter away; a
    block whose marbles sit between the sensors fits both equally badly and stays torn.
    """
    options = physical.quarters(block)
    if options:
        return _best_turn(position, block, options, physical, colours)[1:]
    nearest = physical.nearest(block)
    if abs(physical.count(block) - nearest * physical.detents) * 2 >= physical.detents:
        return None  # half way between quarters: never a rest
    low, high = (_fit(position, block, q, physical, colours) for q in physical.neighbours(block))
    if low[0] == high[0] == 0 and low[2] == high[2] == position:
        return 0, position  # a symmetric block at rest: its orientation changes nothing
    best = min(low, high, key=lambda fit: fit[0])
    return None if low[0] == high[0] else best[1:]


def _best_turn(position: Position, block: int, options: tuple[int, ...], physical: Physical,
               colours: tuple[str, ...]) -> tuple[int, int, Position]:
    """(misses, quarters, turned position) of the option the readings fit best; ties go first."""
    return min((_fit(position, block, q, physical, colours) for q in options), key=lambda fit: fit[0])


def _fit(position: Position, block: int, quarters: int, physical: Physical,
         colours: tuple[str, ...]) -> tuple[int, int, Position]:
    candidate = rotated(position, block, quarters)
    holes = position.geometry.block_holes[block - 1]
    misses = sum(not _fits(candidate.colour_at(h), physical.readings[h], colours) for h in holes)
    return misses, quarters, candidate


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
