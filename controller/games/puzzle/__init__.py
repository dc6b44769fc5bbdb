"""Picture-Puzzle on the 6x6 and 9x9 boards: the teacher's memory game of dismantles and restores.

The rules are :mod:`controller.rules.puzzle`, the flow :mod:`controller.games.puzzle.flow`; this module
says how the product offers them. Options (the web API's and the new-game command's keys):

- ``players`` 2-4 (``names``, one per seat, as in every game), or 1: practice;
- ``practice``: true for one child practising alone (``players`` 1): the child always
  restores, the computer always dismantles (see :mod:`controller.rules.puzzle` for how k rises
  and when practice ends); no ``dismantle_limit_s``. One player is always practice (the only
  game a child alone can play), so ``players`` 1 need not say it; ``practice`` true with more
  players is refused. The board's LED menu offers it as its players page's fourth hole (d1,
  "1 player"), the web form as its "practice (the computer dismantles)" box;
- ``level``: in practice, how hard the computer's dismantle is, 0 to 3
  (:func:`controller.ai.puzzle.dismantle`); default 1 (the dismantle before levels could be
  chosen, so a journal written then resumes alike). Always a number, never the board's
  configured level: the dismantle is planned on the board's core, and the journal's start
  record must name the level a resume plans with (the config's ``[game] level`` reaches
  practice through the config's own new game). Without practice a level is checked and left
  out (the computer plays no seat);
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
controller.games.spec.OptionError: no picture 'four-w' for the 6x6 board: Four W is for the 9x9 board only (pictures: red-cross, h, square, triangle, space-rocket, house, traffic-jam, lightning, orion, love, jackson-pollock)
>>> SPEC.options({"players": 1, "practice": True}, 9)["practice"]
True
>>> options = SPEC.options({"players": 1, "level": 3}, 9)
>>> options["practice"], options["level"]
(True, 3)
>>> SPEC.options({"players": 1, "practice": True}, 9)["level"], "level" in SPEC.options({"level": 3}, 9)
(1, False)
>>> SPEC.options({"players": 1, "level": 5}, 9)
Traceback (most recent call last):
...
controller.games.spec.OptionError: level 5: the dismantle levels are 0, 1, 2 and 3
>>> SPEC.options({"players": 2, "practice": True}, 9)
Traceback (most recent call last):
...
controller.games.spec.OptionError: practice is for 1 player (the computer dismantles), not 2
>>> SPEC.options({"players": 2, "show_s": -1}, 9)
Traceback (most recent call last):
...
controller.games.spec.OptionError: show_s -1: a number of seconds from 0 to 600
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from ...ai.puzzle import DEFAULT_LEVEL, LEVELS
from ...checks import among, within
from . import classroom
from .store import PictureStore
from .flow import PICTURE_COLOURS, BoardPuzzle, PuzzleFlow, explain, is_idle_turn, next_colour, scene
from ...rules.puzzle.picture_rating import rate
from ...rules.puzzle.pictures import SIZES, library_picture, picture_name, shipped_names
from ...rules.puzzle import Check, PuzzleGame, PuzzleOptions
from ..spec import Choice, GameSpec, OptionError

MAX_S = 600  # a time limit or show of more than ten minutes is a typing mistake
MAX_K = 81
MENU_K = (1, 2, 3, 4)  # the k the board's menu offers to start with; any other is typed on the page


@dataclass(frozen=True)
class Setting(Choice):
    """An option whose values cannot be listed: a number of seconds, a k. Never a menu page;
    ``check`` reads it into its canonical form; ``input`` says how a form asks it."""

    menu: bool = False
    input: str | None = "number"

    def check(self, value: Any) -> Any:
        if self.name == "start_k":
            if not within(value, 1, MAX_K, whole=True):
                raise OptionError(f"start_k {value!r}: a whole number from 1 to the picture's stones", self.name)
            return value
        if value is None and self.name != "show_s":
            return None
        if not within(value, 0, MAX_S) or (value == 0 and self.name != "show_s"):
            least = "0" if self.name == "show_s" else "1"
            raise OptionError(f"{self.name} {value!r}: a number of seconds from {least} to {MAX_S}", self.name)
        return value


@dataclass(frozen=True)
class PictureChoice(Choice):
    """The picture: a library name or its title (``"Space Rocket"``); the form lists the
    library with each picture's difficulty on both boards. The board's menu offers the
    pictures of its own size (user pictures too), easiest first (:func:`by_difficulty`).
    ``library`` is the board's (:func:`with_pictures`); by default one that keeps no pictures
    of its own, the shipped ones only."""

    library: PictureStore = field(default_factory=PictureStore)

    def check(self, value: Any) -> Any:
        if not isinstance(value, str) or not 0 < len(value) <= 40:
            raise OptionError(f"picture {value!r}: name a picture of the library, e.g. 'red-cross'", self.name)
        name = picture_name(value)
        if not any(name in self.library.names(size) for size in SIZES):  # the rules check the board's size
            raise OptionError(f"picture {value!r}: the pictures are {', '.join(self.library.names(9))} "
                              "(and the pictures saved from the board)", self.name)
        return name

    def menu_values(self, size: int) -> tuple[Any, ...]:
        return by_difficulty(self.library, size)

    def means(self, value: Any, chosen: Mapping[str, Any] | None = None) -> str:
        return _picture_words(self.library, value) if isinstance(value, str) else str(value)  # saved pictures too

    def values_for(self, chosen: Mapping[str, Any]) -> tuple[Any, ...]:
        return self.menu_values(chosen.get("size", 9))


def by_difficulty(pictures: PictureStore, size: int) -> tuple[str, ...]:
    """The ``size`` board's shipped pictures, easiest first (ties in the library's order), then
    the saved ones of ``pictures`` in the library's order: a saved picture never moves a
    shipped one's hole."""
    shipped = shipped_names(size)
    return tuple(sorted(shipped, key=lambda name: _score(name, size))) + pictures.names(size)[len(shipped):]


