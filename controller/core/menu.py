"""The menu room: the board's menu of the registry's games, driven by buttons and marbles.

:class:`MenuRoom` wraps :class:`~controller.flow.menu.Menu` with the words each option means
(from the games' specs), so the web console can explain the page the LEDs show.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..flow.menu import Menu
from ..games import GameOptions, GameSpec
from ..rules import Geometry, hole_name


class MenuRoom:
    """The menu of the games ``offered`` on a ``size`` board."""

    def __init__(self, offered: Sequence[GameSpec], size: int) -> None:
        self.specs = {spec.name: spec for spec in offered}
        self.menu = Menu(offered, size)

    def button(self, button: str) -> tuple[GameOptions | None, str | None]:
        """OK confirms the pick (the options once the last page is done), back turns back a page;
        the options to start, and a notice for any other button."""
        if button == "ok":
            return self.menu.ok(), None
        if button == "back":
            self.menu.back()
            return None, None
        return None, f"button {button!r} does nothing in the menu"

    def words(self) -> list[dict[str, Any]]:
        """The current page's options in the order they are lit: the value and what it means."""
        name, values = self.menu.page_name(), self.menu.values()
        if name == "game":
            return [{"value": v, "means": self.specs[v].title} for v in values]
        game = self.specs[self.menu.chosen.get("game", self.menu.first.default)]
        choice = game.choice(name)
        chosen = self.menu.chosen
        return [{"value": v, "means": choice.means(v, chosen) if choice is not None else str(v)} for v in values]

    def state(self, g: Geometry) -> dict[str, Any]:
        menu = self.menu
        return {"page": menu.page_name(), "holes": [hole_name(h, g) for h in menu.option_holes()],
                "pick": menu.pick, "chosen": dict(menu.chosen), "options": self.words()}
