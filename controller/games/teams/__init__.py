"""Team Pentago: 9x9, four seats in two pairs, partners opposite (seats 1 and 3 against 2 and 4).

One colour per pair (the board's own two), so turns alternate teams; the team that makes five
wins, both teams five after one turn or a full board is a draw (see
:mod:`controller.rules.teams`). The menu asks the twist rule, which seats the computer plays
(a computer pair is seats 2 and 4; the web console's boxes take any seats) and its level.
"""

from __future__ import annotations

from ..multiplayer import NEUTRAL_SKIP, TWIST
from ..computer import computer_choices
from ...rules import TeamGame
from ..spec import Choice, GameSpec

SPEC = GameSpec(
    name="teams",
    game=TeamGame,
    title="Team Pentago",
    sizes=(9,),
    choices=(
        Choice("players", (4,), ("4 players in two pairs",), refusal="team play needs exactly 4 players (two pairs)"),
        TWIST,
        NEUTRAL_SKIP,
        *computer_choices(4, pairs=True),
    ),
    eager=True,
    computer=True,
    opponent="family",
)
