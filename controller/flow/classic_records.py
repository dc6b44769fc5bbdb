"""The shapes of the classic flow's journal records, checked before a resume acts on them.

A journal's checksum proves a line is what was written, not that what was written makes sense:
a hand-edited file, an older or newer version, or a bug can leave records of the wrong shape.
:func:`record_problem` names what is wrong with one record (a field missing or of the wrong
type) so a resume can stop there instead of failing deep inside the rules.

>>> record_problem({"t": 2.5, "kind": "place", "hole": "b5"}) is None
True
>>> record_problem({"kind": "place", "hole": 5})
"field 'hole' = 5 must be text"
"""

from __future__ import annotations

import math
from typing import Any

GAMES = ("classic",)

# The fields each kind needs, with their types; "t" (a time in seconds) is optional everywhere.
REQUIRED: dict[str, dict[str, type]] = {
    "start": {"game": str, "players": int},
    "next_game": {},
    "menu": {},
    "place": {"hole": str},
    "twist": {"twist": str},
    "skip": {},
    "take_back": {},
    "end": {},  # the outcome, written for people; a resume recomputes it from the moves
}
OPTIONAL: dict[str, dict[str, type]] = {
    "start": {"computer": bool, "match": bool, "starter": int},
}


def record_problem(record: dict[str, Any]) -> str | None:
    """What is wrong with the shape of ``record``, or None. A kind this version does not know
    is no problem: the replay skips it."""
    kind = record.get("kind")
    if not isinstance(kind, str):
        return f"field 'kind' = {kind!r} must be text"
    problem = _time_problem(record.get("t"))
    for name, kind_type in REQUIRED.get(kind, {}).items():
        if problem is None:
            problem = _field_problem(record, name, kind_type, required=True)
    for name, kind_type in OPTIONAL.get(kind, {}).items():
        if problem is None:
            problem = _field_problem(record, name, kind_type, required=False)
    if problem is None and kind == "start":
        problem = option_problem(start_options(record))
    return problem


def start_options(record: dict[str, Any]) -> dict[str, Any]:
    """The game options in a start record (only the known ones; the flags default to off)."""
    return {"game": record.get("game"), "players": record.get("players"),
            "computer": record.get("computer", False), "match": record.get("match", False)}


def option_problem(options: dict[str, Any]) -> str | None:
    """What is wrong with new-game ``options`` (game, players, computer, match), or None."""
    if options["game"] not in GAMES:
        return f"game {options['game']!r} is not available (games: {', '.join(GAMES)})"
    if options["players"] != 2 or isinstance(options["players"], bool):
        return f"players {options['players']!r}: classic Pentago is for 2 players"
    for flag in ("computer", "match"):
        if not isinstance(options[flag], bool):
            return f"{flag} {options[flag]!r} must be true or false"
    return None


def _time_problem(t: Any) -> str | None:
    if t is None or (_is_number(t) and math.isfinite(t)):
        return None
    return f"field 't' = {t!r} must be a time in seconds"


def _field_problem(record: dict[str, Any], name: str, kind: type, *, required: bool) -> str | None:
    if name not in record:
        return f"field {name!r} is missing" if required else None
    value = record[name]
    if kind is int and not (isinstance(value, int) and not isinstance(value, bool)):
        return f"field {name!r} = {value!r} must be a whole number"
    if kind is not int and not isinstance(value, kind):
        return f"field {name!r} = {value!r} must be {_TYPE_NAMES[kind]}"
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_TYPE_NAMES = {str: "text", bool: "true or false"}
