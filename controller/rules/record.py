"""Game records people can read and edit: ``Key: value`` headers, a blank line, one move a line.

::

    Variant: teams
    Options: players=4 twist=cw neutral-skip=on
    Player 1: Ada
    Player 2: Bo
    Player 3: Cy
    Player 4: Di
    Colours: white, black, white, black
    Starter: 2
    Result: *

    e5 5R
    d4 1R

The header names the variant (``classic``, ``classic-9x9``, ``multiplayer``, ``teams``,
``triple``, ``puzzle``: see :mod:`~controller.rules.puzzle.record`), its options (``Options``; see :class:`~controller.rules.turns.PlayOptions`, and
:class:`~controller.rules.triple.TripleOptions` for Triple, whose record names every card dealt
so that it replays without the deck file), the seats (``Player N``
names in seat order, ``Colours`` in seat order) and who started (``Starter``), so a record alone
replays the game exactly. A classic record leaves out what equals the classic defaults (two
players, seat 1 starting), so classic records read and write as they always have; ``Colours``
is written when the caller names them.

``Result`` is the winning seat(s) (``1``; partners ``1,3``), ``draw``, or ``*`` while the game runs;
a multiplayer or Triple record gives the whole standings, best first: ``3 > 1,2`` (seats sharing
a place joined by commas). Triple moves are in Triple notation (``Rb5 4R``, ``a1-b5 4R``). Headers keep their order, and unknown headers are kept, so a record
round-trips exactly: ``format_record(parse_record(text, start)) == text`` for every canonical text.

Which game a variant is, the rules do not say: reading and replaying a record take ``start``,
which makes the game a record starts with (each rules class's ``from_record``), and the
registry hands them its own (:func:`controller.games.parse_record`, :func:`controller.games.replay`).

>>> game = ClassicGame()
>>> game.push_text("b5 4R")
>>> text = format_record(record_of(game, ["Ada", "Bo"], date="2026-11-29"))
>>> print(text)
Variant: classic
Player 1: Ada
Player 2: Bo
Date: 2026-11-29
Result: *
<BLANKLINE>
b5 4R
<BLANKLINE>
>>> start = lambda record: ClassicGame.from_record(record, 6)
>>> replay(parse_record(text, start), start).position == game.position
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from .classic import ClassicGame
from .errors import IllegalMoveError, NotationError
from .outcome import Outcome
from .puzzle import PuzzleGame
from .puzzle.record import canonical_line, play_line, puzzle_headers, record_lines
from .triple import TripleGame, TripleOptions
from .turns import PlaceTwistGame, PlayOptions

_HEADER = re.compile(r"([A-Za-z][A-Za-z0-9 ]*?):\s?(.*)")
AnyGame = PlaceTwistGame | TripleGame | PuzzleGame
Start = Callable[["Record"], AnyGame]  # the game a record starts with; NotationError naming what is wrong


@dataclass
class Record:
    """A parsed game record: ordered headers and the moves as canonical text."""

    headers: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)

    @property
    def variant(self) -> str:
        return self.headers.get("Variant", "classic")

    @property
    def players(self) -> list[str]:
        return [v for k, v in self.headers.items() if re.fullmatch(r"Player \d", k)]

    @property
    def colours(self) -> list[str]:
        text = self.headers.get("Colours", "")
        return [c.strip() for c in text.split(",")] if text.strip() else []

    @property
    def starter(self) -> int:
        """The seat that moved first (1 without a ``Starter`` header); ValueError if not a number."""
        text = self.headers.get("Starter", "1")
        if not text.isdigit():
            raise ValueError(f"Starter must be a seat number, not {text!r}")
        return int(text)

    @property
    def options(self) -> PlayOptions | None:
        """The ``Options`` header read, or None without one; raises ValueError naming a bad option."""
        text = self.headers.get("Options")
        return None if text is None else PlayOptions.parse(text)

    @property
    def triple_options(self) -> TripleOptions:
        """A Triple record's ``Options`` (the defaults without one); ValueError naming a bad option."""
        return TripleOptions.parse(self.headers.get("Options", ""))


