"""The 9x9 family's position inside the computer: colour planes, who moves next, and every move.

Multiplayer and team Pentago are played by up to four seats over two to four colours (teams: one
colour per pair). A :class:`Seating` holds what does not change during a search (the tables, the
seats still playing and their colours, the allowed twists, the neutral-block skip rule); a
position is a tuple of colour planes. A move is ``(hole, t)``: place on ``hole``, then twist
``t`` (an index into the search tables' twists), or ``t = -1``: no turn of any stone, which the
rules spell as a bare placement (a five on placement, or the skip) or as the turn of a neutral
block (:meth:`Seating.move`).

>>> from controller.rules import MultiplayerGame
>>> seating = Seating.of(MultiplayerGame(players=3))
>>> seating.colours, seating.seats, len(seating.twists)  # clockwise only: one twist per block
(3, (1, 2, 3), 9)
>>> seating.move(40, -1)  # e5 on the empty board: the skip (every block is neutral)
Move(hole=40, twist=None)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...rules import Move, MultiplayerGame, PlaceTwistGame
from ..tables import SearchTables, search_tables

Planes = tuple[int, ...]
NO_TWIST = -1


@dataclass(frozen=True)
class Seating:
    """What a search of one 9x9-family position keeps fixed."""

    tables: SearchTables
    colours: int
    seats: tuple[int, ...]  # the seats still playing, in turn order from seat 1
    colour_of: dict[int, int]  # seat -> colour index
    live: frozenset[int]  # colours of seats still playing (placed seats' stones only block)
    twists: tuple[int, ...]  # allowed twist indices (clockwise only: the even ones)
    skip: bool  # the neutral-block skip rule
    places: bool  # multiplayer's judge: a five earns a place and the rest play on

    @classmethod
    def of(cls, game: PlaceTwistGame) -> Seating:
        tables = search_tables(game.geometry.size)
        seats = game.playing()
        colour_of = {seat: game.colour_of(seat) for seat in range(1, game.players + 1)}
        step = 2 if game.options.clockwise_only else 1
        return cls(tables, game.colours, seats, colour_of, frozenset(colour_of[s] for s in seats),
                   tuple(range(0, len(tables.twists), step)), game.options.neutral_skip,
                   isinstance(game, MultiplayerGame))

    def next_seat(self, seat: int) -> int:
        """The seat still playing that moves after ``seat``."""
        return next((s for s in self.seats if s > seat), self.seats[0])

    def neutral_blocks(self, occupied: int) -> int:
        """The blocks (bit ``b`` for twist pair ``b``) a turn of which moves no stone."""
        tb, out = self.tables, 0
        for b in range(len(tb.twists) // 2):
            mask = tb.masks[2 * b]
            if not occupied & mask & ~tb.centres:
                out |= 1 << b
        return out

    def identity_ok(self, occupied: int, hole: int) -> int | None:
        """How the rules let ``hole``'s placement turn no stone: -1 (the skip) or a neutral
        block's twist index, or None if every allowed move turns a stone."""
        neutral = self.neutral_blocks(occupied | 1 << hole)
        if not neutral:
            return None
        if self.skip:
            return NO_TWIST
        return next((t for t in self.twists if neutral >> (t // 2) & 1), None)

    def move(self, hole: int, t: int, occupied: int = 0, five: bool = False) -> Move:
        """The rules' move for ``(hole, t)`` on a board holding ``occupied`` before it (``five``:
        the placement makes five, so the turn ends bare)."""
        if t >= 0:
            return Move(hole, self.tables.twists[t])
        if five:
            return Move(hole)
        way = self.identity_ok(occupied, hole)
        assert way is not None, "a move that turns no stone is offered only when the rules allow one"
        return Move(hole) if way < 0 else Move(hole, self.tables.twists[way])


def rotate(planes: Planes, t: int, tables: SearchTables) -> Planes:
    """Every colour plane turned by twist ``t`` (-1: unchanged)."""
    if t < 0:
        return planes
    return tuple(tables.rotate(p, t) for p in planes)


def occupied(planes: Planes) -> int:
    out = 0
    for p in planes:
        out |= p
    return out
