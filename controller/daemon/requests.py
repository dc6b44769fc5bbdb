"""The commands people send the daemon, and their checks: one vocabulary for every way in
(``POST /api/command``, the MQTT command topic, the classroom console).

A request is ``{"name": ..., "args": {...}}``. An unknown command, an argument the command does
not take, a new game's option the board cannot play or a picture title that cannot be used is a
BadRequest naming it, refused at once with the same words whichever way it came. The core takes
these commands and a few of its own (the computer's answers, ``abort``); a test holds the two
lists together, since the core may not import the daemon.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import shown
from ..games import SHIPPED, Catalogue, OptionError, argument_names
from .web.api import BadRequest, field

COMMANDS = ("new_game", "take_back", "menu", "hint", "save_picture")
NEW_GAME_ARGS = tuple(dict.fromkeys(("game", "players", "twist", "neutral_skip", "names", "computer", "match", "level",
                                     "hints", *argument_names())))  # the registry checks them


class CommandRefused(BadRequest):
    """A command whose arguments the board cannot take, said as the API says it
    (``new_game: <reason>``); ``command`` and ``reason`` keep the parts apart, so a console can
    say it in its own words (the classroom's: "Could not start a new game on board b2: ...")."""

    def __init__(self, command: str, reason: str) -> None:
        super().__init__(f"{command}: {reason}")
        self.command, self.reason = command, reason


def command(data: dict[str, Any], games: Catalogue = SHIPPED) -> tuple[str, dict[str, Any]]:
    """The command's name and arguments from a request body ``{"name": ..., "args": {...}}``;
    BadRequest for an unknown command or an argument it does not take (the core judges the
    arguments' values and answers bad ones with a notice). ``games`` are the board's, with its
    picture library (a new picture's title must be free there): the daemon's web API and MQTT
    commands pass theirs; the classroom console, which keeps no pictures, checks with the shipped ones."""
    name = field(data, "name", str)
    if name not in COMMANDS:
        raise BadRequest(f"unknown command {shown(name)}; one of {', '.join(COMMANDS)}")
    return name, command_args(name, field(data, "args", dict, {}), games)


def checked(data: dict[str, Any], size: int, games: Catalogue = SHIPPED) -> tuple[str, Mapping[str, Any]]:
    """:func:`command`, and a new game's options as the board's ``games`` check them for a ``size``
    board: a bad one (a seat the game has not, a picture the board has not, a game it does not
    play) is refused at once, naming it, not told in a notice later; a good one goes to the core
    as the checked options (a GameOptions), which it trusts. Every way in checks commands here:
    the web API, the MQTT command topic, the classroom console."""
    name, args = command(data, games)
    if name == "new_game":
        try:
            return name, games.options(args, size)
        except OptionError as error:
            raise CommandRefused(name, str(error)) from None
    return name, args


def command_args(name: str, args: dict[str, Any], games: Catalogue) -> dict[str, Any]:
    """The command's arguments, only those it knows (save_picture's title checked here: a
    title that cannot name a picture, or names one the library has, is refused at once)."""
    known = {"new_game": NEW_GAME_ARGS, "save_picture": ("title",)}.get(name, ())
    unknown = [key for key in args if key not in known]
    if unknown:
        raise BadRequest(f"{name} takes no argument {shown(unknown[0])}"
                         + (f"; arguments: {', '.join(known)}" if known else ""))
    if name == "save_picture":
        return {"title": picture_title(args.get("title"), games)}
    return args


def picture_title(title: Any, games: Catalogue) -> str:
    """A new picture's title: one that can name a file and that no picture of the board's
    library has yet (either size)."""
    try:
        return games.pictures.free_title(title)
    except ValueError as error:
        raise CommandRefused("save_picture", str(error)) from None
