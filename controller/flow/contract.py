"""The game contract: what the flows, the core, the computer's requests (``Think``) and the
specs need of any game's rules object, as one protocol.

Place-then-twist games (:class:`~controller.rules.PlaceTwistGame`), Pentago Triple
(:class:`~controller.rules.TripleGame`) and Picture-Puzzle's board game each keep their own
moves and phases; this is what they share. Everything a game's flow adds beyond it (the state's
own keys, a clock, a countdown) is a hook of the base flow,
:class:`~controller.flow.place_twist.PlaceTwistFlow`, with its default there.

>>> from controller.rules import ClassicGame, TripleGame
>>> isinstance(ClassicGame(), GameRules), isinstance(TripleGame(), GameRules)
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any, Protocol, runtime_checkable

from ..rules import Geometry, Outcome, Places, Position


@runtime_checkable
class GameRules(Protocol):
    """Any game's rules object, as the flows, the core and the specs read it."""

    @property
    def players(self) -> int: ...
    @property
    def geometry(self) -> Geometry: ...
    @property
    def starter(self) -> int: ...  # the seat that moved first
    @property
    def to_move(self) -> int: ...  # the seat acting now
    @property
    def phase(self) -> Enum: ...  # the game's own phases (placing, twisting, ..., over)
    @property
    def position(self) -> Position: ...
    @property
    def moves(self) -> Sequence[Any]: ...  # the game's own moves, oldest first
    @property
    def outcome(self) -> Outcome | None: ...
    @property
    def standings(self) -> Places: ...
    @property
    def places(self) -> Places: ...  # the places earned so far, best first (multiplayer earns them in play)
    @property
    def variant(self) -> str: ...  # as records name it

    def is_over(self) -> bool: ...
    def playing(self) -> tuple[int, ...]: ...  # the seats still playing


class OpponentRules(GameRules, Protocol):
    """A game the computer opponent plays (its spec's ``computer``): its moves can be listed,
    named, played whole and, after a placement, its twist skipped where the rules allow."""

    def legal_moves(self) -> Sequence[Any]: ...
    def move_name(self, move: Any) -> str: ...
    def push(self, move: Any) -> None: ...
    def may_skip_twist(self) -> bool: ...
