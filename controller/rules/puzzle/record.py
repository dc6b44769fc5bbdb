"""Picture-Puzzle in game records: the picture travels in the headers, each round is one line.

::

    Variant: puzzle
    Options: players=3 start-k=1 restore-limit=30 dismantle-limit=off check=colour
    Picture: H
    Board: ........./..B...B../../.........
    Player 1: Ada
    ...
    Result: 2 > 3 > 1

    -c2 5R c2 5L
    -g2 1R g2 1R
    -c2 time

A line holds a round's steps in order (see :mod:`~controller.rules.puzzle.notation`); ``time``
ends the phase in hand by the timer (the restore, or the dismantle, ran out of time), since a
record keeps no clock. The last line may be a round still in progress. ``Board`` is the picture's
rows, top first, joined by ``/``, so a record replays without the picture file. ``Result`` gives
the standings: the winner, then the others in reverse order of going out.

>>> from controller.rules.puzzle.pictures import library_picture
>>> game = PuzzleGame(library_picture("h", 9), PuzzleOptions(players=2))
>>> for step in "-c2 5R c2 5L -g2".split():
...     _ = game.push_text(step)
>>> record_lines(game)
['-c2 5R c2 5L', '-g2']
>>> from controller.rules.record import Record
>>> again = PuzzleGame.from_record(Record(puzzle_headers(game)))
>>> for number, line in enumerate(record_lines(game), start=1):
...     play_line(again, line, number)
>>> again.position == game.position and len(again.rounds) == 1
True
"""

from __future__ import annotations

from ..errors import IllegalMoveError, NotationError
from . import PuzzleGame, PuzzleOptions, Reason, Round  # noqa: F401 (PuzzleOptions: the example uses it)
from .notation import parse_step, step_name

VARIANT = PuzzleGame.variant
TIME = "time"  # the phase in hand ran out of time


def puzzle_headers(game: PuzzleGame) -> dict[str, str]:
    """The headers that make ``game`` again: variant, options, the picture's title and rows."""
    return {"Variant": VARIANT, "Options": game.options.text(), "Picture": game.picture.title,
            "Board": "/".join(game.picture.rows())}


def record_lines(game: PuzzleGame) -> list[str]:
    """One line per round played, then the round in progress if it has begun."""
    lines = [_round_line(game, r) for r in game.rounds]
    if game.steps():
        lines.append(" ".join(step_name(s, game.geometry) for s in game.steps()))
    return lines


def _round_line(game: PuzzleGame, done: Round) -> str:
    words = [step_name(s, game.geometry) for s in done.steps]
    if done.reason in (Reason.RESTORE_TIME, Reason.DISMANTLE_TIME):
        words.append(TIME)
    return " ".join(words)


def canonical_line(line: str, game: PuzzleGame, number: int) -> str:
    """A record line in canonical steps; NotationError naming the line."""
    try:
        return " ".join(w if w.lower() == TIME else step_name(parse_step(w, game.geometry), game.geometry)
                        for w in line.split())
    except NotationError as error:
        raise NotationError(f"record line {number}: {error}") from None


def play_line(game: PuzzleGame, line: str, number: int) -> None:
    """Play a record line's steps; IllegalMoveError naming the line."""
    try:
        for word in line.split():
            if word.lower() == TIME:
                game.time_out()
            else:
                game.push_text(word)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"record line {number}: {error}") from None
