"""The variants by name, as records and the command line spell them: the rules' side of the
registry (:func:`controller.games.variants` is the registry's view, and tests/games checks that
the two name the same variants; the rules, below the registry, replay records by these names).

``new_game`` makes any place-then-twist variant from its options and checks the combination; a
bad one raises ValueError with a message that names the option and what the variant allows.
``make_game`` is the one place that builds every variant, Pentago Triple (``triple``, its own
rules object, :class:`~controller.rules.triple.TripleGame`) included.

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
>>> make_game("triple", players=3, bonus=True).variant, make_game("classic").variant
('triple', 'classic')
>>> make_game("classic", bonus=True)
Traceback (most recent call last):
...
ValueError: bonus is an option of triple only
"""

from __future__ import annotations

from .classic import ClassicGame
from .multiplayer import MultiplayerGame
from .triple.cards import Card
from .teams import TeamGame
from .triple import TripleGame, TripleOptions
from .turns import PlaceTwistGame

SIZES = {"classic": 6, "classic-9x9": 9, "multiplayer": 9, "teams": 9}  # the place-then-twist ones
VARIANTS = tuple(SIZES)
TRIPLE = "triple"
EVERY_VARIANT = (*VARIANTS, TRIPLE)
EVERY_SIZE = {**SIZES, TRIPLE: 6}


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


def make_game(
    variant: str,
    players: int | None = None,
    twist: str | None = None,
    neutral_skip: bool = True,
    starter: int = 1,
    *,
    cards: tuple[Card, ...] = (),
    seed: int = 0,
    two_colour: bool = False,
    personal: bool = False,
    bonus: bool = False,
) -> PlaceTwistGame | TripleGame:
    """A new game of any variant; Triple takes ``cards`` .. ``bonus``, the others ``twist`` and
    ``neutral_skip``. An option the variant does not have raises ValueError naming it."""
    triple_only = {"cards": bool(cards), "seed": seed != 0, "two-colour": two_colour,
                   "personal": personal, "bonus": bonus}
    if variant != TRIPLE:
        for name, given in triple_only.items():
            if given:
                raise ValueError(f"{name} is an option of triple only")
        return new_game(variant, players, twist, neutral_skip, starter)
    if twist not in (None, "both"):
        raise ValueError(f"Pentago Triple twists either way; twist {twist!r} is an option of multiplayer and teams")
    if not neutral_skip:
        raise ValueError("Pentago Triple always twists; neutral-skip off is an option of multiplayer and teams")
    options = TripleOptions(players or 2, cards, seed, two_colour, personal, bonus)
    return TripleGame(options, starter)
