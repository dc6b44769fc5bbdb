"""A position for the computer to analyse, from the board string of the oracle positions (tests/data/oracle-positions.jsonl).

The string has 36 characters: rows 6 down to 1, each from column a to f; ``.`` is an empty hole,
``x`` a stone of the first player, ``o`` of the second. A board that cannot arise in a game is
refused with :class:`BoardError` saying why: a wrong length or character, stone counts that
cannot be (x moves first, so x has as many stones as o or one more), a side to move the counts
contradict (x is to move exactly when the counts are equal), a game already over (five in a row)
or a full board.

>>> game = game_from_board("x" + "." * 34 + "o", "x")
>>> game.to_move, game.position.text()[:6], game.position.text()[-6:]
(1, 'x.....', '.....o')
>>> game_from_board("x" + "." * 35, "x")
Traceback (most recent call last):
...
controller.ai.board.BoardError: x has 1 stone and o has 0, so o is to move, not x
"""

from __future__ import annotations

from ..rules import ClassicGame, Position, hole_name

SIZE = 6
HOLES = SIZE * SIZE
SIDES = ("x", "o")


class BoardError(ValueError):
    """A board that cannot arise in a game of classic Pentago; the message says why."""


def game_from_board(rows: str, to_move: str) -> ClassicGame:
    """The classic game at ``rows`` (the oracle's board string) with ``to_move`` (``x`` or ``o``)
    to place; :class:`BoardError` if no game reaches it."""
    if len(rows) != HOLES:
        raise BoardError(f"the board has {len(rows)} characters; it needs {HOLES} "
                         f"(rows 6 down to 1, columns a to f)")
    for i, c in enumerate(rows):
        if c not in ".xo":
            hole = f"{chr(ord('a') + i % SIZE)}{SIZE - i // SIZE}"
            raise BoardError(f"the board has {c!r} at character {i + 1} ({hole}); a hole is '.', 'x' or 'o'")
    if to_move not in SIDES:
        raise BoardError(f"the side to move is {to_move!r}; it is 'x' or 'o'")
    xs, os_ = rows.count("x"), rows.count("o")
    counts = f"x has {_stones(xs)} and o has {os_}"
    if xs not in (os_, os_ + 1):
        raise BoardError(f"{counts}: x moves first, so x has as many stones as o or one more")
    due = "x" if xs == os_ else "o"
    if to_move != due:
        raise BoardError(f"{counts}, so {due} is to move, not {to_move}")
    position = Position.parse(rows)
    fives = [(side, position.fives(colour)) for colour, side in enumerate(SIDES) if position.has_five(colour)]
    if fives:
        who = " and ".join(side for side, _ in fives)
        lines = "; ".join(" ".join(hole_name(h, position.geometry) for h in lines[0]) for _, lines in fives)
        raise BoardError(f"the game is already over: {who} {'has' if len(fives) == 1 else 'have'} "
                         f"five in a row ({lines})")
    if xs + os_ == HOLES:
        raise BoardError("the board is full: the game is over (a draw)")
    return ClassicGame(position=position, to_move=1 if to_move == "x" else 2)


def _stones(count: int) -> str:
    return f"{count} stone" if count == 1 else f"{count} stones"
