"""What every place-then-twist game shares: the half-move API, its options and its take-back.

Classic, multiplayer and team Pentago differ only in who plays which colour, which twists are
allowed and how a finished turn is judged. :class:`PlaceTwistGame` holds everything else, so the
flow, the core and the AI play any of them through one small protocol (:class:`Game`):

- ``place(hole)``, then ``twist(Twist)`` or ``skip_twist()``: the two physical halves of a move;
  ``push(Move)`` / ``push_text("e5 5R")`` play a whole move; ``pop()`` takes the last one back;
- ``to_move`` (seat, from 1), ``colour`` (its colour index), ``phase``, ``position``, ``moves``,
  ``is_over()``, ``outcome``, ``standings``, ``legal_moves()``, ``move_name(move)``.

Standings are a value: a tuple of places, best first, each a sorted tuple of seats. While a game
runs they hold the places earned so far (only multiplayer games earn places before the end); a
finished game's standings are its outcome's and place every seat exactly once.

Options (:class:`PlayOptions`) are validated when a game is made: 2 to 4 players, twists
``"cw"`` (clockwise only) or ``"both"``, and the neutral-block skip rule (the twist may be skipped
while some block is empty or holds only its centre; with the rule off, every turn twists).

>>> PlayOptions(players=5)
Traceback (most recent call last):
...
ValueError: players must be 2 to 4, not 5
>>> PlayOptions(players=3, twist="cw").text()
'players=3 twist=cw neutral-skip=on'
>>> PlayOptions.parse("players=3 twist=both neutral-skip=off")
PlayOptions(players=3, twist='both', neutral_skip=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, Self

from .errors import IllegalMoveError, NotationError
from .geometry import Geometry
from .notation import Move, Twist, hole_name, move_name, parse_move
from .outcome import Outcome, Places, Termination
from .position import Position
from .record import Record

TWIST_RULES = ("cw", "both")  # clockwise only (the multiplayer rulebook), or either way


class Phase(Enum):
    PLACE = "place"
    TWIST = "twist"
    OVER = "over"


@dataclass(frozen=True)
class PlayOptions:
    """The settings of a place-then-twist game; raises ValueError naming a bad value."""

    players: int = 2
    twist: str = "both"
    neutral_skip: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int) or not 2 <= self.players <= 4:
            raise ValueError(f"players must be 2 to 4, not {self.players!r}")
        if self.twist not in TWIST_RULES:
            raise ValueError(f"twist must be 'cw' (clockwise only) or 'both', not {self.twist!r}")

    @property
    def clockwise_only(self) -> bool:
        return self.twist == "cw"

    def text(self) -> str:
        """The canonical ``key=value`` form, as record headers write it."""
        skip = "on" if self.neutral_skip else "off"
        return f"players={self.players} twist={self.twist} neutral-skip={skip}"

    @classmethod
    def parse(cls, text: str) -> PlayOptions:
        """Read :meth:`text`'s form back; unknown keys or values raise ValueError naming them."""
        values: dict[str, str] = {}
        for word in text.split():
            key, sep, value = word.partition("=")
            if not sep or key not in ("players", "twist", "neutral-skip"):
                raise ValueError(f"option {word!r} is not one of players=N, twist=cw|both, neutral-skip=on|off")
            values[key] = value
        skip = values.get("neutral-skip", "on")
        if skip not in ("on", "off"):
            raise ValueError(f"option neutral-skip must be 'on' or 'off', not {skip!r}")
        players = values.get("players", "2")
        if not players.isdigit():
            raise ValueError(f"option players must be a number, not {players!r}")
        return cls(int(players), values.get("twist", "both"), skip == "on")


def twists_either_way(title: str, twist: str | None, neutral_skip: bool, skip_words: str) -> None:
    """Refuses multiplayer's and teams' twist rules for the game called ``title``, which twists
    either way (``skip_words``: what it does instead of the neutral-block skip rule's off)."""
    if twist not in (None, "both"):
        raise ValueError(f"{title} twists either way; twist {twist!r} is an option of multiplayer and teams")
    if not neutral_skip:
        raise ValueError(f"{title} {skip_words}; neutral-skip off is an option of multiplayer and teams")


