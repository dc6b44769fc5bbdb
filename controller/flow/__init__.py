"""The game flow: one `transitions` state machine per family of games, plus the menu.

:class:`PlaceTwistFlow` plays every place-then-twist game (classic, multiplayer, teams) from
the registry's specs; :class:`Menu` offers the registry's games and their options on the holes
when no game runs; :mod:`.scene` lights any of them. :func:`mermaid` exports a flow's diagram
from the machine itself.
"""

from .menu import Menu
from .place_twist import FRESH_KINDS, STATES, PlaceTwistFlow, Resume
from .place_twist import PLAYING as _PLACE_TWIST_PLAYING
from .steps import Action, explain, is_idle_turn, next_colour

# The states in which a game is played and the board is judged, in any family's flow.
PLAYING = [*_PLACE_TWIST_PLAYING, "confirming_colour"]

__all__ = ["Action", "FRESH_KINDS", "Menu", "PLAYING", "PlaceTwistFlow", "Resume", "STATES", "explain",
           "is_idle_turn", "next_colour"]
