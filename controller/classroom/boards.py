"""What every board last published, read into the rows the teacher's page shows.

A board is known from its first retained ``status`` or ``state`` message; it stays listed when it
goes offline (the teacher wants to see that a table dropped out, not have it vanish).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Any

from ..daemon.mqtt.topics import OFFLINE, ONLINE, STOPPED


@dataclass
class Board:
    status: str = ""
    state: dict[str, Any] = field(default_factory=dict)


class Boards:
    """The boards under one topic prefix, fed by :meth:`take` with every message received."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.boards: dict[str, Board] = {}

    def take(self, topic: str, payload: bytes) -> None:
        """Keep a ``<prefix>/<board>/status`` or ``.../state`` message; anything else (or a state
        that is not a JSON object) is ignored: one bad board must not break the console."""
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != self.prefix or parts[2] not in ("status", "state"):
            return
        if not payload:  # a retained message cleared: nothing to show
            return
        board = self.boards.setdefault(parts[1], Board())
        if parts[2] == "status":
            board.status = payload.decode("utf-8", "replace")
            return
        try:
            state = json.loads(payload)
        except ValueError:
            return
        if isinstance(state, dict):
            board.state = state

    def forget_statuses(self) -> None:
        """Every board's status unknown (shown offline) until the broker says it again: called at
        each (re)connect, since a board that vanished while the broker was away has no will left."""
        for board in self.boards.values():
            board.status = ""

    def names(self) -> list[str]:
        return sorted(self.boards)

    def rows(self) -> list[dict[str, Any]]:
        """One row per board, sorted by name, as the page shows it."""
        return [row(name, self.boards[name]) for name in self.names()]

    def summary_csv(self) -> str:
        """Every board's game summary in one CSV: the boards' own columns after a ``board``
        column (the first board's header; a board whose game keeps no summary adds no line)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        header: list[str] | None = None
        for name in self.names():
            detail = self.boards[name].state.get("detail") or {}
            text = detail.get("summary_csv") if isinstance(detail, dict) else None
            if not isinstance(text, str) or not text.strip():
                continue
            lines = list(csv.reader(io.StringIO(text)))
            if header is None:
                header = ["board", *lines[0]]
                writer.writerow(header)
            writer.writerows([name, *line] for line in lines[1:])
        return out.getvalue()


def row(name: str, board: Board) -> dict[str, Any]:
    """A board's row: whether it is online (and its status in words), its game, players, whose turn and the standings, and
    for Picture-Puzzle the round in hand (from the state's ``detail``)."""
    state = board.state
    seats = state.get("seats") or []
    names = {seat.get("seat"): seat.get("name", "") for seat in seats if isinstance(seat, dict)}
    summary = state.get("summary") or {}
    detail = state.get("detail") if isinstance(state.get("detail"), dict) else None
    return {
        "board": name,
        "online": board.status == ONLINE,
        **_status(board),
        "state": state.get("state", ""),
        "game": state.get("game") or "",
        "players": [names[seat] for seat in sorted(names, key=str)],
        "turn": summary.get("turn", ""),
        "last_move": summary.get("last_move", ""),
        "winner": summary.get("winner", ""),
        "standings": [" & ".join(names.get(seat, f"Seat {seat}") for seat in place)
                      for place in state.get("standings") or [] if isinstance(place, list)],
        "moves": len(state.get("moves") or []),
        "puzzle": _puzzle(detail, names) if detail and "picture" in detail else None,
        "has_summary": bool(detail and detail.get("summary_csv")),
    }


def _status(board: Board) -> dict[str, str]:
    """``status``: online, paused (its journal cannot be written), stopped (its referee does
    not answer) or offline; ``status_words``: why, in the board's own words where it sent them."""
    health = board.state.get("health") if isinstance(board.state.get("health"), dict) else {}
    words = health.get("words") if isinstance(health.get("words"), str) else ""
    if board.status == STOPPED:
        return {"status": STOPPED, "status_words": words or "stopped: the referee does not answer"}
    if board.status == ONLINE:
        paused = health.get("status") == "paused"
        return {"status": "paused" if paused else ONLINE, "status_words": words if paused else ""}
    return {"status": OFFLINE, "status_words": ""}


def _puzzle(detail: dict[str, Any], names: dict[Any, str]) -> dict[str, Any]:
    def named(seat: Any) -> str:
        return names.get(seat, "") if seat is not None else ""

    rounds = detail.get("rounds") or []
    return {
        "picture": detail.get("picture", ""),
        "k": detail.get("k"),
        "stage": detail.get("stage"),
        "restorer": named(detail.get("restorer")),
        "dismantler": named(detail.get("dismantler")),
        "left_s": detail.get("left_s"),
        "out": [named(seat) for seat in detail.get("eliminated") or []],
        "passed": sum(1 for r in rounds if isinstance(r, dict) and r.get("passed")),
        "rounds": len(rounds),
    }
