"""Multiplayer Pentago, every man for himself: 9x9, nine blocks, 2-4 players, one colour each.

The rules (issue 10, from the Multiplayer rulebook):

- place a stone on any empty hole, then twist any one of the nine blocks a quarter turn;
  twists are clockwise only by default (``twist="cw"``, the rulebook's rule) or either way
  (``"both"``); the neutral-block rule (the twist may be skipped while some block is empty or
  holds only its centre) is on by default (``neutral_skip``);
- five or more of one colour in a row earns a place; a five made by the placement earns it at
  once and the turn ends there, without the twist;
- players who have a place no longer move, their stones stay on the board (they still block and
  still turn with their blocks); the turn passes to the next seat still playing;
- several players with five after one turn share that place;
- a full board ends the game: those with five by then keep the places they earned, the rest share
  the last place; the last player left takes the last place.

Where the rulebook is silent, this module decides:

- a twist that gives five to the mover and to other players still playing: they all share the
  place (the shared-place rule read literally; there is no classic draw here). A twist that gives
  five only to another player earns that player the place, and the mover plays on;
- a player who already has a place earns nothing more: fives that later twists make or break for
  a placed colour change nothing;
- two players: a placement five wins and the other player, the last left, is second (as in
  classic); both with five after one twist share the only place, which is a draw;
- the skip rule when no block is neutral: the twist is mandatory, as in classic; with the rule off,
  every turn twists. Turning a neutral block (which changes nothing) is always allowed;
- ``winners`` are the seats of the first place, except when every seat shares it (nobody beat
  anyone): a draw, with no winners, as in classic;
- the termination says what ended the game: ``BOARD_FULL`` when the board filled with two or more
  players still playing, else what the final turn did (``FIVE_ON_PLACEMENT``,
  ``FIVE_AFTER_TWIST`` for one player, ``BOTH_FIVE`` when several shared it);
- ``lines`` are the runs that earned each place, as they stood when made (later twists may move
  those stones); while the game runs, ``place_lines`` hold them;
- while the game runs, ``standings`` hold the places earned so far, e.g. ``((2,),)``.

>>> game = MultiplayerGame(players=3)
>>> game.push_text("e5 5R")
>>> game.to_move, game.twists()[:2]
(2, [Twist(block=1, clockwise=True), Twist(block=2, clockwise=True)])
>>> game.push_text("a1 7L")
Traceback (most recent call last):
...
controller.rules.errors.IllegalMoveError: illegal move 'a1 7L': 7L turns counter-clockwise; twists are clockwise only (R) in this game

Seat 1 completes a9-e9 on placement: it has first place, and seats 2 and 3 play on.

>>> game = MultiplayerGame(3, position=Position.parse("xxxx....." + "/........." * 8, colours=3))
>>> game.push_text("e9")
>>> game.standings, game.to_move, game.playing(), game.is_over()
(((1,),), 2, (2, 3), False)
"""

from __future__ import annotations

from .notation import Twist  # noqa: F401 (the example shows it)
from .outcome import Outcome, Places, Termination
from .position import Position
from .turns import PlaceTwistGame, PlayOptions

SIZE = 9


class MultiplayerGame(PlaceTwistGame):
    """Every man for himself on 9x9: players play on for the places after the first five."""

    def __init__(
        self,
        players: int = 2,
        twist: str = "cw",
        neutral_skip: bool = True,
        position: Position | None = None,
        to_move: int = 1,
    ) -> None:
        options = PlayOptions(players, twist, neutral_skip)
        start = position or Position.empty(SIZE, players)
        if start.geometry.size != SIZE:
            raise ValueError(f"multiplayer Pentago is played on the 9x9 board, not {start.geometry.size}x{start.geometry.size}")
        super().__init__(options, start, to_move)

    ranked = True

    @classmethod
    def new(cls, players: int | None = None, twist: str | None = None, neutral_skip: bool = True,
            starter: int = 1, size: int = SIZE) -> MultiplayerGame:
        """Multiplayer Pentago needs the number of players; it twists clockwise only unless
        ``twist`` is ``both``.

        >>> MultiplayerGame.new(3).players
        3
        >>> MultiplayerGame.new()
        Traceback (most recent call last):
        ...
        ValueError: multiplayer needs the number of players: 2 to 4
        """
        if players is None:
            raise ValueError("multiplayer needs the number of players: 2 to 4")
        board = None if size == SIZE else Position.empty(size, players)  # refused by the constructor
        return cls(players, twist or "cw", neutral_skip, board, to_move=starter)

    @property
    def variant(self) -> str:
        return "multiplayer"

    def _judge(self, by_placement: bool) -> Outcome | None:
        """Earn the turn's place, then end the game if at most one player is left or the board is full."""
        playing = self.playing()
        scorers: tuple[int, ...]
        if by_placement:
            scorers = (self.to_move,)
        else:
            scorers = tuple(s for s in playing if self.position.has_five(self.colour_of(s)))
        if scorers:
            self.places += (scorers,)
            self.place_lines += tuple(run for s in scorers for run in self.position.fives(self.colour_of(s)))
        left = tuple(s for s in playing if s not in scorers)
        if len(left) > 1 and not self.position.is_full():
            return None
        return self._final(scorers, left, by_placement)

    def _final(self, scorers: tuple[int, ...], left: tuple[int, ...], by_placement: bool) -> Outcome:
        places: Places = self.places + ((left,) if left else ())
        if len(left) > 1:
            termination = Termination.BOARD_FULL
        elif by_placement:
            termination = Termination.FIVE_ON_PLACEMENT
        else:
            termination = Termination.FIVE_AFTER_TWIST if len(scorers) == 1 else Termination.BOTH_FIVE
        winners = places[0] if len(places) > 1 else ()
        return Outcome(termination, winners, self.place_lines, places)
