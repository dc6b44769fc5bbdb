"""Phase-1 aliases: the old classic names over the generic flow (removed with the core split)."""

from __future__ import annotations

from typing import Any

from .menu import Menu
from .place_twist import FRESH_KINDS, PLAYING, STATES, TRANSITIONS, PlaceTwistFlow, Resume  # noqa: F401

GAMES = ("classic",)


class ClassicFlow(PlaceTwistFlow):
    def __init__(self, colours: tuple[str, ...] = ("white", "black"), size: int = 6) -> None:
        from .. import games
        super().__init__(games, colours, size)

    @classmethod
    def resumed(cls, records: list[dict[str, Any]], colours: tuple[str, ...] = ("white", "black"),  # type: ignore[override]
                size: int = 6) -> tuple[PlaceTwistFlow, Resume]:
        flow = cls(colours, size)
        resume = flow.replay(records)
        if resume.problem is not None:
            flow = cls(colours, size)
            flow.replay(records[:resume.used])
        return flow, resume


class ClassicMenu(Menu):
    def __init__(self, size: int = 6) -> None:
        from ..games import offered
        super().__init__(offered(size), size)
