"""The game record offered for download: the core's own record of the game in play (its
``record`` in the state, written by :func:`controller.rules.record_of` with the seats' names
and colours and who started), dated by the console.

The core knows the variant, the options, the seats and the starter, so the download stands
alone: replaying it gives the game's result, whoever started (a match's second game, say).
"""

from __future__ import annotations

from typing import Any

from ...rules import Record, format_record


def game_record(state: dict[str, Any], date: str) -> str | None:
    """The record text of the game in ``state``, with a ``Date`` header; None with no game.

    >>> state = {"record": {"headers": {"Variant": "classic", "Player 1": "Seat 1", "Player 2": "Seat 2",
    ...                                 "Colours": "white, black", "Starter": "2", "Result": "*"},
    ...                     "moves": ["b5 4R"]}}
    >>> print(game_record(state, "2026-11-29"), end="")
    Variant: classic
    Player 1: Seat 1
    Player 2: Seat 2
    Colours: white, black
    Starter: 2
    Date: 2026-11-29
    Result: *
    <BLANKLINE>
    b5 4R
    """
    record = state.get("record")
    if not record:
        return None
    headers = dict(record["headers"])
    result = headers.pop("Result", "*")
    return format_record(Record({**headers, "Date": date, "Result": result}, list(record["moves"])))
