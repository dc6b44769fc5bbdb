"""What the core hands the runtime after an event: :class:`Effects`, and :class:`Think`, a
request for the computer opponent's move."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..flow.contract import GameRules

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Effects:
    """What the runtime must do after one event, in order: write ``records``, show ``frame``."""

    frame: tuple[RGB, ...] | None  # new LED frame, None when unchanged
    records: tuple[dict[str, Any], ...] = ()  # journal records to write BEFORE showing the frame
    notices: tuple[str, ...] = ()  # human messages for the log and the web console
    think: Think | None = None  # a position for the computer opponent (answered by a Command)
    deadline: float | None = None  # when the core wants the next Tick (Core.next_deadline), None: never


@dataclass(frozen=True)
class Think:
    """A request for the computer opponent's move (its own, or a hint for a person), answered
    with ``Command(answer, {"key": key, "move": "<the game's notation>"})``. The search is slow,
    so the runtime runs it off the core thread; ``game`` is the core's own copy, free to search
    on."""

    key: str  # names the turn; an answer for any other turn is ignored
    game: GameRules
    level: int | None = None  # the game's "level" option; None: the daemon's configured level
    answer: str = "computer_move"  # the command the answer comes back as ("hint_move" for a hint)
    opponent: str | None = None  # who plays it, as the game's spec says (controller.ai.OPPONENTS); None: by the game


@dataclass
class Outbox:
    """The records and notices one event produces, collected by every room of the core."""

    records: list[dict[str, Any]] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)

    def take(self) -> tuple[tuple[dict[str, Any], ...], tuple[str, ...]]:
        out = tuple(self.records), tuple(self.notices)
        self.records, self.notices = [], []
        return out
