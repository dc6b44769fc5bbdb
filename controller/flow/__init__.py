"""The game flow: one `transitions` state machine per family of games, plus the menu.

:class:`PlaceTwistFlow` plays every place-then-twist game (classic, multiplayer, teams) from
the registry's specs; :class:`Menu` offers the registry's games and their options on the holes
when no game runs; :mod:`.scene` lights any of them. The base machine's states are constants
(:data:`CHOOSING`, ...); a flow with states of its own names them beside it (``games/<name>/``),
with the states it is played in (``playing_states``) and their words (``state_words``).
"""

from .menu import Menu
from .place_twist import (AWAITING_PLACEMENT, AWAITING_TWIST, BETWEEN_GAMES, CHOOSING, FRESH_KINDS, GAME_OVER, REPAIR,
                          STATES, PlaceTwistFlow, Resume)
from .steps import Action, explain, is_idle_turn, next_colour

__all__ = ["AWAITING_PLACEMENT", "AWAITING_TWIST", "Action", "BETWEEN_GAMES", "CHOOSING", "FRESH_KINDS", "GAME_OVER",
           "Menu", "PlaceTwistFlow", "REPAIR", "Resume", "STATES", "explain", "is_idle_turn", "next_colour"]
