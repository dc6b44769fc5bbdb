"""The computer opponent's new-game options: which seats it plays, its level, and hints.

``computer`` names the seats the computer plays: ``false`` (none), ``true`` (seat 2, the one
seat it played before it could play any) or a list of seats such as ``[2, 3]``. Checked options
keep one spelling for each choice: no seat is ``False``, seat 2 alone is ``True`` (so records
and journals written before stay as they were), any other set is a sorted list. The computer may
play every seat (a demonstration game); decided here, as the rulebooks do not say.

``level`` is optional: without it (or ``None``) the daemon's configured level plays. ``hints``
(default on) lets the players ask for the best move on their turn.

>>> seats, level, hints = computer_choices(2)
>>> seats.check([3, 2]), seats.check([2]), seats.check([])
([2, 3], True, False)
>>> seats.values, seats.values_for({"players": 3})
((False, True, [1], [1, 2]), (False, [3], [2, 3], [1], [1, 2, 3]))
>>> seats.means([1, 2, 3], {"players": 3})
'the computer plays every seat (a game to watch)'
>>> level.values_for({"computer": False}), level.values_for({"computer": [1]})
((None,), (None, 0, 1, 2, 3))
>>> seats_for(True, 2), seats_for([1, 2], 2)
(True, [1, 2])
>>> seats_for([3], 2)
Traceback (most recent call last):
...
controller.games.spec.OptionError: computer [3]: seat 3 is not a seat of this game (seats 1 to 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..ai import LEVEL_TABLE, level_named
from ..flow.seats import computer_seats
from .spec import LEVEL_WORDS, Choice, OptionError

SEATS_WORDS = "true (seat 2), false (none) or a list of seats such as [2, 3]"
MAX_SEATS = 4  # no game of the family seats more players


def canonical(seats: list[int]) -> bool | list[int]:
    """One spelling per set of seats: none False, seat 2 alone True, else the sorted list."""
    ordered = sorted(set(seats))
    return False if not ordered else True if ordered == [2] else ordered


def seats_for(value: Any, players: int) -> Any:
    """Checked ``computer`` ``value`` (already :meth:`ComputerSeats.check`-ed) for a game of
    ``players`` seats; OptionError names a seat the game does not have."""
    for seat in computer_seats({"computer": value}):
        if seat > players:
            raise OptionError(f"computer {_shown(value)}: seat {seat} is not a seat of this game (seats 1 to {players})")
    return value


def _shown(value: Any) -> str:
    return "true" if value is True else "false" if value is False else repr(value)


@dataclass(frozen=True)
class ComputerSeats(Choice):
    """The ``computer`` option. Its menu page offers, for the chosen number of players: no
    computer, the computer at the last seat, (in team play the second pair, seats 2 and 4,) the
    last two, ..., at seat 1 alone (so it starts), and at every seat. The web console offers any
    set (a box per seat)."""

    players: int = 2  # the number of seats when none is chosen (the game's default)
    pairs: bool = False  # team play: partners sit opposite (1 and 3 against 2 and 4)

    def check_in(self, value: Any, options: Mapping[str, Any]) -> Any:
        return seats_for(self.check(value), int(options.get("players", self.players)))

    def check(self, value: Any) -> Any:
        if isinstance(value, bool):
            return value
        if not isinstance(value, list) or not all(type(s) is int and 1 <= s <= MAX_SEATS for s in value) \
                or len(set(value)) != len(value):
            raise OptionError(f"computer {value!r}: give {SEATS_WORDS}")
        return canonical(value)

    def values_for(self, chosen: Mapping[str, Any]) -> tuple[Any, ...]:
        players = int(chosen.get("players", self.players))
        runs = [canonical(list(range(first, players + 1))) for first in range(players, 1, -1)]
        if self.pairs:
            runs.insert(1, [2, 4])
        return (False, *runs, canonical([1]), canonical(list(range(1, players + 1))))

    def means(self, value: Any, chosen: Mapping[str, Any] | None = None) -> str:
        players = int((chosen or {}).get("players", self.players))
        seats = computer_seats({"computer": value})
        if not seats:
            return "two players at the board" if players == 2 else f"{players} players at the board"
        if value is True:
            return "play against the computer (it plays seat 2)"
        if len(seats) == players:
            return "the computer plays every seat (a game to watch)"
        if seats == (1,):
            return "the computer plays seat 1 (it starts)"
        if len(seats) == 1:
            return f"the computer plays seat {seats[0]}"
        if self.pairs and seats == (2, 4):
            return "the computer plays seats 2 and 4 (a pair)"
        return f"the computer plays seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}"


@dataclass(frozen=True)
class LevelChoice(Choice):
    """The ``level`` option: None (the board's configured level) or a level of the computer
    opponent. Its menu page is asked only when the computer plays a seat."""

    def check(self, value: Any) -> Any:
        if value is None:
            return None
        try:
            return level_named(value).number
        except ValueError:
            raise OptionError(f"level {value!r}: the levels are {LEVEL_WORDS}") from None

    def values_for(self, chosen: Mapping[str, Any]) -> tuple[Any, ...]:
        return self.values if computer_seats(chosen) else (None,)


def computer_choices(players: int, pairs: bool = False, level_words: tuple[str, ...] | None = None) -> tuple[Choice, ...]:
    """The computer's three options, in menu order, for a game whose default number of seats
    is ``players`` (the values listed for the web page and the README are for that many);
    ``pairs`` for team play; ``level_words`` what each level does in this game, where it plays
    otherwise than the classic levels' words say (Pentago Triple's)."""
    seats = ComputerSeats("computer", (False,), ("",), default=False, players=players, pairs=pairs)
    values = seats.values_for({})
    return (
        ComputerSeats("computer", values, tuple(seats.means(v) for v in values), default=False, players=players,
                      pairs=pairs),
        LevelChoice("level", (None, *(level.number for level in LEVEL_TABLE)),
                    ("the board's level (from its config)", *(level_words or tuple(level.words for level in LEVEL_TABLE))),
                    default=None, label="Computer's level"),
        HINTS,
    )


HINTS = Choice("hints", (True, False), ("hints on request: the board lights the best move",
                                        "no hints in this game"), menu=False)
