"""Choosing a game without a phone: options lit on the bottom row of holes.

One page at a time: the game (the games offered for the board's size), then the chosen game's
own pages (classic: which seats the computer plays, its level, single game or match;
multiplayer: players, twist rule; teams: twist rule; Picture-Puzzle: players, the dismantle
level when 1 player practises, the picture, the first k). A page's values may depend on what was
chosen before it (the computer's seats on the number of players; its level is asked only when
it plays a seat); a page left with one value takes it without asking. A marble put on a lit option picks it; lifting it again (an empty board)
confirms and turns the page. The ok button confirms the pick (or the page's default), the back
button returns to the previous page. Pages with a single option are decided without asking.

The games come in as specs (:class:`~controller.games.GameSpec`; the core passes the registry's
games for its board), so the menu never names a game.

>>> from controller.games import offered
>>> menu = Menu(offered(6))
>>> menu.page_name(), menu.values(), menu.ok()
('game', ('classic', 'triple', 'puzzle'), None)
>>> menu.page_name()
'computer'
>>> menu.see({menu.option_holes()[1]}), menu.pick
(None, 1)
>>> menu.see(set())
>>> menu.page_name(), menu.values()
('level', (None, 0, 1, 2, 3))
>>> menu.ok(), menu.page_name()
(None, 'match')
>>> menu.ok()
GameOptions({'game': 'classic', 'players': 2, 'computer': True, 'hints': True, 'match': False}, size=6)
>>> menu = Menu(offered(9), size=9)
>>> menu.page_name(), menu.values()
('game', ('classic', 'multiplayer', 'teams', 'puzzle'))
>>> menu.see({menu.option_holes()[1]}), menu.see(set()), menu.page_name(), menu.values()
(None, None, 'players', (2, 3, 4))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .options import GameOptions

OPTION_ROW = 0  # the bottom row: holes a1, b1, ... light the options of the current page


class Page(Protocol):
    """A menu page: an option's name and values, the default among them (a game's Choice)."""

    @property
    def name(self) -> str: ...
    @property
    def values(self) -> tuple[Any, ...]: ...
    @property
    def default(self) -> Any: ...
    def values_for(self, chosen: dict[str, Any]) -> tuple[Any, ...]: ...


class Offer(Protocol):
    """A game the menu offers: its name and its option pages (a GameSpec)."""

    @property
    def name(self) -> str: ...
    def pages(self) -> tuple[Page, ...]: ...
    def options(self, args: dict[str, Any], size: int | None = None) -> GameOptions: ...


class GamePage:
    """The first page: which game."""

    name = "game"

    def __init__(self, games: Sequence[Offer]) -> None:
        self.values = tuple(game.name for game in games)
        self.default = self.values[0]

    def values_for(self, chosen: dict[str, Any]) -> tuple[Any, ...]:
        return self.values


class Menu:
    """The menu's place: which page is shown, what is picked, what was chosen before."""

    def __init__(self, games: Sequence[Offer], size: int = 6) -> None:
        self.games = {game.name: game for game in games}
        self.size = size
        self.first = GamePage(games)
        self.reset()

    def reset(self) -> None:
        self.page = 0
        self.chosen: dict[str, Any] = {}
        self.pick: int | None = None
        self._skip_single()

    def pages(self) -> tuple[Page, ...]:
        """The pages of this round: the game, then the chosen (or default) game's own."""
        game = self.games[self.chosen.get("game", self.first.default)]
        return (self.first, *game.pages())

    def page_name(self) -> str:
        return self.pages()[self.page].name

    def values(self) -> tuple[Any, ...]:
        """The current page's values, in the order their holes are lit."""
        return self.pages()[self.page].values_for(self._context())

    def _context(self) -> dict[str, Any]:
        """What a page's values may depend on: the choices so far and the board's ``size``."""
        return {"size": self.size, **self.chosen}

    def option_holes(self) -> list[int]:
        """The holes lit for the current page's options, in order: the bottom row, and when a
        page has more options than a row has holes (Picture-Puzzle's pictures), the rows above
        it, left to right (a1..f1, then a2..); never more than the board's holes."""
        count = min(len(self.values()), self.size * self.size - OPTION_ROW * self.size)
        return [OPTION_ROW * self.size + i for i in range(count)]

    def see(self, occupied: set[int]) -> GameOptions | None:
        """Judge a settled board (the holes holding a marble); the options once all are chosen."""
        picked = [i for i, hole in enumerate(self.option_holes()) if hole in occupied]
        if len(picked) == 1:
            self.pick = picked[0]
        elif not occupied and self.pick is not None:
            return self.ok()
        return None

    def ok(self) -> GameOptions | None:
        """Confirm the pick (the page's default if none); the options once the last page is done."""
        page = self.pages()[self.page]
        self.chosen[page.name] = page.default if self.pick is None else self.values()[self.pick]
        self.page += 1
        self.pick = None
        return self._skip_single()

    def back(self) -> None:
        """Return to the previous page that asks something."""
        while self.page > 0:
            self.page -= 1
            page = self.pages()[self.page]
            self.chosen.pop(page.name, None)
            if len(page.values_for(self._context())) > 1:
                break
        self.pick = None
        self._skip_single()

    def _skip_single(self) -> GameOptions | None:
        while self.page < len(self.pages()) and len(self.values()) == 1:
            page = self.pages()[self.page]
            self.chosen[page.name] = self.values()[0]  # the one value offered (not always the default)
            self.page += 1
        if self.page < len(self.pages()):
            return None
        options = self.games[self.chosen["game"]].options(self.chosen, self.size)
        self.reset()
        return options
