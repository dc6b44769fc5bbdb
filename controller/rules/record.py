"""Game records people can read and edit: ``Key: value`` headers, a blank line, one move a line.

::

    Variant: classic
    Player 1: Ada
    Player 2: Bo
    Date: 2026-11-29
    Result: 1

    b5 4R
    e2 1L

``Result`` is the winning seat(s) (``1``; several comma-separated), ``draw``, or ``*`` while the
game runs. Headers keep their order, and unknown headers are kept, so a record round-trips
exactly: ``format_record(parse_record(text)) == text`` for every canonical text.

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
>>> replay(parse_record(text)).position == game.position
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .classic import ClassicGame
from .errors import IllegalMoveError, NotationError
from .geometry import geometry
from .notation import move_name, parse_move
from .outcome import Outcome

_HEADER = re.compile(r"([A-Za-z][A-Za-z0-9 ]*?):\s?(.*)")
_VARIANTS = {"classic": 6, "classic-9x9": 9}


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


def result_text(outcome: Outcome | None) -> str:
    """The ``Result`` header for an outcome: winning seats, ``draw`` or ``*``."""
    if outcome is None:
        return "*"
    return ",".join(map(str, outcome.winners)) if outcome.winners else "draw"


def record_of(game: ClassicGame, players: list[str], date: str | None = None) -> Record:
    """The record of ``game`` as played so far."""
    headers = {"Variant": _variant_name(game)}
    headers.update({f"Player {i}": name for i, name in enumerate(players, start=1)})
    if date:
        headers["Date"] = date
    headers["Result"] = result_text(game.outcome)
    return Record(headers, [game.move_name(m) for m in game.moves])


def format_record(record: Record) -> str:
    head = "".join(f"{key}: {value}\n" for key, value in record.headers.items())
    return head + "\n" + "".join(f"{move}\n" for move in record.moves)


def parse_record(text: str) -> Record:
    """Read a record; raises :class:`NotationError` naming the line of any problem."""
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
    if record.variant not in _VARIANTS:
        raise NotationError(f"record: unknown variant {record.variant!r} (known: {', '.join(_VARIANTS)})")
    for number, line in enumerate(lines[number:], start=number + 1):
        if line.strip():
            record.moves.append(_canonical_move(line, number, _VARIANTS[record.variant]))
    return record


def replay(record: Record) -> ClassicGame:
    """Play a record's moves through the rules; raises naming the first illegal move's number."""
    game = ClassicGame(size=_VARIANTS[record.variant], players=max(2, len(record.players)))
    for number, text in enumerate(record.moves, start=1):
        try:
            game.push_text(text)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"record move {number}: {error}") from None
    stated = record.headers.get("Result", "*")
    if stated != "*" and stated != result_text(game.outcome):
        raise IllegalMoveError(f"record says Result: {stated}, but the moves give {result_text(game.outcome)}")
    return game


def _canonical_move(line: str, number: int, size: int) -> str:
    g = geometry(size)
    try:
        return move_name(parse_move(line, g), g)
    except NotationError as error:
        raise NotationError(f"record line {number}: {error}") from None


def _variant_name(game: ClassicGame) -> str:
    return next(name for name, size in _VARIANTS.items() if size == game.geometry.size)
