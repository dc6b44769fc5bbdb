"""What every board last published, read into the rows the teacher's page shows.

A board is known from its first retained ``status`` or ``state`` message; it stays listed when it
goes offline (the teacher wants to see that a table dropped out, not have it vanish). Its
``event`` topic tells how it answered the console's last command (``command``: taken,
``refused``: with the reason), matched by the command's id. A game's own part of the row (its
round in hand, say) comes from the game's home (its spec's ``classroom_row``): this module names no game.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Any

from .. import games
from ..daemon.mqtt.topics import OFFLINE, ONLINE, STOPPED
from .words import refusal

ID_PREFIX = "classroom-"  # the ids of the console's commands (the board echoes them in its answer)
ANSWERS = ("command", "refused")  # the event types that answer a command


@dataclass
class Board:
    status: str = ""
    state: dict[str, Any] = field(default_factory=dict)
    answer: dict[str, Any] | None = None  # {"id", "answer", "reason"}: the console's last command and its fate
    asked: str = ""  # the name of that command (its refusal is said as what it asked for)

    @property
    def size(self) -> int | None:
        """The board's size from its state (None before its first state)."""
        rows = self.state.get("board")
        return len(rows) if isinstance(rows, list) and rows else None


class Boards:
    """The boards under one topic prefix, fed by :meth:`take` with every message received."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.boards: dict[str, Board] = {}

    def take(self, topic: str, payload: bytes) -> None:
        """Keep a ``<prefix>/<board>/status`` or ``.../state`` message; anything else (or a state
        that is not a JSON object) is ignored: one bad board must not break the console."""
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != self.prefix or parts[2] not in ("status", "state", "event"):
            return
        if not payload:  # a retained message cleared: nothing to show
            return
        if parts[2] == "event":
            self._answered(parts[1], payload)
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

    def _answered(self, name: str, payload: bytes) -> None:
        """A board's event: kept when it answers the command this console last sent it (an
        answer to an earlier console's, whose ids this one's repeat, is not this one's)."""
        try:
            event = json.loads(payload)
        except ValueError:
            return
        board = self.boards.get(name)
        if board is None or not isinstance(event, dict) or event.get("type") not in ANSWERS:
            return
        if board.asked and board.answer is not None and isinstance(event.get("id"), str) and event["id"] == board.answer["id"]:
            if event["type"] == "command":
                self.said(name, event["id"], "taken")
            else:  # the board's words are its API's ("new_game: ..."): the teacher's instead
                self.said(name, event["id"], "refused", refusal(board.asked, str(event.get("reason", "")), [name]))

    def asks(self, name: str, request_id: str, command: str) -> None:
        """The console sent ``command`` to board ``name`` (no answer yet)."""
        if name in self.boards:
            self.boards[name].asked = command
        self.said(name, request_id, "sent")

    def said(self, name: str, request_id: str | None, answer: str, reason: str = "") -> None:
        """The fate of the console's last command for board ``name``: "sent" (no answer yet),
        "taken" or "refused" by the board (or by the console, checking it as the board does:
        ``request_id`` None), with the reason in the teacher's words."""
        if name in self.boards:
            self.boards[name].answer = {"id": request_id, "answer": answer, "reason": reason}

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
            lines = [line for line in csv.reader(io.StringIO(text)) if any(line)]  # its blank separators: none
            if header is None:
                header = ["board", *lines[0]]
                writer.writerow(header)
            writer.writerows([name, *line] for line in lines[1:])
        return out.getvalue()


def row(name: str, board: Board) -> dict[str, Any]:
    """A board's row: whether it is online (and its status in words), its game, players, whose turn and the standings, and
    what its game adds (see :func:`game_row`)."""
    state = board.state
    seats = state.get("seats") or []
    names = {seat.get("seat"): seat.get("name", "") for seat in seats if isinstance(seat, dict)}
    summary = state.get("summary") or {}
    detail: dict[str, Any] = state["detail"] if isinstance(state.get("detail"), dict) else {}
    return {
        **game_row(state.get("game"), detail, names),  # first: the common keys below always stand
        "board": name,
        "online": board.status == ONLINE,
        **_status(board),
        "size": board.size,
        "state": state.get("state", ""),
        "doing": _doing(state, summary),
        "game": state.get("game") or "",
        "answer": board.answer,
        "players": [names[seat] for seat in sorted(names, key=str)],
        "turn": summary.get("turn", ""),
        "last_move": summary.get("last_move", ""),
        "winner": summary.get("winner", ""),
        "standings": [" & ".join(names.get(seat, f"Seat {seat}") for seat in place)
                      for place in state.get("standings") or [] if isinstance(place, list)],
        "moves": len(state.get("moves") or []),
        "has_summary": bool(detail.get("summary_csv")),
    }


def game_row(game: Any, detail: dict[str, Any], names: dict[Any, str]) -> dict[str, Any]:
    """The keys the board's game adds to its row, from the state's ``detail``, as the game's home
    says them (:attr:`~controller.games.GameSpec.classroom_row`); none for a game this console
    does not know (a board newer than the console), nor from a detail its home cannot read (a
    board's state is outside input: one bad board must not break the console's page)."""
    try:
        return dict(games.get(game).classroom_row(detail, names))
    except (games.OptionError, LookupError, TypeError, ValueError, AttributeError):
        return {}


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


def _doing(state: dict[str, Any], summary: Any) -> str:
    """What the board is at, in the board's own words (its MQTT summary), the menu said short."""
    if state.get("state") == "choosing":
        return "at the menu"
    doing = summary.get("doing") if isinstance(summary, dict) else None
    return doing if isinstance(doing, str) else ""
