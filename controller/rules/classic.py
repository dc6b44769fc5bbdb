"""Classic Pentago: place a marble, then twist a block a quarter turn.

Every rule of the classic rulebook:

- the twist is optional while a neutral block exists (empty, or only its centre filled) and
  mandatory otherwise;
- five or more in a row wins; five made by the placement ends the game at once, with no twist;
- after a twist, several colours with five is a draw; only another colour with five means it wins;
- a full board without five is a draw.

A move can be played whole (:meth:`ClassicGame.push`) or in its two physical halves
(:meth:`place`, then :meth:`twist` or :meth:`skip_twist`), as a real board reports them.
Seats are numbered from 1; seat ``s`` plays colour ``s - 1``.

>>> game = ClassicGame()
>>> for text in ["a1 1R", "b2 1R", "a2 1L", "b3 1R", "a3 1L", "b4 2R", "a4 2R", "c4 2R"]:
...     game.push_text(text)
>>> game.push_text("a5")
>>> game.outcome.termination.value, game.outcome.winners
('five on placement', (1,))
"""

from __future__ import annotations

from enum import Enum

from .errors import IllegalMoveError
from .notation import Move, Twist, hole_name, move_name, parse_move
from .outcome import Outcome, Termination
from .position import Position


class Phase(Enum):
    PLACE = "place"
    TWIST = "twist"
    OVER = "over"


