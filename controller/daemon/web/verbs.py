"""The virtual board's verbs behind ``POST /api/board/<verb>``, each checked against what the
hardware can do before it touches the board, and the commands behind ``POST /api/command``
(checked here once for every way in: the web API and the MQTT command topic).

A real block turns a few detents at a time, a hole name is a few characters and a marble has
one of the board's colours; a request asking for more is refused with a 400 at once, so it can
never keep the daemon busy (a turn of 500,000 detents once took it 105 s and 3 GB).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...errors import shown
from ...games import OptionError, argument_names, options
from ...rules.pictures import SIZES, check_title, library_names, picture_name
from .api import BadRequest, bounded, field, text

MAX_QUARTERS = 4  # one verb turns a block at most a full turn
MAX_NAME_CHARS = 16  # hole names (a1, 2/5) and button names are short


@dataclass(frozen=True)
class Limits:
    """What one board allows, from its profile."""

    hole_count: int
    block_count: int
    detents_per_quarter: int
    colours: tuple[str, ...]

    @property
    def max_steps(self) -> int:
        return MAX_QUARTERS * self.detents_per_quarter


def hole(data: dict[str, Any], limits: Limits) -> int | str:
    """The hole: an index on the board or a name (the board parses names)."""
    value = field(data, "hole", (int, str))
    if isinstance(value, int):
        return bounded(data, "hole", 0, limits.hole_count - 1)
    return str(text(data, "hole", MAX_NAME_CHARS))


def colour(data: dict[str, Any], limits: Limits) -> str | None:
    """The marble's colour: one of the board's, or none (the colour of the player to move)."""
    value = field(data, "colour", (str, type(None)), None)
    if value is not None and value not in limits.colours:
        raise BadRequest(f"colour {shown(value)} is not a marble colour of this board; "
                         f"one of {', '.join(limits.colours)} (or leave it out)")
    return value


def steps(data: dict[str, Any], limits: Limits) -> int:
    """Detents to turn: at most a full turn either way, never none."""
    value = bounded(data, "steps", -limits.max_steps, limits.max_steps)
    if value == 0:
        raise BadRequest("field 'steps' = 0 turns nothing; give detents, positive clockwise")
    return value


def block(data: dict[str, Any], limits: Limits) -> int:
    return bounded(data, "block", 1, limits.block_count)


def clear(board: Any) -> dict[str, Any]:
    """Lift every marble (the players clearing the board after a game, in one click), first
    turning any block left part-way through a turn back square, as hands would."""
    for block, offset in board.offsets().items():
        board.turn(block, -offset)
    lifted = []
    for index in sorted(board.marbles()):
        board.lift(index)
        lifted.append(board.name(index))
    return {"done": "clear", "lifted": lifted}


Verb = Callable[[Any, dict[str, Any], Limits], Any]
VERBS: dict[str, Verb] = {
    "place": lambda b, d, lim: b.place(hole(d, lim), colour(d, lim)),
    "lift": lambda b, d, lim: b.lift(hole(d, lim)),
    "turn": lambda b, d, lim: b.turn(block(d, lim), steps(d, lim)),
    "quarter": lambda b, d, lim: b.quarter(block(d, lim), field(d, "clockwise", bool)),
    "press": lambda b, d, lim: b.press(text(d, "button", MAX_NAME_CHARS)),
    "clear": lambda b, d, lim: clear(b),
}


COMMANDS = ("new_game", "take_back", "menu", "hint", "save_picture")
NEW_GAME_ARGS = tuple(dict.fromkeys(("game", "players", "twist", "neutral_skip", "names", "computer", "match", "level",
                                     "hints", *argument_names())))  # the registry checks them


def command(data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The command's name and arguments from a request body ``{"name": ..., "args": {...}}``;
    BadRequest for an unknown command or an argument it does not take (the core judges the
    arguments' values and answers bad ones with a notice)."""
    name = field(data, "name", str)
    if name not in COMMANDS:
        raise BadRequest(f"unknown command {shown(name)}; one of {', '.join(COMMANDS)}")
    return name, command_args(name, field(data, "args", dict, {}))


def checked(data: dict[str, Any], size: int) -> tuple[str, dict[str, Any]]:
    """:func:`command`, and a new game's options as the registry checks them for a ``size``
    board (the core checks them again): a bad one (a seat the game has not, a picture the board
    has not, a game it does not play) is refused at once, naming it, not told in a notice later.
    Every way in checks commands here: the web API, the MQTT command topic, the classroom console."""
    name, args = command(data)
    if name == "new_game":
        try:
            options(args, size)
        except OptionError as error:
            raise BadRequest(f"new_game: {error}") from None
    return name, args


def command_args(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """The command's arguments, only those it knows (save_picture's title checked here: a
    title that cannot name a picture, or names one the library has, is refused at once)."""
    known = {"new_game": NEW_GAME_ARGS, "save_picture": ("title",)}.get(name, ())
    unknown = [key for key in args if key not in known]
    if unknown:
        raise BadRequest(f"{name} takes no argument {shown(unknown[0])}"
                         + (f"; arguments: {', '.join(known)}" if known else ""))
    if name == "save_picture":
        return {"title": picture_title(args.get("title"))}
    return args


def picture_title(title: Any) -> str:
    """A new picture's title: one that can name a file and that no picture has yet (either size)."""
    try:
        tidy = check_title(title)
    except ValueError as error:
        raise BadRequest(f"save_picture: {error}") from None
    taken = [f"{size}x{size}" for size in SIZES if picture_name(tidy) in library_names(size)]
    if taken:
        raise BadRequest(f"save_picture: a picture named {picture_name(tidy)!r} is already in the "
                         f"{' and '.join(taken)} library; choose another title")
    return tidy
