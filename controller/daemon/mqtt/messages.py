"""What the board publishes: its state for subscribers, and the events between two states.

The published state is the core's state (see :mod:`controller.core.snapshot`) without the LED
frame (it changes with every animation step and says nothing a subscriber needs), plus
``board_name`` (``board`` is the core's rows) and ``summary``: plain words for dashboards, each a string
(empty when there is nothing to say): ``doing`` (what the board asks for now, e.g. "Ann to place
a marble"), ``turn`` (the name of the seat to move), ``last_move`` and ``winner`` (the winners'
names joined by " & ", or "draw").

Events are read from the journal records the core wrote and the difference between two
states, so a state the loop never saw costs no move: ``game`` (a new game, known by the core's
``start`` or ``next_game`` record: its name, seats and options), ``move`` (one per new move,
numbered from 1), ``take_back`` (the moves left), ``outcome``, ``repair`` (its steps) and
``repaired``, ``link`` (up or down), ``notice`` (each of the core's notices, in words), and
Picture-Puzzle's rounds (its spec's ``events``, :mod:`controller.games.puzzle.events`: ``stage``,
``round``, ``dismantled``, ``restore``, ``out``; its round lines, which grow step by step within a
round, are no ``move`` events). A restart with the same settings in the middle of a game is a
``game`` event (its start record says so), not a take-back to no moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ... import games
from ...games import GameSpec

HIDDEN_KEYS = ("frame",)
NEW_GAME_KINDS = ("start", "next_game")  # the journal records that begin a game


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


def events_between(old: dict[str, Any] | None, new: dict[str, Any],
                   records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events that lead from ``old`` to ``new`` by the journal ``records`` the core wrote
    between them (none from the first state: ``old`` None)."""
    if old is None:
        return []
    started = new.get("game") is not None and any(record.get("kind") in NEW_GAME_KINDS for record in records)
    game_before = None if started else old  # a new game: everything in it is new, whatever the old one held
    found: list[dict[str, Any]] = []
    for reader in (_game, _moves, _game_events, _outcome):
        found += reader(game_before, new)
    return found + _repair(old, new) + _link(old, new)  # the board's own, whatever the game


def notice_events(notices: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{"type": "notice", "text": text} for text in notices]


def _game(old: dict[str, Any] | None, new: dict[str, Any]) -> list[dict[str, Any]]:
    if old is not None:
        return []
    return [{"type": "game", "game": new["game"], "seats": new.get("seats", []), "options": new.get("options")}]


def _moves(old: dict[str, Any] | None, new: dict[str, Any]) -> list[dict[str, Any]]:
    spec = _spec(new)
    if spec is not None and spec.events is not None:
        return []  # its "moves" grow within a turn (Picture-Puzzle's round lines): its own events tell
    before = [] if old is None else list(old.get("moves") or [])
    after = list(new.get("moves") or [])
    kept = _common_prefix(before, after)
    found: list[dict[str, Any]] = []
    if kept < len(before):
        found.append({"type": "take_back", "moves": kept})
    found += [{"type": "move", "number": number, "move": after[number - 1]}
              for number in range(kept + 1, len(after) + 1)]
    return found


def _spec(state: dict[str, Any]) -> GameSpec | None:
    """The spec of the game in play in ``state``, or None (the menu, or a name no game has)."""
    name = state.get("game")
    return games.get(name) if name in games.NAMES else None


def _game_events(old: dict[str, Any] | None, new: dict[str, Any]) -> list[dict[str, Any]]:
    """The events a game reads from its own ``detail`` (see :attr:`GameSpec.events`)."""
    spec = _spec(new)
    if spec is None or spec.events is None:
        return []
    return spec.events(old, new)


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _outcome(old: dict[str, Any] | None, new: dict[str, Any]) -> list[dict[str, Any]]:
    outcome = new.get("outcome")
    if outcome is None or (old is not None and outcome == old.get("outcome")):
        return []
    return [{"type": "outcome", **outcome, "winner": summary(new)["winner"], "standings": new.get("standings", [])}]


def _repair(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    before, after = old.get("repair") or [], new.get("repair") or []
    if after and not before:
        return [{"type": "repair", "steps": after}]
    if before and not after:
        return [{"type": "repaired"}]
    return []


def _link(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    if "link" not in new or old.get("link", True) == new["link"]:
        return []
    return [{"type": "link", "up": new["link"]}]
