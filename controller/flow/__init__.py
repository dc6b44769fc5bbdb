"""The game flow: one `transitions` state machine per variant, plus the menu that picks one.

:class:`ClassicFlow` is the classic game; :class:`Menu` offers games and options on the holes
when no game runs. :func:`mermaid` exports a flow's diagram from the machine itself.
"""

from .classic import FRESH_KINDS, PLAYING, STATES, ClassicFlow
from .classic_records import GAMES
from .classic_steps import Action, explain, is_idle_turn
from .menu import Menu

__all__ = ["Action", "ClassicFlow", "FRESH_KINDS", "GAMES", "Menu", "PLAYING", "STATES", "explain", "is_idle_turn"]