class Game(Protocol):
    """What the flow, the core and the AI need of any place-then-twist game."""

    players: int
    geometry: Geometry
    to_move: int
    phase: Phase
    position: Position
    moves: list[Move]
    outcome: Outcome | None

    @property
    def variant(self) -> str: ...
    @property
    def colour(self) -> int: ...
    @property
    def standings(self) -> Places: ...
    def is_over(self) -> bool: ...
    def place(self, hole: int) -> None: ...
    def twist(self, twist: Twist) -> None: ...
    def skip_twist(self) -> None: ...
    def may_skip_twist(self) -> bool: ...
    def push(self, move: Move) -> None: ...
    def pop(self) -> Move: ...
    def legal_moves(self) -> list[Move]: ...
    def move_name(self, move: Move) -> str: ...


class _Written(Protocol):
    def text(self) -> str: ...


class _Notated(Protocol):
    """A game whose moves are one text each (:class:`RecordsMoves`'s games)."""

    starter: int

    @property
    def variant(self) -> str: ...
    @property
    def options(self) -> _Written: ...
    @property
    def moves(self) -> Sequence[Any]: ...
    def move_name(self, move: Any) -> str: ...
    def parse_text(self, text: str) -> Any: ...
    def push_text(self, text: str) -> None: ...


class RecordsMoves:
    """How a game says its record (:mod:`~controller.rules.record` asks these, never which game
    it is): by default ``Variant`` and ``Options`` make it again, ``Starter`` says who began,
    and each move is a line in the game's own notation. A game whose record differs says how in
    its class (classic leaves its defaults out, Triple names its cards, a puzzle writes rounds)."""

    def record_headers(self: _Notated) -> dict[str, str]:
        """The headers that make the game again, before the seats: variant and options."""
        return {"Variant": self.variant, "Options": self.options.text()}

    def record_starter(self: _Notated) -> dict[str, str]:
        """The header saying which seat began, after the seats (none where it goes without saying)."""
        return {"Starter": str(self.starter)}

    def record_lines(self: _Notated) -> list[str]:
        """The record's lines: one move a line."""
        return [self.move_name(move) for move in self.moves]

    def record_line(self: _Notated, line: str, number: int) -> str:
        """Line ``number`` of a record read as canonical text; NotationError naming the line."""
        try:
            return self.move_name(self.parse_text(line))
        except NotationError as error:
            raise NotationError(f"record line {number}: {error}") from None

    def play_record_line(self: _Notated, text: str, number: int) -> None:
        """Play a record's move ``number``; IllegalMoveError naming it."""
        try:
            self.push_text(text)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"record move {number}: {error}") from None


_State = tuple[Position, int, Phase, "Outcome | None", int, "int | None", Places, tuple[tuple[int, ...], ...]]


