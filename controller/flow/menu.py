"""Choosing a game without a phone: options lit on the bottom row of holes.

One page at a time (game, players, computer opponent, single game or match). A marble put on a
lit option picks it; lifting it again (an empty board) confirms and turns the page. The ok
button confirms the pick (or the first option), the back button returns to the previous page.
Pages with a single option are decided without asking.

>>> menu = Menu()
>>> menu.page_name()
'computer'
>>> menu.see({menu.option_holes()[1]}), menu.pick
(None, 1)
>>> menu.see(set())
>>> menu.ok()
{'game': 'classic', 'players': 2, 'computer': True, 'match': False}
"""

from __future__ import annotations

from typing import Any

PAGES: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("game", ("classic",)),
    ("players", (2,)),
    ("computer", (False, True)),
    ("match", (False, True)),
)
OPTION_ROW = 0  # the bottom row: holes a1, b1, ... light the options of the current page


class Menu:
    """The menu's place: which page is shown, what is picked, what was chosen before."""

    def __init__(self, size: int = 6) -> None:
        self.size = size
        self.reset()

    def reset(self) -> None:
        self.page = 0
        self.chosen: dict[str, Any] = {}
        self.pick: int | None = None
        self._skip_single()

    def page_name(self) -> str:
        return PAGES[self.page][0]

    def option_holes(self) -> list[int]:
        """The holes lit for the current page's options, in order."""
        return [OPTION_ROW * self.size + column for column in range(len(PAGES[self.page][1]))]

    def see(self, occupied: set[int]) -> dict[str, Any] | None:
        """Judge a settled board (the holes holding a marble); the options once all are chosen."""
        picked = [i for i, hole in enumerate(self.option_holes()) if hole in occupied]
        if len(picked) == 1:
            self.pick = picked[0]
        elif not occupied and self.pick is not None:
            return self.ok()
        return None

    def ok(self) -> dict[str, Any] | None:
        """Confirm the pick (the first option if none); the options once the last page is done."""
        name, values = PAGES[self.page]
        self.chosen[name] = values[self.pick or 0]
        self.page += 1
        self.pick = None
        return self._skip_single()

    def back(self) -> None:
        """Return to the previous page that asks something."""
        while self.page > 0:
            self.page -= 1
            self.chosen.pop(PAGES[self.page][0], None)
            if len(PAGES[self.page][1]) > 1:
                break
        self.pick = None
        self._skip_single()

    def _skip_single(self) -> dict[str, Any] | None:
        while self.page < len(PAGES) and len(PAGES[self.page][1]) == 1:
            name, values = PAGES[self.page]
            self.chosen[name] = values[0]
            self.page += 1
        if self.page < len(PAGES):
            return None
        options = self.chosen
        self.reset()
        return options
