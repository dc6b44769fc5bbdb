"""Picture-Puzzle on the 6x6 and 9x9 boards: the teacher's memory game of dismantles and restores.

The rules are :mod:`controller.rules.puzzle`, the flow :mod:`controller.flow.puzzle`; this module
says how the product offers them. Options (the web API's and the new-game command's keys):

- ``players`` 2-4 (``names``, one per seat, as in every game), or 1 with ``practice``;
- ``practice``: true for one child practising alone (``players`` 1): the child always
  restores, the computer always dismantles (see :mod:`controller.rules.puzzle` for how k rises
  and when practice ends); no ``dismantle_limit_s``. Not on the board's LED menu: the web
  form's "practice (the computer dismantles)" box, or the new-game command;
- ``picture``: a picture of the library for the board (its name or title, see
  ``pentago-board pictures``); default the Red Cross;
- ``start_k``: the k of the first stage (default 1; never more than the picture's stones);
- ``restore_limit_s`` / ``dismantle_limit_s``: seconds for each restore / dismantle, or None
  (no limit, the default);
- ``show_s``: how long the picture is shown in light before each round (default 0: none, the
  dismantle starts as soon as the picture stands);
- ``check``: what the judge compares, ``"colour"`` (the default; the virtual board),
  ``"polarity"`` (white and black) or ``"presence"`` (where stones are).

Seats are players, not colours: the status pixels show the seat acting in its seat colour.

>>> SPEC.options({"players": 3, "picture": "Space Rocket", "restore_limit_s": 30}, 9)["picture"]
'space-rocket'
>>> SPEC.options({"players": 2, "picture": "four-w"}, 6)
Traceback (most recent call last):
...
controller.games.spec.OptionError: no picture 'four-w' for the 6x6 board (pictures: red-cross, h, square, triangle, space-rocket, house, traffic-jam, lightning, orion, love, jackson-pollock)
>>> SPEC.options({"players": 1, "practice": True}, 9)["practice"]
True
>>> SPEC.options({"players": 1}, 9)
Traceback (most recent call last):
...
controller.games.spec.OptionError: players must be 2 to 4, not 1
>>> SPEC.options({"players": 2, "show_s": -1}, 9)
Traceback (most recent call last):
...
controller.games.spec.OptionError: show_s -1: a number of seconds from 0 to 600
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..flow.puzzle import PICTURE_COLOURS, BoardPuzzle, PuzzleFlow, explain, is_idle_turn, next_colour, scene
from ..rules.picture_rating import rate
from ..rules.pictures import SIZES, library_names, library_picture, picture_name, shipped_names
from ..rules.puzzle import Check, PuzzleOptions
from .spec import Choice, GameSpec, OptionError

MAX_S = 600  # a time limit or show of more than ten minutes is a typing mistake
MAX_K = 81
MENU_K = (1, 2, 3, 4)  # the k the board's menu offers to start with; any other is typed on the page


@dataclass(frozen=True)
class Setting(Choice):
    """An option whose values cannot be listed: a number of seconds, a k. Never a menu page;
    ``check`` reads it into its canonical form; ``input`` says how a form asks it."""

    menu: bool = False
    input: str = "number"

    def check(self, value: Any) -> Any:
        if self.name == "start_k":
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_K:
                raise OptionError(f"start_k {value!r}: a whole number from 1 to the picture's stones")
            return value
        if value is None and self.name != "show_s":
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= MAX_S \
                or (value == 0 and self.name != "show_s"):
            least = "0" if self.name == "show_s" else "1"
            raise OptionError(f"{self.name} {value!r}: a number of seconds from {least} to {MAX_S}")
        return value


@dataclass(frozen=True)
class PictureChoice(Choice):
    """The picture: a library name or its title (``"Space Rocket"``); the form lists the
    library with each picture's difficulty on both boards. The board's menu offers the
    pictures of its own size (user pictures too), easiest first (:func:`by_difficulty`)."""

    def check(self, value: Any) -> Any:
        if not isinstance(value, str) or not 0 < len(value) <= 40:
            raise OptionError(f"picture {value!r}: name a picture of the library, e.g. 'red-cross'")
        name = picture_name(value)
        if not any(name in library_names(size) for size in SIZES):  # the rules check the board's size
            raise OptionError(f"picture {value!r}: the pictures are {', '.join(library_names(9))} "
                              "(and the pictures saved from the board)")
        return name

    def menu_values(self, size: int) -> tuple[Any, ...]:
        return by_difficulty(size)

    def values_for(self, chosen: Mapping[str, Any]) -> tuple[Any, ...]:
        return self.menu_values(chosen.get("size", 9))


def by_difficulty(size: int) -> tuple[str, ...]:
    """The ``size`` board's shipped pictures, easiest first (ties in the library's order), then
    the saved ones in the library's order: a saved picture never moves a shipped one's hole."""
    shipped = shipped_names(size)
    return tuple(sorted(shipped, key=lambda name: _score(name, size))) + library_names(size)[len(shipped):]


@cache
def _score(name: str, size: int) -> int:
    return rate(library_picture(name, size)).score


def _picture_words(name: str) -> str:
    ratings = ", ".join(f"{rate(library_picture(name, size)).score}/5 on {size}x{size}"
                        for size in (9, 6) if name in library_names(size))
    return f"{library_picture(name, 9).title} (difficulty {ratings})"


@dataclass(frozen=True)
class Players(Choice):
    """2 to 4 players, as the menu and the form offer them; 1 is taken too, for practice (the
    rules refuse 1 without practice and practice with more)."""

    def check(self, value: Any) -> Any:
        return 1 if value == 1 and not isinstance(value, bool) else super().check(value)


PLAYERS = Players("players", (2, 3, 4), ("2 players", "3 players", "4 players"),
                  refusal="Picture-Puzzle is for 2 to 4 players (1 in practice)")
PRACTICE = Choice("practice", (False, True), ("players take turns to dismantle", "practice (the computer dismantles)"),
                  menu=False)
PICTURE = PictureChoice("picture", library_names(9), tuple(_picture_words(n) for n in library_names(9)),
                        refusal=f"the pictures are {', '.join(library_names(9))}")
START_K = Setting("start_k", MENU_K, tuple(f"first stage: k = {k} (stones and twists in each dismantle)" for k in MENU_K),
                  menu=True)
RESTORE_LIMIT = Setting("restore_limit_s", (None,), ("seconds for a restore (no limit)",))
DISMANTLE_LIMIT = Setting("dismantle_limit_s", (None,), ("seconds for a dismantle (no limit)",))
SHOW = Setting("show_s", (0,), ("seconds the picture is shown before each round (0: none)",))
CHECK = Choice("check", ("colour", "polarity", "presence"),
               ("the judge checks every colour (the virtual board)", "the judge checks white and black (a polarity board)",
                "the judge checks only where stones are (a presence board)"), menu=False,
               refusal="the judge checks 'colour', 'polarity' or 'presence'")


def make(spec: GameSpec, options: Mapping[str, Any], size: int, starter: int) -> Any:
    """The board's game (the rules check the combination: k against the picture's stones)."""
    picture = library_picture(options["picture"], size)
    rules = PuzzleOptions(options["players"], options["start_k"], options["restore_limit_s"],
                          options["dismantle_limit_s"], Check(options["check"]), options["practice"])
    return BoardPuzzle(picture, rules)


def colours(options: Mapping[str, Any], board: tuple[str, ...]) -> tuple[str, ...]:
    """The picture's colours by index (W B R G), whatever the board's own are."""
    return PICTURE_COLOURS


SPEC = GameSpec(
    name="puzzle",
    title="Picture-Puzzle",
    sizes=(9, 6),
    choices=(PLAYERS, PRACTICE, PICTURE, START_K, RESTORE_LIMIT, DISMANTLE_LIMIT, SHOW, CHECK),
    flow=PuzzleFlow,
    explain=explain,
    is_idle_turn=is_idle_turn,
    next_colour=next_colour,
    scene=scene,
    colours=colours,
    rules=make,
)
