"""Team Pentago: 9x9, four seats in two pairs, one colour per pair, partners opposite.

Seats 1 and 3 play the first colour, seats 2 and 4 the second, so turns alternate teams
(1, 2, 3, 4, 1, ...). Otherwise the turn is multiplayer Pentago's: place, then twist a quarter
turn (clockwise only by default, ``twist="both"`` for either way), the twist skippable while a
neutral block exists (``neutral_skip``, on by default).

- The team that makes five wins: both partners are the winners; a five on placement wins at
  once, without the twist.
- Both teams with five after one turn is a draw; so is a full board without five.

The standings are the winning pair, then the other (``((1, 3), (2, 4))``), or one place of all
four seats for a draw. Where the rulebook is silent: a twist that makes only the other team's
five makes the other team win (as in classic); ``players`` is always 4 (a team game of another
size raises ValueError).

>>> game = TeamGame()
>>> game.push_text("e5 5R")
>>> game.to_move, game.colour, game.seats_of(0)
(2, 1, (1, 3))
"""

from __future__ import annotations

from .position import Position
from .turns import PlaceTwistGame, PlayOptions

SIZE, SEATS, TEAMS = 9, 4, 2


class TeamGame(PlaceTwistGame):
    """Two pairs on 9x9; the classic judge (first five ends it) over the pairs' colours."""

    def __init__(
        self,
        twist: str = "cw",
        neutral_skip: bool = True,
        position: Position | None = None,
        to_move: int = 1,
        players: int = SEATS,
    ) -> None:
        if players != SEATS:
            raise ValueError(f"team play needs exactly 4 players (two pairs), not {players}")
        start = position or Position.empty(SIZE, TEAMS)
        if start.geometry.size != SIZE:
            raise ValueError(f"team Pentago is played on the 9x9 board, not {start.geometry.size}x{start.geometry.size}")
        super().__init__(PlayOptions(SEATS, twist, neutral_skip), start, to_move, colours=TEAMS)

    @classmethod
    def new(cls, players: int | None = None, twist: str | None = None, neutral_skip: bool = True,
            starter: int = 1, size: int = SIZE) -> TeamGame:
        """Team Pentago: four seats, clockwise twists unless ``twist`` is ``both``.

        >>> TeamGame.new().players
        4
        >>> TeamGame.new(3)
        Traceback (most recent call last):
        ...
        ValueError: team play needs exactly 4 players (two pairs), not 3
        """
        board = None if size == SIZE else Position.empty(size, TEAMS)  # refused by the constructor
        return cls(twist or "cw", neutral_skip, board, to_move=starter, players=players or SEATS)

    @property
    def variant(self) -> str:
        return "teams"

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The pair ``seat`` plays in: ``(1, 3)`` or ``(2, 4)``."""
        return self.seats_of(self.colour_of(seat))
