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
Nor do they say how a game's record differs: each game's class says how its record is written
and read (:class:`Recorded`), so this module names no game.

>>> from controller.rules import ClassicGame
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
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from .errors import IllegalMoveError, NotationError
from .outcome import Outcome

_HEADER = re.compile(r"([A-Za-z][A-Za-z0-9 ]*?):\s?(.*)")


class Recorded(Protocol):
    """What a record needs of its game: each game's class says how its record is written and
    read (:class:`~controller.rules.turns.RecordsMoves` is the default: a move a line)."""

    players: int
    outcome: Outcome | None

    @property
    def ranked(self) -> bool: ...  # its Result gives the whole standings, not only the winners

    def record_headers(self) -> dict[str, str]: ...
    def record_starter(self) -> dict[str, str]: ...
    def record_lines(self) -> list[str]: ...
    def record_line(self, line: str, number: int) -> str: ...
    def play_record_line(self, text: str, number: int) -> None: ...


G = TypeVar("G", bound=Recorded)
Start = Callable[["Record"], G]  # the game a record starts with; NotationError naming what is wrong


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
    game: Recorded,
    players: Sequence[str],
    date: str | None = None,
    colours: Sequence[str] | None = None,
) -> Record:
    """The record of ``game`` as played so far, its seats named ``players`` (and ``colours``):
    the game's own headers, the seats, who started, the date and the result, then its lines."""
    if colours is not None and len(colours) != game.players:
        raise ValueError(f"{len(colours)} colours for {game.players} seats")
    headers = game.record_headers()
    headers.update({f"Player {i}": name for i, name in enumerate(players, start=1)})
    if colours:
        headers["Colours"] = ", ".join(colours)
    headers.update(game.record_starter())
    if date:
        headers["Date"] = date
    headers["Result"] = result_text(game.outcome, game.ranked)
    return Record(headers, game.record_lines())


def format_record(record: Record) -> str:
    head = "".join(f"{key}: {value}\n" for key, value in record.headers.items())
    return head + "\n" + "".join(f"{move}\n" for move in record.moves)


def parse_record(text: str, start: Start[Recorded]) -> Record:
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
        record.moves.append(game.record_line(line, number))
    return record


def replay(record: Record, start: Start[G]) -> G:
    """Play a record's moves through the rules of the game ``start`` makes; raises naming the
    first illegal move's number (a puzzle record: the line, a round a line)."""
    game = start(record)
    for number, text in enumerate(record.moves, start=1):
        game.play_record_line(text, number)
    stated = record.headers.get("Result", "*")
    found = result_text(game.outcome, game.ranked)
    if stated != "*" and stated != found:
        raise IllegalMoveError(f"record says Result: {stated}, but the moves give {found}")
    return game
