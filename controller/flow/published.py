"""What happened on the board, as the core tells its subscribers (the MQTT event topic): one
small frozen value per kind, made where the thing happens and carried out in
:attr:`controller.core.effects.Effects.events`, in the order it happened.

The flows make a game's own (:class:`Moved`, :class:`TookBack`, :class:`Outcome`): a flow
appends them to its ``events`` and the core takes them with its notices
(:meth:`controller.core.effects.Outbox.hear`). The core makes the board's (:class:`Started`,
:class:`RepairBegun`, :class:`Repaired`, :class:`LinkChanged`, :class:`Notice`). A game with
events of its own declares a subclass of :class:`Event` per kind, with its ``type`` and its
fields in the order they are published.

>>> Moved(1, "b5 4R").to_json()
{'type': 'move', 'number': 1, 'move': 'b5 4R'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Event:
    """One happening: its ``type`` (the JSON's) and its fields, in the order published."""

    type: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **{f.name: getattr(self, f.name) for f in fields(self)}}


@dataclass(frozen=True)
class Started(Event):
    """A new game (a start, or a match's next game): its name, seats and options."""

    type: ClassVar[str] = "game"
    game: str
    seats: list[dict[str, Any]]  # [{"seat", "name", "colour"}], as the state's
    options: Mapping[str, Any]


@dataclass(frozen=True)
class Moved(Event):
    """A move played: its number (from 1) and its text in the game's notation."""

    type: ClassVar[str] = "move"
    number: int
    move: str


@dataclass(frozen=True)
class TookBack(Event):
    """A move taken back (by a command, a button or the referee's withdrawal): the moves left."""

    type: ClassVar[str] = "take_back"
    moves: int


@dataclass(frozen=True)
class Outcome(Event):
    """The game ended: the state's ``outcome`` keys, the winners in words and the standings."""

    type: ClassVar[str] = "outcome"
    result: str
    winners: list[int]
    lines: list[list[int]]
    winner: str  # the winners' names joined by " & ", or "draw"
    standings: list[list[int]]


@dataclass(frozen=True)
class RepairBegun(Event):
    """The board stopped matching the game: the steps that mend it, in words."""

    type: ClassVar[str] = "repair"
    steps: list[str]


@dataclass(frozen=True)
class Repaired(Event):
    """The board matches the game again (or the game it did not match is gone)."""

    type: ClassVar[str] = "repaired"


@dataclass(frozen=True)
class LinkChanged(Event):
    """The sensor link went down or came back."""

    type: ClassVar[str] = "link"
    up: bool


@dataclass(frozen=True)
class Notice(Event):
    """One of the core's notices, in words."""

    type: ClassVar[str] = "notice"
    text: str
