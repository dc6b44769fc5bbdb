"""The place-then-twist variants by name, as records and the command line spell them.

``new_game`` makes any of them from its options and checks the combination; a bad one raises
ValueError with a message that names the option and what the variant allows.

>>> new_game("multiplayer", players=3).variant, new_game("teams").players
('multiplayer', 4)
>>> new_game("classic", twist="cw")
Traceback (most recent call last):
...
ValueError: classic Pentago twists either way; twist 'cw' is an option of multiplayer and teams
>>> new_game("teams", players=3)
Traceback (most recent call last):
...
ValueError: team play needs exactly 4 players (two pairs), not 3
"""

from __future__ import annotations

from .classic import ClassicGame
from .multiplayer import MultiplayerGame
from .teams import TeamGame
from .turns import PlaceTwistGame

SIZES = {"classic": 6, "classic-9x9": 9, "multiplayer": 9, "teams": 9}
VARIANTS = tuple(SIZES)


def new_game(
    variant: str,
    players: int | None = None,
    twist: str | None = None,
    neutral_skip: bool = True,
    starter: int = 1,
) -> PlaceTwistGame:
    """A new game of ``variant`` with these options, ``starter`` to move first."""
    if variant not in SIZES:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    if variant == "multiplayer":
        if players is None:
            raise ValueError("multiplayer needs the number of players: 2 to 4")
        return MultiplayerGame(players, twist or "cw", neutral_skip, to_move=starter)
    if variant == "teams":
        return TeamGame(twist or "cw", neutral_skip, to_move=starter, players=players or 4)
    if twist not in (None, "both"):
        raise ValueError(f"classic Pentago twists either way; twist {twist!r} is an option of multiplayer and teams")
    if not neutral_skip:
        raise ValueError("classic Pentago keeps the neutral-block skip; neutral-skip off is an option of multiplayer and teams")
    return ClassicGame(SIZES[variant], players or 2, to_move=starter)
