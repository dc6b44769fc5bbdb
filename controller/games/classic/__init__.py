"""Classic Pentago: two players, place then twist either way; on the 6x6 board, or on 9x9.

On a 9x9 board classic plays by the same rules (its records name the ``classic-9x9`` variant).
The computer opponent can play either seat or both, at any level, and the players may ask it
for hints (see :mod:`controller.games.computer`). Classic is the one game with a match: best
of five, starts alternate.
"""

from __future__ import annotations

from ..computer import computer_choices
from ...rules import ClassicGame
from ..spec import Choice, GameSpec

SPEC = GameSpec(
    name="classic",
    game=ClassicGame,
    title="Classic Pentago",
    sizes=(6, 9),
    choices=(
        Choice("players", (2,), ("2 players",), refusal="classic Pentago is for 2 players"),
        *computer_choices(2),
        Choice("match", (False, True), ("a single game", "a match: best of five, starts alternate")),
    ),
    eager=True,
    variants={9: "classic-9x9"},
    computer=True,
)
