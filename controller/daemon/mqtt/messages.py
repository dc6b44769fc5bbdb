"""What the board publishes: its state for subscribers, and the events that led to it.

The published state is the core's state (see :mod:`controller.core.snapshot`) without the LED
frame (it changes with every animation step and says nothing a subscriber needs), plus
``board_name`` (``board`` is the core's rows) and ``summary``: plain words for dashboards, each a string
(empty when there is nothing to say): ``doing`` (what the board asks for now, e.g. "Ann to place
a marble"), ``turn`` (the name of the seat to move), ``last_move`` and ``winner`` (the winners'
names joined by " & ", or "draw").

Events are the core's own, made where each thing happened and handed over with the state that
followed (:mod:`controller.flow.published`: ``game``, ``move``, ``take_back``, ``outcome``,
``repair``, ``repaired``, ``link``, ``notice``; a game's own, such as Picture-Puzzle's rounds in
:mod:`controller.games.puzzle.events`), published each once and in order: none is read from
the difference of two states.
"""

from __future__ import annotations

from typing import Any

from .inbox import Stamped

HIDDEN_KEYS = ("frame",)


def public_state(state: dict[str, Any], board: str) -> dict[str, Any]:
    """The state as published: without the frame, with the board's name and a summary."""
    shown = {key: value for key, value in state.items() if key not in HIDDEN_KEYS}
    return {**shown, "board_name": board, "summary": summary(state)}


def summary(state: dict[str, Any]) -> dict[str, str]:
    """Whose turn, the last move and the winner, in words (empty when there is none).

    >>> summary({"to_move": 2, "seats": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}],
    ...          "moves": ["b5 4R"], "outcome": None, "doing": "to turn a block"})
    {'doing': 'Bo to turn a block', 'turn': 'Bo', 'last_move': 'b5 4R', 'winner': ''}
    """
    names = {seat["seat"]: seat["name"] for seat in state.get("seats") or ()}
    to_move, moves, outcome = state.get("to_move"), state.get("moves") or [], state.get("outcome")
    turn = names.get(to_move, "") if to_move is not None else ""
    doing = state.get("doing") or ""
    return {
        "doing": f"{turn} {doing}" if turn and doing.startswith("to ") else doing,
        "turn": turn,
        "last_move": moves[-1] if moves else "",
        "winner": _winner(outcome, names) if outcome else "",
    }


def _winner(outcome: dict[str, Any], names: dict[int, str]) -> str:
    winners = outcome.get("winners") or []
    return " & ".join(names.get(seat, f"Seat {seat}") for seat in winners) if winners else "draw"


def published(stamped: Stamped) -> list[tuple[dict[str, Any], float]]:
    """The events the core told, as published, each with its time."""
    return [(event.to_json(), when) for event, when in stamped]
