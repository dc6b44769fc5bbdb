"""The game record offered for download, built from the core's state with the rules' format."""

from __future__ import annotations

from typing import Any

from ...games import DEFAULT, make, options
from ...rules import format_record, record_of


def game_record(state: dict[str, Any], date: str) -> str:
    """The record text (see :mod:`controller.rules.record`) of the game in ``state``: its moves
    replayed through the rules of its game (the registry makes them from the state's options),
    so the result and variant come from the one place that knows.

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
    game = make(state.get("options") or options({"game": DEFAULT}, size), size, starter=1)
    for move in state.get("moves") or []:
        game.push_text(move)
    return format_record(record_of(game, [f"Seat {seat}" for seat in range(1, game.players + 1)], date))
