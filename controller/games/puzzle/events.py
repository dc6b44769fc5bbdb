"""Picture-Puzzle's events (see :mod:`controller.flow.published`), told by its flow where each
thing happens (:class:`controller.games.puzzle.flow.PuzzleFlow`), in this order:

- ``stage`` (``stage``, ``k``, ``picture``): a stage begins, the first one with the game; k
  rises with every stage after it (never past the picture's stones, where it stays);
- ``round`` (``round``, ``stage``, ``k``, ``picture``, ``restorer``, ``dismantler``): a round
  begins, that is its dismantle (the restorer looks away);
- ``dismantled`` (``round``, ``restorer``): its dismantle is done, its restore begins;
- ``restore`` (``round``, ``restorer``, ``dismantler``, ``k``, ``passed``, ``reason``,
  ``seconds``: the restore's time, null unless it passed with times kept) when a restore was
  judged (passed, failed, or out of time), and ``out`` (``round``, ``seat``, ``name``,
  ``reason``) when the round put a player out (the restorer, or a dismantler whose time ran out:
  that round has no ``restore`` event).

Seats are numbers, as in the state; ``out`` adds the seat's name. The winner is the ``outcome``
event every game has. The building of the picture and the steps within a round are not events:
the teacher follows a round by its start, its dismantle done and its result.

>>> Dismantled(1, 2).to_json()
{'type': 'dismantled', 'round': 1, 'restorer': 2}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...flow.published import Event


@dataclass(frozen=True)
class StageBegun(Event):
    type: ClassVar[str] = "stage"
    stage: int
    k: int
    picture: str


@dataclass(frozen=True)
class RoundBegun(Event):
    type: ClassVar[str] = "round"
    round: int
    stage: int
    k: int
    picture: str
    restorer: int | None
    dismantler: int | None


@dataclass(frozen=True)
class Dismantled(Event):
    type: ClassVar[str] = "dismantled"
    round: int
    restorer: int | None


@dataclass(frozen=True)
class Restored(Event):
    """A restore judged: passed, failed, or out of time."""

    type: ClassVar[str] = "restore"
    round: int
    restorer: int
    dismantler: int
    k: int
    passed: bool
    reason: str
    seconds: float | None


@dataclass(frozen=True)
class Out(Event):
    type: ClassVar[str] = "out"
    round: int
    seat: int
    name: str
    reason: str
