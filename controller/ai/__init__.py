"""The computer opponent for classic two-player Pentago.

Pure like :mod:`controller.rules`: no I/O, no threads, no clock (a deadline function is
injected). The search works on raw bitboards with the rules' geometry tables.

>>> from controller.rules import ClassicGame
>>> game = ClassicGame()
>>> move = choose_move(game, level=1, seed=3)
>>> move in game.legal_moves()
True
"""

from .player import THINK_SECONDS, analyse, choose_move, to_move
from .search import SearchResult

__all__ = ["THINK_SECONDS", "SearchResult", "analyse", "choose_move", "to_move"]
