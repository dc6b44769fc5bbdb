"""Who sits where, in words: the name every notice, the page and the record give a seat, and
which seats the computer plays.

A seat is named by the name typed for it; a seat left at its default name (``Seat 2``) that the
computer plays is named for the computer and its level, ``Computer (easy)``, the level being the
game's ``level`` option or, without one, the board's configured level (``board_level``).

>>> computer_seats({"computer": True}), computer_seats({"computer": [1, 3]}), computer_seats({})
((2,), (1, 3), ())
>>> seat_names({"names": ["Ann", "Seat 2"], "computer": True, "level": 1}, 2)
['Ann', 'Computer (easy)']
>>> seat_names({"computer": [1]}, 2, board_level=3)
['Computer (strong)', 'Seat 2']
>>> named("refused: the game awaits a twist from seat 2", ["Ann", "Bo"])
'refused: the game awaits a twist from Bo'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..ai import level_named

COMPUTER = "Computer"
SEAT_WORD = re.compile(r"\bseat (\d+)\b")


def computer_seats(options: Mapping[str, Any]) -> tuple[int, ...]:
    """The seats the computer plays in a game with checked ``options``."""
    value = options.get("computer", False)
    if value is True:
        return (2,)
    return tuple(value) if isinstance(value, list) else ()


def default_name(seat: int) -> str:
    return f"Seat {seat}"


def computer_name(level: int | None) -> str:
    """The computer's name at ``level`` (None: a level no one has said)."""
    return COMPUTER if level is None else f"{COMPUTER} ({level_named(level).name})"


def seat_names(options: Mapping[str, Any], players: int, board_level: int | None = None) -> list[str]:
    """Every seat's name, seat 1 first (see the module doc)."""
    typed = list(options.get("names") or ())
    computer = computer_seats(options)
    level = options.get("level", board_level)
    names = []
    for seat in range(1, players + 1):
        name = typed[seat - 1] if seat <= len(typed) else default_name(seat)
        names.append(computer_name(level) if name == default_name(seat) and seat in computer else name)
    return names


def named(text: str, names: Sequence[str]) -> str:
    """``text`` (the rules' words, which know seats by number) with each ``seat N`` the seat's name."""
    return SEAT_WORD.sub(lambda m: names[int(m.group(1)) - 1] if 0 < int(m.group(1)) <= len(names) else m.group(0), text)