class ClassicGame:
    """A game of place-then-twist Pentago on a 6x6 (or 9x9) board."""

    def __init__(
        self,
        size: int = 6,
        players: int = 2,
        position: Position | None = None,
        to_move: int = 1,
    ) -> None:
        if not 2 <= players <= 4:
            raise ValueError(f"players must be 2 to 4, not {players}")
        self.players = players
        self.start = position or Position.empty(size, players)
        self.geometry = self.start.geometry
        self.position = self.start
        self.to_move = to_move
        self.phase = Phase.PLACE
        self.outcome: Outcome | None = None
        self.moves: list[Move] = []
        self._undo: list[tuple[Position, int, Phase, Outcome | None, int, int | None]] = []
        self._placed: int | None = None  # the hole placed this turn, while awaiting the twist

    # -- queries -------------------------------------------------------------------------------

    @property
    def colour(self) -> int:
        """The colour of the seat to move."""
        return self.to_move - 1

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def twists(self) -> list[Twist]:
        """Every twist, in order: block 1 R, 1 L, 2 R, ..."""
        return [Twist(b, cw) for b in range(1, self.geometry.block_count + 1) for cw in (True, False)]

    def legal_moves(self) -> list[Move]:
        """Every legal whole move from a position awaiting a placement.

        A placement that makes five is listed bare (the game ends there). Otherwise every twist
        is listed (turning a neutral block is allowed; it just changes nothing), plus the bare
        placement when the twist may be skipped.
        """
        if self.phase is not Phase.PLACE:
            return []
        twists = self.twists()
        moves = []
        position, colour = self.position, self.colour
        g = self.geometry
        empty = position.empty_holes
        while empty:
            low = empty & -empty
            empty ^= low
            hole = low.bit_length() - 1
            if g.has_five(position.stones[colour] | low):
                moves.append(Move(hole))
                continue
            moves.extend(Move(hole, t) for t in twists)
            if position.place(hole, colour).has_neutral_block():
                moves.append(Move(hole))
        return moves

    def may_skip_twist(self) -> bool:
        """True while awaiting the twist and a neutral block exists."""
        return self.phase is Phase.TWIST and self.position.has_neutral_block()

    # -- playing -------------------------------------------------------------------------------

    def place(self, hole: int) -> None:
        """First half of a move: the seat to move places a marble in ``hole``."""
        name = hole_name(hole, self.geometry)
        self._require(Phase.PLACE, f"placing on {name}")
        if self.position.colour_at(hole) is not None:
            raise IllegalMoveError(f"hole {name} is already taken")
        self._save()
        self.position = self.position.place(hole, self.colour)
        self._placed = hole
        lines = self.position.fives(self.colour)
        if lines:
            self._finish(Move(hole), Outcome(Termination.FIVE_ON_PLACEMENT, (self.to_move,), tuple(lines)))
        else:
            self.phase = Phase.TWIST

    def twist(self, twist: Twist) -> None:
        """Second half of a move: turn a block a quarter turn."""
        self._require(Phase.TWIST, f"twisting {twist}")
        if not 1 <= twist.block <= self.geometry.block_count:
            raise IllegalMoveError(f"there is no block {twist.block}")
        self._save()
        self.position = self.position.rotate(twist.block, twist.clockwise)
        self._end_turn(Move(self._placement(), twist), self._judge_twist())

    def skip_twist(self) -> None:
        """End the move without a twist; allowed only while a neutral block exists."""
        self._require(Phase.TWIST, "skipping the twist")
        if not self.position.has_neutral_block():
            raise IllegalMoveError("the twist is mandatory: no block is neutral (empty or only its centre filled)")
        self._save()
        full = self.position.is_full()
        self._end_turn(Move(self._placement()), Outcome(Termination.BOARD_FULL, ()) if full else None)

    def push(self, move: Move) -> None:
        """Play a whole move, or raise :class:`IllegalMoveError` and leave the game unchanged."""
        depth = len(self._undo)
        try:
            self.place(move.hole)
            if self.phase is Phase.OVER:
                if move.twist is not None:
                    raise IllegalMoveError(
                        f"the placement on {hole_name(move.hole, self.geometry)} makes five and "
                        "ends the game; no twist follows"
                    )
            elif move.twist is None:
                self.skip_twist()
            else:
                self.twist(move.twist)
        except IllegalMoveError as error:
            while len(self._undo) > depth:
                self._restore()
            raise IllegalMoveError(f"illegal move {self.move_name(move)!r}: {error}") from None

    def push_text(self, text: str) -> None:
        """Parse and play a move written in classic notation."""
        self.push(parse_move(text, self.geometry))

    def pop(self) -> Move:
        """Take back the last whole move and return it.

        While a placement awaits its twist, only that placement is taken back (returned bare).
        """
        if self.phase is Phase.TWIST:
            placed = Move(self._placement())
            self._restore()
            return placed
        if not self.moves:
            raise IllegalMoveError("there is no move to take back")
        move, target = self.moves[-1], len(self.moves) - 1
        while not (len(self.moves) == target and self.phase is Phase.PLACE):
            self._restore()
        return move

    def move_name(self, move: Move) -> str:
        return move_name(move, self.geometry)

    # -- inside --------------------------------------------------------------------------------

    def _placement(self) -> int:
        assert self._placed is not None, "only called while a placement awaits its twist"
        return self._placed

    def _require(self, phase: Phase, doing: str) -> None:
        if self.phase is Phase.OVER:
            raise IllegalMoveError(f"{doing}: the game is over")
        if self.phase is not phase:
            need = "a placement" if self.phase is Phase.PLACE else "a twist"
            raise IllegalMoveError(f"{doing}: the game awaits {need} from seat {self.to_move}")

    def _judge_twist(self) -> Outcome | None:
        position, g = self.position, self.geometry
        with_five = [c for c in range(self.players) if g.has_five(position.stones[c])]
        if len(with_five) > 1:
            lines = tuple(run for c in with_five for run in position.fives(c))
            return Outcome(Termination.BOTH_FIVE, (), lines)
        if with_five:
            (c,) = with_five
            return Outcome(Termination.FIVE_AFTER_TWIST, (c + 1,), tuple(position.fives(c)))
        if position.is_full():
            return Outcome(Termination.BOARD_FULL, ())
        return None

    def _end_turn(self, move: Move, outcome: Outcome | None) -> None:
        if outcome is not None:
            self._finish(move, outcome)
            return
        self.moves.append(move)
        self.to_move = self.to_move % self.players + 1
        self.phase = Phase.PLACE
        self._placed = None

    def _finish(self, move: Move, outcome: Outcome) -> None:
        self.moves.append(move)
        self.outcome = outcome
        self.phase = Phase.OVER

    def _save(self) -> None:
        self._undo.append((self.position, self.to_move, self.phase, self.outcome, len(self.moves), self._placed))

    def _restore(self) -> None:
        self.position, self.to_move, self.phase, self.outcome, count, self._placed = self._undo.pop()
        del self.moves[count:]

    def __repr__(self) -> str:
        return f"<ClassicGame {self.position.text()!r} to_move={self.to_move} phase={self.phase.value}>"
