"""Picture-Puzzle's part of the teacher's row (:mod:`controller.classroom.boards`): the round in
hand, read from the state's ``detail`` (:meth:`controller.games.puzzle.flow.PuzzleFlow.detail`),
its seats by name. The classroom's page shows it in its Picture-Puzzle column.

>>> row({"picture": "H", "k": 2, "restorer": 1, "eliminated": [2], "rounds": [{"passed": True}]}, {1: "Ada", 2: "Bo"})
{'puzzle': {'picture': 'H', 'k': 2, 'stage': None, 'restorer': 'Ada', 'dismantler': '', 'left_s': None, 'out': ['Bo'], 'passed': 1, 'rounds': 1}}
>>> row({}, {})  # at the menu, or before the picture stands
{'puzzle': None}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def row(detail: Mapping[str, Any], names: Mapping[Any, str]) -> dict[str, Any]:
    """The row's ``puzzle`` key: the picture, its k and stage, who restores and who dismantles,
    the seconds left, who is out and how many rounds passed (None without a picture)."""
    if "picture" not in detail:
        return {"puzzle": None}

    def named(seat: Any) -> str:
        return names.get(seat, "") if seat is not None else ""

    rounds = detail.get("rounds") or []
    return {"puzzle": {
        "picture": detail.get("picture", ""),
        "k": detail.get("k"),
        "stage": detail.get("stage"),
        "restorer": named(detail.get("restorer")),
        "dismantler": named(detail.get("dismantler")),
        "left_s": detail.get("left_s"),
        "out": [named(seat) for seat in detail.get("eliminated") or []],
        "passed": sum(1 for r in rounds if isinstance(r, dict) and r.get("passed")),
        "rounds": len(rounds),
    }}
