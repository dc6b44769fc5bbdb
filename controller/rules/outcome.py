"""The end of a game as a value: why it ended, who won, and the winning lines."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Termination(Enum):
    """Why a game ended."""

    FIVE_ON_PLACEMENT = "five on placement"  # the mover made five by placing: no twist follows
    FIVE_AFTER_TWIST = "five after twist"  # exactly one colour has five after the twist
    BOTH_FIVE = "both five"  # several colours have five after one twist: a draw
    BOARD_FULL = "board full"  # no five and no empty hole: a draw


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winners`` are seat numbers (from 1); empty for a draw.

    >>> Outcome(Termination.BOARD_FULL, ()).result
    'draw'
    """

    termination: Termination
    winners: tuple[int, ...]
    lines: tuple[tuple[int, ...], ...] = ()  # the winning runs, holes in order along each

    @property
    def result(self) -> str:
        """``"win"`` or ``"draw"``, as the JSON output spells it."""
        return "win" if self.winners else "draw"

    def is_draw(self) -> bool:
        return not self.winners
