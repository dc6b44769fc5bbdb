"""The virtual board's verbs behind ``POST /api/board/<verb>``, each checked against what the
hardware can do before it touches the board (the commands behind ``POST /api/command`` are
checked in :mod:`controller.daemon.requests`, for every way in).

A real block turns a few detents at a time, a hole name is a few characters and a marble has
one of the board's colours; a request asking for more is refused with a 400 at once, so it can
never keep the daemon busy (a turn of 500,000 detents once took it 105 s and 3 GB).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...errors import shown
from .api import BadRequest, bounded, field, text

MAX_QUARTERS = 4  # one verb turns a block at most a full turn
MAX_NAME_CHARS = 16  # hole names (a1, 2/5) and button names are short


@dataclass(frozen=True)
class Limits:
    """What one board allows, from its profile."""

    hole_count: int
    block_count: int
    detents_per_quarter: int
    colours: tuple[str, ...]

    @property
    def max_steps(self) -> int:
        return MAX_QUARTERS * self.detents_per_quarter


def hole(data: dict[str, Any], limits: Limits) -> int | str:
    """The hole: an index on the board or a name (the board parses names)."""
    value = field(data, "hole", (int, str))
    if isinstance(value, int):
        return bounded(data, "hole", 0, limits.hole_count - 1)
    return str(text(data, "hole", MAX_NAME_CHARS))


def colour(data: dict[str, Any], limits: Limits) -> str | None:
    """The marble's colour: one of the board's, or none (the colour of the player to move)."""
    value = field(data, "colour", (str, type(None)), None)
    if value is not None and value not in limits.colours:
        raise BadRequest(f"colour {shown(value)} is not a marble colour of this board; "
                         f"one of {', '.join(limits.colours)} (or leave it out)")
    return value


def steps(data: dict[str, Any], limits: Limits) -> int:
    """Detents to turn: at most a full turn either way, never none."""
    value = bounded(data, "steps", -limits.max_steps, limits.max_steps)
    if value == 0:
        raise BadRequest("field 'steps' = 0 turns nothing; give detents, positive clockwise")
    return value


def block(data: dict[str, Any], limits: Limits) -> int:
    return bounded(data, "block", 1, limits.block_count)


def clear(board: Any) -> dict[str, Any]:
    """Lift every marble (the players clearing the board after a game, in one click), first
    turning any block left part-way through a turn back square, as hands would."""
    for block, offset in board.offsets().items():
        board.turn(block, -offset)
    lifted = []
    for index in sorted(board.marbles()):
        board.lift(index)
        lifted.append(board.name(index))
    return {"done": "clear", "lifted": lifted}


Verb = Callable[[Any, dict[str, Any], Limits], Any]
VERBS: dict[str, Verb] = {
    "place": lambda b, d, lim: b.place(hole(d, lim), colour(d, lim)),
    "lift": lambda b, d, lim: b.lift(hole(d, lim)),
    "turn": lambda b, d, lim: b.turn(block(d, lim), steps(d, lim)),
    "quarter": lambda b, d, lim: b.quarter(block(d, lim), field(d, "clockwise", bool)),
    "press": lambda b, d, lim: b.press(text(d, "button", MAX_NAME_CHARS)),
    "clear": lambda b, d, lim: clear(b),
}