class PlaceTwistGame(RecordsMoves):
    """The half-move machinery; subclasses say who plays which colour and judge each turn.

    The default judge is the classic one: the first five ends the game (see :meth:`_judge`).
    Seats are numbered from 1; seat ``s`` plays colour ``(s - 1) % colours``.
    """

    ranked: ClassVar[bool] = False  # its record's Result gives the whole standings, not only the winners

    @classmethod
    def new(cls, players: int | None = None, twist: str | None = None, neutral_skip: bool = True,
            starter: int = 1, size: int = 6) -> Self:
        """A new game of this variant from the options every place-then-twist game is started
        with (None: the variant's default), ``starter`` to move first; ValueError naming an
        option the variant has not, and what allows it. Each variant's class says how."""
        raise NotImplementedError(f"{cls.__name__} is the base of the variants' classes, not a variant")

    @classmethod
    def record_seats(cls, named: int) -> int | None:
        """The seats of a record without ``Options`` that names ``named`` players (None: the
        variant's default)."""
        return named or None

    @classmethod
    def from_record(cls, record: Record, size: int) -> Self:
        """The game a record of this variant starts with, on a ``size`` board: its options and
        starter; without ``Options``, a seat per ``Player`` line (:meth:`record_seats`) and the
        variant's default twist rule. NotationError naming the header that is wrong."""
        try:
            text = record.headers.get("Options")  # each game reads its own (Triple's are TripleOptions)
            if text is None:
                players, twist, skip = cls.record_seats(len(record.players)), None, True
            else:
                options = PlayOptions.parse(text)
                players, twist, skip = options.players, options.twist, options.neutral_skip
            starter = record.starter
            seated = cls.new(players, twist, skip, size=size).players
            if not 1 <= starter <= seated:
                raise ValueError(f"Starter must be a seat from 1 to {seated}, not {starter}")
            if record.colours and len(record.colours) != seated:
                raise ValueError(f"Colours names {len(record.colours)} colours for {seated} seats")
            return cls.new(players, twist, skip, starter, size)
        except ValueError as error:
            raise NotationError(f"record: {error}") from None

    def __init__(
        self,
        options: PlayOptions,
        position: Position,
        to_move: int = 1,
        colours: int | None = None,
    ) -> None:
        self.options = options
        self.players = options.players
        self.colours = colours or options.players
        if len(position.stones) != self.colours:
            raise ValueError(f"the position has {len(position.stones)} colours; this game plays {self.colours}")
        if not 1 <= to_move <= self.players:
            raise ValueError(f"to_move must be a seat from 1 to {self.players}, not {to_move}")
        self.start = position
        self.geometry: Geometry = position.geometry
        self.position = position
        self.starter = self.to_move = to_move
        self.phase = Phase.PLACE
        self.outcome: Outcome | None = None
        self.moves: list[Move] = []
        self.places: Places = ()  # places earned so far, best first
        self.place_lines: tuple[tuple[int, ...], ...] = ()  # the fives that earned them, as made
        self._undo: list[_State] = []
        self._placed: int | None = None  # the hole placed this turn, while awaiting the twist

    # -- queries -------------------------------------------------------------------------------

    @property
    def variant(self) -> str:
        """The name records and the CLI give this game (each variant's class says its own)."""
        return "place-twist"

    @property
    def colour(self) -> int:
        """The colour of the seat to move."""
        return self.colour_of(self.to_move)

    def colour_of(self, seat: int) -> int:
        return (seat - 1) % self.colours

    def seats_of(self, colour: int) -> tuple[int, ...]:
        """The seats that play ``colour``, in order."""
        return tuple(range(colour + 1, self.players + 1, self.colours))

    @property
    def standings(self) -> Places:
        """The places so far, best first, each a sorted tuple of seats (see the module doc)."""
        return self.outcome.standings if self.outcome is not None else self.places

    def playing(self) -> tuple[int, ...]:
        """The seats still playing (not yet placed), in seat order."""
        done = {seat for place in self.places for seat in place}
        return tuple(s for s in range(1, self.players + 1) if s not in done)

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def twists(self) -> list[Twist]:
        """Every allowed twist, in order: block 1 R, 1 L, 2 R, ... (R only when clockwise-only)."""
        ways = (True,) if self.options.clockwise_only else (True, False)
        return [Twist(b, cw) for b in range(1, self.geometry.block_count + 1) for cw in ways]

    def legal_moves(self) -> list[Move]:
        """Every legal whole move from a position awaiting a placement.

        A placement that makes five is listed bare (the turn ends there). Otherwise every allowed
        twist is listed (turning a neutral block is allowed; it just changes nothing), plus the
        bare placement when the twist may be skipped.
        """
        if self.phase is not Phase.PLACE:
            return []
        twists = self.twists()
        moves = []
        position, colour, g = self.position, self.colour, self.geometry
        empty = position.empty_holes
        while empty:
            low = empty & -empty
            empty ^= low
            hole = low.bit_length() - 1
            if g.has_five(position.stones[colour] | low):
                moves.append(Move(hole))
                continue
            moves.extend(Move(hole, t) for t in twists)
            if self._may_skip(position.place(hole, colour)):
                moves.append(Move(hole))
        return moves

    def may_skip_twist(self) -> bool:
        """True while awaiting the twist and the skip rule lets it be left out."""
        return self.phase is Phase.TWIST and self._may_skip(self.position)

    def _may_skip(self, position: Position) -> bool:
        return self.options.neutral_skip and position.has_neutral_block()

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
        if self.position.has_five(self.colour):
            self._end_turn(Move(hole), by_placement=True)
        else:
            self.phase = Phase.TWIST

    def twist(self, twist: Twist) -> None:
        """Second half of a move: turn a block a quarter turn."""
        self._require(Phase.TWIST, f"twisting {twist}")
        if not 1 <= twist.block <= self.geometry.block_count:
            raise IllegalMoveError(f"there is no block {twist.block}")
        if self.options.clockwise_only and not twist.clockwise:
            raise IllegalMoveError(
                f"{twist} turns counter-clockwise; twists are clockwise only (R) in this game"
            )
        self._save()
        self.position = self.position.rotate(twist.block, twist.clockwise)
        self._end_turn(Move(self._placement(), twist))

    def skip_twist(self) -> None:
        """End the move without a twist; allowed only while the skip rule lets it."""
        self._require(Phase.TWIST, "skipping the twist")
        if not self.options.neutral_skip:
            raise IllegalMoveError("the twist is mandatory: this game has no neutral-block skip")
        if not self.position.has_neutral_block():
            raise IllegalMoveError("the twist is mandatory: no block is neutral (empty or only its centre filled)")
        self._save()
        self._end_turn(Move(self._placement()))

    def push(self, move: Move) -> None:
        """Play a whole move, or raise :class:`IllegalMoveError` and leave the game unchanged."""
        depth = len(self._undo)
        try:
            self.place(move.hole)
            if self.phase is not Phase.TWIST:
                if move.twist is not None:
                    raise IllegalMoveError(
                        f"the placement on {hole_name(move.hole, self.geometry)} makes five and "
                        f"{'ends the game' if self.is_over() else 'ends the turn'}; no twist follows"
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
        self.push(self.parse_text(text))

    def parse_text(self, text: str) -> Move:
        """The move written ``text`` in classic notation; NotationError naming it."""
        return parse_move(text, self.geometry)

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

    # -- judging (the classic judge; multiplayer overrides it) ---------------------------------

    def _judge(self, by_placement: bool) -> Outcome | None:
        """The first five ends the game: the mover's on placement; after the twist, one colour
        with five wins for its seats, several colours with five draw; a full board draws."""
        position = self.position
        if by_placement:
            return self._won(Termination.FIVE_ON_PLACEMENT, self.colour)
        with_five = [c for c in range(self.colours) if position.has_five(c)]
        if len(with_five) > 1:
            lines = tuple(run for c in with_five for run in position.fives(c))
            return Outcome(Termination.BOTH_FIVE, (), lines, (self._all_seats(),))
        if with_five:
            return self._won(Termination.FIVE_AFTER_TWIST, with_five[0])
        if position.is_full():
            return Outcome(Termination.BOARD_FULL, (), (), (self._all_seats(),))
        return None

    def _won(self, termination: Termination, colour: int) -> Outcome:
        winners = self.seats_of(colour)
        rest = tuple(s for s in self._all_seats() if s not in winners)
        lines = tuple(self.position.fives(colour))
        return Outcome(termination, winners, lines, (winners, rest))

    def _all_seats(self) -> tuple[int, ...]:
        return tuple(range(1, self.players + 1))

    def _next_seat(self) -> int:
        """The next seat after the mover that is still playing."""
        playing = self.playing()
        return next((s for s in playing if s > self.to_move), playing[0])

    # -- inside --------------------------------------------------------------------------------

    def _placement(self) -> int:
        assert self._placed is not None, "only called while a placement awaits its twist"
        return self._placed

    def _require(self, phase: Phase, doing: str) -> None:
        require_phase(self.phase, phase, doing, self.to_move)

    def _end_turn(self, move: Move, by_placement: bool = False) -> None:
        self.moves.append(move)
        outcome = self._judge(by_placement)
        if outcome is not None:
            self.outcome = outcome
            self.phase = Phase.OVER
            return
        self.to_move = self._next_seat()
        self.phase = Phase.PLACE
        self._placed = None

    def _save(self) -> None:
        self._undo.append((
            self.position, self.to_move, self.phase, self.outcome, len(self.moves), self._placed,
            self.places, self.place_lines,
        ))

    def _restore(self) -> None:
        (self.position, self.to_move, self.phase, self.outcome, count, self._placed,
         self.places, self.place_lines) = self._undo.pop()
        del self.moves[count:]

    def __repr__(self) -> str:
        name = type(self).__name__
        return f"<{name} {self.position.text()!r} to_move={self.to_move} phase={self.phase.value}>"


def require_phase(current: Phase, wanted: Phase, doing: str, seat: int, placing: str = "a placement") -> None:
    """Raise :class:`IllegalMoveError` saying why ``doing`` cannot happen unless ``current`` is
    ``wanted`` (``placing`` names what the place phase awaits)."""
    if current is Phase.OVER:
        raise IllegalMoveError(f"{doing}: the game is over")
    if current is not wanted:
        need = placing if current is Phase.PLACE else "a twist"
        raise IllegalMoveError(f"{doing}: the game awaits {need} from seat {seat}")


def as_game(game: PlaceTwistGame) -> Game:
    """``game`` seen through the :class:`Game` protocol (the strict type check proves it fits)."""
    return game
