"""The shapes of the flow's journal records, checked before a resume acts on them.

A journal's checksum proves a line is what was written, not that what was written makes sense:
a hand-edited file, an older or newer version, or a bug can leave records of the wrong shape.
:func:`record_problem` names what is wrong with one record (a field missing or of the wrong
type) so a resume can stop there instead of failing deep inside the rules. Whether a start record's
options make a game is the registry's to say (:func:`controller.games.options`); the flow asks
it when it replays the record.

>>> record_problem({"t": 2.5, "kind": "place", "hole": "b5"}) is None
True
>>> record_problem({"kind": "place", "hole": 5})
"field 'hole' = 5 must be text"
"""

from __future__ import annotations

import math
from typing import Any

from ..checks import is_number, is_whole

# The fields each kind needs, with their types; "t" (a time in seconds) is optional everywhere.
REQUIRED: dict[str, dict[str, type | tuple[type, ...]]] = {
    "start": {"game": str, "players": int},
    "next_game": {},
    "menu": {},
    "place": {"hole": str},
    "twist": {"twist": str},
    "skip": {},
    "take_back": {},
    "end": {},  # the outcome, written for people; a resume recomputes it from the moves
}
OPTIONAL: dict[str, dict[str, type | tuple[type, ...]]] = {
    "start": {"computer": (bool, list), "match": bool, "starter": int, "twist": str, "neutral_skip": bool,
              "names": list, "level": int, "hints": bool},
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
    return problem


def _time_problem(t: Any) -> str | None:
    if t is None or (is_number(t) and math.isfinite(t)):
        return None
    return f"field 't' = {t!r} must be a time in seconds"


def _field_problem(record: dict[str, Any], name: str, kind: type | tuple[type, ...], *, required: bool) -> str | None:
    if name not in record:
        return f"field {name!r} is missing" if required else None
    value = record[name]
    if kind is int and not is_whole(value):
        return f"field {name!r} = {value!r} must be a whole number"
    if kind is not int and not isinstance(value, kind):
        return f"field {name!r} = {value!r} must be {_TYPE_NAMES[kind]}"
    return None


_TYPE_NAMES = {str: "text", bool: "true or false", list: "a list", (bool, list): "true, false or a list of seats"}
