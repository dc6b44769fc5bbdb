"""The board's topic tree: every topic it publishes to or listens on, named in one place."""

from __future__ import annotations

from dataclasses import dataclass

ONLINE, OFFLINE = "online", "offline"  # the status payloads (Home Assistant's defaults too)
STOPPED = "stopped"  # the daemon runs and its referee does not answer (see controller.daemon.health)


@dataclass(frozen=True)
class Topics:
    """The topics of board ``board`` under ``prefix`` (both one topic level: no ``/``, ``+``, ``#``).

    >>> Topics("pentago-board", "table-3").state
    'pentago-board/table-3/state'
    """

    prefix: str
    board: str

    @property
    def root(self) -> str:
        return f"{self.prefix}/{self.board}"

    @property
    def status(self) -> str:
        """Retained ``online`` while the daemon runs, ``stopped`` while its referee does not
        answer, ``offline`` (the last will) once it is gone."""
        return f"{self.root}/status"

    @property
    def state(self) -> str:
        """Retained: the newest state, so a subscriber arriving late sees the board at once."""
        return f"{self.root}/state"

    @property
    def event(self) -> str:
        """Not retained: what happened, one JSON object per message, numbered by ``seq``."""
        return f"{self.root}/event"

    @property
    def command(self) -> str:
        """Commands in: ``{"name": ..., "args": {...}, "board_name"?: ..., "id"?: ...}``."""
        return f"{self.root}/command"