def result_text(outcome: Outcome | None, ranked: bool = False) -> str:
    """The ``Result`` header: winning seats, the standings when ``ranked``, ``draw`` or ``*``.

    >>> from controller.rules.outcome import Termination
    >>> result_text(Outcome(Termination.BOARD_FULL, (2,), (), ((2,), (1, 3))), ranked=True)
    '2 > 1,3'
    """
    if outcome is None:
        return "*"
    if not outcome.winners:
        return "draw"
    if ranked:
        return " > ".join(",".join(map(str, place)) for place in outcome.standings)
    return ",".join(map(str, outcome.winners))


def record_of(
    game: AnyGame,
    players: Sequence[str],
    date: str | None = None,
    colours: Sequence[str] | None = None,
) -> Record:
    """The record of ``game`` as played so far, its seats named ``players`` (and ``colours``)."""
    if colours is not None and len(colours) != game.players:
        raise ValueError(f"{len(colours)} colours for {game.players} seats")
    if isinstance(game, PuzzleGame):
        return _puzzle_record(game, players, date, colours)
    classic = isinstance(game, ClassicGame)
    headers = {"Variant": game.variant}
    if isinstance(game, TripleGame):
        headers["Options"] = replace(game.options, cards=game.dealt).text()
    elif not classic or game.players != 2:
        headers["Options"] = game.options.text()
    headers.update({f"Player {i}": name for i, name in enumerate(players, start=1)})
    if colours:
        headers["Colours"] = ", ".join(colours)
    if not classic or game.starter != 1:
        headers["Starter"] = str(game.starter)
    if date:
        headers["Date"] = date
    headers["Result"] = result_text(game.outcome, game.ranked)
    if isinstance(game, TripleGame):  # the same line twice: each kind of game names its own moves
        return Record(headers, [game.move_name(m) for m in game.moves])
    return Record(headers, [game.move_name(m) for m in game.moves])


def _puzzle_record(game: PuzzleGame, players: Sequence[str], date: str | None,
                   colours: Sequence[str] | None) -> Record:
    headers = puzzle_headers(game)
    headers.update({f"Player {i}": name for i, name in enumerate(players, start=1)})
    if colours:
        headers["Colours"] = ", ".join(colours)
    if date:
        headers["Date"] = date
    headers["Result"] = result_text(game.outcome, ranked=True)
    return Record(headers, record_lines(game))


def format_record(record: Record) -> str:
    head = "".join(f"{key}: {value}\n" for key, value in record.headers.items())
    return head + "\n" + "".join(f"{move}\n" for move in record.moves)


def parse_record(text: str, start: Start) -> Record:
    """Read a record whose game ``start`` makes; raises :class:`NotationError` naming the line
    or header of any problem."""
    lines = text.splitlines()
    record = Record()
    number = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            break
        m = _HEADER.fullmatch(line.strip())
        if not m:
            raise NotationError(f"record line {number}: {line!r} is not a 'Key: value' header")
        record.headers[m[1]] = m[2].strip()
    game = start(record)  # the variant, options, seats and starter make a game, or raise naming the header
    for number, line in enumerate(lines[number:], start=number + 1):
        if not line.strip():
            continue
        if isinstance(game, PuzzleGame):
            record.moves.append(canonical_line(line, game, number))
        else:
            record.moves.append(_canonical_move(line, number, game))
    return record


def replay(record: Record, start: Start) -> AnyGame:
    """Play a record's moves through the rules of the game ``start`` makes; raises naming the
    first illegal move's number (a puzzle record: the line, a round a line)."""
    game = start(record)
    for number, text in enumerate(record.moves, start=1):
        if isinstance(game, PuzzleGame):
            play_line(game, text, number)
            continue
        try:
            game.push_text(text)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"record move {number}: {error}") from None
    stated = record.headers.get("Result", "*")
    found = result_text(game.outcome, game.ranked)
    if stated != "*" and stated != found:
        raise IllegalMoveError(f"record says Result: {stated}, but the moves give {found}")
    return game


def _canonical_move(line: str, number: int, game: PlaceTwistGame | TripleGame) -> str:
    try:
        if isinstance(game, TripleGame):  # the same line twice: each kind of game reads its own moves
            return game.move_name(game.parse_text(line))
        return game.move_name(game.parse_text(line))
    except NotationError as error:
        raise NotationError(f"record line {number}: {error}") from None
