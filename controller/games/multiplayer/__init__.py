"""Multiplayer Pentago, every man for himself: 9x9, 2-4 players, one colour each.

Players with five keep their stones on the board and stop moving while the rest play on for
the next places (see :mod:`controller.rules.multiplayer`). The menu asks the number of
players, the twist rule (clockwise only, the rulebook's, or both ways), which seats the computer
plays and its level (see :mod:`controller.games.computer`); the neutral-block skip is on unless
a command turns it off.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...colours import seat_colours
from ..computer import computer_choices
from ...rules import MultiplayerGame
from ..spec import Choice, GameSpec

PLAYERS = Choice("players", (2, 3, 4), ("2 players", "3 players", "4 players"),
                 refusal="Multiplayer Pentago is for 2 to 4 players", default=3)
TWIST = Choice("twist", ("cw", "both"), ("twists clockwise only (the rulebook's rule)", "twists either way"),
               refusal="twists are 'cw' (clockwise only) or 'both'", label="Twists")
NEUTRAL_SKIP = Choice("neutral_skip", (True, False),
                      ("the twist may be skipped while a block is neutral", "every turn twists"), menu=False,
                      label="Neutral blocks")


def colours(options: Mapping[str, Any], board: tuple[str, ...]) -> tuple[str, ...]:
    """One colour per player: the board's own two first, then the other seat colours."""
    return seat_colours(board[:2], options["players"])


SPEC = GameSpec(
    name="multiplayer",
    game=MultiplayerGame,
    title="Multiplayer Pentago",
    sizes=(9,),
    choices=(PLAYERS, TWIST, NEUTRAL_SKIP, *computer_choices(PLAYERS.default)),
    eager=True,
    colours=colours,
    computer=True,
    opponent="family",
)
