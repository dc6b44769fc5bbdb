"""What the core hands the runtime after an event: :class:`Effects`; :class:`Think`, a
request for the computer opponent's move; and :class:`SavePicture`, a picture to keep."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ..flow.contract import GameRules
from ..flow.published import Event
from ..games import Picture

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Effects:
    """What the runtime must do after one event, in order: write ``records``, show ``frame``,
    then tell the ``notices`` and ``events``."""

    frame: tuple[RGB, ...] | None  # new LED frame, None when unchanged
    records: tuple[dict[str, Any], ...] = ()  # journal records to write BEFORE showing the frame
    notices: tuple[str, ...] = ()  # human messages for the log and the web console
    think: Think | None = None  # a position for the computer opponent (answered by a Command)
    deadline: float | None = None  # when the core wants the next Tick (Core.next_deadline), None: never
    events: tuple[Event, ...] = ()  # what happened, in order, for the subscribers (controller.flow.published)
    save: SavePicture | None = None  # a picture for the daemon's store to write (answered by a Command)


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


@dataclass(frozen=True)
class SavePicture:
    """A request to keep ``picture`` (the board captured as it stands) among the saved
    pictures, answered with ``Command(answer, {"notice": <what happened>, "saved": <bool>})``.
    Writing a file can be slow or fail (a full disk, a read-only folder), so the runtime has the
    daemon's picture store write it off the core thread; the core only decides."""

    picture: Picture
    answer: str = "picture_saved"


class Telling(Protocol):
    """What the outbox takes from a flow: its news (notices) and its events, once."""

    def take_news(self) -> list[str]: ...
    def take_events(self) -> list[Event]: ...


@dataclass
class Outbox:
    """The records, notices and events one event produces, collected by every room of the core."""

    records: list[dict[str, Any]] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def hear(self, flow: Telling) -> None:
        """Take what ``flow`` has to tell since it was last heard: its news and its events."""
        self.notices.extend(flow.take_news())
        self.events.extend(flow.take_events())

    def take(self) -> tuple[tuple[dict[str, Any], ...], tuple[str, ...], tuple[Event, ...]]:
        out = tuple(self.records), tuple(self.notices), tuple(self.events)
        self.records, self.notices, self.events = [], [], []
        return out
