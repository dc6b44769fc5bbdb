"""The end of a game as a value: why it ended, who won, the winning lines and the standings."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

# Places, best first; each place a sorted tuple of the seats that share it: ((3,), (1, 2)).
Places = tuple[tuple[int, ...], ...]


class Termination(Enum):
    """Why a game ended (for multiplayer games: what the final turn did)."""

    FIVE_ON_PLACEMENT = "five on placement"  # the mover made five by placing: no twist follows
    FIVE_AFTER_TWIST = "five after twist"  # exactly one colour has five after the twist
    BOTH_FIVE = "both five"  # several colours five after one twist: a draw (multiplayer: a shared place)
    BOARD_FULL = "board full"  # no empty hole: a draw, or the rest share the last place
    # Pentago Triple
    LAST_PLAYER = "last player left"  # the others were eliminated by completed cards
    OWN_PATTERN = "own pattern"  # personal cards: the mover built their own card
    CARDS_OUT = "cards run out"  # no card left to play for: bonus game scores, or the rest share first
    REPETITION = "position repeated"  # the third time the same move-phase position came round
    # Picture-Puzzle practice
    PRACTICE_OVER = "practice over"  # a restore failed, or the last k was restored


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winners`` are seat numbers (from 1); empty for a draw.

    ``standings`` place every seat once, best first (empty only in outcomes made by hand, such as
    a match tally's); a draw is one place shared by all.

    >>> Outcome(Termination.BOARD_FULL, ()).result
    'draw'
    >>> Outcome(Termination.FIVE_AFTER_TWIST, (3,), (), ((3,), (1,), (2,))).standings[1]
    (1,)
    """

    termination: Termination
    winners: tuple[int, ...]
    lines: tuple[tuple[int, ...], ...] = ()  # the winning runs, holes in order along each
    standings: Places = ()

    @property
    def result(self) -> str:
        """``"win"`` or ``"draw"``, as the JSON output spells it."""
        return "win" if self.winners else "draw"

    def is_draw(self) -> bool:
        return not self.winners
