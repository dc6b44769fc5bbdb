"""Events: everything that happens to the board, as values on the core's one queue.

Producers (drivers, timers, the web console) build these and put them on the queue; only the
core thread acts on them. Times are seconds on the core's clock (monotonic, or a tape's clock).
Holes are indices of :mod:`controller.rules.geometry` (``row * size + column``, a1 = 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# Readings a hole sensor can give. Presence sensing reports MARBLE; polarity sensing reports a
# colour name from the profile instead (e.g. "white", "black"), or UNSURE between the bands.
EMPTY = "empty"
MARBLE = "marble"
UNSURE = "unsure"


@dataclass(frozen=True, slots=True)
class HoleReading:
    """A hole's sensor changed to ``reading``: EMPTY, MARBLE, UNSURE or a colour name."""

    t: float
    hole: int
    reading: str


@dataclass(frozen=True, slots=True)
class EncoderSteps:
    """Detent steps of one block's encoder; positive is clockwise seen from above."""

    t: float
    block: int
    steps: int


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """A push button was pressed: "ok" or "back" (the profile may name more)."""

    t: float
    button: str


@dataclass(frozen=True, slots=True)
class LinkChange:
    """The link to the sensors went down or came back; ``reason`` is for the log."""

    t: float
    up: bool
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Command:
    """A request from a person through the web console or CLI, e.g. ``new_game``.

    ``args`` holds JSON-like values, or a new game's options the daemon checked already (a
    :class:`~controller.flow.options.GameOptions`, which the core trusts); the core checks the
    others and answers bad ones with a notice.
    """

    t: float
    name: str
    args: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passed: lets the core run settle timers and animations without an input."""

    t: float


InputEvent = HoleReading | EncoderSteps | ButtonPress | LinkChange
Event = InputEvent | Command | Tick
