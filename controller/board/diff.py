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

from ..colours import MARBLE_COLOURS
from ..events import EMPTY, MARBLE
from ..rules import Position
from ..rules.geometry import bits
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


def compare(expected: Position, physical: Physical, colours: tuple[str, ...], ignore: tuple[int, ...] = ()) -> Diff:
    """The :class:`Diff` from ``expected`` to the sensed board; the blocks in ``ignore`` (turning:
    their holes read the marbles passing over them) are left out, as if they stood as expected.

    ``colours`` names the game's colour index 0, 1, ... as colour sensors report them; presence
    sensing reads "marble" and carries no colour. A marble colour the game does not use (a red
    marble in a classic game, on a board that tells every colour) is still a colour, of an
    index past the game's (:func:`sensed_colours`): it is no one's marble. Each block's turn is the quarter its encoder allows
    that best fits the readings; ties go to the encoder's nearest quarter.
    """
    sensed = _Sensed.of(physical.readings, colours)
    turns: list[tuple[int, int]] = []
    torn: list[int] = []
    loose: list[int] = []
    turned = expected
    for block in range(1, expected.geometry.block_count + 1):
        if block in ignore:
            continue
        found = _turn_of(turned, block, physical, sensed)
        if found is None:
            (loose if expected.is_neutral_block(block) else torn).append(block)
            continue
        quarters, turned = found
        if quarters:
            turns.append((block, quarters))
    left_out = sum(expected.geometry.block_masks[block - 1] for block in ignore)
    added, removed, recoloured, unsure = sensed.compare(turned, left_out)
    return Diff(tuple(turns), added, removed, recoloured, unsure, tuple(torn), tuple(loose), turned)


def sensed_colours(colours: tuple[str, ...]) -> tuple[str, ...]:
    """The colour names a diff's indices stand for: the game's ``colours`` first, then every
    other marble colour, so a sensed colour no seat plays keeps its name.

    >>> sensed_colours(("white", "black"))[:3]
    ('white', 'black', 'blue')
    """
    return colours + tuple(c for c in MARBLE_COLOURS if c not in colours)


def rotated(position: Position, block: int, quarters: int) -> Position:
    """``position`` with ``block`` turned ``quarters`` quarter turns (clockwise positive)."""
    for _ in range(abs(quarters)):
        position = position.rotate(block, quarters > 0)
    return position


@dataclass(frozen=True)
class _Sensed:
    """The readings as bitboards: judging a candidate turn is then a few masks, not 36 lookups."""

    empty: int
    marble: int  # presence sensing: a marble of no known colour
    colour: tuple[int, ...]  # colour sensing: one bitboard per colour index (sensed_colours)
    full: int

    @classmethod
    def of(cls, readings: list[str], colours: tuple[str, ...]) -> _Sensed:
        names = sensed_colours(colours)
        masks = {EMPTY: 0, MARBLE: 0, **{name: 0 for name in names}}
        for hole, reading in enumerate(readings):
            if reading in masks:
                masks[reading] |= 1 << hole
        return cls(masks[EMPTY], masks[MARBLE], tuple(masks[name] for name in names), (1 << len(readings)) - 1)

    def fitting(self, stones: tuple[int, ...]) -> int:
        """The holes whose reading agrees with ``stones`` (one bitboard per colour)."""
        occupied = 0
        fit = 0
        for c, mask in enumerate(stones):
            occupied |= mask
            fit |= mask & (self.marble | (self.colour[c] if c < len(self.colour) else 0))
        return fit | (self.empty & ~occupied)

    def compare(self, position: Position, left_out: int = 0) -> tuple[tuple[tuple[int, int | None], ...], tuple[int, ...],
                                                                    tuple[tuple[int, int], ...], tuple[int, ...]]:
        """(added, removed, recoloured, unsure) holes from ``position`` to the readings, but
        for the holes in the bitboard ``left_out``."""
        stones, occupied, seen = position.stones, position.occupied, self.full & ~left_out
        added: list[tuple[int, int | None]] = [(h, None) for h in bits(self.marble & ~occupied & seen)]
        recoloured: list[tuple[int, int]] = []
        for c, mask in enumerate(self.colour):
            added += [(h, c) for h in bits(mask & ~occupied & seen)]
            recoloured += [(h, c) for h in bits(mask & occupied & ~(stones[c] if c < len(stones) else 0) & seen)]
        known = self.empty | self.marble
        for mask in self.colour:
            known |= mask
        return tuple(sorted(added)), tuple(bits(self.empty & occupied & seen)), tuple(sorted(recoloured)), \
            tuple(bits(seen & ~known))  # unsure: UNSURE or a name we do not know


def _turn_of(position: Position, block: int, physical: Physical, sensed: _Sensed) -> tuple[int, Position] | None:
    """The block's quarter turn and the position turned by it; None if the block is torn.

    Normally the encoder's candidates are ranked by how well the readings fit. When the count
    has drifted between quarters (missed detents), the readings settle it if one of the two
    neighbouring quarters fits them strictly better and lies less than half a quarter away; a
    block whose marbles sit between the sensors fits both equally badly and stays torn. So does
    a block a detent off its rest whose marbles (off its centre, the game's and any put there
    just before it turned) all read empty: it stopped a detent into a turn, its marbles left
    their sensors; they were not all lifted. A neutral block a detent off its rest is loose:
    nothing tells a stop a detent into a twist from a stray count, and keeping the count
    costs nothing while losing it can lose the twist.
    """
    options = physical.quarters(block)
    if len(options) == 1:  # the encoder alone decides: nothing for the readings to rank ...
        turned = rotated(position, block, options[0])
        if options[0] == 0 and physical.count(block) and (
                position.is_neutral_block(block) or _between_sensors(turned, block, sensed, physical)):
            return None  # ... unless it may have stopped a detent into a turn
        return options[0], turned
    if options:
        return min((_fit(position, block, q, sensed) for q in options), key=lambda fit: fit[0])[1:]
    nearest = physical.nearest(block)
    if abs(physical.count(block) - nearest * physical.detents) * 2 >= physical.detents:
        return None  # half way between quarters: never a rest
    low, high = (_fit(position, block, q, sensed) for q in physical.neighbours(block))
    if low[0] == high[0] == 0 and low[2] == high[2] == position and not position.is_neutral_block(block):
        return 0, position  # a symmetric block at rest: its orientation changes nothing
    # A neutral block between quarters is loose: its count is kept, it may be turning slowly.
    best = min(low, high, key=lambda fit: fit[0])
    return None if low[0] == high[0] else best[1:]


def _between_sensors(position: Position, block: int, sensed: _Sensed, physical: Physical) -> bool:
    """True if the block holds marbles off its centre (as the game expects them, or just put
    there before it began to turn) and every one of them reads empty."""
    g = position.geometry
    off_centre = g.block_masks[block - 1] & ~(1 << g.centres[block - 1])
    marbles = off_centre & (position.occupied | physical.seen_before_turn(block))
    return bool(marbles) and marbles & sensed.empty == marbles


def _fit(position: Position, block: int, quarters: int, sensed: _Sensed) -> tuple[int, int, Position]:
    """(misses inside the block, quarters, the turned position); ``min`` keeps the first of ties."""
    candidate = rotated(position, block, quarters)
    mask = position.geometry.block_masks[block - 1]
    return (mask & ~sensed.fitting(candidate.stones)).bit_count(), quarters, candidate