@cache
def _score(name: str, size: int) -> int:
    return rate(library_picture(name, size)).score  # a shipped picture's: cached


def _picture_words(pictures: PictureStore, name: str) -> str:
    """A picture's title and its difficulty on each board it is drawn for (a picture saved from
    a board is drawn for that board alone)."""
    sizes = [size for size in (9, 6) if name in pictures.names(size)]
    if not sizes:
        return name
    ratings = ", ".join(f"{_score(name, size) if name in shipped_names(size) else rate(pictures.picture(name, size)).score}"
                        f"/5 on {size}x{size}" for size in sizes)
    return f"{pictures.picture(name, sizes[0]).title} (difficulty {ratings})"


@dataclass(frozen=True)
class Players(Choice):
    """2 to 4 players, as the form offers them; 1 is taken too, for practice (the rules refuse
    1 without practice and practice with more). The board's menu offers 1 after the others,
    so 2, 3 and 4 keep their holes (a1-c1) and the default stays a1."""

    def check(self, value: Any) -> Any:
        return 1 if value == 1 and not isinstance(value, bool) else super().check(value)

    def values_for(self, chosen: Mapping[str, Any]) -> tuple[Any, ...]:
        return (*self.values, 1)

    def menu_values(self, size: int) -> tuple[Any, ...]:
        return (*self.values, 1)

    def means(self, value: Any, chosen: Mapping[str, Any] | None = None) -> str:
        return PRACTICE_WORDS if value == 1 and not isinstance(value, bool) else super().means(value, chosen)


@dataclass(frozen=True)
class Practice(Choice):
    """Practice: given, or said by ``players`` 1 (see the module doc); never a menu page (the
    players page's 1 chooses it)."""

    def check_in(self, value: Any, options: Mapping[str, Any]) -> Any:
        return True if options.get("players") == 1 and value is False else self.check(value)


@dataclass(frozen=True)
class DismantleLevel(Choice):
    """The computer's dismantle level in practice (see the module doc): its menu page is asked
    only in practice, after the players page's 1."""

    def check_in(self, value: Any, options: Mapping[str, Any]) -> Any:
        if value is not None and not among(value, LEVELS):
            raise OptionError(f"level {value!r}: {self.refusal}", self.name)
        if not options.get("practice"):
            return None  # no computer plays: the level means nothing (the form sends its select anyway)
        return self.default if value is None else value

    def values_for(self, chosen: Mapping[str, Any]) -> tuple[Any, ...]:
        return self.values if chosen.get("practice") or chosen.get("players") == 1 else (None,)


