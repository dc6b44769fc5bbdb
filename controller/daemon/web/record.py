"""The game record offered for download, built from the core's state with the rules' format."""

from __future__ import annotations

from typing import Any

from ...rules import ClassicGame, format_record, record_of


def game_record(state: dict[str, Any], date: str) -> str:
    """The record text (see :mod:`controller.rules.record`) of the game in ``state``: its moves
    replayed through the rules, so the result and variant come from the one place that knows.

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
    game = ClassicGame(size=len(state.get("board") or ["."] * 6))
    for move in state.get("moves") or []:
        game.push_text(move)
    return format_record(record_of(game, ["Seat 1", "Seat 2"], date))
