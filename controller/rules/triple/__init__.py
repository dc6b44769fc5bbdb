"""Pentago Triple: three colours on the 6x6 board, pattern cards, eliminations and the move phase.

The rules (issue 11, from the Triple rulebook):

- 27 marbles, 9 blue (``B``, colour 0), 9 yellow (``Y``, 1), 9 red (``R``, 2). On your turn you
  take a marble of any colour still in the box, place it on an empty hole, then twist any block a
  quarter turn either way. The twist is always made (an empty block may be twisted).
- Pattern cards (:mod:`~controller.rules.triple.cards`): a pattern stands when five holes in a line hold
  its colours in order, read either way.
- The standard game: face-up cards, 1 for two players, 2 for three, 3 for four. Completing a
  face-up pattern during your turn eliminates the player who moved before you (the previous seat
  still in the game) and removes that card; the last player left wins. A pattern made by the
  placement counts at once and the turn ends without a twist; otherwise patterns are judged
  after the twist. Several cards completed in one turn: one elimination, every completed card
  removed. A pattern that already stood before your turn is not yours.
- The move phase: once every marble is on the board, a turn moves one marble to an empty hole
  instead of placing one, then twists; never the marble played last (placed or moved by the
  previous turn).
- Options: two-colour play (the cards in play use two colours; the third colour is refused),
  personal cards (one each; the first to build their own pattern wins, building another's does
  nothing), the bonus game (one card face-up at a time; who completes it takes it and the next
  card is turned; when the cards run out, most cards wins, ties share first place).

Where the rulebook is silent, this module decides:

- *Which patterns are yours.* A pattern occurrence is five particular holes reading the card. An
  occurrence that stood when your turn began is never yours; one your placement, move or twist
  makes is, even when the same card also stands elsewhere, and even when your twist merely carries
  an old occurrence onto other holes (you made it stand there). The mover's twist may complete a
  pattern with marbles the mover never touched: it is still the mover's.
- *The move phase with no legal move* cannot happen: with at least 18 marbles and 9 empty holes
  there is always a marble other than the last one played and an empty hole to move it to.
  A pattern made by the move itself counts at once, without the twist, like a placement.
  The marble played last is followed through the twist that turned it.
- *Two-colour play* keeps 9 marbles of each of the two colours, so the move phase begins once
  those 18 are out. It needs the game's cards (all of them: face-up, personal, or the bonus deck)
  to use exactly two colours together; dealt from the deck, the first two-colour card of the
  shuffle fixes the pair and only cards of that pair are dealt.
- *A deck that runs out.* The standard game keeps as many face-up cards as eliminations still to
  come (players still in, less one): when one turn removes several cards, cards are turned from
  the rest of the deck to make the number up. When no face-up card is left and none can be
  turned, the game ends and the players still in share first place. The bonus game ends when its
  last card is taken.
- *Games that go round in circles* (the move phase can last for ever; "no one can move" in the
  bonus game): when a position of the move phase (board, seat to move, cards in play, marble
  played last) occurs for the third time, the game ends (as in chess): in the standard game the
  players still in share first place; with personal cards everyone shares it; in the bonus game
  most cards wins.
- *Standings* (a value, like the other variants'): the winner, then the eliminated in reverse
  order of going out (the last one out is second). Personal cards: the winner, then the rest.
  The bonus game: by cards taken, ties sharing a place. ``winners`` are the first place; when
  every seat shares it (nobody beat anyone) the game is a draw with no winners, as in classic.
  While the game runs, ``standings`` are empty; ``eliminated`` says who is out so far.
- *Personal cards and the bonus game are two games*: they do not combine. Each personal card is
  known to everyone. A bonus card turned after a turn is judged from the next turn on (an
  occurrence standing when it is turned is nobody's).
- *Cards in a game are distinct*: a card and the same card read backwards are one pattern.

Where Triple differs from the :class:`~controller.rules.turns.Game` protocol: the player chooses
the colour (``place(hole, colour)``; there is no seat colour), a turn of the move phase is
``lift(hole)`` then ``drop(hole)`` (or ``move(origin, target)``), the twist can never be skipped
(``may_skip_twist()`` is always False), moves are :class:`TripleMove` values in Triple notation,
and the game has cards (``cards``, ``reserve``, ``taken``, ``claims``) and ``eliminated`` seats.
``to_move``, ``phase``, ``position`` (three colour planes), ``moves``, ``outcome``, ``standings``,
``playing()``, ``is_over()``, ``pop()``, ``push()``, ``push_text()``, ``legal_moves()`` and
``move_name()`` mean what they mean there.

>>> game = TripleGame(TripleOptions(players=3, cards=parse_cards("BBBBY,RRRRY")))
>>> game.push_text("Bb5 4R")
>>> game.to_move, game.in_box(0), [str(c) for c in game.cards]
(2, 8, ['BBBBY', 'RRRRY'])
>>> game.push_text("Bb5 1L")
Traceback (most recent call last):
...
controller.rules.errors.IllegalMoveError: illegal move 'Bb5 1L': hole b5 is already taken
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from .cards import COLOUR_LETTERS, COLOUR_NAMES, Card, cards_text, load_deck, occurrences, parse_cards, shuffled
from ..errors import IllegalMoveError, NotationError
from ..geometry import Geometry, bits, geometry
from ..notation import Twist, hole_name
from ..outcome import Outcome, Places, Termination
from ..position import Position
from .notation import TripleMove, parse_triple_move, triple_move_name
from ..turns import Phase, RecordsMoves, require_phase, twists_either_way

if TYPE_CHECKING:
    from ..record import Record

SIZE, COLOURS, PER_COLOUR = 6, 3, 9
REPEATS = 3  # the third occurrence of a move-phase position ends the game
MODES = ("shared", "personal", "bonus")
_SWITCHES = ("two-colour", "personal", "bonus")


@dataclass(frozen=True)
class TripleOptions:
    """The settings of a Triple game; raises ValueError naming a bad one.

    ``cards`` are the game's cards in order (the face-up cards then the rest of the deck; personal
    cards in seat order; the bonus deck in the order it is turned); empty: dealt from the shipped
    deck shuffled with ``seed``.

    >>> TripleOptions(players=3, cards=parse_cards("BYRYB,RRYBB"), bonus=True).text()
    'players=3 cards=BYRYB,RRYBB seed=0 two-colour=off personal=off bonus=on'
    >>> TripleOptions.parse("players=4 personal=on seed=7")
    TripleOptions(players=4, cards=(), seed=7, two_colour=False, personal=True, bonus=False)
    >>> TripleOptions(personal=True, bonus=True)
    Traceback (most recent call last):
    ...
    ValueError: personal cards and the bonus game are two different games: choose one
    """

    players: int = 2
    cards: tuple[Card, ...] = ()
    seed: int = 0
    two_colour: bool = False
    personal: bool = False
    bonus: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int) or not 2 <= self.players <= 4:
            raise ValueError(f"players must be 2 to 4, not {self.players!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a whole number of at least 0, not {self.seed!r}")
        if self.personal and self.bonus:
            raise ValueError("personal cards and the bonus game are two different games: choose one")

    @property
    def mode(self) -> str:
        """``"shared"`` (the standard game), ``"personal"`` or ``"bonus"``."""
        return "personal" if self.personal else "bonus" if self.bonus else "shared"

    def text(self) -> str:
        """The canonical ``key=value`` form, as record headers write it."""
        words = [f"players={self.players}"]
        if self.cards:
            words.append(f"cards={cards_text(self.cards)}")
        words.append(f"seed={self.seed}")
        for key, on in zip(_SWITCHES, (self.two_colour, self.personal, self.bonus)):
            words.append(f"{key}={'on' if on else 'off'}")
        return " ".join(words)

    @classmethod
    def parse(cls, text: str) -> TripleOptions:
        """Read :meth:`text`'s form back; unknown keys or values raise ValueError naming them."""
        values: dict[str, str] = {}
        for word in text.split():
            key, sep, value = word.partition("=")
            if not sep or key not in ("players", "cards", "seed", *_SWITCHES):
                raise ValueError(f"option {word!r} is not one of players=N, cards=..., seed=N, "
                                 "two-colour=on|off, personal=on|off, bonus=on|off")
            values[key] = value
        numbers = {key: values.get(key, default) for key, default in (("players", "2"), ("seed", "0"))}
        for key, value in numbers.items():
            if not value.isdigit():
                raise ValueError(f"option {key} must be a number, not {value!r}")
        switches = [values.get(key, "off") for key in _SWITCHES]
        for key, value in zip(_SWITCHES, switches):
            if value not in ("on", "off"):
                raise ValueError(f"option {key} must be 'on' or 'off', not {value!r}")
        on = [value == "on" for value in switches]
        return cls(int(numbers["players"]), parse_cards(values.get("cards", "")), int(numbers["seed"]), *on)


