"""The game record offered for download, built from the core's state with the rules' format."""

from __future__ import annotations

from typing import Any

from ...rules.record import Record, format_record


def game_record(state: dict[str, Any], date: str) -> str:
    """The record text (see :mod:`controller.rules.record`) of the game in ``state``.

    >>> print(game_record({"board": ["......"] * 6, "moves": ["b5 4R"],
    ...                    "outcome": None}, "2026-11-29"), end="")
    Variant: classic
    Player 1: Seat 1
    Player 2: Seat 2
    Date: 2026-11-29
    Result: *
    <BLANKLINE>
    b5 4R
    """
    size = len(state.get("board") or ["."] * 6)
    headers = {"Variant": "classic" if size == 6 else f"classic-{size}x{size}",
               "Player 1": "Seat 1", "Player 2": "Seat 2", "Date": date,
               "Result": _result(state.get("outcome"))}
    return format_record(Record(headers, list(state.get("moves") or [])))


def _result(outcome: dict[str, Any] | None) -> str:
    if not outcome:
        return "*"
    winners = outcome.get("winners") or []
    return ",".join(map(str, winners)) if winners else "draw"