PRACTICE_WORDS = "1 player: practice alone (the computer dismantles)"
PLAYERS = Players("players", (2, 3, 4), ("2 players", "3 players", "4 players"),
                  refusal="Picture-Puzzle is for 2 to 4 players (1 in practice)")
PRACTICE = Practice("practice", (False, True), ("players take turns to dismantle", "practice (the computer dismantles)"),
                    menu=False)
DISMANTLE_LEVEL = DismantleLevel("level", LEVELS, (
    "dismantle level 0: the holes stay where the stones came out (the twists change as little as can be)",
    "dismantle level 1: each twist turns a block with a new hole, so the holes move",
    "dismantle level 2: removals and twists mixed, on any block with stones",
    "dismantle level 3: removals and twists mixed, each twist moving as many stones as it can",
), refusal=f"the dismantle levels are {', '.join(map(str, LEVELS[:-1]))} and {LEVELS[-1]}", default=DEFAULT_LEVEL,
   label="Computer's dismantle")
PICTURE = PictureChoice("picture", shipped_names(9), tuple(_picture_words(PictureStore(), n) for n in shipped_names(9)),
                        refusal=f"the pictures are {', '.join(shipped_names(9))}")
START_K = Setting("start_k", MENU_K, tuple(f"first stage: k = {k} (stones and twists in each dismantle)" for k in MENU_K),
                  menu=True, label="First k")
RESTORE_LIMIT = Setting("restore_limit_s", (None,), ("seconds for a restore (no limit)",), label="Time per restore (s)")
DISMANTLE_LIMIT = Setting("dismantle_limit_s", (None,), ("seconds for a dismantle (no limit)",),
                          label="Time per dismantle (s)")
SHOW = Setting("show_s", (0,), ("seconds the picture is shown before each round (0: none)",),
               label="Show the picture (s)")
CHECK = Choice("check", ("colour", "polarity", "presence"),
               ("the judge checks every colour (the virtual board)", "the judge checks white and black (a polarity board)",
                "the judge checks only where stones are (a presence board)"), menu=False,
               refusal="the judge checks 'colour', 'polarity' or 'presence'", label="What the judge checks")


def make(spec: GameSpec, options: Mapping[str, Any], size: int, starter: int) -> BoardPuzzle:
    """The board's game (the rules check the combination: k against the picture's stones), on
    the picture of the library the spec reads (:func:`with_pictures`)."""
    picture = _picture_choice(spec).library.picture(options["picture"], size)
    rules = PuzzleOptions(options["players"], options["start_k"], options["restore_limit_s"],
                          options["dismantle_limit_s"], Check(options["check"]), options["practice"])
    return BoardPuzzle(picture, rules)


def with_pictures(spec: GameSpec, pictures: PictureStore) -> GameSpec:
    """Picture-Puzzle as a board whose library is ``pictures`` (its store of saved pictures)
    offers it: its picture option checks, lists and plays the pictures saved there too."""
    chosen = tuple(replace(c, library=pictures) if isinstance(c, PictureChoice) else c for c in spec.choices)
    return replace(spec, choices=chosen)


def _picture_choice(spec: GameSpec) -> PictureChoice:
    choice = spec.choice(PICTURE.name)
    assert isinstance(choice, PictureChoice)  # the spec below, or a copy with_pictures made
    return choice


def colours(options: Mapping[str, Any], board: tuple[str, ...]) -> tuple[str, ...]:
    """The picture's colours by index (W B R G), whatever the board's own are."""
    return PICTURE_COLOURS


SPEC = GameSpec(
    name="puzzle",
    game=PuzzleGame,
    title="Picture-Puzzle",
    sizes=(9, 6),
    choices=(PLAYERS, PRACTICE, DISMANTLE_LEVEL, PICTURE, START_K, RESTORE_LIMIT, DISMANTLE_LIMIT, SHOW, CHECK),
    flow=PuzzleFlow,
    explain=explain,
    is_idle_turn=is_idle_turn,
    next_colour=next_colour,
    scene=scene,
    colours=colours,
    rules=make,
    classroom_row=classroom.row,
    with_pictures=with_pictures,
    lights=tuple((colour, f"on an empty hole in Picture-Puzzle's build: put a {colour} stone here")
                 for colour in PICTURE_COLOURS),
)
