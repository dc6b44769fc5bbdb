"""Classic Pentago: two players, place then twist either way; on the 6x6 board, or on 9x9.

On a 9x9 board classic plays by the same rules (its records name the ``classic-9x9`` variant).
It is the one game the computer opponent plays so far (it takes seat 2), and the one with a
match: best of five, starts alternate.
"""

from __future__ import annotations

from ..flow.place_twist import PlaceTwistFlow
from ..flow.scene import scene
from ..flow.steps import explain, is_idle_turn, next_colour
from .spec import Choice, GameSpec

SPEC = GameSpec(
    name="classic",
    title="Classic Pentago",
    sizes=(6, 9),
    choices=(
        Choice("players", (2,), ("2 players",), refusal="classic Pentago is for 2 players"),
        Choice("computer", (False, True), ("two players at the board", "play against the computer (it plays seat 2)")),
        Choice("match", (False, True), ("a single game", "a match: best of five, starts alternate")),
    ),
    flow=PlaceTwistFlow,
    explain=explain,
    is_idle_turn=is_idle_turn,
    next_colour=next_colour,
    scene=scene,
    variants={9: "classic-9x9"},
    computer=True,
)
