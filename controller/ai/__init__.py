"""The computer opponent for classic two-player Pentago.

Pure like :mod:`controller.rules`: no I/O, no threads, no clock (a deadline function is
injected). The search works on raw bitboards with the rules' geometry tables.

>>> from controller.rules import ClassicGame
>>> game = ClassicGame()
>>> move = choose_move(game, level=1, seed=3)
>>> move in game.legal_moves()
True
"""

from .levels import DEFAULT_LEVEL, LEVEL_TABLE, LEVELS, THINK_SECONDS, level_named
from .player import analyse, choose_move, fallback_move, to_move
from .search import SearchResult

__all__ = ["DEFAULT_LEVEL", "LEVELS", "LEVEL_TABLE", "THINK_SECONDS", "SearchResult", "analyse", "choose_move",
           "fallback_move", "level_named", "to_move"]