class Claim(NamedTuple):
    """A card completed by ``seat``'s turn ``turn`` (1-based), on ``lines`` (holes in card order),
    and the seat it eliminated (standard game), if any."""

    turn: int
    seat: int
    card: Card
    lines: tuple[tuple[int, ...], ...]
    eliminated: int | None = None


def deal(options: TripleOptions, deck: tuple[Card, ...] | None = None) -> tuple[Card, ...]:
    """The game's cards in order: ``options.cards``, or ``deck`` (default: the shipped deck)
    shuffled with the seed; checked against the mode and two-colour play (ValueError).

    >>> deal(TripleOptions(players=3))[:2] == deal(TripleOptions(players=3))[:2]
    True
    >>> len(deal(TripleOptions(players=3))), len(deal(TripleOptions(players=3, personal=True)))
    (20, 3)
    """
    if options.cards:
        cards = options.cards
    else:
        cards = shuffled(deck if deck is not None else load_deck(), options.seed)
        if options.two_colour:
            cards = _of_one_pair(cards)
        if options.personal:
            cards = cards[:options.players]
    _check_cards(options, cards)
    return cards


def _of_one_pair(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    pair = next((c.colours_used for c in cards if len(c.colours_used) == 2), None)
    if pair is None:
        raise ValueError("two-colour play needs cards in two colours; the deck has none")
    return tuple(c for c in cards if set(c.colours_used) <= set(pair))


def _check_cards(options: TripleOptions, cards: tuple[Card, ...]) -> None:
    players, mode = options.players, options.mode
    for i, card in enumerate(cards):
        for other in cards[:i]:
            if card.is_same_pattern(other):
                same = "" if card == other else f" ({other} read backwards)"
                raise ValueError(f"card {card} is given twice{same}; the cards in a game differ")
    if mode == "personal" and len(cards) != players:
        raise ValueError(f"personal cards: {players} players need {players} cards (one each), not {len(cards)}")
    if mode == "shared" and len(cards) < players - 1:
        raise ValueError(f"{players} players need {players - 1} face-up card{'s' * (players > 2)}, not {len(cards)}")
    if mode == "bonus" and not cards:
        raise ValueError("the bonus game needs at least one card")
    if options.two_colour:
        used = sorted({c for card in cards for c in card.colours})
        if len(used) != 2:
            names = ", ".join(COLOUR_NAMES[c] for c in used)
            raise ValueError(f"two-colour play needs cards in exactly two colours; these use {names}")


class TripleGame(RecordsMoves):
    """A game of Pentago Triple (see the module doc for the rules and the decisions).

    Seats are numbered from 1; ``starter`` moves first; ``deck`` replaces the shipped deck when
    the options give no cards. A game can start from ``position`` (three colour planes, e.g. a
    puzzle or a test), ``last_played`` being the hole of the marble played last, if any.
    """

    ranked: ClassVar[bool] = True  # its record's Result gives the whole standings

    @classmethod
    def new(cls, players: int | None = None, twist: str | None = None, neutral_skip: bool = True,
            starter: int = 1, size: int = SIZE, *, cards: tuple[Card, ...] = (), seed: int = 0,
            two_colour: bool = False, personal: bool = False, bonus: bool = False) -> TripleGame:
        """A new game from the options the place-then-twist games are started with (Triple
        twists either way, always) and its own, ``cards`` .. ``bonus``.

        >>> TripleGame.new(players=3, bonus=True).variant
        'triple'
        >>> TripleGame.new(twist="cw")
        Traceback (most recent call last):
        ...
        ValueError: Pentago Triple twists either way; twist 'cw' is an option of multiplayer and teams
        """
        twists_either_way("Pentago Triple", twist, neutral_skip, "always twists")
        if size != SIZE:
            raise ValueError(f"Pentago Triple is played on the {SIZE}x{SIZE} board, not {size}x{size}")
        return cls(TripleOptions(players or 2, cards, seed, two_colour, personal, bonus), starter)

    @classmethod
    def from_record(cls, record: Record, size: int = SIZE) -> TripleGame:
        """The game a Triple record starts with (its ``Options`` name every card dealt);
        NotationError naming the header that is wrong."""
        try:
            game = cls(TripleOptions.parse(record.headers.get("Options", "")), record.starter)
            if record.colours and len(record.colours) != game.players:
                raise ValueError(f"Colours names {len(record.colours)} colours for {game.players} seats")
            return game
        except ValueError as error:
            raise NotationError(f"record: {error}") from None

    def __init__(self, options: TripleOptions | None = None, starter: int = 1,
                 deck: tuple[Card, ...] | None = None, position: Position | None = None,
                 last_played: int | None = None) -> None:
        self.options = options = options or TripleOptions()
        self.players = options.players
        if not 1 <= starter <= self.players:
            raise ValueError(f"the starter must be a seat from 1 to {self.players}, not {starter}")
        self.dealt = deal(options, deck)
        self.mode = options.mode
        self.allowed: tuple[int, ...] = (
            tuple(sorted({c for card in self.dealt for c in card.colours})) if options.two_colour else (0, 1, 2)
        )
        self.geometry: Geometry = geometry(SIZE)
        self.position = position or Position.empty(SIZE, COLOURS)
        self.out: tuple[int, ...] = tuple(s.bit_count() for s in self.position.stones)  # marbles out of the box
        self._check_start()
        self.starter = self.to_move = starter
        self.phase = Phase.PLACE
        self.outcome: Outcome | None = None
        self.moves: list[TripleMove] = []
        face_up = {"shared": self.players - 1, "personal": self.players, "bonus": 1}[self.mode]
        self.cards: tuple[Card, ...] = self.dealt[:face_up]  # face-up cards still in play (personal: per seat)
        self.reserve: tuple[Card, ...] = self.dealt[face_up:] if self.mode != "personal" else ()
        self.eliminated: tuple[int, ...] = ()  # seats in the order they went out
        self.claims: tuple[Claim, ...] = ()
        self.last_played = last_played  # where the marble played last now sits
        self.lifted: int | None = None  # move phase: the hole whose marble is in hand
        self._lifted_colour = 0
        self._turn_start = self.position
        self._partial: TripleMove | None = None  # this turn's placement or move, awaiting the twist
        self._seen: tuple[object, ...] = ()  # move-phase positions after each turn (repetitions)
        self._undo: list[dict[str, object]] = []

    # -- queries -------------------------------------------------------------------------------

    @property
    def variant(self) -> str:
        return "triple"

    @property
    def personal(self) -> tuple[Card, ...]:
        """The personal cards in seat order (personal mode; empty otherwise)."""
        return self.dealt if self.mode == "personal" else ()

    @property
    def taken(self) -> dict[int, list[Card]]:
        """The cards each seat has completed, in order (every seat listed; the bonus game's score)."""
        out: dict[int, list[Card]] = {seat: [] for seat in range(1, self.players + 1)}
        for claim in self.claims:
            out[claim.seat].append(claim.card)
        return out

    @property
    def colours(self) -> int:
        """How many marble colours the game has planes for (three, even in two-colour play)."""
        return COLOURS

    @property
    def places(self) -> Places:
        """Places earned while the game runs: none (the eliminated are placed at the end)."""
        return ()

    @property
    def standings(self) -> Places:
        """The final places, best first (empty while the game runs; see the module doc)."""
        return self.outcome.standings if self.outcome is not None else ()

    def playing(self) -> tuple[int, ...]:
        """The seats still in the game, in seat order."""
        return tuple(s for s in range(1, self.players + 1) if s not in self.eliminated)

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def in_box(self, colour: int) -> int:
        """How many marbles of ``colour`` are still in the box (0 for a colour out of play)."""
        return PER_COLOUR - self.out[colour] if colour in self.allowed else 0

    @property
    def in_hand(self) -> int | None:
        """The colour of the marble lifted in the move phase and not yet put down, else None."""
        return None if self.lifted is None else self._lifted_colour

    def is_move_phase(self) -> bool:
        """True once every marble in play is on the board: turns move marbles."""
        return not any(self.in_box(c) for c in self.allowed)

    def may_skip_twist(self) -> bool:
        return False  # the twist is always made in Triple

    def rows(self) -> list[str]:
        """The board as rows from row 6 down: ``.`` empty, ``b``, ``y``, ``r``."""
        return self.position.rows("byr")

    def twists(self) -> list[Twist]:
        return [Twist(b, cw) for b in range(1, self.geometry.block_count + 1) for cw in (True, False)]

    def legal_moves(self) -> list[TripleMove]:
        """Every legal whole move for the seat to move (a pattern on the placement or move: bare)."""
        if self.phase is not Phase.PLACE or self.lifted is not None:
            return []
        moves: list[TripleMove] = []
        empty = bits(self.position.empty_holes)
        if self.is_move_phase():
            for origin in bits(self.position.occupied):
                if origin != self.last_played:
                    lifted = self.position.lift(origin)
                    colour = self.position.colour_at(origin)
                    assert colour is not None
                    for hole in empty:
                        moves.extend(self._whole(lifted.place(hole, colour), hole, TripleMove(hole, None, origin)))
            return moves
        for colour in self.allowed:
            if self.in_box(colour):
                for hole in empty:
                    moves.extend(self._whole(self.position.place(hole, colour), hole, TripleMove(hole, colour)))
        return moves

    def _whole(self, after: Position, hole: int, move: TripleMove) -> list[TripleMove]:
        if self._claims_through(after, hole):
            return [move]
        return [move._replace(twist=t) for t in self.twists()]

    # -- playing -------------------------------------------------------------------------------

    def place(self, hole: int, colour: int) -> None:
        """First half of a turn before the move phase: a ``colour`` marble into ``hole``."""
        name = hole_name(hole, self.geometry)
        self._require(Phase.PLACE, f"placing {COLOUR_LETTERS[colour]} on {name}")
        self._no_marble_in_hand()
        if self.is_move_phase():
            total = PER_COLOUR * len(self.allowed)
            raise IllegalMoveError(f"all {total} marbles are on the board: move one (e.g. a1-b5 4R) instead of placing")
        if colour not in self.allowed:
            names = " and ".join(COLOUR_NAMES[c] for c in self.allowed)
            raise IllegalMoveError(f"{COLOUR_NAMES[colour]} is out of play: two-colour play uses only {names}")
        if not self.in_box(colour):
            raise IllegalMoveError(f"no {COLOUR_NAMES[colour]} marble is left in the box (all {PER_COLOUR} are on the board)")
        self._empty(hole)
        self._save()
        self._turn_start = self.position
        self.position = self.position.place(hole, colour)
        self.out = tuple(n + (c == colour) for c, n in enumerate(self.out))
        self._played(TripleMove(hole, colour))

    def lift(self, hole: int) -> None:
        """Move phase, first half: take the marble out of ``hole`` (not the one played last)."""
        name = hole_name(hole, self.geometry)
        self._require(Phase.PLACE, f"lifting {name}")
        self._no_marble_in_hand()
        if not self.is_move_phase():
            raise IllegalMoveError(f"lifting {name}: marbles are still in the box; place one (e.g. Rb5 4R)")
        colour = self.position.colour_at(hole)
        if colour is None:
            raise IllegalMoveError(f"hole {name} is empty: there is no marble to move")
        if hole == self.last_played:
            raise IllegalMoveError(f"the marble on {name} was played last; move another marble")
        self._save()
        self._turn_start = self.position
        self.lifted, self._lifted_colour = hole, colour
        self.position = self.position.lift(hole)

    def drop(self, hole: int) -> None:
        """Move phase, second half of the move: put the marble in hand into the empty ``hole``."""
        name = hole_name(hole, self.geometry)
        self._require(Phase.PLACE, f"moving to {name}")
        origin = self.lifted
        if origin is None:
            raise IllegalMoveError(f"moving to {name}: no marble is in hand; lift one first")
        if hole == origin:
            raise IllegalMoveError(f"the marble must go to another hole than {name}, where it came from")
        self._empty(hole)
        self._save()
        self.position = self.position.place(hole, self._lifted_colour)
        self.lifted = None
        self._played(TripleMove(hole, None, origin))

    def move(self, origin: int, target: int) -> None:
        """Move phase: the marble on ``origin`` to the empty ``target`` (lift, then drop)."""
        self.lift(origin)
        try:
            self.drop(target)
        except IllegalMoveError:
            self._restore()
            raise

    def twist(self, twist: Twist) -> None:
        """Second half of every turn: turn a block a quarter turn (always made)."""
        self._require(Phase.TWIST, f"twisting {twist}")
        if not 1 <= twist.block <= self.geometry.block_count:
            raise IllegalMoveError(f"there is no block {twist.block}")
        assert self._partial is not None and self.last_played is not None
        self._save()
        self.position = self.position.rotate(twist.block, twist.clockwise)
        turned = self.geometry.rotate(1 << self.last_played, twist.block, twist.clockwise)
        self.last_played = turned.bit_length() - 1
        self._end_turn(self._partial._replace(twist=twist), self._new_claims())

    def skip_twist(self) -> None:
        """Refused: the twist is always made in Triple."""
        self._require(Phase.TWIST, "skipping the twist")
        raise IllegalMoveError(_TWIST_ALWAYS)

    def push(self, move: TripleMove) -> None:
        """Play a whole move, or raise :class:`IllegalMoveError` and leave the game unchanged."""
        depth = len(self._undo)
        try:
            self._push(move)
        except IllegalMoveError as error:
            while len(self._undo) > depth:
                self._restore()
            raise IllegalMoveError(f"illegal move {self.move_name(move)!r}: {error}") from None

    def _push(self, move: TripleMove) -> None:
        if move.origin is None:
            assert move.colour is not None, "a placement has a colour"
            self.place(move.hole, move.colour)
        else:
            self.move(move.origin, move.hole)
        if self.phase is Phase.TWIST:
            if move.twist is None:
                raise IllegalMoveError(f"the twist is missing: {_TWIST_ALWAYS}")
            self.twist(move.twist)
        elif move.twist is not None:
            what = "placement" if move.origin is None else "move"
            cards = ", ".join(str(c.card) for c in self.claims if c.turn == len(self.moves))
            raise IllegalMoveError(f"the {what} completes {cards} and ends the "
                                   f"{'game' if self.is_over() else 'turn'}; no twist follows")

    def push_text(self, text: str) -> None:
        """Parse and play a move in Triple notation (``Rb5 4R``, ``Rb5``, ``a1-b5 4R``)."""
        self.push(self.parse_text(text))

    def parse_text(self, text: str) -> TripleMove:
        """The move written ``text`` in Triple notation; NotationError naming it."""
        return parse_triple_move(text, self.geometry)

    def pop(self) -> TripleMove:
        """Take back the last whole move and return it; mid-turn, take back the turn so far
        (the placement or move awaiting its twist, returned bare, or the lifted marble)."""
        if self.phase is Phase.TWIST or self.lifted is not None:
            partial = self._partial or TripleMove(self.lifted or 0, None, self.lifted)
            self._back_to(len(self.moves))
            return partial
        if not self.moves:
            raise IllegalMoveError("there is no move to take back")
        move = self.moves[-1]
        self._back_to(len(self.moves) - 1)
        return move

    def move_name(self, move: TripleMove) -> str:
        return triple_move_name(move, self.geometry)

    def record_headers(self) -> dict[str, str]:
        """Its ``Options`` name every card dealt, so the record replays without the deck file."""
        return {"Variant": self.variant, "Options": replace(self.options, cards=self.dealt).text()}

    # -- judging -------------------------------------------------------------------------------

    def _judged_cards(self) -> tuple[Card, ...]:
        """The cards the mover can complete: the face-up ones, or the mover's own."""
        if self.mode == "personal":
            return (self.dealt[self.to_move - 1],)
        return self.cards

    def _claims_through(self, after: Position, hole: int) -> list[tuple[Card, tuple[tuple[int, ...], ...]]]:
        """The judged cards standing on ``after`` through ``hole`` (new: the hole was empty)."""
        out = []
        for card in self._judged_cards():
            lines = tuple(occurrences(card, after, through=hole))
            if lines:
                out.append((card, lines))
        return out

    def _new_claims(self) -> list[tuple[Card, tuple[tuple[int, ...], ...]]]:
        """The judged cards with an occurrence now that did not stand when the turn began."""
        out = []
        for card in self._judged_cards():
            before = set(occurrences(card, self._turn_start))
            lines = tuple(line for line in occurrences(card, self.position) if line not in before)
            if lines:
                out.append((card, lines))
        return out

    def _played(self, partial: TripleMove) -> None:
        self.last_played = partial.hole
        claims = self._claims_through(self.position, partial.hole)
        if claims:
            self._end_turn(partial, claims)
        else:
            self._partial = partial
            self.phase = Phase.TWIST

    def _end_turn(self, move: TripleMove, claims: list[tuple[Card, tuple[tuple[int, ...], ...]]]) -> None:
        self.moves.append(move)
        self._partial = None
        if claims:
            self._claim(claims)
        if self.is_over():
            return
        self.to_move = self._next_seat()
        self.phase = Phase.PLACE
        if self.is_move_phase():
            key = (self.position, self.to_move, self.cards, self.last_played)
            self._seen += (key,)
            if self._seen.count(key) >= REPEATS:
                self._finish(Termination.REPETITION, ())

    def _claim(self, claims: list[tuple[Card, tuple[tuple[int, ...], ...]]]) -> None:
        mover, turn = self.to_move, len(self.moves)
        lines = tuple(line for _, found in claims for line in found)
        victim = self._previous_seat() if self.mode == "shared" else None
        self.claims += tuple(Claim(turn, mover, card, found, victim) for card, found in claims)
        if self.mode == "personal":
            self._finish(Termination.OWN_PATTERN, lines)
            return
        done = {card for card, _ in claims}
        self.cards = tuple(c for c in self.cards if c not in done)
        if victim is not None:
            self.eliminated += (victim,)
        wanted = len(self.playing()) - 1 if self.mode == "shared" else 1
        while len(self.cards) < wanted and self.reserve:
            self.cards, self.reserve = self.cards + self.reserve[:1], self.reserve[1:]
        if self.mode == "shared" and len(self.playing()) == 1:
            self._finish(Termination.LAST_PLAYER, lines)
        elif not self.cards:
            self._finish(Termination.CARDS_OUT, lines)

    def _finish(self, termination: Termination, lines: tuple[tuple[int, ...], ...]) -> None:
        places = self._places(termination)
        winners = places[0] if len(places) > 1 else ()
        self.outcome = Outcome(termination, winners, lines, places)
        self.phase = Phase.OVER

    def _places(self, termination: Termination) -> Places:
        seats = tuple(range(1, self.players + 1))
        if self.mode == "bonus":
            scores = {seat: len(cards) for seat, cards in self.taken.items()}
            counts = sorted(set(scores.values()), reverse=True)
            return tuple(tuple(s for s in seats if scores[s] == n) for n in counts)
        if self.mode == "personal":
            if termination is Termination.REPETITION:
                return (seats,)
            return ((self.to_move,), tuple(s for s in seats if s != self.to_move))
        out: Places = (self.playing(),)
        return out + tuple((seat,) for seat in reversed(self.eliminated))

    def _previous_seat(self) -> int:
        """The seat still in the game that moves just before the mover."""
        playing = self.playing()
        return playing[playing.index(self.to_move) - 1]

    def _next_seat(self) -> int:
        playing = self.playing()
        return next((s for s in playing if s > self.to_move), playing[0])

    # -- inside --------------------------------------------------------------------------------

    def _check_start(self) -> None:
        if self.position.geometry is not self.geometry or len(self.position.stones) != COLOURS:
            raise ValueError("Pentago Triple is played on the 6x6 board with three colours")
        for colour, count in enumerate(self.out):
            limit = PER_COLOUR if colour in self.allowed else 0
            if count > limit:
                raise ValueError(f"the position has {count} {COLOUR_NAMES[colour]} marbles; this game has {limit}")

    def _require(self, phase: Phase, doing: str) -> None:
        require_phase(self.phase, phase, doing, self.to_move, "a placement or a move")

    def _no_marble_in_hand(self) -> None:
        if self.lifted is not None:
            raise IllegalMoveError(
                f"the marble from {hole_name(self.lifted, self.geometry)} is in hand: put it on an empty hole"
            )

    def _empty(self, hole: int) -> None:
        if self.position.colour_at(hole) is not None:
            raise IllegalMoveError(f"hole {hole_name(hole, self.geometry)} is already taken")

    def _save(self) -> None:
        state = {name: getattr(self, name) for name in _STATE}
        state["moves"] = len(self.moves)
        self._undo.append(state)

    def _restore(self) -> None:
        state = self._undo.pop()
        count = state.pop("moves")
        for name, value in state.items():
            setattr(self, name, value)
        assert isinstance(count, int)
        del self.moves[count:]

    def _back_to(self, count: int) -> None:
        while not (len(self.moves) == count and self.phase is Phase.PLACE and self.lifted is None):
            self._restore()

    def __repr__(self) -> str:
        return f"<TripleGame {self.position.text()!r} to_move={self.to_move} phase={self.phase.value}>"


_STATE = ("position", "to_move", "phase", "outcome", "cards", "reserve", "eliminated", "claims", "out",
          "last_played", "lifted", "_lifted_colour", "_turn_start", "_partial", "_seen")
_TWIST_ALWAYS = "every turn ends with a twist in Pentago Triple (an empty block may be turned), e.g. 'Rb5 4R'"

