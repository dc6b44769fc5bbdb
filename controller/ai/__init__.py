"""The computer opponent for every game of the family.

Pure like :mod:`controller.rules`: no I/O, no threads, no clock (a deadline function is
injected). The searches work on raw bitboards with the rules' geometry tables. One entry point,
:func:`choose_move`, plays any game: two-player classic by an iterative-deepening search
(:mod:`.search`), multiplayer and team seats by tactics and a round of look-ahead
(:mod:`.family`), Pentago Triple seats by pattern tactics (:mod:`.triple`).

>>> from controller.rules import ClassicGame
>>> game = ClassicGame()
>>> move = choose_move(game, level=1, seed=3)
>>> move in game.legal_moves()
True
"""

from .levels import DEFAULT_LEVEL, LEVEL_TABLE, LEVELS, THINK_SECONDS, level_named
from .player import ENGINES, OPPONENTS, analyse, choose_move, engine_in_use, fallback_move, opponent_of, to_move
from .search import SearchResult

__all__ = ["DEFAULT_LEVEL", "ENGINES", "LEVELS", "LEVEL_TABLE", "OPPONENTS", "THINK_SECONDS", "SearchResult",
           "analyse", "choose_move", "engine_in_use", "fallback_move", "level_named", "opponent_of", "to_move"]
