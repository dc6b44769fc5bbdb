"""Phase-1 aliases (removed with the core split)."""

from __future__ import annotations

from typing import Any

from .records import record_problem  # noqa: F401


def option_problem(options: dict[str, Any]) -> str | None:
    from ..games import options as checked
    try:
        checked(options, 6)
    except ValueError as error:
        return str(error)
    return None
