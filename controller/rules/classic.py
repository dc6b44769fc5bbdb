"""Classic Pentago: place a marble, then twist a block a quarter turn.

Every rule of the classic rulebook:

- the twist is optional while a neutral block exists (empty, or only its centre filled) and
  mandatory otherwise; it turns either way;
- five or more in a row wins; five made by the placement ends the game at once, with no twist;
- after a twist, several colours with five is a draw; only another colour with five means it wins;
- a full board without five is a draw.

A move can be played whole (:meth:`ClassicGame.push`) or in its two physical halves
(:meth:`place`, then :meth:`twist` or :meth:`skip_twist`), as a real board reports them; the
machinery is :class:`~controller.rules.turns.PlaceTwistGame`'s, which every variant shares.
Seats are numbered from 1; seat ``s`` plays colour ``s - 1``. A classic game's standings are
the winner, then the rest (``((1,), (2,))``), or one shared place for a draw.

>>> game = ClassicGame()
>>> for text in ["a1 1R", "b2 1R", "a2 1L", "b3 1R", "a3 1L", "b4 2R", "a4 2R", "c4 2R"]:
...     game.push_text(text)
>>> game.push_text("a5")
>>> game.outcome.termination.value, game.outcome.winners, game.standings
('five on placement', (1,), ((1,), (2,)))
"""

from __future__ import annotations

from .position import Position
from .turns import Phase, PlaceTwistGame, PlayOptions, twists_either_way

__all__ = ["ClassicGame", "Phase"]


class ClassicGame(PlaceTwistGame):
    """A game of place-then-twist Pentago on a 6x6 (or 9x9) board, twists either way."""

    def __init__(
        self,
        size: int = 6,
        players: int = 2,
        position: Position | None = None,
        to_move: int = 1,
    ) -> None:
        if not 2 <= players <= 4:
            raise ValueError(f"players must be 2 to 4, not {players}")
        options = PlayOptions(players, twist="both", neutral_skip=True)
        super().__init__(options, position or Position.empty(size, players), to_move)

    @classmethod
    def new(cls, players: int | None = None, twist: str | None = None, neutral_skip: bool = True,
            starter: int = 1, size: int = 6) -> ClassicGame:
        """Classic Pentago twists either way and keeps the neutral-block skip; two players
        unless ``players`` says otherwise.

        >>> ClassicGame.new(size=9).variant
        'classic-9x9'
        >>> ClassicGame.new(twist="cw")
        Traceback (most recent call last):
        ...
        ValueError: classic Pentago twists either way; twist 'cw' is an option of multiplayer and teams
        """
        twists_either_way("classic Pentago", twist, neutral_skip, "keeps the neutral-block skip")
        return cls(size, players or 2, to_move=starter)

    @classmethod
    def record_seats(cls, named: int) -> int:
        """At least the two seats of the classic game, however few players the record names."""
        return max(2, named)

    def record_headers(self) -> dict[str, str]:
        """A classic record leaves out what equals the classic defaults, two players and seat 1
        starting, so classic records read and write as they always have."""
        headers = super().record_headers()
        if self.players == 2:
            del headers["Options"]
        return headers

    def record_starter(self) -> dict[str, str]:
        return super().record_starter() if self.starter != 1 else {}

    @property
    def variant(self) -> str:
        """The record name: ``classic``, or ``classic-9x9`` on the big board."""
        return "classic" if self.geometry.size == 6 else f"classic-{self.geometry.size}x{self.geometry.size}"
