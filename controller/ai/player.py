"""The computer opponent's entry point: a legal move for the seat to move, at a chosen level.

:func:`choose_move` and :func:`fallback_move` play any game of the family, by the opponent the
game's spec names (``opponent``, one of :data:`OPPONENTS`): ``"family"`` for multiplayer and
team games (:mod:`controller.ai.family`), ``"triple"`` for Pentago Triple
(:mod:`controller.ai.triple`) and ``"search"`` for two-player classic, the search below (the only
game :func:`analyse` reports on). The keyword arguments mean the same for all.

The levels are in :mod:`controller.ai.levels`: level 0 (the beginner) and level 1 look one move
ahead (see :mod:`controller.ai.easy`); level 2 searches by iterative deepening (see
:mod:`controller.ai.search`); level 3 the same with a larger default budget. A search stops when
``deadline()`` turns True or after ``nodes`` nodes; with neither, each level has a default node
budget, so a call without a deadline is exactly repeatable. :func:`fallback_move` is what the
computer plays when its search fails or overruns and no better move is known.

``engine`` chooses what searches below the root of a classic 6x6 search (:data:`ENGINES`):
``"python"`` (the default here, and the reference), ``"compiled"`` (:mod:`.compiled`, numba, the
``fast`` extra: the same search at many times the nodes per second) or ``"auto"`` (compiled when
the extra is installed, else Python; what the daemon and ``analyse`` use unless told otherwise).
Other games and boards always search in Python.

>>> from controller.rules import ClassicGame
>>> game = ClassicGame()
>>> for text in ["a1 1R", "b2 1R", "a2 1L", "b3 1R", "a3 1L", "b4 2R", "a4 2R"]:
...     game.push_text(text)
>>> game.move_name(choose_move(game, level=2))[:2]  # seat 2 must stop a1-a4 becoming five
'a5'
>>> game.move_name(choose_move(game, level=0))[:2]  # the beginner blocks a five in one too
'a5'
>>> result = analyse(game, level=1)
>>> result.depth, game.move_name(to_move(game, *result.move))[:2]
(1, 'a5')
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules import ClassicGame, Move, MultiplayerGame, Phase, PlaceTwistGame, TeamGame, TripleGame, TripleMove
from .budget import Budget
from . import easy, family, triple
from .compiled import ENGINES, CompiledSearcher, engine_in_use
from .levels import DEFAULT_NODES, LEVELS, THINK_SECONDS
from .search import SearchResult, search
from .tables import search_tables

__all__ = ["ENGINES", "LEVELS", "OPPONENTS", "THINK_SECONDS", "analyse", "choose_move", "engine_in_use",
           "fallback_move", "opponent_of", "to_move"]

Progress = Callable[[SearchResult], None]


AnyGame = PlaceTwistGame | TripleGame
# Who plays a seat (a game's spec names its own, GameSpec.opponent): the search of two-player
# classic, the family's tactics for multiplayer and team seats, Triple's pattern tactics.
OPPONENTS = ("search", "family", "triple")
_OF_VARIANT = {"multiplayer": "family", "teams": "family", "triple": "triple"}  # the rest: the search


def opponent_of(game: AnyGame) -> str:
    """The opponent for ``game`` when a caller names none (a tool, a test): by the variant its
    records name."""
    return _OF_VARIANT.get(game.variant, "search")


def choose_move(
    game: AnyGame,
    *,
    level: int = 2,
    deadline: Callable[[], bool] | None = None,
    seed: int = 0,
    nodes: int | None = None,
    progress: Progress | None = None,
    engine: str = "python",
    opponent: str | None = None,
) -> Move | TripleMove:
    """A legal move for the seat to move in ``game`` (a :class:`TripleMove` in Triple), as
    ``opponent`` plays it (one of :data:`OPPONENTS`, the game's spec's; None: :func:`opponent_of`).

    ``deadline`` returns True once time is up (build it from :data:`THINK_SECONDS`); ``nodes``
    caps the search at that many nodes; ``seed`` breaks ties (level 2 and 3) or adds noise
    (levels 0 and 1). Depth 1 is always searched in full, so an early deadline still gets a move
    that takes any immediate win and avoids handing the opponent one where possible.
    ``progress`` is called with the best result so far after every completed iteration (classic
    only: the family's levels answer within their deadline, and :func:`fallback_move` stands in).

    Raises ValueError if the game does not await a placement (or a move, in Triple's move phase),
    is a classic game of more than two players, or ``level`` is not one of :data:`LEVELS`.
    """
    playing = opponent or opponent_of(game)
    if playing != "search":
        return _family_move(game, playing, level, deadline, seed, nodes)
    result = analyse(game, level=level, deadline=deadline, seed=seed, nodes=nodes, progress=progress, engine=engine)
    return to_move(game, *result.move)


def analyse(
    game: AnyGame,
    *,
    level: int = 2,
    deadline: Callable[[], bool] | None = None,
    seed: int = 0,
    nodes: int | None = None,
    progress: Progress | None = None,
    engine: str = "python",
) -> SearchResult:
    """The move :func:`choose_move` plays, with its score (from the mover's view, in the units
    of :mod:`controller.ai.search`), the depth reached and the nodes searched.

    Levels 0 and 1 look one move ahead: depth 1, one node per distinct move.
    """
    me, opp = _bitboards(game, level)
    tables = search_tables(game.geometry.size)
    if level <= 1:
        hole, t, score, count = easy.pick(me, opp, seed, tables, care=easy.BEGINNER_CARE if level == 0 else 1.0)
        result = SearchResult((hole, t), score, 1, count)
        if progress is not None:
            progress(result)
        return result
    if nodes is None and deadline is None:
        nodes = DEFAULT_NODES[level]
    searcher = CompiledSearcher if engine_in_use(engine, game.geometry.size) == "compiled" else None
    return search(me, opp, Budget(nodes, deadline), seed=seed, tables=tables, progress=progress, searcher=searcher)


def fallback_move(game: AnyGame, seed: int = 0, opponent: str | None = None) -> Move | TripleMove:
    """Level 1's move: quick and never a blunder in one, for when a search fails or overruns
    (``opponent`` as for :func:`choose_move`)."""
    playing = opponent or opponent_of(game)
    if playing != "search":
        return _family_move(game, playing, 1, None, seed, None)
    me, opp = _bitboards(game, 1)
    return to_move(game, *easy.easy_move(me, opp, seed, search_tables(game.geometry.size)))


def _family_move(game: AnyGame, playing: str, level: int, deadline: Callable[[], bool] | None,
                 seed: int, nodes: int | None) -> Move | TripleMove:
    """The family's levels: a node budget per level unless a deadline or ``nodes`` is given."""
    _check_level(level)
    if playing == "triple":
        if not isinstance(game, TripleGame):  # the spec and the game disagree: say so, never guess
            raise ValueError(f"the triple opponent plays Pentago Triple, not {game.variant}")
        budget = Budget(nodes if nodes is not None or deadline is not None else triple.NODES.get(level), deadline)
        return triple.triple_move(game, level, budget, seed)
    if playing != "family" or not isinstance(game, (MultiplayerGame, TeamGame)):
        raise ValueError(f"the {playing} opponent does not play {game.variant} (opponents: {', '.join(OPPONENTS)})")
    budget = Budget(nodes if nodes is not None or deadline is not None else family.NODES.get(level), deadline)
    return family.family_move(game, level, budget, seed)


def to_move(game: AnyGame, hole: int, t: int) -> Move:
    """The rules' :class:`Move` for the search's ``(hole, twist index)``."""
    if t < 0:
        return Move(hole)
    return Move(hole, search_tables(game.geometry.size).twists[t])


def _check_level(level: int) -> None:
    if isinstance(level, bool) or level not in LEVELS:
        raise ValueError(f"level {level!r} is not one of {LEVELS}")


def _bitboards(game: AnyGame, level: int) -> tuple[int, int]:
    _check_level(level)
    if not isinstance(game, ClassicGame):
        raise ValueError(f"the search analyses classic Pentago, not {game.variant}")
    if game.players != 2:
        raise ValueError(f"the computer opponent plays two-player games, not {game.players} players")
    if game.phase is not Phase.PLACE:
        raise ValueError(f"the computer opponent moves only when a placement is due, not in phase {game.phase.value!r}")
    stones = game.position.stones
    return stones[game.colour], stones[1 - game.colour]
