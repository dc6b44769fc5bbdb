"""A new game's options once checked: the value the core and the flows trust.

A command's arguments, the menu's picks, the config's game and a journal's start record are
checked once, by the game's spec (:meth:`controller.games.GameSpec.options`), for one board
size; what comes out is a :class:`GameOptions`, read like the mapping the records hold
(``options["players"]``, ``{**options}``) and frozen, and it knows its game's spec, so starting
the game asks nobody again: the rules object is ``options.make(starter)``.

>>> from controller.games import get
>>> options = get("classic").options({"computer": True}, 6)
>>> options["players"], options.size, options.spec.name, type(options.make(1)).__name__
(2, 6, 'classic', 'ClassicGame')
>>> options
GameOptions({'game': 'classic', 'players': 2, 'computer': True, 'hints': True, 'match': False}, size=6)
>>> options["players"] = 3
Traceback (most recent call last):
...
TypeError: 'GameOptions' object does not support item assignment
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Protocol

from .contract import GameRules


class Rulebook(Protocol):
    """What checked options need of their game's spec (a :class:`~controller.games.GameSpec`)."""

    @property
    def name(self) -> str: ...
    def make(self, options: Mapping[str, Any], size: int, starter: int = 1) -> GameRules: ...
    def colours(self, options: Mapping[str, Any], board: tuple[str, ...]) -> tuple[str, ...]: ...


@dataclass(frozen=True, eq=False, repr=False)
class GameOptions(Mapping[str, Any]):
    """A new game's complete options as its ``spec`` checked them for a ``size`` board. Made by
    the spec's check only; equal to any mapping with the same keys and values."""

    spec: Rulebook
    size: int
    chosen: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "chosen", MappingProxyType(dict(self.chosen)))  # a copy nobody else holds

    def __getitem__(self, key: str) -> Any:
        return self.chosen[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.chosen)

    def __len__(self) -> int:
        return len(self.chosen)

    def __repr__(self) -> str:
        return f"GameOptions({dict(self.chosen)!r}, size={self.size})"

    def completed(self, **values: Any) -> GameOptions:
        """These options with ``values`` a flow fills in itself when the game starts (Triple's
        seed from the start time), not checked again."""
        return replace(self, chosen={**self.chosen, **values})

    def make(self, starter: int = 1) -> GameRules:
        """A fresh rules object of the game, ``starter`` first."""
        return self.spec.make(self, self.size, starter)

    def colours(self, board: tuple[str, ...]) -> tuple[str, ...]:
        """The colour names of the game's colour indices, the board's own (``board``) first."""
        return self.spec.colours(self, board)
